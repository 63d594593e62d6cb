"""Liveness of memref buffers inside one block.

A buffer is a memref value that no other memref value is derived from: a block
argument, the result of an allocation or of `memref.get_global`. Values derived
from it (casts, views, subviews, ...) are its aliases, and using an alias uses
the buffer. Positions are indices of the block's top-level ops; a use inside a
nested region counts at the top-level op that holds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, UnrankedMemRefType
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.traits import IsTerminator

from xhip.dialects.memref import ReallocOp


def is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType | UnrankedMemRefType)


@dataclass
class BufferInfo:
    """Where a buffer is defined, used and freed in the block."""

    value: SSAValue
    def_index: int
    """Index of the defining op; -1 for block arguments and outer values."""
    uses: list[int] = field(default_factory=list[int])
    """Sorted indices of the top-level ops that use the buffer (deallocs excluded)."""
    deallocs: list[memref.DeallocOp] = field(default_factory=list[memref.DeallocOp])
    escapes: bool = False
    """True when the buffer leaves the block's control: returned, yielded, used
    outside the block, freed in a nested region, consumed by a realloc, or
    merged with another buffer."""

    @property
    def first_use(self) -> int | None:
        return self.uses[0] if self.uses else None

    @property
    def last_use(self) -> int | None:
        return self.uses[-1] if self.uses else None

    @property
    def alloc(self) -> memref.AllocOp | None:
        # A result's `op` read directly: the `owner` property is a call.
        value = self.value
        owner = value.op if type(value) is OpResult else value.owner
        return owner if isinstance(owner, memref.AllocOp) else None

    @property
    def is_local_alloc(self) -> bool:
        """A `memref.alloc` of the block whose memory nothing outside it sees."""
        return self.alloc is not None and not self.escapes

    @property
    def live_range(self) -> tuple[int, int]:
        """From the first use (or the alloc, if unused) to the last use."""
        if not self.uses:
            return (self.def_index, self.def_index)
        return (self.uses[0], self.uses[-1])


class BufferLiveness:
    """First and last uses of every buffer of a block, seen through aliases."""

    def __init__(self, block: Block):
        self.block = block
        self.index: dict[Operation, int] = {op: i for i, op in enumerate(block.ops)}
        self._root: dict[SSAValue, SSAValue] = {}
        self._merged: dict[SSAValue, SSAValue] = {}
        """Buffers merged into another by `merge`, to the buffer that took them."""
        self.buffers: dict[SSAValue, BufferInfo] = {}
        for arg in block.args:
            if is_memref(arg):
                self._add_root(arg, -1)
        for i, op in enumerate(block.ops):
            if op.regions:
                for inner in op.walk():
                    self._classify_results(inner, i)
            elif op.results:  # most ops of a late block: no walk, no results
                self._classify_results(op, i)
        for info in self.buffers.values():
            info.uses = sorted(set(info.uses))

    def _add_root(self, value: SSAValue, def_index: int) -> BufferInfo:
        info = BufferInfo(value, def_index)
        self.buffers[value] = info
        self._root[value] = value
        return info

    def root(self, value: SSAValue) -> SSAValue:
        """The buffer a memref value aliases (outer values are their own root)."""
        if value not in self._root:
            info = self._add_root(value, -1)
            self._record_uses(value, info)
            info.uses = sorted(set(info.uses))
        root = self._root[value]
        while root in self._merged:
            root = self._merged[root]
        return root

    def info(self, value: SSAValue) -> BufferInfo:
        return self.buffers[self.root(value)]

    def _classify_results(self, op: Operation, index: int) -> None:
        results = [r for r in op.results if is_memref(r)]
        if not results:
            return
        sources: set[SSAValue] = {self.root(o) for o in op.operands if is_memref(o)}
        if isinstance(op, ReallocOp) or len(sources) > 1:
            for source in sources:
                self.buffers[source].escapes = True
            sources = set()
        for result in results:
            if sources:
                self._root[result] = next(iter(sources))
            else:
                self._record_uses(result, self._add_root(result, index))

    def _record_uses(self, value: SSAValue, info: BufferInfo) -> None:
        """Record the uses of `value`; aliases defined later add theirs."""
        for use in value.uses:
            user = use.operation
            # Most users sit in the block itself: no walk up.
            top = user if user.parent is self.block else self.top_level(user)
            if top is None or user.has_trait(IsTerminator):
                info.escapes = True
            elif isinstance(user, memref.DeallocOp):
                if user is top:
                    info.deallocs.append(user)
                else:
                    info.escapes = True
            else:
                info.uses.append(self.index[top])
            if isinstance(user, ReallocOp):
                continue
            for result in user.results:
                if (
                    is_memref(result)
                    and self._root.setdefault(result, info.value) is info.value
                ):
                    self._record_uses(result, info)

    def top_level(self, op: Operation) -> Operation | None:
        """The ancestor of `op` that sits in this block, if any."""
        current: Operation | None = op
        while current is not None and current.parent_block() is not self.block:
            current = current.parent_op()
        return current

    def value_uses(self, value: SSAValue) -> list[int]:
        """Sorted indices of the ops that use `value` or a value derived from it,
        deallocs aside (a view's own uses, not its whole buffer's)."""
        found: set[int] = set()
        pending = [value]
        while pending:
            for use in pending.pop().uses:
                user = use.operation
                top = self.top_level(user)
                if top is None or isinstance(user, memref.DeallocOp):
                    continue
                found.add(self.index[top])
                if not isinstance(user, ReallocOp):
                    pending.extend(r for r in user.results if is_memref(r))
        return sorted(found)

    def allocs(self) -> list[BufferInfo]:
        """The buffers allocated by `memref.alloc` in the block, in program order."""
        return sorted(
            (
                info
                for info in self.buffers.values()
                if info.alloc is not None and info.alloc.parent_block() is self.block
            ),
            key=lambda info: info.def_index,
        )

    def merge(
        self, donor: BufferInfo, taken: BufferInfo, dealloc: memref.DeallocOp
    ) -> None:
        """Record that `taken`'s users now use `donor`, freed by `dealloc`.

        Updates the analysis in place of rebuilding it after a rewrite that
        replaces one buffer by another (`hip-optimize-memrefs`): the donor's uses
        become the union of both, and `taken`'s aliases now alias the donor.
        """
        if donor.uses and taken.uses and donor.uses[-1] >= taken.uses[0]:
            donor.uses = sorted(set(donor.uses + taken.uses))
        else:
            donor.uses.extend(taken.uses)
        donor.deallocs = [dealloc]
        donor.escapes = donor.escapes or taken.escapes
        self._merged[taken.value] = donor.value
        del self.buffers[taken.value]

    def is_dead_before(self, value: SSAValue, op: Operation) -> bool:
        """No use of the buffer at or after `op` (deallocs aside)."""
        info = self.info(value)
        position = self.index[op]
        if info.last_use is None:
            return info.def_index < position
        return info.last_use < position


__all__ = ["BufferInfo", "BufferLiveness", "is_memref"]
