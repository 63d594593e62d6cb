"""The `OpDef.verify` of `xhip.transforms.xdsl_patches_verify` accepts what
xDSL's accepts and fails with xDSL's exception and message: each case runs
both, never against a recorded output."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from xdsl.dialects import arith, memref, test
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    f32,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, Region
from xdsl.irdl.operations import OpDef

from xhip.context import make_context
from xhip.pipeline import onnx_to_hip_passes
from xhip.testing import parse_module
from xhip.transforms import xdsl_patches_verify
from xhip.universe import _patch_xdsl_passes  # pyright: ignore[reportPrivateUsage]

from .test_compile_complexity import attention_layers


@pytest.fixture
def patched() -> Iterator[None]:
    _patch_xdsl_passes()
    assert OpDef.verify is xdsl_patches_verify.verify
    yield


def _outcome(verify: Callable[[OpDef, Operation], None], op: Operation) -> str:
    try:
        verify(type(op).get_irdl_definition(), op)  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownArgumentType]
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"
    return "ok"


def _same(op: Operation) -> str:
    ours = _outcome(xdsl_patches_verify.verify, op)
    assert ours == _outcome(xdsl_patches_verify.XDSL_OP_DEF_VERIFY, op)
    return ours


def test_every_op_of_every_stage(patched: None, tmp_path: Path) -> None:
    """Every IRDL op of every `onnx-to-hip` stage, hip ops with segment sizes
    included, verifies with both."""
    ctx = make_context()
    module = parse_module(attention_layers(1))
    names: set[str] = set()
    for p in onnx_to_hip_passes(externalize_output_dir=str(tmp_path)):
        p.apply(ctx, module)
        for op in module.walk():
            if hasattr(type(op), "get_irdl_definition"):
                names.add(op.name)
                assert _same(op) == "ok"
                # the fast path itself, not its fallback, accepts it
                xdsl_patches_verify._verify(type(op).get_irdl_definition(), op)  # pyright: ignore[reportPrivateUsage, reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownArgumentType]
        module.verify()
    assert {"memref.alloc", "func.return", "hip.miopen.softmax"} <= names


def _broken() -> list[Operation]:
    block = Block(arg_types=[i32, i64, f32, IndexType(), i32, MemRefType(i8, [64])])
    a, b, f, idx, c, m = block.args
    pred = IntegerAttr(0, i64)
    ops: list[Operation] = [
        arith.AddiOp(a, c),  # fine
        arith.AddiOp(a, b),  # type variable mismatch
        arith.AddiOp.create(operands=[a, a], result_types=[i64]),  # result var
        arith.AddfOp.create(operands=[a, a], result_types=[i32]),  # wrong type
        arith.AddiOp.create(operands=[a], result_types=[i32]),  # too few
        arith.AddiOp.create(operands=[a, a, a], result_types=[i32]),  # too many
        arith.AddiOp.create(operands=[a, a], result_types=[]),  # no result
        arith.CmpiOp.create(operands=[a, a], result_types=[i1]),  # no property
        arith.CmpiOp.create(
            operands=[a, a],
            result_types=[i1],
            properties={"predicate": StringAttr("eq")},  # bad property
        ),
        arith.CmpiOp.create(
            operands=[a, a],
            result_types=[i1],
            properties={"predicate": pred, "extra": pred},  # unknown property
        ),
        arith.AddiOp.create(
            operands=[a, a], result_types=[i32], regions=[Region()]
        ),  # a region
        arith.AddiOp.create(
            operands=[a, a], result_types=[i32], successors=[Block()]
        ),  # a successor
        test.TestOp.create(operands=[a, f], result_types=[i32]),
    ]
    mem = MemRefType(f32, [-1])
    sizes = DenseArrayBase.from_list(i32, [1, 0])
    for props in (
        {"operandSegmentSizes": sizes},  # fine
        {},  # no segment sizes
        {"operandSegmentSizes": DenseArrayBase.from_list(i32, [2, 0])},
        {"operandSegmentSizes": DenseArrayBase.from_list(i32, [1])},
        {"operandSegmentSizes": DenseArrayBase.from_list(i64, [1, 0])},
        {"operandSegmentSizes": sizes, "alignment": StringAttr("x")},
    ):
        ops.append(
            memref.AllocOp.create(operands=[idx], result_types=[mem], properties=props)
        )
    ops.append(  # a wrong type in a sized segment
        memref.AllocOp.create(
            operands=[a], result_types=[mem], properties={"operandSegmentSizes": sizes}
        )
    )
    ops.append(  # a wrong result type
        memref.AllocOp.create(
            operands=[idx],
            result_types=[f32],
            properties={"operandSegmentSizes": sizes},
        )
    )
    # one variadic group and no option: `memref.view` (source, shift, sizes)
    for operands, result in (
        ([m, idx, idx], mem),  # fine
        ([m, idx, idx, idx], mem),  # fine as far as the definition goes
        ([m], mem),  # too few
        ([m, idx, a], mem),  # a wrong type in the group
        ([m, a], mem),  # a wrong type before it
        ([m, idx, idx], i32),  # a wrong result
    ):
        ops.append(memref.ViewOp.create(operands=operands, result_types=[result]))
    return ops


def test_broken_ops_fail_as_in_xdsl(patched: None) -> None:
    """Wrong types, counts, properties, segment sizes: the same exception and
    message as xDSL's, each case failing but the five meant to pass (the first
    `arith.addi`, the test op, the first `memref.alloc`, two `memref.view`)."""
    outcomes = [_same(op) for op in _broken()]
    assert outcomes.count("ok") == 5, outcomes
    assert all(o.startswith("VerifyException") for o in outcomes if o != "ok")
    assert [i for i, o in enumerate(outcomes) if o == "ok"] == [0, 12, 13, 21, 22]
