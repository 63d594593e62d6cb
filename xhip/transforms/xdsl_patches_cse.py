"""xDSL's `cse`, patched further; `xhip.universe` installs it with the other
patches (`docs/xdsl-upstream.md`, 1 and 19).

`simplify_operation`: `CSEDriver._simplify_operation` asks for an op's
effects twice (`is_side_effect_free`, then `only_has_effect`), each time
building them anew: a compute op builds a set of frozen `EffectInstance`s,
hashing each through `Enum.__hash__`, and an `scf.if` the effects of every op
inside it. All it needs is their kinds, asked once here (`effect_kinds`).

`operation_info_hash`: `OperationInfo.__hash__` (hashed for every op `cse`
looks up or records, and for every use of a replaced op's results) sums the
attribute hashes through a generator, builds `result_types` through another,
and hashes the operands through `OpOperands.__hash__` and each value's
`SSAValue.__hash__`, all Python. The same number, from `map` and the values'
`id`s (`SSAValue.__hash__` is `id`).
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation
from xdsl.traits import IsTerminator, MemoryEffectKind
from xdsl.transforms import common_subexpression_elimination as cse_module
from xdsl.transforms.common_subexpression_elimination import (
    CSEDriver,
    OperationInfo,
)

from xhip.transforms.xdsl_patches import effect_kinds

_READ = MemoryEffectKind.READ


def simplify_operation(self: CSEDriver, op: Operation) -> None:
    """xDSL's `CSEDriver._simplify_operation`, the op's effect kinds asked
    once (`effect_kinds`, what `is_side_effect_free` and `only_has_effect`
    answer from); the rest is xDSL's."""
    # Don't simplify terminators.
    if op.has_trait(IsTerminator):
        return
    # If the operation is already trivially dead just add it to the erase list.
    if cse_module.is_trivially_dead(op):  # pyright: ignore[reportPrivateImportUsage]
        self._mark_erasure(op)  # pyright: ignore[reportPrivateUsage]
        return
    # Don't simplify operations with regions that have multiple blocks.
    for region in op.regions:
        if len(region.blocks) > 1:
            return
    kinds = effect_kinds(op)
    if kinds is None:  # unknown effects
        return
    known_ops = self._known_ops  # pyright: ignore[reportPrivateUsage]
    if kinds:  # not side effect free
        for kind in kinds:
            if kind is not _READ:
                return
        # If the op is only reading, we can still try to CSE it
        if existing := known_ops.get(op):
            if (
                op.parent_block() is existing.parent_block()
                # No 'write' side-effecting operations in between the two
                # that could change the result of the operation
                and not cse_module.has_other_side_effecting_op_in_between(existing, op)
            ):
                self._replace_and_delete(op, existing)  # pyright: ignore[reportPrivateUsage]
                return
        # A CSE candidate without a replacement: mark it for later ones
        known_ops[op] = op
        return
    # If we know the operation is side-effect free, we can just replace it
    if existing := known_ops.get(op):
        self._replace_and_delete(op, existing)  # pyright: ignore[reportPrivateUsage]
        return
    # A CSE candidate without a replacement: mark it for later ones
    known_ops[op] = op


XDSL_SIMPLIFY_OPERATION: Any = CSEDriver._simplify_operation  # pyright: ignore[reportPrivateUsage]
"""xDSL's own: the tests' reference."""


def operation_info_hash(self: OperationInfo) -> int:
    """`OperationInfo.__hash__`: the same number, without a Python call per
    attribute, result or operand."""
    op = self.op
    return hash(
        (
            op.op_name.data if isinstance(op, UnregisteredOp) else op.name,
            sum(map(hash, op.attributes.items())),
            sum(map(hash, op.properties.items())),
            hash(tuple([r.type for r in op.results])),
            hash(tuple(map(id, op._operands))),  # pyright: ignore[reportPrivateUsage]
        )
    )


XDSL_OPERATION_INFO_HASH: Any = OperationInfo.__hash__
"""xDSL's own: the tests' reference."""


def simplify_cse_operations() -> None:
    """Make `cse` ask each op's effect kinds once, and hash its table's keys
    without Python calls per value. Calling it again changes nothing."""
    simplify: Any = simplify_operation
    CSEDriver._simplify_operation = simplify  # pyright: ignore[reportPrivateUsage]
    info_hash: Any = operation_info_hash
    OperationInfo.__hash__ = info_hash
