"""The hip compute ops' custom syntax prints their types through a table of
each type's text (`_type_text`): the text must be what xDSL's printer writes."""

from __future__ import annotations

import io

import pytest
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IntAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    UnrankedTensorType,
    f16,
    f32,
    i1,
    i64,
)
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineMap
from xdsl.printer import Printer

from xhip.dialects import type_text
from xhip.dialects.hip import ContextType
from xhip.testing import parse_module


def printed(attr: Attribute) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_attribute(attr)
    return stream.getvalue()


@pytest.mark.parametrize(
    "type_",
    [
        TensorType(f32, [2, -1, 64]),
        TensorType(i1, []),
        MemRefType(f16, [-1, 3]),
        MemRefType(f32, [-1, -1, 64], StridedLayoutAttr([None, None, None], None)),
        MemRefType(i64, [4, 8], StridedLayoutAttr([16, 1], 4)),
    ],
)
def test_kept_text_is_the_printers(type_: Attribute) -> None:
    assert type_text._type_text(type_) == printed(type_)
    assert type_text._type_text(type_) == printed(type_)  # kept


@pytest.mark.parametrize(
    "type_",
    [
        ContextType(),
        UnrankedTensorType(f32),
        MemRefType(f32, [4], AffineMapAttr(AffineMap.identity(1))),
        MemRefType(f32, [4], NoneAttr(), IntAttr(1)),
    ],
)
def test_other_types_print_as_before(type_: Attribute) -> None:
    assert type_text._type_text(type_) is None


SOURCE = """\
func.func @f(%ctx: !hip.context, %a: memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, %b: memref<64x64xf32>, %c: memref<?x?x64xf32>, %t: tensor<2x64xf32>, %u: tensor<2x64xf32>) -> tensor<2x64xf32> {
  hip.hipblaslt.matmul(%ctx) ins(%a, %b : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs(%c : memref<?x?x64xf32>)
  hip.hipblaslt.matmul(%ctx) ins(%a, %b : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs(%c : memref<?x?x64xf32>)
  %0 = hip.miopen.relu(%ctx) ins(%t : tensor<2x64xf32>) outs(%u : tensor<2x64xf32>) -> tensor<2x64xf32>
  func.return %0 : tensor<2x64xf32>
}
"""


def test_ops_print_as_through_print_attribute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = parse_module(SOURCE)
    fast = io.StringIO()
    Printer(stream=fast).print_op(module)
    monkeypatch.setattr(type_text, "_type_text", lambda type_: None)
    plain = io.StringIO()
    Printer(stream=plain).print_op(module)
    assert fast.getvalue() == plain.getvalue()
    assert "outs(%c : memref<?x?x64xf32>)" in fast.getvalue()
    assert "-> tensor<2x64xf32>" in fast.getvalue()
