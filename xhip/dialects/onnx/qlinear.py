"""ONNX Runtime's quantized contrib ops (`com.microsoft` version 1), the
QOperator format that `onnxruntime.quantization` writes: QLinearAdd,
QLinearMul, QLinearSigmoid, QLinearLeakyRelu, QLinearGlobalAveragePool,
QLinearAveragePool, QLinearConcat, QLinearSoftmax, QGemm; and the ops ORT's graph
optimizer fuses dynamic quantization into (DynamicQuantizeMatMul,
MatMulIntegerToFloat) and FusedMatMul. `onnx_to_hip/qlinear.py` writes
each as the ai.onnx ops ORT's CPU kernels compute it with.

Operand names and attribute defaults as ORT's `docs/ContribOperators.md`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
)
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor
from xhip.dialects.onnx.contrib import ContribOp

ABSENT = -(1 << 40)
"""The importer states every contrib attribute: this default stands for
one the node leaves out that has no value of its own (QLinearConcat's
required `axis`; a list attribute: `[ABSENT]`)."""


class _QLinearBinary(ContribOp):
    """`C = quantize(dequantize(A) op dequantize(B))`, numpy broadcasting."""

    A = operand_def(AnyTensor)
    A_scale = operand_def(AnyTensor)
    A_zero_point = opt_operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    B_scale = operand_def(AnyTensor)
    B_zero_point = opt_operand_def(AnyTensor)
    C_scale = operand_def(AnyTensor)
    C_zero_point = opt_operand_def(AnyTensor)
    C = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class QLinearAddOp(_QLinearBinary):
    name = "onnx.QLinearAdd"


@irdl_op_definition
class QLinearMulOp(_QLinearBinary):
    name = "onnx.QLinearMul"


class _QLinearUnary(ContribOp):
    """`Y = quantize(f(dequantize(X)))`: ORT's lookup table of 256 entries."""

    X = operand_def(AnyTensor)
    X_scale = operand_def(AnyTensor)
    X_zero_point = opt_operand_def(AnyTensor)
    Y_scale = operand_def(AnyTensor)
    Y_zero_point = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class QLinearSigmoidOp(_QLinearUnary):
    name = "onnx.QLinearSigmoid"


@irdl_op_definition
class QLinearLeakyReluOp(_QLinearUnary):
    name = "onnx.QLinearLeakyRelu"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 0.01}

    alpha = opt_prop_def(FloatAttr[AnyFloat])


@irdl_op_definition
class QLinearGlobalAveragePoolOp(ContribOp):
    """The mean over the spatial dims (NCHW, or NHWC with `channels_last`)."""

    name = "onnx.QLinearGlobalAveragePool"
    DEFAULTS: ClassVar[dict[str, object]] = {"channels_last": 0}

    X = operand_def(AnyTensor)
    x_scale = operand_def(AnyTensor)
    x_zero_point = operand_def(AnyTensor)
    y_scale = operand_def(AnyTensor)
    y_zero_point = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    channels_last = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class QLinearAveragePoolOp(ContribOp):
    """AveragePool of the dequantized X, quantized (its window attributes)."""

    name = "onnx.QLinearAveragePool"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "auto_pad": "NOTSET",
        "ceil_mode": 0,
        "channels_last": 0,
        "count_include_pad": 0,
        "kernel_shape": [ABSENT],
        "pads": [ABSENT],
        "strides": [ABSENT],
    }

    X = operand_def(AnyTensor)
    x_scale = operand_def(AnyTensor)
    x_zero_point = opt_operand_def(AnyTensor)
    y_scale = operand_def(AnyTensor)
    y_zero_point = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    auto_pad = opt_prop_def(StringAttr)
    ceil_mode = opt_prop_def(IntegerAttr)
    channels_last = opt_prop_def(IntegerAttr)
    count_include_pad = opt_prop_def(IntegerAttr)
    kernel_shape = opt_prop_def(ArrayAttr[IntegerAttr])
    pads = opt_prop_def(ArrayAttr[IntegerAttr])
    strides = opt_prop_def(ArrayAttr[IntegerAttr])
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class QLinearConcatOp(ContribOp):
    """Concat along `axis` of (tensor, scale, zero point) triples, each
    requantized to Y's scale and zero point."""

    name = "onnx.QLinearConcat"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": ABSENT}

    Y_scale = operand_def(AnyTensor)
    Y_zero_point = operand_def(AnyTensor)
    inputs = var_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    axis = prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class QGemmOp(ContribOp):
    """`alpha * op(A) @ op(B)` of 8-bit A and B less their zero points, plus
    the int32 `C`; quantized with y's scale and zero point, or float32
    without them."""

    name = "onnx.QGemm"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 1.0, "transA": 0, "transB": 0}

    A = operand_def(AnyTensor)
    a_scale = operand_def(AnyTensor)
    a_zero_point = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    b_scale = operand_def(AnyTensor)
    b_zero_point = operand_def(AnyTensor)
    C = opt_operand_def(AnyTensor)
    y_scale = opt_operand_def(AnyTensor)
    y_zero_point = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    alpha = opt_prop_def(FloatAttr[AnyFloat])
    transA = opt_prop_def(IntegerAttr)
    transB = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class DynamicQuantizeMatMulOp(ContribOp):
    """DynamicQuantizeLinear of A, MatMulInteger with B, scaled back to
    float32 by `a_scale * b_scale`, plus `bias`."""

    name = "onnx.DynamicQuantizeMatMul"

    A = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    b_scale = operand_def(AnyTensor)
    b_zero_point = opt_operand_def(AnyTensor)
    bias = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class MatMulIntegerToFloatOp(ContribOp):
    """MatMulInteger scaled back to float32 by `a_scale * b_scale`, plus `bias`."""

    name = "onnx.MatMulIntegerToFloat"

    A = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    a_scale = operand_def(AnyTensor)
    b_scale = operand_def(AnyTensor)
    a_zero_point = opt_operand_def(AnyTensor)
    b_zero_point = opt_operand_def(AnyTensor)
    bias = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class FusedMatMulOp(ContribOp):
    """`alpha * op(A) @ op(B)`: `transA`/`transB` swap the last two dims,
    `transBatchA`/`transBatchB` move the first dim behind the batch dims."""

    name = "onnx.FusedMatMul"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "alpha": 1.0,
        "transA": 0,
        "transB": 0,
        "transBatchA": 0,
        "transBatchB": 0,
    }

    A = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    alpha = opt_prop_def(FloatAttr[AnyFloat])
    transA = opt_prop_def(IntegerAttr)
    transB = opt_prop_def(IntegerAttr)
    transBatchA = opt_prop_def(IntegerAttr)
    transBatchB = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class QLinearSoftmaxOp(ContribOp):
    """Softmax of X along `axis` (opset < 13: of the dims from `axis` on,
    flattened), quantized to Y's scale and zero point; X's zero point does
    not matter (a shift). `opset` is required."""

    name = "onnx.QLinearSoftmax"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": ABSENT, "opset": ABSENT}

    X = operand_def(AnyTensor)
    X_scale = operand_def(AnyTensor)
    x_zero_point = opt_operand_def(AnyTensor)
    y_scale = operand_def(AnyTensor)
    y_zero_point = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    opset = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


OPS: tuple[type[Operation], ...] = (
    QLinearAddOp,
    QLinearMulOp,
    QLinearSigmoidOp,
    QLinearLeakyReluOp,
    QLinearGlobalAveragePoolOp,
    QLinearAveragePoolOp,
    QLinearConcatOp,
    QGemmOp,
    DynamicQuantizeMatMulOp,
    MatMulIntegerToFloatOp,
    FusedMatMulOp,
    QLinearSoftmaxOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "ABSENT",
    "DynamicQuantizeMatMulOp",
    "FusedMatMulOp",
    "MatMulIntegerToFloatOp",
    "QGemmOp",
    "QLinearAddOp",
    "QLinearAveragePoolOp",
    "QLinearConcatOp",
    "QLinearGlobalAveragePoolOp",
    "QLinearLeakyReluOp",
    "QLinearMulOp",
    "QLinearSigmoidOp",
    "QLinearSoftmaxOp",
]
