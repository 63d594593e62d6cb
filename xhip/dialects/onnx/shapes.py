"""Shapes as values: `onnx-fold-shapes` folds them to index arithmetic
(`onnx_to_hip/shapes.py` converts what is left)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_op_definition
class ShapeOp(OnnxOp):
    """The dims `start` to `end` of `data`, as a 1-D int64 tensor (opset 15)."""

    name = "onnx.Shape"
    DEFAULTS: ClassVar[dict[str, object]] = {"start": 0}

    data = operand_def(AnyTensor)
    shape = result_def(AnyTensor)
    start = opt_prop_def(IntegerAttr)
    end = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SizeOp(OnnxOp):
    """The number of elements of `data`, as a 0-D int64 tensor."""

    name = "onnx.Size"

    data = operand_def(AnyTensor)
    size = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ConstantOfShapeOp(OnnxOp):
    """A tensor of the shape `input` filled with `value` (default float 0)."""

    name = "onnx.ConstantOfShape"

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    value = opt_prop_def(Attribute)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class RangeOp(OnnxOp):
    """`start, start + delta, ...` up to `limit` (excluded); 0-D operands.
    `stash_type` (opset 27) is the type a float16 Range computes in."""

    name = "onnx.Range"
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("start", "limit", "delta")
    READS_BACK_INTEGERS: ClassVar[bool] = True
    DEFAULTS: ClassVar[dict[str, object]] = {"stash_type": 1}

    start = operand_def(AnyTensor)
    limit = operand_def(AnyTensor)
    delta = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    stash_type = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class EyeLikeOp(OnnxOp):
    """A 2-D tensor of `input`'s shape, 1 on the `k`th diagonal and 0 elsewhere;
    of `dtype` (an ONNX type code), else of `input`'s element type."""

    name = "onnx.EyeLike"
    DEFAULTS: ClassVar[dict[str, object]] = {"k": 0}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    dtype = opt_prop_def(IntegerAttr)
    k = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    ShapeOp,
    SizeOp,
    ConstantOfShapeOp,
    RangeOp,
    EyeLikeOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "ConstantOfShapeOp",
    "EyeLikeOp",
    "RangeOp",
    "ShapeOp",
    "SizeOp",
]
