"""Pool plans near the lower bound: the peak of live bytes.

The seed's plan gives every buffer its own slot. Here buffers are placed by
size and lifetime: `greedy_by_size` places concrete sizes, each buffer in the
smallest gap left by the buffers it is live with (larger buffers first), and
`orient` turns that placement into symbolic offsets that are sound for every
value of the dims: each buffer sits on top of every buffer it is live with and
was placed below, an offset being the max of their ends. At the dims the
placement was made for, those offsets are never above the concrete ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xhip.analysis.size_expr import Monomial, Poly

Range = tuple[int, int]
"""First and last use (op indices, inclusive)."""


def align(size: int, alignment: int) -> int:
    return -(-size // alignment) * alignment


def peak_live_bytes(sizes: Sequence[int], ranges: Sequence[Range]) -> int:
    """The most bytes live at one op: no pool can be smaller."""
    events: dict[int, int] = {}
    for size, (first, last) in zip(sizes, ranges):
        events[first] = events.get(first, 0) + size
        events[last + 1] = events.get(last + 1, 0) - size
    peak = live = 0
    for position in sorted(events):
        live += events[position]
        peak = max(peak, live)
    return peak


def conflicts(variants: Sequence[Sequence[Range | None]]) -> list[frozenset[int]]:
    """For each buffer, the buffers it is live with in any variant of the IR.

    A variant lists every buffer's live range in one version of the function
    (say, after the backend's fusion passes), None where the buffer is gone;
    ranges compare only within a variant.
    """
    count = len(variants[0])
    found: list[set[int]] = [set() for _ in range(count)]
    for ranges in variants:
        live = sorted((r, i) for i, r in enumerate(ranges) if r is not None)
        for k, ((_, last), i) in enumerate(live):
            for (other_first, _), j in live[k + 1 :]:
                if other_first > last:
                    break
                found[i].add(j)
                found[j].add(i)
    return [frozenset(f) for f in found]


def _place(
    order: Sequence[int], slots: Sequence[int], live_with: Sequence[frozenset[int]]
) -> list[int]:
    """Offsets: each buffer of `order` in the smallest gap between the buffers
    already placed that it is live with, else above the highest of them."""
    offsets = [0] * len(slots)
    placed: set[int] = set()
    for i in order:
        busy = sorted(
            (offsets[j], offsets[j] + slots[j])
            for j in live_with[i] & placed
            if slots[j]
        )
        best: int | None = None
        best_gap = 0
        top = 0
        for start, end in busy:
            gap = start - top
            if gap >= slots[i] and (best is None or gap < best_gap):
                best, best_gap = top, gap
            top = max(top, end)
        offsets[i] = top if best is None else best
        placed.add(i)
    return offsets


_ORDERS: tuple[
    Callable[[int, Sequence[int], Sequence[Range]], tuple[int, ...]], ...
] = (
    lambda i, s, r: (-s[i], r[i][0]),
    lambda i, s, r: (-s[i] * (r[i][1] - r[i][0] + 1), r[i][0]),
    lambda i, s, r: (r[i][0] - r[i][1], -s[i]),
    lambda i, s, r: (-r[i][1], -s[i]),
)
"""Orders to place buffers in: by size, by size times lifetime, by lifetime,
by last use (latest first: a KV cache's long-lived buffers end up below)."""


def greedy_by_size(
    slots: Sequence[int], ranges: Sequence[Range], live_with: Sequence[frozenset[int]]
) -> list[int]:
    """The smallest pool of `_place` over `_ORDERS` (slots already aligned;
    `ranges` order the buffers, `live_with` says which may not share bytes)."""
    best: list[int] = []
    best_size: int | None = None
    for key in _ORDERS:
        order = sorted(range(len(slots)), key=lambda i: key(i, slots, ranges))
        offsets = _place(order, slots, live_with)
        size = max((o + s for o, s in zip(offsets, slots)), default=0)
        if best_size is None or size < best_size:
            best, best_size = offsets, size
    return best


MaxPoly = tuple[Poly, ...]
"""The max of polynomials, none provably below another; `()` is 0."""


def _dominates(q: dict[Monomial, int], p: dict[Monomial, int]) -> bool:
    """`q - p` has no negative coefficient: `q >= p` for every dim."""
    return all(q.get(m, 0) >= c for m, c in p.items()) and all(
        c >= 0 for m, c in q.items() if m not in p
    )


def _prune(polys: Sequence[Poly]) -> MaxPoly:
    unique = list(dict.fromkeys(polys))
    terms = [dict(p.terms) for p in unique]
    return tuple(
        p
        for i, p in enumerate(unique)
        if not any(
            j != i and _dominates(terms[j], terms[i]) for j in range(len(unique))
        )
    )


def _shift(offset: MaxPoly, size: Poly) -> MaxPoly:
    return tuple(p + size for p in offset) if offset else (size,)


def orient(
    offsets: Sequence[int], slots: Sequence[Poly], live_with: Sequence[frozenset[int]]
) -> tuple[list[MaxPoly], MaxPoly]:
    """Symbolic offsets and pool size from a concrete placement.

    Of two buffers live at the same time, the one the placement put lower stays
    lower; each offset is the max of the ends of the buffers below it that it
    is live with. That holds for any dims, and at the placement's dims each
    symbolic offset evaluates to at most the concrete one.
    """
    order = sorted(range(len(offsets)), key=lambda i: (offsets[i], i))
    symbolic: list[MaxPoly] = [()] * len(offsets)
    ends: list[MaxPoly] = [()] * len(offsets)
    done: list[int] = []
    for j in order:
        below = [e for i in done if i in live_with[j] for e in ends[i]]
        symbolic[j] = _prune(below)
        ends[j] = _shift(symbolic[j], slots[j])
        done.append(j)
    return symbolic, _prune([e for end in ends for e in end])


__all__ = [
    "MaxPoly",
    "align",
    "conflicts",
    "greedy_by_size",
    "orient",
    "peak_live_bytes",
]
