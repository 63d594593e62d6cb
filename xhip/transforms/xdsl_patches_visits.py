"""The pattern walker's loop, patched: `xhip.universe` installs it with the
other patches (`docs/xdsl-upstream.md`, 8 and 18).

`process_worklist`: `PatternRewriteWalker._process_worklist` (`canonicalize`
and every pass built on the walker) resets its rewriter for each op it visits
through property setters and a checked `InsertPoint`, 1.8 us an op; set
directly, 1 us, and the point built only when a pattern asks for it
(`WalkRewriter`).

Most visits do nothing at all: `canonicalize` visits every op at least twice
(the last walk finds nothing to do), and most op classes have no
canonicalization pattern and no folder, and are either never dead (a symbol,
an op that writes or frees) or used. Each such visit still reset the rewriter
and asked the applier, which asked whether the op is dead, whether it folds,
and each of its patterns whether it matches. So the loop asks once per op
class and walk what its pattern can do to an op of that class (`visit_plan`):
nothing (the visit is skipped), only erase it as trivially dead (the pattern
is called only when the op is), or anything (the pattern is called). Known
patterns: the folding applier of `canonicalize` and of other passes
(`GreedyRewritePatternApplier`: its dead check, folding and patterns),
`TypedPatternApplier`, a method written with `op_type_rewrite_pattern`, and
`canonicalize`'s per-class patterns. Any other pattern is called for every
op, as before. The same ops are visited in the same order and the same
patterns called on them, so no result changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

from xdsl.ir import Block, ErasedSSAValue, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.transforms import dead_code_elimination
from xdsl.utils.worklist import _MISSING  # pyright: ignore[reportPrivateUsage]

from xhip.transforms import xdsl_patches
from xhip.transforms.typed_patterns import TypedPatternApplier, op_type_pattern_types
from xhip.transforms.xdsl_patches_driver import (
    PLAIN_REWRITERS,
    applier_match_and_rewrite,
    folds,
    insert_point_in,
    next_op,
    op_worklist,
)

Plan = bool | Callable[[Operation], bool] | None
"""What a walk's pattern can do to an op of one class (with a parent block):
None, anything (it is called); False, nothing; True, erase the op when its
results are unused; a function, erase it when its results are unused and the
function says it is dead."""

_UNPLANNED: Any = object()


def _dead_plan(op: Operation) -> Plan:
    """What the dead-code check of an applier can do to `op`: the answer
    `xdsl_patches` keeps per class for `would_be_trivially_dead` (None when
    xDSL's own checks are in place)."""
    if (
        dead_code_elimination.is_trivially_dead  # pyright: ignore[reportUnknownMemberType]
        is not xdsl_patches._is_trivially_dead  # pyright: ignore[reportPrivateUsage]
        or dead_code_elimination.would_be_trivially_dead  # pyright: ignore[reportUnknownMemberType]
        is not xdsl_patches._would_be_trivially_dead  # pyright: ignore[reportPrivateUsage]
    ):
        return None
    dead = xdsl_patches._DEAD_IF_UNUSED  # pyright: ignore[reportPrivateUsage]
    known = dead.get(type(op))
    if known is None:
        known = dead[type(op)] = xdsl_patches._dead_if_unused(op)  # pyright: ignore[reportPrivateUsage]
    return known


def _may_act(pattern: RewritePattern, cls: type[Operation]) -> bool:
    """Whether `pattern` may do anything to an op of class `cls`."""
    if type(pattern).match_and_rewrite is xdsl_patches._canonicalize_op:  # pyright: ignore[reportPrivateUsage]
        return xdsl_patches.canonicalizer(cls) is not None
    types = op_type_pattern_types(pattern)
    return types is None or issubclass(cls, types)


def _applier_plan(applier: GreedyRewritePatternApplier, op: Operation) -> Plan:
    """`applier_match_and_rewrite`'s plan for `op`'s class: it folds, then
    tries its patterns, after erasing a dead op."""
    if applier.folding_enabled and folds(op):
        return None
    cls = type(op)
    if any(_may_act(p, cls) for p in applier.rewrite_patterns):
        return None
    return _dead_plan(op) if applier.dce_enabled else False


def _typed_plan(applier: TypedPatternApplier, op: Operation) -> Plan:
    """`TypedPatternApplier`'s plan: its patterns for the class, after
    erasing a dead op."""
    if applier.patterns_for(type(op)):
        return None
    return _dead_plan(op) if applier.dce_enabled else False


def _class_plan(types: tuple[type[Operation], ...], op: Operation) -> Plan:
    return None if issubclass(type(op), types) else False


_TYPED_MATCH_AND_REWRITE: Any = TypedPatternApplier.match_and_rewrite


def visit_plan(pattern: RewritePattern) -> Callable[[Operation], Plan] | None:
    """How to find, per op class, what `pattern` can do in a walk; None for a
    pattern this module does not know, called on every op."""
    method: Any = type(pattern).match_and_rewrite
    if method is applier_match_and_rewrite:
        return partial(_applier_plan, cast(GreedyRewritePatternApplier, pattern))
    if method is _TYPED_MATCH_AND_REWRITE:
        return partial(_typed_plan, cast(TypedPatternApplier, pattern))
    types = op_type_pattern_types(pattern)
    if types is not None:
        return partial(_class_plan, types)
    return None


class WalkRewriter(PatternRewriter):
    """The pattern walker's rewriter, its insertion point (before the op being
    rewritten) built when a pattern first asks for it: most ops meet no
    pattern that inserts, and building the point was a third of resetting
    the rewriter for each op. The point is the one the reset would have
    built, the block taken then, not when it is asked for."""

    _point: InsertPoint | None = None
    _point_op: Operation | None = None
    _point_block: Block | None = None

    @property
    def insertion_point(self) -> InsertPoint:  # pyright: ignore[reportIncompatibleVariableOverride]
        point = self._point
        if point is None:
            assert self._point_op is not None and self._point_block is not None
            point = self._point = insert_point_in(self._point_op, self._point_block)
        return point

    @insertion_point.setter
    def insertion_point(self, point: InsertPoint) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        self._point = point


PLAIN_REWRITERS.add(WalkRewriter)


def process_worklist(
    self: PatternRewriteWalker, listener: PatternRewriterListener
) -> bool:
    """`PatternRewriteWalker._process_worklist`, each op's visit skipped where
    its class's plan says the pattern can do nothing to it, the rewriter reset
    by its fields, the insertion point built when asked for (`WalkRewriter`),
    and the ops taken from an `OpWorklist` without a method call each."""
    worklist = op_worklist(self)
    stack = worklist._stack  # pyright: ignore[reportPrivateUsage]
    known = cast(dict[int, int], worklist._map)  # pyright: ignore[reportPrivateUsage]
    done = False
    op = next_op(stack, known)
    if op is None:
        return done
    rewriter = WalkRewriter(op)
    rewriter.extend_from_listener(listener)
    pattern = self.pattern
    planner = visit_plan(pattern)
    plans: dict[type[Operation], Plan] = {}
    while True:
        block = op.parent
        visit = True
        if planner is not None and block is not None:
            plan = plans.get(type(op), _UNPLANNED)
            if plan is _UNPLANNED:
                try:
                    plan = planner(op)
                except Exception:  # raised again by the pattern, as xDSL reports it
                    plan = None
                plans[type(op)] = plan
            if plan is not None:
                visit = False
                if plan is not False:
                    for result in op.results:
                        if result.first_use is not None:
                            break
                    else:
                        try:
                            visit = plan is True or plan(op)
                        except Exception:  # raised again by the pattern
                            visit = True
        if visit:
            rewriter.has_done_action = False
            rewriter._current_operation = op  # pyright: ignore[reportPrivateUsage]
            if block is not None:
                rewriter._point = None  # pyright: ignore[reportPrivateUsage]
                rewriter._point_op = op  # pyright: ignore[reportPrivateUsage]
                rewriter._point_block = block  # pyright: ignore[reportPrivateUsage]
            else:
                rewriter.insertion_point = InsertPoint.before(op)  # raises as xDSL's
            rewriter._name_hint = None  # pyright: ignore[reportPrivateUsage]
            try:
                pattern.match_and_rewrite(op, rewriter)
            except Exception as err:
                op.emit_error(
                    f"Error while applying pattern: {err}", underlying_error=err
                )
            done |= rewriter.has_done_action
        # `next_op`, inline: the last op on the stack not removed
        while stack:
            op = stack.pop()
            if op is not _MISSING:
                del known[id(op)]
                break
        else:
            return done


XDSL_PROCESS_WORKLIST: Any = PatternRewriteWalker._process_worklist  # pyright: ignore[reportPrivateUsage]
"""xDSL's own worklist loop: the tests' reference."""


def handle_operation_removal(self: PatternRewriteWalker, op: Operation) -> None:
    """`PatternRewriteWalker._handle_operation_removal` (every op a pattern
    erases or replaces) with its `_add_operands_to_worklist` inline, reading
    the op's own operands and each one's uses without an operand view, a
    method call and a property each."""
    worklist = self._worklist  # pyright: ignore[reportPrivateUsage]
    if self.apply_recursively:
        for operand in op._operands:  # pyright: ignore[reportPrivateUsage]
            use = operand.first_use
            if (
                use is not None
                and use._next_use is None  # pyright: ignore[reportPrivateUsage]
                and not isinstance(operand, ErasedSSAValue)
                and isinstance(
                    (
                        owner := operand.op
                        if type(operand) is OpResult
                        else operand.owner
                    ),
                    Operation,
                )
            ):
                worklist.push(owner)
    if op.regions:
        for sub_op in op.walk():
            worklist.remove(sub_op)
    else:
        worklist.remove(op)


def handle_operation_replacement(
    self: PatternRewriteWalker,
    op: Operation,
    new_results: Sequence[SSAValue | None],
) -> None:
    """`PatternRewriteWalker._handle_operation_replacement`, each result's
    users found through the uses' links instead of a generator."""
    if self.apply_recursively:
        push = self._worklist.push  # pyright: ignore[reportPrivateUsage]
        for result in op.results:
            use = result.first_use
            while use is not None:
                push(use.operation)
                use = use._next_use  # pyright: ignore[reportPrivateUsage]


XDSL_WALKER_HANDLERS: dict[str, Any] = {
    name: vars(PatternRewriteWalker)[name]
    for name in ("_handle_operation_removal", "_handle_operation_replacement")
}
"""xDSL's own: the tests' reference."""


def plan_walker_visits() -> None:
    """Make the pattern walker skip the visits its pattern can do nothing in,
    and hear of removed and replaced ops cheaply. Calling it again changes
    nothing."""
    process: Any = process_worklist
    PatternRewriteWalker._process_worklist = process  # pyright: ignore[reportPrivateUsage]
    removal: Any = handle_operation_removal
    PatternRewriteWalker._handle_operation_removal = removal  # pyright: ignore[reportPrivateUsage]
    replacement: Any = handle_operation_replacement
    PatternRewriteWalker._handle_operation_replacement = replacement  # pyright: ignore[reportPrivateUsage]
