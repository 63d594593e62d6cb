"""A bound plan that reads its caller's inputs and writes its outputs in place.

A bound plan's calls hold numpy views of buffers of its own, so each call
copies its inputs in and its outputs out (at 8 x 128 on the seed, about 15 us
each of 280). `InPlace` finds, once per bound plan, every view of an input's
or output's buffer the calls hold where a call can take another: an argument
of a `functools.partial`, or an item of a list or tuple among them (`run_all`'s
calls, a `_parallel`'s tasks). Per call it rebuilds just those calls with the
same views of the caller's array (an input) or of a fresh array that becomes
the result (an output), so nothing the caller keeps is ever written again.

A buffer a call can also reach another way (a closure, an attribute, a
`DeviceArray`, an object the walk does not enter) keeps the copy; so does an
input whose array cannot stand in for the buffer (not C-contiguous, unaligned,
read-only where a view was writable). `InPlace.verified` runs the plan once
with the inputs' own buffers poisoned and fresh poisoned outputs, and keeps
the in-place form only if every output comes back bit for bit: a call that
held a buffer some way the walk cannot see (a raw address) would read the
poison, or leave it.
"""

from __future__ import annotations

import gc
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from xhip.backend.runtime import DeviceArray, Runtime

MAX_WALK = 200_000
"""Objects the walk may visit per bound plan; beyond it, nothing is in place."""


@dataclass(frozen=True)
class _Site:
    """A view of slot `slot` some call takes: `offset` bytes into it."""

    slot: int
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    dtype: np.dtype[Any]
    writeable: bool
    original: np.ndarray

    def on(self, target: np.ndarray | None) -> np.ndarray:
        """This view of `target` (the original where `target` is None)."""
        if target is None:
            return self.original
        if (
            self.offset == 0
            and self.shape == target.shape
            and self.strides == target.strides
            and self.dtype == target.dtype
            and self.writeable == target.flags.writeable
        ):
            return target
        view = np.ndarray(self.shape, self.dtype, target, self.offset, self.strides)
        if not self.writeable:
            view.flags.writeable = False
        return view


_Node = tuple[Any, ...]
"""How to rebuild a call: ("partial", func, args, keywords, [(key, node)]),
("list" | "tuple", items, [(index, node)]) or ("view", _Site)."""


def _extent(array: np.ndarray) -> tuple[int, int]:
    lo, hi = np.lib.array_utils.byte_bounds(array)
    return int(lo), int(hi)


class _Finder:
    """Walks the calls: views at positions a rebuild can replace become sites;
    a slot's bytes reached any other way make that slot `blocked`."""

    def __init__(self, slots: Sequence[np.ndarray]):
        self.ranges = [_extent(s) for s in slots]
        self.blocked: set[int] = set()
        self.seen: set[int] = set()
        self.visits = 0

    def slot_of(self, array: np.ndarray) -> tuple[int, int] | None:
        """(slot, offset) of a view inside a slot; a view straddling one
        blocks it."""
        if array.size == 0:
            return None
        lo, hi = _extent(array)
        for number, (start, end) in enumerate(self.ranges):
            if lo < end and start < hi:
                if start <= lo and hi <= end:
                    return number, int(array.__array_interface__["data"][0]) - start
                self.blocked.add(number)
        return None

    def node(self, obj: Any) -> _Node | None:
        """The rebuild of `obj`, at a replaceable position; None: as it is."""
        kind = type(obj)
        if kind is np.ndarray:
            found = self.slot_of(obj)
            if found is None:
                return None
            slot, offset = found
            site = _Site(
                slot,
                offset,
                obj.shape,
                obj.strides,
                obj.dtype,
                bool(obj.flags.writeable),
                obj,
            )
            return ("view", site)
        if kind is partial:
            self.opaque(obj.func)
            if getattr(obj, "__dict__", None):
                self.opaque(obj.__dict__)
            subs: list[tuple[Any, _Node]] = []
            for i, arg in enumerate(obj.args):
                if (sub := self.node(arg)) is not None:
                    subs.append((i, sub))
            for key, value in obj.keywords.items():
                if (sub := self.node(value)) is not None:
                    subs.append((key, sub))
            return ("partial", obj.func, obj.args, obj.keywords, subs) if subs else None
        if kind is list or kind is tuple:
            items: list[tuple[Any, _Node]] = []
            for i, item in enumerate(obj):
                if (sub := self.node(item)) is not None:
                    items.append((i, sub))
            return (kind.__name__, tuple(obj), items) if items else None
        self.opaque(obj)
        return None

    def opaque(self, root: Any) -> None:
        """Blocks every slot whose bytes `root` reaches (but through a runtime,
        a module, a class, a function's globals or a numba dispatcher)."""
        stack = [root]
        while stack:
            obj = stack.pop()
            if id(obj) in self.seen or isinstance(
                obj, (type, types.ModuleType, Runtime, str, bytes, int, float)
            ):
                continue
            self.seen.add(id(obj))
            self.visits += 1
            if self.visits > MAX_WALK:
                self.blocked.update(range(len(self.ranges)))
                return
            if isinstance(obj, np.ndarray):
                if obj.dtype.hasobject:
                    stack.extend(obj.ravel().tolist())
                elif self.slot_of(obj) is not None:
                    self.blocked.add(self.slot_of(obj)[0])  # pyright: ignore[reportOptionalSubscript]
                continue
            if isinstance(obj, DeviceArray):
                handle = obj.buffer.handle
                if isinstance(handle, np.ndarray):
                    stack.append(handle)
                continue
            if isinstance(obj, types.FunctionType):
                stack.extend(_contents(obj.__closure__ or ()))
                stack.extend(obj.__defaults__ or ())
                stack.extend((obj.__kwdefaults__ or {}).values())
                continue
            module = type(obj).__module__
            if module.startswith("numba") and hasattr(obj, "py_func"):
                continue  # a dispatcher: compiled code, no operands
            stack.extend(gc.get_referents(obj))


class InPlace:
    """The calls of one bound plan, rebuilt per call over the caller's inputs
    and fresh outputs (see the module docstring)."""

    def __init__(
        self,
        calls: Sequence[Callable[[], object]],
        rebuilt: list[tuple[int, _Node]],
        inputs: tuple[int | None, ...],
        outputs: tuple[tuple[int, tuple[int, ...], np.dtype[Any]] | None, ...],
        writeable: frozenset[int],
    ):
        self.calls = list(calls)
        self.rebuilt = rebuilt
        """(index in `calls`, how to rebuild it) for every call holding a site."""
        self.inputs = inputs
        """Per input, the slot a caller's array can replace, if any."""
        self.outputs = outputs
        """Per result: (its slot, shape, dtype) when it is made fresh per call."""
        self.writeable = writeable
        """The slots some call takes a writable view of."""

    @classmethod
    def find(
        cls,
        calls: Sequence[Callable[[], object]],
        inputs: Sequence[DeviceArray],
        results: Sequence[Any],
        outputs: Sequence[DeviceArray],
        min_bytes: int,
    ) -> InPlace | None:
        """The in-place form of `calls` for these input buffers and the
        `outputs` among the `results` (buffers of their own, as the session
        allocates them); None when the buffers it would stop copying come to
        less than `min_bytes` per call it rebuilds (about 1.1 us of
        rebuilding against as long copying 32 KiB)."""
        candidates = [
            v
            for v in (*inputs, *outputs)
            if isinstance(v.buffer.handle, np.ndarray)
            and v.buffer.nbytes >= max(min_bytes, 1)
            and v.offset == 0
            and v.is_contiguous()
        ]
        if not candidates:
            return None
        finder = _Finder([v.buffer.handle for v in candidates])
        nodes = [(i, finder.node(call)) for i, call in enumerate(calls)]
        sites: list[_Site] = []
        for _, node in nodes:
            if node is not None:
                _collect(node, sites)
        usable = {
            n
            for n, v in enumerate(candidates)
            if n not in finder.blocked
            and all(
                s.dtype.alignment <= v.dtype.alignment for s in sites if s.slot == n
            )
        }
        rebuilt = [
            (i, kept)
            for i, node in nodes
            if node is not None and (kept := _prune(node, usable)) is not None
        ]
        saved = sum(candidates[n].buffer.nbytes for n in usable)
        if not usable or saved < min_bytes * len(rebuilt):
            return None  # the copies cost less than rebuilding the calls
        slot_of = {id(v): n for n, v in enumerate(candidates) if n in usable}
        ins = tuple(slot_of.get(id(v)) for v in inputs)
        own = {id(v) for v in outputs}
        outs = tuple(
            (slot_of[id(r)], r.shape, r.dtype)
            if id(r) in slot_of and id(r) in own
            else None
            for r in results
        )
        if all(n is None for n in ins) and all(o is None for o in outs):
            return None
        writeable = frozenset(s.slot for s in sites if s.writeable)
        return cls(calls, rebuilt, ins, outs, writeable)

    def targets(
        self, arrays: Sequence[np.ndarray]
    ) -> tuple[dict[int, np.ndarray], list[np.ndarray | None], list[int]]:
        """The arrays each slot's sites view this call, by slot: the caller's
        inputs that can stand in for their buffers, and new output arrays;
        the results (None: downloaded); the inputs to copy in."""
        targets: dict[int, np.ndarray] = {}
        copied: list[int] = []
        for number, (slot, array) in enumerate(zip(self.inputs, arrays)):
            flags = array.flags
            if (
                slot is not None
                and flags.c_contiguous
                and flags.aligned
                and (flags.writeable or slot not in self.writeable)
            ):
                targets[slot] = array
            else:
                copied.append(number)
        results: list[np.ndarray | None] = []
        for out in self.outputs:
            if out is None:
                results.append(None)
            else:
                array = targets[out[0]] = np.empty(out[1], out[2])
                results.append(array)
        return targets, results, copied

    def run(self, targets: dict[int, np.ndarray]) -> None:
        """The calls, with each slot's sites on its target where it has one."""
        calls = self.calls.copy()
        for index, node in self.rebuilt:
            calls[index] = _build(node, targets)
        for call in calls:
            call()


def _contents(cells: Sequence[Any]) -> list[Any]:
    """What a closure's cells hold (an empty cell, nothing)."""
    held: list[Any] = []
    for cell in cells:
        try:
            held.append(cell.cell_contents)
        except ValueError:
            pass
    return held


def _collect(node: _Node, sites: list[_Site]) -> None:
    if node[0] == "view":
        sites.append(node[1])
        return
    for _, sub in node[-1]:
        _collect(sub, sites)


def _prune(node: _Node, usable: set[int]) -> _Node | None:
    """`node` without the sites of slots outside `usable`."""
    if node[0] == "view":
        return node if node[1].slot in usable else None
    subs = [(key, kept) for key, sub in node[-1] if (kept := _prune(sub, usable))]
    return (*node[:-1], subs) if subs else None


def _build(node: _Node, targets: dict[int, np.ndarray]) -> Any:
    kind = node[0]
    if kind == "view":
        site: _Site = node[1]
        return site.on(targets.get(site.slot))
    if kind == "partial":
        _, func, args, keywords, subs = node
        new_args = list(args)
        new_keywords = keywords
        for key, sub in subs:
            if isinstance(key, int):
                new_args[key] = _build(sub, targets)
            else:
                if new_keywords is keywords:
                    new_keywords = dict(keywords)
                new_keywords[key] = _build(sub, targets)
        return partial(func, *new_args, **new_keywords)
    _, items, subs = node
    new_items = list(items)
    for i, sub in subs:
        new_items[i] = _build(sub, targets)
    return new_items if kind == "list" else tuple(new_items)
