"""float16 contrib ops computed in float32, as ONNX Runtime's CPU EP computes
them.

ORT's CPU EP has no float16 kernel for MultiHeadAttention, Attention,
EmbedLayerNormalization, BiasGelu, FastGelu, QuickGelu and Gelu: its
`InsertCastTransformer` casts each float16 input to float32, runs the float32
kernel and casts each float16 result back. Its float16 SkipLayerNormalization,
SkipSimplifiedLayerNormalization and SimplifiedLayerNormalization kernels
convert their inputs to float32 and round once at the end too. `widened` does
the same: `hip.cast` of each float16 operand to float32, a float32 copy of the
op, `hip.cast` of each float16 result back; the caller converts the copy.
"""

from __future__ import annotations

from typing import Any, TypeVar

from xdsl.dialects.builtin import AnyTensorTypeConstr, TensorType, f16, f32
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.attention import Emitter
from xhip.transforms.onnx_to_hip.support import OnnxPattern

OpT = TypeVar("OpT", bound=onnx.OnnxOp)


def _narrow(value_type: Attribute) -> bool:
    return AnyTensorTypeConstr.verifies(value_type) and (
        value_type.get_element_type() == f16
    )


def _wide(value_type: Attribute) -> Attribute:
    if not AnyTensorTypeConstr.verifies(value_type) or not _narrow(value_type):
        return value_type
    return TensorType(f32, value_type.get_shape())


def widened(
    pattern: OnnxPattern[Any], op: OpT, rewriter: PatternRewriter
) -> OpT | None:
    """None where `op` has no float16 operand or result; else `op` replaced
    by its float32 copy between casts, the copy returned unconverted."""
    values = [*op.operands, *op.results]
    if not any(_narrow(v.type) for v in values):
        return None
    e = Emitter(pattern, op, rewriter)

    def cast(value: SSAValue, element: Attribute) -> SSAValue:
        return e.emit(
            element,
            e.sizes(value),
            lambda out: hip.CastOp.make(e.ctx, src=value, out=out),
        )

    operands = [cast(v, f32) if _narrow(v.type) else v for v in op.operands]
    wide = type(op).create(
        operands=operands,
        result_types=[_wide(r.type) for r in op.results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    rewriter.insert(wide)
    results = [
        cast(new, f16) if _narrow(old.type) else new
        for old, new in zip(op.results, wide.results, strict=True)
    ]
    rewriter.replace(op, [], results)
    return wide


def convert_widened(
    pattern: OnnxPattern[OpT], op: OpT, rewriter: PatternRewriter
) -> bool:
    """`widened`, its copy converted by `pattern` in place; False where `op`
    has nothing in float16 (the caller converts it)."""
    wide = widened(pattern, op, rewriter)
    if wide is None:
        return False
    pattern.convert(wide, PatternRewriter(wide))
    return True
