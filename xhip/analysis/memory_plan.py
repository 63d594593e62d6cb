"""Memory plans: where each buffer of a function lives inside one pool.

The planner sees buffers as (symbolic byte size, live range) and asks a
`PackingStrategy` for symbolic offsets. Strategies only do arithmetic on
`Poly`s, so a new packing is a new class in `STRATEGIES`, not a new pass.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FixedBitwidthType,
    IndexType,
    MemRefType,
    NoneAttr,
)
from xdsl.ir import Attribute, SSAValue

from xhip.analysis.size_expr import AtomTable, Poly


def element_bytes(element_type: Attribute) -> int | None:
    """Bytes one element takes in memory; None for types we cannot size."""
    if isinstance(element_type, IndexType):
        return 8
    if isinstance(element_type, FixedBitwidthType):
        return element_type.size
    return None


def byte_size(
    mtype: MemRefType, dynamic_sizes: Sequence[SSAValue], table: AtomTable
) -> Poly | None:
    """The bytes of a contiguous buffer of `mtype` with these dynamic dims."""
    elt = element_bytes(mtype.get_element_type())
    if elt is None:
        return None
    shape = mtype.get_shape()
    static = math.prod(d for d in shape if d != DYNAMIC_INDEX)
    size = Poly.const(static * elt)
    for value in dynamic_sizes:
        size = size * table.value(value)
    return size


def has_identity_layout(mtype: MemRefType) -> bool:
    return isinstance(mtype.layout, NoneAttr) and isinstance(
        mtype.memory_space, NoneAttr
    )


@dataclass(frozen=True)
class PoolBuffer:
    """A buffer to place: its value, byte size, and live range in op indices."""

    value: SSAValue
    size: Poly
    live_range: tuple[int, int]

    def overlaps_in_time(self, other: PoolBuffer) -> bool:
        (a0, a1), (b0, b1) = self.live_range, other.live_range
        return a0 <= b1 and b0 <= a1


@dataclass(frozen=True)
class MemoryPlan:
    """Offsets of the buffers in the pool (in the buffers' order), pool size."""

    buffers: tuple[PoolBuffer, ...]
    offsets: tuple[Poly, ...]
    size: Poly

    def static_offsets(self) -> list[int]:
        """Each offset if it is a constant, else -1 (`hipdnn.buffer_offsets`)."""
        return [-1 if o.constant is None else o.constant for o in self.offsets]


class PackingStrategy(ABC):
    """Chooses offsets; `slot_sizes` are the buffer sizes rounded to the alignment."""

    name: ClassVar[str]

    @abstractmethod
    def pack(
        self, buffers: Sequence[PoolBuffer], slot_sizes: Sequence[Poly]
    ) -> tuple[list[Poly], Poly]:
        """Offsets (one per buffer) and the pool size."""


class BumpStrategy(PackingStrategy):
    """Each buffer gets its own slot, in program order (the seed's plan)."""

    name = "bump"

    def pack(
        self, buffers: Sequence[PoolBuffer], slot_sizes: Sequence[Poly]
    ) -> tuple[list[Poly], Poly]:
        offsets: list[Poly] = []
        end = Poly.const(0)
        for size in slot_sizes:
            offsets.append(end)
            end = end + size
        return offsets, end


@dataclass
class _Slot:
    size: Poly
    busy_until: int
    members: list[int] = field(default_factory=list[int])


class ReuseStrategy(PackingStrategy):
    """Buffers whose lifetimes are disjoint share a slot.

    Buffers are placed in order of first use. A slot is free for a buffer when
    all its members died before the buffer's first use; the buffer takes a free
    slot of provably equal size, else one provably larger, else one provably
    smaller, which grows to the buffer's size. Sizes that cannot be compared
    symbolically (say `b*s*256` and `b*s*s*4`) never share.
    """

    name = "reuse"

    def pack(
        self, buffers: Sequence[PoolBuffer], slot_sizes: Sequence[Poly]
    ) -> tuple[list[Poly], Poly]:
        slots: list[_Slot] = []
        slot_of: dict[int, _Slot] = {}
        order = sorted(range(len(buffers)), key=lambda i: buffers[i].live_range)
        for i in order:
            start, end = buffers[i].live_range
            size = slot_sizes[i]
            free = [s for s in slots if s.busy_until < start]
            slot = (
                next((s for s in free if s.size == size), None)
                or next((s for s in free if s.size.provably_geq(size)), None)
                or next((s for s in free if size.provably_geq(s.size)), None)
            )
            if slot is None:
                slot = _Slot(size, end)
                slots.append(slot)
            slot.size = size if size.provably_geq(slot.size) else slot.size
            slot.busy_until = max(slot.busy_until, end)
            slot.members.append(i)
            slot_of[i] = slot
        offset_of: dict[int, Poly] = {}
        end_of_pool = Poly.const(0)
        for slot in slots:
            offset_of[id(slot)] = end_of_pool
            end_of_pool = end_of_pool + slot.size
        return [offset_of[id(slot_of[i])] for i in range(len(buffers))], end_of_pool


STRATEGIES: dict[str, PackingStrategy] = {
    s.name: s for s in (BumpStrategy(), ReuseStrategy())
}


def plan_memory(
    buffers: Sequence[PoolBuffer],
    table: AtomTable,
    strategy: PackingStrategy,
    alignment: int,
) -> MemoryPlan:
    """Place `buffers` in one pool; every offset is a multiple of `alignment`."""
    slot_sizes = [table.align_up(b.size, alignment) for b in buffers]
    offsets, size = strategy.pack(buffers, slot_sizes)
    return MemoryPlan(tuple(buffers), tuple(offsets), size)


__all__ = [
    "STRATEGIES",
    "BumpStrategy",
    "MemoryPlan",
    "PackingStrategy",
    "PoolBuffer",
    "ReuseStrategy",
    "byte_size",
    "element_bytes",
    "has_identity_layout",
    "plan_memory",
]
