"""`hip-fuse-scaled-softmax`: a scalar `mul` right before a softmax joins it.

    hip.miopen.mul(%ctx) ins(%x, %s : memref<?x?xf32>, memref<1x1xf32>) outs(%p : ...)
    hip.miopen.softmax(%ctx) ins(%p : ...) outs(%y : ...)
->
    hip.miopen.softmax(%ctx) ins(%x, %s : ..., memref<1x1xf32>) outs(%y : ...)

Attention scales its scores before the softmax; fused, the scores cross
memory once less. It applies in memref mode only when nothing but the two ops
(and a dealloc) touches the product `%p`, so skipping its write is not
observable, and `%p` is no function argument. It is not part of `onnx-to-hip`, whose output is the
seed's: the backend runs it before executing the IR, so the op that runs is
the op the IR shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, memref
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import is_side_effect_free

from xhip.dialects import hip


def _scalar_operands(mul: hip.MulOp) -> tuple[SSAValue, SSAValue] | None:
    """(tensor, scalar) operands of a `mul` by a one-element operand, if it is one."""
    for value, scalar in (mul.inputs, tuple(reversed(mul.inputs))):
        shape = hip.shape_of(scalar)
        if all(d == 1 for d in shape) and hip.shape_of(value) == hip.shape_of(
            mul.outputs[0]
        ):
            return value, scalar
    return None


class FoldScalarMulIntoSoftmax(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hip.SoftmaxOp, rewriter: PatternRewriter) -> None:
        mul = op.prev_op
        if (
            op.is_tensor_mode
            or len(op.inputs) != 1
            or not isinstance(mul, hip.MulOp)
            or mul.outputs[0] is not op.inputs[0]
        ):
            return
        product = mul.outputs[0]
        others = {u.operation for u in product.uses} - {mul, op}
        if isinstance(product, BlockArgument) or not all(
            isinstance(other, memref.DeallocOp) for other in others
        ):
            return
        operands = _scalar_operands(mul)
        if operands is None:
            return
        src, scale = operands
        fused = hip.SoftmaxOp.make(
            op.ctx,
            src=src,
            scale=scale,
            out=op.outputs[0],
            axis=None if op.axis is None else op.axis.value.data,
        )
        rewriter.replace(op, fused)
        rewriter.erase(mul)
        source = product.owner  # an op: `product` is no block argument
        if (
            isinstance(source, Operation)
            and not product.uses
            and is_side_effect_free(source)
        ):
            rewriter.erase(source)


@dataclass(frozen=True)
class HipFuseScaledSoftmaxPass(ModulePass):
    name = "hip-fuse-scaled-softmax"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(
            FoldScalarMulIntoSoftmax(), apply_recursively=False
        ).rewrite_module(op)
