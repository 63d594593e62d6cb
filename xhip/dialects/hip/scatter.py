"""Scatters, Trilu, CumSum and OneHot (converted by `onnx_to_hip/scatter.py`;
kernels in `backend/kernels/scatter.h`)."""

from __future__ import annotations

from abc import ABC
from dataclasses import dataclass
from typing import Any, ClassVar, Self, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    opt_prop_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.constraints import AnyShapedTypeConstr
from xhip.dialects.hip.base import (
    AxisAttributes,
    HipComputeOp,
    HipIndexedComputeOp,
    SameShapeOp,
    Value,
    element_kind,
    fmt_shape,
    i64_attr,
    shape_of,
    static_mismatch,
    str_attr,
    unit_attr,
)

SCATTER_REDUCTIONS = ("none", "add", "mul", "max", "min")
"""ONNX's `reduction` values: how an update combines with the element it hits."""


def _element_type(value: SSAValue) -> Attribute:
    assert AnyShapedTypeConstr.verifies(value.type)
    return value.type.get_element_type()


def _is_index_type(element: Attribute, widths: tuple[int, ...]) -> bool:
    if not isinstance(element, IntegerType):
        return False
    integer = cast("IntegerType[int, Signedness]", element)
    return element_kind(integer) == "i" and integer.width.data in widths


@dataclass(frozen=True, slots=True)
class ScatterAttributes:
    """How an update combines with what is there, one of `SCATTER_REDUCTIONS`."""

    reduction: str


@dataclass(frozen=True, slots=True)
class ScatterAxisAttributes(ScatterAttributes):
    """ScatterElements's: the reduction and the axis (in `[0, rank)`)."""

    axis: int


@dataclass(frozen=True, slots=True)
class TriluAttributes:
    """Whether the upper triangle is kept, else the lower."""

    upper: bool


@dataclass(frozen=True, slots=True)
class CumSumAttributes:
    """The axis (in `[0, rank)`); `exclusive` leaves each element out of its
    own sum; `reverse` sums from the end; `product` multiplies (CumProd)."""

    axis: int
    exclusive: bool
    reverse: bool
    product: bool


class _ScatterOp(HipComputeOp, ABC):
    """`out` = a copy of `ins[0]` (data) with `ins[2]` (updates) written where
    `ins[1]` (indices, negative ones counted from the end) says, combined
    with what is there by `reduction` (none: replaced)."""

    INS: ClassVar[tuple[str, ...]] = ("data", "indices", "updates")
    SAME_ELEMENT_TYPE: ClassVar[bool] = False
    INDEX_WIDTHS: ClassVar[tuple[int, ...]] = (32, 64)

    reduction = prop_def(StringAttr)

    def runtime_attributes(self) -> ScatterAttributes:
        return ScatterAttributes(self.reduction.data)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_element_types(self) -> None:
        data, indices, updates = self.inputs
        want = _element_type(self.outputs[0])
        for i, value in ((0, data), (2, updates)):
            if _element_type(value) != want:
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has element type "
                    f"{_element_type(value)} but outs operand 0 has {want}"
                )
        if not _is_index_type(_element_type(indices), self.INDEX_WIDTHS):
            widths = " or ".join(f"i{w}" for w in self.INDEX_WIDTHS)
            raise VerifyException(
                f"'{self.name}' ins operand 1 (indices) must have element type "
                f"{widths}, got {_element_type(indices)}"
            )

    def verify_shapes(self) -> None:
        if self.reduction.data not in SCATTER_REDUCTIONS:
            raise VerifyException(
                f"'{self.name}' reduction '{self.reduction.data}' is not one of "
                + ", ".join(SCATTER_REDUCTIONS)
            )
        data, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(data) != len(out) or any(map(static_mismatch, data, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {fmt_shape(data)} but outs "
                f"operand 0 has shape {fmt_shape(out)}"
            )


@irdl_op_definition
class ScatterNDOp(_ScatterOp):
    """ONNX ScatterND: each row of the last dim of indices (k of them, static)
    picks a slice `data[i0, ..., ik-1]`; updates has shape `indices.shape[:-1]
    + data.shape[k:]`."""

    name = "hip.scatter_nd"
    RUNTIME_CALL: ClassVar[str] = "scatter_nd"
    INDEX_WIDTHS: ClassVar[tuple[int, ...]] = (64,)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        data: Value,
        indices: Value,
        updates: Value,
        out: Value,
        reduction: str,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"data": data, "indices": indices, "updates": updates, "out": out},
            {"reduction": str_attr(reduction)},
        )

    def verify_shapes(self) -> None:
        super().verify_shapes()
        data, indices, updates = (shape_of(v) for v in self.inputs)
        if not indices or indices[-1] == DYNAMIC_INDEX:
            raise VerifyException(
                f"'{self.name}' ins operand 1 (indices) must have rank >= 1 and a "
                f"static last dim, got {fmt_shape(indices)}"
            )
        k = indices[-1]
        if k > len(data):
            raise VerifyException(
                f"'{self.name}' indices have {k} coordinates but data has rank "
                f"{len(data)}"
            )
        want = (*indices[:-1], *data[k:])
        if len(updates) != len(want) or any(map(static_mismatch, updates, want)):
            raise VerifyException(
                f"'{self.name}' ins operand 2 (updates) has shape {fmt_shape(updates)}, "
                f"expected {fmt_shape(want)}"
            )


@irdl_op_definition
class ScatterElementsOp(_ScatterOp):
    """ONNX ScatterElements: `out[..., indices[i, j, ...], ...] = updates[i, j,
    ...]`, the index replacing the coordinate of `axis` (in `[0, rank)`);
    indices and updates have one shape, of data's rank."""

    name = "hip.scatter_elements"
    RUNTIME_CALL: ClassVar[str] = "scatter_elements"

    axis = prop_def(IntegerAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        data: Value,
        indices: Value,
        updates: Value,
        out: Value,
        axis: int,
        reduction: str,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"data": data, "indices": indices, "updates": updates, "out": out},
            {"axis": i64_attr(axis), "reduction": str_attr(reduction)},
        )

    def runtime_attributes(self) -> ScatterAxisAttributes:
        return ScatterAxisAttributes(self.reduction.data, self.axis.value.data)

    def verify_shapes(self) -> None:
        super().verify_shapes()
        data, indices, updates = (shape_of(v) for v in self.inputs)
        axis = self.axis.value.data
        if not 0 <= axis < len(data):
            raise VerifyException(
                f"'{self.name}' axis {axis} is out of range for rank {len(data)}"
            )
        if (
            len(indices) != len(data)
            or len(updates) != len(indices)
            or any(map(static_mismatch, indices, updates))
        ):
            raise VerifyException(
                f"'{self.name}' indices ({fmt_shape(indices)}) and updates "
                f"({fmt_shape(updates)}) must have one shape, of data's rank {len(data)}"
            )


@irdl_op_definition
class TriluOp(HipIndexedComputeOp):
    """ONNX Trilu on the last two dims (batched over the others): keeps the
    elements on and above (`upper`) or below the `k`-th diagonal, the one
    index operand; zeroes the rest."""

    name = "hip.trilu"
    RUNTIME_CALL: ClassVar[str] = "trilu"

    INDEX: ClassVar[tuple[str, ...]] = ("k",)

    upper = opt_prop_def(UnitAttr)

    @classmethod
    def make(
        cls, ctx: Value, /, *, src: Value, out: Value, k: Value, upper: bool
    ) -> Self:
        return cls._from_roles(
            ctx, {"src": src, "out": out, "k": k}, {"upper": unit_attr(upper)}
        )

    def runtime_attributes(self) -> TriluAttributes:
        return TriluAttributes(self.upper is not None)

    def result_shape(self, *args: Any) -> tuple[int, ...] | None:
        return args[-1]

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) < 2:
            raise VerifyException(
                f"'{self.name}' needs rank >= 2, got {fmt_shape(src)}"
            )
        if len(src) != len(out) or any(map(static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {fmt_shape(src)} but outs "
                f"operand 0 has shape {fmt_shape(out)}"
            )


class ScanOp(SameShapeOp, ABC):
    """A scan along `axis` (in `[0, rank)`): each element the sum (`PRODUCT`:
    product) of those before it (`exclusive`) or up to it, counted from the
    end under `reverse`; computed in the element type, one element after the
    other. One runtime call, `cumsum`, does both."""

    RUNTIME_CALL: ClassVar[str] = "cumsum"
    PRODUCT: ClassVar[bool] = False

    axis = prop_def(IntegerAttr)
    exclusive = opt_prop_def(UnitAttr)
    reverse = opt_prop_def(UnitAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        src: Value,
        out: Value,
        axis: int,
        exclusive: bool = False,
        reverse: bool = False,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"src": src, "out": out},
            {
                "axis": i64_attr(axis),
                "exclusive": unit_attr(exclusive),
                "reverse": unit_attr(reverse),
            },
        )

    def runtime_attributes(self) -> CumSumAttributes:
        return CumSumAttributes(
            self.axis.value.data,
            self.exclusive is not None,
            self.reverse is not None,
            self.PRODUCT,
        )

    def verify_shapes(self) -> None:
        super().verify_shapes()
        rank = len(shape_of(self.inputs[0]))
        if not 0 <= self.axis.value.data < rank:
            raise VerifyException(
                f"'{self.name}' axis {self.axis.value.data} is out of range for "
                f"rank {rank}"
            )


@irdl_op_definition
class CumSumOp(ScanOp):
    """ONNX CumSum."""

    name = "hip.cumsum"


@irdl_op_definition
class CumProdOp(ScanOp):
    """ONNX CumProd."""

    name = "hip.cumprod"
    PRODUCT: ClassVar[bool] = True


@irdl_op_definition
class OneHotOp(HipComputeOp):
    """ONNX OneHot: `ins` (indices, values = [off, on]); `out` has a new dim at
    `axis` (in `[0, rank of out)`) whose size is the depth; an element is `on`
    where its coordinate there equals its index (negative ones plus depth;
    float indices truncated), else `off`."""

    name = "hip.one_hot"
    INS: ClassVar[tuple[str, ...]] = ("indices", "values")
    SAME_ELEMENT_TYPE: ClassVar[bool] = False
    RUNTIME_CALL: ClassVar[str] = "one_hot"

    axis = prop_def(IntegerAttr)

    @classmethod
    def make(
        cls, ctx: Value, /, *, indices: Value, values: Value, out: Value, axis: int
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"indices": indices, "values": values, "out": out},
            {"axis": i64_attr(axis)},
        )

    def runtime_attributes(self) -> AxisAttributes:
        return AxisAttributes(self.axis.value.data)

    def verify_element_types(self) -> None:
        values, want = _element_type(self.inputs[1]), _element_type(self.outputs[0])
        if values != want:
            raise VerifyException(
                f"'{self.name}' ins operand 1 (values) has element type {values} but "
                f"outs operand 0 has {want}"
            )
        if element_kind(_element_type(self.inputs[0])) not in ("f", "i", "u"):
            raise VerifyException(
                f"'{self.name}' ins operand 0 (indices) must be numeric, got "
                f"{_element_type(self.inputs[0])}"
            )

    def verify_shapes(self) -> None:
        indices, values = (shape_of(v) for v in self.inputs)
        out = shape_of(self.outputs[0])
        axis = self.axis.value.data
        if len(values) != 1 or static_mismatch(values[0], 2):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (values) must have shape 2, got "
                f"{fmt_shape(values)}"
            )
        if len(out) != len(indices) + 1 or not 0 <= axis < len(out):
            raise VerifyException(
                f"'{self.name}' outs operand 0 ({fmt_shape(out)}) must have the rank of "
                f"the indices ({fmt_shape(indices)}) plus one, and axis {axis} in it"
            )
        kept = (*out[:axis], *out[axis + 1 :])
        if any(map(static_mismatch, indices, kept)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)} but the "
                f"indices have {fmt_shape(indices)} (dim {axis} is the depth)"
            )


OPS: tuple[type[Operation], ...] = (
    ScatterNDOp,
    ScatterElementsOp,
    TriluOp,
    CumSumOp,
    OneHotOp,
    CumProdOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "CumProdOp",
    "CumSumAttributes",
    "CumSumOp",
    "OneHotOp",
    "SCATTER_REDUCTIONS",
    "ScanOp",
    "ScatterAttributes",
    "ScatterAxisAttributes",
    "ScatterElementsOp",
    "ScatterNDOp",
    "TriluAttributes",
    "TriluOp",
]
