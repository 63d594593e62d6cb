"""ONNX Runtime's quantized contrib ops, each as the ai.onnx ops that give
its CPU kernel's answer bit for bit (`compose.Parts`); no kernel of their own.

- `QLinearAdd` (MLAS's x86 AVX2 kernel): with `r_a = sA / sC`,
  `r_b = sB / sC` and `f = zC - fma(r_a, zA, r_b * zB)`, the output is
  `saturate(rint(fma(a, r_a, fma(b, r_b, f))))`, all float32; each fused
  multiply-add is one float64 multiply-add rounded to float32 (the product
  of a float32 and an 8-bit integer is exact in float64). Where A is one
  value per run of the innermost dims and B is not, ORT passes B first:
  the roles of A and B swap (`_a_repeats`).
- `QLinearMul` (MLAS's SSE2 kernel): `saturate(rint(float((a - zA) * (b -
  zB)) * (sA * sB / sC) + zC))`, the product in int32.
- `QLinearSigmoid`, `QLinearLeakyRelu`: ORT's lookup table is
  DequantizeLinear, the float op, QuantizeLinear.
- `QLinearGlobalAveragePool`: the int32 sum less `zX * n`, times `sX / (sY
  * n)` in float32, rounded and shifted by `zY` (MLAS's requantization); n
  from the spatial dims, written by the host where they are known only at
  run time.
- `QLinearAveragePool`: AveragePool of the dequantized input, then
  `saturate(rint(y / sY + zY))` (ORT's `quantize_value`).
- `QLinearConcat`: each input whose scale and zero point are not Y's is
  dequantized and quantized to Y's (ORT's lookup table), then Concat.
- `QLinearSoftmax` (ORT's float lookup table, computed per element): with
  `d = x - max(x)` along the axis and ORT's shift `t = max(0, logf(FLT_MAX
  / n) - 5) / sX` (n the axis' size; for a size known only at run time
  the same float32 steps on the device), `e = float(exp((d + t) * sX))` in
  float64; the sum of `e` in order in float32 (CumSum's last); then
  `rint(e * floor(1 / sY) / sum) + zY`, saturated to Y's type (measured:
  ORT 1.32's int8 kernel saturates 128 to 127).
- `QGemm`: MatMulInteger (+ the int32 `C`) times `alpha * sA * sB` (over
  `sY` and quantized with `zY` where given), as MLAS's output processors.
- `DynamicQuantizeMatMul`, `MatMulIntegerToFloat`: MatMulInteger times
  `sA * sB`, plus the bias.
- `FusedMatMul`: Transpose, MatMul, times `alpha`.

Rounding and saturation are a QuantizeLinear of scale 1 (and the output's
zero point where ORT adds it after rounding).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    FloatAttr,
    IntegerType,
    Signedness,
    TensorType,
    f32,
    f64,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import onnx
from xhip.transforms.index_arith import Index, IndexArith
from xhip.transforms.onnx_to_hip.compose import Parts, PatternFactory, si64
from xhip.transforms.onnx_to_hip.compute import (
    ConvertCast,
    ConvertConcat,
    ConvertMatMul,
    ConvertTranspose,
    elementwise_pattern,
)
from xhip.transforms.onnx_to_hip.conv import ConvertAveragePool
from xhip.transforms.onnx_to_hip.quantize import (
    ConvertDequantizeLinear,
    ConvertDynamicQuantizeLinear,
    ConvertMatMulInteger,
    ConvertQuantizeLinear,
)
from xhip.transforms.onnx_to_hip.reduce import ConvertReduceMax, ConvertReduceSum
from xhip.transforms.onnx_to_hip.reshape import ConvertFlatten, ConvertReshape
from xhip.transforms.onnx_to_hip.run_time_dims import dims_of, index_tensor
from xhip.transforms.onnx_to_hip.scatter import ConvertCumSum
from xhip.transforms.onnx_to_hip.slice import ConvertSlice
from xhip.transforms.onnx_to_hip.support import OnnxPattern, Unsupported, ranked

U8 = IntegerType(8, Signedness.UNSIGNED)
I8 = IntegerType(8)
EIGHT_BITS: dict[Attribute, type[np.generic]] = {U8: np.uint8, I8: np.int8}
"""The quantized types these ops take, and their numpy types."""


PATTERNS: dict[type[onnx.OnnxOp], PatternFactory] = {
    **{
        t: elementwise_pattern(t)
        for t in (
            onnx.AddOp,
            onnx.SubOp,
            onnx.MulOp,
            onnx.DivOp,
            onnx.SigmoidOp,
            onnx.LeakyReluOp,
            onnx.ExpOp,
            onnx.FloorOp,
            onnx.RoundOp,
            onnx.LogOp,
            onnx.ReluOp,
        )
    },
    onnx.ReduceMaxOp: ConvertReduceMax,
    onnx.CumSumOp: ConvertCumSum,
    onnx.SliceOp: ConvertSlice,
    onnx.FlattenOp: ConvertFlatten,
    onnx.ReshapeOp: ConvertReshape,
    onnx.CastOp: ConvertCast,
    onnx.ConcatOp: ConvertConcat,
    onnx.AveragePoolOp: ConvertAveragePool,
    onnx.ReduceSumOp: ConvertReduceSum,
    onnx.TransposeOp: ConvertTranspose,
    onnx.MatMulOp: ConvertMatMul,
    onnx.QuantizeLinearOp: ConvertQuantizeLinear,
    onnx.DequantizeLinearOp: ConvertDequantizeLinear,
    onnx.DynamicQuantizeLinearOp: ConvertDynamicQuantizeLinear,
    onnx.MatMulIntegerOp: ConvertMatMulInteger,
}
"""The ops these are made of, and their patterns."""


def _shape(value: SSAValue, what: str) -> tuple[int, ...]:
    return ranked(value, what).get_shape()


def _broadcast(*shapes: Sequence[int]) -> tuple[int, ...]:
    """numpy's broadcast of `shapes`, a dim dynamic where no shape fixes it."""
    rank = max((len(s) for s in shapes), default=0)
    out: list[int] = []
    for d in range(rank):
        dims = {s[d - rank + len(s)] for s in shapes if d - rank + len(s) >= 0}
        fixed = dims - {1, DYNAMIC_INDEX}
        if len(fixed) > 1:
            raise Unsupported(f"shapes {[list(s) for s in shapes]} do not broadcast")
        out.append(
            fixed.pop() if fixed else DYNAMIC_INDEX if DYNAMIC_INDEX in dims else 1
        )
    return tuple(out)


def _quantized(value: SSAValue, what: str) -> Attribute:
    element = ranked(value, what).get_element_type()
    if element not in EIGHT_BITS:
        raise Unsupported(f"{what} of {element}: uint8 or int8 only")
    return element


def _f32_scale(value: SSAValue, what: str) -> None:
    if ranked(value, what).get_element_type() != f32:
        raise Unsupported(f"{what} of {value.type}: float32 only")


class _Builder:
    """`Parts` with the few ops these compositions use, typed from operands."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    def binary(self, op: type[onnx.OnnxOp], a: SSAValue, b: SSAValue) -> SSAValue:
        element = ranked(a, "an operand").get_element_type()
        shape = _broadcast(_shape(a, "an operand"), _shape(b, "an operand"))
        return self.parts.insert(op, [a, b], TensorType(element, shape))

    def cast(self, x: SSAValue, element: Attribute) -> SSAValue:
        if ranked(x, "an operand").get_element_type() == element:
            return x
        return self.parts.insert(
            onnx.CastOp,
            [x],
            TensorType(element, _shape(x, "an operand")),
            {"to": element},
        )

    def scalar(self, value: float, element: Attribute) -> SSAValue:
        dtypes: dict[Attribute, type[np.generic]] = {
            f32: np.float32,
            f64: np.float64,
            i32: np.int32,
            **EIGHT_BITS,
        }
        dtype = dtypes[element]
        return self.parts.constant(np.asarray(value, dtype), element)

    def zero_or(self, given: SSAValue | None, element: Attribute) -> SSAValue:
        return given if given is not None else self.scalar(0, element)

    def fma(self, x: SSAValue, y: SSAValue, z: SSAValue) -> SSAValue:
        """float32 `x * y + z` rounded once: exact products of a float32
        and an 8-bit integer in float64, their sum rounded to float32."""
        wide = [self.cast(v, f64) for v in (x, y, z)]
        product = self.binary(onnx.MulOp, wide[0], wide[1])
        return self.cast(self.binary(onnx.AddOp, product, wide[2]), f32)

    def quantize(
        self, x: SSAValue, scale: SSAValue | None, zero: SSAValue, element: Attribute
    ) -> SSAValue:
        """QuantizeLinear of `x` (`scale` None: 1, a rounding and saturation)."""
        scale = scale if scale is not None else self.scalar(1.0, f32)
        return self.parts.insert(
            onnx.QuantizeLinearOp,
            [x, scale, [zero]],
            TensorType(element, _shape(x, "an operand")),
        )

    def dequantize(
        self, x: SSAValue, scale: SSAValue, zero: SSAValue | None
    ) -> SSAValue:
        return self.parts.insert(
            onnx.DequantizeLinearOp,
            [x, scale, [zero] if zero is not None else []],
            TensorType(f32, _shape(x, "an operand")),
        )

    def transpose(self, x: SSAValue, perm: Sequence[int]) -> SSAValue:
        if list(perm) == sorted(perm):
            return x
        tensor_type = ranked(x, "an operand")
        shape = [tensor_type.get_shape()[p] for p in perm]
        return self.parts.insert(
            onnx.TransposeOp,
            [x],
            TensorType(tensor_type.get_element_type(), shape),
            {"perm": ArrayAttr([si64(p) for p in perm])},
        )

    def matmul_integer(
        self,
        a: SSAValue,
        b: SSAValue,
        a_zero: SSAValue | None,
        b_zero: SSAValue | None,
        shape: Sequence[int],
    ) -> SSAValue:
        return self.parts.insert(
            onnx.MatMulIntegerOp,
            [a, b, [a_zero] if a_zero else [], [b_zero] if b_zero else []],
            TensorType(i32, shape),
        )


def _matmul_shape(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    if len(a) < 2 or len(b) < 2:
        raise Unsupported("operands of rank >= 2 are needed")
    return (*_broadcast(a[:-2], b[:-2]), a[-2], b[-1])


def _scaled_back(
    build: _Builder, acc: SSAValue, scale: SSAValue, bias: SSAValue | None
) -> SSAValue:
    """`float(acc) * scale (+ bias)` in float32."""
    y = build.binary(onnx.MulOp, build.cast(acc, f32), scale)
    return build.binary(onnx.AddOp, y, bias) if bias is not None else y


def _a_repeats(a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether ORT's broadcast loop sees A as one value per span: A of one
    element (B not), or A of size 1 in the innermost dim of the result that
    is not 1, where B is not."""
    rank = max(len(a), len(b))
    a = [1] * (rank - len(a)) + list(a)
    b = [1] * (rank - len(b)) + list(b)
    if all(n == 1 for n in a):
        return any(n != 1 for n in b)
    for n, m in zip(reversed(a), reversed(b), strict=True):
        if n == 1 and m == 1:
            continue
        return n == 1 and m != 1
    return False


class ConvertQLinearAdd(OnnxPattern[onnx.QLinearAddOp]):
    def convert(self, op: onnx.QLinearAddOp, rewriter: PatternRewriter) -> None:
        element = _quantized(op.A, "A")
        for value, what in ((op.B, "B"), (op.C, "C")):
            if _quantized(value, what) != element:
                raise Unsupported(f"{what} of {value.type} differs from A's type")
        for s, what in (
            (op.A_scale, "A_scale"),
            (op.B_scale, "B_scale"),
            (op.C_scale, "C_scale"),
        ):
            _f32_scale(s, what)
        build = _Builder(Parts(self, op, rewriter, PATTERNS))
        first = (op.A, op.A_scale, op.A_zero_point)
        second = (op.B, op.B_scale, op.B_zero_point)
        if _a_repeats(_shape(op.A, "A"), _shape(op.B, "B")):
            first, second = second, first
        za, zb, zc = (
            build.cast(build.zero_or(z, element), f32)
            for z in (first[2], second[2], op.C_zero_point)
        )
        ra = build.binary(onnx.DivOp, first[1], op.C_scale)
        rb = build.binary(onnx.DivOp, second[1], op.C_scale)
        fixed = build.binary(
            onnx.SubOp, zc, build.fma(ra, za, build.binary(onnx.MulOp, rb, zb))
        )
        a, b = build.cast(first[0], f32), build.cast(second[0], f32)
        total = build.fma(a, ra, build.fma(b, rb, fixed))
        zero = build.scalar(0, element)
        build.parts.finish([build.quantize(total, None, zero, element)])


class ConvertQLinearMul(OnnxPattern[onnx.QLinearMulOp]):
    def convert(self, op: onnx.QLinearMulOp, rewriter: PatternRewriter) -> None:
        element = _quantized(op.A, "A")
        for value, what in ((op.B, "B"), (op.C, "C")):
            if _quantized(value, what) != element:
                raise Unsupported(f"{what} of {value.type} differs from A's type")
        for s, what in (
            (op.A_scale, "A_scale"),
            (op.B_scale, "B_scale"),
            (op.C_scale, "C_scale"),
        ):
            _f32_scale(s, what)
        build = _Builder(Parts(self, op, rewriter, PATTERNS))
        za, zb, zc = (
            build.zero_or(z, element)
            for z in (op.A_zero_point, op.B_zero_point, op.C_zero_point)
        )
        da = build.binary(onnx.SubOp, build.cast(op.A, i32), build.cast(za, i32))
        db = build.binary(onnx.SubOp, build.cast(op.B, i32), build.cast(zb, i32))
        product = build.cast(build.binary(onnx.MulOp, da, db), f32)
        ratio = build.binary(
            onnx.DivOp, build.binary(onnx.MulOp, op.A_scale, op.B_scale), op.C_scale
        )
        total = build.binary(
            onnx.AddOp, build.binary(onnx.MulOp, product, ratio), build.cast(zc, f32)
        )
        zero = build.scalar(0, element)
        build.parts.finish([build.quantize(total, None, zero, element)])


def _lookup(
    pattern: OnnxPattern[Any],
    op: onnx.QLinearSigmoidOp | onnx.QLinearLeakyReluOp,
    rewriter: PatternRewriter,
    function: type[onnx.OnnxOp],
    properties: dict[str, Attribute],
) -> None:
    element = _quantized(op.X, "X")
    if _quantized(op.Y, "Y") != element:
        raise Unsupported(f"Y of {op.Y.type} differs from X's type")
    _f32_scale(op.X_scale, "X_scale")
    _f32_scale(op.Y_scale, "Y_scale")
    build = _Builder(Parts(pattern, op, rewriter, PATTERNS))
    x = build.dequantize(op.X, op.X_scale, op.X_zero_point)
    y = build.parts.insert(function, [x], x.type, properties)
    zero = build.zero_or(op.Y_zero_point, element)
    build.parts.finish([build.quantize(y, op.Y_scale, zero, element)])


class ConvertQLinearSigmoid(OnnxPattern[onnx.QLinearSigmoidOp]):
    def convert(self, op: onnx.QLinearSigmoidOp, rewriter: PatternRewriter) -> None:
        _lookup(self, op, rewriter, onnx.SigmoidOp, {})


class ConvertQLinearLeakyRelu(OnnxPattern[onnx.QLinearLeakyReluOp]):
    def convert(self, op: onnx.QLinearLeakyReluOp, rewriter: PatternRewriter) -> None:
        alpha = FloatAttr(op.get_float("alpha"), f32)
        _lookup(self, op, rewriter, onnx.LeakyReluOp, {"alpha": alpha})


def _spatial_axes(rank: int, channels_last: int) -> list[int]:
    if rank < 3:
        raise Unsupported("X must have rank >= 3 (N, C, spatial dims)")
    return list(range(1, rank - 1)) if channels_last else list(range(2, rank))


class ConvertQLinearGlobalAveragePool(OnnxPattern[onnx.QLinearGlobalAveragePoolOp]):
    def convert(
        self, op: onnx.QLinearGlobalAveragePoolOp, rewriter: PatternRewriter
    ) -> None:
        element = _quantized(op.X, "X")
        shape = _shape(op.X, "X")
        axes = _spatial_axes(len(shape), op.get_int("channels_last"))
        build = _Builder(Parts(self, op, rewriter, PATTERNS))
        dims = dims_of(rewriter, build.parts, op.X)
        size = IndexArith(rewriter, op, self.state.folder).product(
            [dims[d] for d in axes]
        )
        count = index_tensor(build.parts, rewriter, [size], i32, True)
        count_f32 = (
            build.scalar(size, f32) if isinstance(size, int) else build.cast(count, f32)
        )
        reduced = [1 if d in axes else n for d, n in enumerate(shape)]
        total = build.parts.insert(
            onnx.ReduceSumOp,
            [build.cast(op.X, i32), []],
            TensorType(i32, reduced),
            {"axes": ArrayAttr([si64(a) for a in axes]), "keepdims": si64(1)},
        )
        bias = build.binary(onnx.MulOp, build.cast(op.x_zero_point, i32), count)
        acc = build.binary(onnx.SubOp, total, bias)
        denominator = build.binary(onnx.MulOp, op.y_scale, count_f32)
        scale = build.binary(onnx.DivOp, op.x_scale, denominator)
        y = build.binary(onnx.MulOp, build.cast(acc, f32), scale)
        build.parts.finish([build.quantize(y, None, op.y_zero_point, element)])


class ConvertQLinearAveragePool(OnnxPattern[onnx.QLinearAveragePoolOp]):
    def convert(self, op: onnx.QLinearAveragePoolOp, rewriter: PatternRewriter) -> None:
        element = _quantized(op.X, "X")
        if op.get_int("channels_last"):
            raise Unsupported("channels_last is not supported")
        build = _Builder(Parts(self, op, rewriter, PATTERNS))
        x = build.dequantize(op.X, op.x_scale, op.x_zero_point)
        if op.get_ints("kernel_shape") in (None, [onnx.ABSENT]):
            raise Unsupported("the required attribute 'kernel_shape' is missing")
        names = (
            "auto_pad",
            "ceil_mode",
            "count_include_pad",
            "kernel_shape",
            "pads",
            "strides",
        )
        properties = {
            n: op.properties[n]
            for n in names
            if n in op.properties and op.get_ints(n) != [onnx.ABSENT]
        }
        out_shape = _shape(op.Y, "Y")
        pooled = build.parts.insert(
            onnx.AveragePoolOp, [x], TensorType(f32, out_shape), properties
        )
        zero = build.cast(build.zero_or(op.y_zero_point, element), f32)
        y = build.binary(onnx.AddOp, build.binary(onnx.DivOp, pooled, op.y_scale), zero)
        build.parts.finish([build.quantize(y, None, build.scalar(0, element), element)])


class ConvertQLinearConcat(OnnxPattern[onnx.QLinearConcatOp]):
    def convert(self, op: onnx.QLinearConcatOp, rewriter: PatternRewriter) -> None:
        element = _quantized(op.Y, "Y")
        values = list(op.inputs)
        if not values or len(values) % 3:
            raise Unsupported("inputs must be (tensor, scale, zero point) triples")
        if op.axis.value.data == onnx.ABSENT:
            raise Unsupported("the required attribute 'axis' is missing")
        build = _Builder(Parts(self, op, rewriter, PATTERNS))
        pieces: list[SSAValue] = []
        for i in range(0, len(values), 3):
            x, scale, zero = values[i : i + 3]
            if _quantized(x, f"input {i // 3}") != element:
                raise Unsupported(f"input {i // 3} of {x.type} differs from Y's type")
            if scale is op.Y_scale and zero is op.Y_zero_point:
                pieces.append(x)
                continue
            wide = build.dequantize(x, scale, zero)
            pieces.append(build.quantize(wide, op.Y_scale, op.Y_zero_point, element))
        result = build.parts.insert(
            onnx.ConcatOp, [pieces], op.Y.type, {"axis": si64(op.axis.value.data)}
        )
        build.parts.finish([result])


def _softmax_shift(size: int) -> float:
    """ORT's shift of the exponents before the division by the scale:
    `logf(FLT_MAX / size)` (float32, as its `log` of a float), less 5, at
    least 0."""
    ratio = np.float32(np.finfo(np.float32).max) / np.float32(size)
    return max(0.0, float(np.log(np.float32(ratio))) - 5.0)


def _product(dims: Sequence[int]) -> int:
    """The product of static dims, dynamic if one is."""
    return DYNAMIC_INDEX if DYNAMIC_INDEX in dims else int(np.prod(dims))


def _shift(build: _Builder, rewriter: PatternRewriter, size: Index) -> SSAValue:
    """`_softmax_shift(size)` as a float64 scalar: a constant, or for a size
    known only at run time the same float32 steps (`FLT_MAX / size`, its
    log, less 5, at least 0) on the device."""
    if isinstance(size, int):
        return build.scalar(_softmax_shift(size), f64)
    count = build.cast(index_tensor(build.parts, rewriter, [size], i64, True), f32)
    limit = build.scalar(float(np.finfo(np.float32).max), f32)
    ratio = build.binary(onnx.DivOp, limit, count)
    log = build.parts.insert(onnx.LogOp, [ratio], ratio.type)
    less = build.binary(onnx.SubOp, log, build.scalar(5.0, f32))
    return build.cast(build.parts.insert(onnx.ReluOp, [less], less.type), f64)


class ConvertQLinearSoftmax(OnnxPattern[onnx.QLinearSoftmaxOp]):
    def convert(self, op: onnx.QLinearSoftmaxOp, rewriter: PatternRewriter) -> None:
        element = _quantized(op.X, "X")
        if _quantized(op.Y, "Y") != element:
            raise Unsupported(f"Y of {op.Y.type} differs from X's type")
        _f32_scale(op.X_scale, "X_scale")
        _f32_scale(op.y_scale, "y_scale")
        opset = op.get_int("opset")
        if opset == onnx.ABSENT:
            raise Unsupported("the required attribute 'opset' is missing")
        shape = _shape(op.X, "X")
        rank = len(shape)
        axis = op.get_int("axis")
        if axis == onnx.ABSENT:
            axis = 1 if opset < 13 else -1
        if not -rank <= axis < rank:
            raise Unsupported(f"axis {axis} is out of range for rank {rank}")
        axis %= rank
        build = _Builder(Parts(self, op, rewriter, PATTERNS))
        x = op.X
        flat = opset < 13 and axis != rank - 1
        dims = dims_of(rewriter, build.parts, op.X)
        arith_ = IndexArith(rewriter, op, self.state.folder)
        size = arith_.product(dims[axis:]) if flat else dims[axis]
        if flat:
            x = build.parts.insert(
                onnx.FlattenOp,
                [x],
                TensorType(element, (_product(shape[:axis]), _product(shape[axis:]))),
                {"axis": si64(axis)},
            )
            axis = 1
        work = _shape(x, "X")
        reduced = tuple(1 if d == axis else n for d, n in enumerate(work))
        # The sum is the last running one: none along an empty axis.
        ends = {DYNAMIC_INDEX: DYNAMIC_INDEX, 0: 0}.get(work[axis], 1)
        last = tuple(ends if d == axis else n for d, n in enumerate(work))
        xi = build.cast(x, i32)
        top = build.parts.insert(
            onnx.ReduceMaxOp,
            [xi, []],
            TensorType(i32, reduced),
            {"axes": ArrayAttr([si64(axis)]), "keepdims": si64(1)},
        )
        scale = build.cast(op.X_scale, f64)
        shift = build.binary(onnx.DivOp, _shift(build, rewriter, size), scale)
        exponent = build.binary(
            onnx.MulOp,
            build.binary(
                onnx.AddOp, build.cast(build.binary(onnx.SubOp, xi, top), f64), shift
            ),
            scale,
        )
        wide = build.parts.insert(onnx.ExpOp, [exponent], exponent.type)
        e = build.cast(wide, f32)
        running = build.parts.insert(
            onnx.CumSumOp,
            [e, build.parts.constant(np.asarray(axis, np.int64), i64)],
            e.type,
        )
        total = build.parts.insert(
            onnx.SliceOp,
            [
                running,
                build.parts.ints([-1]),
                build.parts.ints([np.iinfo(np.int64).max]),
                [build.parts.ints([axis])],
                [],
            ],
            TensorType(f32, last),
        )
        inverse = build.binary(onnx.DivOp, build.scalar(1.0, f32), op.y_scale)
        steps = build.parts.insert(onnx.FloorOp, [inverse], inverse.type)
        ratio = build.binary(onnx.DivOp, build.binary(onnx.MulOp, e, steps), total)
        rounded = build.parts.insert(onnx.RoundOp, [ratio], ratio.type)
        zero = build.cast(build.zero_or(op.y_zero_point, element), f32)
        q = build.binary(onnx.AddOp, rounded, zero)
        y = build.quantize(q, None, build.scalar(0, element), element)
        if flat:
            back = index_tensor(build.parts, rewriter, dims, i64)
            y = build.parts.insert(
                onnx.ReshapeOp, [y, back], TensorType(element, shape)
            )
        build.parts.finish([y])


class ConvertQGemm(OnnxPattern[onnx.QGemmOp]):
    def convert(self, op: onnx.QGemmOp, rewriter: PatternRewriter) -> None:
        _quantized(op.A, "A")
        _quantized(op.B, "B")
        if len(_shape(op.A, "A")) != 2 or len(_shape(op.B, "B")) != 2:
            raise Unsupported("A and B must be 2-D")
        build = _Builder(Parts(self, op, rewriter, PATTERNS))
        a = build.transpose(op.A, [1, 0] if op.get_int("transA") else [0, 1])
        b = build.transpose(op.B, [1, 0] if op.get_int("transB") else [0, 1])
        shape = _matmul_shape(_shape(a, "A"), _shape(b, "B"))
        acc = build.matmul_integer(a, b, op.a_zero_point, op.b_zero_point, shape)
        if op.C is not None:
            acc = build.binary(onnx.AddOp, acc, op.C)
        alpha = op.get_float("alpha")
        a_scale = op.a_scale
        if alpha != 1.0:
            a_scale = build.binary(onnx.MulOp, build.scalar(alpha, f32), a_scale)
        scale = build.binary(onnx.MulOp, a_scale, op.b_scale)
        if op.y_scale is None:
            build.parts.finish([_scaled_back(build, acc, scale, None)])
            return
        element = _quantized(op.Y, "Y")
        scale = build.binary(onnx.DivOp, scale, op.y_scale)
        y = build.binary(onnx.MulOp, build.cast(acc, f32), scale)
        zero = build.zero_or(op.y_zero_point, element)
        build.parts.finish([build.quantize(y, None, zero, element)])


class ConvertDynamicQuantizeMatMul(OnnxPattern[onnx.DynamicQuantizeMatMulOp]):
    def convert(
        self, op: onnx.DynamicQuantizeMatMulOp, rewriter: PatternRewriter
    ) -> None:
        _f32_scale(op.A, "A")
        _quantized(op.B, "B")
        parts = Parts(self, op, rewriter, PATTERNS)
        build = _Builder(parts)
        x_shape = _shape(op.A, "A")
        name = op.attributes.get("onnx_node_name")
        dynamic = onnx.DynamicQuantizeLinearOp.build(
            operands=[op.A],
            result_types=[
                TensorType(U8, x_shape),
                TensorType(f32, ()),
                TensorType(U8, ()),
            ],
            attributes={"onnx_node_name": name} if name is not None else {},
        )
        parts.ops.append(dynamic)  # `finish` inserts the parts
        q, a_scale, a_zero = dynamic.results
        shape = _matmul_shape(x_shape, _shape(op.B, "B"))
        acc = build.matmul_integer(q, op.B, a_zero, op.b_zero_point, shape)
        scale = build.binary(onnx.MulOp, a_scale, op.b_scale)
        parts.finish([_scaled_back(build, acc, scale, op.bias)])


class ConvertMatMulIntegerToFloat(OnnxPattern[onnx.MatMulIntegerToFloatOp]):
    def convert(
        self, op: onnx.MatMulIntegerToFloatOp, rewriter: PatternRewriter
    ) -> None:
        _quantized(op.A, "A")
        _quantized(op.B, "B")
        build = _Builder(Parts(self, op, rewriter, PATTERNS))
        shape = _matmul_shape(_shape(op.A, "A"), _shape(op.B, "B"))
        acc = build.matmul_integer(op.A, op.B, op.a_zero_point, op.b_zero_point, shape)
        scale = build.binary(onnx.MulOp, op.a_scale, op.b_scale)
        build.parts.finish([_scaled_back(build, acc, scale, op.bias)])


def _fused_perm(rank: int, batch: bool, last: bool) -> list[int]:
    """FusedMatMul's operand permutation: `batch` moves dim 0 behind the
    batch dims, `last` swaps the last two."""
    perm = list(range(rank))
    if batch and rank > 2:
        perm = [*range(1, rank - 1), 0, rank - 1]
    if last:
        perm[-2], perm[-1] = perm[-1], perm[-2]
    return perm


class ConvertFusedMatMul(OnnxPattern[onnx.FusedMatMulOp]):
    def convert(self, op: onnx.FusedMatMulOp, rewriter: PatternRewriter) -> None:
        element = ranked(op.A, "A").get_element_type()
        if element != f32:
            raise Unsupported(f"A of {op.A.type}: float32 only")
        a_rank, b_rank = len(_shape(op.A, "A")), len(_shape(op.B, "B"))
        if a_rank < 2 or b_rank < 2:
            raise Unsupported("A and B must have rank >= 2")
        build = _Builder(Parts(self, op, rewriter, PATTERNS))
        a = build.transpose(
            op.A,
            _fused_perm(
                a_rank, bool(op.get_int("transBatchA")), bool(op.get_int("transA"))
            ),
        )
        b = build.transpose(
            op.B,
            _fused_perm(
                b_rank, bool(op.get_int("transBatchB")), bool(op.get_int("transB"))
            ),
        )
        shape = _matmul_shape(_shape(a, "A"), _shape(b, "B"))
        y = build.parts.insert(onnx.MatMulOp, [a, b], TensorType(f32, shape))
        alpha = op.get_float("alpha")
        if alpha != 1.0:
            y = build.binary(onnx.MulOp, y, build.scalar(alpha, f32))
        build.parts.finish([y])
