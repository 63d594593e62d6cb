"""`hip-optimize-memrefs`: let an op's output buffer take a dead buffer.

When a hip op writes a fresh `memref.alloc` and another alloc of the same type
and the same size operands is no longer used, the op writes into that one
instead: the fresh alloc and its dealloc go, and the reused buffer keeps the
later of the two deallocs. A buffer is only taken when its last use is before
the op, so no op ever reads and writes the same buffer.

One forward walk per block, in linear time: the liveness is computed once and
updated at each reuse, and dead buffers wait in free lists keyed by type and
size operands, entering them once the walk has passed their last use.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func, memref
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from xhip.analysis.liveness import BufferInfo, BufferLiveness
from xhip.dialects.hip import HipDPSOp

_ShapeKey = tuple[Attribute, tuple[SSAValue, ...], tuple[SSAValue, ...]]
"""What two buffers must share to be interchangeable, alignment aside."""


def _alignment(alloc: memref.AllocOp) -> int:
    return 0 if alloc.alignment is None else alloc.alignment.value.data


def _shape_key(alloc: memref.AllocOp) -> _ShapeKey:
    return (
        alloc.memref.type,
        tuple(alloc.dynamic_sizes),
        tuple(alloc.symbol_operands),
    )


def _reusable(info: BufferInfo) -> bool:
    """A local alloc with one dealloc, so moving its lifetime end is safe."""
    return info.is_local_alloc and len(info.deallocs) == 1


def _alloc(info: BufferInfo) -> memref.AllocOp:
    assert info.alloc is not None
    return info.alloc


class BufferReuse:
    """The state of the forward walk over one block.

    A reusable buffer is *dead* before every op after its last use (or after
    its alloc, if unused). Dead buffers sit in `free`, in the order they died;
    `dying` holds the others by the position after which they are dead. Taking
    a buffer makes it live again until the taker's last use.
    """

    def __init__(self, block: Block):
        self.liveness = BufferLiveness(block)
        self.free: defaultdict[int, list[BufferInfo]] = defaultdict(list)
        """Dead buffers by the number `shape_id` gives their shape key."""
        self._shape_ids: dict[_ShapeKey, int] = {}
        self._alloc_shape: dict[int, tuple[memref.AllocOp, int]] = {}
        """By `id` (an op's `__hash__` is a Python call), the op kept alive."""
        self.dying: defaultdict[int, list[BufferInfo]] = defaultdict(list)
        for info in self.liveness.allocs():
            if _reusable(info):
                self.dying[info.live_range[1]].append(info)

    def shape_id(self, alloc: memref.AllocOp) -> int:
        """A number per distinct `_shape_key`, kept per alloc: the key hashes
        the memref type attribute by attribute, and every alloc is asked
        for it as it is written and again as it dies."""
        entry = self._alloc_shape.get(id(alloc))
        if entry is not None and entry[0] is alloc:
            return entry[1]
        found = self._shape_ids.setdefault(_shape_key(alloc), len(self._shape_ids))
        self._alloc_shape[id(alloc)] = (alloc, found)
        return found

    def release(self, position: int) -> None:
        """Free the buffers whose last use is at `position`."""
        dead = [
            info
            for info in self.dying.pop(position, ())
            if self.liveness.buffers.get(info.value) is info
        ]
        # Of buffers that died together, the first allocated is taken first.
        for info in sorted(dead, key=lambda i: i.def_index, reverse=True):
            self.free[self.shape_id(_alloc(info))].append(info)

    def fresh_output(
        self, value: SSAValue, position: int, inputs: set[SSAValue]
    ) -> BufferInfo | None:
        """The buffer of `value` if it is an alloc first used (written) here."""
        info = self.liveness.info(value)
        if (
            value is info.value
            and _reusable(info)
            and info.first_use == position
            and info.value not in inputs
        ):
            return info
        return None

    def take_donor(self, fresh: BufferInfo) -> BufferInfo | None:
        """Remove from the free lists the dead buffer that died last and fits."""
        alloc = _alloc(fresh)
        candidates = self.free.get(self.shape_id(alloc), [])
        for i in range(len(candidates) - 1, -1, -1):
            if _alignment(_alloc(candidates[i])) >= _alignment(alloc):
                return candidates.pop(i)
        return None

    def merge(self, donor: BufferInfo, fresh: BufferInfo) -> None:
        """Make `fresh`'s users use `donor`; it is dead again after their last use.

        The donor's dealloc stays where it is if that is after `fresh`'s last
        use; otherwise `fresh`'s dealloc frees the donor instead.
        """
        assert fresh.last_use is not None
        donor_dealloc, fresh_dealloc = donor.deallocs[0], fresh.deallocs[0]
        if self.liveness.index[donor_dealloc] > fresh.last_use:
            kept, erased = donor_dealloc, fresh_dealloc
        else:
            kept, erased = fresh_dealloc, donor_dealloc
        Rewriter.erase_op(erased)
        fresh.value.replace_all_uses_with(donor.value)
        Rewriter.erase_op(_alloc(fresh))
        self.liveness.merge(donor, fresh, kept)
        self.dying[donor.live_range[1]].append(donor)

    def reuse_for(self, value: SSAValue, position: int, inputs: set[SSAValue]) -> bool:
        """Give `value` a dead buffer if it is fresh and one fits."""
        fresh = self.fresh_output(value, position, inputs)
        donor = None if fresh is None else self.take_donor(fresh)
        if fresh is None or donor is None:
            return False
        self.merge(donor, fresh)
        return True

    def visit(self, op: HipDPSOp) -> None:
        """Give each fresh output of `op` a dead buffer, if one fits."""
        position = self.liveness.index[op]
        inputs = {self.liveness.root(v) for v in op.inputs}
        for k in range(len(op.outputs)):
            # A donor that was never used is fresh here in turn: it may take another.
            while self.reuse_for(op.outputs[k], position, inputs):
                pass


def optimize_block(block: Block) -> None:
    """Reuse dead buffers for the hip ops of `block`, in program order."""
    reuse = BufferReuse(block)
    for position, op in enumerate(list(block.ops)):
        reuse.release(position - 1)
        if isinstance(op, HipDPSOp) and not op.is_tensor_mode:
            reuse.visit(op)


def optimize_function(function: func.FuncOp) -> None:
    for block in function.body.blocks:
        optimize_block(block)


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
