"""Scatters, Trilu, CumSum, CumProd and OneHot (`onnx_to_hip/scatter.py` converts them):
`k`, `axis` and `depth` must be known at compile time."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, StringAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_op_definition
class ScatterNDOp(OnnxOp):
    """Opset 11 (16, 18: `reduction` none, add, mul, max, min)."""

    name = "onnx.ScatterND"
    DEFAULTS: ClassVar[dict[str, object]] = {"reduction": "none"}

    data = operand_def(AnyTensor)
    indices = operand_def(AnyTensor)
    updates = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    reduction = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ScatterElementsOp(OnnxOp):
    """Opset 11 (16, 18: `reduction`); int32 or int64 indices."""

    name = "onnx.ScatterElements"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": 0, "reduction": "none"}

    data = operand_def(AnyTensor)
    indices = operand_def(AnyTensor)
    updates = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    reduction = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class TriluOp(OnnxOp):
    """Opset 14; `k` is an optional 0-D int64 input."""

    name = "onnx.Trilu"
    DEFAULTS: ClassVar[dict[str, object]] = {"upper": 1}

    input = operand_def(AnyTensor)
    k = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    upper = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


class ScanOp(OnnxOp, ABC):
    """CumSum, CumProd: `axis` is a 0-D int32 or int64 input."""

    DEFAULTS: ClassVar[dict[str, object]] = {"exclusive": 0, "reverse": 0}
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("axis",)

    x = operand_def(AnyTensor)
    axis = operand_def(AnyTensor)
    y = result_def(AnyTensor)
    exclusive = opt_prop_def(IntegerAttr)
    reverse = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class CumSumOp(ScanOp):
    """Opset 14."""

    name = "onnx.CumSum"


@irdl_op_definition
class CumProdOp(ScanOp):
    """Opset 26."""

    name = "onnx.CumProd"


@irdl_op_definition
class OneHotOp(OnnxOp):
    """Opset 11; `depth` a scalar of any numeric type, `values` [off, on]."""

    name = "onnx.OneHot"
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("depth",)
    READS_BACK_INTEGERS: ClassVar[bool] = True
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": -1}

    indices = operand_def(AnyTensor)
    depth = operand_def(AnyTensor)
    values = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    ScatterNDOp,
    ScatterElementsOp,
    TriluOp,
    CumSumOp,
    OneHotOp,
    CumProdOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "CumProdOp",
    "CumSumOp",
    "OneHotOp",
    "ScatterElementsOp",
    "ScanOp",
    "ScatterNDOp",
    "TriluOp",
]
