"""`hip.det` (converted by `onnx_to_hip/linalg.py`; kernel in
`backend/kernels/linalg.h`)."""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import AnyFloat
from xdsl.ir import Operation
from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.constraints import AnyShapedTypeConstr
from xhip.dialects.hip.base import (
    HipComputeOp,
    Value,
    fmt_shape,
    shape_of,
    static_mismatch,
)


@irdl_op_definition
class DetOp(HipComputeOp):
    """ONNX Det: `outs` (`[...]`) the determinant of each matrix of `ins`
    (`[..., M, M]`), float types, by LU with partial pivoting in the element
    type (float16 in float32)."""

    name = "hip.det"
    RUNTIME_CALL: ClassVar[str] = "det"

    @classmethod
    def make(cls, ctx: Value, /, *, src: Value, out: Value) -> Self:
        return cls._from_roles(ctx, {"src": src, "out": out})

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0][:-2]

    def verify_element_types(self) -> None:
        super().verify_element_types()
        value = self.inputs[0].type
        assert AnyShapedTypeConstr.verifies(value)
        if not isinstance(value.get_element_type(), AnyFloat):
            raise VerifyException(
                f"'{self.name}' ins operand 0 must have a float element type, got "
                f"{value.get_element_type()}"
            )

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) < 2 or static_mismatch(src[-1], src[-2]):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {fmt_shape(src)}; it must "
                "be [..., M, M]"
            )
        batch = src[:-2]
        if len(out) != len(batch) or any(map(static_mismatch, batch, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)} but ins "
                f"operand 0 has shape {fmt_shape(src)}"
            )


OPS: tuple[type[Operation], ...] = (DetOp,)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end)."""

__all__ = ["DetOp"]
