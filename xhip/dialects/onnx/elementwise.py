"""The elementwise ops with their own patterns (`onnx_to_hip/elementwise.py`):
Gelu, PRelu, the variadic Max/Min/Sum/Mean, Clip, Mod, CastLike, BitShift and
Shrink."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, StringAttr
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

from xhip.dialects.onnx.base import AnyTensor, Binary, OnnxOp, Unary


@irdl_op_definition
class GeluOp(Unary):
    name = "onnx.Gelu"
    DEFAULTS: ClassVar[dict[str, object]] = {"approximate": "none"}

    approximate = opt_prop_def(StringAttr)


@irdl_op_definition
class PReluOp(OnnxOp):
    name = "onnx.PRelu"

    X = operand_def(AnyTensor)
    slope = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


class _Variadic(OnnxOp, ABC):
    """1 to N inputs, broadcast together."""

    data_0 = var_operand_def(AnyTensor)
    result = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class MaxOp(_Variadic):
    name = "onnx.Max"


@irdl_op_definition
class MinOp(_Variadic):
    name = "onnx.Min"


@irdl_op_definition
class SumOp(_Variadic):
    name = "onnx.Sum"


@irdl_op_definition
class MeanOp(_Variadic):
    name = "onnx.Mean"


@irdl_op_definition
class ClipOp(OnnxOp):
    """Opset 13: `min` and `max` are optional scalar inputs."""

    name = "onnx.Clip"

    input = operand_def(AnyTensor)
    min = opt_operand_def(AnyTensor)
    max = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class ModOp(Binary):
    name = "onnx.Mod"
    DEFAULTS: ClassVar[dict[str, object]] = {"fmod": 0}

    fmod = opt_prop_def(IntegerAttr)


@irdl_op_definition
class CastLikeOp(OnnxOp):
    """Cast to the element type of `target_type` (the function bodies of the
    activations use it)."""

    name = "onnx.CastLike"
    DEFAULTS: ClassVar[dict[str, object]] = {"saturate": 1, "round_mode": "up"}

    input = operand_def(AnyTensor)
    target_type = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    saturate = opt_prop_def(IntegerAttr)
    round_mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class BitShiftOp(Binary):
    name = "onnx.BitShift"

    direction = prop_def(StringAttr)


@irdl_op_definition
class ShrinkOp(Unary):
    name = "onnx.Shrink"
    DEFAULTS: ClassVar[dict[str, object]] = {"bias": 0.0, "lambd": 0.5}

    bias = opt_prop_def(FloatAttr[AnyFloat])
    lambd = opt_prop_def(FloatAttr[AnyFloat])


OPS: tuple[type[Operation], ...] = (
    GeluOp,
    PReluOp,
    MaxOp,
    MinOp,
    SumOp,
    MeanOp,
    ClipOp,
    ModOp,
    CastLikeOp,
    BitShiftOp,
    ShrinkOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "BitShiftOp",
    "CastLikeOp",
    "ClipOp",
    "GeluOp",
    "MaxOp",
    "MeanOp",
    "MinOp",
    "ModOp",
    "PReluOp",
    "ShrinkOp",
    "SumOp",
]
