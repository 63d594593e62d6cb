"""Reductions, normalizations and the softmax family (converted by
`onnx_to_hip/reduce.py`; kernels in `backend/kernels/reduce.h`)."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    FloatAttr,
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
    AxisAttributes,
    HipComputeOp,
    SameShapeOp,
    Value,
    broadcast,
    f32_attr,
    fmt_shape,
    i64_array,
    i64_attr,
    shape_of,
    static_mismatch,
    unit_attr,
)


@dataclass(frozen=True, slots=True)
class ReduceAttributes:
    """The reduction (`ReduceOp.kind()`) and the sorted axes it reduces."""

    kind: str
    axes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ArgReduceAttributes:
    """`max` or `min` along `axis`; ties go to the last index under
    `select_last`, else the first."""

    kind: str
    axis: int
    select_last: bool


@dataclass(frozen=True, slots=True)
class NormAttributes:
    """Normalized over the dims from `axis` on, `epsilon` added to the variance."""

    axis: int
    epsilon: float


@irdl_op_definition
class SoftmaxOp(HipComputeOp):
    """Softmax along `axis` (default: the last one) of `ins[0]`, times the
    one-element `ins[1]` if there is one (`hip-fuse-scaled-softmax` folds a
    scalar `mul` into it)."""

    name = "hip.miopen.softmax"
    INS: ClassVar[tuple[str, ...]] = ("src", "scale?")
    RUNTIME_CALL: ClassVar[str] = "softmax"
    IN_PLACE: ClassVar[bool] = True

    axis = opt_prop_def(IntegerAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        src: Value,
        scale: Value | None = None,
        out: Value,
        axis: int | None = None,
    ) -> Self:
        """`axis` None: the last one, not spelled out."""
        return cls._from_roles(
            ctx,
            {"src": src, "scale": scale, "out": out},
            {"axis": None if axis is None else i64_attr(axis)},
        )

    def runtime_attributes(self) -> AxisAttributes:
        return AxisAttributes(-1 if self.axis is None else self.axis.value.data)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) != len(out) or any(map(static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {fmt_shape(src)} but outs "
                f"operand 0 has shape {fmt_shape(out)}"
            )
        if len(self.inputs) == 2 and any(d != 1 for d in shape_of(self.inputs[1])):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the scale) must have one element, "
                f"got shape {fmt_shape(shape_of(self.inputs[1]))}"
            )
        rank = len(src)
        if self.axis is not None and not -rank <= self.axis.value.data < max(rank, 1):
            raise VerifyException(
                f"'{self.name}' axis {self.axis.value.data} is out of range for "
                f"rank {rank}"
            )


def _reduced_shape(
    shape: Sequence[int], axes: Sequence[int], keepdims: bool
) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if d in axes else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in axes)


class ReduceOp(HipComputeOp, ABC):
    """`out` = a reduction of `ins[0]` over `axes` (sorted, unique, in `[0,
    rank)`; none: the element function on each value, |x| for l1), the reduced dims kept as size 1 under `keepdims`,
    else dropped. `kind()` names the reduction (`sum` for `reduce_sum`)."""

    RUNTIME_CALL: ClassVar[str] = "reduce"

    axes = prop_def(DenseArrayBase[I64])
    keepdims = opt_prop_def(UnitAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        src: Value,
        out: Value,
        axes: Sequence[int],
        keepdims: bool = False,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"src": src, "out": out},
            {"axes": i64_array(axes), "keepdims": unit_attr(keepdims)},
        )

    @classmethod
    def kind(cls) -> str:
        return cls.name.rsplit(".", 1)[-1].removeprefix("reduce_")

    def reduced_axes(self) -> tuple[int, ...]:
        return tuple(int(a) for a in self.axes.get_values())

    def runtime_attributes(self) -> ReduceAttributes:
        return ReduceAttributes(self.kind(), self.reduced_axes())

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return _reduced_shape(shapes[0], self.reduced_axes(), self.keepdims is not None)

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        axes = self.reduced_axes()
        if list(axes) != sorted(set(axes)) or any(not 0 <= a < len(src) for a in axes):
            raise VerifyException(
                f"'{self.name}' axes {list(axes)} must be sorted, unique and in "
                f"[0, {len(src)})"
            )
        want = _reduced_shape(src, axes, self.keepdims is not None)
        if len(want) != len(out) or any(map(static_mismatch, want, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)} but reducing "
                f"{fmt_shape(src)} over {list(axes)} gives {fmt_shape(want)}"
            )


@irdl_op_definition
class ReduceSumOp(ReduceOp):
    name = "hip.miopen.reduce_sum"


@irdl_op_definition
class ReduceMeanOp(ReduceOp):
    name = "hip.miopen.reduce_mean"


@irdl_op_definition
class ReduceMaxOp(ReduceOp):
    name = "hip.miopen.reduce_max"


@irdl_op_definition
class ReduceMinOp(ReduceOp):
    name = "hip.miopen.reduce_min"


@irdl_op_definition
class ReduceProdOp(ReduceOp):
    name = "hip.miopen.reduce_prod"


@irdl_op_definition
class ReduceL1Op(ReduceOp):
    """Sum of absolute values (MIOpen's NORM1)."""

    name = "hip.miopen.reduce_l1"


@irdl_op_definition
class ReduceL2Op(ReduceOp):
    """Square root of the sum of squares (MIOpen's NORM2)."""

    name = "hip.miopen.reduce_l2"


@irdl_op_definition
class ReduceLogSumExpOp(ReduceOp):
    """`log(sum(exp(x)))`, computed shifted by the max; not a MIOpen mode."""

    name = "hip.reduce_log_sum_exp"


@irdl_op_definition
class ReduceSumSquareOp(ReduceOp):
    """Sum of squares; not a MIOpen mode."""

    name = "hip.reduce_sum_square"


class ArgReduceOp(HipComputeOp, ABC):
    """The index (int64 `outs`) of the largest (`argmax`) or smallest (`argmin`)
    element along `axis`, the first one unless `select_last_index`; NaN
    counts as the extreme, as in numpy."""

    RUNTIME_CALL: ClassVar[str] = "arg_reduce"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    axis = prop_def(IntegerAttr)
    keepdims = opt_prop_def(UnitAttr)
    select_last_index = opt_prop_def(UnitAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        src: Value,
        out: Value,
        axis: int,
        keepdims: bool = False,
        select_last_index: bool = False,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"src": src, "out": out},
            {
                "axis": i64_attr(axis),
                "keepdims": unit_attr(keepdims),
                "select_last_index": unit_attr(select_last_index),
            },
        )

    @classmethod
    def kind(cls) -> str:
        return cls.name.rsplit(".", 1)[-1].removeprefix("arg")

    def runtime_attributes(self) -> ArgReduceAttributes:
        last = self.select_last_index is not None
        return ArgReduceAttributes(self.kind(), self.axis.value.data, last)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return _reduced_shape(
            shapes[0], (self.axis.value.data,), self.keepdims is not None
        )

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        axis = self.axis.value.data
        if not 0 <= axis < len(src):
            raise VerifyException(
                f"'{self.name}' axis {axis} is out of range for rank {len(src)}"
            )
        out_type = self.outputs[0].type
        assert AnyShapedTypeConstr.verifies(out_type)
        if out_type.get_element_type() != IntegerType(64):
            raise VerifyException(
                f"'{self.name}' outs operand 0 must have element type i64, got "
                f"{out_type.get_element_type()}"
            )
        want = _reduced_shape(src, (axis,), self.keepdims is not None)
        if len(want) != len(out) or any(map(static_mismatch, want, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)} but reducing "
                f"{fmt_shape(src)} along {axis} gives {fmt_shape(want)}"
            )


@irdl_op_definition
class ArgMaxOp(ArgReduceOp):
    name = "hip.argmax"


@irdl_op_definition
class ArgMinOp(ArgReduceOp):
    name = "hip.argmin"


class _NormOp(HipComputeOp, ABC):
    """Normalizes `ins[0]` over its dims from `axis` on (in `[0, rank)`), then
    times `ins[1]` (the scale) and plus `ins[2]` (the bias) where given, each
    broadcast to those dims."""

    axis = prop_def(IntegerAttr)
    epsilon = prop_def(FloatAttr)

    def runtime_attributes(self) -> NormAttributes:
        return NormAttributes(self.axis.value.data, self.epsilon.value.data)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        axis = self.axis.value.data
        if not 0 <= axis < max(len(src), 1):
            raise VerifyException(
                f"'{self.name}' axis {axis} is out of range for rank {len(src)}"
            )
        if len(src) != len(out) or any(map(static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {fmt_shape(src)} but outs "
                f"operand 0 has shape {fmt_shape(out)}"
            )
        inner = src[axis:]
        for i, value in enumerate(self.inputs[1:], 1):
            shape = shape_of(value)
            both = broadcast(inner, shape)
            if (
                both is None
                or len(both) != len(inner)
                or any(map(static_mismatch, both, inner))
            ):
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has shape {fmt_shape(shape)}, which "
                    f"does not broadcast to the normalized dims {fmt_shape(inner)}"
                )


@irdl_op_definition
class LayerNormOp(_NormOp):
    """ONNX LayerNormalization: `(x - mean) / sqrt(var + epsilon) * scale +
    bias`, `ins` (x, scale[, bias]); `outs` (y[, mean, inv_std_dev]): the
    statistics of each normalized group, with the normalized dims as size 1."""

    name = "hip.miopen.layer_norm"
    INS: ClassVar[tuple[str, ...]] = ("x", "scale", "bias?")
    OUTS: ClassVar[tuple[str, ...]] = ("out", "mean?", "inv_std?")
    RUNTIME_CALL: ClassVar[str] = "layer_norm"

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        scale: Value,
        bias: Value | None = None,
        out: Value,
        mean: Value | None = None,
        inv_std: Value | None = None,
        axis: int,
        epsilon: float,
    ) -> Self:
        roles = {"x": x, "scale": scale, "bias": bias, "out": out}
        return cls._from_roles(
            ctx,
            {**roles, "mean": mean, "inv_std": inv_std},
            {"axis": i64_attr(axis), "epsilon": f32_attr(epsilon)},
        )

    def verify_shapes(self) -> None:
        super().verify_shapes()
        if len(self.outputs) == 2:
            raise VerifyException(
                f"'{self.name}' takes 1 outs operand or 3 (y, mean, inv_std_dev), got 2"
            )
        src = shape_of(self.inputs[0])
        axis = self.axis.value.data
        want = (*src[:axis], *(1 for _ in src[axis:]))
        for i, value in enumerate(self.outputs[1:], 1):
            shape = shape_of(value)
            if len(shape) != len(want) or any(map(static_mismatch, want, shape)):
                raise VerifyException(
                    f"'{self.name}' outs operand {i} has shape {fmt_shape(shape)}, "
                    f"expected {fmt_shape(want)}"
                )


@irdl_op_definition
class RmsNormOp(_NormOp):
    """ONNX RMSNormalization: `x / sqrt(mean(x^2) + epsilon) * scale`."""

    name = "hip.rms_norm"
    INS: ClassVar[tuple[str, ...]] = ("x", "scale")
    RUNTIME_CALL: ClassVar[str] = "rms_norm"

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        scale: Value,
        out: Value,
        axis: int,
        epsilon: float,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"x": x, "scale": scale, "out": out},
            {"axis": i64_attr(axis), "epsilon": f32_attr(epsilon)},
        )


class _AxisOp(SameShapeOp, ABC):
    """Same shape in and out, computed along `axis` (in `[0, rank)`)."""

    axis = prop_def(IntegerAttr)

    @classmethod
    def make(cls, ctx: Value, /, *, src: Value, out: Value, axis: int) -> Self:
        return cls._from_roles(ctx, {"src": src, "out": out}, {"axis": i64_attr(axis)})

    def runtime_attributes(self) -> AxisAttributes:
        return AxisAttributes(self.axis.value.data)

    def verify_shapes(self) -> None:
        super().verify_shapes()
        rank = len(shape_of(self.inputs[0]))
        if not 0 <= self.axis.value.data < max(rank, 1):
            raise VerifyException(
                f"'{self.name}' axis {self.axis.value.data} is out of range for "
                f"rank {rank}"
            )


@irdl_op_definition
class LogSoftmaxOp(_AxisOp):
    """`x - max - log(sum(exp(x - max)))` along `axis` (MIOpen's LOG mode)."""

    name = "hip.miopen.log_softmax"
    RUNTIME_CALL: ClassVar[str] = "log_softmax"


@irdl_op_definition
class HardmaxOp(_AxisOp):
    """1 at the first largest element along `axis`, 0 elsewhere."""

    name = "hip.hardmax"
    RUNTIME_CALL: ClassVar[str] = "hardmax"


OPS: tuple[type[Operation], ...] = (
    SoftmaxOp,
    ReduceSumOp,
    ReduceMeanOp,
    ReduceMaxOp,
    ReduceMinOp,
    ReduceProdOp,
    ReduceL1Op,
    ReduceL2Op,
    ReduceLogSumExpOp,
    ReduceSumSquareOp,
    ArgMaxOp,
    ArgMinOp,
    LayerNormOp,
    RmsNormOp,
    LogSoftmaxOp,
    HardmaxOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "ArgMaxOp",
    "ArgMinOp",
    "ArgReduceAttributes",
    "ArgReduceOp",
    "HardmaxOp",
    "LayerNormOp",
    "LogSoftmaxOp",
    "NormAttributes",
    "ReduceAttributes",
    "ReduceL1Op",
    "ReduceL2Op",
    "ReduceLogSumExpOp",
    "ReduceMaxOp",
    "ReduceMeanOp",
    "ReduceMinOp",
    "ReduceOp",
    "ReduceProdOp",
    "ReduceSumOp",
    "ReduceSumSquareOp",
    "RmsNormOp",
    "SoftmaxOp",
]
