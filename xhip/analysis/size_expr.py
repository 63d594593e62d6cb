"""Symbolic index arithmetic for buffer sizes and pool offsets.

Sizes and offsets are polynomials with integer coefficients over atoms: SSA
index values (the dynamic dims) and rounded-up quotients `ceil(p / a)`. Keeping
them symbolic lets the planner fold constants (`0 + x`, `x * 1`, `(x * 256) * 4`),
see that `256 * b * s` needs no rounding to 256, and compare sizes, before any
IR exists; `IndexExprEmitter` then writes each distinct subexpression once.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from xdsl.ir import SSAValue


@dataclass(frozen=True, eq=False)
class Atom:
    """A non-negative index quantity the algebra does not look into.

    Atoms are unique per `AtomTable`, so identity is equality; `rank` orders
    them (the order they were first met), which fixes the order of emitted ops.
    """

    rank: int


@dataclass(frozen=True, eq=False)
class ValueAtom(Atom):
    """An SSA index value, e.g. a `memref.dim` of an argument."""

    value: SSAValue


@dataclass(frozen=True, eq=False)
class CeilDivAtom(Atom):
    """`ceil(numerator / divisor)`, emitted as `(numerator + divisor - 1) / divisor`."""

    numerator: Poly
    divisor: int


@dataclass(frozen=True, eq=False)
class KeyAtom(Atom):
    """A quantity named by a key: a dim, or an op the algebra does not expand
    (`floordivsi` of polynomials, a `select`) by its operands' polynomials."""

    key: Hashable


Monomial = tuple[Atom, ...]
"""A product of atoms, sorted by rank; `()` is the constant monomial."""


def _mono_key(monomial: Monomial) -> tuple[int, ...]:
    return tuple(atom.rank for atom in monomial)


@dataclass(frozen=True)
class Poly:
    """A polynomial over atoms: `sum(coefficient * monomial)`, kept canonical."""

    terms: tuple[tuple[Monomial, int], ...] = ()

    @staticmethod
    def of(items: Iterable[tuple[Monomial, int]]) -> Poly:
        acc: dict[Monomial, int] = {}
        for monomial, coefficient in items:
            key = tuple(sorted(monomial, key=lambda a: a.rank))
            acc[key] = acc.get(key, 0) + coefficient
        return Poly(
            tuple(
                sorted(
                    ((m, c) for m, c in acc.items() if c),
                    key=lambda t: (len(t[0]) == 0, _mono_key(t[0])),
                )
            )
        )

    @staticmethod
    def const(value: int) -> Poly:
        return Poly.of([((), value)])

    @staticmethod
    def atom(atom: Atom) -> Poly:
        return Poly((((atom,), 1),))

    def __add__(self, other: Poly | int) -> Poly:
        other = Poly.const(other) if isinstance(other, int) else other
        return Poly.of([*self.terms, *other.terms])

    def __mul__(self, other: Poly | int) -> Poly:
        other = Poly.const(other) if isinstance(other, int) else other
        return Poly.of(
            (m1 + m2, c1 * c2) for m1, c1 in self.terms for m2, c2 in other.terms
        )

    __radd__ = __add__
    __rmul__ = __mul__

    def __sub__(self, other: Poly | int) -> Poly:
        return self + other * -1

    @property
    def constant(self) -> int | None:
        """The value, if the polynomial is a constant."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    @property
    def as_atom(self) -> Atom | None:
        """The atom, if the polynomial is exactly one atom."""
        if (
            len(self.terms) == 1
            and len(self.terms[0][0]) == 1
            and self.terms[0][1] == 1
        ):
            return self.terms[0][0][0]
        return None

    @property
    def constant_term(self) -> int:
        return sum(c for m, c in self.terms if m == ())

    @property
    def variable_terms(self) -> tuple[tuple[Monomial, int], ...]:
        return tuple(t for t in self.terms if t[0] != ())

    def divided_exactly(self, divisor: Poly) -> Poly | None:
        """`self / divisor` where `divisor` is one monomial dividing every
        term (`b*s*32 / b` is `s*32`), else None."""
        if len(divisor.terms) != 1:
            return None
        ((monomial, coefficient),) = divisor.terms
        if coefficient <= 0:
            return None
        quotient: list[tuple[Monomial, int]] = []
        for term, c in self.terms:
            left = list(term)
            for atom in monomial:
                if atom not in left:
                    return None
                left.remove(atom)
            if c % coefficient:
                return None
            quotient.append((tuple(left), c // coefficient))
        return Poly.of(quotient)

    def is_multiple_of(self, n: int) -> bool:
        return all(c % n == 0 for _, c in self.terms)

    def is_nonnegative(self) -> bool:
        """Provably >= 0 for all atom values (atoms are non-negative)."""
        return all(c >= 0 for _, c in self.terms)

    def provably_geq(self, other: Poly) -> bool:
        return (self - other).is_nonnegative()

    def evaluate(self, values: Mapping[Atom, int]) -> int:
        """The value for given atom values (`CeilDivAtom`s are computed)."""
        total = 0
        for monomial, coefficient in self.terms:
            total += coefficient * math.prod(atom_value(a, values) for a in monomial)
        return total


def atom_value(atom: Atom, values: Mapping[Atom, int]) -> int:
    if isinstance(atom, CeilDivAtom):
        return -(-atom.numerator.evaluate(values) // atom.divisor)
    return values[atom]


class AtomTable:
    """Makes atoms, one per distinct quantity, ranked in order of creation."""

    def __init__(self) -> None:
        self._values: dict[SSAValue, ValueAtom] = {}
        self._ceil_divs: dict[tuple[Poly, int], CeilDivAtom] = {}
        self._keys: dict[Hashable, KeyAtom] = {}
        self._next_rank = 0

    def _rank(self) -> int:
        self._next_rank += 1
        return self._next_rank - 1

    def value(self, value: SSAValue) -> Poly:
        if value not in self._values:
            self._values[value] = ValueAtom(self._rank(), value)
        return Poly.atom(self._values[value])

    def keyed(self, key: Hashable) -> Poly:
        """The atom of `key`: equal keys, one atom."""
        if key not in self._keys:
            self._keys[key] = KeyAtom(self._rank(), key)
        return Poly.atom(self._keys[key])

    def ceil_div(self, numerator: Poly, divisor: int) -> Poly:
        """`ceil(numerator / divisor)`, folded where it is exact or constant."""
        if (value := numerator.constant) is not None:
            return Poly.const(-(-value // divisor))
        if numerator.is_multiple_of(divisor):
            return Poly.of((m, c // divisor) for m, c in numerator.terms)
        key = (numerator, divisor)
        if key not in self._ceil_divs:
            self._ceil_divs[key] = CeilDivAtom(self._rank(), numerator, divisor)
        return Poly.atom(self._ceil_divs[key])

    def align_up(self, size: Poly, alignment: int) -> Poly:
        """`size` rounded up to a multiple of `alignment`."""
        return self.ceil_div(size, alignment) * alignment


__all__ = [
    "Atom",
    "AtomTable",
    "CeilDivAtom",
    "KeyAtom",
    "Monomial",
    "Poly",
    "ValueAtom",
    "atom_value",
]
