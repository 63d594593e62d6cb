"""`xhip.transforms.xdsl_patches_driver.unlink_ops_directly` and the op
builder's `__post_init__` change no result.

Erasing, detaching and inserting an op, a builder's and a rewriter's
inserting, a rewriter's replacing of a value's uses, and `SSAValue.get` each
run the same edits on the same IR once with the patches and once with xDSL's
own methods (kept as `XDSL_*`); the op lists, use lists
(both ways), fields and listener calls must match, and so must the errors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest
from xdsl.builder import Builder, ImplicitBuilder
from xdsl.dialects import test
from xdsl.dialects.builtin import IndexType, IntegerType, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from xhip.transforms import xdsl_patches_building
from xhip.transforms import xdsl_patches_driver as driver
from xhip.transforms.xdsl_patches_visits import WalkRewriter


@pytest.fixture
def patched() -> Iterator[None]:
    xdsl_patches_building.cache_op_building()
    yield


def _as_xdsl(monkeypatch: pytest.MonkeyPatch) -> None:
    for (cls, name), method in driver.XDSL_UNLINK_METHODS.items():
        monkeypatch.setattr(cls, name, method)


class _IR:
    """A block whose values have several uses each (one op uses a value
    twice), an op with a region that uses the outer values, and one with a
    successor."""

    def __init__(self) -> None:
        self.block = Block(arg_types=[i32, i32])
        self.ops: list[Operation] = []
        a, b = self.block.args
        c = self.add([a, b, a])
        d = self.add([c, a, c])
        e = self.add([d, c, b])
        f = self.add([e, a], results=2)
        inner = Block()
        inner.add_op(test.TestOp([a, c, f.results[1]], result_types=[i32]))
        self.ops.append(inner.first_op)  # pyright: ignore[reportArgumentType]
        g = self.add([f.results[1], f.results[0], d], regions=[Region(inner)])
        self.target = Block()
        self.add([g, e], successors=[self.target])
        self.add([g, c, d, a])

    def add(
        self,
        operands: list[Any],
        results: int = 1,
        regions: list[Region] | None = None,
        successors: list[Block] | None = None,
    ) -> Operation:
        values = [v.results[0] if isinstance(v, Operation) else v for v in operands]
        types = [i32] * results
        op = (
            test.TestOp(values, types, regions=regions or [])
            if successors is None
            else test.TestTermOp(values, types, successors=successors)
        )
        self.block.add_op(op)
        self.ops.append(op)
        return op

    def where(self, op: Operation | None) -> int | None:
        return None if op is None else self.ops.index(op)

    def values(self) -> list[SSAValue]:
        values: list[SSAValue] = [*self.block.args]
        for op in self.ops:
            values.extend(op.results)
        return values

    def state(self) -> list[Any]:
        """Everything the edits may change, in ops' positions, not ids."""
        values = self.values()
        found: list[Any] = [
            [self.where(op) for op in self.block.ops],
            [self.where(op) for op in reversed(self.block.ops)],
        ]
        for value in values:
            forward: list[tuple[int | None, int]] = []
            use, last = value.first_use, None
            while use is not None:
                assert use._prev_use is last  # pyright: ignore[reportPrivateUsage]
                forward.append((self.where(use.operation), use.index))
                use, last = use._next_use, use  # pyright: ignore[reportPrivateUsage]
            found.append((type(value).__name__, value.name_hint, forward))
        for block in (self.block, self.target):
            found.append([(self.where(u.operation), u.index) for u in block.uses])
        for op in self.ops:
            found.append(
                (
                    op.parent is self.block,
                    op.parent is None,
                    self.where(op._prev_op),  # pyright: ignore[reportPrivateUsage]
                    self.where(op._next_op),  # pyright: ignore[reportPrivateUsage]
                    len(op._operand_uses),  # pyright: ignore[reportPrivateUsage]
                    len(op.successors),
                    len(op._successor_uses),  # pyright: ignore[reportPrivateUsage]
                    [type(v).__name__ for v in op.operands],
                )
            )
        return found


def _edits(ir: _IR) -> list[Any]:
    """Erase ops every way xDSL offers, with and without uses left, and
    insert new ones at the start, the middle and after an erasure."""
    ops, block = ir.ops, ir.block
    states: list[Any] = [ir.state()]
    first = test.TestOp([ops[0].results[0]], result_types=[i32])
    block.insert_op_before(first, ops[0])
    ir.ops.append(first)
    states.append(ir.state())
    middle = test.TestOp([ops[3].results[1]], result_types=[i32])
    block.insert_op_before(middle, ops[5])
    ir.ops.append(middle)
    states.append(ir.state())
    Rewriter.erase_op(ops[7])  # the last op: no uses
    states.append(ir.state())
    Rewriter.erase_op(ops[6], safe_erase=False)  # the one with a successor
    states.append(ir.state())
    block.detach_op(ops[1])
    states.append(ir.state())
    ops[1].erase(safe_erase=False)
    states.append(ir.state())
    block.erase_op(ops[5], safe_erase=False)  # the op with a region, used
    states.append(ir.state())
    block.erase_op(first)
    block.erase_op(ops[0], safe_erase=False)  # the first op
    states.append(ir.state())
    named = test.TestOp([block.args[1]], result_types=[i32, i32])
    named.results[0].name_hint = "kept"
    block.insert_op_before(named, ops[2])
    ir.ops.append(named)
    block.erase_op(named)
    states.append(ir.state())
    return states


def test_erasing_and_inserting_ops_is_xdsls(
    patched: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = _edits(_IR())
    _as_xdsl(monkeypatch)
    assert ours == _edits(_IR())


def _errors() -> list[str]:
    ir = _IR()
    other = Block()
    found: list[str] = []
    calls: list[Callable[[], object]] = [
        lambda: other.detach_op(ir.ops[0]),
        lambda: other.insert_op_before(test.TestOp(), ir.ops[0]),
        lambda: ir.ops[0].erase(),
        lambda: ir.block.insert_op_before(ir.ops[1], ir.ops[2]),
    ]
    for call in calls:
        with pytest.raises((ValueError, AssertionError)) as raised:
            call()
        found.append(f"{raised.type.__name__}: {raised.value}")
    return found


def test_errors_are_xdsls(patched: None, monkeypatch: pytest.MonkeyPatch) -> None:
    ours = _errors()
    _as_xdsl(monkeypatch)
    assert ours == _errors()


def _replaced() -> list[Any]:
    """A rewriter replacing values (one by itself, one by `None`): the
    ops it tells its listener of, in order, and the IR after."""
    ir = _IR()
    told: list[int | None] = []
    rewriter = PatternRewriter(ir.ops[0])
    rewriter.operation_modification_handler.append(lambda op: told.append(ir.where(op)))
    found: list[Any] = []
    for old, new in (
        (ir.ops[2].results[0], ir.ops[2].results[0]),
        (ir.ops[2].results[0], ir.block.args[1]),
        (ir.ops[0].results[0], ir.ops[3].results[0]),
        (ir.ops[3].results[1], None),
        (ir.ops[5].results[0], ir.block.args[0]),
        (ir.ops[7].results[0], ir.block.args[0]),
    ):
        rewriter.has_done_action = False
        rewriter.replace_all_uses_with(old, new, safe_erase=False)
        found.append((rewriter.has_done_action, list(told), ir.state()))
        told.clear()
    return found


def test_rewriter_replacing_uses_is_xdsls(
    patched: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = _replaced()
    _as_xdsl(monkeypatch)
    assert ours == _replaced()
    assert ours[1][1] == [6, 3]  # last use first


def _erased_names() -> list[str]:
    """An unused result whose name was set without the setter's check (as
    `Builder` sets it): xDSL's erasure rejects some names, and still must."""
    found: list[str] = []
    for name in ("kept", "1", "kept", "", "foo bar", "x_0"):
        op = test.TestOp(result_types=[i32, i32])
        op.results[1]._name = name  # pyright: ignore[reportPrivateUsage]
        try:
            op.erase()
            found.append(f"{name}: erased")
        except ValueError as e:
            found.append(f"{name}: {e}")
    return found


def test_erasing_results_with_odd_names_is_xdsls(
    patched: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = _erased_names()
    _as_xdsl(monkeypatch)
    monkeypatch.setattr(SSAValue, "erase", driver.XDSL_SSA_VALUE_ERASE)
    assert ours == _erased_names()
    assert "1: erased" not in ours


class _Counted(Operation):
    """An op base whose `__post_init__` comes after `IRDLOperation`'s."""

    SEEN: ClassVar[list[str]] = []

    def __post_init__(self) -> None:
        _Counted.SEEN.append(self.name)
        super().__post_init__()


@irdl_op_definition
class _CountedOp(IRDLOperation, _Counted):
    name = "test.counted"


@irdl_op_definition
class _NamelessOp(IRDLOperation):
    name = "test.nameless"


def _post_inits() -> list[str]:
    """What `__post_init__` does after the defaults: a base's own method runs,
    `Operation`'s check of an empty name still fails, and ops built inside an
    `ImplicitBuilder` are inserted."""
    _Counted.SEEN.clear()
    _CountedOp()
    _CountedOp()
    found = list(_Counted.SEEN)
    _NamelessOp()
    _NamelessOp.name = ""
    try:
        _NamelessOp()
        found.append("built")
    except AssertionError:
        found.append("AssertionError")
    finally:
        _NamelessOp.name = "test.nameless"
    block = Block()
    with ImplicitBuilder(block):  # replaces `Operation.__post_init__` meanwhile
        _NamelessOp()
        _CountedOp()
    found.extend(op.name for op in block.ops)
    found.extend(_Counted.SEEN)
    return found


def test_post_init_runs_what_xdsl_runs(
    patched: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = _post_inits()
    monkeypatch.setattr(
        IRDLOperation, "__post_init__", xdsl_patches_building.XDSL_IRDL_POST_INIT
    )
    assert ours == _post_inits()
    assert ours == [
        "test.counted",
        "test.counted",
        "AssertionError",
        "test.nameless",
        "test.counted",
        "test.counted",
        "test.counted",
        "test.counted",
    ]


def test_built_ops_link_uses_as_xdsl(
    patched: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Operation.__init__` linking each operand's use in itself: the same use
    lists, both ways, as xDSL's `add_use`."""
    ours = _IR().state()
    monkeypatch.setattr(
        Operation, "__init__", xdsl_patches_building.XDSL_OPERATION_INIT
    )
    assert ours == _IR().state()


def _inserted() -> list[Any]:
    """Ops inserted by a builder and a rewriter at the end of a block, before
    an op, several at once, none, with a name hint, and one inside an
    implicit builder: the IR, the callbacks' ops, the results, the error."""
    ir = _IR()
    told: list[int | None] = []
    builder = Builder(InsertPoint.at_end(ir.block))
    builder.operation_insertion_handler.append(lambda op: told.append(ir.where(op)))
    rewriter = PatternRewriter(ir.ops[2])
    rewriter.operation_insertion_handler.append(lambda op: told.append(ir.where(op)))
    found: list[Any] = []

    def new(results: int = 1) -> Operation:
        op = test.TestOp([ir.block.args[0]], [i32] * results)
        ir.ops.append(op)
        return op

    one = new()
    found.append(builder.insert(one) is one)
    many = [new(), new(2)]
    found.append(builder.insert(many, InsertPoint.before(ir.ops[3])) is many)
    found.append(builder.insert(()))
    builder.name_hint = "hinted"
    named = [new(2)]
    named[0].results[1].name_hint = "own"
    builder.insert(named, InsertPoint.before(ir.ops[0]))
    rewriter.has_done_action = False
    found.append(rewriter.insert(new()) is ir.ops[-1])
    found.append(rewriter.has_done_action)
    rewriter.insert([new(), new()], InsertPoint.at_end(ir.block))
    with ImplicitBuilder(Builder(InsertPoint.at_end(ir.block))):
        with pytest.raises(ValueError) as raised:
            builder.insert(new())
    found.append(str(raised.value))
    found.append([r.name_hint for op in ir.ops for r in op.results])
    found.append(told)
    found.append(ir.state())
    return found


def test_inserting_is_xdsls(patched: None, monkeypatch: pytest.MonkeyPatch) -> None:
    ours = _inserted()
    _as_xdsl(monkeypatch)
    assert ours == _inserted()
    assert "hinted" in ours[-3] and "own" in ours[-3]


def _got(get: Callable[..., SSAValue]) -> list[str]:
    """`SSAValue.get` of values, ops and others, with and without a type."""
    ir = _IR()
    found: list[str] = []
    for arg, kind in (
        (ir.block.args[0], None),
        (ir.ops[3].results[1], None),
        (ir.ops[0], None),
        (ir.ops[3], None),
        (ir.block, None),
        (ir.block.args[0], IntegerType),
        (ir.ops[0], IntegerType),
        (ir.block.args[0], IndexType),
    ):
        try:
            value = get(arg) if kind is None else get(arg, type=kind)
            values = ir.values()
            found.append(f"{values.index(value)}" if value in values else repr(value))
        except ValueError as e:
            found.append(f"ValueError: {e}")
    return found


def test_getting_values_is_xdsls(patched: None) -> None:
    ours = _got(SSAValue.get)
    assert ours == _got(driver.XDSL_SSA_VALUE_GET)
    assert ours[:3] == ["0", "6", "2"]
    assert SSAValue.get is driver.ssa_value_get


def test_points_before_ops_are_xdsls(patched: None) -> None:
    """`InsertPoint.before` gives an equal point, with the same fields, or
    xDSL's error for an op outside any block."""
    ir = _IR()
    theirs = driver.XDSL_UNLINK_METHODS[InsertPoint, "before"].__func__
    for op in ir.ops:
        if op.parent is None:
            continue
        ours = InsertPoint.before(op)
        assert ours == theirs(op) and hash(ours) == hash(theirs(op))
        assert (ours.block, ours.insert_before) == (op.parent, op)
    for before in (InsertPoint.before, theirs):
        with pytest.raises(ValueError, match="must have a parent block"):
            before(test.TestOp())
    inner = ir.ops[4]
    assert InsertPoint.before(inner) == theirs(inner) != InsertPoint.before(ir.ops[5])


class _OwnRewriter(PatternRewriter):
    """A rewriter class `rewriter_replace` does not know: xDSL's `replace`."""


def _replacements(kind: type[PatternRewriter]) -> list[Any]:
    """`PatternRewriter.replace` every way a pattern calls it (one op, several,
    none, with given results, `None`s, a value replaced by itself, names from
    the old results and from the builder), then its errors: the IR, the names
    and every listener call after each."""
    ir = _IR()
    told: list[Any] = []
    rewriter = kind(ir.ops[0])
    rewriter.operation_insertion_handler.append(
        lambda op: told.append(("insert", ir.where(op)))
    )
    rewriter.operation_replacement_handler.append(
        lambda op, new: told.append(
            ("replace", ir.where(op), [None if v is None else v.name_hint for v in new])
        )
    )
    rewriter.operation_modification_handler.append(
        lambda op: told.append(("modify", ir.where(op)))
    )
    rewriter.operation_removal_handler.append(
        lambda op: told.append(("remove", ir.where(op)))
    )
    found: list[Any] = []

    def new(results: int = 1, name: str | None = None) -> Operation:
        op = test.TestOp([ir.block.args[0]], [i32] * results)
        op.results[0].name_hint = name
        ir.ops.append(op)
        return op

    def step(*args: Any, **kwargs: Any) -> None:
        rewriter.has_done_action = False
        try:
            rewriter.replace(*args, **kwargs)
        except (ValueError, AssertionError) as e:
            found.append(f"{type(e).__name__}: {e}")
        found.append(rewriter.has_done_action)
        found.append([r.name_hint for op in ir.ops for r in op.results])
        found.append([a.name_hint for a in ir.block.args])
        found.append(list(told))
        found.append(ir.state())
        told.clear()

    ir.ops[2].results[0].name_hint = "e"
    ir.ops[3].results[0].name_hint = "fa"
    ir.ops[7].results[0].name_hint = "z"
    step(ir.ops[2], new())
    step(ir.ops[3], [new(), new(2, "own")])
    step(ir.ops[7], [], [ir.block.args[0]])
    step(ir.ops[1], [], [None], safe_erase=False)
    step(ir.ops[0], [], [ir.ops[0].results[0]], safe_erase=False)
    rewriter.name_hint = "builder"
    step(ir.ops[8], [new(), new(2)])
    rewriter.name_hint = None
    step(ir.ops[-1], [new(name="x"), new(2)], [ir.ops[-2].results[0]])
    step(ir.ops[6], new(), safe_erase=False)
    step(test.TestOp(), [])  # outside any block
    step(test.TestOp(), new())
    blank = new()
    blank.results[0]._name = ""  # pyright: ignore[reportPrivateUsage]
    step(ir.ops[5], [new(), blank])  # unnamed: the blank name becomes None
    step(ir.ops[-1], new(2))  # two results for one
    step(ir.ops[4], [], [])
    with ImplicitBuilder(Builder(InsertPoint.at_end(ir.target))):
        step(ir.ops[-2], new())
        step(ir.ops[-3], [], [ir.block.args[1]], safe_erase=False)
    return found


@pytest.mark.parametrize("kind", [PatternRewriter, WalkRewriter, _OwnRewriter])
def test_replacing_ops_is_xdsls(
    patched: None, monkeypatch: pytest.MonkeyPatch, kind: type[PatternRewriter]
) -> None:
    assert PatternRewriter.replace is driver.rewriter_replace
    ours = _replacements(kind)
    _as_xdsl(monkeypatch)
    assert ours == _replacements(kind)
    assert any("parent block" in str(x) for x in ours)
    assert any("Expected 1 new results, but got 2" in str(x) for x in ours)
    assert any("implicit builder" in str(x) for x in ours)
