"""The GPU runtimes' GridSample, Col2Im and DeformConv.

`GpuSampling` is mixed into `gpu.KernelRuntime`; the kernels are in
`kernels/sampling.h`: one thread per output element, float16, float32 and
float64 (other types are refused in one line). Strided operands are first
made dense with the copy kernel. GridSample takes 1 to 3 spatial dims (the
spec's 4-D and 5-D inputs, and 3-D), every mode and padding mode; Col2Im up
to 6 spatial dims; DeformConv 1 to 3 (one thread per output element, the
sum over its group's channels and taps; an absent bias or mask is a null
pointer).
"""

from __future__ import annotations

import numpy as np

from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import GpuHost
from xhip.backend.runtime import DA, OptDA, check_call
from xhip.dialects.hip import (
    GRID_SAMPLE_MODES,
    GRID_SAMPLE_PADDING_MODES,
    Col2ImAttributes,
    DeformConvAttributes,
    GridSampleAttributes,
)

GRID_SAMPLE_KERNELS = {
    np.dtype(np.float16): "xhip_grid_sample_f16",
    np.dtype(np.float32): "xhip_grid_sample_f32",
    np.dtype(np.float64): "xhip_grid_sample_f64",
}
COL2IM_KERNELS = {
    np.dtype(np.float16): "xhip_col2im_sum_f16",
    np.dtype(np.float32): "xhip_col2im_sum_f32",
    np.dtype(np.float64): "xhip_col2im_sum_f64",
}
DEFORM_CONV_KERNELS = {
    np.dtype(np.float16): "xhip_deform_conv_f16",
    np.dtype(np.float32): "xhip_deform_conv_f32",
    np.dtype(np.float64): "xhip_deform_conv_f64",
}
MODE_CODES = {"linear": 0, "nearest": 1, "cubic": 2}
PADDING_CODES = {"zeros": 0, "border": 1, "reflection": 2}
assert set(MODE_CODES) == set(GRID_SAMPLE_MODES)
assert set(PADDING_CODES) == set(GRID_SAMPLE_PADDING_MODES)


class GpuSampling(GpuHost):
    """Mixed into `KernelRuntime`: the `Runtime` methods of GridSample, Col2Im
    and DeformConv."""

    def _kernel(self, table: dict[np.dtype, str], *values: DA) -> str:
        kernel = table.get(values[0].dtype)
        if kernel is None or any(v.dtype != values[0].dtype for v in values):
            types = ", ".join(sorted({str(v.dtype) for v in values}))
            self.refuse(f"{types} operands (float16, float32 or float64, one type)")
        return kernel

    def _run(
        self, kernel: str, out: DA, srcs: tuple[DA, ...], rank: int, meta: np.ndarray
    ) -> None:
        """`kernel` (out, *srcs, rank, meta, n) over dense copies where needed."""
        n = out.size
        if n == 0:
            return
        dense = tuple(s if s.is_contiguous() else self._dense(s) for s in srcs)
        target = out if out.is_contiguous() else self._dense(out, keep=False)
        if self.debug:
            check_call(kernel, dense, target, inplace_ok=False)
        args: list[KernelArg] = [
            ("ptr", self._address(target)),
            *(("ptr", self._address(s)) for s in dense),
            ("i32", rank),
            ("ptr", self._device_meta(meta)),
            ("i64", n),
        ]
        self._launch_1d(kernel, n, args)
        if target is not out:
            self.copy(target, out)

    def deform_conv(
        self,
        x: DA,
        w: DA,
        offset: DA,
        bias: OptDA,
        mask: OptDA,
        out: DA,
        attrs: DeformConvAttributes,
    ) -> None:
        given = [v for v in (x, w, offset, bias, mask, out) if v is not None]
        kernel = self._kernel(DEFORM_CONV_KERNELS, *given)
        rank = len(attrs.kernel)
        if not 1 <= rank <= 3:
            self.refuse(f"{rank} spatial dims (1 to 3)")
        n = out.size
        if n == 0:
            return
        meta = np.asarray(
            [
                *x.shape[:2],
                w.shape[0],
                attrs.group,
                attrs.offset_group,
                *x.shape[2:],
                *out.shape[2:],
                *attrs.kernel,
                *attrs.strides,
                *attrs.dilations,
                *attrs.pads[:rank],
            ],
            np.int64,
        )
        srcs = [
            None if s is None else s if s.is_contiguous() else self._dense(s)
            for s in (x, w, offset, bias, mask)
        ]
        target = out if out.is_contiguous() else self._dense(out, keep=False)
        if self.debug:
            check_call(
                kernel,
                tuple(s for s in srcs if s is not None),
                target,
                inplace_ok=False,
            )
        args: list[KernelArg] = [
            ("ptr", self._address(target)),
            *(("ptr", 0 if s is None else self._address(s)) for s in srcs),
            ("i32", rank),
            ("ptr", self._device_meta(meta)),
            ("i64", n),
        ]
        self._launch_1d(kernel, n, args)
        if target is not out:
            self.copy(target, out)

    def grid_sample(
        self, x: DA, grid: DA, out: DA, attrs: GridSampleAttributes
    ) -> None:
        kernel = self._kernel(GRID_SAMPLE_KERNELS, x, grid, out)
        rank = len(x.shape) - 2
        if not 1 <= rank <= 3:
            self.refuse(f"{rank} spatial dims (1 to 3)")
        points = out.size // max(1, x.shape[0] * x.shape[1])
        meta = np.asarray(
            [
                *x.shape,
                points,
                MODE_CODES[attrs.mode],
                PADDING_CODES[attrs.padding_mode],
                int(attrs.align_corners),
            ],
            np.int64,
        )
        self._run(kernel, out, (x, grid), rank, meta)

    def col2im(self, x: DA, out: DA, attrs: Col2ImAttributes) -> None:
        kernel = self._kernel(COL2IM_KERNELS, x, out)
        rank = len(attrs.block)
        if rank > 6:
            self.refuse(f"{rank} spatial dims (at most 6)")
        image = out.shape[2:]
        pads = attrs.pads
        blocks = [
            (
                image[d]
                + pads[d]
                + pads[rank + d]
                - attrs.dilations[d] * (attrs.block[d] - 1)
                - 1
            )
            // attrs.strides[d]
            + 1
            for d in range(rank)
        ]
        meta = np.asarray(
            [
                *out.shape,
                *attrs.block,
                *attrs.strides,
                *attrs.dilations,
                *pads[:rank],
                *blocks,
            ],
            np.int64,
        )
        self._run(kernel, out, (x,), rank, meta)
