"""Quantization -> `hip.quantize_linear`, `hip.dequantize_linear`,
`hip.dynamic_quantize_linear`, `hip.matmul_integer` in tensor mode.

An absent zero point is a constant 0 of its type and of the scale's shape
(one element for MatMulInteger), so the hip ops take every operand. The
axis is put in `[0, rank)` (0 for a one-element scale, where it does not
matter). `saturate` only concerns float8 outputs, which the importer does
not read; `precision` must be x's own type.
"""

from __future__ import annotations

from typing import Any, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
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
from xhip.transforms.onnx_to_hip.support import (
    OnnxPattern,
    SizeSource,
    Unsupported,
    broadcast_sources,
    build_init,
    context_of,
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
    if not isinstance(element, IntegerType):
        raise Unsupported(f"a zero point of {element}: integers only")
    if DYNAMIC_INDEX in shape:
        raise Unsupported("a zero point is needed where the scale's shape is dynamic")
    count = 1
    for n in shape:
        count *= n
    integer = cast("IntegerType[int, Signedness]", element)
    zeros: DenseIntOrFPElementsAttr = DenseIntOrFPElementsAttr.from_list(
        TensorType(integer, shape), [0] * count
    )
    return pattern.state.folder.get(rewriter, op, zeros)


def _linear(
    pattern: OnnxPattern[Any],
    op: onnx.QuantizeLinearOp | onnx.DequantizeLinearOp,
    rewriter: PatternRewriter,
    hip_type: type[hip.QuantizeLinearOp] | type[hip.DequantizeLinearOp],
    operands: tuple[SSAValue, SSAValue, SSAValue | None],
    zero_element: Attribute,
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
        _linear(self, op, rewriter, hip.QuantizeLinearOp, operands, element)


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


class ConvertMatMulInteger(OnnxPattern[onnx.MatMulIntegerOp]):
    """`onnx.MatMulInteger` (operands of rank >= 2) -> `hip.matmul_integer`."""

    def convert(self, op: onnx.MatMulIntegerOp, rewriter: PatternRewriter) -> None:
        a_type, b_type = ranked(op.A, "operand A"), ranked(op.B, "operand B")
        a_shape, b_shape = a_type.get_shape(), b_type.get_shape()
        if len(a_shape) < 2 or len(b_shape) < 2:
            raise Unsupported("MatMulInteger operands must have rank >= 2")
        batch_rank = max(len(a_shape), len(b_shape)) - 2
        sources: list[SizeSource] = []
        if batch_rank > 0:
            batch = [(op.A, a_shape[:-2]), (op.B, b_shape[:-2])]
            sources = broadcast_sources(batch, batch_rank)
        sources += [(op.A, len(a_shape) - 2), (op.B, len(b_shape) - 1)]
        out = build_init(rewriter, self.state, op, ranked(op.Y, "the result"), sources)
        zeros = [
            _zero(self, op, rewriter, given, t.get_element_type(), ())
            for given, t in ((op.a_zero_point, a_type), (op.b_zero_point, b_type))
        ]
        new = hip.MatMulIntegerOp.make(
            context_of(op), a=op.A, b=op.B, a_zero=zeros[0], b_zero=zeros[1], out=out
        )
        rewriter.replace(op, new)
