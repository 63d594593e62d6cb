"""The symbolic size algebra: folding, rounding, comparison."""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block

from xhip.analysis.size_expr import AtomTable, Poly, ValueAtom


def dims(n: int) -> tuple[AtomTable, list[Poly]]:
    block = Block(arg_types=[IndexType()] * n)
    table = AtomTable()
    return table, [table.value(arg) for arg in block.args]


def test_constants_fold_and_terms_combine():
    _, (b, s) = dims(2)
    assert (b * 256) * 4 == b * 1024
    assert 0 + b * 1 == b
    assert b * s + s * b == 2 * (b * s)
    assert (b + 3) - b == Poly.const(3)
    assert (b * s * 0 + 5).constant == 5
    assert (b - b).constant == 0


def test_equal_polys_are_equal_keys():
    table, (b, s) = dims(2)
    assert hash(b * s * 4) == hash(s * b * 4)
    atom = b.as_atom
    assert isinstance(atom, ValueAtom) and table.value(atom.value) == b
    assert {b * 4: 1}[4 * b] == 1


def test_align_up_folds_exact_and_constant_cases():
    table, (b, s) = dims(2)
    assert table.align_up(b * s * 256, 256) == b * s * 256
    assert table.align_up(Poly.const(15), 256) == Poly.const(256)
    assert table.align_up(Poly.const(512), 256) == Poly.const(512)
    rounded = table.align_up(b * s * s * 4, 256)
    assert rounded.constant is None and rounded.is_multiple_of(256)
    assert table.align_up(s * b * s * 4, 256) == rounded  # one atom per quotient


def test_evaluate_rounds_up():
    table, (b, s) = dims(2)
    rounded = table.align_up(b * s * s * 4, 256)
    values = {b.as_atom: 2, s.as_atom: 7}
    assert rounded.evaluate(values) == 512  # 392 bytes -> 512
    assert (b * s * 256).evaluate(values) == 3584


def test_provably_geq_only_when_true_for_all_dims():
    table, (b, s) = dims(2)
    a = table.align_up(b * s * 256, 256)
    q = table.align_up(b * s * s * 4, 256)
    assert (a * 2).provably_geq(a)
    assert (a + 256).provably_geq(a)
    assert not a.provably_geq(q) and not q.provably_geq(a)
    assert Poly.const(1024).provably_geq(Poly.const(512))
    assert not Poly.const(512).provably_geq(Poly.const(1024))


def test_atoms_are_ranked_in_order_of_creation():
    table, (b, s) = dims(2)
    q = table.ceil_div(b * s * 3, 256)
    assert [p.as_atom.rank for p in (b, s, q)] == [0, 1, 2]  # pyright: ignore
    assert isinstance(b.as_atom, ValueAtom) and not isinstance(q.as_atom, ValueAtom)
    assert (q + b).terms[0] == b.terms[0]  # terms sorted by atom rank
