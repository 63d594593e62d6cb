"""Quantization: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
MatMulInteger, QLinearMatMul, ConvInteger and QLinearConv
(`onnx_to_hip/quantize.py` converts them)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
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
class QuantizeLinearOp(OnnxOp):
    """Opsets 10 to 25: per tensor, per axis, or blocked (`block_size`, 21);
    `saturate` (19) matters for float8 outputs only, `output_dtype` (21) is
    the result's type, `precision` (23) that of the division (0: x's)."""

    name = "onnx.QuantizeLinear"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "axis": 1,
        "block_size": 0,
        "output_dtype": 0,
        "precision": 0,
        "saturate": 1,
    }

    x = operand_def(AnyTensor)
    y_scale = operand_def(AnyTensor)
    y_zero_point = opt_operand_def(AnyTensor)
    y = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    block_size = opt_prop_def(IntegerAttr)
    output_dtype = opt_prop_def(IntegerAttr)
    precision = opt_prop_def(IntegerAttr)
    saturate = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class DequantizeLinearOp(OnnxOp):
    """Opsets 10 to 25: per tensor, per axis, or blocked (`block_size`, 21);
    `output_dtype` (23) is the result's type."""

    name = "onnx.DequantizeLinear"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "axis": 1,
        "block_size": 0,
        "output_dtype": 0,
    }

    x = operand_def(AnyTensor)
    x_scale = operand_def(AnyTensor)
    x_zero_point = opt_operand_def(AnyTensor)
    y = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    block_size = opt_prop_def(IntegerAttr)
    output_dtype = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class DynamicQuantizeLinearOp(OnnxOp):
    """Opset 11: float32 to uint8, the scale and zero point from x's range."""

    name = "onnx.DynamicQuantizeLinear"

    x = operand_def(AnyTensor)
    y = result_def(AnyTensor)
    y_scale = result_def(AnyTensor)
    y_zero_point = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class MatMulIntegerOp(OnnxOp):
    """Opset 10: numpy matmul of 8-bit integers less their zero points
    (scalars, per row of A, per column of B), accumulated in int32."""

    name = "onnx.MatMulInteger"

    A = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    a_zero_point = opt_operand_def(AnyTensor)
    b_zero_point = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class QLinearMatMulOp(OnnxOp):
    """Opsets 10 and 21: MatMulInteger of a and b less their zero points,
    requantized to y's scale and zero point (a per tensor or per row, b per
    tensor or per column, y per tensor)."""

    name = "onnx.QLinearMatMul"

    a = operand_def(AnyTensor)
    a_scale = operand_def(AnyTensor)
    a_zero_point = operand_def(AnyTensor)
    b = operand_def(AnyTensor)
    b_scale = operand_def(AnyTensor)
    b_zero_point = operand_def(AnyTensor)
    y_scale = operand_def(AnyTensor)
    y_zero_point = operand_def(AnyTensor)
    y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ConvIntegerOp(OnnxOp):
    """Opset 10: Conv of 8-bit x and w less their zero points (x's one
    element, w's one or one per output channel), accumulated in int32; the
    window attributes as Conv's."""

    name = "onnx.ConvInteger"
    DEFAULTS: ClassVar[dict[str, object]] = {"group": 1, "auto_pad": "NOTSET"}

    x = operand_def(AnyTensor)
    w = operand_def(AnyTensor)
    x_zero_point = opt_operand_def(AnyTensor)
    w_zero_point = opt_operand_def(AnyTensor)
    y = result_def(AnyTensor)
    auto_pad = opt_prop_def(StringAttr)
    dilations = opt_prop_def(ArrayAttr[IntegerAttr])
    group = opt_prop_def(IntegerAttr)
    kernel_shape = opt_prop_def(ArrayAttr[IntegerAttr])
    pads = opt_prop_def(ArrayAttr[IntegerAttr])
    strides = opt_prop_def(ArrayAttr[IntegerAttr])
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def get_auto_pad(self) -> str:
        return self.auto_pad.data if self.auto_pad is not None else "NOTSET"


@irdl_op_definition
class QLinearConvOp(OnnxOp):
    """Opset 10: ConvInteger of x and w less their zero points, plus the
    int32 bias `B`, requantized to y's scale and zero point (w's scale and
    zero point per tensor or per output channel)."""

    name = "onnx.QLinearConv"
    DEFAULTS: ClassVar[dict[str, object]] = {"group": 1, "auto_pad": "NOTSET"}

    x = operand_def(AnyTensor)
    x_scale = operand_def(AnyTensor)
    x_zero_point = operand_def(AnyTensor)
    w = operand_def(AnyTensor)
    w_scale = operand_def(AnyTensor)
    w_zero_point = operand_def(AnyTensor)
    y_scale = operand_def(AnyTensor)
    y_zero_point = operand_def(AnyTensor)
    B = opt_operand_def(AnyTensor)
    y = result_def(AnyTensor)
    auto_pad = opt_prop_def(StringAttr)
    dilations = opt_prop_def(ArrayAttr[IntegerAttr])
    group = opt_prop_def(IntegerAttr)
    kernel_shape = opt_prop_def(ArrayAttr[IntegerAttr])
    pads = opt_prop_def(ArrayAttr[IntegerAttr])
    strides = opt_prop_def(ArrayAttr[IntegerAttr])
    traits = traits_def(NoMemoryEffect())

    def get_auto_pad(self) -> str:
        return self.auto_pad.data if self.auto_pad is not None else "NOTSET"


OPS: tuple[type[Operation], ...] = (
    QuantizeLinearOp,
    DequantizeLinearOp,
    DynamicQuantizeLinearOp,
    MatMulIntegerOp,
    QLinearMatMulOp,
    ConvIntegerOp,
    QLinearConvOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "ConvIntegerOp",
    "DequantizeLinearOp",
    "DynamicQuantizeLinearOp",
    "MatMulIntegerOp",
    "QLinearConvOp",
    "QLinearMatMulOp",
    "QuantizeLinearOp",
]
