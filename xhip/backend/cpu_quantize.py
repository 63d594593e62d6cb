"""The CPU runtime's quantization ops, as ONNX Runtime computes them.

`CpuQuantize` is mixed into `CpuRuntime` (cpu.py). Whole-array numpy: the
division, the product and the rounding in float32 (`np.rint`: ties to even,
as ORT's `nearbyintf`), the zero point and the scale broadcast to x. The GPU
kernels (`kernels/quantize.h`) compute the same float32 operations, so both
match ORT bit for bit. `scale_layout` is the one reading of a scale's shape
that both share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import ml_dtypes
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA, DeviceArray, OptDA
from xhip.dialects.hip import (
    ConvAttributes,
    QuantizeAttributes,
    RequantizeAttributes,
)


@dataclass(frozen=True, slots=True)
class ScaleLayout:
    """Where element i (row-major) of x finds its scale: with `a = (i / inner)
    % n` and `o = i / (inner * n)`, at `o * outer_stride + (a / block) *
    axis_stride + (i % inner) * inner_stride` of the dense scale."""

    inner: int
    n: int
    block: int
    outer_stride: int
    axis_stride: int
    inner_stride: int


def scale_layout(
    name: str,
    x: DeviceArray,
    scale: DeviceArray,
    zero: DeviceArray,
    attrs: QuantizeAttributes,
) -> ScaleLayout:
    """The layout of a per-tensor, per-axis or blocked scale for `x`; a
    `ValueError` naming the op `name` if the run-time shapes do not fit."""
    shape, axis, block = x.shape, attrs.axis, attrs.block_size
    n = shape[axis] if shape else 1
    inner = 1
    for size in shape[axis + 1 :]:
        inner *= size
    if scale.shape != zero.shape and not scale.size == zero.size == 1:
        raise ValueError(
            f"{name}: the scale has shape {scale.shape} but the zero point {zero.shape}"
        )
    if block:
        want = tuple(-(-n // block) if d == axis else s for d, s in enumerate(shape))
        if scale.shape != want:
            raise ValueError(
                f"{name}: a scale of block size {block} for x of shape {shape} "
                f"has shape {want}, got {scale.shape}"
            )
        return ScaleLayout(inner, n, block, want[axis] * inner, inner, 1)
    if scale.size == 1:
        return ScaleLayout(inner, n, 1, 0, 0, 0)
    if scale.shape != (n,):
        raise ValueError(
            f"{name}: a per-axis scale for x of shape {shape} along axis {axis} "
            f"has shape ({n},), got {scale.shape}"
        )
    return ScaleLayout(inner, n, 1, 0, 1, 0)


def _spread(
    values: np.ndarray, x_shape: tuple[int, ...], attrs: QuantizeAttributes
) -> np.ndarray:
    """`values` (a checked scale or zero point) broadcastable to x."""
    axis, rank = attrs.axis, len(x_shape)
    if attrs.block_size:
        repeated = np.repeat(values, attrs.block_size, axis=axis)
        return repeated[(slice(None),) * axis + (slice(0, x_shape[axis]),)]
    if values.size == 1:
        return values.reshape(())
    return values.reshape((-1,) + (1,) * (rank - axis - 1))


INTEGER_RANGE = {
    np.dtype(t): (float(ml_dtypes.iinfo(t).min), float(ml_dtypes.iinfo(t).max))
    for t in (np.int8, np.uint8, np.int16, np.uint16, ml_dtypes.int4, ml_dtypes.uint4)
}
"""Each quantized type's range, where QuantizeLinear saturates: int4 and uint4
are ml_dtypes' (one element a byte, the IR's i4 and ui4)."""


FLOAT8_DTYPES = tuple(
    np.dtype(t)
    for t in (
        ml_dtypes.float8_e4m3fn,
        ml_dtypes.float8_e4m3fnuz,
        ml_dtypes.float8_e5m2,
        ml_dtypes.float8_e5m2fnuz,
    )
)
"""ONNX's float8 types, as ml_dtypes (the IR's f8E4M3FN, f8E4M3FNUZ, f8E5M2,
f8E5M2FNUZ)."""


def quantize(
    x: np.ndarray,
    scale: np.ndarray,
    zero: np.ndarray,
    out: np.ndarray,
    saturate: bool = True,
) -> None:
    """`saturate(rint(x / scale) + zero)` into `out`, in float32 (scale and
    zero broadcast to x). To float8: `x / scale + zero` rounded to nearest
    (ties to even, ml_dtypes' conversion), clamped to the largest finite
    value first under `saturate` (NaN stays NaN), as ONNX Runtime does."""
    q = np.asarray(np.divide(x, scale, dtype=np.float32))  # 0-d: an array too
    if out.dtype in FLOAT8_DTYPES:
        np.add(q, zero, out=q, dtype=np.float32)
        if saturate:
            top = float(ml_dtypes.finfo(out.dtype).max)
            np.clip(q, -top, top, out=q)
        np.copyto(out, q.astype(out.dtype))
        return
    np.rint(q, out=q)
    np.add(q, zero, out=q, dtype=np.float32)
    saturate_to(q, out)


def saturate_to(q: np.ndarray, out: np.ndarray) -> None:
    """`q` clamped to `out`'s integer range, into `out`: a NaN becomes its
    least value, as ONNX Runtime's quantizers give (`fmax` takes the bound
    where `clip` would keep the NaN)."""
    lo, hi = INTEGER_RANGE[out.dtype]
    np.fmax(q, lo, out=q)
    np.fmin(q, hi, out=q)
    np.copyto(out, q, casting="unsafe")


def dynamic_parameters(x: np.ndarray) -> tuple[np.float32, np.uint8]:
    """ORT's scale and zero point of uint8 DynamicQuantizeLinear, float32
    throughout: the range widened to hold 0, NaN skipped (as MLAS and the
    GPU kernel), 1 for an empty range. The zero point is clamped as ORT's
    `std::max(0, std::min(255, start))`, which takes a NaN start (an infinite
    range: -inf / inf) to 255."""
    f = np.float32
    lo = f(np.fmin.reduce(x, axis=None, initial=f(0)))
    hi = f(np.fmax.reduce(x, axis=None, initial=f(0)))
    scale = f(1) if hi == lo else f((hi - lo) / f(255))
    with np.errstate(invalid="ignore"):
        start = f(0) - f(lo / scale)
    start = start if start < f(255) else f(255)
    start = start if f(0) < start else f(0)
    return scale, np.uint8(np.rint(start))


class CpuQuantize(CpuHost):
    """Mixed into `CpuRuntime`: `Runtime.quantize_linear`,
    `dequantize_linear`, `dynamic_quantize_linear`, `matmul_integer`,
    `requantize`, `conv_integer`."""

    def quantize_linear(
        self, x: DA, scale: DA, zero_point: DA, out: DA, attrs: QuantizeAttributes
    ) -> None:
        """`hip.quantize_linear`."""
        scale_layout("hip.quantize_linear", x, scale, zero_point, attrs)
        s = _spread(self.array(scale), x.shape, attrs)
        z = _spread(self.array(zero_point), x.shape, attrs)
        quantize(self.array(x), s, z, self.array(out), attrs.saturate)

    def dequantize_linear(
        self, x: DA, scale: DA, zero_point: DA, out: DA, attrs: QuantizeAttributes
    ) -> None:
        """`hip.dequantize_linear`: `float32(int32(x) - int32(zero)) * scale`
        (float8: the difference in float32)."""
        scale_layout("hip.dequantize_linear", x, scale, zero_point, attrs)
        s = _spread(self.array(scale), x.shape, attrs)
        z = _spread(self.array(zero_point), x.shape, attrs)
        data = self.array(x)
        work = np.float32 if data.dtype in FLOAT8_DTYPES else np.int32
        with np.errstate(over="ignore"):
            d = np.subtract(data, z, dtype=work)
        y = np.multiply(d, s, dtype=np.float32)
        np.copyto(self.array(out), y, casting="unsafe")

    def dynamic_quantize_linear(
        self, x: DA, out: DA, scale: DA, zero_point: DA
    ) -> None:
        """`hip.dynamic_quantize_linear`."""
        data = self.array(x)
        s, z = dynamic_parameters(data)
        self.array(scale)[()] = s
        self.array(zero_point)[()] = z
        quantize(data, np.asarray(s), np.asarray(z, np.float32), self.array(out))

    def matmul_integer(self, a: DA, b: DA, a_zero: DA, b_zero: DA, out: DA) -> None:
        """`hip.matmul_integer`. Through float64 BLAS: every product of two
        differences of 8-bit integers is below 2^16 in size, so any sum of
        fewer than 2^37 of them is exact; the cast back wraps to int32 as
        ONNX Runtime's int32 accumulation does."""
        x, w = self.array(a), self.array(b)
        xz, wz = self.array(a_zero), self.array(b_zero)
        m, n = x.shape[-2], w.shape[-1]
        for zero, size, what in ((xz, m, "a_zero"), (wz, n, "b_zero")):
            if zero.size != 1 and zero.shape != (size,):
                raise ValueError(
                    f"hip.matmul_integer: {what} has shape {zero.shape}; expected one "
                    f"element or ({size},)"
                )
        left = np.subtract(
            x, xz.reshape(-1, 1) if xz.size > 1 else xz.reshape(()), dtype=np.float64
        )
        right = np.subtract(w, wz.reshape(()) if wz.size == 1 else wz, dtype=np.float64)
        product = np.matmul(left, right)
        np.copyto(self.array(out), product.astype(np.int64), casting="unsafe")

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
        """`hip.requantize`: the multiplier `a_scale * b_scale / y_scale` and
        the product with `float32(x)` in float32, as ONNX Runtime's
        `MlasRequantizeOutput`; its clamp to `[lo - zero, hi - zero]` before
        rounding is the clip after it here, the bounds being integers."""
        acc = self.array(x)
        rank = acc.ndim
        spread = []
        for scale, axis in ((a_scale, attrs.a_axis), (b_scale, attrs.b_axis)):
            values = self.array(scale)
            if values.size != 1 and values.shape != (acc.shape[axis],):
                raise ValueError(
                    f"hip.requantize: a scale has shape {values.shape}; expected one "
                    f"element or ({acc.shape[axis]},)"
                )
            spread.append(
                values.reshape(())
                if values.size == 1
                else values.reshape((-1,) + (1,) * (rank - axis - 1))
            )
        multiplier = np.divide(
            np.multiply(spread[0], spread[1], dtype=np.float32),
            self.array(y_scale).reshape(()),
            dtype=np.float32,
        )
        q = np.multiply(acc, multiplier, dtype=np.float32)
        np.rint(q, out=q)
        target = self.array(out)
        np.add(q, self.array(zero_point).reshape(()), out=q, dtype=np.float32)
        saturate_to(q, target)

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
        """`hip.conv_integer`: the zero points taken off in float64 (the
        padding is then 0, as ORT pads with x's zero point), the windows as a
        strided view (im2col), one `einsum` over the groups; exact as
        `matmul_integer`'s float64 GEMM, plus the bias in int64, wrapped to
        int32 the same way."""
        xs, ws = self.array(x), self.array(w)
        xz, wz = self.array(x_zero), self.array(w_zero)
        m, group, rank = ws.shape[0], attrs.group, xs.ndim - 2
        if xz.size != 1 or (wz.size != 1 and wz.shape != (m,)):
            raise ValueError(
                f"hip.conv_integer: zero points of shapes {xz.shape} and {wz.shape}; "
                f"expected one element, and one or ({m},)"
            )
        image = np.subtract(xs, xz.reshape(()), dtype=np.float64)
        pads = [(0, 0), (0, 0)]
        pads += [(attrs.pads[d], attrs.pads[rank + d]) for d in range(rank)]
        image = np.pad(image, pads)
        kernel = ws.shape[2:]
        spans = [(k - 1) * d + 1 for k, d in zip(kernel, attrs.dilations, strict=True)]
        windows = sliding_window_view(image, spans, axis=tuple(range(2, 2 + rank)))
        target = self.array(out)
        positions = tuple(
            slice(None, n * s, s)
            for n, s in zip(target.shape[2:], attrs.strides, strict=True)
        )
        taps = tuple(slice(None, None, d) for d in attrs.dilations)
        windows = windows[(slice(None), slice(None), *positions, *taps)]
        n, c = xs.shape[:2]
        cols = windows.reshape(
            n, group, c // group, math.prod(target.shape[2:]), math.prod(kernel)
        )
        zero = wz.reshape(()) if wz.size == 1 else wz.reshape((m,) + (1,) * (rank + 1))
        filters = np.subtract(ws, zero, dtype=np.float64)
        filters = filters.reshape(group, m // group, c // group, -1)
        product = np.einsum("ngcpk,gmck->ngmp", cols, filters, optimize=True)
        total = product.reshape(target.shape).astype(np.int64)
        if bias is not None:  # int32 additions, wrapping, as ORT's
            shift = self.array(bias).astype(np.int64)
            total += shift.reshape((m,) + (1,) * rank)
        np.copyto(target, total, casting="unsafe")
