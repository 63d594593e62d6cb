"""Quantization -> `hip.quantize_linear`, `hip.dequantize_linear`,
`hip.dynamic_quantize_linear`, `hip.matmul_integer` in tensor mode;
QLinearMatMul is a `hip.matmul_integer` into an i32 tensor, then
`hip.requantize`, as ONNX Runtime computes it. ConvInteger ->
`hip.conv_integer`, its window as Conv's (`conv.window_of`); QLinearConv is
a `hip.conv_integer` with the bias, then `hip.requantize`.

An absent zero point is a constant 0 of its type and of the scale's shape
(one element for MatMulInteger), so the hip ops take every operand. The
axis is put in `[0, rank)` (0 for a one-element scale, where it does not
matter). `saturate` only concerns float8 outputs (`no_saturate` when 0);
`precision` must be x's own type. int4, uint4 and the float8 types go
through as the IR's i4, ui4 and f8 types (one element a byte).
"""

from __future__ import annotations

from typing import Any, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.conv import window_of, windowed_init
from xhip.transforms.onnx_to_hip.support import (
    OnnxPattern,
    SizeSource,
    Unsupported,
    broadcast_sources,
    build_init,
    context_of,
    op_name,
    ranked,
)

PRECISIONS: dict[int, Attribute] = {1: Float32Type(), 10: Float16Type()}
"""QuantizeLinear's `precision` (an ONNX element type) that we compute in."""


def _zero(
    pattern: OnnxPattern[Any],
    op: onnx.OnnxOp,
    rewriter: PatternRewriter,
    given: SSAValue | None,
    element: Attribute,
    shape: tuple[int, ...],
) -> SSAValue:
    """The zero point, or a constant 0 of `element` and `shape`."""
    if given is not None:
        return given
    if not isinstance(element, IntegerType) and element not in hip.FLOAT8_TYPES:
        raise Unsupported(f"a zero point of {element}: integers and float8 only")
    if DYNAMIC_INDEX in shape:
        raise Unsupported("a zero point is needed where the scale's shape is dynamic")
    count = 1
    for n in shape:
        count *= n
    typed = cast("IntegerType[int, Signedness]", element)
    # Zero bytes are 0 in every integer and float8 type.
    size = typed.compile_time_size
    zeros = DenseIntOrFPElementsAttr(
        TensorType(typed, shape), BytesAttr(bytes(count * size))
    )
    return pattern.state.folder.get(rewriter, op, zeros)


def _linear(
    pattern: OnnxPattern[Any],
    op: onnx.QuantizeLinearOp | onnx.DequantizeLinearOp,
    rewriter: PatternRewriter,
    hip_type: type[hip.QuantizeLinearOp] | type[hip.DequantizeLinearOp],
    operands: tuple[SSAValue, SSAValue, SSAValue | None],
    zero_element: Attribute,
    saturate: bool = True,
) -> None:
    x, scale, zero = operands
    shape = ranked(x, "the input").get_shape()
    scale_shape = ranked(scale, "the scale").get_shape()
    block = op.get_int("block_size")
    rank = len(shape)
    axis = op.get_int("axis")
    one = block == 0 and len(scale_shape) <= 1 and all(n == 1 for n in scale_shape)
    if one or rank == 0:
        axis = 0
    elif not -rank <= axis < rank:
        raise Unsupported(f"axis {axis} is out of range for rank {rank}")
    axis %= max(rank, 1)
    if block < 0:
        raise Unsupported(f"block_size {block} is negative")
    zero_value = _zero(pattern, op, rewriter, zero, zero_element, scale_shape)
    result = ranked(op.y, "the result")
    sources: list[SizeSource] = [(x, d) for d in range(rank)]
    out = build_init(rewriter, pattern.state, op, result, sources)
    new = hip_type.make(
        context_of(op),
        x=x,
        scale=scale,
        zero_point=zero_value,
        out=out,
        axis=axis,
        block_size=block,
        saturate=saturate,
    )
    rewriter.replace(op, new)


class ConvertQuantizeLinear(OnnxPattern[onnx.QuantizeLinearOp]):
    """`onnx.QuantizeLinear` -> `hip.quantize_linear`."""

    def convert(self, op: onnx.QuantizeLinearOp, rewriter: PatternRewriter) -> None:
        x_element = ranked(op.x, "the input").get_element_type()
        precision = op.get_int("precision")
        if precision and PRECISIONS.get(precision) != x_element:
            raise Unsupported(
                f"precision {precision} differs from the input's type {x_element}"
            )
        element = ranked(op.y, "the result").get_element_type()
        operands = (op.x, op.y_scale, op.y_zero_point)
        saturate = element not in hip.FLOAT8_TYPES or op.get_int("saturate") != 0
        _linear(self, op, rewriter, hip.QuantizeLinearOp, operands, element, saturate)


class ConvertDequantizeLinear(OnnxPattern[onnx.DequantizeLinearOp]):
    """`onnx.DequantizeLinear` -> `hip.dequantize_linear`."""

    def convert(self, op: onnx.DequantizeLinearOp, rewriter: PatternRewriter) -> None:
        element = ranked(op.x, "the input").get_element_type()
        operands = (op.x, op.x_scale, op.x_zero_point)
        _linear(self, op, rewriter, hip.DequantizeLinearOp, operands, element)


class ConvertDynamicQuantizeLinear(OnnxPattern[onnx.DynamicQuantizeLinearOp]):
    """`onnx.DynamicQuantizeLinear` -> `hip.dynamic_quantize_linear`."""

    def convert(
        self, op: onnx.DynamicQuantizeLinearOp, rewriter: PatternRewriter
    ) -> None:
        rank = len(ranked(op.x, "the input").get_shape())
        sources: list[SizeSource] = [(op.x, d) for d in range(rank)]
        outs = [
            build_init(rewriter, self.state, op, ranked(r, "a result"), sources)
            for r in (op.y, op.y_scale, op.y_zero_point)
        ]
        new = hip.DynamicQuantizeLinearOp.make(
            context_of(op), x=op.x, out=outs[0], scale=outs[1], zero_point=outs[2]
        )
        rewriter.replace(op, new)


def _matmul_sources(a: SSAValue, b: SSAValue) -> list[SizeSource]:
    """Where the dims of a numpy matmul of `a` and `b` (rank >= 2) come from."""
    a_shape, b_shape = (
        ranked(a, "operand A").get_shape(),
        ranked(b, "operand B").get_shape(),
    )
    batch_rank = max(len(a_shape), len(b_shape)) - 2
    sources: list[SizeSource] = []
    if batch_rank > 0:
        batch = [(a, a_shape[:-2]), (b, b_shape[:-2])]
        sources = broadcast_sources(batch, batch_rank)
    return [*sources, (a, len(a_shape) - 2), (b, len(b_shape) - 1)]


def _matmul_integer(
    pattern: OnnxPattern[Any],
    op: onnx.MatMulIntegerOp | onnx.QLinearMatMulOp,
    rewriter: PatternRewriter,
    operands: tuple[SSAValue, SSAValue, SSAValue | None, SSAValue | None],
    result: TensorType[Attribute],
) -> SSAValue:
    """`hip.matmul_integer` of `operands` (a, b and their zero points) into a
    new tensor of `result`'s type."""
    a, b, a_zero, b_zero = operands
    a_type, b_type = ranked(a, "operand A"), ranked(b, "operand B")
    if len(a_type.get_shape()) < 2 or len(b_type.get_shape()) < 2:
        raise Unsupported(f"{op_name(op)} operands must have rank >= 2")
    sources = _matmul_sources(a, b)
    out = build_init(rewriter, pattern.state, op, result, sources)
    zeros = [
        _zero(pattern, op, rewriter, given, t.get_element_type(), ())
        for given, t in ((a_zero, a_type), (b_zero, b_type))
    ]
    new = hip.MatMulIntegerOp.make(
        context_of(op), a=a, b=b, a_zero=zeros[0], b_zero=zeros[1], out=out
    )
    rewriter.insert(new)
    return new.res[0]


class ConvertMatMulInteger(OnnxPattern[onnx.MatMulIntegerOp]):
    """`onnx.MatMulInteger` (operands of rank >= 2) -> `hip.matmul_integer`."""

    def convert(self, op: onnx.MatMulIntegerOp, rewriter: PatternRewriter) -> None:
        operands = (op.A, op.B, op.a_zero_point, op.b_zero_point)
        result = ranked(op.Y, "the result")
        product = _matmul_integer(self, op, rewriter, operands, result)
        rewriter.replace(op, [], [product])


def _check_parameters(*values: tuple[SSAValue, str]) -> None:
    """Scales and zero points of rank 0 or 1 (the hip ops check the sizes)."""
    for value, what in values:
        rank = len(ranked(value, what).get_shape())
        if rank > 1:
            raise Unsupported(f"{what} of rank {rank}")


class ConvertQLinearMatMul(OnnxPattern[onnx.QLinearMatMulOp]):
    """`onnx.QLinearMatMul` -> `hip.matmul_integer`, `hip.requantize`. The
    scales and zero points of a and b have one element or one per row of a /
    column of b (1-D); f16 scales are widened to f32."""

    def convert(self, op: onnx.QLinearMatMulOp, rewriter: PatternRewriter) -> None:
        result = ranked(op.y, "the result")
        _check_parameters(
            (op.a_scale, "a_scale"),
            (op.b_scale, "b_scale"),
            (op.y_scale, "y_scale"),
            (op.a_zero_point, "a_zero_point"),
            (op.b_zero_point, "b_zero_point"),
            (op.y_zero_point, "y_zero_point"),
        )
        product_type = TensorType(IntegerType(32), result.get_shape())
        operands = (op.a, op.b, op.a_zero_point, op.b_zero_point)
        product = _matmul_integer(self, op, rewriter, operands, product_type)
        rank = len(result.get_shape())
        sources = _matmul_sources(op.a, op.b)
        out = build_init(rewriter, self.state, op, result, sources)
        new = hip.RequantizeOp.make(
            context_of(op),
            x=product,
            a_scale=op.a_scale,
            b_scale=op.b_scale,
            y_scale=op.y_scale,
            zero_point=op.y_zero_point,
            out=out,
            a_axis=rank - 2,
            b_axis=rank - 1,
        )
        rewriter.replace(op, new)


def _conv_integer(
    pattern: OnnxPattern[Any],
    op: onnx.ConvIntegerOp | onnx.QLinearConvOp,
    rewriter: PatternRewriter,
    operands: tuple[SSAValue, SSAValue, SSAValue | None, SSAValue | None],
    bias: SSAValue | None,
    result: TensorType[Attribute],
) -> SSAValue:
    """`hip.conv_integer` of `operands` (x, w and their zero points) plus
    `bias` into a new tensor of `result`'s type; the window as Conv's."""
    x, w, x_zero, w_zero = operands
    x_type, w_type = ranked(x, "the input"), ranked(w, "the weight")
    x_shape, w_shape = x_type.get_shape(), w_type.get_shape()
    if len(x_shape) < 3 or len(w_shape) != len(x_shape):
        raise Unsupported(
            f"input {x.type} and weight {w.type}: one rank >= 3 is needed"
        )
    kernel = op.get_ints("kernel_shape") or list(w_shape[2:])
    if DYNAMIC_INDEX in kernel or DYNAMIC_INDEX in w_shape[:2]:
        raise Unsupported(f"weight type {w.type}: static sizes are needed")
    if list(kernel) != list(w_shape[2:]):
        raise Unsupported(
            f"kernel_shape {list(kernel)} differs from the weight's {list(w_shape[2:])}"
        )
    window = window_of(op, x_shape, kernel)
    out = windowed_init(pattern, op, rewriter, x, result, (w, 0), window)
    zeros = [
        _zero(pattern, op, rewriter, given, t.get_element_type(), ())
        for given, t in ((x_zero, x_type), (w_zero, w_type))
    ]
    new = hip.ConvIntegerOp.make(
        context_of(op),
        x=x,
        w=w,
        x_zero=zeros[0],
        w_zero=zeros[1],
        bias=bias,
        out=out,
        strides=window.strides,
        dilations=window.dilations,
        pads=window.pads,
        group=op.get_int("group"),
    )
    rewriter.insert(new)
    return new.res[0]


class ConvertConvInteger(OnnxPattern[onnx.ConvIntegerOp]):
    """`onnx.ConvInteger` -> `hip.conv_integer`; an absent zero point is a
    0-d constant 0 of its operand's type."""

    def convert(self, op: onnx.ConvIntegerOp, rewriter: PatternRewriter) -> None:
        operands = (op.x, op.w, op.x_zero_point, op.w_zero_point)
        result = ranked(op.y, "the result")
        conv = _conv_integer(self, op, rewriter, operands, None, result)
        rewriter.replace(op, [], [conv])


class ConvertQLinearConv(OnnxPattern[onnx.QLinearConvOp]):
    """`onnx.QLinearConv` -> `hip.conv_integer` (with the bias) into an i32
    tensor, then `hip.requantize` with w's scale along the channels, as ONNX
    Runtime computes it."""

    def convert(self, op: onnx.QLinearConvOp, rewriter: PatternRewriter) -> None:
        result = ranked(op.y, "the result")
        _check_parameters(
            (op.x_scale, "x_scale"),
            (op.w_scale, "w_scale"),
            (op.y_scale, "y_scale"),
            (op.x_zero_point, "x_zero_point"),
            (op.w_zero_point, "w_zero_point"),
            (op.y_zero_point, "y_zero_point"),
        )
        product_type = TensorType(IntegerType(32), result.get_shape())
        operands = (op.x, op.w, op.x_zero_point, op.w_zero_point)
        conv = _conv_integer(self, op, rewriter, operands, op.B, product_type)
        sources: list[SizeSource] = [(conv, d) for d in range(len(result.get_shape()))]
        out = build_init(rewriter, self.state, op, result, sources)
        new = hip.RequantizeOp.make(
            context_of(op),
            x=conv,
            a_scale=op.x_scale,
            b_scale=op.w_scale,
            y_scale=op.y_scale,
            zero_point=op.y_zero_point,
            out=out,
            a_axis=1,
            b_axis=1,
        )
        rewriter.replace(op, new)


LOW_PRECISION: tuple[Attribute, ...] = (
    *hip.FLOAT8_TYPES,
    IntegerType(4),
    IntegerType(4, Signedness.UNSIGNED),
)
"""Cast targets the runtimes' own casts (numpy's, ml_dtypes') get wrong."""


def convert_low_precision_cast(
    pattern: OnnxPattern[Any],
    op: onnx.CastOp | onnx.CastLikeOp,
    rewriter: PatternRewriter,
) -> bool:
    """A float32 or float16 Cast to float8 as the `hip.quantize_linear` by 1
    with zero point 0 it equals (round to nearest even; clamped to the finite
    range unless `saturate` is 0), and True. Other casts to float8, and float
    casts to int4 / uint4 (ONNX Runtime rounds half away from zero, then
    wraps), are refused; False for the rest, which `hip.cast` computes."""
    source = ranked(op.input, "the input").get_element_type()
    target = ranked(op.output, "the result").get_element_type()
    if target not in LOW_PRECISION or source == target:
        return False
    if target not in hip.FLOAT8_TYPES:
        if isinstance(source, IntegerType):
            return False  # wraps to 4 bits, as ml_dtypes and ONNX Runtime do
        raise Unsupported(f"Cast from {source} to {target} (from integers only)")
    if source not in hip.SCALE_TYPES:
        raise Unsupported(f"Cast from {source} to {target} (from f32 and f16 only)")
    shape = ranked(op.input, "the input").get_shape()
    sources: list[SizeSource] = [(op.input, d) for d in range(len(shape))]
    out = build_init(
        rewriter, pattern.state, op, ranked(op.output, "a result"), sources
    )
    one = DenseIntOrFPElementsAttr.from_list(
        TensorType(cast(Float32Type, source), []), [1.0]
    )
    new = hip.QuantizeLinearOp.make(
        context_of(op),
        x=op.input,
        scale=pattern.state.folder.get(rewriter, op, one),
        zero_point=_zero(pattern, op, rewriter, None, target, ()),
        out=out,
        axis=0,
        saturate=op.get_int("saturate") != 0,
    )
    rewriter.replace(op, new)
    return True
