"""Views of the same elements (`onnx_to_hip/reshape.py` converts them)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_op_definition
class ReshapeOp(OnnxOp):
    name = "onnx.Reshape"
    DEFAULTS: ClassVar[dict[str, object]] = {"allowzero": 0}

    data = operand_def(AnyTensor)
    shape = operand_def(AnyTensor)
    reshaped = result_def(AnyTensor)
    allowzero = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class FlattenOp(OnnxOp):
    name = "onnx.Flatten"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": 1}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SqueezeOp(OnnxOp):
    """Opset 13+: `axes` is an optional input tensor."""

    name = "onnx.Squeeze"

    data = operand_def(AnyTensor)
    axes = opt_operand_def(AnyTensor)
    squeezed = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class UnsqueezeOp(OnnxOp):
    """Opset 13+: `axes` is an input tensor."""

    name = "onnx.Unsqueeze"

    data = operand_def(AnyTensor)
    axes = operand_def(AnyTensor)
    expanded = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    ReshapeOp,
    FlattenOp,
    SqueezeOp,
    UnsqueezeOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "FlattenOp",
    "ReshapeOp",
    "SqueezeOp",
    "UnsqueezeOp",
]
