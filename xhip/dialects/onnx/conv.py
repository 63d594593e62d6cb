"""Convolution, pooling and batch normalization (`onnx_to_hip/conv.py` converts
them); `Windowed` is what they share with ConvTranspose and LpPool."""

from __future__ import annotations

from abc import ABC
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
    AttrSizedResultSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp, Unary


class Windowed(OnnxOp, ABC):
    """What Conv and the pooling ops share: `kernel_shape`, `strides`,
    `dilations`, `pads` (all begins, then all ends) and `auto_pad`."""

    X = operand_def(AnyTensor)
    auto_pad = opt_prop_def(StringAttr)
    dilations = opt_prop_def(ArrayAttr[IntegerAttr])
    kernel_shape = opt_prop_def(ArrayAttr[IntegerAttr])
    pads = opt_prop_def(ArrayAttr[IntegerAttr])
    strides = opt_prop_def(ArrayAttr[IntegerAttr])
    traits = traits_def(NoMemoryEffect())

    def get_auto_pad(self) -> str:
        return self.auto_pad.data if self.auto_pad is not None else "NOTSET"


@irdl_op_definition
class ConvOp(Windowed):
    """Opset 11 (22: more types): `W` is (M, C/group, k...), `B` optional (M)."""

    name = "onnx.Conv"
    DEFAULTS: ClassVar[dict[str, object]] = {"group": 1, "auto_pad": "NOTSET"}

    X = operand_def(AnyTensor)
    W = operand_def(AnyTensor)
    B = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    group = opt_prop_def(IntegerAttr)


@irdl_op_definition
class MaxPoolOp(Windowed):
    """Opset 12 (22); `Indices` (int64, flat indices into X) is optional."""

    name = "onnx.MaxPool"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "auto_pad": "NOTSET",
        "ceil_mode": 0,
        "storage_order": 0,
    }

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    Indices = opt_result_def(AnyTensor)
    ceil_mode = opt_prop_def(IntegerAttr)
    storage_order = opt_prop_def(IntegerAttr)


@irdl_op_definition
class AveragePoolOp(Windowed):
    """Opset 11 (19: dilations; 22)."""

    name = "onnx.AveragePool"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "auto_pad": "NOTSET",
        "ceil_mode": 0,
        "count_include_pad": 0,
    }

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    ceil_mode = opt_prop_def(IntegerAttr)
    count_include_pad = opt_prop_def(IntegerAttr)


@irdl_op_definition
class GlobalAveragePoolOp(Unary):
    name = "onnx.GlobalAveragePool"


@irdl_op_definition
class GlobalMaxPoolOp(Unary):
    name = "onnx.GlobalMaxPool"


@irdl_op_definition
class GlobalLpPoolOp(Unary):
    """The `p`-norm over all spatial dims."""

    name = "onnx.GlobalLpPool"
    DEFAULTS: ClassVar[dict[str, object]] = {"p": 2}

    p = opt_prop_def(IntegerAttr)


@irdl_op_definition
class BatchNormalizationOp(OnnxOp):
    """Opsets 9 (five outputs, the last four for training), 14 and 15 (three:
    `running_mean` and `running_var` in training mode only)."""

    name = "onnx.BatchNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "epsilon": 1e-5,
        "momentum": 0.9,
        "training_mode": 0,
    }

    X = operand_def(AnyTensor)
    scale = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    input_mean = operand_def(AnyTensor)
    input_var = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    running_mean = opt_result_def(AnyTensor)
    running_var = opt_result_def(AnyTensor)
    saved_mean = opt_result_def(AnyTensor)
    saved_var = opt_result_def(AnyTensor)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    momentum = opt_prop_def(FloatAttr[AnyFloat])
    training_mode = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedResultSegments(as_property=True),)


OPS: tuple[type[Operation], ...] = (
    ConvOp,
    MaxPoolOp,
    AveragePoolOp,
    GlobalAveragePoolOp,
    GlobalMaxPoolOp,
    BatchNormalizationOp,
    GlobalLpPoolOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "AveragePoolOp",
    "BatchNormalizationOp",
    "ConvOp",
    "GlobalAveragePoolOp",
    "GlobalLpPoolOp",
    "GlobalMaxPoolOp",
    "MaxPoolOp",
]
