"""More speed fixes to xDSL 0.75, installed by `xhip.transforms.xdsl_patches`'s
functions with the others (`docs/xdsl-upstream.md`, 3, 7 and 8); kept apart
only for the size of that module.

`process_worklist`: the pattern walker (`canonicalize` and every pass built
on `PatternRewriteWalker`) resets its rewriter for each op it visits through
property setters and a checked `InsertPoint`, 1.8 us an op; set directly, 1 us.
`block_walk`: every walk makes a generator per op, though most ops have no
regions and yield only themselves. `hint_constraint`: `isa` of a generic hint
(`isa(shape, ArrayAttr[IntAttr])` in every `MemRefType(...)`) built its
constraint anew on each call. `applier_match_and_rewrite`: the applier asked
two trait questions of every op to decide whether to fold it. None changes a
result.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import xdsl.irdl as irdl_package
from xdsl.folder import Folder
from xdsl.ir import Block, Operation
from xdsl.irdl import AttrConstraint
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import ConstantLike, HasFolder
from xdsl.transforms import dead_code_elimination


def _insert_point_before(op: Operation, block: Block) -> InsertPoint:
    """`InsertPoint.before(op)` where `block` is known to be op's: the frozen
    dataclass's fields set directly, without its check that they agree."""
    point = object.__new__(InsertPoint)
    object.__setattr__(point, "block", block)
    object.__setattr__(point, "insert_before", op)
    return point


def process_worklist(
    self: PatternRewriteWalker, listener: PatternRewriterListener
) -> bool:
    """`PatternRewriteWalker._process_worklist`, the rewriter reset for each op
    by its fields instead of through its property setters and a checked
    `InsertPoint` (1.8 us of every op every `canonicalize` visits, 1 us now)."""
    worklist = self._worklist  # pyright: ignore[reportPrivateUsage]
    done = False
    if not worklist:
        return done
    op = worklist.pop()
    rewriter = PatternRewriter(op)
    rewriter.extend_from_listener(listener)
    pattern = self.pattern
    while True:
        block = op.parent
        rewriter.has_done_action = False
        rewriter._current_operation = op  # pyright: ignore[reportPrivateUsage]
        rewriter.insertion_point = (
            _insert_point_before(op, block)
            if block is not None
            else InsertPoint.before(op)  # raises as xDSL's loop would
        )
        rewriter._name_hint = None  # pyright: ignore[reportPrivateUsage]
        try:
            pattern.match_and_rewrite(op, rewriter)
        except Exception as err:
            op.emit_error(f"Error while applying pattern: {err}", underlying_error=err)
        done |= rewriter.has_done_action
        if not worklist:
            return done
        op = worklist.pop()


XDSL_PROCESS_WORKLIST: Any = PatternRewriteWalker._process_worklist  # pyright: ignore[reportPrivateUsage]
"""xDSL's own worklist loop: the tests' reference."""


FOLDS: dict[type[Operation], bool] = {}
"""Per op class, whether a folding applier tries to fold its ops (a folder and
not a constant); `OpTraits.add_trait` clears it with the other trait caches."""


def folds(op: Operation) -> bool:
    """Whether a folding applier tries to fold `op`, as xDSL's asks per op."""
    cls = type(op)
    answer = FOLDS.get(cls)
    if answer is None:
        answer = FOLDS[cls] = op.has_trait(
            HasFolder, value_if_unregistered=False
        ) and not op.has_trait(ConstantLike, value_if_unregistered=True)
    return answer


def applier_match_and_rewrite(
    self: GreedyRewritePatternApplier, op: Operation, rewriter: PatternRewriter
) -> None:
    """`GreedyRewritePatternApplier.match_and_rewrite`, whether to fold
    decided once per op class instead of two trait questions per op (and
    without importing `is_trivially_dead` on each call)."""
    if self.dce_enabled and dead_code_elimination.is_trivially_dead(op):
        rewriter.erase(op)
        return
    if self.folding_enabled and folds(op):
        if self.ctx is None:
            raise ValueError("Context is required for folding")
        folded = Folder(self.ctx).try_fold(op)
        if folded is not None:
            folded_values, folded_ops = folded
            rewriter.replace(op, new_ops=folded_ops, new_results=folded_values)
            return
    for pattern in self.rewrite_patterns:
        pattern.match_and_rewrite(op, rewriter)
        if rewriter.has_done_action:
            return


XDSL_APPLIER_MATCH_AND_REWRITE: Any = GreedyRewritePatternApplier.match_and_rewrite
"""xDSL's own applier: the tests' reference."""


def block_walk(
    self: Block, *, reverse: bool = False, region_first: bool = False
) -> Iterator[Operation]:
    """`Block.walk`, yielding an op without regions itself instead of through
    a generator of its own `walk` (which yields just it)."""
    for op in reversed(self.ops) if reverse else self.ops:
        if op.regions:
            yield from op.walk(reverse=reverse, region_first=region_first)
        else:
            yield op


XDSL_BLOCK_WALK: Any = Block.walk
"""xDSL's own `Block.walk`: the tests' reference."""


_HINT_CONSTRAINTS: dict[object, AttrConstraint[Any]] = {}
"""The constraint of each generic attribute hint `isa` was asked about."""


def hint_constraint(irdl: Any, *args: Any, **kwargs: Any) -> Any:
    """`irdl_to_attr_constraint` as `isa` calls it (a hint, nothing else), kept
    per hint: `isa(shape, ArrayAttr[IntAttr])`, in every `MemRefType(...)`,
    built the same constraint anew each time (40 of a type's 64 us)."""
    if args or kwargs:
        return XDSL_IRDL_TO_ATTR_CONSTRAINT(irdl, *args, **kwargs)
    try:
        found = _HINT_CONSTRAINTS.get(irdl)
    except TypeError:  # an unhashable hint
        return XDSL_IRDL_TO_ATTR_CONSTRAINT(irdl)
    if found is None:
        found = _HINT_CONSTRAINTS[irdl] = XDSL_IRDL_TO_ATTR_CONSTRAINT(irdl)
    return found


XDSL_IRDL_TO_ATTR_CONSTRAINT: Any = irdl_package.irdl_to_attr_constraint
"""xDSL's own, which `isa` imports from `xdsl.irdl` on each call: the tests'
reference (xDSL's modules that import it at load keep it)."""
