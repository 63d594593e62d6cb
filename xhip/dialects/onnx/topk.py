"""TopK (`onnx_to_hip/topk.py` converts it)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation
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
class TopKOp(OnnxOp):
    """Opset 11: `K` (a one-element int64 tensor) is an input; `Indices` int64."""

    name = "onnx.TopK"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": -1, "largest": 1, "sorted": 1}

    X = operand_def(AnyTensor)
    K = operand_def(AnyTensor)
    Values = result_def(AnyTensor)
    Indices = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    largest = opt_prop_def(IntegerAttr)
    sorted = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    TopKOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "TopKOp",
]
