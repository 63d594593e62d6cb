"""Pad, DepthToSpace, SpaceToDepth, InstanceNormalization, GroupNormalization
and LRN (`onnx_to_hip/pad.py` converts them)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, StringAttr
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
class PadOp(OnnxOp):
    """Opset 13 (18: the `axes` input; 19: `wrap` mode): `pads` are all begins,
    then all ends, one pair per axis of `axes` (default: every dim)."""

    name = "onnx.Pad"
    DEFAULTS: ClassVar[dict[str, object]] = {"mode": "constant"}

    data = operand_def(AnyTensor)
    pads = operand_def(AnyTensor)
    constant_value = opt_operand_def(AnyTensor)
    axes = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class DepthToSpaceOp(OnnxOp):
    """Opset 13: (N, C, H, W) to (N, C / b^2, H * b, W * b); `mode` DCR or CRD."""

    name = "onnx.DepthToSpace"
    DEFAULTS: ClassVar[dict[str, object]] = {"mode": "DCR"}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    blocksize = opt_prop_def(IntegerAttr)
    mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SpaceToDepthOp(OnnxOp):
    """Opset 13: (N, C, H, W) to (N, C * b^2, H / b, W / b); opset 28 adds
    `mode` (DCR, CRD), the inverse of DepthToSpace's."""

    name = "onnx.SpaceToDepth"
    DEFAULTS: ClassVar[dict[str, object]] = {"mode": "DCR"}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    blocksize = opt_prop_def(IntegerAttr)
    mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class InstanceNormalizationOp(OnnxOp):
    """Opset 6 (22: bfloat16): `scale` and `B` are (C)."""

    name = "onnx.InstanceNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {"epsilon": 1e-5}

    input = operand_def(AnyTensor)
    scale = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class GroupNormalizationOp(OnnxOp):
    """Opset 18: `scale` and `bias` are (num_groups); opset 21 (which adds
    `stash_type`, so its presence tells them apart): (C)."""

    name = "onnx.GroupNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {"epsilon": 1e-5, "stash_type": 1}

    X = operand_def(AnyTensor)
    scale = operand_def(AnyTensor)
    bias = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    num_groups = opt_prop_def(IntegerAttr)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    stash_type = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class LRNOp(OnnxOp):
    """Opset 13: local response normalization across channels."""

    name = "onnx.LRN"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 1e-4, "beta": 0.75, "bias": 1.0}

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    alpha = opt_prop_def(FloatAttr[AnyFloat])
    beta = opt_prop_def(FloatAttr[AnyFloat])
    bias = opt_prop_def(FloatAttr[AnyFloat])
    size = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    PadOp,
    DepthToSpaceOp,
    SpaceToDepthOp,
    InstanceNormalizationOp,
    GroupNormalizationOp,
    LRNOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "DepthToSpaceOp",
    "GroupNormalizationOp",
    "InstanceNormalizationOp",
    "LRNOp",
    "PadOp",
    "SpaceToDepthOp",
]
