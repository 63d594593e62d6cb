"""`onnx.Constant` (`onnx_to_hip/constants.py` converts it)."""

from __future__ import annotations

from xdsl.ir import Attribute, Operation
from xdsl.irdl import irdl_op_definition, opt_attr_def, result_def, traits_def
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_op_definition
class ConstantOp(OnnxOp):
    name = "onnx.Constant"

    value = opt_attr_def(Attribute)
    output = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    ConstantOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "ConstantOp",
]
