"""Speed fixes to xDSL 0.75's own passes, applied by `xhip.universe`.

`scope_cse_known_ops()`: xDSL's `cse` copies its whole table of known ops
(`KnownOps(self._known_ops)`, a dict copy) on entering every single-block
region, so a function with one small region per buffer (the `scf.if`s that
`bufferization-lower-deallocations` makes, 8 per attention layer) costs time
quadratic in its length. MLIR uses a scoped hash table instead; so does this
patch: a region's scope shares its parent's dict, logs what it changes, and
undoes that on exit.

`cache_segment_sizes()`: the accessors of an op with `AttrSizedOperandSegments`
(`bufferization.dealloc`'s `memrefs`, a hip op's `inputs`) unpack the
`operandSegmentSizes` bytes with `struct` on every access, and the dead-code
checks of `canonicalize` and `cse` and the deallocation passes read them for
every op they visit. The decoded sizes are kept per distinct bytes.

Both change no result. The text for upstream is in `docs/xdsl-upstream.md`.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import DenseArrayBase, IntegerType
from xdsl.ir import Operation, Region
from xdsl.irdl.operations import BaseAttrAccessor, get_op_constructs
from xdsl.transforms.common_subexpression_elimination import (
    CSEDriver,
    KnownOps,
    OperationInfo,
)


class ScopedKnownOps(KnownOps):
    """The known ops of one region: its parent's table plus what the region
    adds, sharing the parent's dict instead of copying it.

    New keys go to the end of the dict (dicts keep insertion order), so
    `close()` drops them with `popitem`, without hashing them again; a key of
    the parent it overwrites is logged and restored.
    """

    def __init__(self, parent: KnownOps) -> None:
        self._known_ops = parent._known_ops  # pyright: ignore[reportPrivateUsage]
        self._size = len(self._known_ops)
        self._overwritten: list[tuple[OperationInfo, Operation]] = []

    def __setitem__(self, k: Operation, v: Operation) -> None:
        info = OperationInfo(k)
        old = self._known_ops.setdefault(info, v)
        if old is not v:
            self._overwritten.append((info, old))
            self._known_ops[info] = v

    def pop(self, k: Operation) -> Operation:
        raise NotImplementedError("a CSE scope only adds known ops")

    def close(self) -> None:
        """Give the parent's table back as it was when the scope opened."""
        known = self._known_ops
        for info, old in reversed(self._overwritten):
            known[info] = old
        for _ in range(len(known) - self._size):
            known.popitem()


XDSL_SIMPLIFY_REGION: Any = CSEDriver._simplify_region  # pyright: ignore[reportPrivateUsage]
"""xDSL's own `_simplify_region`, which copies the table: the tests' reference."""


def _simplify_region(self: CSEDriver, region: Region) -> None:
    """`CSEDriver._simplify_region` with a scope instead of a copy."""
    if len(region.blocks) != 1:
        return
    parent = self._known_ops  # pyright: ignore[reportPrivateUsage]
    scope = ScopedKnownOps(parent)
    self._known_ops = scope  # pyright: ignore[reportPrivateUsage]
    try:
        self._simplify_block(region.block)  # pyright: ignore[reportPrivateUsage]
    finally:
        scope.close()
        self._known_ops = parent  # pyright: ignore[reportPrivateUsage]


def scope_cse_known_ops() -> None:
    """Make xDSL's `CSEDriver` (the `cse` pass and every `cse()` call) use a
    scoped table of known ops. Calling it again changes nothing."""
    method: Any = _simplify_region
    CSEDriver._simplify_region = method  # pyright: ignore[reportPrivateUsage]


_SEGMENT_SIZES: dict[bytes, tuple[int, ...]] = {}
"""Decoded i32 segment sizes by their bytes (a `bytes` caches its own hash)."""


def _segment_sizes(attr: DenseArrayBase[IntegerType]) -> tuple[int, ...]:
    width: object = getattr(attr.elt_type, "width", None)  # absent if not an integer
    if getattr(width, "data", None) != 32:
        return attr.get_values()  # the bytes alone say what they hold for i32 only
    data = attr.data.data
    sizes = _SEGMENT_SIZES.get(data)
    if sizes is None:
        sizes = _SEGMENT_SIZES[data] = attr.get_values()
    return sizes


def _segment_accessor_get(
    self: BaseAttrAccessor, obj: Operation, objtype: object = None
) -> Any:
    """`BaseAttrAccessor.__get__`, the sizes decoded once per distinct value."""
    attr = self.option.container(obj)[self.option.attribute_name]
    return self.index(_segment_sizes(attr), get_op_constructs(obj, self.construct))  # pyright: ignore[reportArgumentType]


XDSL_SEGMENT_ACCESSOR_GET: Any = vars(BaseAttrAccessor)["__get__"]
"""xDSL's own accessor, which decodes every time: the tests' reference."""


def cache_segment_sizes() -> None:
    """Make every `AttrSizedSegments` accessor decode each distinct sizes
    attribute once. Calling it again changes nothing."""
    method: Any = _segment_accessor_get
    BaseAttrAccessor.__get__ = method
