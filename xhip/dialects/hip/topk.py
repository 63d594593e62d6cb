"""`hip.topk` (converted by `onnx_to_hip/topk.py`; kernels in
`backend/kernels/topk.h`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    IntegerType,
    UnitAttr,
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
    HipComputeOp,
    Value,
    fmt_shape,
    i64_attr,
    shape_of,
    static_mismatch,
    unit_attr,
)


@dataclass(frozen=True, slots=True)
class TopKAttributes:
    """The axis (in `[0, rank)`) and whether the largest or smallest win."""

    axis: int
    largest: bool


@irdl_op_definition
class TopKOp(HipComputeOp):
    """ONNX TopK: the `k` largest (or, under `smallest`, smallest) elements of
    `ins[0]` along `axis` (in `[0, rank)`), `k` being the size of `outs` there;
    `outs` (values, i64 indices), always sorted, ties to the lower index, NaN
    counted as larger than any number (numpy's sort order)."""

    name = "hip.topk"
    OUTS: ClassVar[tuple[str, ...]] = ("values", "indices")
    RUNTIME_CALL: ClassVar[str] = "topk"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    axis = prop_def(IntegerAttr)
    smallest = opt_prop_def(UnitAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        src: Value,
        values: Value,
        indices: Value,
        axis: int,
        largest: bool = True,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"src": src, "values": values, "indices": indices},
            {"axis": i64_attr(axis), "smallest": unit_attr(not largest)},
        )

    def runtime_attributes(self) -> TopKAttributes:
        return TopKAttributes(self.axis.value.data, largest=self.smallest is None)

    def verify_element_types(self) -> None:
        src, values, indices = self.inputs[0].type, *(o.type for o in self.outputs)
        assert AnyShapedTypeConstr.verifies(src)
        assert AnyShapedTypeConstr.verifies(values)
        assert AnyShapedTypeConstr.verifies(indices)
        if values.get_element_type() != src.get_element_type():
            raise VerifyException(
                f"'{self.name}' outs operand 0 has element type "
                f"{values.get_element_type()} but ins operand 0 has "
                f"{src.get_element_type()}"
            )
        if indices.get_element_type() != IntegerType(64):
            raise VerifyException(
                f"'{self.name}' outs operand 1 must have element type i64, got "
                f"{indices.get_element_type()}"
            )

    def verify_shapes(self) -> None:
        src = shape_of(self.inputs[0])
        values, indices = (shape_of(o) for o in self.outputs)
        axis = self.axis.value.data
        if not 0 <= axis < len(src):
            raise VerifyException(
                f"'{self.name}' axis {axis} is out of range for rank {len(src)}"
            )
        if len(values) != len(indices) or any(map(static_mismatch, values, indices)):
            raise VerifyException(
                f"'{self.name}' outs operands have shapes {fmt_shape(values)} and "
                f"{fmt_shape(indices)}; they must be equal"
            )
        others = [
            static_mismatch(a, b)
            for d, (a, b) in enumerate(zip(src, values))
            if d != axis
        ]
        too_many = DYNAMIC_INDEX not in (src[axis], values[axis]) and (
            values[axis] > src[axis]
        )
        if len(values) != len(src) or any(others) or too_many:
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(values)} but ins "
                f"operand 0 has shape {fmt_shape(src)} (they may differ in dim {axis} "
                "only, where outs has at most as many)"
            )


OPS: tuple[type[Operation], ...] = (
    TopKOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "TopKAttributes",
    "TopKOp",
]
