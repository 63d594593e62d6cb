"""`hip-optimize-memrefs`: let an op's output buffer take a dead buffer.

When a hip op writes a fresh `memref.alloc` and another alloc of the same type
and the same size operands is no longer used, the op writes into that one
instead: the fresh alloc and its dealloc go, and the reused buffer keeps the
later of the two deallocs. A buffer is only taken when its last use is before
the op, so no op ever reads and writes the same buffer.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func, memref
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from xhip.analysis.liveness import BufferInfo, BufferLiveness
from xhip.dialects.hip import HipDPSOp


def _alignment(alloc: memref.AllocOp) -> int:
    return 0 if alloc.alignment is None else alloc.alignment.value.data


def _reusable(info: BufferInfo) -> bool:
    """A local alloc with one dealloc, so moving its lifetime end is safe."""
    return info.is_local_alloc and len(info.deallocs) == 1


def _same_buffer_shape(donor: memref.AllocOp, fresh: memref.AllocOp) -> bool:
    return (
        donor.memref.type == fresh.memref.type
        and tuple(donor.dynamic_sizes) == tuple(fresh.dynamic_sizes)
        and tuple(donor.symbol_operands) == tuple(fresh.symbol_operands)
        and _alignment(donor) >= _alignment(fresh)
    )


class BufferReuse:
    """Finds, for a fresh output buffer of an op, a dead buffer to take over."""

    def __init__(self, block: Block):
        self.liveness = BufferLiveness(block)

    def fresh_outputs(self, op: HipDPSOp) -> list[BufferInfo]:
        """Outputs of `op` that are allocs first used (written) by `op`."""
        position = self.liveness.index[op]
        inputs = {self.liveness.root(v) for v in op.inputs}
        fresh: list[BufferInfo] = []
        for value in op.outputs:
            info = self.liveness.info(value)
            if (
                value is info.value
                and _reusable(info)
                and info.first_use == position
                and info.value not in inputs
            ):
                fresh.append(info)
        return fresh

    def donor_for(self, op: HipDPSOp, fresh: BufferInfo) -> BufferInfo | None:
        """The dead buffer that died last among those that fit `fresh`."""
        assert fresh.alloc is not None
        candidates = [
            info
            for info in self.liveness.allocs()
            if info is not fresh
            and _reusable(info)
            and self.liveness.is_dead_before(info.value, op)
            and _same_buffer_shape(info.alloc, fresh.alloc)  # pyright: ignore
        ]
        return max(candidates, key=lambda i: i.live_range[1], default=None)


def _merge(donor: BufferInfo, fresh: BufferInfo, liveness: BufferLiveness) -> None:
    """Make `fresh`'s users use `donor`.

    The donor's dealloc stays where it is if that is after `fresh`'s last use;
    otherwise `fresh`'s dealloc frees the donor instead.
    """
    assert fresh.alloc is not None and fresh.last_use is not None
    donor_dealloc, fresh_dealloc = donor.deallocs[0], fresh.deallocs[0]
    if liveness.index[donor_dealloc] > fresh.last_use:
        Rewriter.erase_op(fresh_dealloc)
    else:
        Rewriter.erase_op(donor_dealloc)
    fresh.value.replace_all_uses_with(donor.value)
    Rewriter.erase_op(fresh.alloc)


def reuse_one_buffer(block: Block) -> bool:
    """Apply the first possible reuse in `block`; False if there is none."""
    reuse = BufferReuse(block)
    for op in block.ops:
        if not isinstance(op, HipDPSOp) or op.is_tensor_mode:
            continue
        for fresh in reuse.fresh_outputs(op):
            donor = reuse.donor_for(op, fresh)
            if donor is not None:
                _merge(donor, fresh, reuse.liveness)
                return True
    return False


def optimize_function(function: func.FuncOp) -> None:
    for block in function.body.blocks:
        while reuse_one_buffer(block):
            pass


@dataclass(frozen=True)
class HipOptimizeMemrefsPass(ModulePass):
    """Reuse dead output buffers of hip ops (liveness-based)."""

    name = "hip-optimize-memrefs"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        functions: list[Operation] = [
            f for f in op.walk() if isinstance(f, func.FuncOp)
        ]
        for function in functions:
            assert isinstance(function, func.FuncOp)
            optimize_function(function)
