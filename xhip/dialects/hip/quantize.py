"""Linear quantization and integer matmul (converted by
`onnx_to_hip/quantize.py`; kernels in `backend/kernels/quantize.h`)."""

from __future__ import annotations

from abc import ABC
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import irdl_op_definition, prop_def
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.constraints import AnyShapedTypeConstr
from xhip.dialects.hip.base import (
    HipComputeOp,
    Value,
    fmt_shape,
    i64_attr,
    shape_of,
    static_mismatch,
)

_u = Signedness.UNSIGNED
QUANTIZED_TYPES: tuple[Attribute, ...] = (
    IntegerType(8),
    IntegerType(8, _u),
    IntegerType(16),
    IntegerType(16, _u),
)
"""What QuantizeLinear writes and DequantizeLinear reads (the latter int32 too)."""
SCALE_TYPES: tuple[Attribute, ...] = (Float32Type(), Float16Type())
"""The float side of both: the division and the product are float32."""


@dataclass(frozen=True, slots=True)
class QuantizeAttributes:
    """`axis` (in `[0, rank)`) of a per-axis or blocked scale; `block_size` 0
    unless blocked. A one-element scale is per tensor whatever the axis."""

    axis: int
    block_size: int


def _element(value: Attribute) -> Attribute:
    assert AnyShapedTypeConstr.verifies(value)
    return value.get_element_type()


class _LinearOp(HipComputeOp, ABC):
    """`ins` (x, scale, zero_point), `outs` (y) of x's shape; the scale and the
    zero point have one shape: one element, or 1-D along `axis`, or x's rank
    with `ceil(n / block_size)` along `axis` (blocked)."""

    INS: ClassVar[tuple[str, ...]] = ("x", "scale", "zero_point")
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    axis = prop_def(IntegerAttr)
    block_size = prop_def(IntegerAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        scale: Value,
        zero_point: Value,
        out: Value,
        axis: int,
        block_size: int = 0,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"x": x, "scale": scale, "zero_point": zero_point, "out": out},
            {"axis": i64_attr(axis), "block_size": i64_attr(block_size)},
        )

    def runtime_attributes(self) -> QuantizeAttributes:
        return QuantizeAttributes(self.axis.value.data, self.block_size.value.data)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def _types(self, quantized: str, q: Attribute, s: Attribute) -> None:
        """`quantized` names the integer side (`ins operand 0` or `outs operand 0`)."""
        allowed = QUANTIZED_TYPES
        if isinstance(self, DequantizeLinearOp):
            allowed = (*allowed, IntegerType(32))
        if q not in allowed:
            raise VerifyException(
                f"'{self.name}' {quantized} has element type {q}; expected one of "
                + ", ".join(str(t) for t in allowed)
            )
        if s not in SCALE_TYPES:
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the scale) has element type {s}; "
                "expected f32 or f16"
            )
        if _element(self.inputs[2].type) != q:
            raise VerifyException(
                f"'{self.name}' ins operand 2 (the zero point) has element type "
                f"{_element(self.inputs[2].type)} but must have {q}"
            )

    def verify_shapes(self) -> None:
        x, scale, zero, out = (shape_of(v) for v in (*self.inputs, self.outputs[0]))
        if len(x) != len(out) or any(map(static_mismatch, x, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {fmt_shape(x)} but outs "
                f"operand 0 has shape {fmt_shape(out)}"
            )
        if len(scale) != len(zero) or any(map(static_mismatch, scale, zero)):
            raise VerifyException(
                f"'{self.name}' the scale has shape {fmt_shape(scale)} but the zero "
                f"point {fmt_shape(zero)}"
            )
        axis, block = self.axis.value.data, self.block_size.value.data
        if not 0 <= axis < max(len(x), 1) or block < 0:
            raise VerifyException(
                f"'{self.name}' axis {axis} or block_size {block} is out of range "
                f"for rank {len(x)}"
            )
        if block:
            n = x[axis] if x else 1
            blocks = DYNAMIC_INDEX if n == DYNAMIC_INDEX else -(-n // block)
            want = tuple(blocks if d == axis else s for d, s in enumerate(x))
            if len(scale) != len(x) or any(map(static_mismatch, scale, want)):
                raise VerifyException(
                    f"'{self.name}' a blocked scale has shape {fmt_shape(scale)}; "
                    f"expected {fmt_shape(want)}"
                )
        elif len(scale) > 1:
            raise VerifyException(
                f"'{self.name}' the scale has shape {fmt_shape(scale)}: rank 0 or 1 "
                "unless blocked"
            )


@irdl_op_definition
class QuantizeLinearOp(_LinearOp):
    """ONNX QuantizeLinear: `saturate(rint(x / scale) + zero_point)` to the
    integer type of `outs`, the division in float32, ties to even."""

    name = "hip.quantize_linear"
    RUNTIME_CALL: ClassVar[str] = "quantize_linear"

    def verify_element_types(self) -> None:
        x, s = _element(self.inputs[0].type), _element(self.inputs[1].type)
        if x != s:
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the scale) has element type {s} but "
                f"ins operand 0 has {x}"
            )
        self._types("outs operand 0", _element(self.outputs[0].type), s)


@irdl_op_definition
class DequantizeLinearOp(_LinearOp):
    """ONNX DequantizeLinear: `float(x - zero_point) * scale`, in int32 then
    float32, to the scale's type."""

    name = "hip.dequantize_linear"
    RUNTIME_CALL: ClassVar[str] = "dequantize_linear"

    def verify_element_types(self) -> None:
        s, y = _element(self.inputs[1].type), _element(self.outputs[0].type)
        if y != s:
            raise VerifyException(
                f"'{self.name}' outs operand 0 has element type {y} but the scale "
                f"has {s}"
            )
        self._types("ins operand 0", _element(self.inputs[0].type), s)


@irdl_op_definition
class DynamicQuantizeLinearOp(HipComputeOp):
    """ONNX DynamicQuantizeLinear as ONNX Runtime computes it: x's range
    widened to hold 0, `scale = (max - min) / 255` (1 for an empty range),
    `zero_point = rint(clip(-min / scale, 0, 255))`, then QuantizeLinear;
    `outs` (y u8 of x's shape, the f32 scale, the u8 zero point, both 0-d)."""

    name = "hip.dynamic_quantize_linear"
    INS: ClassVar[tuple[str, ...]] = ("x",)
    OUTS: ClassVar[tuple[str, ...]] = ("out", "scale", "zero_point")
    RUNTIME_CALL: ClassVar[str] = "dynamic_quantize_linear"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    @classmethod
    def make(
        cls, ctx: Value, /, *, x: Value, out: Value, scale: Value, zero_point: Value
    ) -> Self:
        roles = {"x": x, "out": out, "scale": scale, "zero_point": zero_point}
        return cls._from_roles(ctx, roles)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_element_types(self) -> None:
        want = (Float32Type(), IntegerType(8, _u), Float32Type(), IntegerType(8, _u))
        values = (self.inputs[0], *self.outputs)
        names = ("ins operand 0", "outs operand 0", "outs operand 1", "outs operand 2")
        for name, value, t in zip(names, values, want, strict=True):
            if _element(value.type) != t:
                raise VerifyException(
                    f"'{self.name}' {name} has element type {_element(value.type)}; "
                    f"expected {t}"
                )

    def verify_shapes(self) -> None:
        x, out, scale, zero = (shape_of(v) for v in (self.inputs[0], *self.outputs))
        if len(x) != len(out) or any(map(static_mismatch, x, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {fmt_shape(x)} but outs "
                f"operand 0 has shape {fmt_shape(out)}"
            )
        if scale or zero:
            raise VerifyException(
                f"'{self.name}' the scale and zero point must be 0-d, got "
                f"{fmt_shape(scale)} and {fmt_shape(zero)}"
            )


@irdl_op_definition
class MatMulIntegerOp(HipComputeOp):
    """ONNX MatMulInteger: numpy matmul of `(a - a_zero)` and `(b - b_zero)`,
    8-bit integers widened to i32 and accumulated in i32 (wrapping). `a_zero`
    has one element or one per row of a (1-D, M), `b_zero` one or one per
    column of b (1-D, N); each has its operand's element type."""

    name = "hip.matmul_integer"
    INS: ClassVar[tuple[str, ...]] = ("a", "b", "a_zero", "b_zero")
    RUNTIME_CALL: ClassVar[str] = "matmul_integer"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        a: Value,
        b: Value,
        a_zero: Value,
        b_zero: Value,
        out: Value,
    ) -> Self:
        roles = {"a": a, "b": b, "a_zero": a_zero, "b_zero": b_zero, "out": out}
        return cls._from_roles(ctx, roles)

    def verify_element_types(self) -> None:
        eight = (IntegerType(8), IntegerType(8, _u))
        for i, value in enumerate(self.inputs):
            t = _element(value.type)
            operand = _element(self.inputs[i % 2].type)
            if t not in eight or t != operand:
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has element type {t}; expected "
                    f"i8 or ui8 (a zero point: its operand's type)"
                )
        if _element(self.outputs[0].type) != IntegerType(32):
            raise VerifyException(f"'{self.name}' outs operand 0 must be of i32")

    def verify_shapes(self) -> None:
        a, b, a_zero, b_zero = (shape_of(v) for v in self.inputs)
        if len(a) < 2 or len(b) < 2:
            raise VerifyException(
                f"'{self.name}' takes operands of rank >= 2, got {fmt_shape(a)} and "
                f"{fmt_shape(b)}"
            )
        if static_mismatch(a[-1], b[-2]):
            raise VerifyException(
                f"'{self.name}' contracts {fmt_shape(a)} with {fmt_shape(b)}"
            )
        for zero, n, what in ((a_zero, a[-2], "a_zero"), (b_zero, b[-1], "b_zero")):
            if len(zero) > 1 or (
                len(zero) == 1 and zero[0] != 1 and static_mismatch(zero[0], n)
            ):
                raise VerifyException(
                    f"'{self.name}' {what} has shape {fmt_shape(zero)}; expected one "
                    f"element or {n}"
                )


OPS: tuple[type[Operation], ...] = (
    QuantizeLinearOp,
    DequantizeLinearOp,
    DynamicQuantizeLinearOp,
    MatMulIntegerOp,
)
"""This family's ops, in the order the dialect lists them."""

__all__ = [
    "QUANTIZED_TYPES",
    "SCALE_TYPES",
    "DequantizeLinearOp",
    "DynamicQuantizeLinearOp",
    "MatMulIntegerOp",
    "QuantizeAttributes",
    "QuantizeLinearOp",
]
