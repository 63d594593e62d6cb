"""ConvTranspose and LpPool (`onnx_to_hip/conv_transpose.py` converts them)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
)

from xhip.dialects.onnx.base import AnyTensor
from xhip.dialects.onnx.conv import Windowed


@irdl_op_definition
class ConvTransposeOp(Windowed):
    """Opset 11 (22): `W` is (C, M/group, k...), `B` optional (M);
    `output_shape` (spatial) or `output_padding` decide the output size."""

    name = "onnx.ConvTranspose"
    DEFAULTS: ClassVar[dict[str, object]] = {"group": 1, "auto_pad": "NOTSET"}

    X = operand_def(AnyTensor)
    W = operand_def(AnyTensor)
    B = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    group = opt_prop_def(IntegerAttr)
    output_padding = opt_prop_def(ArrayAttr[IntegerAttr])
    output_shape = opt_prop_def(ArrayAttr[IntegerAttr])


@irdl_op_definition
class LpPoolOp(Windowed):
    """Opset 11 (18: `ceil_mode`, `dilations`; 22): `(sum |x|^p)^(1/p)`."""

    name = "onnx.LpPool"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "auto_pad": "NOTSET",
        "ceil_mode": 0,
        "p": 2,
    }

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    ceil_mode = opt_prop_def(IntegerAttr)
    p = opt_prop_def(IntegerAttr)


OPS: tuple[type[Operation], ...] = (
    LpPoolOp,
    ConvTransposeOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "ConvTransposeOp",
    "LpPoolOp",
]
