"""The GPU runtimes' Gather, GatherElements and GatherND.

`GpuGathers` is mixed into `gpu.KernelRuntime`; the kernels are in
`kernels/gather.h`: one per element size (1, 2, 4, 8 bytes), so every element
type runs, with int32 or int64 indices, on any strides. One thread per output
element; the three ops differ only in the `meta` they pass (which output dims
step through data, which through the indices, and the dims the indices pick
along): see the kernel's comment.

Out-of-range indices are clamped into range by the kernel (ONNX Runtime
fails; the CPU runtime raises IndexError); data with no elements along a
gathered dim while there is output to write is refused here (IndexError), as
every index is out of range then.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from xhip.backend import checks
from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import GpuHost
from xhip.backend.runtime import DA, DeviceArray, check_call
from xhip.dialects import hip
from xhip.dialects.hip import AxisAttributes, GatherNDAttributes

GATHER_KERNELS = {size: f"xhip_gather_{size}" for size in (1, 2, 4, 8)}
"""The gather kernel for each element size in bytes."""
INDEX_BYTES = {np.dtype(np.int32): 4, np.dtype(np.int64): 8}


def gather_meta(
    out: DeviceArray,
    data_strides: Sequence[int],
    index_strides: Sequence[int],
    sizes: Sequence[int],
    strides: Sequence[int],
    index_step: int,
) -> np.ndarray:
    """The kernel's `meta`: out's shape and strides, data's and the indices'
    strides per output dim, the gathered dims' sizes and strides, the step
    between the elements of one index tuple."""
    rows = [
        list(out.shape),
        list(out.strides),
        list(data_strides),
        list(index_strides),
        list(sizes),
        list(strides),
        [index_step],
    ]
    return np.asarray([v for row in rows for v in row], np.int64)


class GpuGathers(GpuHost):
    """Mixed into `KernelRuntime`: the `Runtime` methods of the gather family."""

    def gather(self, data: DA, indices: DA, out: DA, attrs: AxisAttributes) -> None:
        axis = attrs.axis
        q = len(indices.shape)
        ds = data.strides
        self._gather(
            hip.GatherOp,
            data,
            indices,
            out,
            [*ds[:axis], *[0] * q, *ds[axis + 1 :]],
            [*[0] * axis, *indices.strides, *[0] * (len(data.shape) - axis - 1)],
            [data.shape[axis]],
            [ds[axis]],
            0,
        )

    def gather_elements(
        self, data: DA, indices: DA, out: DA, attrs: AxisAttributes
    ) -> None:
        axis = attrs.axis
        ds = list(data.strides)
        ds[axis] = 0
        self._gather(
            hip.GatherElementsOp,
            data,
            indices,
            out,
            ds,
            indices.strides,
            [data.shape[axis]],
            [data.strides[axis]],
            0,
        )

    def gather_nd(
        self, data: DA, indices: DA, out: DA, attrs: GatherNDAttributes
    ) -> None:
        b, q = attrs.batch_dims, len(indices.shape)
        k = indices.shape[-1]
        ds = data.strides
        rest = len(data.shape) - b - k
        self._gather(
            hip.GatherNDOp,
            data,
            indices,
            out,
            [*ds[:b], *[0] * (q - 1 - b), *ds[b + k :]],
            [*indices.strides[:-1], *[0] * rest],
            data.shape[b : b + k],
            ds[b : b + k],
            indices.strides[-1],
        )

    def _gather(
        self,
        op: type[hip.HipDPSOp],
        data: DeviceArray,
        indices: DeviceArray,
        out: DeviceArray,
        data_strides: Sequence[int],
        index_strides: Sequence[int],
        sizes: Sequence[int],
        strides: Sequence[int],
        index_step: int,
    ) -> None:
        kernel = GATHER_KERNELS.get(data.itemsize)
        index_bytes = INDEX_BYTES.get(indices.dtype)
        if kernel is None or data.dtype != out.dtype:
            self.refuse(f"from {data.dtype} to {out.dtype}")
        if index_bytes is None:
            self.refuse(f"{indices.dtype} indices (int32 or int64)")
        n = out.size
        checks.gathered_dims(op, data, sizes, out)
        if n == 0:
            return
        if self.debug:
            check_call(kernel, (data, indices), out, inplace_ok=False)
        meta = gather_meta(out, data_strides, index_strides, sizes, strides, index_step)
        args: list[KernelArg] = [
            ("ptr", self._address(out)),
            ("ptr", self._address(data)),
            ("ptr", self._address(indices)),
            ("i32", index_bytes),
            ("i32", len(out.shape)),
            ("i32", len(sizes)),
            ("ptr", self._device_meta(meta)),
            ("i64", n),
        ]
        self._launch_1d(kernel, n, args)
