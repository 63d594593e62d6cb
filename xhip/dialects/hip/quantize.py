"""Linear quantization, integer matmul and requantization (converted by
`onnx_to_hip/quantize.py`; kernels in `backend/kernels/quantize.h`)."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    Signedness,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.constraints import AnyShapedTypeConstr
from xhip.dialects.hip.base import (
    HipComputeOp,
    Value,
    fmt_shape,
    i64_array,
    i64_attr,
    shape_of,
    static_mismatch,
)
from xhip.dialects.hip.conv import ConvAttributes, WindowOp

_u = Signedness.UNSIGNED
QUANTIZED_TYPES: tuple[Attribute, ...] = (
    IntegerType(8),
    IntegerType(8, _u),
    IntegerType(16),
    IntegerType(16, _u),
    IntegerType(4),
    IntegerType(4, _u),
    Float8E4M3FNType(),
    Float8E4M3FNUZType(),
    Float8E5M2Type(),
    Float8E5M2FNUZType(),
)
"""What QuantizeLinear writes and DequantizeLinear reads (the latter int32 too);
i4 and ui4 one element a byte, the float8 types ONNX's (ml_dtypes' int4,
uint4 and float8 types at run time)."""
FLOAT8_TYPES: tuple[Attribute, ...] = QUANTIZED_TYPES[6:]
SCALE_TYPES: tuple[Attribute, ...] = (Float32Type(), Float16Type())
"""The float side of both: the division and the product are float32."""


@dataclass(frozen=True, slots=True)
class QuantizeAttributes:
    """`axis` (in `[0, rank)`) of a per-axis or blocked scale; `block_size` 0
    unless blocked. A one-element scale is per tensor whatever the axis.
    `saturate`: a float8 output clamps to its largest finite value (else
    what overflows is inf, or NaN for the types without inf); always true
    for integers and for DequantizeLinear."""

    axis: int
    block_size: int
    saturate: bool


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
        saturate: bool = True,
    ) -> Self:
        """`saturate` false: QuantizeLinear's `no_saturate` (float8 only)."""
        props: dict[str, Attribute] = {
            "axis": i64_attr(axis),
            "block_size": i64_attr(block_size),
        }
        if not saturate:
            props["no_saturate"] = UnitAttr()
        return cls._from_roles(
            ctx, {"x": x, "scale": scale, "zero_point": zero_point, "out": out}, props
        )

    def runtime_attributes(self) -> QuantizeAttributes:
        return QuantizeAttributes(
            self.axis.value.data, self.block_size.value.data, saturate=True
        )

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
        one = all(d == 1 for d in (*scale, *zero))
        if not one and (
            len(scale) != len(zero) or any(map(static_mismatch, scale, zero))
        ):
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
    integer type of `outs`, the division in float32, ties to even; to a
    float8 `outs`, `x / scale + zero_point` rounded to it (to nearest, ties
    to even), clamped to its finite range unless `no_saturate`."""

    name = "hip.quantize_linear"
    RUNTIME_CALL: ClassVar[str] = "quantize_linear"

    no_saturate = opt_prop_def(UnitAttr)

    def runtime_attributes(self) -> QuantizeAttributes:
        return QuantizeAttributes(
            self.axis.value.data,
            self.block_size.value.data,
            saturate=self.no_saturate is None,
        )

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


@dataclass(frozen=True, slots=True)
class RequantizeAttributes:
    """The dims of x along which `a_scale` and `b_scale` run when they have
    more than one element."""

    a_axis: int
    b_axis: int


@irdl_op_definition
class RequantizeOp(HipComputeOp):
    """The output stage of ONNX Runtime's QLinearMatMul and QLinearConv:
    `saturate(rint(float(x) * m) + zero_point)` with the float32 multiplier
    `m = a_scale * b_scale / y_scale` (in that order; f16 scales widened),
    x i32, ties to even.
    `a_scale` and `b_scale` have one element or one per index of x's dim
    `a_axis` / `b_axis` (1-D); `y_scale` and `zero_point` one element; out
    has x's shape and the zero point's type (i8 or ui8)."""

    name = "hip.requantize"
    INS: ClassVar[tuple[str, ...]] = (
        "x",
        "a_scale",
        "b_scale",
        "y_scale",
        "zero_point",
    )
    RUNTIME_CALL: ClassVar[str] = "requantize"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    a_axis = prop_def(IntegerAttr)
    b_axis = prop_def(IntegerAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        a_scale: Value,
        b_scale: Value,
        y_scale: Value,
        zero_point: Value,
        out: Value,
        a_axis: int,
        b_axis: int,
    ) -> Self:
        roles = {
            "x": x,
            "a_scale": a_scale,
            "b_scale": b_scale,
            "y_scale": y_scale,
            "zero_point": zero_point,
            "out": out,
        }
        axes = {"a_axis": i64_attr(a_axis), "b_axis": i64_attr(b_axis)}
        return cls._from_roles(ctx, roles, axes)

    def runtime_attributes(self) -> RequantizeAttributes:
        return RequantizeAttributes(self.a_axis.value.data, self.b_axis.value.data)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_element_types(self) -> None:
        x, *scales, zero = (_element(v.type) for v in self.inputs)
        out = _element(self.outputs[0].type)
        if x != IntegerType(32):
            raise VerifyException(
                f"'{self.name}' ins operand 0 must be of i32, not {x}"
            )
        for i, s in enumerate(scales, 1):
            if s not in SCALE_TYPES or s != scales[0]:
                raise VerifyException(
                    f"'{self.name}' ins operand {i} (a scale) has element type {s}; "
                    "expected f32 or f16, as the others"
                )
        if out not in (IntegerType(8), IntegerType(8, _u)) or zero != out:
            raise VerifyException(
                f"'{self.name}' the zero point has element type {zero} and outs "
                f"operand 0 {out}; expected both i8 or both ui8"
            )

    def verify_shapes(self) -> None:
        x, a, b, y, zero = (shape_of(v) for v in self.inputs)
        out = shape_of(self.outputs[0])
        if len(x) != len(out) or any(map(static_mismatch, x, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {fmt_shape(x)} but outs "
                f"operand 0 has shape {fmt_shape(out)}"
            )
        for scale, axis, what in (
            (a, self.a_axis.value.data, "a_scale"),
            (b, self.b_axis.value.data, "b_scale"),
        ):
            if not 0 <= axis < max(len(x), 1) or len(scale) > 1:
                raise VerifyException(
                    f"'{self.name}' {what} of shape {fmt_shape(scale)} along axis "
                    f"{axis} does not fit x of shape {fmt_shape(x)}"
                )
        for shape, what in ((y, "y_scale"), (zero, "the zero point")):
            if any(n not in (1, DYNAMIC_INDEX) for n in shape) or len(shape) > 1:
                raise VerifyException(
                    f"'{self.name}' {what} has shape {fmt_shape(shape)}; expected "
                    "one element"
                )


@irdl_op_definition
class ConvIntegerOp(WindowOp):
    """ONNX ConvInteger: Conv of `(x - x_zero)` by `(w - w_zero)`, 8-bit
    integers widened to i32 and accumulated in i32 (wrapping), plus the i32
    `bias` (M) if given (QLinearConv's); the padding counts as x's zero point
    (adds nothing). `x_zero` has one element, `w_zero` one or one per output
    channel (1-D, M); each its operand's type."""

    name = "hip.conv_integer"
    INS: ClassVar[tuple[str, ...]] = ("x", "w", "x_zero", "w_zero", "bias?")
    RUNTIME_CALL: ClassVar[str] = "conv_integer"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    group = prop_def(IntegerAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        w: Value,
        x_zero: Value,
        w_zero: Value,
        bias: Value | None = None,
        out: Value,
        strides: Sequence[int],
        dilations: Sequence[int],
        pads: Sequence[int],
        group: int,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {
                "x": x,
                "w": w,
                "x_zero": x_zero,
                "w_zero": w_zero,
                "bias": bias,
                "out": out,
            },
            {
                "strides": i64_array(strides),
                "dilations": i64_array(dilations),
                "pads": i64_array(pads),
                "group": i64_attr(group),
            },
        )

    def runtime_attributes(self) -> ConvAttributes:
        return ConvAttributes(*self.window(), group=self.group.value.data, relu=False)

    def kernel_of(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        return shapes[1][2:]

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return (shapes[0][0], shapes[1][0], *self.spatial_output(*shapes))

    def verify_element_types(self) -> None:
        eight = (IntegerType(8), IntegerType(8, _u))
        if len(self.inputs) == 5 and _element(self.inputs[4].type) != IntegerType(32):
            raise VerifyException(f"'{self.name}' ins operand 4 (the bias) must be i32")
        for i, value in enumerate(self.inputs[:4]):
            t = _element(value.type)
            if t not in eight or t != _element(self.inputs[i % 2].type):
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has element type {t}; expected "
                    f"i8 or ui8 (a zero point: its operand's type)"
                )
        if _element(self.outputs[0].type) != IntegerType(32):
            raise VerifyException(f"'{self.name}' outs operand 0 must be of i32")

    def verify_shapes(self) -> None:
        self.verify_window()
        x, w, x_zero, w_zero = (shape_of(v) for v in self.inputs[:4])
        group = self.group.value.data
        if len(self.inputs) == 5:
            bias = shape_of(self.inputs[4])
            if len(bias) != 1 or static_mismatch(bias[0], w[0]):
                raise VerifyException(
                    f"'{self.name}' the bias has shape {fmt_shape(bias)}; expected "
                    f"({w[0]})"
                )
        if len(w) != len(x) or len(x) < 3:
            raise VerifyException(
                f"'{self.name}' takes x and w of one rank >= 3, got {fmt_shape(x)} "
                f"and {fmt_shape(w)}"
            )
        if (
            group < 1
            or static_mismatch(x[1], DYNAMIC_INDEX if w[1] < 0 else w[1] * group)
            or (w[0] != DYNAMIC_INDEX and w[0] % group)
        ):
            raise VerifyException(
                f"'{self.name}' x ({fmt_shape(x)}) and w ({fmt_shape(w)}) do not "
                f"fit group {group}"
            )
        for zero, n, what in ((x_zero, 1, "x_zero"), (w_zero, w[0], "w_zero")):
            if len(zero) > 1 or (
                len(zero) == 1 and zero[0] != 1 and static_mismatch(zero[0], n)
            ):
                raise VerifyException(
                    f"'{self.name}' {what} has shape {fmt_shape(zero)}; expected one "
                    f"element or {n}"
                )
        want = self.result_shape(x, w)
        out = shape_of(self.outputs[0])
        assert want is not None
        if len(out) != len(want) or any(map(static_mismatch, want, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)}; expected "
                f"{fmt_shape(want)}"
            )


OPS: tuple[type[Operation], ...] = (
    QuantizeLinearOp,
    DequantizeLinearOp,
    DynamicQuantizeLinearOp,
    MatMulIntegerOp,
    RequantizeOp,
    ConvIntegerOp,
)
"""This family's ops, in the order the dialect lists them."""

__all__ = [
    "FLOAT8_TYPES",
    "QUANTIZED_TYPES",
    "SCALE_TYPES",
    "ConvIntegerOp",
    "DequantizeLinearOp",
    "DynamicQuantizeLinearOp",
    "MatMulIntegerOp",
    "QuantizeAttributes",
    "QuantizeLinearOp",
    "RequantizeAttributes",
    "RequantizeOp",
]
