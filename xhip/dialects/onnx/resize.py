"""Resize (`onnx_to_hip/resize.py` converts it)."""

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
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_op_definition
class ResizeOp(OnnxOp):
    """Opsets 11, 13, 18 (`axes`, `antialias`, `keep_aspect_ratio_policy`), 19
    (`half_pixel_symmetric`): `roi`, `scales` (float) and `sizes` (int64) are
    optional inputs, one of `scales` and `sizes` given."""

    name = "onnx.Resize"
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("roi", "scales", "sizes")
    DEFAULTS: ClassVar[dict[str, object]] = {
        "antialias": 0,
        "coordinate_transformation_mode": "half_pixel",
        "cubic_coeff_a": -0.75,
        "exclude_outside": 0,
        "extrapolation_value": 0.0,
        "keep_aspect_ratio_policy": "stretch",
        "mode": "nearest",
        "nearest_mode": "round_prefer_floor",
    }

    X = operand_def(AnyTensor)
    roi = opt_operand_def(AnyTensor)
    scales = opt_operand_def(AnyTensor)
    sizes = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    antialias = opt_prop_def(IntegerAttr)
    axes = opt_prop_def(ArrayAttr[IntegerAttr])
    coordinate_transformation_mode = opt_prop_def(StringAttr)
    cubic_coeff_a = opt_prop_def(FloatAttr[AnyFloat])
    exclude_outside = opt_prop_def(IntegerAttr)
    extrapolation_value = opt_prop_def(FloatAttr[AnyFloat])
    keep_aspect_ratio_policy = opt_prop_def(StringAttr)
    mode = opt_prop_def(StringAttr)
    nearest_mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def get_string(self, name: str) -> str:
        attr = self.properties.get(name)
        if isinstance(attr, StringAttr):
            return attr.data
        value = self.DEFAULTS[name]
        assert isinstance(value, str)
        return value


OPS: tuple[type[Operation], ...] = (
    ResizeOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "ResizeOp",
]
