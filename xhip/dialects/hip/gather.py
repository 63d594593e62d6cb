"""Gathers (converted by `onnx_to_hip/gather.py`; kernel in
`backend/kernels/gather.h`)."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Operation
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
    Value,
    fmt_shape,
    i64_attr,
    shape_of,
    static_mismatch,
)


@dataclass(frozen=True, slots=True)
class GatherNDAttributes:
    """The leading dims `data` and `indices` share (ONNX GatherND's)."""

    batch_dims: int


class _GatherOp(HipComputeOp, ABC):
    """`ins` (data, indices), indices i32 or i64, negative ones counted from
    the end; `outs` of data's element type."""

    INS: ClassVar[tuple[str, ...]] = ("data", "indices")
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    def gathered_shape(
        self, data: Sequence[int], indices: Sequence[int]
    ) -> tuple[int, ...] | None:
        """The shape of `outs` for these shapes; None if they do not fit."""
        raise NotImplementedError

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return self.gathered_shape(shapes[0], shapes[1])

    def verify_element_types(self) -> None:
        data, indices = self.inputs[0].type, self.inputs[1].type
        out = self.outputs[0].type
        assert AnyShapedTypeConstr.verifies(data)
        assert AnyShapedTypeConstr.verifies(indices)
        assert AnyShapedTypeConstr.verifies(out)
        if indices.get_element_type() not in (IntegerType(32), IntegerType(64)):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the indices) must have element type "
                f"i32 or i64, got {indices.get_element_type()}"
            )
        if data.get_element_type() != out.get_element_type():
            raise VerifyException(
                f"'{self.name}' ins operand 0 has element type "
                f"{data.get_element_type()} but outs operand 0 has "
                f"{out.get_element_type()}"
            )

    def verify_shapes(self) -> None:
        data, indices = shape_of(self.inputs[0]), shape_of(self.inputs[1])
        out = shape_of(self.outputs[0])
        want = self.gathered_shape(data, indices)
        if want is None:
            raise VerifyException(
                f"'{self.name}' cannot gather from data of shape {fmt_shape(data)} with "
                f"indices of shape {fmt_shape(indices)} ({self._what()})"
            )
        if len(want) != len(out) or any(map(static_mismatch, want, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)} but data "
                f"{fmt_shape(data)} and indices {fmt_shape(indices)} give {fmt_shape(want)}"
            )

    def _what(self) -> str:
        return ""


class _AxisGatherOp(_GatherOp, ABC):
    axis = prop_def(IntegerAttr)

    @classmethod
    def make(
        cls, ctx: Value, /, *, data: Value, indices: Value, out: Value, axis: int
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"data": data, "indices": indices, "out": out},
            {"axis": i64_attr(axis)},
        )

    def runtime_attributes(self) -> AxisAttributes:
        return AxisAttributes(self.axis.value.data)

    def _what(self) -> str:
        return f"axis {self.axis.value.data}"


@irdl_op_definition
class GatherOp(_AxisGatherOp):
    """ONNX Gather: `out` is `data[:axis] + indices + data[axis+1:]`, each
    index (in `[-n, n)`, n = data's size along `axis`, in `[0, rank)`)
    picking a slice along `axis`."""

    name = "hip.gather"
    RUNTIME_CALL: ClassVar[str] = "gather"

    def gathered_shape(
        self, data: Sequence[int], indices: Sequence[int]
    ) -> tuple[int, ...] | None:
        axis = self.axis.value.data
        if not 0 <= axis < len(data):
            return None
        return (*data[:axis], *indices, *data[axis + 1 :])


@irdl_op_definition
class GatherElementsOp(_AxisGatherOp):
    """ONNX GatherElements: `out[i] = data[i with i[axis] = indices[i]]`;
    indices of data's rank, no larger than data off the axis; `out` has
    their shape."""

    name = "hip.gather_elements"
    RUNTIME_CALL: ClassVar[str] = "gather_elements"

    def gathered_shape(
        self, data: Sequence[int], indices: Sequence[int]
    ) -> tuple[int, ...] | None:
        axis = self.axis.value.data
        if not 0 <= axis < len(data) or len(indices) != len(data):
            return None
        for d, (n, m) in enumerate(zip(data, indices)):
            if d != axis and DYNAMIC_INDEX not in (n, m) and m > n:
                return None
        return tuple(indices)


@irdl_op_definition
class GatherNDOp(_GatherOp):
    """ONNX GatherND: the last dim of `indices` (static, k) holds index tuples
    into data's dims `batch_dims .. batch_dims + k`; the leading `batch_dims`
    dims are shared. `out` is `indices[:-1] + data[batch_dims + k:]`."""

    name = "hip.gather_nd"
    RUNTIME_CALL: ClassVar[str] = "gather_nd"

    batch_dims = opt_prop_def(IntegerAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        data: Value,
        indices: Value,
        out: Value,
        batch_dims: int = 0,
    ) -> Self:
        """`batch_dims` 0 is the default, not spelled out."""
        return cls._from_roles(
            ctx,
            {"data": data, "indices": indices, "out": out},
            {"batch_dims": i64_attr(batch_dims) if batch_dims else None},
        )

    def batch(self) -> int:
        return 0 if self.batch_dims is None else self.batch_dims.value.data

    def runtime_attributes(self) -> GatherNDAttributes:
        return GatherNDAttributes(self.batch())

    def _what(self) -> str:
        return f"batch_dims {self.batch()}"

    def gathered_shape(
        self, data: Sequence[int], indices: Sequence[int]
    ) -> tuple[int, ...] | None:
        b = self.batch()
        if not indices or indices[-1] == DYNAMIC_INDEX:
            return None
        k = indices[-1]
        if b < 0 or b >= min(len(data), len(indices)) or b + k > len(data):
            return None
        if any(map(static_mismatch, data[:b], indices[:b])):
            return None
        return (*indices[:-1], *data[b + k :])


OPS: tuple[type[Operation], ...] = (
    GatherOp,
    GatherElementsOp,
    GatherNDOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "GatherElementsOp",
    "GatherNDAttributes",
    "GatherNDOp",
    "GatherOp",
]
