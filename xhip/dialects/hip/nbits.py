"""Block-quantized weights: ONNX Runtime's MatMulNBits and
GatherBlockQuantized (converted by `onnx_to_hip/nbits.py`; kernels in
`backend/kernels/nbits.h`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
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

U8 = IntegerType(8, Signedness.UNSIGNED)
NBITS = (2, 4, 8)
"""The weight widths both ops read."""


def _element(value: Attribute) -> Attribute:
    assert AnyShapedTypeConstr.verifies(value)
    return value.get_element_type()


def _count(shape: tuple[int, ...]) -> int:
    """The number of elements, DYNAMIC_INDEX if a dim is dynamic."""
    total = 1
    for n in shape:
        if n == DYNAMIC_INDEX:
            return DYNAMIC_INDEX
        total *= n
    return total


@dataclass(frozen=True, slots=True)
class NBitsAttributes:
    """The weight is (n, k), `bits` wide, in blocks of `block_size` along k;
    `int8`: ONNX Runtime's accuracy level 4, activations quantized to int8
    per block and dotted in integers."""

    k: int
    n: int
    bits: int
    block_size: int
    int8: bool

    @property
    def blocks(self) -> int:
        return -(-self.k // self.block_size)

    @property
    def zero_bytes(self) -> int:
        """Bytes of one row of packed zero points."""
        return -(-self.blocks * self.bits // 8)


@irdl_op_definition
class MatMulNBitsOp(HipComputeOp):
    """ONNX Runtime's MatMulNBits: `out = a @ w^T (+ bias)`, `a` (..., k) f32,
    `w[j, i] = (q[j, i] - zero[j, i / block]) * scales[j, i / block]` with `q`
    the `bits`-bit values packed low bits first in `b` (n, blocks, block *
    bits / 8) u8; `zero_points` packed the same way (n, ceil(blocks * bits /
    8)) u8, or unpacked (n, blocks) f32. With `int8`, each block of `a` is
    quantized symmetrically to int8 (`scale = amax / 127`, `q =
    rint(a * (127 / amax))`), dotted with `q - zero` in integers, and the
    dots summed times `scale * scales` in float, as ORT's CompInt8 kernel."""

    name = "hip.matmul_nbits"
    INS: ClassVar[tuple[str, ...]] = ("a", "b", "scales", "zero_points", "bias?")
    RUNTIME_CALL: ClassVar[str] = "matmul_nbits"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    k = prop_def(IntegerAttr)
    n = prop_def(IntegerAttr)
    bits = prop_def(IntegerAttr)
    block_size = prop_def(IntegerAttr)
    int8 = prop_def(IntegerAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        a: Value,
        b: Value,
        scales: Value,
        zero_points: Value,
        bias: Value | None = None,
        out: Value,
        k: int,
        n: int,
        bits: int,
        block_size: int,
        int8: bool,
    ) -> Self:
        roles = {
            "a": a,
            "b": b,
            "scales": scales,
            "zero_points": zero_points,
            "bias": bias,
            "out": out,
        }
        properties = {
            "k": i64_attr(k),
            "n": i64_attr(n),
            "bits": i64_attr(bits),
            "block_size": i64_attr(block_size),
            "int8": i64_attr(int(int8)),
        }
        return cls._from_roles(ctx, roles, properties)

    def runtime_attributes(self) -> NBitsAttributes:
        return NBitsAttributes(
            self.k.value.data,
            self.n.value.data,
            self.bits.value.data,
            self.block_size.value.data,
            bool(self.int8.value.data),
        )

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return (*shapes[0][:-1], self.n.value.data)

    def verify_element_types(self) -> None:
        f32 = Float32Type()
        types = [_element(v.type) for v in (*self.inputs, *self.outputs)]
        a, b, scales, zero = types[:4]
        if (a, scales, types[-1]) != (f32, f32, f32) or b != U8:
            raise VerifyException(
                f"'{self.name}' takes a, scales and outs of f32 and b of ui8, got "
                f"{a}, {scales}, {types[-1]} and {b}"
            )
        if zero not in (U8, f32):
            raise VerifyException(
                f"'{self.name}' the zero points have element type {zero}; expected "
                "ui8 (packed) or f32"
            )
        if len(self.inputs) == 5 and types[4] != f32:
            raise VerifyException(f"'{self.name}' the bias must be f32, not {types[4]}")

    def verify_shapes(self) -> None:
        attrs = self.runtime_attributes()
        if (
            attrs.bits not in NBITS
            or attrs.block_size < 16
            or attrs.block_size & (attrs.block_size - 1)
        ):
            raise VerifyException(
                f"'{self.name}' bits {attrs.bits} and block_size {attrs.block_size}: "
                "bits 2, 4 or 8 and a power of two >= 16 expected"
            )
        a, b, scales, zero = (shape_of(v) for v in self.inputs[:4])
        out = shape_of(self.outputs[0])
        packed = _element(self.inputs[3].type) == U8
        row = attrs.block_size * attrs.bits // 8
        expected = {
            "b": (b, attrs.n * attrs.blocks * row),
            "the scales": (scales, attrs.n * attrs.blocks),
            "the zero points": (
                zero,
                attrs.n * (attrs.zero_bytes if packed else attrs.blocks),
            ),
        }
        if len(self.inputs) == 5:
            expected["the bias"] = (shape_of(self.inputs[4]), attrs.n)
        for what, (shape, count) in expected.items():
            if static_mismatch(_count(shape), count):
                raise VerifyException(
                    f"'{self.name}' {what} has shape {fmt_shape(shape)}; expected "
                    f"{count} elements for k {attrs.k} and n {attrs.n}"
                )
        want = (*a[:-1], attrs.n)
        if (
            not a
            or static_mismatch(a[-1], attrs.k)
            or len(out) != len(want)
            or any(map(static_mismatch, want, out))
        ):
            raise VerifyException(
                f"'{self.name}' a has shape {fmt_shape(a)} and outs {fmt_shape(out)}; "
                f"expected (..., {attrs.k}) and {fmt_shape(want)}"
            )


@dataclass(frozen=True, slots=True)
class GatherQuantizedAttributes:
    """Gather along `gather_axis` of data block-quantized along
    `quantize_axis` (both in `[0, rank)` of data), `bits` per value packed
    along the last axis of u8 data."""

    gather_axis: int
    quantize_axis: int
    block_size: int
    bits: int


@irdl_op_definition
class GatherBlockQuantizedOp(HipComputeOp):
    """ONNX Runtime's GatherBlockQuantized of u8 `data`: ONNX Gather along
    `gather_axis` (0) of the values (`8 / bits` per byte, low bits first,
    along the last axis, the `quantize_axis`), each dequantized as
    `float(q - zero) * scale` of its block; `zero_points` packed as `data`
    (absent: `2^(bits-1)`). An index out of range gives a slice of zeros.
    `out` has the scales' element type (f32)."""

    name = "hip.gather_block_quantized"
    INS: ClassVar[tuple[str, ...]] = ("data", "indices", "scales", "zero_points?")
    RUNTIME_CALL: ClassVar[str] = "gather_block_quantized"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    gather_axis = prop_def(IntegerAttr)
    quantize_axis = prop_def(IntegerAttr)
    block_size = prop_def(IntegerAttr)
    bits = prop_def(IntegerAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        data: Value,
        indices: Value,
        scales: Value,
        zero_points: Value | None = None,
        out: Value,
        gather_axis: int,
        quantize_axis: int,
        block_size: int,
        bits: int,
    ) -> Self:
        roles = {
            "data": data,
            "indices": indices,
            "scales": scales,
            "zero_points": zero_points,
            "out": out,
        }
        properties = {
            "gather_axis": i64_attr(gather_axis),
            "quantize_axis": i64_attr(quantize_axis),
            "block_size": i64_attr(block_size),
            "bits": i64_attr(bits),
        }
        return cls._from_roles(ctx, roles, properties)

    def runtime_attributes(self) -> GatherQuantizedAttributes:
        return GatherQuantizedAttributes(
            self.gather_axis.value.data,
            self.quantize_axis.value.data,
            self.block_size.value.data,
            self.bits.value.data,
        )

    def _gathered(
        self, data: tuple[int, ...], indices: tuple[int, ...]
    ) -> tuple[int, ...]:
        axis = self.gather_axis.value.data
        shape = [*data[:axis], *indices, *data[axis + 1 :]]
        per_byte = 8 // self.bits.value.data
        if shape[-1] != DYNAMIC_INDEX:
            shape[-1] *= per_byte
        return tuple(shape)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return self._gathered(shapes[0], shapes[1])

    def verify_element_types(self) -> None:
        data, indices, scales = (_element(v.type) for v in self.inputs[:3])
        out = _element(self.outputs[0].type)
        if data != U8 or indices not in (IntegerType(32), IntegerType(64)):
            raise VerifyException(
                f"'{self.name}' takes ui8 data and i32 or i64 indices, got {data} "
                f"and {indices}"
            )
        if scales != Float32Type() or out != scales:
            raise VerifyException(
                f"'{self.name}' the scales ({scales}) and outs ({out}) must be f32"
            )
        if len(self.inputs) == 4 and _element(self.inputs[3].type) != U8:
            raise VerifyException(f"'{self.name}' the zero points must be ui8")

    def verify_shapes(self) -> None:
        attrs = self.runtime_attributes()
        data, indices, scales = (shape_of(v) for v in self.inputs[:3])
        rank = len(data)
        if (
            attrs.bits not in NBITS
            or attrs.gather_axis != 0
            or attrs.quantize_axis != rank - 1
            or rank < 2
            or attrs.block_size < 16
            or attrs.block_size & (attrs.block_size - 1)
        ):
            raise VerifyException(
                f"'{self.name}' data of rank {rank}, gather_axis {attrs.gather_axis}, "
                f"quantize_axis {attrs.quantize_axis}, block_size {attrs.block_size}, "
                f"bits {attrs.bits}: u8 data gathers along 0 and is quantized along "
                "its last axis, in blocks of a power of two >= 16"
            )
        last = data[-1]
        per_byte = 8 // attrs.bits
        blocks = (
            DYNAMIC_INDEX
            if last == DYNAMIC_INDEX
            else -(-last * per_byte // attrs.block_size)
        )
        want = (*data[:-1], blocks)
        if len(scales) != rank or any(map(static_mismatch, scales, want)):
            raise VerifyException(
                f"'{self.name}' the scales have shape {fmt_shape(scales)}; expected "
                f"{fmt_shape(want)}"
            )
        if len(self.inputs) == 4:
            zero = shape_of(self.inputs[3])
            packed = (
                DYNAMIC_INDEX if blocks == DYNAMIC_INDEX else -(-blocks // per_byte)
            )
            zwant = (*data[:-1], packed)
            if len(zero) != rank or any(map(static_mismatch, zero, zwant)):
                raise VerifyException(
                    f"'{self.name}' the zero points have shape {fmt_shape(zero)}; "
                    f"expected {fmt_shape(zwant)}"
                )
        out = shape_of(self.outputs[0])
        gathered = self._gathered(data, indices)
        if len(out) != len(gathered) or any(map(static_mismatch, gathered, out)):
            raise VerifyException(
                f"'{self.name}' outs has shape {fmt_shape(out)}; expected "
                f"{fmt_shape(gathered)}"
            )


OPS: tuple[type[Operation], ...] = (MatMulNBitsOp, GatherBlockQuantizedOp)
"""This family's ops, in the order the dialect lists them."""

__all__ = [
    "GatherBlockQuantizedOp",
    "GatherQuantizedAttributes",
    "MatMulNBitsOp",
    "NBitsAttributes",
]
