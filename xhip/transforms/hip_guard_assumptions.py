"""`hip-guard-assumptions`: operands that decide structure, taken as the values
a specialization assumes, each assumption checked at run time by a `hip.guard`
(`docs/shape-values.md`, "Guards").

`structure_operands(module)` finds the operands an op's `STRUCTURE_OPERANDS`
names that are neither constants nor shape values (`onnx-fold-shapes` run
first): graph inputs, or values computed from data. `xhip.compile` reads their
values at run time and marks each op with `xhip.assume = {operand = dense<...>}`;
this pass then replaces each marked operand with an `onnx.Constant` of the
value, reads the original back and guards it:

    %0 = hip.readback(%ctx) %axes : tensor<1xi64> -> index
    hip.guard %0 expects array<i64: 1>

(a float operand is compared on the device first, `onnx.Equal` against the
constant, and its 0/1 results are guarded). An `onnx.If` whose condition is now
a constant is inlined. It runs after `hip-add-context-arg` (a readback takes the
context) and before `convert-onnx-to-hip`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects import builtin, func
from xdsl.dialects.builtin import (
    AnyTensorTypeConstr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerType,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xhip.dialects import hip, onnx
from xhip.transforms.hip_add_context_arg import context_arg
from xhip.transforms.index_arith import index_values
from xhip.transforms.onnx_to_hip.control_flow import inline_constant_ifs

ASSUME = "xhip.assume"
"""The discardable attribute naming the values an op's operands are assumed to
have: `{axes_input = dense<[1]> : tensor<1xi64>}`."""


def _known(op: onnx.OnnxOp, value: SSAValue) -> bool:
    """Whether the conversion can take `value` as it is: a constant, or a
    shape value (a bool one only if every element is a number: it picks a
    branch); an integer a conversion reads back itself."""
    t = value.type
    if not AnyTensorTypeConstr.verifies(t):
        return True
    element = t.get_element_type()
    if isinstance(element, IntegerType):
        if op.READS_BACK_INTEGERS:
            return True
        elements = index_values(value)
        if elements is None:
            return False
        return element != i1 or all(isinstance(e, int) for e in elements)
    owner = value.owner
    return isinstance(owner, onnx.ConstantOp) and isinstance(
        owner.value, DenseIntOrFPElementsAttr
    )


def structure_operands(
    function: func.FuncOp,
) -> list[tuple[Operation, str, SSAValue]]:
    """`(op, operand name, value)` for each structure operand (ops anywhere in
    `function`, nested branches too) that is data and not yet assumed: a value
    of the function's own block, which a specialization can read before it
    runs."""
    top = function.body.block
    found: list[tuple[Operation, str, SSAValue]] = []
    for op in function.walk():
        if not isinstance(op, onnx.OnnxOp):
            continue
        assumed = op.attributes.get(ASSUME)
        taken: Mapping[str, Attribute] = (
            assumed.data if isinstance(assumed, DictionaryAttr) else {}
        )
        for name in type(op).STRUCTURE_OPERANDS:
            value = cast(SSAValue | None, getattr(op, name))
            if name in taken or not isinstance(value, SSAValue) or _known(op, value):
                continue
            owner = value.owner
            block = owner if isinstance(owner, Block) else owner.parent_block()
            if block is top:
                found.append((op, name, value))
    return found


def _top_level(op: Operation, block: Block) -> Operation:
    while op.parent_block() is not block:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def _guard(
    ctx: SSAValue, value: SSAValue, constant: SSAValue, before: Operation
) -> None:
    """Reads `value` back and guards it equal to `constant`'s elements."""
    t = value.type
    assert isinstance(t, TensorType)
    attr = constant.owner
    assert isinstance(attr, onnx.ConstantOp)
    dense = attr.value
    assert isinstance(dense, DenseIntOrFPElementsAttr)
    count = math.prod(t.get_shape())
    checked = value
    expected: list[int]
    if t.get_element_type() == i1:  # read back as 0/1; the attribute says -1
        expected = [int(bool(v)) for v in dense.get_values()]
    elif isinstance(t.get_element_type(), IntegerType):
        expected = [int(v) for v in dense.get_values()]
    else:
        equal = onnx.EqualOp.build(
            operands=[value, constant],
            result_types=[TensorType(i1, t.get_shape())],
        )
        Rewriter.insert_op(equal, InsertPoint.before(before))
        checked = equal.results[0]
        expected = [1] * count
    readback = hip.ReadbackOp(ctx, checked, count)
    Rewriter.insert_op(readback, InsertPoint.before(before))
    Rewriter.insert_op(
        hip.GuardOp(readback.values, expected), InsertPoint.before(before)
    )


def guard_assumptions(function: func.FuncOp) -> None:
    """Every `xhip.assume` of `function`'s ops made constants and guards."""
    ctx = context_arg(function)
    top = function.body.block
    guarded: dict[tuple[SSAValue, DenseIntOrFPElementsAttr[Any]], SSAValue] = {}
    for op in list(function.walk()):
        assumed = op.attributes.pop(ASSUME, None)
        if not isinstance(assumed, DictionaryAttr):
            continue
        if ctx is None:
            raise ValueError(f"{ASSUME}: run hip-add-context-arg first")
        anchor = _top_level(op, top)
        for name, expected in assumed.data.items():
            value = cast(SSAValue, getattr(op, name))
            assert isinstance(expected, DenseIntOrFPElementsAttr)
            expected = cast(DenseIntOrFPElementsAttr[Any], expected)
            constant = guarded.get((value, expected))
            if constant is None:
                attrs: dict[str, Attribute] = {"value": expected}
                const = onnx.ConstantOp.build(
                    result_types=[cast(Attribute, expected.type)], attributes=attrs
                )
                Rewriter.insert_op(const, InsertPoint.before(anchor))
                constant = guarded[value, expected] = const.results[0]
                _guard(ctx, value, constant, anchor)
            for i, operand in enumerate(op.operands):
                if operand is value:
                    op.operands[i] = constant
    inline_constant_ifs(function)


@dataclass(frozen=True)
class HipGuardAssumptionsPass(ModulePass):
    name = "hip-guard-assumptions"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for function in op.walk():
            if isinstance(function, func.FuncOp) and not function.is_declaration:
                guard_assumptions(function)
