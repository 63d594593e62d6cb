"""`bufferization-lower-deallocations`: `bufferization.dealloc` to `memref.dealloc`.

As MLIR lowers them: a dealloc of one memref becomes `scf.if %cond` around a
`memref.dealloc` (canonicalize removes the `scf.if` when the condition is
constant); with retained memrefs, it also compares base pointers so that a buffer
still in use is not freed. A dealloc of several memrefs that may alias needs
MLIR's run-time helper function, which this pass does not generate: it fails
with a clear message instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin, memref, scf
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from xhip.dialects.bufferization import DeallocOp
from xhip.transforms.canonicalization_patterns.bufferization import (
    bool_constant,
    rewrite_deallocs,
)


def _dealloc_if(cond: SSAValue, value: SSAValue) -> scf.IfOp:
    """`scf.IfOp(cond, [], Region(Block([DeallocOp.get(value), YieldOp()])))`
    built with `create`: the builders' generic argument handling was most of
    the pass (three ops per dealloc, 800 deallocs at 100 attention layers)."""
    body = Block([memref.DeallocOp.create(operands=[value]), scf.YieldOp.create()])
    return scf.IfOp.create(operands=[cond], regions=[Region(body), Region()])


def _aligned_pointer(value: SSAValue) -> memref.ExtractAlignedPointerAsIndexOp:
    pointer = memref.ExtractAlignedPointerAsIndexOp.get(value)
    pointer.aligned_pointer.name_hint = "intptr"
    return pointer


class LowerDeallocOp(RewritePattern):
    """Lower the `bufferization.dealloc` cases that need no helper function."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeallocOp, rewriter: PatternRewriter) -> None:
        memrefs, retained = op.memrefs, op.retained
        if not memrefs:
            false = bool_constant(False)
            rewriter.replace(op, false, [false.result] * len(retained))
            return
        if len(memrefs) > 1:
            raise PassFailedException(
                "bufferization-lower-deallocations: 'bufferization.dealloc' of "
                f"{len(memrefs)} memrefs that may alias each other needs a run-time "
                "helper function, which is not supported"
            )
        value, cond = memrefs[0], op.conditions[0]
        if not retained:
            rewriter.replace(op, _dealloc_if(cond, value), [])
            return
        self.lower_with_retained(op, value, cond, rewriter)

    @staticmethod
    def lower_with_retained(
        op: DeallocOp, value: SSAValue, cond: SSAValue, rewriter: PatternRewriter
    ) -> None:
        """Free `value` unless it is one of the retained buffers."""
        new_ops: list[Operation] = []
        pointer = _aligned_pointer(value)
        new_ops.append(pointer)
        distinct: list[SSAValue] = []
        all_distinct: SSAValue | None = None
        for retained in op.retained:
            other = _aligned_pointer(retained)
            ne = arith.CmpiOp(pointer, other, "ne")
            new_ops += [other, ne]
            distinct.append(ne.result)
            if all_distinct is None:
                all_distinct = ne.result
            else:
                conjunction = arith.AndIOp(all_distinct, ne)
                new_ops.append(conjunction)
                all_distinct = conjunction.result
        assert all_distinct is not None
        should_free = arith.AndIOp(all_distinct, cond)
        true = bool_constant(True)
        new_ops += [should_free, _dealloc_if(should_free.result, value), true]
        results: list[SSAValue] = []
        for ne in distinct:
            same = arith.XOrIOp(ne, true)
            owned = arith.AndIOp(same, cond)
            new_ops += [same, owned]
            results.append(owned.result)
        rewriter.replace(op, new_ops, results)


@dataclass(frozen=True)
class BufferizationLowerDeallocationsPass(ModulePass):
    """Lower `bufferization.dealloc` to `memref.dealloc` under `scf.if`."""

    name = "bufferization-lower-deallocations"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        rewrite_deallocs(op, [LowerDeallocOp()])
