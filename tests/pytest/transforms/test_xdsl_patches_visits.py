"""The pattern walker's planned visits, `cse`'s effect kinds and key hash, and
the cheap erase of a value without uses (`xhip.transforms.xdsl_patches_visits`,
`xdsl_patches_cse`, `xdsl_patches_driver.ssa_value_erase`) and the defaults
an op is built with (`xdsl_patches_building`) change no result.

Each test compares with xDSL's own functions, kept by the patch modules as
`XDSL_*`; `test_xdsl_patches_cached.test_pipeline_gives_xdsl_output` compares
every stage of the pipeline with all of them put back.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects import arith, memref, test
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import ErasedSSAValue, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.printer import Printer
from xdsl.traits import MemoryEffectKind, get_effects, has_effects
from xdsl.transforms import common_subexpression_elimination as cse_module
from xdsl.transforms.common_subexpression_elimination import CSEDriver, OperationInfo

from xhip.context import make_context
from xhip.pipeline import onnx_to_hip_passes
from xhip.testing import parse_module
from xhip.transforms import (
    xdsl_patches,
    xdsl_patches_building,
    xdsl_patches_cse,
    xdsl_patches_driver,
    xdsl_patches_visits,
)
from xhip.transforms.typed_patterns import TypedPatternApplier
from xhip.universe import XDSL_UNIVERSE

from .test_compile_complexity import attention_layers
from .test_xdsl_patches_cached import DEAD_CODE, WALKED, patched, restore_xdsl

__all__ = ["patched"]  # the fixture, used by name


def _text(module: ModuleOp) -> str:
    stream = io.StringIO()
    Printer(stream).print_op(module)
    return stream.getvalue()


def _stage_modules(tmp_dir: str) -> Iterator[ModuleOp]:
    """A copy of the module after each stage of `onnx-to-hip` on one layer."""
    ctx = make_context()
    module = parse_module(attention_layers(1))
    for p in onnx_to_hip_passes(externalize_output_dir=tmp_dir):
        p.apply(ctx, module)
        yield module.clone()


class _AddiToSub(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, arith.SubiOp(op.lhs, op.rhs))


def _calls(pattern: RewritePattern, text: str) -> tuple[list[str], str]:
    """The ops the walker hands `pattern`, and the IR it leaves."""
    called: list[str] = []
    own = pattern.match_and_rewrite

    def counted(op: Operation, rewriter: PatternRewriter) -> None:
        called.append(op.name)
        own(op, rewriter)

    module = parse_module(text)
    setattr(pattern, "match_and_rewrite", counted)  # noqa: B010 (the class's stays planned)
    PatternRewriteWalker(pattern).rewrite_module(module)
    return called, _text(module)


ADDS = """
func.func @f(%a : i32, %m : memref<i32>) -> i32 {
  %b = arith.addi %a, %a : i32
  %unused = arith.muli %a, %a : i32
  %c = arith.muli %b, %a : i32
  memref.store %c, %m[] : memref<i32>
  func.return %c : i32
}
"""


def test_walker_skips_only_the_visits_that_do_nothing(patched: None) -> None:
    """An applier of one `arith.addi` pattern is handed the adds and the
    unused pure op (which it erases), not the used ops it can do nothing to;
    a pattern the walker does not know is handed every op; the IR is what
    xDSL's loop leaves."""
    called, ours = _calls(GreedyRewritePatternApplier([_AddiToSub()]), ADDS)
    assert called == ["arith.addi", "arith.muli"]
    assert "arith.subi" in ours and "%unused" not in ours

    class _Any(RewritePattern):
        def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
            pass

    called, _ = _calls(_Any(), ADDS)
    assert len(called) == 6  # the function and its five ops

    typed, _ = _calls(TypedPatternApplier([_AddiToSub()], dce_enabled=False), ADDS)
    assert typed == ["arith.addi"]
    PatternRewriteWalker._process_worklist = xdsl_patches_visits.XDSL_PROCESS_WORKLIST  # pyright: ignore[reportPrivateUsage]
    try:
        theirs = _calls(GreedyRewritePatternApplier([_AddiToSub()]), ADDS)[1]
    finally:
        xdsl_patches_visits.plan_walker_visits()
    assert ours == theirs


def _canonicalized_and_cse(text: str) -> str:
    module = parse_module(text)
    ctx = make_context()
    for name in ("canonicalize", "cse", "canonicalize"):
        XDSL_UNIVERSE.all_passes[name]()().apply(ctx, module)
    return _text(module)


READS = """
func.func @f(%m : memref<4xi32>, %i : index, %c : i1) -> i32 {
  %x = memref.load %m[%i] : memref<4xi32>
  %y = memref.load %m[%i] : memref<4xi32>
  memref.store %x, %m[%i] : memref<4xi32>
  %z = memref.load %m[%i] : memref<4xi32>
  %w = memref.load %m[%i] : memref<4xi32>
  %s = arith.addi %x, %y : i32
  %t = arith.addi %z, %w : i32
  %u = arith.addi %x, %y : i32
  %r = scf.if %c -> (i32) {
    %v = arith.addi %x, %y : i32
    scf.yield %v : i32
  } else {
    scf.yield %t : i32
  }
  %q = arith.addi %r, %u : i32
  %p = arith.addi %q, %s : i32
  func.return %p : i32
}
"""


@pytest.mark.parametrize("text", [READS, DEAD_CODE, WALKED, ADDS], ids=str.split)
def test_canonicalize_and_cse_leave_what_xdsl_leaves(
    patched: None, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reads merged up to a write, pure ops inside and outside a region, dead
    code: the same IR with the patches and with xDSL's own functions."""
    ours = _canonicalized_and_cse(text)
    restore_xdsl(monkeypatch)
    assert ours == _canonicalized_and_cse(text)


def test_pipeline_stages_canonicalize_and_cse_as_xdsl(
    patched: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`canonicalize` and `cse` on the module after every stage of the
    pipeline: the same IR with the patches and with xDSL's."""
    texts = [_text(m) for m in _stage_modules(str(tmp_path))]
    ours = [_canonicalized_and_cse(t) for t in texts]
    restore_xdsl(monkeypatch)
    assert ours == [_canonicalized_and_cse(t) for t in texts]


def test_effect_kinds_are_the_kinds_of_xdsl_effects(
    patched: None, tmp_path: Path
) -> None:
    """`effect_kinds` (per class, or a compute op's hook) against the kinds of
    xDSL's `get_effects`, and `has_effect_kind` against `has_effects`, for
    every op of every stage, twice; and `cse`'s queries built on it."""
    ops = [op for m in _stage_modules(str(tmp_path)) for op in m.walk()]
    for _ in range(2):
        for op in ops:
            effects = get_effects(op)
            expected = None if effects is None else {e.kind for e in effects}
            kinds = xdsl_patches.effect_kinds(op)
            assert (None if kinds is None else set(kinds)) == expected, op.name
            assert kinds is None or len(set(kinds)) == len(kinds), op.name
            for kind in MemoryEffectKind:
                assert xdsl_patches.has_effect_kind(op, kind) == has_effects(
                    op, kind
                ), (op.name, kind)
            for name, function in xdsl_patches.XDSL_CSE_EFFECTS.items():
                if name != "get_effects":
                    ours = getattr(cse_module, name)
                    args: tuple[Any, ...] = (
                        (op,)
                        if name == "is_side_effect_free"
                        else (op, MemoryEffectKind.READ)
                    )
                    assert ours(*args) == function(*args), (op.name, name)


def test_operation_info_hash_is_xdsl_hash(patched: None, tmp_path: Path) -> None:
    """The cheaper `OperationInfo.__hash__` gives xDSL's number for every op
    of every stage (`cse` compares the numbers in `__eq__`)."""
    for module in _stage_modules(str(tmp_path)):
        for op in module.walk():
            info = OperationInfo(op)
            assert hash(info) == xdsl_patches_cse.XDSL_OPERATION_INFO_HASH(info)
    assert CSEDriver._simplify_operation is xdsl_patches_cse.simplify_operation  # pyright: ignore[reportPrivateUsage]


def _erased(erase: Callable[..., None], name: str | None, used: bool) -> str:
    """What erasing a result does: the error, or the use's new operand."""
    op = arith.ConstantOp.from_int_and_width(1, i32)
    value = op.results[0]
    value._name = name  # pyright: ignore[reportPrivateUsage]  # as `Builder.insert` sets it
    user = test.TestOp([value]) if used else None
    try:
        erase(value, safe_erase=not used)
    except (ValueError, AssertionError) as error:
        return f"{type(error).__name__}: {error}"
    if user is None:
        return f"{value.first_use} {value.name_hint}"
    new = user.operands[0]
    assert isinstance(new, ErasedSSAValue) and new.old_value is value
    return f"{new.name_hint} {value.first_use}"


@pytest.mark.parametrize("name", [None, "x", "x_1", "", "_1"])
@pytest.mark.parametrize("used", [False, True])
def test_erasing_a_value_does_what_xdsl_does(
    patched: None, name: str | None, used: bool
) -> None:
    """A value without uses is left as xDSL leaves it, one named `""` (from a
    hint `_1`) raises as xDSL's, twice (the second from the kept names), and
    one with uses gets xDSL's `ErasedSSAValue`."""
    assert SSAValue.erase is xdsl_patches_driver.ssa_value_erase  # pyright: ignore[reportUnknownMemberType]
    ours = [_erased(xdsl_patches_driver.ssa_value_erase, name, used) for _ in "12"]
    theirs = _erased(xdsl_patches_driver.XDSL_SSA_VALUE_ERASE, name, used)
    assert ours == [theirs, theirs]
    if name == "" and not used:
        assert theirs.startswith("ValueError")


def _defaults_filled(
    post_init: Callable[[Any], None], cls: type[IRDLOperation], given: str
) -> str:
    """The properties and attributes `post_init` leaves on a bare op of
    `cls` given one property or attribute (named `given`) already."""
    op = object.__new__(cls)
    op.properties = {given: i32} if given else {}
    op.attributes = {given: i32} if given else {}
    post_init(op)
    return f"{list(op.properties.items())} {list(op.attributes.items())}"


def test_default_properties_filled_as_xdsl(patched: None, tmp_path: Path) -> None:
    """Every op class of every stage and a few with defaults: the same
    properties and attributes filled in, in the same order, as xDSL's
    `IRDLOperation.__post_init__`, with and without one already given."""
    classes = {type(op) for m in _stage_modules(str(tmp_path)) for op in m.walk()}
    classes |= {arith.AddiOp, arith.ConstantOp, memref.AllocOp, memref.SubviewOp}
    ours, theirs = (
        xdsl_patches_building._irdl_post_init,  # pyright: ignore[reportPrivateUsage]
        xdsl_patches_building.XDSL_IRDL_POST_INIT,
    )
    filled = 0
    for cls in classes:
        if not issubclass(cls, IRDLOperation):
            continue
        op_def = cls.get_irdl_definition()
        for given in ("", *op_def.properties, *op_def.attributes):
            expected = _defaults_filled(theirs, cls, given)
            assert _defaults_filled(ours, cls, given) == expected, (cls.name, given)
            filled += expected != "[] []"
    assert filled > 0
    assert IRDLOperation.__post_init__ is ours
