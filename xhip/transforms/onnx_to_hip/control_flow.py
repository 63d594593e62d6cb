"""Control flow, unrolled at compile time into the ops the subgraphs hold
(which are converted in turn).

`onnx.If` whose condition is known at compile time: the taken branch's ops
take its place (inlined), the other branch is dropped. A condition that is data
is specialized on by `xhip.compile` (`hip-guard-assumptions` makes it a
constant behind a `hip.guard`), so every If the conversion sees is folded.
`onnx.Scan` runs as many steps as its scan inputs' static length, `onnx.Loop`
as its trip count (a constant, or specialized on like If's condition) while
its condition, known at compile time, holds: both are unrolled, one copy of
the body per step, as `rnn.py` unrolls the RNNs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.hints import isa

from xhip.dialects import onnx
from xhip.transforms.index_arith import index_values
from xhip.transforms.onnx_fold_shapes import ShapeFolder
from xhip.transforms.onnx_to_hip.sequence import resolve_sequences, uses_sequences
from xhip.transforms.onnx_to_hip.support import OnnxPattern, Unsupported


def condition(op: onnx.IfOp) -> bool | None:
    """The condition's value, if it is known at compile time."""
    values = index_values(op.cond)
    if values is None or len(values) != 1 or not isinstance(values[0], int):
        return None
    return bool(values[0])


def _results(op: onnx.IfOp, taken: bool) -> tuple[list[SSAValue], list[Operation]]:
    """The taken branch's yielded values, as the If's result types (a
    `tensor.cast` where the branch's type is more or less static), and the
    casts to insert."""
    values: list[SSAValue] = []
    casts: list[Operation] = []
    for value, result in zip(op.branch(taken).outputs, op.outputs, strict=True):
        if value.type != result.type and not onnx.is_structured(result.type):
            assert isinstance(result.type, TensorType)
            cast = tensor.CastOp(value, result.type)
            casts.append(cast)
            value = cast.dest
        values.append(value)
    return values, casts


def inline_constant_ifs(function: func.FuncOp) -> bool:
    """Every `onnx.If` of `function` with a constant condition, inlined;
    whether there was one."""
    changed = False
    for op in list(function.walk()):
        if isinstance(op, onnx.IfOp) and (taken := condition(op)) is not None:
            yielded = op.branch(taken)
            region = op.then_branch if taken else op.else_branch
            values, casts = _results(op, taken)
            yielded.detach()
            Rewriter.inline_block(region.block, InsertPoint.before(op))
            for cast in casts:
                Rewriter.insert_op(cast, InsertPoint.before(op))
            Rewriter.replace_op(op, [], values)
            yielded.erase()
            changed = True
    return changed


class ConvertIf(OnnxPattern[onnx.IfOp]):
    """A constant condition: the taken branch inlined."""

    def convert(self, op: onnx.IfOp, rewriter: PatternRewriter) -> None:
        taken = condition(op)
        if taken is None:
            raise Unsupported(
                "the condition is data known only at run time: xhip.compile "
                "specializes on it (docs/shape-values.md, Guards)"
            )
        yielded = op.branch(taken)
        region = op.then_branch if taken else op.else_branch
        values, casts = _results(op, taken)
        rewriter.inline_block(region.block, InsertPoint.before(op))
        rewriter.replace(op, casts, values)
        rewriter.erase(yielded)


class ConvertYield(OnnxPattern[onnx.YieldOp]):
    """Nothing: a branch's `onnx.Yield` goes with its If (`ConvertIf`)."""

    def convert(self, op: onnx.YieldOp, rewriter: PatternRewriter) -> None:
        return


MAX_UNROLLED_STEPS = 4096
"""The most steps a Loop or Scan is unrolled to; past it, it is refused."""


class _Unrolling:
    """The ops one Scan or Loop unrolls to, built before any is inserted (a
    refusal midway leaves the IR as it was)."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0] if op.results else SSAValue.get(op)

    def constant(
        self, values: list[int], shape: list[int], element: IntegerType = i64
    ) -> SSAValue:
        dense = DenseIntOrFPElementsAttr.from_list(TensorType(element, shape), values)
        return self.add(
            onnx.ConstantOp.build(
                result_types=[dense.type], attributes={"value": dense}
            )
        )

    def empty(self, t: TensorType[Attribute]) -> SSAValue:
        """A constant of no elements."""
        dense = DenseIntOrFPElementsAttr.from_list(cast(Any, t), [])
        return self.add(
            onnx.ConstantOp.build(result_types=[t], attributes={"value": dense})
        )

    def step(self, body: Block, inputs: list[SSAValue]) -> list[SSAValue]:
        """`body`'s ops cloned, its arguments taken as `inputs`; what it yields."""
        mapping: dict[SSAValue, SSAValue] = dict(zip(body.args, inputs, strict=True))
        for inner in body.ops:
            if isinstance(inner, onnx.YieldOp):
                return [mapping.get(v, v) for v in inner.outputs]
            self.ops.append(inner.clone(value_mapper=mapping))
        raise AssertionError("a body ends in onnx.Yield (verified)")

    def take(self, x: SSAValue, axis: int, index: int) -> SSAValue:
        """Slice `index` of `x` along `axis`, that dim dropped (`Gather`)."""
        shape = _shape(x)
        del shape[axis]
        return self.add(
            onnx.GatherOp.build(
                operands=[x, self.constant([index], [])],
                result_types=[TensorType(_element(x), shape)],
                properties={"axis": _si64(axis)},
            )
        )

    def stack(self, values: list[SSAValue], axis: int, result: SSAValue) -> SSAValue:
        """`values` stacked along a new `axis` (`Unsqueeze` each, `Concat`)."""
        axes = self.constant([axis], [1])
        parts: list[SSAValue] = []
        for value in values:
            shape = _shape(value)
            shape.insert(axis, 1)
            parts.append(
                self.add(
                    onnx.UnsqueezeOp.build(
                        operands=[value, axes],
                        result_types=[TensorType(_element(value), shape)],
                    )
                )
            )
        if len(parts) == 1:
            return parts[0]
        return self.add(
            onnx.ConcatOp.build(
                operands=[parts],
                result_types=[result.type],
                properties={"axis": _si64(axis)},
            )
        )

    def results(
        self, values: list[SSAValue], results: Sequence[SSAValue]
    ) -> list[SSAValue]:
        """`values` as `results`' types: a `tensor.cast` where a body's type
        is more or less static."""
        cast_values: list[SSAValue] = []
        for value, result in zip(values, results, strict=True):
            # A sequence or optional needs no cast: `resolve_sequences` follows it.
            if value.type != result.type and not onnx.is_structured(result.type):
                t = result.type
                assert isa(t, TensorType[Attribute])
                value = self.add(tensor.CastOp(value, t))
            cast_values.append(value)
        return cast_values


def _si64(value: int) -> IntegerAttr:
    return IntegerAttr(value, IntegerType(64, Signedness.SIGNED))


def _shape(value: SSAValue) -> list[int]:
    t = value.type
    assert isinstance(t, TensorType)
    return list(t.get_shape())


def _element(value: SSAValue) -> Attribute:
    t = value.type
    assert isa(t, TensorType[Attribute])
    return t.get_element_type()


def _axis(axis: int, rank: int, what: str) -> int:
    if not -rank <= axis < rank:
        raise Unsupported(f"{what} {axis} is out of range for rank {rank}")
    return axis % rank


def _unroll_scan(op: onnx.ScanLoopOp) -> tuple[list[Operation], list[SSAValue]]:
    """The scan inputs' static length gives the steps; each step is the body
    on a `Gather` of each scan input at that step and the state the step
    before yielded; each scan output is the steps' values stacked."""
    operands = list(op.initial_state_and_scan_inputs)
    scans = op.get_int("num_scan_inputs")
    states, inputs = operands[: len(operands) - scans], operands[-scans:]
    results = list(op.final_state_and_scan_outputs)
    outputs = len(results) - len(states)
    in_axes = op.get_ints("scan_input_axes") or [0] * scans
    in_reverse = op.get_ints("scan_input_directions") or [0] * scans
    out_axes = op.get_ints("scan_output_axes") or [0] * outputs
    out_reverse = op.get_ints("scan_output_directions") or [0] * outputs
    axes = [
        _axis(a, len(_shape(x)), "scan_input_axes")
        for a, x in zip(in_axes, inputs, strict=True)
    ]
    lengths = {_shape(x)[a] for x, a in zip(inputs, axes, strict=True)}
    steps = lengths.pop() if len(lengths) == 1 else -1
    if not 1 <= steps <= MAX_UNROLLED_STEPS:
        raise Unsupported(
            "the scan inputs' lengths must be static, equal and from 1 to "
            f"{MAX_UNROLLED_STEPS} (it is unrolled)"
        )
    u = _Unrolling()
    per_step: list[list[SSAValue]] = []
    for step in range(steps):
        sliced = [
            u.take(x, axis, steps - 1 - step if reverse else step)
            for x, axis, reverse in zip(inputs, axes, in_reverse, strict=True)
        ]
        yielded = u.step(op.body.block, [*states, *sliced])
        states = yielded[: len(states)]
        per_step.append(yielded[len(states) :])
    stacked: list[SSAValue] = []
    for k, result in enumerate(results[len(states) :]):
        values = [each[k] for each in per_step]
        if out_reverse[k]:
            values.reverse()
        axis = _axis(out_axes[k], len(_shape(result)), "scan_output_axes")
        stacked.append(u.stack(values, axis, result))
    return u.ops, u.results([*states, *stacked], results)


def _known_condition(value: SSAValue) -> bool | None:
    """A bool known at compile time, through `onnx.Identity`s."""
    while isinstance(value.owner, onnx.IdentityOp):
        value = value.owner.input
    values = index_values(value)
    if values is None or len(values) != 1 or not isinstance(values[0], int):
        return None
    return bool(values[0])


def _unroll_loop(op: onnx.LoopOp) -> tuple[list[Operation], list[SSAValue]]:
    """Steps while the iteration number is below the trip count `M` (a
    constant, or data `xhip.compile` specializes on) and the condition, known
    at each step, holds: each step is the body on the iteration number (a
    constant) and the values the step before carried; each scan output is the
    steps' values stacked along a new first axis."""
    trips: int | None = None
    if op.M is not None:
        known = index_values(op.M)
        if known is None or len(known) != 1 or not isinstance(known[0], int):
            raise Unsupported(
                "the trip count M is data known only at run time: xhip.compile "
                "specializes on it (docs/shape-values.md, Guards)"
            )
        trips = known[0]
    going = True if op.cond is None else _known_condition(op.cond)
    if going is None:
        raise Unsupported(
            "the condition is data known only at run time: xhip.compile "
            "specializes on it (docs/shape-values.md, Guards)"
        )
    u = _Unrolling()
    carried = list(op.v_initial)
    results = list(op.v_final_and_scan_outputs)
    per_step: list[list[SSAValue]] = []
    while going and (trips is None or len(per_step) < trips):
        if len(per_step) == MAX_UNROLLED_STEPS:
            raise Unsupported(
                f"the loop runs past {MAX_UNROLLED_STEPS} steps: too many to unroll"
            )
        number = u.constant([len(per_step)], [])
        true = u.constant([1], [], i1)
        yielded = u.step(op.body.block, [number, true, *carried])
        going = _known_condition(yielded[0])
        if going is None:
            raise Unsupported(
                "the body computes its condition from data: unrolling needs it "
                "known at compile time (an early exit is data-dependent control "
                "flow, which xhip does not run)"
            )
        carried = yielded[1 : 1 + len(carried)]
        per_step.append(yielded[1 + len(carried) :])
    if not per_step:
        stacked = [u.empty(t) for t in _scan_types(op, len(carried))]
    else:
        stacked = [
            u.stack([each[k] for each in per_step], 0, result)
            for k, result in enumerate(results[len(carried) :])
        ]
    return u.ops, u.results([*carried, *stacked], results)


def _scan_types(op: onnx.LoopOp, carried: int) -> list[TensorType[Attribute]]:
    """The types of a loop's scan outputs that runs no step: `[0, *element]`,
    the element as the body yields it, which must be static (ONNX Runtime
    gives an empty output of the body's element shape)."""
    (yield_op,) = [o for o in op.body.block.ops if isinstance(o, onnx.YieldOp)]
    types: list[TensorType[Attribute]] = []
    for value in list(yield_op.outputs)[1 + carried :]:
        t = value.type
        if not isa(t, TensorType[Attribute]) or DYNAMIC_INDEX in t.get_shape():
            raise Unsupported(
                "the loop runs no step, and its body's scan output type "
                f"{t} is not static: the empty output's shape is unknown"
            )
        types.append(TensorType(t.get_element_type(), [0, *t.get_shape()]))
    return types


def _unroll(op: Operation) -> tuple[list[Operation], list[SSAValue]] | None:
    if isinstance(op, onnx.ScanLoopOp):
        return _unroll_scan(op)
    if isinstance(op, onnx.LoopOp):
        return _unroll_loop(op)
    return None


def unroll_control_flow(module: Operation) -> None:
    """Every `onnx.Scan` and `onnx.Loop` in `module` that can be, unrolled
    (nested ones too, outer first); the others are left for
    `ConvertScan`/`ConvertLoop` to refuse with the reason. Runs before the
    conversion's walk, which visits only the ops there when it starts.

    In a module with sequences or optionals, unrolling, `resolve_sequences`
    and inlining the Ifs it decides repeat until nothing changes: a
    loop-carried sequence, or an If on `OptionalHasElement`, is known only
    step by step."""
    _decide_ifs(module)
    _unroll_all(module)
    if not uses_sequences(module):
        return
    while True:
        changed = resolve_sequences(module)
        for function in list(module.walk()):
            if isinstance(function, func.FuncOp):
                changed |= inline_constant_ifs(function)
        changed |= _unroll_all(module)
        if not changed:
            return


def _decide_ifs(module: Operation) -> None:
    """Every If whose condition folding decides, inlined; again after each
    round, which may decide an If nested in a branch on an outer If's
    results (an expanded function's `If` on the sizes another `If` picked)."""
    assert isinstance(module, ModuleOp)
    while any(isinstance(op, onnx.IfOp) for op in module.walk()):
        ShapeFolder(module).run()
        functions = [f for f in module.walk() if isinstance(f, func.FuncOp)]
        if not [f for f in functions if inline_constant_ifs(f)]:
            return


def _unroll_all(module: Operation) -> bool:
    """Every Scan and Loop that can be, unrolled; whether one was."""
    changed = False
    pending = [
        op for op in module.walk() if isinstance(op, onnx.ScanLoopOp | onnx.LoopOp)
    ]
    while pending:
        op = pending.pop(0)
        try:
            unrolled = _unroll(op)
        except Unsupported:
            continue
        assert unrolled is not None
        ops, values = unrolled
        Rewriter.insert_op(ops, InsertPoint.before(op))
        Rewriter.replace_op(op, [], values)
        changed = True
        pending = [
            op for op in module.walk() if isinstance(op, onnx.ScanLoopOp | onnx.LoopOp)
        ]
    return changed


class ConvertScan(OnnxPattern[onnx.ScanLoopOp]):
    """A Scan `unroll_control_flow` left: its reason."""

    def convert(self, op: onnx.ScanLoopOp, rewriter: PatternRewriter) -> None:
        _unroll_scan(op)
        raise Unsupported("unroll_control_flow unrolls it before the conversion")


class ConvertLoop(OnnxPattern[onnx.LoopOp]):
    """A Loop `unroll_control_flow` left: its reason."""

    def convert(self, op: onnx.LoopOp, rewriter: PatternRewriter) -> None:
        _unroll_loop(op)
        raise Unsupported("unroll_control_flow unrolls it before the conversion")
