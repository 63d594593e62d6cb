"""The per-class caches of `xhip.transforms.xdsl_patches` change no result.

xDSL answers an op's traits, whether an unused op can go, its canonicalization
patterns and its builder's argument groups afresh on every call; the patches
keep each answer per op class (or per value). Each test compares against
xDSL's own functions, kept by the patch module as `XDSL_*`, never against a
recorded output.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from xdsl.dialects import arith, func, test
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, f32, i1, i32
from xdsl.ir import Operation, OpTraits
from xdsl.irdl import AnyAttr
from xdsl.irdl import operations as irdl_operations
from xdsl.printer import Printer
from xdsl.traits import (
    ConstantLike,
    HasCanonicalizationPatternsTrait,
    HasFolder,
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    OpTrait,
    Pure,
    SymbolOpInterface,
    get_effects,
    has_effects,
)
from xdsl.transforms import common_subexpression_elimination as cse_module
from xdsl.transforms import dead_code_elimination
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern

from xhip.context import make_context
from xhip.dialects.hip import HIP, HipDPSOp
from xhip.pipeline import onnx_to_hip_passes
from xhip.testing import parse_module
from xhip.transforms import xdsl_patches
from xhip.universe import XDSL_UNIVERSE

from .test_compile_complexity import attention_layers

TRAIT_TYPES: tuple[type[OpTrait], ...] = (
    MemoryEffect,
    IsTerminator,
    SymbolOpInterface,
    HasFolder,
    ConstantLike,
    IsolatedFromAbove,
    HasCanonicalizationPatternsTrait,
    Pure,
)


def restore_xdsl(monkeypatch: pytest.MonkeyPatch) -> None:
    """Put xDSL's own functions back for the rest of the test."""
    monkeypatch.setattr(
        Operation, "get_trait", classmethod(xdsl_patches.XDSL_GET_TRAIT)
    )
    monkeypatch.setattr(
        Operation,
        "get_traits_of_type",
        classmethod(xdsl_patches.XDSL_GET_TRAITS_OF_TYPE),
    )
    monkeypatch.setattr(OpTraits, "add_trait", xdsl_patches.XDSL_ADD_TRAIT)
    monkeypatch.setattr(
        dead_code_elimination,
        "would_be_trivially_dead",
        xdsl_patches.XDSL_WOULD_BE_TRIVIALLY_DEAD,
    )
    monkeypatch.setattr(
        CanonicalizationRewritePattern,
        "match_and_rewrite",
        xdsl_patches.XDSL_CANONICALIZE_OP,
    )
    monkeypatch.setattr(
        irdl_operations, "irdl_build_arg_list", xdsl_patches.XDSL_BUILD_ARG_LIST
    )
    monkeypatch.setattr(
        DenseArrayBase, "from_list", staticmethod(xdsl_patches.XDSL_FROM_LIST)
    )
    for name, function in xdsl_patches.XDSL_CSE_EFFECTS.items():
        monkeypatch.setattr(cse_module, name, function)


@pytest.fixture
def patched() -> Iterator[None]:
    xdsl_patches.cache_op_traits()
    xdsl_patches.cache_dead_code_checks()
    xdsl_patches.cache_canonicalization_patterns()
    xdsl_patches.cache_op_building()
    xdsl_patches.cache_cse_effects()
    yield


def _stages(layers: int, tmp_dir: str) -> list[str]:
    """The IR after each of the 21 passes, printed."""
    ctx = make_context()
    module = parse_module(attention_layers(layers))
    texts: list[str] = []
    for p in onnx_to_hip_passes(externalize_output_dir=tmp_dir):
        p.apply(ctx, module)
        texts.append(_text(module))
    return texts


def _text(module: ModuleOp) -> str:
    # lazy: io only for printing
    import io

    stream = io.StringIO()
    Printer(stream).print_op(module)
    return stream.getvalue()


def test_pipeline_gives_xdsl_output(
    patched: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every stage of `onnx-to-hip`, with the caches and with xDSL's own."""
    ours = _stages(2, str(tmp_path / "ours"))
    restore_xdsl(monkeypatch)
    assert ours == _stages(2, str(tmp_path / "xdsl"))


def _ops_of_every_stage(tmp_dir: str) -> list[Operation]:
    ctx = make_context()
    module = parse_module(attention_layers(1))
    ops: list[Operation] = []
    for p in onnx_to_hip_passes(externalize_output_dir=tmp_dir):
        p.apply(ctx, module)
        ops.extend(module.clone().walk())
    return ops


def test_dead_code_checks_give_xdsl_answers(patched: None, tmp_path: Path) -> None:
    """Each op of every stage (tensor- and memref-mode hip ops, allocations,
    terminators, symbols), asked twice so the cached answer is checked too."""
    ops = _ops_of_every_stage(str(tmp_path))
    assert {type(op).name for op in ops} >= {
        "hip.miopen.softmax",
        "memref.alloc",
        "memref.dealloc",
        "func.return",
        "func.func",
        "arith.constant",
    }
    for _ in range(2):
        for op in ops:
            assert dead_code_elimination.would_be_trivially_dead(
                op
            ) == xdsl_patches.XDSL_WOULD_BE_TRIVIALLY_DEAD(op), op.name


def test_effects_give_xdsl_answers(tmp_path: Path) -> None:
    """`cached_get_effects` (`cse`'s) and `has_effect_kind` (the deallocation
    passes' `allocates` and `frees`) against xDSL's `get_effects` and
    `has_effects`, for every op of every stage, twice."""
    ops = _ops_of_every_stage(str(tmp_path))
    for _ in range(2):
        for op in ops:
            assert xdsl_patches.cached_get_effects(op) == get_effects(op), op.name
            for kind in MemoryEffectKind:
                assert xdsl_patches.has_effect_kind(op, kind) == has_effects(
                    op, kind
                ), (op.name, kind)


def test_trait_lookups_give_xdsl_answers(patched: None, tmp_path: Path) -> None:
    classes = {type(op) for op in _ops_of_every_stage(str(tmp_path))}
    for cls in classes:
        for trait in TRAIT_TYPES:
            assert cls.get_trait(trait) is xdsl_patches.XDSL_GET_TRAIT(cls, trait)
            assert cls.get_traits_of_type(
                trait
            ) == xdsl_patches.XDSL_GET_TRAITS_OF_TYPE(cls, trait)
            assert cls.has_trait(trait) == (
                xdsl_patches.XDSL_GET_TRAIT(cls, trait) is not None
            )


def test_adding_a_trait_is_seen(patched: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """`OpTraits.add_trait` after a lookup: the next lookup sees the trait."""
    op = test.TestOp()
    assert not test.TestOp.has_trait(IsTerminator)
    assert dead_code_elimination.would_be_trivially_dead(op) is False
    monkeypatch.setattr(test.TestOp, "traits", OpTraits(lambda: ()))
    test.TestOp.traits.add_trait(Pure())
    assert test.TestOp.has_trait(Pure)
    assert dead_code_elimination.would_be_trivially_dead(op) is True


def test_canonicalization_patterns_built_once(
    patched: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The patterns of a class come from its traits once, however many of its
    ops are visited."""
    calls = 0
    traits = arith.AddiOp.get_traits_of_type(HasCanonicalizationPatternsTrait)
    assert len(traits) == 1
    trait_type = type(traits[0])
    own = trait_type.get_canonicalization_patterns

    def counted(cls: object) -> tuple[object, ...]:
        nonlocal calls
        calls += 1
        return own()

    monkeypatch.setattr(
        trait_type, "get_canonicalization_patterns", classmethod(counted)
    )
    monkeypatch.setattr(xdsl_patches, "_CANONICALIZERS", {})
    module = parse_module(
        "func.func @f(%a : i32) -> i32 {\n  %x0 = arith.addi %a, %a : i32\n"
        + "".join(f"  %x{i + 1} = arith.addi %x{i}, %a : i32\n" for i in range(20))
        + "  func.return %x20 : i32\n}\n"
    )
    XDSL_UNIVERSE.all_passes["canonicalize"]()().apply(make_context(), module)
    assert calls == 1


def test_builder_gives_xdsl_groups_and_errors(patched: None) -> None:
    """Operands, results and their segment sizes as xDSL builds them, and
    xDSL's message for a bad argument."""
    c = arith.ConstantOp.from_int_and_width(1, i1)
    x = arith.ConstantOp.from_int_and_width(2, i32)
    defs = [
        ("a", irdl_operations.VarOperandDef(AnyAttr())),
        ("b", irdl_operations.OperandDef(AnyAttr())),
        ("c", irdl_operations.OptOperandDef(AnyAttr())),
    ]
    for args in (
        [[c.result, x.result], x.result, None],
        [(), [x.result], [c.result]],
        [[], x.result, c.result],
        [[], x, []],
    ):
        assert xdsl_patches._build_arg_list(  # pyright: ignore[reportPrivateUsage]
            irdl_operations.VarIRConstruct.OPERAND, args, defs
        ) == xdsl_patches.XDSL_BUILD_ARG_LIST(
            irdl_operations.VarIRConstruct.OPERAND, args, defs
        )
    for bad in ([[], None, None], [[], [x, x], []], [[]], [[], x, [x, x]]):
        with pytest.raises(ValueError) as ours:
            xdsl_patches._build_arg_list(  # pyright: ignore[reportPrivateUsage]
                irdl_operations.VarIRConstruct.OPERAND, bad, defs, "p: "
            )
        with pytest.raises(ValueError) as theirs:
            xdsl_patches.XDSL_BUILD_ARG_LIST(
                irdl_operations.VarIRConstruct.OPERAND, bad, defs, "p: "
            )
        assert str(ours.value) == str(theirs.value)
    ret = func.ReturnOp(c, x)
    assert list(ret.operands) == [c.result, x.result]


def test_integer_arrays_shared_and_equal(patched: None) -> None:
    a = DenseArrayBase.from_list(i32, [1, 0, 2])
    assert a is DenseArrayBase.from_list(i32, (1, 0, 2))
    assert a == xdsl_patches.XDSL_FROM_LIST(i32, [1, 0, 2])
    floats = DenseArrayBase.from_list(f32, [0.0, -0.0])
    assert floats == xdsl_patches.XDSL_FROM_LIST(f32, [0.0, -0.0])
    assert DenseArrayBase.from_list(f32, [-0.0]) != DenseArrayBase.from_list(f32, [0.0])


def test_looking_up_a_pass_applies_the_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    restore_xdsl(monkeypatch)
    XDSL_UNIVERSE.all_passes["canonicalize"]()
    assert (
        dead_code_elimination.would_be_trivially_dead
        is not xdsl_patches.XDSL_WOULD_BE_TRIVIALLY_DEAD
    )
    assert (
        CanonicalizationRewritePattern.match_and_rewrite
        is not xdsl_patches.XDSL_CANONICALIZE_OP
    )
    assert irdl_operations.irdl_build_arg_list is not xdsl_patches.XDSL_BUILD_ARG_LIST
    assert cse_module.get_effects is xdsl_patches.cached_get_effects  # pyright: ignore[reportPrivateImportUsage]
    assert Operation.get_trait.__func__ is not xdsl_patches.XDSL_GET_TRAIT  # pyright: ignore[reportFunctionMemberAccess]


def test_hip_outs_are_the_last_group() -> None:
    """`DestinationStyleEffects.result_only_effects` reads `outs` as the last
    operand group, as `HipDPSOp.__init__` builds every compute op."""
    classes = [
        op for op in HIP.operations if issubclass(op, HipDPSOp) and op is not HipDPSOp
    ]
    assert len(classes) > 50
    for cls in classes:
        assert cls.get_irdl_definition().operands[-1][0] == "outputs", cls.name
