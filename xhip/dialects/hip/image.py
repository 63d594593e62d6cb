"""Padding, group normalization and LRN (converted by `onnx_to_hip/pad.py`;
kernels in `backend/kernels/image.h`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Operation
from xdsl.irdl import (
    irdl_op_definition,
    opt_prop_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.hip.base import (
    HipComputeOp,
    HipIndexedComputeOp,
    SameShapeOp,
    Value,
    constant_index,
    f32_attr,
    fmt_shape,
    i64_attr,
    shape_of,
    static_mismatch,
    str_attr,
    unit_attr,
)

PAD_MODES = ("constant", "reflect", "edge", "wrap")
"""`hip.pad`'s modes, as ONNX Pad names them."""


@dataclass(frozen=True, slots=True)
class PadAttributes:
    """The padding `mode`, one of `PAD_MODES`."""

    mode: str


@dataclass(frozen=True, slots=True)
class GroupNormAttributes:
    """`num_groups` None: one group per channel (InstanceNormalization);
    `per_group`: scale and bias have one value per group, not per channel."""

    num_groups: int | None
    epsilon: float
    per_group: bool


@dataclass(frozen=True, slots=True)
class LrnAttributes:
    """ONNX LRN's: `size` channels per window, `bias + alpha / size * sum` to
    the power `beta`."""

    size: int
    alpha: float
    beta: float
    bias: float


@irdl_op_definition
class PadOp(HipIndexedComputeOp):
    """ONNX Pad: the index operands are the pads, all begins then all ends (2 *
    rank; a negative pad crops); `ins` (x[, value]): the value (one element)
    fills the `constant` mode's padding, 0 if absent. Cropping comes first,
    so `reflect` (period 2 (n - 1)), `edge` and `wrap` (period n) extend the
    cropped input."""

    name = "hip.pad"
    INDEX: ClassVar[tuple[str, ...]] = ("pads*",)
    INS: ClassVar[tuple[str, ...]] = ("x", "value?")
    RUNTIME_CALL: ClassVar[str] = "pad"

    mode = prop_def(StringAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        value: Value | None = None,
        out: Value,
        pads: Sequence[Value],
        mode: str,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"x": x, "value": value, "out": out, "pads": pads},
            {"mode": str_attr(mode)},
        )

    def runtime_attributes(self) -> PadAttributes:
        return PadAttributes(self.mode.data)

    def result_shape(self, *args: Any) -> tuple[int, ...] | None:
        pads: tuple[int, ...] = args[: len(args) - len(self.inputs)]
        x: tuple[int, ...] = args[len(pads)]
        rank = len(x)
        return tuple(x[d] + pads[d] + pads[rank + d] for d in range(rank))

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if self.mode.data not in PAD_MODES:
            raise VerifyException(
                f"'{self.name}' mode {self.mode.data!r} is not one of {list(PAD_MODES)}"
            )
        pads = self.index_operands
        if len(pads) != 2 * len(src) or len(out) != len(src):
            raise VerifyException(
                f"'{self.name}' takes 2 pads per dim of ins operand 0 "
                f"({fmt_shape(src)}) and outs of its rank, got {len(pads)} pads and "
                f"{fmt_shape(out)}"
            )
        if len(self.inputs) == 2 and any(d != 1 for d in shape_of(self.inputs[1])):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the value) must have one element, "
                f"got shape {fmt_shape(shape_of(self.inputs[1]))}"
            )
        rank = len(src)
        for d in range(rank):
            begin, end = constant_index(pads[d]), constant_index(pads[rank + d])
            if begin is None or end is None or src[d] == DYNAMIC_INDEX:
                continue
            size = src[d] + begin + end
            if size < 0 or static_mismatch(size, out[d]):
                raise VerifyException(
                    f"'{self.name}' outs operand 0 has size {out[d]} in dim {d}, "
                    f"but padding {src[d]} by ({begin}, {end}) gives {size}"
                )


@irdl_op_definition
class GroupNormOp(HipComputeOp):
    """ONNX GroupNormalization and InstanceNormalization: `ins` (x (N, C, ...),
    scale, bias); each of the `num_groups` groups of C / num_groups channels
    of each image is normalized (`(x - mean) / sqrt(var + epsilon)`), then
    times scale plus bias, which are (C), or (num_groups) under `per_group`
    (GroupNormalization-18). No `num_groups`: one group per channel
    (InstanceNormalization, whose C may be known at run time only)."""

    name = "hip.miopen.group_norm"
    INS: ClassVar[tuple[str, ...]] = ("x", "scale", "bias")
    RUNTIME_CALL: ClassVar[str] = "group_norm"

    num_groups = opt_prop_def(IntegerAttr)
    epsilon = prop_def(FloatAttr)
    per_group = opt_prop_def(UnitAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        scale: Value,
        bias: Value,
        out: Value,
        num_groups: int | None,
        epsilon: float,
        per_group: bool = False,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"x": x, "scale": scale, "bias": bias, "out": out},
            {
                "num_groups": None if num_groups is None else i64_attr(num_groups),
                "epsilon": f32_attr(epsilon),
                "per_group": unit_attr(per_group),
            },
        )

    def groups(self) -> int | None:
        return None if self.num_groups is None else self.num_groups.value.data

    def runtime_attributes(self) -> GroupNormAttributes:
        return GroupNormAttributes(
            self.groups(), self.epsilon.value.data, self.per_group is not None
        )

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) < 2 or len(src) != len(out) or any(map(static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {fmt_shape(src)} but outs "
                f"operand 0 has shape {fmt_shape(out)} (both (N, C, ...))"
            )
        groups = self.groups()
        if groups is not None and (
            groups < 1 or (src[1] != DYNAMIC_INDEX and src[1] % groups)
        ):
            raise VerifyException(
                f"'{self.name}' {src[1]} channels do not split into {groups} groups"
            )
        if self.per_group is not None and groups is None:
            raise VerifyException(f"'{self.name}' per_group needs num_groups")
        want = groups if groups is not None and self.per_group is not None else src[1]
        for i in (1, 2):
            shape = shape_of(self.inputs[i])
            if len(shape) != 1 or static_mismatch(shape[0], want):
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has shape {fmt_shape(shape)}, "
                    f"expected {fmt_shape((want,))}"
                )


@irdl_op_definition
class LrnOp(SameShapeOp):
    """ONNX LRN on x (N, C, ...): `x / (bias + alpha / size * sum)^beta`, the
    sum of squares over channels `c - (size - 1) // 2` to `c + size // 2`
    (those inside [0, C))."""

    name = "hip.miopen.lrn"
    RUNTIME_CALL: ClassVar[str] = "lrn"

    size = prop_def(IntegerAttr)
    alpha = prop_def(FloatAttr)
    beta = prop_def(FloatAttr)
    bias = prop_def(FloatAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        src: Value,
        out: Value,
        size: int,
        alpha: float,
        beta: float,
        bias: float,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"src": src, "out": out},
            {
                "size": i64_attr(size),
                "alpha": f32_attr(alpha),
                "beta": f32_attr(beta),
                "bias": f32_attr(bias),
            },
        )

    def runtime_attributes(self) -> LrnAttributes:
        return LrnAttributes(
            size=self.size.value.data,
            alpha=self.alpha.value.data,
            beta=self.beta.value.data,
            bias=self.bias.value.data,
        )

    def verify_shapes(self) -> None:
        super().verify_shapes()
        if len(shape_of(self.inputs[0])) < 2 or self.size.value.data < 1:
            raise VerifyException(
                f"'{self.name}' needs an (N, C, ...) input and a positive size"
            )


OPS: tuple[type[Operation], ...] = (
    PadOp,
    GroupNormOp,
    LrnOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "GroupNormAttributes",
    "GroupNormOp",
    "LrnAttributes",
    "LrnOp",
    "PAD_MODES",
    "PadAttributes",
    "PadOp",
]
