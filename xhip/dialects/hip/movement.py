"""Copies that move elements: concat, transpose, permute, slice, tile, expand
(converted by `onnx_to_hip/compute.py` and `slice.py`; kernels in
`backend/kernels/movement.h`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    AnyFloat,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
    TensorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.hip.base import (
    AxisAttributes,
    ContextType,
    HipComputeOp,
    HipDPSOp,
    HipIndexedComputeOp,
    SameShapeOp,
    Value,
    constant_index,
    fmt_shape,
    i64_array,
    i64_attr,
    shape_of,
    static_mismatch,
)


@dataclass(frozen=True, slots=True)
class PermuteAttributes:
    """`out` dim i is `src` dim `perm[i]`."""

    perm: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SliceAttributes:
    """The step of each dim (non-zero, negative backwards)."""

    steps: tuple[int, ...]


@irdl_op_definition
class ConcatOp(HipComputeOp):
    """ONNX Concat: the `ins` one after the other along `axis` (in `[0, rank)`);
    the runtime copies each into its slice of `out`."""

    name = "hip.concat"
    INS: ClassVar[tuple[str, ...]] = ("inputs+",)
    RUNTIME_CALL: ClassVar[str] = "concat"

    axis = prop_def(IntegerAttr)

    @classmethod
    def make(
        cls, ctx: Value, /, *, inputs: Sequence[Value], out: Value, axis: int
    ) -> Self:
        return cls._from_roles(
            ctx, {"inputs": inputs, "out": out}, {"axis": i64_attr(axis)}
        )

    def runtime_attributes(self) -> AxisAttributes:
        return AxisAttributes(self.axis.value.data)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        axis = self.axis.value.data
        dims = list(shapes[0])
        dims[axis] = sum(x[axis] for x in shapes)
        return tuple(dims)

    def verify_shapes(self) -> None:
        out = shape_of(self.outputs[0])
        axis = self.axis.value.data
        if not 0 <= axis < len(out):
            raise VerifyException(
                f"'{self.name}' axis {axis} is out of range for rank {len(out)}"
            )
        total = 0
        for i, value in enumerate(self.inputs):
            shape = shape_of(value)
            if len(shape) != len(out) or any(
                static_mismatch(a, b)
                for d, (a, b) in enumerate(zip(shape, out))
                if d != axis
            ):
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has shape {fmt_shape(shape)} but outs "
                    f"operand 0 has shape {fmt_shape(out)} (they may differ in dim {axis} "
                    "only)"
                )
            total = (
                DYNAMIC_INDEX
                if DYNAMIC_INDEX in (total, shape[axis])
                else (total + shape[axis])
            )
        if static_mismatch(total, out[axis]):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has size {out[axis]} in dim {axis} but "
                f"the ins operands add up to {total}"
            )


@irdl_op_definition
class TransposeOp(HipDPSOp):
    """Swaps two dimensions, given as index operands after the context."""

    name = "hip.transpose"
    NUM_INDEX_OPERANDS: ClassVar[int | None] = 2
    INDEX: ClassVar[tuple[str, ...]] = ("dim0", "dim1")
    RUNTIME_CALL: ClassVar[str] = "transpose"

    ctx = operand_def(ContextType)
    dim0 = operand_def(IndexType)
    dim1 = operand_def(IndexType)
    inputs = var_operand_def(base(TensorType) | base(MemRefType))
    outputs = var_operand_def(base(TensorType) | base(MemRefType))
    res = var_result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def make(
        cls, ctx: Value, /, *, src: Value, out: Value, dim0: Value, dim1: Value
    ) -> Self:
        return cls._from_roles(
            ctx, {"src": src, "out": out, "dim0": dim0, "dim1": dim1}
        )

    def result_shape(self, *args: Any) -> tuple[int, ...] | None:
        """For (dim0, dim1, src's shape): the index values come first."""
        dim0, dim1, src = args
        dims = list(src)
        dims[dim0], dims[dim1] = dims[dim1], dims[dim0]
        return tuple(dims)

    def swapped_dims(self) -> tuple[int, int] | None:
        """The two dims if both are constants, else None."""
        d0, d1 = constant_index(self.dim0), constant_index(self.dim1)
        return None if d0 is None or d1 is None else (d0, d1)

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) != len(out):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has rank {len(src)} but outs operand "
                f"0 has rank {len(out)}"
            )
        dims = self.swapped_dims()
        if dims is None:
            return
        d0, d1 = dims
        if not (0 <= d0 < len(src) and 0 <= d1 < len(src)):
            raise VerifyException(
                f"'{self.name}' dims ({d0}, {d1}) out of range for rank {len(src)}"
            )
        expected = list(src)
        expected[d0], expected[d1] = expected[d1], expected[d0]
        if any(map(static_mismatch, expected, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)} but swapping "
                f"dims {d0} and {d1} of {fmt_shape(src)} gives {fmt_shape(expected)}"
            )


@irdl_op_definition
class PermuteOp(HipComputeOp):
    """General transpose: `out` dim i is `in` dim `perm[i]`."""

    name = "hip.permute"
    RUNTIME_CALL: ClassVar[str] = "permute"

    perm = opt_prop_def(DenseArrayBase[I64])

    @classmethod
    def make(
        cls, ctx: Value, /, *, src: Value, out: Value, perm: Sequence[int]
    ) -> Self:
        return cls._from_roles(ctx, {"src": src, "out": out}, {"perm": i64_array(perm)})

    def runtime_attributes(self) -> PermuteAttributes:
        return PermuteAttributes(self.permutation())

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return tuple(shapes[0][p] for p in self.permutation())

    def permutation(self) -> tuple[int, ...]:
        rank = len(shape_of(self.inputs[0]))
        if self.perm is None:
            return tuple(reversed(range(rank)))
        return tuple(int(p) for p in self.perm.get_values())

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        perm = self.permutation()
        if sorted(perm) != list(range(len(src))) or len(out) != len(src):
            raise VerifyException(
                f"'{self.name}' perm {list(perm)} is not a permutation of the "
                f"{len(src)} dims of ins operand 0 into outs operand 0"
            )
        expected = [src[p] for p in perm]
        if any(map(static_mismatch, expected, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)} but perm "
                f"{list(perm)} of {fmt_shape(src)} gives {fmt_shape(expected)}"
            )


# Slicing and broadcasting copies (converted by `onnx_to_hip/slice.py`;
# kernels in `backend/kernels/movement.h`).


@irdl_op_definition
class SliceOp(HipIndexedComputeOp):
    """A strided slice: `out[i] = in[start + i * step]` in each dim. The index
    operands are the starts, one per dim (in `[0, size)` wherever `out` is not
    empty), `steps` the steps (non-zero, negative backwards); `out`'s shape is
    the count taken in each dim (ONNX Slice, Split)."""

    name = "hip.slice"
    INDEX: ClassVar[tuple[str, ...]] = ("starts*",)
    RUNTIME_CALL: ClassVar[str] = "slice"

    steps = prop_def(DenseArrayBase[I64])

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        src: Value,
        out: Value,
        starts: Sequence[Value],
        steps: Sequence[int],
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"src": src, "out": out, "starts": starts},
            {"steps": i64_array(steps)},
        )

    def step_values(self) -> tuple[int, ...]:
        return tuple(int(s) for s in self.steps.get_values())

    def runtime_attributes(self) -> SliceAttributes:
        return SliceAttributes(self.step_values())

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        steps = self.step_values()
        if not len(src) == len(out) == len(steps) == len(self.index_operands):
            raise VerifyException(
                f"'{self.name}' needs one start and one step per dim: ins operand "
                f"0 has rank {len(src)}, outs operand 0 rank {len(out)}, with "
                f"{len(self.index_operands)} starts and {len(steps)} steps"
            )
        for d, (n, m, step) in enumerate(zip(src, out, steps)):
            if step == 0:
                raise VerifyException(f"'{self.name}' step of dim {d} is 0")
            if n != DYNAMIC_INDEX and m != DYNAMIC_INDEX and m > -(-n // abs(step)):
                raise VerifyException(
                    f"'{self.name}' outs operand 0 has size {m} in dim {d}, more "
                    f"than {n} elements by steps of {step} hold"
                )


@irdl_op_definition
class TileOp(HipComputeOp):
    """ONNX Tile: `out[i] = in[i mod in.shape]` in each dim; each dim of `out`
    is a multiple of `in`'s (the repeats are in the shapes)."""

    name = "hip.tile"
    RUNTIME_CALL: ClassVar[str] = "tile"

    @classmethod
    def make(cls, ctx: Value, /, *, src: Value, out: Value) -> Self:
        return cls._from_roles(ctx, {"src": src, "out": out})

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) != len(out):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has rank {len(src)} but outs operand "
                f"0 has rank {len(out)}"
            )
        for d, (n, m) in enumerate(zip(src, out)):
            if DYNAMIC_INDEX in (n, m):
                continue
            if (m % n if n else m) != 0:
                raise VerifyException(
                    f"'{self.name}' outs operand 0 has size {m} in dim {d}, not a "
                    f"multiple of ins operand 0's {n}"
                )


@irdl_op_definition
class ExpandOp(HipComputeOp):
    """ONNX Expand: `in` broadcast to `out`'s shape as numpy does (`in`'s dims
    right-aligned, each 1 or `out`'s size)."""

    name = "hip.expand"
    RUNTIME_CALL: ClassVar[str] = "expand"

    @classmethod
    def make(cls, ctx: Value, /, *, src: Value, out: Value) -> Self:
        return cls._from_roles(ctx, {"src": src, "out": out})

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        lead = len(out) - len(src)
        if lead < 0 or any(
            n != 1 and static_mismatch(n, out[lead + d]) for d, n in enumerate(src)
        ):
            raise VerifyException(
                f"'{self.name}' ins operand 0 of shape {fmt_shape(src)} does not "
                f"broadcast to outs operand 0 of shape {fmt_shape(out)}"
            )


def element_bytes(value: SSAValue) -> int:
    """The bytes of one element of a tensor or memref (a bool: 1)."""
    shaped = value.type
    assert isinstance(shaped, TensorType | MemRefType)
    element = cast(TensorType[Any], shaped).get_element_type()
    if isinstance(element, AnyFloat):
        return element.bitwidth // 8
    assert isinstance(element, IntegerType)
    return max(1, cast(IntegerType[int, Signedness], element).width.data // 8)


@irdl_op_definition
class BitcastOp(SameShapeOp):
    """ONNX BitCast: each element's bytes read as `outs`' element type, of the
    same width (a bool as its byte)."""

    name = "hip.bitcast"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False
    RUNTIME_CALL: ClassVar[str] = "bitcast"

    @classmethod
    def make(cls, ctx: Value, /, *, src: Value, out: Value) -> Self:
        return cls._from_roles(ctx, {"src": src, "out": out})

    def verify_element_types(self) -> None:
        src, out = element_bytes(self.inputs[0]), element_bytes(self.outputs[0])
        if src != out:
            raise VerifyException(
                f"'{self.name}' ins operand 0 has {src}-byte elements but outs "
                f"operand 0 has {out}-byte ones"
            )


OPS: tuple[type[Operation], ...] = (
    ConcatOp,
    TransposeOp,
    PermuteOp,
    SliceOp,
    TileOp,
    ExpandOp,
    BitcastOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "BitcastOp",
    "ConcatOp",
    "ExpandOp",
    "PermuteAttributes",
    "PermuteOp",
    "SliceAttributes",
    "SliceOp",
    "TileOp",
    "TransposeOp",
    "element_bytes",
]
