"""The GPU runtimes' Pad, group (and instance) normalization and LRN.

`GpuImage` is mixed into `gpu.KernelRuntime`; the kernels are in
`kernels/image.h`.

- `pad`: one thread per output element (grid-stride) on any strides and
  element type (`xhip_pad_<bytes>`, a data movement: each element's bytes).
- `group_norm`: float32; one block per (image, group), a dense run of C /
  groups channels; one pass of Welford statistics, combined through shared
  memory, then one pass that writes. A strided input is first made dense.
- `lrn`: float32; one thread per output element over a dense (N, C, rest)
  input, its window of channels summed in a loop.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from xhip.backend import checks
from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import MAX_GRID, GpuHost, block_for
from xhip.backend.runtime import DA, DeviceArray, OptDA
from xhip.dialects.hip import GroupNormAttributes, LrnAttributes, PadAttributes

PAD_CODES = {"constant": 0, "reflect": 1, "edge": 2, "wrap": 3}
"""The `mode` codes of `xhip_pad_*` (the XHIP_PAD_* of image.h)."""

PAD_KERNELS = {size: f"xhip_pad_{size}" for size in (1, 2, 4, 8)}
"""The pad kernel for each element size in bytes."""


def _bits(value: float) -> int:
    """A float's float32 bits: the launcher passes integers and pointers only."""
    return int(np.float32(value).view(np.int32))


def pad_meta(x: DeviceArray, out: DeviceArray, pads: Sequence[int]) -> np.ndarray:
    """`xhip_pad_*`'s meta: out shape, out strides, x strides, then per dim the
    cropped input length, the positive begin pad and the crop at the begin."""
    crops = checks.pad_crops(x.shape, pads)
    kept = [k for _, k in crops]
    lo = [c for c, _ in crops]
    before = [max(begin, 0) for begin in pads[: len(x.shape)]]
    rows = [list(out.shape), list(out.strides), list(x.strides), kept, before, lo]
    return np.asarray([v for row in rows for v in row] or [0], np.int64)


class GpuImage(GpuHost):
    """Mixed into `KernelRuntime`: Pad, group normalization and LRN."""

    def pad(
        self, pads: Sequence[int], x: DA, value: OptDA, out: DA, attrs: PadAttributes
    ) -> None:
        mode = attrs.mode
        kernel = PAD_KERNELS.get(x.itemsize)
        if kernel is None or x.dtype != out.dtype:
            self.refuse(f"from {x.dtype} to {out.dtype}")
        if value is not None and value.dtype != x.dtype:
            self.refuse(f"a {value.dtype} value for {x.dtype}")
        if out.size == 0:
            return
        checks.pad(x, out, pads, mode)
        meta = pad_meta(x, out, pads)
        filler = 0 if value is None or mode != "constant" else self._address(value)
        self._launch_strided(
            kernel, [("i32", PAD_CODES[mode])], out, meta, [x], [("ptr", filler)]
        )

    def _dense_copy(self, value: DeviceArray) -> tuple[DeviceArray, bool]:
        """`value` as a dense array; True if it is scratch to free."""
        if value.is_contiguous():
            return value, False
        dense = self.empty(value.shape, value.dtype)
        self.copy(value, dense)
        return dense, True

    def group_norm(
        self, x: DA, scale: DA, bias: DA, out: DA, attrs: GroupNormAttributes
    ) -> None:
        self._require_f32(x, scale, bias, out)
        if x.size == 0:
            return
        n, c = x.shape[:2]
        groups = c if attrs.num_groups is None else attrs.num_groups
        spatial = math.prod(x.shape[2:])
        scratch: list[DeviceArray] = []
        dense: list[DeviceArray] = []
        for value in (x, scale, bias):
            made, fresh = self._dense_copy(value)
            dense.append(made)
            if fresh:
                scratch.append(made)
        target = out if out.is_contiguous() else self.empty(out.shape, out.dtype)
        rows = n * groups
        length = (c // groups) * spatial
        block = block_for(length)
        args: list[KernelArg] = [
            ("ptr", self._address(dense[0])),
            ("ptr", self._address(dense[1])),
            ("ptr", self._address(dense[2])),
            ("ptr", self._address(target)),
            ("i64", rows),
            ("i64", groups),
            ("i64", c // groups),
            ("i64", spatial),
            ("i32", _bits(attrs.epsilon)),
            ("i32", 1 if attrs.per_group else 0),
        ]
        grid = min(rows, MAX_GRID)
        self.device.launch("xhip_group_norm_f32", grid, block, 16 * block, args)
        if target is not out:
            self.copy(target, out)
            scratch.append(target)
        for value in scratch:
            self.free(value.buffer)

    def lrn(self, src: DA, out: DA, attrs: LrnAttributes) -> None:
        size = attrs.size
        self._require_f32(src, out)
        if src.size == 0:
            return
        xs, fresh = self._dense_copy(src)
        target = out if out.is_contiguous() else self.empty(out.shape, out.dtype)
        c = src.shape[1]
        spatial = math.prod(src.shape[2:])
        args: list[KernelArg] = [
            ("ptr", self._address(xs)),
            ("ptr", self._address(target)),
            ("i64", src.size),
            ("i64", c),
            ("i64", spatial),
            ("i32", size),
            ("i32", _bits(attrs.alpha / size)),
            ("i32", _bits(attrs.beta)),
            ("i32", _bits(attrs.bias)),
        ]
        self._launch_1d("xhip_lrn_f32", src.size, args)
        if target is not out:
            self.copy(target, out)
            self.free(target.buffer)
        if fresh:
            self.free(xs.buffer)
