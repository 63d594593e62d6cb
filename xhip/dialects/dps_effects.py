"""What a hip compute op touches: nothing in tensor mode, its `ins` and
`outs` in memref mode. Asked of every op by each dead-code check, `cse` and
the deallocation passes, so it reads the operand groups from the segment
sizes, with no accessor: `ins` and `outs` are the last two groups of every
compute op (`HipDPSOp`)."""

from __future__ import annotations

from collections.abc import Callable, Set
from typing import Any, ClassVar, cast

from xdsl.dialects.builtin import DenseArrayBase, IntegerType, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind

_tuple_item = cast(Callable[[tuple[Any, ...], int], Any], tuple.__getitem__)  # pyright: ignore[reportUnknownMemberType]
"""`tuple`'s own indexing: `SSAValues` overrides it in Python."""

_KINDS: dict[tuple[bool, bool], tuple[MemoryEffectKind, ...]] = {
    (False, False): (),
    (True, False): (MemoryEffectKind.READ,),
    (False, True): (MemoryEffectKind.WRITE,),
    (True, True): (MemoryEffectKind.READ, MemoryEffectKind.WRITE),
}
"""A memref-mode compute op's effect kinds, by whether it has `ins` and `outs`."""


class DestinationStyleEffects(MemoryEffect):
    """A compute op's effects depend on its mode, as for `linalg` ops.

    Tensor mode has none (values in, values out), so an unused op can be erased
    and equal ones merged; memref mode reads its `ins` and writes its `outs`, so
    it stays and is never merged with another.
    """

    _io_counts: ClassVar[dict[bytes, tuple[int, int]]] = {}
    """(`ins`, `outs`) counts, the last two groups, by `operandSegmentSizes` bytes."""

    @classmethod
    def _counts(cls, op: Operation) -> tuple[int, int]:
        sizes: DenseArrayBase[IntegerType] = op.properties["operandSegmentSizes"]  # pyright: ignore[reportAssignmentType]
        counts = cls._io_counts.get(data := sizes.data.data)
        if counts is None:
            values = sizes.get_values()
            counts = cls._io_counts[data] = (values[-2], values[-1])
        return counts

    @classmethod
    def get_effects(cls, op: Operation) -> Set[EffectInstance]:
        # Every dead-code check asks: each group read once, the type by `is`
        # (no subclasses; `isinstance` of an xDSL ABC runs Python code).
        ins, outs = cls._counts(op)
        operands = op.operands
        outputs = operands[len(operands) - outs :]
        if outputs and type(outputs[0].type) is TensorType:
            return frozenset()
        return frozenset(
            [
                EffectInstance(MemoryEffectKind.READ, v)
                for v in operands[len(operands) - outs - ins : len(operands) - outs]
            ]
            + [EffectInstance(MemoryEffectKind.WRITE, v) for v in outputs]
        )

    @classmethod
    def result_only_effects(cls, op: Operation) -> bool:
        """xDSL's `result_only_effects`, fast (xdsl_patches): no memref `outs`.
        No `cast` and no operand view: every dead-code check asks it."""
        sizes: DenseArrayBase[IntegerType] = op.properties["operandSegmentSizes"]  # pyright: ignore[reportAssignmentType]
        count = (cls._io_counts.get(sizes.data.data) or cls._counts(op))[1]
        if not count:
            return True
        last: SSAValue = _tuple_item(op._operands, -count)  # pyright: ignore[reportPrivateUsage]
        return type(last.type) is TensorType

    @classmethod
    def effect_kinds(cls, op: Operation) -> tuple[MemoryEffectKind, ...]:
        """The kinds of `get_effects(op)` without building it (xdsl_patches'
        `effect_kinds`: `cse` and the deallocation passes ask only these)."""
        ins, outs = cls._counts(op)
        operands = op._operands  # pyright: ignore[reportPrivateUsage]
        if outs and type(_tuple_item(operands, -outs).type) is TensorType:
            return ()
        return _KINDS[bool(ins), bool(outs)]
