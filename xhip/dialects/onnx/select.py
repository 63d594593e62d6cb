"""Ops whose output size is data: NonZero, Compress, Unique,
NonMaxSuppression (`onnx_to_hip/select.py` converts them; docs/shape-values.md,
"Data-sized outputs")."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
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
class NonZeroOp(OnnxOp):
    """Opset 13: the int64 indices `[rank, n]` of the non-zero elements."""

    name = "onnx.NonZero"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class CompressOp(OnnxOp):
    """Opset 11: the slices along `axis` (or the elements of the flattened
    input, without it) whose `condition` is true."""

    name = "onnx.Compress"

    input = operand_def(AnyTensor)
    condition = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class UniqueOp(OnnxOp):
    """Opset 11: the distinct slices along `axis` (elements without it), and
    optionally their first indices, the inverse map and their counts."""

    name = "onnx.Unique"
    DEFAULTS: ClassVar[dict[str, object]] = {"sorted": 1}

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    indices = opt_result_def(AnyTensor)
    inverse_indices = opt_result_def(AnyTensor)
    counts = opt_result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    sorted = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedResultSegments(as_property=True),)


@irdl_op_definition
class NonMaxSuppressionOp(OnnxOp):
    """Opset 11: the `[n, 3]` (batch, class, box) of the boxes kept, per batch
    and class, by greedy IoU suppression in descending score order."""

    name = "onnx.NonMaxSuppression"
    DEFAULTS: ClassVar[dict[str, object]] = {"center_point_box": 0}

    boxes = operand_def(AnyTensor)
    scores = operand_def(AnyTensor)
    max_output_boxes_per_class = opt_operand_def(AnyTensor)
    iou_threshold = opt_operand_def(AnyTensor)
    score_threshold = opt_operand_def(AnyTensor)
    selected_indices = result_def(AnyTensor)
    center_point_box = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


OPS: tuple[type[Operation], ...] = (
    NonZeroOp,
    CompressOp,
    UniqueOp,
    NonMaxSuppressionOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "CompressOp",
    "NonMaxSuppressionOp",
    "NonZeroOp",
    "UniqueOp",
]
