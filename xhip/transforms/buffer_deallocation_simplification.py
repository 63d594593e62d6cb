"""`buffer-deallocation-simplification`: drop the deallocs aliasing proves useless.

MLIR's patterns, on an origin analysis that stays linear: a buffer's origin is
the root of its chain of views; two allocations are distinct, an allocation
never aliases a function argument, anything else may alias anything. Splitting
a dealloc asks, for every memref, whether any *other* memref may alias it; MLIR
compares all pairs, here one count per origin answers it. Dead `arith.ori`s
and constants left behind are for the next `canonicalize`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, auto

from xdsl.context import Context
from xdsl.dialects import arith, builtin, memref
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import CallableOpInterface

from xhip.dialects.bufferization import DeallocOp
from xhip.transforms.canonicalization_patterns.bufferization import (
    DEALLOC_CANONICALIZATION_PATTERNS,
    allocates,
    bool_constant,
    constant_bool,
    replace_dealloc,
    rewrite_deallocs,
    view_base,
)


class Origin(Enum):
    ALLOCATION = auto()
    FUNCTION_ARGUMENT = auto()
    UNKNOWN = auto()


class BufferOriginAnalysis:
    """Where buffers come from, and whether two may be the same allocation."""

    def __init__(self) -> None:
        self._kinds: dict[SSAValue, Origin] = {}

    def kind(self, base: SSAValue) -> Origin:
        if (known := self._kinds.get(base)) is not None:
            return known
        if isinstance(base, BlockArgument):
            parent = base.block.parent_op()
            is_entry = base.block.parent is not None and base.block is (
                base.block.parent.blocks.first
            )
            kind = (
                Origin.FUNCTION_ARGUMENT
                if parent is not None
                and parent.has_trait(CallableOpInterface)
                and is_entry
                else Origin.UNKNOWN
            )
        elif isinstance(base.owner, Operation) and allocates(base.owner):
            kind = Origin.ALLOCATION
        else:
            kind = Origin.UNKNOWN
        self._kinds[base] = kind
        return kind

    def is_same_allocation(self, a: SSAValue, b: SSAValue) -> bool | None:
        """True or False when known, None when they may or may not alias."""
        base_a, base_b = view_base(a), view_base(b)
        if base_a is base_b:
            return True
        kinds = {self.kind(base_a), self.kind(base_b)}
        if kinds == {Origin.ALLOCATION} or kinds == {
            Origin.ALLOCATION,
            Origin.FUNCTION_ARGUMENT,
        }:
            return False
        if Origin.ALLOCATION in kinds and _is_enclosing_block_argument(base_a, base_b):
            return False
        return None

    def may_alias_any(self, others: Sequence[SSAValue], value: SSAValue) -> bool:
        return any(self.is_same_allocation(o, value) is not False for o in others)


def _replace_uses_except(value: SSAValue, user: Operation) -> None:
    """Make every use of `value` but `user`'s use `user`'s result."""
    value.replace_uses_with_if(user.results[0], lambda use: use.operation is not user)


def _is_enclosing_block_argument(a: SSAValue, b: SSAValue) -> bool:
    """An allocation is distinct from the arguments of blocks enclosing it."""
    for alloc, arg in ((a, b), (b, a)):
        if isinstance(alloc.owner, Operation) and isinstance(arg, BlockArgument):
            if _encloses(arg.block, alloc.owner):
                return True
    return False


def _encloses(block: Block, op: Operation) -> bool:
    current: Operation | None = op
    while current is not None:
        if current.parent is block:
            return True
        current = current.parent_op()
    return False


@dataclass
class _DeallocPattern(RewritePattern):
    analysis: BufferOriginAnalysis


class RemoveDeallocMemrefsContainedInRetained(_DeallocPattern):
    """A memref that must alias a retained one (and may alias no other) stays."""

    def _drop(
        self, op: DeallocOp, value: SSAValue, cond: SSAValue, rewriter: PatternRewriter
    ) -> bool:
        same = [self.analysis.is_same_allocation(r, value) for r in op.retained]
        if None in same or True not in same:
            return False
        for result, is_same in zip(op.updated_conditions, same, strict=True):
            if is_same:
                disjunction = arith.OrIOp(result, cond)
                rewriter.insert(disjunction, InsertPoint.after(op))
                _replace_uses_except(result, disjunction)
        return True

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocOp, rewriter: PatternRewriter) -> None:
        if not op.retained or len(set(op.retained)) != len(op.retained):
            return
        memrefs: list[SSAValue] = []
        conditions: list[SSAValue] = []
        for value, cond in zip(op.memrefs, op.conditions, strict=True):
            if self._drop(op, value, cond, rewriter):
                continue
            source = value.owner
            if (
                isinstance(source, memref.ExtractStridedMetaDataOp)
                and value is source.base_buffer
                and self._drop(op, source.source, cond, rewriter)
            ):
                continue
            memrefs.append(value)
            conditions.append(cond)
        if len(memrefs) != len(op.memrefs):
            replace_dealloc(rewriter, op, memrefs, conditions)


class RemoveRetainedMemrefsGuaranteedToNotAlias(_DeallocPattern):
    """A retained memref that aliases nothing freed here gets `false`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocOp, rewriter: PatternRewriter) -> None:
        kept = [r for r in op.retained if self.analysis.may_alias_any(op.memrefs, r)]
        if len(kept) == len(op.retained):
            return
        new_op = DeallocOp(op.memrefs, op.conditions, kept)
        false = bool_constant(False)
        results = iter(new_op.updated_conditions)
        replacements = [
            next(results) if r in kept else false.result for r in op.retained
        ]
        rewriter.replace(op, [false, new_op], replacements)


class SplitDeallocWhenNotAliasingAnyOther(_DeallocPattern):
    """Free apart each memref that aliases no other memref of the dealloc."""

    def _may_alias_other(
        self,
        value: SSAValue,
        bases: Counter[SSAValue],
        kinds: Counter[Origin],
    ) -> bool:
        base = view_base(value)
        kind = self.analysis.kind(base)
        if kind is Origin.UNKNOWN:
            return True
        if kinds[Origin.UNKNOWN]:
            return True
        if kind is Origin.ALLOCATION:
            return bases[base] > 1
        # A function argument may alias the other arguments, not allocations.
        return kinds[Origin.FUNCTION_ARGUMENT] > 1

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocOp, rewriter: PatternRewriter) -> None:
        if len(op.memrefs) <= 1:
            return
        bases = Counter(view_base(m) for m in op.memrefs)
        kinds = Counter(self.analysis.kind(b) for b in bases.elements())
        split: list[DeallocOp] = []
        memrefs: list[SSAValue] = []
        conditions: list[SSAValue] = []
        for value, cond in zip(op.memrefs, op.conditions, strict=True):
            if self._may_alias_other(value, bases, kinds):
                memrefs.append(value)
                conditions.append(cond)
            else:
                split.append(DeallocOp([value], [cond], op.retained))
        if not split:
            return
        rest = DeallocOp(memrefs, conditions, op.retained)
        new_ops: list[Operation] = [*split, rest]
        replacements: list[SSAValue] = list(rest.updated_conditions)
        for other in split:
            for i, result in enumerate(other.updated_conditions):
                disjunction = arith.OrIOp(replacements[i], result)
                new_ops.append(disjunction)
                replacements[i] = disjunction.result
        rewriter.replace(op, new_ops, replacements)


class RetainedMemrefAliasingAlwaysDeallocatedMemref(_DeallocPattern):
    """A retained memref that must alias a memref freed under `true` is owned."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocOp, rewriter: PatternRewriter) -> None:
        if not op.retained:
            return
        covered = [False] * len(op.retained)
        memrefs: list[SSAValue] = []
        conditions: list[SSAValue] = []
        for value, cond in zip(op.memrefs, op.conditions, strict=True):
            droppable = False
            if constant_bool(cond) is True:
                for i, (retained, result) in enumerate(
                    zip(op.retained, op.updated_conditions, strict=True)
                ):
                    if self.analysis.is_same_allocation(retained, value) is True:
                        result.replace_all_uses_with(cond)
                        covered[i] = droppable = True
            if not droppable:
                memrefs.append(value)
                conditions.append(cond)
        if all(covered) and len(memrefs) != len(op.memrefs):
            replace_dealloc(rewriter, op, memrefs, conditions)


@dataclass(frozen=True)
class BufferDeallocationSimplificationPass(ModulePass):
    """Simplify `bufferization.dealloc`s with a static origin analysis."""

    name = "buffer-deallocation-simplification"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        analysis = BufferOriginAnalysis()
        patterns: list[RewritePattern] = [
            RemoveDeallocMemrefsContainedInRetained(analysis),
            RemoveRetainedMemrefsGuaranteedToNotAlias(analysis),
            SplitDeallocWhenNotAliasingAnyOther(analysis),
            RetainedMemrefAliasingAlwaysDeallocatedMemref(analysis),
            *DEALLOC_CANONICALIZATION_PATTERNS,
        ]
        rewrite_deallocs(op, patterns)
