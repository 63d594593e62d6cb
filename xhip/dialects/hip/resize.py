"""`hip.resize` (converted by `onnx_to_hip/resize.py`; kernels in
`backend/kernels/resize.h`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self, cast

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    irdl_op_definition,
    opt_prop_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.hip.base import (
    HipComputeOp,
    Value,
    f64_array,
    f64_attr,
    shape_of,
    str_attr,
    unit_attr,
)

RESIZE_MODES = ("nearest", "linear", "cubic")
RESIZE_COORDINATE_MODES = (
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_crop_and_resize",
)
RESIZE_NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


@dataclass(frozen=True, slots=True)
class ResizeAttributes:
    """`hip.resize`'s, as ONNX names them (`coordinate_mode` is
    `coordinate_transformation_mode`); `scales` and `roi` None where absent."""

    mode: str
    coordinate_mode: str
    nearest_mode: str
    cubic_coeff_a: float
    exclude_outside: bool
    antialias: bool
    extrapolation_value: float
    scales: tuple[float, ...] | None
    roi: tuple[float, ...] | None


@irdl_op_definition
class ResizeOp(HipComputeOp):
    """ONNX Resize of every dim of `ins[0]` to the size of `outs`: each output
    coordinate maps back (`coordinate_transformation_mode`, with `scales`, one
    per dim, or where absent out/in, and `roi` (begins then ends, per dim)
    under tf_crop_and_resize) and interpolates (`mode`: nearest with
    `nearest_mode`, linear, cubic with `cubic_coeff_a`; `antialias`,
    `exclude_outside`), separably per dim; a dim whose size and scale stay is
    copied. Under tf_crop_and_resize a coordinate outside the input gives
    `extrapolation_value`."""

    name = "hip.resize"
    INS: ClassVar[tuple[str, ...]] = ("x",)
    RUNTIME_CALL: ClassVar[str] = "resize"

    mode = prop_def(StringAttr)
    coordinate_transformation_mode = prop_def(StringAttr)
    nearest_mode = prop_def(StringAttr)
    cubic_coeff_a = prop_def(FloatAttr)
    extrapolation_value = prop_def(FloatAttr)
    exclude_outside = opt_prop_def(UnitAttr)
    antialias = opt_prop_def(UnitAttr)
    scales = opt_prop_def(DenseArrayBase)
    roi = opt_prop_def(DenseArrayBase)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        out: Value,
        mode: str,
        coordinate_transformation_mode: str,
        nearest_mode: str,
        cubic_coeff_a: float,
        extrapolation_value: float,
        exclude_outside: bool = False,
        antialias: bool = False,
        scales: Sequence[float] | None = None,
        roi: Sequence[float] | None = None,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"x": x, "out": out},
            {
                "mode": str_attr(mode),
                "coordinate_transformation_mode": str_attr(
                    coordinate_transformation_mode
                ),
                "nearest_mode": str_attr(nearest_mode),
                "cubic_coeff_a": f64_attr(cubic_coeff_a),
                "extrapolation_value": f64_attr(extrapolation_value),
                "exclude_outside": unit_attr(exclude_outside),
                "antialias": unit_attr(antialias),
                "scales": None if scales is None else f64_array(scales),
                "roi": None if roi is None else f64_array(roi),
            },
        )

    @staticmethod
    def _floats(attr: Attribute | None) -> tuple[float, ...] | None:
        if not isinstance(attr, DenseArrayBase):
            return None
        values = cast("DenseArrayBase[Any]", attr).get_values()
        return tuple(float(v) for v in values)

    def runtime_attributes(self) -> ResizeAttributes:
        return ResizeAttributes(
            mode=self.mode.data,
            coordinate_mode=self.coordinate_transformation_mode.data,
            nearest_mode=self.nearest_mode.data,
            cubic_coeff_a=float(self.cubic_coeff_a.value.data),
            exclude_outside=self.exclude_outside is not None,
            antialias=self.antialias is not None,
            extrapolation_value=float(self.extrapolation_value.value.data),
            scales=self._floats(self.scales),
            roi=self._floats(self.roi),
        )

    def verify_shapes(self) -> None:
        x, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(x) != len(out):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has rank {len(out)}, but the input "
                f"has rank {len(x)}"
            )
        for key, allowed in (
            ("mode", RESIZE_MODES),
            ("coordinate_transformation_mode", RESIZE_COORDINATE_MODES),
            ("nearest_mode", RESIZE_NEAREST_MODES),
        ):
            value = cast(StringAttr, self.properties[key]).data
            if value not in allowed:
                raise VerifyException(
                    f"'{self.name}' {key} {value!r} is not one of {list(allowed)}"
                )
        for key, count in (("scales", len(x)), ("roi", 2 * len(x))):
            values = self._floats(self.properties.get(key))
            if values is not None and (
                len(values) != count or (key == "scales" and min(values) <= 0)
            ):
                raise VerifyException(
                    f"'{self.name}' {key} {list(values)} must be {count} "
                    f"{'positive ' if key == 'scales' else ''}numbers"
                )


OPS: tuple[type[Operation], ...] = (
    ResizeOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "RESIZE_COORDINATE_MODES",
    "RESIZE_MODES",
    "RESIZE_NEAREST_MODES",
    "ResizeAttributes",
    "ResizeOp",
]
