"""The GPU runtimes' Resize (ONNX Resize, every mode).

`GpuResize` is mixed into `gpu.KernelRuntime`; the kernels are in
`kernels/resize.h`. The host computes each dim's taps with the CPU runtime's
`cpu_resize.dim_taps` (vectorised numpy, once per shape and attributes:
`resize_tables` is cached) and uploads them as metadata, once per content
(`_device_meta`); one thread per output element then sums over the tensor
product of its dims' taps.

- nearest: `xhip_resize_nearest_<bytes>`, a gather of each element's bytes,
  so every element type runs (bool and the integers too), exactly.
- linear and cubic (antialias, exclude_outside included): float16, float32
  (weights and sums in float) and float64 (in double), `xhip_resize_<type>`;
  other types are refused in one line.

tf_crop_and_resize's positions outside the input get the extrapolation value,
converted to the output's type as the CPU runtime converts it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from xhip.backend import checks
from xhip.backend.cpu_resize import dim_taps
from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import GpuHost
from xhip.backend.runtime import DA, check_call
from xhip.dialects.hip import ResizeAttributes

NEAREST_KERNELS = {size: f"xhip_resize_nearest_{size}" for size in (1, 2, 4, 8)}
"""The nearest kernel for each element size in bytes."""
INTERPOLATE_KERNELS = {
    np.dtype(np.float16): ("xhip_resize_f16", np.dtype(np.float32)),
    np.dtype(np.float32): ("xhip_resize_f32", np.dtype(np.float32)),
    np.dtype(np.float64): ("xhip_resize_f64", np.dtype(np.float64)),
}
"""The linear/cubic kernel for each element type, and its weights' type."""
MAX_RANK = 8
"""XHIP_MAX_RANK of the kernels (the odometer's arrays)."""


@lru_cache(maxsize=256)
def resize_tables(
    in_shape: tuple[int, ...], out_shape: tuple[int, ...], attrs: ResizeAttributes
) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' tables: int64 `taps[rank], start[rank], index table` (the
    tail of `meta`) and the float64 weights, as the comment of resize.h says.
    A dim that stays has one tap of weight 1; a position outside the input
    (tf_crop_and_resize) has index -1 in its first tap. Read-only (cached)."""
    taps = dim_taps(in_shape, out_shape, attrs)
    counts: list[int] = []
    indices: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    for size, tap in zip(out_shape, taps):
        if tap is None:
            index = np.arange(size, dtype=np.int64)[:, None]
            weight = np.ones((size, 1))
        else:
            index = np.array(tap.index, dtype=np.int64).reshape(size, -1)
            weight = np.asarray(tap.weight, np.float64).reshape(size, -1)
            if tap.outside is not None:
                index[tap.outside, 0] = -1
        counts.append(index.shape[1])
        indices.append(index.reshape(-1))
        weights.append(weight.reshape(-1))
    starts = np.cumsum([0, *(len(i) for i in indices)])[:-1]
    table = np.concatenate(
        [np.asarray(counts, np.int64), starts.astype(np.int64), *indices]
    ).astype(np.int64)
    weight_table = np.concatenate([np.zeros(0), *weights])
    table.setflags(write=False)
    weight_table.setflags(write=False)
    return table, weight_table


class GpuResize(GpuHost):
    """Mixed into `KernelRuntime`: the `Runtime` method of Resize."""

    def resize(self, x: DA, out: DA, attrs: ResizeAttributes) -> None:
        mode = attrs.mode
        if x.dtype != out.dtype:
            self.refuse(f"from {x.dtype} to {out.dtype}")
        if len(x.shape) != len(out.shape) or len(x.shape) > MAX_RANK:
            self.refuse(f"rank {len(x.shape)} into {len(out.shape)} (same, at most 8)")
        weight_type = None
        if mode == "nearest":
            kernel = NEAREST_KERNELS.get(x.itemsize)
            if kernel is None:
                self.refuse(f"{x.dtype} elements")
        else:
            found = INTERPOLATE_KERNELS.get(x.dtype)
            if found is None:
                self.refuse(
                    f"{mode} on {x.dtype} (the GPU runtimes interpolate float16, "
                    "float32 and float64)",
                )
            kernel, weight_type = found
        n = out.size
        checks.resize(x, out)
        if n == 0:
            return
        table, weights = resize_tables(tuple(x.shape), tuple(out.shape), attrs)
        if self.debug:
            check_call(kernel, (x,), out, inplace_ok=False)
        rank = len(out.shape)
        header = np.asarray([*out.shape, *out.strides, *x.strides], np.int64)
        meta = np.concatenate([header, table, np.zeros(1, np.int64)])  # never empty
        # The extrapolation value in the output's type, as numpy casts it.
        ext = np.asarray([attrs.extrapolation_value]).astype(out.dtype)
        args: list[KernelArg] = [
            ("ptr", self._address(out)),
            ("ptr", self._address(x)),
            ("ptr", self._device_meta(ext)),
            ("i32", rank),
            ("ptr", self._device_meta(meta)),
        ]
        if weight_type is not None:
            args.append(("ptr", self._device_meta(weights.astype(weight_type))))
        args.append(("i64", n))
        self._launch_1d(kernel, n, args)
