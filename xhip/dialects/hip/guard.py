"""`hip.guard`: an assumption a specialization was compiled under, checked at
run time (`docs/shape-values.md`, "Guards").

`xhip.compile` specializes a model on the values of operands that decide
structure (Reduce axes, Resize scales, If's condition, ...) when they are data.
The specialization treats them as constants and says so in its IR: the values
are read back (`hip.readback`) and `hip.guard` compares them with the ones it
was built for. A mismatch stops the call (`GuardFailed` in the backend), and
the dispatcher builds the specialization the values call for.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from xdsl.dialects.builtin import DenseArrayBase, IndexType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind
from xdsl.utils.exceptions import VerifyException


class _GuardEffects(MemoryEffect):
    """It may stop the call, as `cf.assert` may: a write to no value in
    particular, so nothing erases it, merges it or moves ops across it."""

    @classmethod
    def get_effects(cls, op: Operation) -> Set[EffectInstance]:
        return frozenset([EffectInstance(MemoryEffectKind.WRITE)])


@irdl_op_definition
class GuardOp(IRDLOperation):
    """The index values (read back) equal `expected`, or the call stops."""

    name = "hip.guard"

    values = var_operand_def(IndexType)
    expected = prop_def(DenseArrayBase.constr(i64))

    traits = traits_def(_GuardEffects())

    assembly_format = "$values `expects` $expected attr-dict"

    def __init__(self, values: Sequence[SSAValue | Operation], expected: Sequence[int]):
        super().__init__(
            operands=[values],
            properties={"expected": DenseArrayBase.from_list(i64, expected)},
        )

    def expected_values(self) -> tuple[int, ...]:
        return tuple(self.expected.get_values())

    def verify_(self) -> None:
        if len(self.values) != len(self.expected_values()):
            raise VerifyException(
                f"'{self.name}' compares {len(self.values)} values with "
                f"{len(self.expected_values())} expected ones"
            )


OPS: tuple[type[Operation], ...] = (GuardOp,)
"""This family's ops; a new op goes at the end."""

__all__ = ["GuardOp"]
