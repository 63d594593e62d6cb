"""Operand roles: the names a compute op gives its index operands, `ins` and
`outs`, parsed and bound once per declaration. They know nothing of ops, so
they live apart from `hip/base.py`, which re-exports every name."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

from xdsl.ir import Operation, SSAValue

# Operand roles: each compute op names its index operands, `ins` and `outs`
# (`INDEX`, `INS`, `OUTS`), the names of the parameters of its `Runtime`
# method. A trailing `?` marks an optional role, `*` a variadic one.

T = TypeVar("T")

Value = SSAValue | Operation
"""What a builder takes as an operand."""

RoleArg = Value | Sequence[Value] | None
"""What a builder takes for one role: a value, a sequence of them for a
variadic role, None for an absent optional one."""


@dataclass(frozen=True)
class Role:
    """One declared operand role: `"bias?"` is `Role("bias", optional=True)`,
    `"inputs+"` `Role("inputs", variadic=True, min_count=1)`."""

    name: str
    optional: bool = False
    variadic: bool = False
    min_count: int = 0
    """The fewest operands a variadic role takes."""


@cache
def parse_roles(spec: tuple[str, ...]) -> tuple[Role, ...]:
    """The roles a declaration such as `("x", "w", "bias?")` names: `?`
    optional, `*` any number, `+` one or more. A group has at most one
    variadic role and then no optional one, so the operand count alone places
    every operand."""
    roles = tuple(
        Role(
            s.rstrip("?*+"),
            optional=s.endswith("?"),
            variadic=s.endswith(("*", "+")),
            min_count=1 if s.endswith("+") else 0,
        )
        for s in spec
    )
    variadic = sum(r.variadic for r in roles)
    if variadic > 1 or (variadic and any(r.optional for r in roles)):
        raise ValueError(f"roles {spec}: one variadic role at most, alone")
    return roles


def role_counts(roles: Sequence[Role]) -> tuple[int, int | None]:
    """The (min, max) operand count the roles take; max None: no limit."""
    required = sum(r.min_count if r.variadic else not r.optional for r in roles)
    if any(r.variadic for r in roles):
        return required, None
    return required, required + sum(r.optional for r in roles)


@cache
def spec_counts(spec: tuple[str, ...]) -> tuple[int, int | None]:
    """`role_counts` of a declaration, once per spec."""
    return role_counts(parse_roles(spec))


def bind_group(
    roles: Sequence[Role], values: Sequence[T], absent: Collection[str] = ()
) -> dict[str, T | None | tuple[T, ...]]:
    """Role name -> its operand: None for an absent optional role, a tuple for
    a variadic one. The optional roles present are the first ones not in
    `absent`, as many as the values beyond the required ones."""
    lo, hi = role_counts(roles)
    if len(values) < lo or (hi is not None and len(values) > hi):
        names = ", ".join(r.name for r in roles)
        raise ValueError(f"{len(values)} values do not fit the roles ({names})")
    fixed = sum(not r.optional and not r.variadic for r in roles)
    extra = len(values) - fixed
    present = [r for r in roles if r.optional and r.name not in absent][:extra]
    if len(present) < extra and not any(r.variadic for r in roles):
        raise ValueError(f"{len(values)} values but roles {sorted(absent)} absent")
    bound: dict[str, T | None | tuple[T, ...]] = {}
    it = iter(values)
    for r in roles:
        if r.variadic:
            bound[r.name] = tuple(next(it) for _ in range(extra))
        elif r.optional:
            bound[r.name] = next(it) if r in present else None
        else:
            bound[r.name] = next(it)
    return bound


def flatten_roles(
    roles: Sequence[Role], given: Mapping[str, RoleArg], op: str
) -> list[Value]:
    """The operands of one group, in role order, from a builder's keywords."""
    values: list[Value] = []
    for r in roles:
        value = given.get(r.name)
        if r.variadic:
            assert isinstance(value, Sequence), f"{op}: role {r.name} takes a sequence"
            values.extend(value)
        elif value is None:
            if not r.optional:
                raise TypeError(f"{op}: role {r.name!r} is required")
        else:
            assert not isinstance(value, Sequence), f"{op}: role {r.name} takes one"
            values.append(value)
    return values
