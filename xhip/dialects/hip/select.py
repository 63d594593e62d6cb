"""Ops whose output size is data (converted by `onnx_to_hip/select.py`;
kernels in `backend/kernels/select.h`).

Each data-sized result takes two ops: one that counts (into a 0-D i64 tensor
the conversion reads back with `hip.readback`) and one that writes the
result, sized by the count (docs/shape-values.md, "Data-sized outputs").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import IntegerAttr, IntegerType, UnitAttr
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.hip.base import (
    HipComputeOp,
    Value,
    fmt_shape,
    i64_attr,
    shape_of,
    unit_attr,
)


def _require_i64(op: HipComputeOp, value: SSAValue, what: str) -> None:
    element = getattr(value.type, "element_type", None)
    if element != IntegerType(64):
        raise VerifyException(f"'{op.name}' {what} must have element type i64")


def _require_count(op: HipComputeOp) -> None:
    count = op.outputs[0]
    _require_i64(op, count, "the count")
    if shape_of(count):
        raise VerifyException(
            f"'{op.name}' the count must be 0-D, got {fmt_shape(shape_of(count))}"
        )


@irdl_op_definition
class CountNonZeroOp(HipComputeOp):
    """The number of non-zero elements of `ins[0]` into the 0-D i64 `outs`."""

    name = "hip.count_nonzero"
    OUTS: ClassVar[tuple[str, ...]] = ("count",)
    RUNTIME_CALL: ClassVar[str] = "count_nonzero"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    @classmethod
    def make(cls, ctx: Value, /, *, src: Value, count: Value) -> Self:
        return cls._from_roles(ctx, {"src": src, "count": count})

    def verify_shapes(self) -> None:
        _require_count(self)


@irdl_op_definition
class NonZeroOp(HipComputeOp):
    """ONNX NonZero: the indices of the non-zero elements of `ins[0]`, in
    row-major order, into the i64 `outs` of shape `[max(rank, 1), n]` (a 0-D
    input counts as 1-D), `n` their count."""

    name = "hip.nonzero"
    RUNTIME_CALL: ClassVar[str] = "nonzero"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    @classmethod
    def make(cls, ctx: Value, /, *, src: Value, out: Value) -> Self:
        return cls._from_roles(ctx, {"src": src, "out": out})

    def verify_shapes(self) -> None:
        _require_i64(self, self.outputs[0], "outs")
        rank, out = len(shape_of(self.inputs[0])), shape_of(self.outputs[0])
        if len(out) != 2 or out[0] not in (-1, max(rank, 1)):
            raise VerifyException(
                f"'{self.name}' outs has shape {fmt_shape(out)}; for rank {rank} "
                f"it must be {max(rank, 1)}xN"
            )


@dataclass(frozen=True, slots=True)
class UniqueAttributes:
    """The axis whose slices are compared (in `[0, rank)`) and whether the
    result is sorted (else in order of first occurrence)."""

    axis: int
    sorted: bool


class _UniqueBase(HipComputeOp):
    axis = prop_def(IntegerAttr)
    unsorted = opt_prop_def(UnitAttr)
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    def runtime_attributes(self) -> UniqueAttributes:
        return UniqueAttributes(self.axis.value.data, sorted=self.unsorted is None)

    def verify_shapes(self) -> None:
        rank = len(shape_of(self.inputs[0]))
        if not 0 <= self.axis.value.data < rank:
            raise VerifyException(
                f"'{self.name}' axis {self.axis.value.data} is out of range for "
                f"rank {rank}"
            )


@irdl_op_definition
class UniqueCountOp(_UniqueBase):
    """The number of distinct slices of `ins[0]` along `axis` into the 0-D
    i64 `outs` (what sizes `hip.unique`'s outputs)."""

    name = "hip.unique_count"
    OUTS: ClassVar[tuple[str, ...]] = ("count",)
    RUNTIME_CALL: ClassVar[str] = "unique_count"

    @classmethod
    def make(cls, ctx: Value, /, *, src: Value, count: Value, axis: int) -> Self:
        return cls._from_roles(
            ctx, {"src": src, "count": count}, {"axis": i64_attr(axis)}
        )

    def verify_shapes(self) -> None:
        super().verify_shapes()
        _require_count(self)


@irdl_op_definition
class UniqueOp(_UniqueBase):
    """ONNX Unique along `axis` (a flattened input is 1-D, axis 0): `outs`
    (y: the distinct slices, i64 indices of their first occurrences, i64
    inverse indices: for each slice of `ins[0]`, its position in y, i64
    counts), sorted ascending (lexicographically for slices) or, under
    `unsorted`, in order of first occurrence."""

    name = "hip.unique"
    OUTS: ClassVar[tuple[str, ...]] = ("y", "indices", "inverse", "counts")
    RUNTIME_CALL: ClassVar[str] = "unique"

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        src: Value,
        y: Value,
        indices: Value,
        inverse: Value,
        counts: Value,
        axis: int,
        sorted: bool = True,
    ) -> Self:
        roles = {"src": src, "y": y, "indices": indices, "inverse": inverse}
        return cls._from_roles(
            ctx,
            {**roles, "counts": counts},
            {"axis": i64_attr(axis), "unsorted": unit_attr(not sorted)},
        )

    def verify_shapes(self) -> None:
        super().verify_shapes()
        src, y = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if self.outputs[0].type.element_type != self.inputs[0].type.element_type:  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
            raise VerifyException(f"'{self.name}' y must have the element type of ins")
        axis = self.axis.value.data
        if len(y) != len(src) or any(
            -1 not in (a, b) and a != b
            for d, (a, b) in enumerate(zip(src, y))
            if d != axis
        ):
            raise VerifyException(
                f"'{self.name}' y has shape {fmt_shape(y)} but ins has "
                f"{fmt_shape(src)} (they may differ in dim {axis} only)"
            )
        for value, what in zip(self.outputs[1:], ("indices", "inverse", "counts")):
            _require_i64(self, value, what)
            if len(shape_of(value)) != 1:
                raise VerifyException(f"'{self.name}' {what} must be 1-D")


@dataclass(frozen=True, slots=True)
class NmsAttributes:
    """The box format (`center_point_box`: x, y, width, height; else the
    corners y1, x1, y2, x2 in any order)."""

    center_point_box: bool


class _NmsBase(HipComputeOp):
    """`ins` (boxes [B, N, 4], scores [B, C, N], then the 1-element
    max_output_boxes_per_class (i64), iou_threshold, score_threshold where
    given: `no_max`, `no_iou`, `no_score` say which are absent)."""

    INS: ClassVar[tuple[str, ...]] = ("boxes", "scores", "max_out?", "iou?", "score?")
    SAME_ELEMENT_TYPE: ClassVar[bool] = False
    center_point_box = opt_prop_def(UnitAttr)
    no_max = opt_prop_def(UnitAttr)
    no_iou = opt_prop_def(UnitAttr)
    no_score = opt_prop_def(UnitAttr)

    @classmethod
    def _make(
        cls,
        ctx: Value,
        roles: dict[str, Value | None],
        center_point_box: bool,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {k: v for k, v in roles.items() if v is not None},
            {
                "center_point_box": unit_attr(center_point_box),
                "no_max": unit_attr(roles["max_out"] is None),
                "no_iou": unit_attr(roles["iou"] is None),
                "no_score": unit_attr(roles["score"] is None),
            },
        )

    def absent_roles(self) -> frozenset[str]:
        if len(self.inputs) == 5:
            return frozenset()
        flags = {"max_out": self.no_max, "iou": self.no_iou, "score": self.no_score}
        return frozenset(role for role, flag in flags.items() if flag is not None)

    def runtime_attributes(self) -> NmsAttributes:
        return NmsAttributes(self.center_point_box is not None)

    def verify_shapes(self) -> None:
        flags = (self.no_max, self.no_iou, self.no_score)
        if len(self.inputs) != 5 - sum(flag is not None for flag in flags):
            raise VerifyException(
                f"'{self.name}' has {len(self.inputs)} ins but its no_max, no_iou "
                "and no_score say otherwise"
            )
        boxes, scores = shape_of(self.inputs[0]), shape_of(self.inputs[1])
        if len(boxes) != 3 or len(scores) != 3 or boxes[2] not in (-1, 4):
            raise VerifyException(
                f"'{self.name}' boxes {fmt_shape(boxes)} must be BxNx4 and scores "
                f"{fmt_shape(scores)} BxCxN"
            )


@irdl_op_definition
class NmsCountOp(_NmsBase):
    """How many boxes `hip.nms` selects, into the 0-D i64 `outs`."""

    name = "hip.nms_count"
    OUTS: ClassVar[tuple[str, ...]] = ("count",)
    RUNTIME_CALL: ClassVar[str] = "nms_count"

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        boxes: Value,
        scores: Value,
        max_out: Value | None,
        iou: Value | None,
        score: Value | None,
        count: Value,
        center_point_box: bool = False,
    ) -> Self:
        roles: dict[str, Value | None] = {
            "boxes": boxes,
            "scores": scores,
            "max_out": max_out,
            "iou": iou,
            "score": score,
            "count": count,
        }
        return cls._make(ctx, roles, center_point_box)

    def verify_shapes(self) -> None:
        super().verify_shapes()
        _require_count(self)


@irdl_op_definition
class NmsOp(_NmsBase):
    """ONNX NonMaxSuppression as ONNX Runtime runs it: per batch and class,
    the boxes whose score is above `score` (all, without it), in descending
    score order (ties to the lower box index), each kept unless its IoU with
    one kept before is above `iou`, at most `max_out` of them (0 without
    it); `outs` the i64 `[n, 3]` (batch, class, box) rows, batch by batch,
    class by class."""

    name = "hip.nms"
    RUNTIME_CALL: ClassVar[str] = "nms"

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        boxes: Value,
        scores: Value,
        max_out: Value | None,
        iou: Value | None,
        score: Value | None,
        out: Value,
        center_point_box: bool = False,
    ) -> Self:
        roles: dict[str, Value | None] = {
            "boxes": boxes,
            "scores": scores,
            "max_out": max_out,
            "iou": iou,
            "score": score,
            "out": out,
        }
        return cls._make(ctx, roles, center_point_box)

    def verify_shapes(self) -> None:
        super().verify_shapes()
        _require_i64(self, self.outputs[0], "outs")
        out = shape_of(self.outputs[0])
        if len(out) != 2 or out[1] not in (-1, 3):
            raise VerifyException(
                f"'{self.name}' outs must be Nx3, got {fmt_shape(out)}"
            )


OPS: tuple[type[Operation], ...] = (
    CountNonZeroOp,
    NonZeroOp,
    UniqueCountOp,
    UniqueOp,
    NmsCountOp,
    NmsOp,
)
"""This family's ops, in the order the dialect lists them."""

__all__ = [
    "CountNonZeroOp",
    "NmsAttributes",
    "NmsCountOp",
    "NmsOp",
    "NonZeroOp",
    "UniqueAttributes",
    "UniqueCountOp",
    "UniqueOp",
]
