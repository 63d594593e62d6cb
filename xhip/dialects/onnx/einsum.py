"""Einsum (`onnx_to_hip/einsum.py` converts it)."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_op_definition
class EinsumOp(OnnxOp):
    """Opset 12: `equation` in numpy's notation (`bij,bjk->bik`, `...` for
    broadcast dims); no `->` means the output is the letters seen once, sorted."""

    name = "onnx.Einsum"

    Inputs = var_operand_def(AnyTensor)
    Output = result_def(AnyTensor)
    equation = prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    EinsumOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "EinsumOp",
]
