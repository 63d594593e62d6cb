"""The per-class caches of `xhip.transforms.xdsl_patches` change no result.

xDSL answers an op's traits, whether an unused op can go, its canonicalization
patterns and its builder's argument groups afresh on every call; the patches
keep each answer per op class (or per value). Each test compares against
xDSL's own functions, kept by the patch module as `XDSL_*`, never against a
recorded output.
"""

from __future__ import annotations

import random
from abc import ABC, ABCMeta
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
import xdsl.irdl as irdl_package
from xdsl import traits as traits_module
from xdsl.dialects import arith, func, memref, scf, test
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    IRWithName,
    Operation,
    OpTraits,
    Region,
    SSAValue,
    SSAValues,
)
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_result_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl import operations as irdl_operations
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
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
from xdsl.transforms import canonicalize as canonicalize_module
from xdsl.transforms import common_subexpression_elimination as cse_module
from xdsl.transforms import dead_code_elimination
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xdsl.utils.worklist import Worklist

from xhip.context import make_context
from xhip.dialects.hip import HIP, HipDPSOp
from xhip.pipeline import onnx_to_hip_passes
from xhip.testing import parse_module
from xhip.transforms import (
    xdsl_patches,
    xdsl_patches_building,
    xdsl_patches_cse,
    xdsl_patches_driver,
    xdsl_patches_visits,
)
from xhip.universe import XDSL_UNIVERSE

from .test_compile_complexity import attention_layers

_T = TypeVar("_T")

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
    monkeypatch.setattr(
        Operation, "has_trait", classmethod(xdsl_patches.XDSL_HAS_TRAIT)
    )
    monkeypatch.setattr(OpTraits, "add_trait", xdsl_patches.XDSL_ADD_TRAIT)
    monkeypatch.setattr(
        irdl_operations,
        "verify_variadic_size",
        xdsl_patches.XDSL_VERIFY_VARIADIC_SIZE,
    )
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
        dead_code_elimination, "region_dce", xdsl_patches.XDSL_REGION_DCE
    )
    for module in (dead_code_elimination, cse_module):
        monkeypatch.setattr(
            module, "is_trivially_dead", xdsl_patches.XDSL_IS_TRIVIALLY_DEAD
        )
    monkeypatch.setattr(canonicalize_module, "region_dce", xdsl_patches.XDSL_REGION_DCE)
    monkeypatch.setattr(
        irdl_operations,
        "irdl_build_arg_list",
        xdsl_patches_building.XDSL_BUILD_ARG_LIST,
    )
    monkeypatch.setattr(
        irdl_operations, "irdl_op_init", xdsl_patches_building.XDSL_IRDL_OP_INIT
    )
    monkeypatch.setattr(
        Operation, "__init__", xdsl_patches_building.XDSL_OPERATION_INIT
    )
    monkeypatch.setattr(IRWithName, "name_hint", xdsl_patches_building.XDSL_NAME_HINT)
    monkeypatch.setattr(Block, "_attach_op", xdsl_patches_building.XDSL_ATTACH_OP)
    monkeypatch.setattr(
        SSAValue,
        "replace_all_uses_with",
        xdsl_patches_driver.XDSL_REPLACE_ALL_USES_WITH,
    )
    monkeypatch.setattr(
        DenseArrayBase, "from_list", staticmethod(xdsl_patches_building.XDSL_FROM_LIST)
    )
    monkeypatch.setattr(
        irdl_operations.BaseAttrAccessor,
        "__get__",
        xdsl_patches.XDSL_SEGMENT_ACCESSOR_GET,
    )
    for accessor in (
        irdl_operations.BaseAccessor,
        irdl_operations.BeforeVariadicSingleAccessor,
    ):
        monkeypatch.setattr(accessor, "__get__", xdsl_patches.XDSL_ACCESSOR_GET)
    for name, function in xdsl_patches.XDSL_CSE_EFFECTS.items():
        monkeypatch.setattr(cse_module, name, function)
    monkeypatch.setattr(Block, "walk", xdsl_patches_driver.XDSL_BLOCK_WALK)
    monkeypatch.setattr(Region, "walk", xdsl_patches_driver.XDSL_REGION_WALK)
    for (cls, name), method in xdsl_patches_driver.XDSL_ITERATORS.items():
        monkeypatch.setattr(cls, name, method)
    monkeypatch.setattr(Operation, "walk", xdsl_patches_driver.XDSL_OPERATION_WALK)
    monkeypatch.setattr(
        PatternRewriteWalker,
        "_process_worklist",
        xdsl_patches_visits.XDSL_PROCESS_WORKLIST,
    )
    monkeypatch.setattr(
        PatternRewriteWalker,
        "_populate_worklist",
        xdsl_patches_driver.XDSL_POPULATE_WORKLIST,
    )
    monkeypatch.setattr(SSAValues, "__getitem__", xdsl_patches.XDSL_SSA_VALUES_GETITEM)
    _abc_checks_back(monkeypatch)
    monkeypatch.setattr(
        GreedyRewritePatternApplier,
        "match_and_rewrite",
        xdsl_patches_driver.XDSL_APPLIER_MATCH_AND_REWRITE,
    )
    for module in (traits_module, dead_code_elimination):
        monkeypatch.setattr(module, "get_effects", xdsl_patches.XDSL_TRAITS_GET_EFFECTS)
    monkeypatch.setattr(
        irdl_package,
        "irdl_to_attr_constraint",
        xdsl_patches_driver.XDSL_IRDL_TO_ATTR_CONSTRAINT,
    )
    monkeypatch.setattr(
        cse_module.CSEDriver,
        "_simplify_operation",
        xdsl_patches_cse.XDSL_SIMPLIFY_OPERATION,
    )
    monkeypatch.setattr(
        cse_module.OperationInfo, "__hash__", xdsl_patches_cse.XDSL_OPERATION_INFO_HASH
    )
    for name, method in xdsl_patches_visits.XDSL_WALKER_HANDLERS.items():
        monkeypatch.setattr(PatternRewriteWalker, name, method)
    monkeypatch.setattr(SSAValue, "erase", xdsl_patches_driver.XDSL_SSA_VALUE_ERASE)
    for (cls, name), method in xdsl_patches_driver.XDSL_UNLINK_METHODS.items():
        monkeypatch.setattr(cls, name, method)


@pytest.fixture
def patched() -> Iterator[None]:
    xdsl_patches.cache_op_traits()
    xdsl_patches.cache_dead_code_checks()
    xdsl_patches.cache_canonicalization_patterns()
    xdsl_patches_building.cache_op_building()
    xdsl_patches.cache_cse_effects()
    xdsl_patches.cache_segment_sizes()
    xdsl_patches_visits.plan_walker_visits()
    xdsl_patches_cse.simplify_cse_operations()
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
            assert dead_code_elimination.is_trivially_dead(
                op
            ) == xdsl_patches.XDSL_IS_TRIVIALLY_DEAD(op), op.name


DEAD_CODE = """
func.func @f(%a : i32, %c : i1) -> i32 {
  %dead = arith.addi %a, %a : i32
  %chain0 = arith.muli %a, %a : i32
  %chain1 = arith.muli %chain0, %a : i32
  %used = arith.addi %a, %a : i32
  %r = scf.if %c -> (i32) {
    %inner = arith.subi %used, %a : i32
    %inner_dead = arith.subi %chain1, %a : i32
    scf.yield %inner : i32
  } else {
    scf.yield %a : i32
  }
  %m = memref.alloc() : memref<4xi32>
  cf.br ^live(%r : i32)
^dead(%x : i32):
  %y = arith.addi %x, %x : i32
  cf.br ^live(%y : i32)
^live(%z : i32):
  func.return %z : i32
}
"""


def test_region_dce_removes_what_xdsl_removes(patched: None, tmp_path: Path) -> None:
    """The one-pass live set against xDSL's fixpoint, on every stage of the
    pipeline and on a function with dead chains, regions and an unreachable
    block: the same IR left, the same answer."""
    modules = [parse_module(DEAD_CODE)]
    ctx = make_context()
    module = parse_module(attention_layers(1))
    for p in onnx_to_hip_passes(externalize_output_dir=str(tmp_path)):
        p.apply(ctx, module)
        modules.append(module.clone())
    for each in modules:
        ours, theirs = each.clone(), each.clone()
        changed = xdsl_patches._region_dce(ours.body)  # pyright: ignore[reportPrivateUsage]
        assert changed == xdsl_patches.XDSL_REGION_DCE(theirs.body)
        assert _text(ours) == _text(theirs)
    first = modules[0].clone()
    assert xdsl_patches._region_dce(first.body)  # pyright: ignore[reportPrivateUsage]
    text = _text(first)
    assert "%chain1" not in text and "%inner_dead" not in text and "%used" in text
    assert "^dead" in DEAD_CODE and "%y" not in text


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
            assert cls.has_trait(trait) == xdsl_patches.XDSL_HAS_TRAIT(cls, trait)


def test_adding_a_trait_is_seen(patched: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """`OpTraits.add_trait` after a lookup: the next lookup sees the trait."""
    op = test.TestOp()
    assert not test.TestOp.has_trait(IsTerminator)
    assert dead_code_elimination.would_be_trivially_dead(op) is False
    monkeypatch.setattr(test.TestOp, "traits", OpTraits(lambda: ()))
    try:
        test.TestOp.traits.add_trait(Pure())
        assert test.TestOp.has_trait(Pure)
        assert dead_code_elimination.would_be_trivially_dead(op) is True
    finally:  # the class's own traits back, and nothing kept of the test's
        monkeypatch.undo()
        xdsl_patches.forget_trait_answers()
    assert dead_code_elimination.would_be_trivially_dead(op) is False


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
        assert xdsl_patches_building._build_arg_list(  # pyright: ignore[reportPrivateUsage]
            irdl_operations.VarIRConstruct.OPERAND, args, defs
        ) == xdsl_patches_building.XDSL_BUILD_ARG_LIST(
            irdl_operations.VarIRConstruct.OPERAND, args, defs
        )
    for bad in ([[], None, None], [[], [x, x], []], [[]], [[], x, [x, x]]):
        with pytest.raises(ValueError) as ours:
            xdsl_patches_building._build_arg_list(  # pyright: ignore[reportPrivateUsage]
                irdl_operations.VarIRConstruct.OPERAND, bad, defs, "p: "
            )
        with pytest.raises(ValueError) as theirs:
            xdsl_patches_building.XDSL_BUILD_ARG_LIST(
                irdl_operations.VarIRConstruct.OPERAND, bad, defs, "p: "
            )
        assert str(ours.value) == str(theirs.value)
    ret = func.ReturnOp(c, x)
    assert list(ret.operands) == [c.result, x.result]


@irdl_op_definition
class _FixedOp(IRDLOperation):
    name = "t.fixed"
    a = operand_def()
    b = operand_def()
    r = result_def()


@irdl_op_definition
class _OptionalOp(IRDLOperation):
    name = "t.optional"
    a = operand_def()
    b = opt_operand_def()
    r = opt_result_def()


@irdl_op_definition
class _SameSizeOp(IRDLOperation):
    name = "t.same_size"
    a = var_operand_def()
    b = operand_def()
    c = var_operand_def()
    r = var_result_def()
    irdl_options = (SameVariadicOperandSize(),)


def _variadic_outcome(check: Any, op: IRDLOperation, construct: Any) -> str:
    try:
        check(op, op.get_irdl_definition(), construct)
    except VerifyException as e:
        return f"error: {e}"
    return "ok"


def test_variadic_sizes_verify_as_xdsl(patched: None) -> None:
    """Every operand and result count, on fixed, optional, same-size and
    segment-sized definitions: xDSL's answer and message."""
    x = arith.ConstantOp.from_int_and_width(1, IndexType()).result
    operand = irdl_operations.VarIRConstruct.OPERAND
    result = irdl_operations.VarIRConstruct.RESULT
    seen: set[str] = set()
    for cls in (_FixedOp, _OptionalOp, _SameSizeOp, memref.AllocOp, func.ReturnOp):
        for n in range(6):
            ops = [
                cls.create(operands=[x] * n, result_types=[i32] * (n % 3)),
                cls.create(
                    operands=[x] * n,
                    properties={
                        "operandSegmentSizes": DenseArrayBase.from_list(
                            i32, [n, 0] if n % 2 else [n - 1, 1] if n else [0, 0]
                        )
                    },
                ),
            ]
            for op in ops:
                for construct in (operand, result):
                    ours = _variadic_outcome(
                        xdsl_patches._verify_variadic_size,  # pyright: ignore[reportPrivateUsage]
                        op,
                        construct,
                    )
                    theirs = _variadic_outcome(
                        xdsl_patches.XDSL_VERIFY_VARIADIC_SIZE, op, construct
                    )
                    assert ours == theirs, (cls.name, n, construct)
                    seen.add(ours.split(":")[0])
    assert seen == {"ok", "error"}
    assert irdl_operations.verify_variadic_size is not (
        xdsl_patches.XDSL_VERIFY_VARIADIC_SIZE
    )


def _built(monkeypatch: pytest.MonkeyPatch, init: object) -> list[str]:
    """Ops of several kinds built through `irdl_op_init` = `init`, printed
    generically (operands, results, properties in order, attributes), plus
    the message of each bad build."""
    monkeypatch.setattr(irdl_operations, "irdl_op_init", init)
    block = Block(arg_types=[MemRefType(f32, [-1, 4]), IndexType(), i32, i1])
    buf, idx, x, c = block.args
    one = arith.ConstantOp.from_int_and_width(1, IndexType())
    ops: list[Operation] = [
        memref.DimOp(buf, idx),
        memref.DimOp(buf, one),
        memref.AllocOp([idx], [], MemRefType(f32, [-1, 4]), IntegerAttr(64, i64)),
        memref.AllocOp([], [], MemRefType(f32, [2, 4])),
        func.ReturnOp(x, one),
        arith.AddiOp(x, x),
        arith.SelectOp(c, x, x),
        scf.IfOp(c, [], [scf.YieldOp()]),
        test.TestOp([x, c], [i32], properties={"p": i1, "q": None}),
        func.CallOp("f", [x], [i32]),
    ]
    texts = [_generic(op) for op in ops]
    for bad in (
        lambda: memref.DimOp(buf, [idx, idx]),  # pyright: ignore[reportArgumentType]
        lambda: func.ReturnOp(block),  # pyright: ignore[reportArgumentType]
        lambda: arith.AddiOp(x, None),  # pyright: ignore[reportArgumentType]
    ):
        with pytest.raises(Exception) as error:
            bad()
        texts.append(f"{error.type.__name__}: {error.value}")
    return texts


def _generic(op: Operation) -> str:
    # lazy: io only for printing
    import io

    stream = io.StringIO()
    Printer(stream, print_generic_format=True).print_op(op)
    return stream.getvalue() + repr(list(op.properties)) + repr(list(op.attributes))


def test_short_builder_builds_what_xdsl_builds(
    patched: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = _built(monkeypatch, xdsl_patches_building._irdl_op_init)  # pyright: ignore[reportPrivateUsage]
    monkeypatch.setattr(
        Operation, "__init__", xdsl_patches_building.XDSL_OPERATION_INIT
    )
    monkeypatch.setattr(
        SSAValue,
        "replace_all_uses_with",
        xdsl_patches_driver.XDSL_REPLACE_ALL_USES_WITH,
    )
    assert ours == _built(monkeypatch, xdsl_patches_building.XDSL_IRDL_OP_INIT)
    assert "operandSegmentSizes" in ours[2]


def test_an_op_built_twice_drops_its_old_uses(patched: None) -> None:
    """`Operation.__init__` run again on an op (as xDSL allows) leaves no use
    of the old operands behind, as xDSL's own does."""
    a = arith.ConstantOp.from_int_and_width(1, i32)
    b = arith.ConstantOp.from_int_and_width(2, i32)
    op = test.TestOp.create(operands=[a.result], result_types=[i32])
    assert op.result_types == (i32,) and a.result.has_one_use()
    Operation.__init__(op, operands=[b.result])
    assert a.result.first_use is None and b.result.has_one_use()
    assert op.operands[0] is b.result and op.results == ()


def test_integer_arrays_shared_and_equal(patched: None) -> None:
    a = DenseArrayBase.from_list(i32, [1, 0, 2])
    assert a is DenseArrayBase.from_list(i32, (1, 0, 2))
    assert a == xdsl_patches_building.XDSL_FROM_LIST(i32, [1, 0, 2])
    floats = DenseArrayBase.from_list(f32, [0.0, -0.0])
    assert floats == xdsl_patches_building.XDSL_FROM_LIST(f32, [0.0, -0.0])
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
    assert (
        irdl_operations.irdl_build_arg_list
        is not xdsl_patches_building.XDSL_BUILD_ARG_LIST
    )
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


WALKED = """
func.func @f(%c: i1, %m: memref<4xf32>) {
  %a = arith.constant 1 : index
  scf.if %c {
    %b = arith.constant 2 : index
    scf.if %c {
      %e = arith.constant 4 : index
    }
    memref.dealloc %m : memref<4xf32>
  } else {
    %g = arith.constant 5 : index
  }
  %d = arith.constant 3 : index
  func.return
}
func.func @g() {
  func.return
}
"""


def _with_xdsl_walks(run: Callable[[], _T]) -> _T:
    """`run()` with xDSL's own `walk`s in place of the patched ones."""
    Block.walk = xdsl_patches_driver.XDSL_BLOCK_WALK
    Region.walk = xdsl_patches_driver.XDSL_REGION_WALK
    Operation.walk = xdsl_patches_driver.XDSL_OPERATION_WALK
    try:
        return run()
    finally:
        xdsl_patches.cache_dead_code_checks()


def test_walks_visit_what_xdsl_visits(patched: None) -> None:
    """Every order of the walk of a module, a region and a block with nested
    regions and several blocks, with the fast paths and with xDSL's."""
    module = parse_module(WALKED)
    function = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    starts: list[Any] = [module, module.body, function.body.block, function]
    for reverse in (False, True):
        for region_first in (False, True):
            for start in starts:

                def walk(
                    start: Any = start,
                    reverse: bool = reverse,
                    region_first: bool = region_first,
                ) -> list[int]:
                    return [
                        id(op)
                        for op in start.walk(reverse=reverse, region_first=region_first)
                    ]

                ours = walk()
                assert ours == _with_xdsl_walks(walk)
    assert len(list(module.walk())) == 16  # the module, 2 functions, 13 ops


def _edit_while_walking(module: ModuleOp, reverse: bool, region_first: bool) -> str:
    """Walk `module`, erasing each constant of an even value, cloning before
    each odd one a constant (never visited: it comes before the op), and
    moving the `scf.if`s' following op to the end of their blocks as they are
    met: the names visited and the IR left."""
    seen: list[str] = []
    for op in module.walk(reverse=reverse, region_first=region_first):
        seen.append(op.name)
        if isinstance(op, arith.ConstantOp):
            value = op.value
            assert isinstance(value, IntegerAttr)
            if value.value.data % 2 == 0:
                op.detach()
                op.erase()
                continue
            block = op.parent
            assert block is not None
            block.insert_op_before(arith.ConstantOp.from_int_and_width(7, 64), op)
        if isinstance(op, scf.IfOp):
            after = op.next_op
            block = op.parent
            assert block is not None
            if after is not None and after.next_op is not None:
                after.detach()
                block.insert_op_before(after, block.last_op)  # pyright: ignore[reportArgumentType]
    return " ".join(seen) + "\n" + _text(module)


def test_walks_that_edit_the_ir_match_xdsl(patched: None) -> None:
    """A walk whose loop body erases, inserts and moves ops visits the same
    ops and leaves the same IR with the fast paths as with xDSL's walks."""
    for reverse in (False, True):
        for region_first in (False, True):
            ours = _edit_while_walking(parse_module(WALKED), reverse, region_first)
            assert ours == _with_xdsl_walks(
                lambda reverse=reverse, region_first=region_first: _edit_while_walking(
                    parse_module(WALKED), reverse, region_first
                )
            )


def test_isa_answers_with_kept_constraints(patched: None) -> None:
    """`isa` of generic hints, each constraint kept, answers as xDSL's
    `irdl_to_attr_constraint` built anew; a hint with options is not kept."""
    shape = ArrayAttr([IntAttr(2), IntAttr(3)])
    mixed = ArrayAttr([IntAttr(2), i32])
    for hint, value, expected in (
        (ArrayAttr[IntAttr], shape, True),
        (ArrayAttr[IntAttr], mixed, False),
        (ArrayAttr[IntAttr], i32, False),
        (ArrayAttr[Attribute], mixed, True),
    ):
        for _ in range(2):
            assert isa(value, hint) is expected
        kept = irdl_package.irdl_to_attr_constraint(hint)
        assert kept is irdl_package.irdl_to_attr_constraint(hint)
        assert kept == xdsl_patches_driver.XDSL_IRDL_TO_ATTR_CONSTRAINT(hint)
    assert MemRefType(f32, [2, 3]) == MemRefType(f32, shape)


def test_effects_of_ops_with_regions_are_xdsl_effects(
    patched: None, tmp_path: Path
) -> None:
    """An op with regions (the `scf.if`s of pass 10) has its children's
    effects, each child's from the per-class cache: the same sets, and the
    same dead-code answers, as xDSL's own `get_effects` throughout."""
    xdsl_patches.cache_cse_effects()
    ops = _ops_of_every_stage(str(tmp_path))
    assert any(op.regions and isinstance(op, scf.IfOp) for op in ops)
    ours = [
        (
            traits_module.get_effects(op),
            dead_code_elimination.result_only_effects(op),
        )
        for op in ops
    ]
    traits_module.get_effects = xdsl_patches.XDSL_TRAITS_GET_EFFECTS
    dead_code_elimination.get_effects = xdsl_patches.XDSL_TRAITS_GET_EFFECTS  # pyright: ignore[reportPrivateImportUsage]
    try:
        theirs = [
            (get_effects(op), dead_code_elimination.result_only_effects(op))
            for op in ops
        ]
    finally:
        xdsl_patches.cache_cse_effects()
    assert ours == theirs


class _Failing(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, arith.AddiOp):
            raise ValueError("no")


def _walk_error(process: object) -> str:
    module = parse_module(
        """
        func.func @f(%a: index) -> index {
          %b = arith.addi %a, %a : index
          func.return %b : index
        }
        """
    )
    saved = PatternRewriteWalker._process_worklist  # pyright: ignore[reportPrivateUsage]
    PatternRewriteWalker._process_worklist = process  # pyright: ignore[reportPrivateUsage, reportAttributeAccessIssue]
    try:
        with pytest.raises(Exception) as error:  # noqa: PT011 - xDSL's own type
            PatternRewriteWalker(_Failing()).rewrite_module(module)
    finally:
        PatternRewriteWalker._process_worklist = saved  # pyright: ignore[reportPrivateUsage]
    return f"{type(error.value).__name__}: {error.value}"


def test_worklist_loop_reports_a_failing_pattern_as_xdsl() -> None:
    """A pattern that raises: the same diagnostic through the cheaper loop
    (the rest of the loop: `test_pipeline_gives_xdsl_output`)."""
    ours = _walk_error(xdsl_patches_visits.process_worklist)
    assert ours == _walk_error(xdsl_patches_visits.XDSL_PROCESS_WORKLIST)
    assert ours == "ValueError: no"


def test_applier_folds_the_ops_xdsl_folds(patched: None, tmp_path: Path) -> None:
    """Whether `canonicalize`'s applier tries to fold an op, decided per op
    class, is xDSL's per-op answer for every op of every stage, asked twice."""
    for op in _ops_of_every_stage(str(tmp_path)):
        for _ in range(2):
            assert xdsl_patches_driver.folds(op) == (
                xdsl_patches.XDSL_HAS_TRAIT(
                    type(op), HasFolder, value_if_unregistered=False
                )
                and not xdsl_patches.XDSL_HAS_TRAIT(
                    type(op), ConstantLike, value_if_unregistered=True
                )
            ), op.name


class _Metaclass:
    """The metaclass of `classes` as an attribute, for `monkeypatch` (which
    cannot put a class's `__class__` back)."""

    def __init__(self, classes: Sequence[type[Any]]) -> None:
        self.classes = classes

    @property
    def meta(self) -> type[Any]:
        return type(self.classes[0])

    @meta.setter
    def meta(self, value: type[Any]) -> None:
        for cls in self.classes:
            cls.__class__ = value


def _abc_checks_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """`ABCMeta` again for every IR class `plain_ir_isinstance` changed, until
    the test ends."""
    classes = [c for c in _ir_classes() if type(c) is xdsl_patches_driver.IRMeta]
    if classes:
        monkeypatch.setattr(_Metaclass(classes), "meta", ABCMeta)


def _ir_classes() -> list[type[Any]]:
    """Every class loaded under xDSL's IR roots."""
    found: list[type[Any]] = []
    stack = list(xdsl_patches_driver.IR_ROOTS)
    while stack:
        cls = stack.pop()
        if cls not in found:
            found.append(cls)
            stack.extend(cls.__subclasses__())
    return found


def test_op_worklist_keeps_xdsl_order() -> None:
    """The same random pushes, removes and pops, repeated pushes included,
    through xDSL's `Worklist` and the id-keyed one: the same ops popped, in
    the same order, and the same emptiness on the way."""
    ops = [test.TestOp() for _ in range(30)]
    rng = random.Random(7)
    theirs: Worklist[Operation] = Worklist()
    ours = xdsl_patches_driver.OpWorklist()
    popped: tuple[list[Operation], list[Operation]] = ([], [])
    for _ in range(2000):
        action = rng.random()
        op = rng.choice(ops)
        if action < 0.45:
            theirs.push(op)
            ours.push(op)
        elif action < 0.55:
            batch = rng.sample(ops, 5)
            for each in batch:
                theirs.push(each)
            ours.push_all(batch)
        elif action < 0.7:
            theirs.remove(op)
            ours.remove(op)
        else:
            assert bool(theirs) == bool(ours)
            if theirs:
                popped[0].append(theirs.pop())
                popped[1].append(ours.pop())
    while theirs:
        popped[0].append(theirs.pop())
        popped[1].append(ours.pop())
    assert not ours
    assert [id(op) for op in popped[0]] == [id(op) for op in popped[1]]
    with pytest.raises(IndexError):
        ours.pop()
    carried = xdsl_patches_driver.OpWorklist.of(theirs)
    for op in ops[:3]:
        theirs.push(op)
    carried = xdsl_patches_driver.OpWorklist.of(theirs)
    assert [carried.pop() for _ in range(3)] == [theirs.pop() for _ in range(3)]


def test_ir_classes_answer_isinstance_as_abcs(
    patched: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every IR class of `IRMeta` answers `isinstance` and `issubclass` of a
    sample of ops, attributes, values, blocks and regions as with `ABCMeta`;
    a class defined afterwards gets `IRMeta` and a well-formed IRDL definition
    (no borrowed `__annotations__`); a registration below a class keeps it
    and its ancestors `ABCMeta`."""
    module = parse_module(
        """
        func.func @f(%a: index, %m: memref<4xf32>) -> index {
          %b = arith.addi %a, %a : index
          %c = arith.constant 2 : index
          memref.dealloc %m : memref<4xf32>
          func.return %b : index
        }
        """
    )
    ops = list(module.walk())
    samples: list[object] = [
        *ops,
        *(r for op in ops for r in op.results),
        *(a for op in ops for a in op.attributes.values()),
        *(a for op in ops for a in op.properties.values()),
        *(r.type for op in ops for r in op.results),
        *(b for op in ops for r in op.regions for b in r.blocks),
        *(r for op in ops for r in op.regions),
        *(a for op in ops for r in op.regions for b in r.blocks for a in b.args),
        i32,
        f32,
        3,
    ]
    classes = [c for c in _ir_classes() if type(c) is xdsl_patches_driver.IRMeta]
    assert {Operation, IRDLOperation, Attribute, Block, arith.AddiOp} <= set(classes)
    kinds = list({type(x) for x in samples})

    def answers() -> list[bool]:
        return [isinstance(x, c) for c in classes for x in samples] + [
            issubclass(k, c) for c in classes for k in kinds
        ]

    ours = answers()
    _abc_checks_back(monkeypatch)
    assert type(Operation) is ABCMeta
    assert answers() == ours
    monkeypatch.undo()
    assert type(Operation) is xdsl_patches_driver.IRMeta

    @irdl_op_definition
    class LateOp(IRDLOperation):
        name = "test.late"
        value = operand_def()

    assert type(LateOp) is xdsl_patches_driver.IRMeta
    assert "__annotations__" not in vars(LateOp) or set(LateOp.__annotations__) <= {
        "value"
    }
    assert [name for name, _ in LateOp.get_irdl_definition().operands] == ["value"]

    class Root(ABC):  # noqa: B024 - only its checks matter
        pass

    class Mid(Root):
        pass

    class Leaf(Mid):
        pass

    class Other(Root):
        pass

    Leaf.register(int)
    assert xdsl_patches_driver.ir_classes_without_abc_checks([Root]) == [Other]
    assert isinstance(3, Root) and isinstance(3, Mid)


def _replaced(replace: Callable[[Any, Any], None]) -> str:
    """A value used twice by one op and once by another, replaced by a
    function argument that has a use of its own: the IR and the order of
    the new value's uses."""
    module = parse_module(
        """
        func.func @f(%a: index, %b: index) -> index {
          %c = arith.addi %a, %a : index
          %d = arith.addi %c, %c : index
          %e = arith.muli %d, %c : index
          %f = arith.subi %b, %e : index
          func.return %f : index
        }
        """
    )
    function = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    c = next(op for op in module.walk() if op.name == "arith.addi").results[0]
    b = function.args[1]
    replace(c, b)
    uses = [(use.operation.name, use.index) for use in b.uses]
    return f"{_text(module)}{uses}"


def test_replacing_uses_matches_xdsl(patched: None) -> None:
    """The in-place operand update gives xDSL's IR and use lists."""
    ours = _replaced(lambda old, new: old.replace_all_uses_with(new))
    assert ours == _replaced(xdsl_patches_driver.XDSL_REPLACE_ALL_USES_WITH)
    assert "arith.addi %b, %b" in ours


class _MoveThenInsert(RewritePattern):
    """Moves each `arith.addi` to the end of its block (before the return),
    then asks for the insertion point and inserts a constant there: the point
    must be the one taken when the op was reached."""

    def __init__(self) -> None:
        self.points: list[tuple[str, str]] = []

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, arith.AddiOp) or op.attributes:
            return
        block = op.parent
        assert block is not None and block.last_op is not None
        op.attributes["moved"] = IntegerAttr(1, i32)
        op.detach()
        block.insert_op_before(op, block.last_op)
        point = rewriter.insertion_point
        before = point.insert_before
        self.points.append(
            (
                str(len(list(point.block.ops))),
                before.name if before is not None else "end",
            )
        )
        rewriter.insert(arith.ConstantOp.from_int_and_width(len(self.points), 64))


def _moved(process: object) -> str:
    module = parse_module(
        """
        func.func @f(%a: index) -> index {
          %b = arith.addi %a, %a : index
          %c = arith.muli %b, %a : index
          %d = arith.addi %c, %a : index
          func.return %d : index
        }
        """
    )
    saved = PatternRewriteWalker._process_worklist  # pyright: ignore[reportPrivateUsage]
    PatternRewriteWalker._process_worklist = process  # pyright: ignore[reportPrivateUsage, reportAttributeAccessIssue]
    pattern = _MoveThenInsert()
    try:
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(module)
    finally:
        PatternRewriteWalker._process_worklist = saved  # pyright: ignore[reportPrivateUsage]
    return f"{_text(module)}{pattern.points}"


def test_lazy_insertion_point_is_the_reset_one() -> None:
    """A pattern that moves its op before asking where to insert gets the
    point xDSL's loop set when it reached the op, and the same IR."""
    ours = _moved(xdsl_patches_visits.process_worklist)
    assert ours == _moved(xdsl_patches_visits.XDSL_PROCESS_WORKLIST)
    assert "arith.constant 2" in ours


def _iterate_while_editing(ours: bool) -> str:
    """Iterate a block's ops and a region's blocks both ways with xDSL's
    iterators or the generators, erasing, inserting and moving as each item
    is taken: the items seen and the IR left."""
    saved = {key: vars(key[0])[key[1]] for key in xdsl_patches_driver.XDSL_ITERATORS}
    if not ours:
        for (cls, name), method in xdsl_patches_driver.XDSL_ITERATORS.items():
            setattr(cls, name, method)
    try:
        module = parse_module(WALKED)
        function = next(op for op in module.walk() if isinstance(op, func.FuncOp))
        block = function.body.block
        seen: list[str] = []
        ops = iter(block.ops)
        first = block.first_op
        assert first is not None
        block.insert_op_before(arith.ConstantOp.from_int_and_width(9, 64), first)
        for op in ops:
            seen.append(op.name)
            if isinstance(op, arith.ConstantOp):
                after = op.next_op
                if after is not None and not isinstance(after, func.ReturnOp):
                    after.detach()
                    block.insert_op_before(after, block.last_op)  # pyright: ignore[reportArgumentType]
        for op in reversed(block.ops):
            seen.append(op.name)
            if isinstance(op, arith.ConstantOp):
                op.detach()
                op.erase()
        if_op = next(op for op in module.walk() if isinstance(op, scf.IfOp))
        for region in if_op.regions:
            for forward in (True, False):
                blocks = iter(region.blocks) if forward else reversed(region.blocks)
                region.add_block(Block())
                for each in blocks:
                    seen.append(str(len(list(each.ops))))
                    if not each.ops:
                        region.detach_block(each)
        seen.append(str(len(block.ops)))
        return " ".join(seen) + "\n" + _text(module)
    finally:
        for (cls, name), method in saved.items():
            setattr(cls, name, method)


def test_iterators_while_editing_match_xdsl(patched: None) -> None:
    """The generators see what xDSL's iterator classes see, the first item
    read when the iterator is made, the next one as each is taken."""
    assert _iterate_while_editing(True) == _iterate_while_editing(False)


def test_ssa_values_index_as_xdsl(patched: None) -> None:
    """Items and slices of an op's operands, through the patched indexing and
    xDSL's: the same values, a slice an `SSAValues` either way, and the same
    errors."""
    module = parse_module(
        """
        func.func @f(%a: index, %b: index) -> index {
          %c = "test.op"(%a, %b, %a) : (index, index, index) -> index
          func.return %c : index
        }
        """
    )
    op = next(op for op in module.walk() if op.name == "test.op")
    values = op.operands._op._operands  # pyright: ignore[reportPrivateUsage]
    theirs = xdsl_patches.XDSL_SSA_VALUES_GETITEM
    for index in (0, 2, -1, True, slice(1, None), slice(None, None, -1)):
        ours = values[index]
        assert ours == theirs(values, index)
        assert type(ours) is type(theirs(values, index))
    for bad in (3, -4):
        with pytest.raises(IndexError):
            values[bad]
        with pytest.raises(IndexError):
            theirs(values, bad)


@pytest.mark.parametrize(
    "name", ["x", "x_1", "x_1_2", "a.b-c$", "_", "_1", "y_", "x1", "1x", "", "a b"]
)
def test_name_hints_are_xdsls(patched: None, name: str) -> None:
    """The memoized setter keeps what xDSL's keeps, and raises what it raises,
    the first time a name is seen and again once it is known."""
    for _ in range(2):
        ours, theirs = Block(), Block()
        try:
            xdsl_patches_building.XDSL_SET_NAME_HINT(theirs, name)
        except ValueError as e:
            with pytest.raises(ValueError) as raised:
                ours.name_hint = name
            assert raised.value.args == e.args
            continue
        ours.name_hint = name
        assert ours.name_hint == theirs.name_hint
    value = test.TestOp(result_types=[i32]).results[0]
    value.name_hint = None
    assert value.name_hint is None


def test_attaching_ops_is_xdsls(patched: None) -> None:
    """An op without regions attaches as with xDSL's; an op already attached,
    or one that holds the block, still raises xDSL's errors."""
    block = Block()
    op = test.TestOp()
    block.add_op(op)
    assert op.parent is block and list(block.ops) == [op]
    with pytest.raises(ValueError, match="already attached"):
        Block().add_op(op)
    inner = Block()
    holder = test.TestOp(regions=[Region(inner)])
    with pytest.raises(ValueError, match="contained in the operation"):
        inner.add_op(holder)
    assert holder.parent is None
