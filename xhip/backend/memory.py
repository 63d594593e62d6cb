"""How much memory a run may take, and which allocations are live.

A dim such as `--dims batch=100000,seq=100000` makes the pool the IR's index
arithmetic sizes far larger than any machine: the runtime must refuse it before
asking the device for it (where it would fail with a bare `MemoryError`, or
worse, succeed lazily and be killed later). `Allocations` is each runtime's
count of the bytes it owns, checked against `Runtime.max_memory` on every
`alloc`; in debug mode it also keeps every live allocation's address range, so
two allocations that overlap (an allocator bug) fail loudly.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any, Generic, Protocol, TypeVar

import numpy as np


class BufferLike(Protocol):
    """What `Allocations` reads of `runtime.Buffer` (which imports this module)."""

    handle: Any
    nbytes: int


B = TypeVar("B", bound=BufferLike)


class AllocationOverlap(RuntimeError):
    """Two live allocations share bytes; the runtime raises it as its
    `MemoryPlanError`."""


_UNITS = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15}
_BINARY = {"KI": 2**10, "MI": 2**20, "GI": 2**30, "TI": 2**40, "PI": 2**50}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGTP]I?)?B?\s*", re.IGNORECASE)


class MemoryLimitError(MemoryError):
    """A buffer would take more memory than the limit: refused before allocating.

    The message names what needed the memory, how much, for which named dims
    (set by the session, which knows them) and the limit with where it came
    from (`max_memory=`, or `--max-memory` on the command line).
    """

    def __init__(
        self, what: str, nbytes: int, limit: int, in_use: int = 0, plural: bool = False
    ):
        super().__init__(what)
        self.what = what
        self.verb = "need" if plural else "needs"
        self.nbytes = nbytes
        self.limit = limit
        self.in_use = in_use
        self.dims: Mapping[str, int] = {}
        self.source = "max_memory"

    def __str__(self) -> str:
        dims = ", ".join(f"{k}={v}" for k, v in self.dims.items())
        held = (
            f" with {format_bytes(self.in_use)} already in use" if self.in_use else ""
        )
        return (
            f"{self.what} {self.verb} {format_bytes(self.nbytes)} ({self.nbytes} bytes)"
            f"{f' for {dims}' if dims else ''}{held}; the limit is "
            f"{format_bytes(self.limit)} ({self.source})"
        )


def format_bytes(n: int) -> str:
    """`4.4 TB`: decimal units, one decimal, as `parse_size` reads them."""
    for unit in ("PB", "TB", "GB", "MB", "KB"):
        scale = _UNITS[unit[0]]
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def parse_size(text: str) -> int:
    """`8G`, `512M`, `1.5T`, `4GiB`, `1000000`: bytes (K/M/G/T decimal, Ki/Mi/
    Gi/Ti binary). ValueError with the reason otherwise."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise ValueError(f"expected a size such as 8G, 512M or 1000000, got {text!r}")
    number, unit = match.group(1), (match.group(2) or "").upper()
    scale = _BINARY[unit] if unit.endswith("I") else _UNITS[unit]
    size = int(float(number) * scale)
    if size <= 0:
        raise ValueError(f"the size must be positive, got {text!r}")
    return size


def physical_memory() -> int | None:
    """The machine's physical memory in bytes (`os.sysconf`), None if unknown."""
    try:
        pages, page = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return pages * page if pages > 0 and page > 0 else None


def address_of(handle: Any) -> int | None:
    """The first byte's address of a runtime's buffer handle: a numpy array
    (CPU), a device address (GPU runtimes); None for anything else."""
    if isinstance(handle, np.ndarray):
        return int(handle.ctypes.data)  # pyright: ignore[reportUnknownArgumentType]
    if isinstance(handle, int):
        return handle
    return None


class Allocations(Generic[B]):
    """A runtime's live owned buffers: their bytes, and in debug mode their
    address ranges, which must never overlap."""

    def __init__(self) -> None:
        self.in_use = 0
        self.live: dict[int, B] = {}
        """id(buffer) -> buffer, for every live owned buffer."""
        self.ranges: dict[int, tuple[int, int]] = {}
        """id(buffer) -> [first, end) addresses, in debug mode."""

    def check(self, nbytes: int, limit: int | None, what: str) -> None:
        """Refuse `nbytes` more when they and what is held exceed `limit`."""
        if limit is not None and self.in_use + nbytes > limit:
            raise MemoryLimitError(what, nbytes, limit, self.in_use)

    def add(self, buffer: B, debug: bool) -> None:
        self.in_use += buffer.nbytes
        self.live[id(buffer)] = buffer
        lo = address_of(buffer.handle) if debug else None
        if lo is None or buffer.nbytes == 0:
            return
        hi = lo + buffer.nbytes
        for key, (other_lo, other_hi) in self.ranges.items():
            if lo < other_hi and other_lo < hi:
                raise AllocationOverlap(
                    f"a new allocation of {buffer.nbytes} bytes at {lo:#x} overlaps "
                    f"a live allocation of {self.live[key].nbytes} bytes at "
                    f"{other_lo:#x}"
                )
        self.ranges[id(buffer)] = (lo, hi)

    def remove(self, buffer: B) -> None:
        if self.live.pop(id(buffer), None) is not None:
            self.in_use -= buffer.nbytes
        self.ranges.pop(id(buffer), None)

    def snapshot(self) -> set[int]:
        return set(self.live)

    def since(self, mark: set[int]) -> list[B]:
        """Live buffers allocated after the `snapshot` `mark`."""
        return [b for key, b in self.live.items() if key not in mark]
