"""Control flow: `onnx.If` with its branches as regions, as onnx-mlir prints it
(`onnx_to_hip/control_flow.py` converts it).

A branch is the subgraph ONNX gives as an attribute: a one-block region with
no arguments, ending in `onnx.Yield` of the branch's outputs. Values of the
enclosing graph are used inside directly (outer scope), as ONNX allows.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import IsTerminator, NoMemoryEffect, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_op_definition
class YieldOp(OnnxOp):
    """A branch's outputs."""

    name = "onnx.Yield"

    outputs = var_operand_def(AnyTensor)
    traits = traits_def(IsTerminator(), NoMemoryEffect())

    def __init__(self, outputs: list[SSAValue]):
        super().__init__(operands=[outputs])


@irdl_op_definition
class IfOp(OnnxOp):
    """`then_branch`'s outputs where `cond` (a one-element bool tensor) is
    true, else `else_branch`'s."""

    name = "onnx.If"
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("cond",)

    cond = operand_def(AnyTensor)
    outputs = var_result_def(AnyTensor)
    then_branch = region_def("single_block")
    else_branch = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def branch(self, taken: bool) -> YieldOp:
        """The `onnx.Yield` ending the branch `taken` picks."""
        region = self.then_branch if taken else self.else_branch
        last = region.block.last_op
        assert isinstance(last, YieldOp)
        return last

    def verify_(self) -> None:
        for what, region in (("then", self.then_branch), ("else", self.else_branch)):
            last = region.block.last_op
            if not isinstance(last, YieldOp):
                raise VerifyException(
                    f"'{self.name}' {what} branch must end in onnx.Yield"
                )
            if len(last.outputs) != len(self.outputs):
                raise VerifyException(
                    f"'{self.name}' {what} branch yields {len(last.outputs)} values "
                    f"for {len(self.outputs)} results"
                )


OPS: tuple[type[Operation], ...] = (IfOp, YieldOp)
"""This family's ops; a new op goes at the end."""

__all__ = ["IfOp", "YieldOp"]
