"""The shortcuts that spare the late passes and the final verify repeated
work give what the longer ways give: the compute ops' operand counts read from
`operandSegmentSizes`, their verifier's element-type check on groups read
once, `shape_of` by class, `hip-optimize-memrefs`' shape numbers and
`ConstantFolder`'s entry block."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ModuleOp, TensorType, f32
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from xhip.context import make_context
from xhip.dialects import hip, type_text
from xhip.dialects.hip import HipDPSOp
from xhip.dialects.hip.base import DestinationStyleEffects, shape_of
from xhip.pipeline import onnx_to_hip_passes
from xhip.testing import parse_module
from xhip.transforms.hip_add_context_arg import enclosing_function
from xhip.transforms.hip_optimize_memrefs import BufferReuse, _shape_key
from xhip.transforms.index_arith import ConstantFolder

from .test_compile_complexity import attention_layers


def _stage_ops(tmp_path: Path) -> list[Operation]:
    """Every op of the module after each stage of `onnx-to-hip`, one layer."""
    ctx = make_context()
    module = parse_module(attention_layers(1))
    ops: list[Operation] = []
    for p in onnx_to_hip_passes(externalize_output_dir=str(tmp_path)):
        p.apply(ctx, module)
        ops += module.clone().walk()
    return ops


def test_ins_and_outs_are_the_last_two_groups() -> None:
    """`DestinationStyleEffects._counts` reads `ins` and `outs` as the last
    two operand groups, as `HipDPSOp.__init__` builds every compute op."""
    classes = [
        op
        for op in hip.HIP.operations
        if issubclass(op, HipDPSOp) and op is not HipDPSOp
    ]
    assert len(classes) > 50
    for cls in classes:
        names = [name for name, _ in cls.get_irdl_definition().operands]
        assert names[-2:] == ["inputs", "outputs"], cls.name


def test_counts_and_checks_of_every_stage(tmp_path: Path) -> None:
    """Counts, effect kinds and `shape_of` against the accessors, on every
    compute op of every stage (tensor and memref modes)."""
    modes: set[bool] = set()
    for op in _stage_ops(tmp_path):
        if not isinstance(op, HipDPSOp):
            continue
        inputs, outputs = op.inputs, op.outputs
        assert DestinationStyleEffects._counts(op) == (len(inputs), len(outputs))  # pyright: ignore[reportPrivateUsage]
        modes.add(op.is_tensor_mode)
        expected = (
            ()
            if op.is_tensor_mode
            else tuple(
                k for k, present in (("READ", inputs), ("WRITE", outputs)) if present
            )
        )
        assert (
            tuple(k.name for k in DestinationStyleEffects.effect_kinds(op)) == expected
        )
        for value in (*inputs, *outputs):
            assert shape_of(value) == value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    assert modes == {True, False}


def test_shape_of_a_value_that_is_not_shaped() -> None:
    module = parse_module("func.func @f(%i: index) {\n  func.return\n}")
    (function,) = module.ops
    assert isinstance(function, func.FuncOp)
    with pytest.raises(AssertionError):
        shape_of(function.args[0])


BAD_ELEMENT_TYPE = """
func.func @f(%ctx: !hip.context, %a: memref<2x3xf32>, %b: memref<3x4xf16>,
             %o: memref<2x4xf32>) {
  hip.hipblaslt.matmul(%ctx) ins(%a, %b : memref<2x3xf32>, memref<3x4xf16>) outs(%o : memref<2x4xf32>)
  func.return
}
"""


def test_element_type_message_is_the_overridable_method_s() -> None:
    """`verify_` checks element types on the groups it read, where the class
    keeps the default `verify_element_types`: the same message."""
    module = parse_module(BAD_ELEMENT_TYPE)
    op = next(o for o in module.walk() if isinstance(o, HipDPSOp))
    assert type(op).verify_element_types is HipDPSOp.verify_element_types
    with pytest.raises(VerifyException) as direct:
        op.verify_element_types()
    with pytest.raises(VerifyException) as verified:
        op.verify_()
    expected = (
        "'hip.hipblaslt.matmul' ins operand 1 has element type f16 but outs "
        "operand 0 has f32"
    )
    assert str(direct.value) == str(verified.value) == expected


CHAIN = """
func.func @f(%ctx: !hip.context, %x: memref<4xf32>, %n: index) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  %d = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  %e = memref.alloc() : memref<8xf32>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %c : memref<?xf32>
  memref.dealloc %d : memref<4xf32>
  memref.dealloc %e : memref<8xf32>
  func.return
}
"""


def test_shape_numbers_are_equal_where_the_keys_are() -> None:
    module = parse_module(CHAIN)
    (function,) = module.ops
    assert isinstance(function, func.FuncOp)
    reuse = BufferReuse(function.body.block)
    allocs = [op for op in function.walk() if isinstance(op, memref.AllocOp)]
    numbers = [reuse.shape_id(a) for a in allocs]
    for a, n in zip(allocs, numbers):
        assert reuse.shape_id(a) == n  # kept
        for b, m in zip(allocs, numbers):
            assert (n == m) == (_shape_key(a) == _shape_key(b))
    assert numbers[0] == numbers[1] == numbers[3] != numbers[2]


NESTED = """
func.func @f(%c: i1) {
  %a = arith.constant 1 : index
  scf.if %c {
    %b = arith.constant 2 : index
    scf.if %c {
      %e = arith.constant 4 : index
    }
  }
  func.return
}
"""


def test_entry_block_is_the_enclosing_function_s() -> None:
    module = parse_module(NESTED + "\n" + "builtin.module {\n" + NESTED + "}")
    ops = [op for op in module.walk() if op.parent_op() is not None]
    assert len(ops) > 10
    for op in ops:
        function = enclosing_function(op)
        expected = op.parent_block() if function is None else function.body.block
        assert ConstantFolder._entry_block(op) is expected  # pyright: ignore[reportPrivateUsage]
    assert isinstance(module, ModuleOp)


def test_type_text_is_kept_per_object() -> None:
    """`_type_text` by `id`: an equal type object gets the same text, and an
    entry whose object is not the one asked about (a reused `id`) is not used."""
    first, second = (
        MemRefType(f32, [2, DYNAMIC_INDEX]),
        MemRefType(f32, [2, DYNAMIC_INDEX]),
    )
    assert first is not second
    assert (
        type_text._type_text(first)
        == type_text._type_text(second)
        == (  # pyright: ignore[reportPrivateUsage]
            "memref<2x?xf32>"
        )
    )
    other = TensorType(f32, [3])
    type_text._TYPE_TEXT_BY_ID[id(other)] = (first, "stale")  # pyright: ignore[reportPrivateUsage]
    assert type_text._type_text(other) == "tensor<3xf32>"  # pyright: ignore[reportPrivateUsage]
    assert type_text._type_text(other) == "tensor<3xf32>"  # pyright: ignore[reportPrivateUsage]
