"""Sampling and placing: GridSample, AffineGrid, Col2Im, CenterCropPad,
MaxUnpool, TensorScatter, DeformConv (`onnx_to_hip/sampling.py` converts
them)."""

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
class GridSampleOp(OnnxOp):
    """Opsets 16 (4-D; `bilinear`, `bicubic`), 20 and 22 (N-D; `linear`,
    `cubic`): `X` (N, C, s...) sampled at `grid` (N, o..., rank) in [-1, 1]."""

    name = "onnx.GridSample"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "align_corners": 0,
        "mode": "linear",
        "padding_mode": "zeros",
    }

    X = operand_def(AnyTensor)
    grid = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    align_corners = opt_prop_def(IntegerAttr)
    mode = opt_prop_def(StringAttr)
    padding_mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class AffineGridOp(OnnxOp):
    """Opset 20: `theta` (N, 2, 3) or (N, 3, 4) and `size` (N, C, H, W) or
    (N, C, D, H, W) give the grid (N, H, W, 2) or (N, D, H, W, 3)."""

    name = "onnx.AffineGrid"
    DEFAULTS: ClassVar[dict[str, object]] = {"align_corners": 0}
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("size",)

    theta = operand_def(AnyTensor)
    size = operand_def(AnyTensor)
    grid = result_def(AnyTensor)
    align_corners = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class Col2ImOp(OnnxOp):
    """Opset 18: `input` (N, C * prod(block), L) of columns summed into the
    image (N, C, image_shape...)."""

    name = "onnx.Col2Im"
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("image_shape", "block_shape")

    input = operand_def(AnyTensor)
    image_shape = operand_def(AnyTensor)
    block_shape = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    dilations = opt_prop_def(ArrayAttr[IntegerAttr])
    pads = opt_prop_def(ArrayAttr[IntegerAttr])
    strides = opt_prop_def(ArrayAttr[IntegerAttr])
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class CenterCropPadOp(OnnxOp):
    """Opset 18: each of `axes` (default: all) cropped or zero-padded about
    its centre to the size `shape` gives it."""

    name = "onnx.CenterCropPad"

    input_data = operand_def(AnyTensor)
    shape = operand_def(AnyTensor)
    output_data = result_def(AnyTensor)
    axes = opt_prop_def(ArrayAttr[IntegerAttr])
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class MaxUnpoolOp(OnnxOp):
    """Opsets 9, 11, 22: `X` put at the flat indices `I` (as MaxPool gives
    them) of a zero output of `output_shape`, or of the size the window says."""

    name = "onnx.MaxUnpool"
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("output_shape",)

    X = operand_def(AnyTensor)
    I = operand_def(AnyTensor)  # noqa: E741 (the spec's name)
    output_shape = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    kernel_shape = opt_prop_def(ArrayAttr[IntegerAttr])
    pads = opt_prop_def(ArrayAttr[IntegerAttr])
    strides = opt_prop_def(ArrayAttr[IntegerAttr])
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class TensorScatterOp(OnnxOp):
    """Opset 24: `update` (B, ..., S, ...) written into a copy of
    `past_cache` (B, ..., L, ...) along `axis` at `write_indices` (B) per
    batch, `mode` linear or circular (positions modulo L)."""

    name = "onnx.TensorScatter"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": -2, "mode": "linear"}

    past_cache = operand_def(AnyTensor)
    update = operand_def(AnyTensor)
    write_indices = opt_operand_def(AnyTensor)
    present_cache = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class DeformConvOp(OnnxOp):
    """Opset 19: a Conv of `X` (N, C, s...) by `W` (M, C/group, k...) whose
    taps are moved by `offset` (N, offset_group * prod(k) * r, o...),
    sampled bilinearly (zero outside) and scaled by `mask` (N, offset_group
    * prod(k), o...), then `B` (M) added."""

    name = "onnx.DeformConv"
    DEFAULTS: ClassVar[dict[str, object]] = {"group": 1, "offset_group": 1}

    X = operand_def(AnyTensor)
    W = operand_def(AnyTensor)
    offset = operand_def(AnyTensor)
    B = opt_operand_def(AnyTensor)
    mask = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    dilations = opt_prop_def(ArrayAttr[IntegerAttr])
    group = opt_prop_def(IntegerAttr)
    kernel_shape = opt_prop_def(ArrayAttr[IntegerAttr])
    offset_group = opt_prop_def(IntegerAttr)
    pads = opt_prop_def(ArrayAttr[IntegerAttr])
    strides = opt_prop_def(ArrayAttr[IntegerAttr])
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


OPS: tuple[type[Operation], ...] = (
    GridSampleOp,
    AffineGridOp,
    Col2ImOp,
    CenterCropPadOp,
    MaxUnpoolOp,
    TensorScatterOp,
    DeformConvOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "AffineGridOp",
    "CenterCropPadOp",
    "Col2ImOp",
    "DeformConvOp",
    "GridSampleOp",
    "MaxUnpoolOp",
    "TensorScatterOp",
]
