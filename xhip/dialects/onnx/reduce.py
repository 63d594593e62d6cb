"""Reductions, normalizations, the softmax family and Dropout
(`onnx_to_hip/reduce.py` converts them)."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, ArrayAttr, FloatAttr, IntegerAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
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

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


class ReduceBase(OnnxOp, ABC):
    """`ReduceX`: `axes` is an attribute up to opset 17 (ReduceSum: 12), an
    optional input from 18 (ReduceSum: 13); the operand is `axes_input`, since
    a field cannot share the attribute's name."""

    DEFAULTS: ClassVar[dict[str, object]] = {"keepdims": 1, "noop_with_empty_axes": 0}
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("axes_input",)

    data = operand_def(AnyTensor)
    axes_input = opt_operand_def(AnyTensor)
    reduced = result_def(AnyTensor)
    axes = opt_prop_def(ArrayAttr[IntegerAttr])
    keepdims = opt_prop_def(IntegerAttr)
    noop_with_empty_axes = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ReduceMeanOp(ReduceBase):
    name = "onnx.ReduceMean"


@irdl_op_definition
class ReduceSumOp(ReduceBase):
    name = "onnx.ReduceSum"


@irdl_op_definition
class ReduceMaxOp(ReduceBase):
    name = "onnx.ReduceMax"


@irdl_op_definition
class ReduceMinOp(ReduceBase):
    name = "onnx.ReduceMin"


@irdl_op_definition
class ReduceProdOp(ReduceBase):
    name = "onnx.ReduceProd"


@irdl_op_definition
class ReduceL1Op(ReduceBase):
    name = "onnx.ReduceL1"


@irdl_op_definition
class ReduceL2Op(ReduceBase):
    name = "onnx.ReduceL2"


@irdl_op_definition
class ReduceLogSumExpOp(ReduceBase):
    name = "onnx.ReduceLogSumExp"


@irdl_op_definition
class ReduceSumSquareOp(ReduceBase):
    name = "onnx.ReduceSumSquare"


@irdl_op_definition
class ReduceLogSumOp(ReduceBase):
    name = "onnx.ReduceLogSum"


class _ArgReduce(OnnxOp, ABC):
    DEFAULTS: ClassVar[dict[str, object]] = {
        "axis": 0,
        "keepdims": 1,
        "select_last_index": 0,
    }

    data = operand_def(AnyTensor)
    reduced = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    keepdims = opt_prop_def(IntegerAttr)
    select_last_index = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ArgMaxOp(_ArgReduce):
    name = "onnx.ArgMax"


@irdl_op_definition
class ArgMinOp(_ArgReduce):
    name = "onnx.ArgMin"


@irdl_op_definition
class LayerNormalizationOp(OnnxOp):
    """Opset 17; `Mean` and `InvStdDev` are optional results."""

    name = "onnx.LayerNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "axis": -1,
        "epsilon": 1e-5,
        "stash_type": 1,
    }

    X = operand_def(AnyTensor)
    Scale = operand_def(AnyTensor)
    B = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    Mean = opt_result_def(AnyTensor)
    InvStdDev = opt_result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    stash_type = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedResultSegments(as_property=True),)


@irdl_op_definition
class RMSNormalizationOp(OnnxOp):
    """Opset 23."""

    name = "onnx.RMSNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "axis": -1,
        "epsilon": 1e-5,
        "stash_type": 1,
    }

    X = operand_def(AnyTensor)
    scale = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    stash_type = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class LogSoftmaxOp(OnnxOp):
    name = "onnx.LogSoftmax"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": -1}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class HardmaxOp(OnnxOp):
    name = "onnx.Hardmax"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": -1}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class DropoutOp(OnnxOp):
    """Opset 13+: `ratio` and `training_mode` are optional inputs, `mask` an
    optional result."""

    name = "onnx.Dropout"

    data = operand_def(AnyTensor)
    ratio = opt_operand_def(AnyTensor)
    training_mode = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    mask = opt_result_def(AnyTensor)
    seed = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class LpNormalizationOp(OnnxOp):
    """`input` divided by its L1 (`p` 1) or L2 (`p` 2) norm along `axis`."""

    name = "onnx.LpNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": -1, "p": 2}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    p = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class MeanVarianceNormalizationOp(OnnxOp):
    """Opset 13: `(X - mean) / (std + 1e-9)` over `axes` (default N, H, W)."""

    name = "onnx.MeanVarianceNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {"axes": [0, 2, 3]}

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    axes = opt_prop_def(ArrayAttr[IntegerAttr])
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    ReduceMeanOp,
    ReduceSumOp,
    ReduceMaxOp,
    ReduceMinOp,
    ReduceProdOp,
    ReduceL1Op,
    ReduceL2Op,
    ReduceLogSumExpOp,
    ReduceSumSquareOp,
    ArgMaxOp,
    ArgMinOp,
    LayerNormalizationOp,
    RMSNormalizationOp,
    LogSoftmaxOp,
    HardmaxOp,
    DropoutOp,
    ReduceLogSumOp,
    LpNormalizationOp,
    MeanVarianceNormalizationOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "ArgMaxOp",
    "ArgMinOp",
    "DropoutOp",
    "HardmaxOp",
    "LayerNormalizationOp",
    "LogSoftmaxOp",
    "LpNormalizationOp",
    "MeanVarianceNormalizationOp",
    "RMSNormalizationOp",
    "ReduceBase",
    "ReduceL1Op",
    "ReduceL2Op",
    "ReduceLogSumExpOp",
    "ReduceLogSumOp",
    "ReduceMaxOp",
    "ReduceMeanOp",
    "ReduceMinOp",
    "ReduceProdOp",
    "ReduceSumOp",
    "ReduceSumSquareOp",
]
