"""Canonicalizations of `bufferization.dealloc`, as MLIR has them.

Also home of the small buffer facts the deallocation passes share: what
allocates, and which view-like ops a buffer can be seen through.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, memref
from xdsl.dialects import bufferization as xbufferization
from xdsl.dialects.builtin import IntegerAttr, IntegerType, i1
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import MemoryEffectKind

from xhip.analysis.liveness import is_memref
from xhip.dialects.bufferization import DeallocOp
from xhip.transforms.xdsl_patches import has_effect_kind

VIEW_LIKE_OPS = (
    memref.CastOp,
    memref.SubviewOp,
    memref.ViewOp,
    memref.ReinterpretCastOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.MemorySpaceCastOp,
)


def allocates(op: Operation) -> bool:
    """Whether `op` returns a fresh heap buffer that someone must free.

    `memref.alloca` is freed with its scope and `memref.global` returns no buffer.
    """
    if isinstance(op, xbufferization.CloneOp):
        return True
    if isinstance(op, memref.AllocaOp | memref.GlobalOp):
        return False
    if not has_effect_kind(op, MemoryEffectKind.ALLOC):
        return False
    for result in op.results:  # not `any`: asked of every op, most say no
        if is_memref(result):
            return True
    return False


def frees(op: Operation) -> bool:
    return has_effect_kind(op, MemoryEffectKind.FREE)


def _only_used_by(value: SSAValue, op: Operation) -> bool:
    """Whether every use of `value` is by `op`: the uses' links followed, not
    `all` of a generator over `value.uses`, which closing early costs a
    `GeneratorExit` in each of the two generators."""
    use = value.first_use
    while use is not None:
        if use.operation is not op:
            return False
        use = use._next_use  # pyright: ignore[reportPrivateUsage]
    return True


def view_source(value: SSAValue) -> SSAValue | None:
    """The buffer `value` is a view of, if it is one."""
    owner = value.owner
    if isinstance(owner, VIEW_LIKE_OPS):
        return owner.operands[0]
    if (
        isinstance(owner, memref.ExtractStridedMetaDataOp)
        and value is owner.base_buffer
    ):
        return owner.source
    return None


def view_base(value: SSAValue) -> SSAValue:
    """The buffer at the root of a chain of views."""
    while (source := view_source(value)) is not None:
        value = source
    return value


def constant_bool(value: SSAValue) -> bool | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data != 0
    return None


_BOOL_ATTRS: dict[bool, IntegerAttr[IntegerType]] = {}
"""`true` and `false`, built once: xDSL checks an `IntegerAttr`'s value as it is made."""


def bool_constant(value: bool) -> arith.ConstantOp:
    attr = _BOOL_ATTRS.get(value)
    if attr is None:
        attr = _BOOL_ATTRS[value] = IntegerAttr(int(value), i1)
    # `arith.ConstantOp(attr)` without the builder's generic argument handling:
    # the deallocation passes make one per allocation.
    constant = arith.ConstantOp.create(
        result_types=[attr.type], properties={"value": attr}
    )
    constant.result.name_hint = "true" if value else "false"
    return constant


def replace_dealloc(
    rewriter: PatternRewriter,
    op: DeallocOp,
    memrefs: Sequence[SSAValue],
    conditions: Sequence[SSAValue],
) -> None:
    """Replace `op` by one with the same retained values and other memrefs."""
    rewriter.replace(op, DeallocOp(memrefs, conditions, op.retained))


def rewrite_deallocs(root: Operation, patterns: Sequence[RewritePattern]) -> None:
    """Apply `patterns` to the `bufferization.dealloc`s under `root` until none applies.

    Visiting only the deallocs, not every op as xDSL's walker does, keeps the
    deallocation passes fast on large functions.
    """
    worklist = [op for op in root.walk() if isinstance(op, DeallocOp)]
    worklist.reverse()

    def on_insert(new: Operation) -> None:
        if isinstance(new, DeallocOp):
            worklist.append(new)

    rewriter: PatternRewriter | None = None
    while worklist:
        op = worklist.pop()
        if op.parent is None:
            continue
        # One rewriter, reset before each try as xDSL's walker resets its own
        # (a new one per try was a fifth of `buffer-deallocation-simplification`).
        if rewriter is None:
            rewriter = PatternRewriter(op)
            rewriter.operation_insertion_handler.append(on_insert)
        # Reset once per op, not per pattern: a pattern that does nothing
        # leaves the rewriter as it found it (these patterns only change it
        # through its rewriting methods, which all count as acting).
        rewriter.has_done_action = False
        rewriter._current_operation = op  # pyright: ignore[reportPrivateUsage]
        rewriter.insertion_point = InsertPoint.before(op)
        rewriter.name_hint = None
        for pattern in patterns:
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                # A method call, not `op.parent`: the rewrite may have erased `op`,
                # which the narrowing of `op.parent` above cannot know.
                if op.parent_block() is not None:
                    worklist.append(op)
                break


class SkipExtractMetadataOfAlloc(RewritePattern):
    """Free an allocation itself, not the base buffer extracted from it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocOp, rewriter: PatternRewriter) -> None:
        memrefs = list(op.memrefs)
        changed = False
        for i, value in enumerate(memrefs):
            owner = value.owner
            if (
                isinstance(owner, memref.ExtractStridedMetaDataOp)
                and value is owner.base_buffer
                and isinstance(owner.source.owner, Operation)
                and allocates(owner.source.owner)
            ):
                memrefs[i] = owner.source
                changed = True
        if changed:
            replace_dealloc(rewriter, op, memrefs, op.conditions)


class DeallocRemoveFalseConditions(RewritePattern):
    """A memref whose condition is `false` is never freed: drop it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocOp, rewriter: PatternRewriter) -> None:
        kept = [
            (m, c)
            for m, c in zip(op.memrefs, op.conditions, strict=True)
            if constant_bool(c) is not False
        ]
        if len(kept) != len(op.memrefs):
            replace_dealloc(rewriter, op, [m for m, _ in kept], [c for _, c in kept])


class DeallocRemoveDuplicateMemrefs(RewritePattern):
    """Free a memref listed twice once, under the disjunction of its conditions."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocOp, rewriter: PatternRewriter) -> None:
        position: dict[SSAValue, int] = {}
        memrefs: list[SSAValue] = []
        conditions: list[SSAValue] = []
        for value, cond in zip(op.memrefs, op.conditions, strict=True):
            if value not in position:
                position[value] = len(memrefs)
                memrefs.append(value)
                conditions.append(cond)
                continue
            i = position[value]
            if conditions[i] is not cond:
                disjunction = arith.OrIOp(conditions[i], cond)
                rewriter.insert(disjunction)
                conditions[i] = disjunction.result
        if len(memrefs) != len(op.memrefs):
            replace_dealloc(rewriter, op, memrefs, conditions)


class DeallocRemoveDuplicateRetainedMemrefs(RewritePattern):
    """Retain a memref listed twice once; both results are the same."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocOp, rewriter: PatternRewriter) -> None:
        position: dict[SSAValue, int] = {}
        for value in op.retained:
            position.setdefault(value, len(position))
        if len(position) == len(op.retained):
            return
        new_op = DeallocOp(op.memrefs, op.conditions, list(position))
        rewriter.replace(
            op,
            new_op,
            [new_op.updated_conditions[position[v]] for v in op.retained],
        )


class EraseEmptyDealloc(RewritePattern):
    """A dealloc that frees nothing hands no ownership on: every result is false."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocOp, rewriter: PatternRewriter) -> None:
        if op.memrefs:
            return
        if not op.retained:
            rewriter.erase(op)
            return
        false = bool_constant(False)
        rewriter.replace(op, false, [false.result] * len(op.retained))


class RemoveAllocDeallocPairWhenNoOtherUsers(RewritePattern):
    """An allocation used by nothing but its dealloc need not exist."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocOp, rewriter: PatternRewriter) -> None:
        memrefs: list[SSAValue] = []
        conditions: list[SSAValue] = []
        dead: list[Operation] = []
        for value, cond in zip(op.memrefs, op.conditions, strict=True):
            owner = value.owner
            if (
                isinstance(owner, Operation)
                and owner.parent is op.parent
                and allocates(owner)
                and len(owner.results) == 1
                and _only_used_by(value, op)
                and value not in op.retained
            ):
                dead.append(owner)
                continue
            memrefs.append(value)
            conditions.append(cond)
        if not dead:
            return
        replace_dealloc(rewriter, op, memrefs, conditions)
        for owner in dead:
            rewriter.erase(owner)


DEALLOC_CANONICALIZATION_PATTERNS: tuple[RewritePattern, ...] = (
    SkipExtractMetadataOfAlloc(),
    DeallocRemoveFalseConditions(),
    DeallocRemoveDuplicateMemrefs(),
    DeallocRemoveDuplicateRetainedMemrefs(),
    EraseEmptyDealloc(),
    RemoveAllocDeallocPairWhenNoOtherUsers(),
)
