"""Constraints on builtin types that xDSL 0.75 lacks, written like its own.

xDSL has `AnyTensorTypeConstr`; these complete it. `C.verifies(t)` narrows `t`
for the type checker (`MemRefType[Attribute]`, not `isinstance`'s
`MemRefType[Unknown]`) at about the cost of an `isinstance`: use them for the
checks made per op or per value. `isa(t, MemRefType[Attribute])` narrows the
same way but verifies every parameter of the type, ~100x slower.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AnyTensorTypeConstr,
    DenseIntOrFPElementsAttr,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.irdl import AttrConstraint, BaseAttr

AnyMemRefTypeConstr = BaseAttr[MemRefType[Attribute]](MemRefType)

AnyShapedTypeConstr: AttrConstraint[TensorType[Attribute] | MemRefType[Attribute]] = (
    AnyTensorTypeConstr | AnyMemRefTypeConstr
)
"""A ranked tensor or memref type."""

AnyDenseElementsAttrConstr = BaseAttr[DenseIntOrFPElementsAttr](
    DenseIntOrFPElementsAttr
)

__all__ = [
    "AnyDenseElementsAttrConstr",
    "AnyMemRefTypeConstr",
    "AnyShapedTypeConstr",
    "AnyTensorTypeConstr",
]
