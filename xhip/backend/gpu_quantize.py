"""The GPU runtimes' quantization ops: the kernels of `kernels/quantize.h`.

`GpuQuantize` is mixed into `gpu.KernelRuntime`. Quantize and dequantize are
one grid-stride kernel each over any strides of x and y, the scale and zero
point dense (`cpu_quantize.scale_layout`). DynamicQuantizeLinear is one block
that writes the scale and zero point, then the quantize kernel reading them.
MatMulInteger is an integer kernel reading the 8-bit operands where they lie
(one output element per thread, int32 accumulation): no float copy of the
weights, and no BLAS call, as no vendor BLAS of our device API takes int8.
Requantize (QLinearMatMul's output stage) is one grid-stride kernel.
ConvInteger is a direct integer convolution, one output element per thread,
reading x and w where they lie (any strides): no float copy of either.
Quantize and dequantize take int4, uint4 and float8 too (`SMALL`).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from xhip.backend.cpu_quantize import FLOAT8_DTYPES, INTEGER_RANGE, scale_layout
from xhip.backend.device import KernelArg
from xhip.backend.elementwise import TYPE_CODES
from xhip.backend.gpu_host import BLOCK, GpuHost, broadcast_strides
from xhip.backend.runtime import DA, DeviceArray, OptDA
from xhip.dialects.hip import (
    ConvAttributes,
    QuantizeAttributes,
    RequantizeAttributes,
)

SCALE_DTYPES = (np.dtype(np.float32), np.dtype(np.float16))
QUANTIZED_DTYPES = tuple(INTEGER_RANGE)
SMALL: dict[np.dtype[Any], tuple[np.dtype[Any], int]] = {
    np.dtype(ml_dtypes.int4): (np.dtype(np.int8), 1),
    np.dtype(ml_dtypes.uint4): (np.dtype(np.uint8), 2),
    **{t: (np.dtype(np.uint8), 3 + i) for i, t in enumerate(FLOAT8_DTYPES)},
}
"""int4, uint4 and the float8 types (one a byte) go as int8 or uint8 bytes,
the kernels told which (`small`: the low nibble, `xhip_f8_decode`,
`xhip_f8_encode`)."""
EIGHT_BIT = (np.dtype(np.int8), np.dtype(np.uint8))


class GpuQuantize(GpuHost):
    """Mixed into `KernelRuntime`: `Runtime.quantize_linear`,
    `dequantize_linear`, `dynamic_quantize_linear`, `matmul_integer`,
    `requantize`, `conv_integer`."""

    def _linear(
        self,
        kernel: str,
        x: DA,
        scale: DA,
        zero_point: DA,
        out: DA,
        attrs: QuantizeAttributes,
        trailing: list[KernelArg],
    ) -> None:
        layout = scale_layout(f"hip.{kernel[5:]}", x, scale, zero_point, attrs)
        dense = [
            v if v.is_contiguous() else self._dense(v) for v in (scale, zero_point)
        ]
        args: list[KernelArg] = [
            *(("ptr", self._address(v)) for v in dense),
            ("i64", layout.inner),
            ("i64", layout.n),
            ("i64", layout.block),
            ("i64", layout.outer_stride),
            ("i64", layout.axis_stride),
            ("i64", layout.inner_stride),
        ]
        x_type, x_small = SMALL.get(x.dtype, (x.dtype, 0))
        out_type, out_small = SMALL.get(out.dtype, (out.dtype, 0))
        codes: list[KernelArg] = [
            ("i32", TYPE_CODES[x_type]),
            ("i32", TYPE_CODES[out_type]),
        ]
        small: KernelArg = ("i32", x_small or out_small)
        meta = np.asarray([*x.shape, *out.strides, *x.strides] or [0], dtype=np.int64)
        args = [*args, small, *trailing]
        self._launch_strided(kernel, codes, out, meta, [x], args)
        for given, used in zip((scale, zero_point), dense, strict=True):
            if used is not given:
                self.free(used.buffer)

    def quantize_linear(
        self, x: DA, scale: DA, zero_point: DA, out: DA, attrs: QuantizeAttributes
    ) -> None:
        if x.dtype not in SCALE_DTYPES or out.dtype not in (
            *QUANTIZED_DTYPES,
            *FLOAT8_DTYPES,
        ):
            self.refuse(f"from {x.dtype} to {out.dtype}")
        lo, hi = INTEGER_RANGE.get(out.dtype, (0, 0))  # float8: unused
        bounds: list[KernelArg] = [("i32", int(lo)), ("i32", int(hi))]
        trailing = [*bounds, ("i32", int(attrs.saturate))]
        self._linear("xhip_quantize_linear", x, scale, zero_point, out, attrs, trailing)

    def dequantize_linear(
        self, x: DA, scale: DA, zero_point: DA, out: DA, attrs: QuantizeAttributes
    ) -> None:
        if out.dtype not in SCALE_DTYPES or x.dtype not in (
            *QUANTIZED_DTYPES,
            *FLOAT8_DTYPES,
            np.dtype(np.int32),
        ):
            self.refuse(f"from {x.dtype} to {out.dtype}")
        self._linear("xhip_dequantize_linear", x, scale, zero_point, out, attrs, [])

    def dynamic_quantize_linear(
        self, x: DA, out: DA, scale: DA, zero_point: DA
    ) -> None:
        self._require_f32(x)
        meta = np.asarray([*x.shape, *x.strides] or [0], dtype=np.int64)
        args: list[KernelArg] = [
            ("ptr", self._address(x)),
            ("i32", len(x.shape)),
            ("ptr", self._device_meta(meta)),
            ("i64", x.size),
            ("ptr", self._address(scale)),
            ("ptr", self._address(zero_point)),
        ]
        self.device.launch("xhip_dynamic_quantize_params", 1, BLOCK, 8 * BLOCK, args)
        self.quantize_linear(
            x, scale, zero_point, out, QuantizeAttributes(0, 0, saturate=True)
        )

    def matmul_integer(self, a: DA, b: DA, a_zero: DA, b_zero: DA, out: DA) -> None:
        for v in (a, b, a_zero, b_zero):
            if v.dtype not in EIGHT_BIT:
                self.refuse(f"{v.dtype} operands (int8 and uint8 only)")
        rank = len(out.shape)
        m, n, k = out.shape[-2], out.shape[-1], a.shape[-1]
        batch = out.shape[:-2]

        def batch_strides(v: DA) -> list[int]:
            view = DeviceArray(
                v.buffer, v.offset, v.shape[:-2], v.strides[:-2], v.dtype, v.base
            )
            return broadcast_strides(view, batch)

        def zero_strides(v: DA, size: int, last: bool) -> list[int]:
            if v.size != 1 and v.shape != (size,):
                raise ValueError(
                    f"hip.matmul_integer: a zero point has shape {v.shape}; expected "
                    f"one element or ({size},)"
                )
            stride = v.strides[0] if v.size > 1 else 0
            return [0] * (rank - 2) + ([0, stride] if last else [stride, 0])

        rows = [
            list(out.shape),
            list(out.strides),
            [*batch_strides(a), a.strides[-2], 0],
            [*batch_strides(b), 0, b.strides[-1]],
            zero_strides(a_zero, m, last=False),
            zero_strides(b_zero, n, last=True),
        ]
        meta = np.asarray([v for row in rows for v in row], dtype=np.int64)
        signs: list[KernelArg] = [
            ("i32", int(a.dtype == np.int8)),
            ("i32", int(b.dtype == np.int8)),
        ]
        strides: list[KernelArg] = [
            ("i64", k),
            ("i64", a.strides[-1]),
            ("i64", b.strides[-2]),
        ]
        self._launch_strided(
            "xhip_matmul_integer", signs, out, meta, [a, b, a_zero, b_zero], strides
        )

    def requantize(
        self,
        x: DA,
        a_scale: DA,
        b_scale: DA,
        y_scale: DA,
        zero_point: DA,
        out: DA,
        attrs: RequantizeAttributes,
    ) -> None:
        if x.dtype != np.int32 or out.dtype not in EIGHT_BIT:
            self.refuse(f"from {x.dtype} to {out.dtype}")
        if zero_point.dtype != out.dtype or a_scale.dtype not in SCALE_DTYPES:
            self.refuse(f"{a_scale.dtype} scales or a {zero_point.dtype} zero point")
        rank = len(out.shape)

        def scale_strides(v: DA, axis: int) -> list[int]:
            if v.size != 1 and v.shape != (out.shape[axis],):
                raise ValueError(
                    f"hip.requantize: a scale has shape {v.shape}; expected one "
                    f"element or ({out.shape[axis]},)"
                )
            strides = [0] * rank
            if v.size != 1:
                strides[axis] = v.strides[0]
            return strides

        rows = [
            list(out.shape),
            list(out.strides),
            list(x.strides),
            scale_strides(a_scale, attrs.a_axis),
            scale_strides(b_scale, attrs.b_axis),
        ]
        meta = np.asarray([v for row in rows for v in row] or [0], dtype=np.int64)
        lo, hi = INTEGER_RANGE[out.dtype]
        self._launch_strided(
            "xhip_requantize",
            [("i32", TYPE_CODES[a_scale.dtype]), ("i32", int(out.dtype == np.int8))],
            out,
            meta,
            [x, a_scale, b_scale, y_scale, zero_point],
            [("i32", int(lo)), ("i32", int(hi))],
        )

    def conv_integer(
        self,
        x: DA,
        w: DA,
        x_zero: DA,
        w_zero: DA,
        bias: OptDA,
        out: DA,
        attrs: ConvAttributes,
    ) -> None:
        for v in (x, w, x_zero, w_zero):
            if v.dtype not in EIGHT_BIT:
                self.refuse(f"{v.dtype} operands (int8 and uint8 only)")
        m = w.shape[0]
        if x_zero.size != 1 or (w_zero.size != 1 and w_zero.shape != (m,)):
            raise ValueError(
                f"hip.conv_integer: zero points of shapes {x_zero.shape} and "
                f"{w_zero.shape}; expected one element, and one or ({m},)"
            )
        spatial = len(x.shape) - 2
        rows = [
            out.shape,
            out.strides,
            x.shape,
            x.strides,
            w.shape,
            w.strides,
            attrs.strides,
            attrs.dilations,
            attrs.pads[:spatial],
        ]
        meta = np.asarray([v for row in rows for v in row], dtype=np.int64)
        signs: list[KernelArg] = [
            ("i32", int(x.dtype == np.int8)),
            ("i32", int(w.dtype == np.int8)),
        ]
        if bias is not None and (bias.dtype != np.int32 or bias.shape != (m,)):
            raise ValueError(
                f"hip.conv_integer: a bias of {bias.dtype} {bias.shape}; expected "
                f"int32 ({m},)"
            )
        trailing: list[KernelArg] = [
            ("i32", attrs.group),
            ("i64", w_zero.strides[0] if w_zero.size > 1 else 0),
            ("ptr", 0 if bias is None else self._address(bias)),
            ("i64", 0 if bias is None else bias.strides[0]),
        ]
        self._launch_strided(
            "xhip_conv_integer", signs, out, meta, [x, w, x_zero, w_zero], trailing
        )
