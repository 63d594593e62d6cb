"""Control flow: `onnx.If`, `onnx.Scan` and `onnx.Loop` with their subgraphs
as regions, as onnx-mlir prints them (`onnx_to_hip/control_flow.py` converts
them).

A subgraph is the graph ONNX gives as an attribute: a one-block region whose
arguments are the subgraph's inputs (none for If's branches), ending in
`onnx.Yield` of its outputs. Values of the enclosing graph are used inside
directly (outer scope), as ONNX allows.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import IsTerminator, NoMemoryEffect, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.onnx.base import AnyTensor, OnnxOp
from xhip.dialects.onnx.sequence import AnyValue


@irdl_op_definition
class YieldOp(OnnxOp):
    """A branch's outputs."""

    name = "onnx.Yield"

    outputs = var_operand_def(AnyValue)
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
    outputs = var_result_def(AnyValue)
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
            _verify_body(self, f"{what} branch", region.block, 0, len(self.outputs))


def _verify_body(
    op: Operation, what: str, block: Block, inputs: int, outputs: int
) -> None:
    """`block` takes `inputs` values and ends in an `onnx.Yield` of `outputs`."""
    if len(block.args) != inputs:
        raise VerifyException(
            f"'{op.name}' {what} takes {len(block.args)} inputs, not {inputs}"
        )
    last = block.last_op
    if not isinstance(last, YieldOp):
        raise VerifyException(f"'{op.name}' {what} must end in onnx.Yield")
    if len(last.outputs) != outputs:
        raise VerifyException(
            f"'{op.name}' {what} yields {len(last.outputs)} values, not {outputs}"
        )


@irdl_op_definition
class ScanLoopOp(OnnxOp):
    """`onnx.Scan` (`ScanOp` names CumSum's and CumProd's base class).

    The body run once per slice of the scan inputs (the last
    `num_scan_inputs` operands) along their axes, the state (the first
    operands) carried from one step to the next; results: the final state,
    then each scan output stacked along its axis."""

    name = "onnx.Scan"

    initial_state_and_scan_inputs = var_operand_def(AnyTensor)
    final_state_and_scan_outputs = var_result_def(AnyTensor)
    num_scan_inputs = prop_def(IntegerAttr)
    scan_input_axes = opt_prop_def(ArrayAttr[IntegerAttr])
    scan_input_directions = opt_prop_def(ArrayAttr[IntegerAttr])
    scan_output_axes = opt_prop_def(ArrayAttr[IntegerAttr])
    scan_output_directions = opt_prop_def(ArrayAttr[IntegerAttr])
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    @property
    def yielded(self) -> YieldOp:
        last = self.body.block.last_op
        assert isinstance(last, YieldOp)
        return last

    def verify_(self) -> None:
        scans = self.get_int("num_scan_inputs")
        operands = len(self.initial_state_and_scan_inputs)
        if not 1 <= scans <= operands:
            raise VerifyException(
                f"'{self.name}' num_scan_inputs {scans} of {operands} operands"
            )
        results = len(self.final_state_and_scan_outputs)
        _verify_body(self, "body", self.body.block, operands, results)


@irdl_op_definition
class LoopOp(OnnxOp):
    """The body run while the iteration number is below `M` (absent: no
    bound) and the condition holds (`cond` before the first step, then the
    body's first output); the loop-carried values (`v_initial`) are threaded
    through; results: their final values, then each scan output stacked along
    a new first axis."""

    name = "onnx.Loop"
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("M", "cond")

    M = opt_operand_def(AnyTensor)
    cond = opt_operand_def(AnyTensor)
    v_initial = var_operand_def(AnyValue)
    v_final_and_scan_outputs = var_result_def(AnyValue)
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(RecursiveMemoryEffect())

    @property
    def yielded(self) -> YieldOp:
        last = self.body.block.last_op
        assert isinstance(last, YieldOp)
        return last

    def verify_(self) -> None:
        carried = len(self.v_initial)
        if len(self.v_final_and_scan_outputs) < carried:
            raise VerifyException(
                f"'{self.name}' has fewer results than its {carried} loop-carried "
                "values"
            )
        results = len(self.v_final_and_scan_outputs)
        _verify_body(self, "body", self.body.block, 2 + carried, 1 + results)


OPS: tuple[type[Operation], ...] = (IfOp, YieldOp, ScanLoopOp, LoopOp)
"""This family's ops; a new op goes at the end."""

__all__ = ["IfOp", "LoopOp", "ScanLoopOp", "YieldOp"]
