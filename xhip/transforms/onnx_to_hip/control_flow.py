"""`onnx.If` whose condition is known at compile time: the taken branch's ops
take its place (inlined), the other branch is dropped. A condition that is data
is specialized on by `xhip.compile` (`hip-guard-assumptions` makes it a
constant behind a `hip.guard`), so every If the conversion sees is folded."""

from __future__ import annotations

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from xhip.dialects import onnx
from xhip.transforms.index_arith import index_values
from xhip.transforms.onnx_to_hip.support import OnnxPattern, Unsupported


def condition(op: onnx.IfOp) -> bool | None:
    """The condition's value, if it is known at compile time."""
    values = index_values(op.cond)
    if values is None or len(values) != 1 or not isinstance(values[0], int):
        return None
    return bool(values[0])


def _results(op: onnx.IfOp, taken: bool) -> tuple[list[SSAValue], list[Operation]]:
    """The taken branch's yielded values, as the If's result types (a
    `tensor.cast` where the branch's type is more or less static), and the
    casts to insert."""
    values: list[SSAValue] = []
    casts: list[Operation] = []
    for value, result in zip(op.branch(taken).outputs, op.outputs, strict=True):
        if value.type != result.type:
            assert isinstance(result.type, TensorType)
            cast = tensor.CastOp(value, result.type)
            casts.append(cast)
            value = cast.dest
        values.append(value)
    return values, casts


def inline_constant_ifs(function: func.FuncOp) -> None:
    """Every `onnx.If` of `function` with a constant condition, inlined."""
    for op in list(function.walk()):
        if isinstance(op, onnx.IfOp) and (taken := condition(op)) is not None:
            yielded = op.branch(taken)
            region = op.then_branch if taken else op.else_branch
            values, casts = _results(op, taken)
            yielded.detach()
            Rewriter.inline_block(region.block, InsertPoint.before(op))
            for cast in casts:
                Rewriter.insert_op(cast, InsertPoint.before(op))
            Rewriter.replace_op(op, [], values)
            yielded.erase()


class ConvertIf(OnnxPattern[onnx.IfOp]):
    """A constant condition: the taken branch inlined."""

    def convert(self, op: onnx.IfOp, rewriter: PatternRewriter) -> None:
        taken = condition(op)
        if taken is None:
            raise Unsupported(
                "the condition is data known only at run time: xhip.compile "
                "specializes on it (docs/shape-values.md, Guards)"
            )
        yielded = op.branch(taken)
        region = op.then_branch if taken else op.else_branch
        values, casts = _results(op, taken)
        rewriter.inline_block(region.block, InsertPoint.before(op))
        rewriter.replace(op, casts, values)
        rewriter.erase(yielded)


class ConvertYield(OnnxPattern[onnx.YieldOp]):
    """Nothing: a branch's `onnx.Yield` goes with its If (`ConvertIf`)."""

    def convert(self, op: onnx.YieldOp, rewriter: PatternRewriter) -> None:
        return
