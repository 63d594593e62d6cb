"""The losses, NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss
(`onnx_to_hip/loss.py` converts them into gathers, `where`s and sums)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, StringAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_op_definition
class NegativeLogLikelihoodLossOp(OnnxOp):
    """Opsets 12, 13, 22: `input` (N, C, d...), `target` (N, d...) of class
    indices, an optional `weight` (C); `ignore_index` has no default."""

    name = "onnx.NegativeLogLikelihoodLoss"
    DEFAULTS: ClassVar[dict[str, object]] = {"reduction": "mean"}

    input = operand_def(AnyTensor)
    target = operand_def(AnyTensor)
    weight = opt_operand_def(AnyTensor)
    loss = result_def(AnyTensor)
    ignore_index = opt_prop_def(IntegerAttr)
    reduction = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SoftmaxCrossEntropyLossOp(OnnxOp):
    """Opsets 12, 13: NegativeLogLikelihoodLoss of the log-softmax of `scores`
    along axis 1; `log_prob` is that log-softmax, an optional result."""

    name = "onnx.SoftmaxCrossEntropyLoss"
    DEFAULTS: ClassVar[dict[str, object]] = {"reduction": "mean"}

    scores = operand_def(AnyTensor)
    labels = operand_def(AnyTensor)
    weights = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    log_prob = opt_result_def(AnyTensor)
    ignore_index = opt_prop_def(IntegerAttr)
    reduction = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    NegativeLogLikelihoodLossOp,
    SoftmaxCrossEntropyLossOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "NegativeLogLikelihoodLossOp",
    "SoftmaxCrossEntropyLossOp",
]
