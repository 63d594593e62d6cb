"""The GPU runtimes' quantization ops: the kernels of `kernels/quantize.h`.

`GpuQuantize` is mixed into `gpu.KernelRuntime`. Quantize and dequantize are
one grid-stride kernel each over any strides of x and y, the scale and zero
point dense (`cpu_quantize.scale_layout`). DynamicQuantizeLinear is one block
that writes the scale and zero point, then the quantize kernel reading them.
MatMulInteger is an integer kernel reading the 8-bit operands where they lie
(one output element per thread, int32 accumulation): no float copy of the
weights, and no BLAS call, as no vendor BLAS of our device API takes int8.
"""

from __future__ import annotations

import numpy as np

from xhip.backend.cpu_quantize import INTEGER_RANGE, scale_layout
from xhip.backend.device import KernelArg
from xhip.backend.elementwise import TYPE_CODES
from xhip.backend.gpu_host import BLOCK, GpuHost, broadcast_strides
from xhip.backend.runtime import DA, DeviceArray
from xhip.dialects.hip import QuantizeAttributes

SCALE_DTYPES = (np.dtype(np.float32), np.dtype(np.float16))
QUANTIZED_DTYPES = tuple(INTEGER_RANGE)
EIGHT_BIT = (np.dtype(np.int8), np.dtype(np.uint8))


class GpuQuantize(GpuHost):
    """Mixed into `KernelRuntime`: `Runtime.quantize_linear`,
    `dequantize_linear`, `dynamic_quantize_linear`, `matmul_integer`."""

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
        codes: list[KernelArg] = [
            ("i32", TYPE_CODES[x.dtype]),
            ("i32", TYPE_CODES[out.dtype]),
        ]
        meta = np.asarray([*x.shape, *out.strides, *x.strides] or [0], dtype=np.int64)
        self._launch_strided(kernel, codes, out, meta, [x], [*args, *trailing])
        for given, used in zip((scale, zero_point), dense, strict=True):
            if used is not given:
                self.free(used.buffer)

    def quantize_linear(
        self, x: DA, scale: DA, zero_point: DA, out: DA, attrs: QuantizeAttributes
    ) -> None:
        if x.dtype not in SCALE_DTYPES or out.dtype not in QUANTIZED_DTYPES:
            self.refuse(f"from {x.dtype} to {out.dtype}")
        lo, hi = INTEGER_RANGE[out.dtype]
        bounds: list[KernelArg] = [("i32", int(lo)), ("i32", int(hi))]
        self._linear("xhip_quantize_linear", x, scale, zero_point, out, attrs, bounds)

    def dequantize_linear(
        self, x: DA, scale: DA, zero_point: DA, out: DA, attrs: QuantizeAttributes
    ) -> None:
        if out.dtype not in SCALE_DTYPES or x.dtype not in (
            *QUANTIZED_DTYPES,
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
        self.quantize_linear(x, scale, zero_point, out, QuantizeAttributes(0, 0))

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
