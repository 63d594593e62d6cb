"""NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss -> the onnx ops of
their definition (`compose.Parts`), each converted by its own pattern.

NegativeLogLikelihoodLoss of `input` (N, C, d...), `target` (N, d...):
`loss[n, d...] = -input[n, t, d...] * weight[t]` with `t = target[n, d...]`,
a GatherElements along axis 1 of the target made (N, 1, d...) and the weight
a Gather. Where `ignore_index` is set, `t == ignore_index` gives 0 and reads
class 0 instead (the index may be out of range). `reduction`: none; sum;
mean, the sum over the sum of the weights that count (over the count of
targets kept without weights, plain ReduceMean without either).

SoftmaxCrossEntropyLoss is that loss of `LogSoftmax(scores, axis=1)`, its
optional `log_prob` result.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    StringAttr,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.compose import Parts, PatternFactory, si64
from xhip.transforms.onnx_to_hip.compute import elementwise_pattern
from xhip.transforms.onnx_to_hip.gather import (
    INDEX_TYPES,
    ConvertGather,
    ConvertGatherElements,
)
from xhip.transforms.onnx_to_hip.reduce import (
    ConvertLogSoftmax,
    ConvertReduceMean,
    ConvertReduceSum,
)
from xhip.transforms.onnx_to_hip.reshape import ConvertSqueeze, ConvertUnsqueeze
from xhip.transforms.onnx_to_hip.support import OnnxPattern, Unsupported, ranked

REDUCTIONS = ("none", "sum", "mean")


PATTERNS: dict[type[onnx.OnnxOp], PatternFactory] = {
    onnx.EqualOp: elementwise_pattern(onnx.EqualOp, hip.EqualOp),
    onnx.WhereOp: elementwise_pattern(onnx.WhereOp, hip.WhereOp),
    onnx.NegOp: elementwise_pattern(onnx.NegOp, hip.NegOp),
    onnx.MulOp: elementwise_pattern(onnx.MulOp, hip.MulOp),
    onnx.DivOp: elementwise_pattern(onnx.DivOp, hip.DivOp),
    onnx.GatherOp: ConvertGather,
    onnx.GatherElementsOp: ConvertGatherElements,
    onnx.SqueezeOp: ConvertSqueeze,
    onnx.UnsqueezeOp: ConvertUnsqueeze,
    onnx.ReduceSumOp: ConvertReduceSum,
    onnx.ReduceMeanOp: ConvertReduceMean,
    onnx.LogSoftmaxOp: ConvertLogSoftmax,
}
"""The ops the losses are made of, and their patterns."""


def _reduction(op: onnx.OnnxOp) -> str:
    attr = op.properties.get("reduction")
    reduction = attr.data if isinstance(attr, StringAttr) else "mean"
    if reduction not in REDUCTIONS:
        raise Unsupported(f"reduction {reduction!r} is not one of {list(REDUCTIONS)}")
    return reduction


def _nll(
    parts: Parts,
    op: onnx.OnnxOp,
    log_prob: SSAValue,
    target: SSAValue,
    weight: SSAValue | None,
    result: Attribute,
) -> SSAValue:
    """The loss of `log_prob` (N, C, d...) at `target` (N, d...), of type `result`."""
    x_type = ranked(log_prob, "the input")
    t_type = ranked(target, "the target")
    element, index = x_type.get_element_type(), t_type.get_element_type()
    x_shape, t_shape = x_type.get_shape(), t_type.get_shape()
    if not isinstance(element, AnyFloat):
        raise Unsupported(f"input type {log_prob.type}: a float element type is needed")
    if index not in INDEX_TYPES:
        raise Unsupported(f"target type {target.type}: int32 or int64 is needed")
    if len(x_shape) < 2 or len(t_shape) != len(x_shape) - 1:
        raise Unsupported(
            f"input {log_prob.type} and target {target.type}: (N, C, d...) and "
            "(N, d...) are needed"
        )
    if weight is not None:
        w_shape = ranked(weight, "the weight").get_shape()
        if len(w_shape) != 1 or (
            DYNAMIC_INDEX not in (w_shape[0], x_shape[1]) and w_shape[0] != x_shape[1]
        ):
            raise Unsupported(f"weight {weight.type} must be (C), C of the input")
    loss_type = TensorType(element, t_shape)
    ignore = op.properties.get("ignore_index")
    mask = None
    safe = target
    if ignore is not None:
        ignored = parts.constant(np.asarray(op.get_int("ignore_index")), index)
        mask = parts.insert(onnx.EqualOp, [target, ignored], TensorType(i1, t_shape))
        zero = parts.constant(np.asarray(0), index)
        safe = parts.insert(onnx.WhereOp, [mask, zero, target], t_type)
    one_axis = parts.ints([1])
    column = TensorType(index, (t_shape[0], 1, *t_shape[1:]))
    indices = parts.insert(onnx.UnsqueezeOp, [safe, one_axis], column)
    picked = parts.insert(
        onnx.GatherElementsOp,
        [log_prob, indices],
        TensorType(element, column.get_shape()),
        {"axis": si64(1)},
    )
    picked = parts.insert(onnx.SqueezeOp, [picked, [one_axis]], loss_type)
    loss = parts.insert(onnx.NegOp, [picked], loss_type)
    weights = None
    zero_f = parts.constant(np.asarray(0.0), element) if mask is not None else None
    if weight is not None:
        weights = parts.insert(
            onnx.GatherOp, [weight, safe], loss_type, {"axis": si64(0)}
        )
        if mask is not None and zero_f is not None:
            weights = parts.insert(onnx.WhereOp, [mask, zero_f, weights], loss_type)
    elif mask is not None and zero_f is not None:
        one_f = parts.constant(np.asarray(1.0), element)
        weights = parts.insert(onnx.WhereOp, [mask, zero_f, one_f], loss_type)
    reduction = _reduction(op)
    if weights is not None:
        mul_type = result if reduction == "none" else loss_type
        loss = parts.insert(onnx.MulOp, [loss, weights], mul_type)
    if reduction == "none":
        return loss
    scalar = TensorType(element, ())
    keep: dict[str, Attribute] = {"keepdims": si64(0)}
    if reduction == "mean" and weights is None:
        return parts.insert(onnx.ReduceMeanOp, [loss, []], result, keep)
    total = parts.insert(onnx.ReduceSumOp, [loss, []], scalar, keep)
    if reduction == "sum":
        return total
    assert weights is not None  # mean without weights or ignore_index returned
    count = parts.insert(onnx.ReduceSumOp, [weights, []], scalar, keep)
    return parts.insert(onnx.DivOp, [total, count], result)


class ConvertNegativeLogLikelihoodLoss(OnnxPattern[onnx.NegativeLogLikelihoodLossOp]):
    def convert(
        self, op: onnx.NegativeLogLikelihoodLossOp, rewriter: PatternRewriter
    ) -> None:
        parts = Parts(self, op, rewriter, PATTERNS)
        loss = _nll(parts, op, op.input, op.target, op.weight, op.loss.type)
        parts.finish([loss])


class ConvertSoftmaxCrossEntropyLoss(OnnxPattern[onnx.SoftmaxCrossEntropyLossOp]):
    def convert(
        self, op: onnx.SoftmaxCrossEntropyLossOp, rewriter: PatternRewriter
    ) -> None:
        parts = Parts(self, op, rewriter, PATTERNS)
        scores = ranked(op.scores, "the scores")
        log_prob_type: Any = op.log_prob.type if op.log_prob is not None else scores
        log_prob = parts.insert(
            onnx.LogSoftmaxOp, [op.scores], log_prob_type, {"axis": si64(1)}
        )
        loss = _nll(parts, op, log_prob, op.labels, op.weights, op.output.type)
        parts.finish([loss] if op.log_prob is None else [loss, log_prob])
