"""Slicing, splitting and broadcasting copies (`onnx_to_hip/slice.py` converts
them)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    traits_def,
    var_result_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_op_definition
class SliceOp(OnnxOp):
    """Opset 13: `starts`, `ends` and the optional `axes` and `steps` are inputs."""

    name = "onnx.Slice"
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("axes", "steps")

    data = operand_def(AnyTensor)
    starts = operand_def(AnyTensor)
    ends = operand_def(AnyTensor)
    axes = opt_operand_def(AnyTensor)
    steps = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class SplitOp(OnnxOp):
    """Opset 13: the optional `split` input; 18: or the `num_outputs` attribute
    (the last chunk smaller when the size does not divide)."""

    name = "onnx.Split"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": 0}

    input = operand_def(AnyTensor)
    split = opt_operand_def(AnyTensor)
    outputs = var_result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    num_outputs = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class TileOp(OnnxOp):
    name = "onnx.Tile"

    input = operand_def(AnyTensor)
    repeats = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ExpandOp(OnnxOp):
    """numpy broadcasting of `input` and `shape`, both ways."""

    name = "onnx.Expand"

    input = operand_def(AnyTensor)
    shape = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    SliceOp,
    SplitOp,
    TileOp,
    ExpandOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "ExpandOp",
    "SliceOp",
    "SplitOp",
    "TileOp",
]
