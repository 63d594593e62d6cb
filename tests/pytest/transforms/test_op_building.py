"""The bufferization and deallocation passes build some ops with `create`
instead of their builders; each must be the op the builder makes."""

from __future__ import annotations

import io

import pytest
from xdsl.dialects import arith, memref, scf, test
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    TensorType,
    f32,
    i1,
    i8,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.printer import Printer

from tests.pytest.transforms.test_passes_1_to_4 import stage
from xhip.dialects import hip
from xhip.dialects.bufferization import DeallocOp
from xhip.testing import parse_module
from xhip.transforms.bufferization_lower_deallocations import _dealloc_if  # pyright: ignore[reportPrivateUsage]
from xhip.transforms.canonicalization_patterns.bufferization import bool_constant
from xhip.transforms.hip_resolve_extern_constants import (
    BLOB_TYPE,
    ExternalConstant,
    blob_view,
)
from xhip.transforms.one_shot_bufferize import (
    _ALIGNMENT_ATTR,  # pyright: ignore[reportPrivateUsage]
    _alloc_op,  # pyright: ignore[reportPrivateUsage]
    memref_mode_op,
)


def _generic(op: Operation) -> str:
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(op)
    return stream.getvalue()


def _assert_same(built: Operation, expected: Operation) -> None:
    assert type(built) is type(expected)
    assert list(built.properties.items()) == list(expected.properties.items())
    assert built.attributes == expected.attributes
    assert list(built.operands) == list(expected.operands)
    assert [r.type for r in built.results] == [r.type for r in expected.results]
    assert _generic(built) == _generic(expected)


def _values(*types: Attribute) -> list[SSAValue]:
    op = test.TestOp(result_types=list(types))
    return list(op.results)


@pytest.mark.parametrize("count", [0, 1, 3])
def test_alloc_is_the_builders(count: int) -> None:
    sizes = _values(*[IndexType()] * count)
    memref_type = MemRefType(f32, [DYNAMIC_INDEX] * count + [4])
    _assert_same(
        _alloc_op(sizes, memref_type),
        memref.AllocOp(sizes, [], memref_type, _ALIGNMENT_ATTR),
    )


def test_dealloc_if_is_the_builders() -> None:
    cond, value = _values(i1, MemRefType(f32, [4]))
    expected = scf.IfOp(
        cond, [], Region(Block([memref.DeallocOp.get(value), scf.YieldOp()]))
    )
    _assert_same(_dealloc_if(cond, value), expected)


@pytest.mark.parametrize("value", [True, False])
def test_bool_constant_is_the_builders(value: bool) -> None:
    expected = arith.ConstantOp(IntegerAttr(int(value), i1))
    expected.result.name_hint = "true" if value else "false"
    _assert_same(bool_constant(value), expected)


@pytest.mark.parametrize("counts", [(0, 0), (1, 0), (2, 1), (3, 2)])
def test_dealloc_op_is_the_generic_builders(counts: tuple[int, int]) -> None:
    n, r = counts
    memrefs = _values(*[MemRefType(f32, [4])] * n)
    conditions = _values(*[i1] * n)
    retained = _values(*[MemRefType(i8, [DYNAMIC_INDEX])] * r)
    expected = DeallocOp.__new__(DeallocOp)
    IRDLOperation.__init__(
        expected,
        operands=[memrefs, conditions, retained],
        result_types=[[i1] * r],
    )
    built = DeallocOp(memrefs, conditions, retained)
    _assert_same(built, expected)
    built.verify()


def test_memref_mode_hip_op_is_the_builders() -> None:
    """On every hip op of the seed's tensor program, with buffers for operands."""
    module = parse_module(stage(2))
    ops = [o for o in module.walk() if isinstance(o, hip.HipDPSOp) and o.is_tensor_mode]
    assert ops
    for op in ops:
        inputs = _values(*[_buffer_type(v.type) for v in op.inputs])
        outputs = _values(*[_buffer_type(v.type) for v in op.outputs])
        expected = type(op)(
            op.ctx,
            inputs,
            outputs,
            index_operands=list(op.index_operands),
            properties={
                k: v for k, v in op.properties.items() if k != "operandSegmentSizes"
            },
            attributes=dict(op.attributes),
        )
        _assert_same(memref_mode_op(op, inputs, outputs), expected)


def _buffer_type(value_type: Attribute) -> Attribute:
    if isinstance(value_type, TensorType):
        return MemRefType(value_type.get_element_type(), value_type.get_shape())
    return value_type


def test_blob_view_is_the_builders() -> None:
    (blob,) = _values(BLOB_TYPE)
    constant = ExternalConstant(4096, MemRefType(f32, [2, 3]))
    offset, view = blob_view(blob, constant)
    expected_offset = arith.ConstantOp(IntegerAttr(4096, IndexType()))
    expected_offset.result.name_hint = "c4096"
    _assert_same(offset, expected_offset)
    expected_view = memref.ViewOp(blob, offset, [], constant.type)
    expected_view.result.name_hint = "view"
    _assert_same(view, expected_view)
