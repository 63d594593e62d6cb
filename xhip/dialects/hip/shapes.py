"""Ops that write values the host knows: fill, from_elements, range (converted
by `onnx_to_hip/shapes.py`; kernels in `backend/kernels/shape.h`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    IntegerType,
    i64,
)
from xdsl.ir import Operation
from xdsl.irdl import (
    base,
    irdl_op_definition,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.hip.base import (
    HipComputeOp,
    HipIndexedComputeOp,
    Value,
    f32_attr,
    fmt_shape,
    shape_of,
)


@dataclass(frozen=True, slots=True)
class FillAttributes:
    """The value every element gets (an int for an integer `out`)."""

    value: float


@irdl_op_definition
class FillOp(HipComputeOp):
    """Every element of `outs` set to `value`; no `ins` (Dropout's mask)."""

    name = "hip.fill"
    INS: ClassVar[tuple[str, ...]] = ()
    RUNTIME_CALL: ClassVar[str] = "fill"

    value = prop_def(base(IntegerAttr) | base(FloatAttr))

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        out: Value,
        value: int | float,
        integer_type: IntegerType | None = None,
    ) -> Self:
        """An int `value` is an i64 attribute, or of `integer_type`; a float
        one f32."""
        attr = (
            f32_attr(value)
            if isinstance(value, float)
            else IntegerAttr(value, integer_type or i64)
        )
        return cls._from_roles(ctx, {"out": out}, {"value": attr})

    def runtime_attributes(self) -> FillAttributes:
        return FillAttributes(self.value.value.data)


@irdl_op_definition
class FromElementsOp(HipIndexedComputeOp):
    """`outs` (int or bool, at most 1-D) written from host index values: a shape
    value (`onnx-fold-shapes`) that device code reads. Bools are `value != 0`."""

    name = "hip.from_elements"
    INDEX: ClassVar[tuple[str, ...]] = ("values*",)
    INS: ClassVar[tuple[str, ...]] = ()
    RUNTIME_CALL: ClassVar[str] = "from_elements"

    @classmethod
    def make(cls, ctx: Value, /, *, values: Sequence[Value], out: Value) -> Self:
        return cls._from_roles(ctx, {"values": values, "out": out})

    def verify_shapes(self) -> None:
        out = shape_of(self.outputs[0])
        if len(out) > 1 or math.prod(out) != len(self.indices):
            raise VerifyException(
                f"'{self.name}' writes {len(self.indices)} values into {fmt_shape(out)}"
            )


@irdl_op_definition
class RangeOp(HipComputeOp):
    """ONNX Range: `out[i] = start + i * delta`; `ins` are the 0-D start and
    delta, the length is the size of `outs` (computed by the conversion)."""

    name = "hip.range"
    INS: ClassVar[tuple[str, ...]] = ("start", "delta")
    RUNTIME_CALL: ClassVar[str] = "range"

    @classmethod
    def make(cls, ctx: Value, /, *, start: Value, delta: Value, out: Value) -> Self:
        return cls._from_roles(ctx, {"start": start, "delta": delta, "out": out})


OPS: tuple[type[Operation], ...] = (
    FillOp,
    FromElementsOp,
    RangeOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "FillAttributes",
    "FillOp",
    "FromElementsOp",
    "RangeOp",
]
