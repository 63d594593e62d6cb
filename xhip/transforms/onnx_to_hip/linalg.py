"""Det -> `hip.det` in tensor mode: `[..., M, M]` float input, `[...]` result."""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.support import (
    DimSource,
    OnnxPattern,
    Unsupported,
    build_init,
    context_of,
    ranked,
)


class ConvertDet(OnnxPattern[onnx.DetOp]):
    def convert(self, op: onnx.DetOp, rewriter: PatternRewriter) -> None:
        x = ranked(op.X, "the input")
        result = ranked(op.Y, "the result")
        shape = x.get_shape()
        element = x.get_element_type()
        if not isinstance(element, AnyFloat) or result.get_element_type() != element:
            raise Unsupported(
                f"the input ({op.X.type}) and the result ({op.Y.type}) must have "
                "one float element type"
            )
        if len(shape) < 2:
            raise Unsupported(f"the input must have rank >= 2, got {op.X.type}")
        rows, cols = shape[-2:]
        if DYNAMIC_INDEX not in (rows, cols) and rows != cols:
            raise Unsupported(f"the matrices must be square, got {op.X.type}")
        sources: list[DimSource | None] = [(op.X, d) for d in range(len(shape) - 2)]
        init = build_init(rewriter, self.state, op, result, sources)
        rewriter.replace(op, hip.DetOp.make(context_of(op), src=op.X, out=init))
