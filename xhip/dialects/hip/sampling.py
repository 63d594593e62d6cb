"""`hip.grid_sample`, `hip.col2im` and `hip.deform_conv` (converted by `onnx_to_hip/sampling.py`;
kernels in `backend/kernels/sampling.h`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.hip.base import (
    HipComputeOp,
    Value,
    fmt_shape,
    i64_array,
    i64_attr,
    shape_of,
    static_mismatch,
    str_attr,
    unit_attr,
)

GRID_SAMPLE_MODES = ("linear", "nearest", "cubic")
GRID_SAMPLE_PADDING_MODES = ("zeros", "border", "reflection")


@dataclass(frozen=True, slots=True)
class GridSampleAttributes:
    """`hip.grid_sample`'s, as ONNX names them."""

    mode: str
    padding_mode: str
    align_corners: bool


@dataclass(frozen=True, slots=True)
class Col2ImAttributes:
    """`hip.col2im`'s: per spatial dim; `pads` the begins, then the ends."""

    block: tuple[int, ...]
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DeformConvAttributes:
    """`hip.deform_conv`'s: per spatial dim; `pads` the begins, then the ends."""

    kernel: tuple[int, ...]
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads: tuple[int, ...]
    group: int
    offset_group: int


def _check_result(op: HipComputeOp, want: Sequence[int], what: str) -> None:
    out = shape_of(op.outputs[0])
    if len(out) != len(want) or any(map(static_mismatch, want, out)):
        raise VerifyException(
            f"'{op.name}' outs operand 0 has shape {fmt_shape(out)}, but {what} "
            f"gives {fmt_shape(want)}"
        )


@irdl_op_definition
class GridSampleOp(HipComputeOp):
    """ONNX GridSample: `ins` (x (N, C, s...), grid (N, o..., r)), r = rank of
    s (grid's last index the innermost dim), `outs` (N, C, o...): each output
    samples x at the grid's point, mapped from [-1, 1] (`align_corners`), by
    `mode` (linear, nearest, cubic: Keys' with a = -0.75), taps outside the
    input by `padding_mode` (zeros, border, reflection)."""

    name = "hip.grid_sample"
    INS: ClassVar[tuple[str, ...]] = ("x", "grid")
    RUNTIME_CALL: ClassVar[str] = "grid_sample"

    mode = prop_def(StringAttr)
    padding_mode = prop_def(StringAttr)
    align_corners = opt_prop_def(UnitAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        grid: Value,
        out: Value,
        mode: str,
        padding_mode: str,
        align_corners: bool,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"x": x, "grid": grid, "out": out},
            {
                "mode": str_attr(mode),
                "padding_mode": str_attr(padding_mode),
                "align_corners": unit_attr(align_corners),
            },
        )

    def runtime_attributes(self) -> GridSampleAttributes:
        return GridSampleAttributes(
            self.mode.data, self.padding_mode.data, self.align_corners is not None
        )

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        x, grid = shapes[0], shapes[1]
        return (x[0], x[1], *grid[1:-1])

    def verify_shapes(self) -> None:
        x, grid = shape_of(self.inputs[0]), shape_of(self.inputs[1])
        if self.mode.data not in GRID_SAMPLE_MODES:
            raise VerifyException(
                f"'{self.name}' mode {self.mode.data!r} is not one of "
                f"{list(GRID_SAMPLE_MODES)}"
            )
        if self.padding_mode.data not in GRID_SAMPLE_PADDING_MODES:
            raise VerifyException(
                f"'{self.name}' padding_mode {self.padding_mode.data!r} is not one "
                f"of {list(GRID_SAMPLE_PADDING_MODES)}"
            )
        rank = len(x) - 2
        if (
            rank < 1
            or len(grid) != len(x)
            or static_mismatch(grid[-1], rank)
            or static_mismatch(grid[0], x[0])
        ):
            raise VerifyException(
                f"'{self.name}' the grid {fmt_shape(grid)} does not fit the input "
                f"{fmt_shape(x)}: (N, o..., {rank}) is needed"
            )
        want = self.result_shape(x, grid)
        assert want is not None
        _check_result(self, want, "sampling")


@irdl_op_definition
class Col2ImOp(HipComputeOp):
    """ONNX Col2Im: `ins` (x (N, C * prod(block), L)), `outs` (N, C, s...):
    column `(c, k...)` of block `l` (row-major over the block positions) is
    added at `l_d * stride - pad_begin + k_d * dilation` per dim."""

    name = "hip.col2im"
    INS: ClassVar[tuple[str, ...]] = ("x",)
    RUNTIME_CALL: ClassVar[str] = "col2im"

    block = prop_def(DenseArrayBase[I64])
    strides = prop_def(DenseArrayBase[I64])
    dilations = prop_def(DenseArrayBase[I64])
    pads = prop_def(DenseArrayBase[I64])

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        out: Value,
        block: Sequence[int],
        strides: Sequence[int],
        dilations: Sequence[int],
        pads: Sequence[int],
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"x": x, "out": out},
            {
                "block": i64_array(block),
                "strides": i64_array(strides),
                "dilations": i64_array(dilations),
                "pads": i64_array(pads),
            },
        )

    def runtime_attributes(self) -> Col2ImAttributes:
        def ints(attr: DenseArrayBase[I64]) -> tuple[int, ...]:
            return tuple(int(v) for v in attr.get_values())

        return Col2ImAttributes(
            ints(self.block), ints(self.strides), ints(self.dilations), ints(self.pads)
        )

    def blocks(self, image: Sequence[int]) -> list[int]:
        """Block positions per dim for the image sizes (DYNAMIC_INDEX if unknown)."""
        a = self.runtime_attributes()
        rank = len(a.block)
        return [
            DYNAMIC_INDEX
            if image[d] == DYNAMIC_INDEX
            else (
                image[d]
                + a.pads[d]
                + a.pads[rank + d]
                - a.dilations[d] * (a.block[d] - 1)
                - 1
            )
            // a.strides[d]
            + 1
            for d in range(rank)
        ]

    def verify_shapes(self) -> None:
        a = self.runtime_attributes()
        rank = len(a.block)
        x, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if (
            len(a.strides) != rank
            or len(a.dilations) != rank
            or len(a.pads) != 2 * rank
            or min((*a.block, *a.strides, *a.dilations), default=1) < 1
            or min(a.pads, default=0) < 0
        ):
            raise VerifyException(
                f"'{self.name}' block {list(a.block)}, strides {list(a.strides)}, "
                f"dilations {list(a.dilations)}, pads {list(a.pads)}: {rank} positive "
                f"sizes each and {2 * rank} non-negative pads are needed"
            )
        if len(x) != 3 or len(out) != 2 + rank:
            raise VerifyException(
                f"'{self.name}' input {fmt_shape(x)} and output {fmt_shape(out)}: "
                f"(N, C * prod(block), L) and (N, C, {rank} dims) are needed"
            )
        blocks = self.blocks(out[2:])
        count = 1
        for b in blocks:
            count = DYNAMIC_INDEX if DYNAMIC_INDEX in (b, count) else count * b
        size = 1
        for k in a.block:
            size *= k
        channels = DYNAMIC_INDEX if out[1] == DYNAMIC_INDEX else out[1] * size
        if (
            static_mismatch(x[0], out[0])
            or static_mismatch(x[1], channels)
            or static_mismatch(x[2], count)
        ):
            raise VerifyException(
                f"'{self.name}' input {fmt_shape(x)} does not fit the output "
                f"{fmt_shape(out)}: ({out[0] if out[0] >= 0 else '?'}, "
                f"{channels if channels >= 0 else '?'}, "
                f"{count if count >= 0 else '?'}) is needed"
            )


@irdl_op_definition
class DeformConvOp(HipComputeOp):
    """ONNX DeformConv: `ins` (x (N, C, s...), w (M, C/group, k...), offset
    (N, G * K * r, o...)[, bias (M)][, mask (N, G * K, o...)]), K = prod(k),
    G = offset_group, `outs` (N, M, o...). Tap `k` of output `o` reads x at
    `o * stride - pad_begin + k * dilation + offset` per dim (offset channel
    `(g * K + k) * r + d`), bilinearly, zero outside, times the mask; input
    channel c takes offset group `c // (C / G)`. `masked` tells a lone
    fourth operand's role."""

    name = "hip.deform_conv"
    INS: ClassVar[tuple[str, ...]] = ("x", "w", "offset", "bias?", "mask?")
    RUNTIME_CALL: ClassVar[str] = "deform_conv"

    kernel = prop_def(DenseArrayBase[I64])
    strides = prop_def(DenseArrayBase[I64])
    dilations = prop_def(DenseArrayBase[I64])
    pads = prop_def(DenseArrayBase[I64])
    group = prop_def(IntegerAttr)
    offset_group = prop_def(IntegerAttr)
    masked = opt_prop_def(UnitAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        w: Value,
        offset: Value,
        bias: Value | None = None,
        mask: Value | None = None,
        out: Value,
        kernel: Sequence[int],
        strides: Sequence[int],
        dilations: Sequence[int],
        pads: Sequence[int],
        group: int,
        offset_group: int,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"x": x, "w": w, "offset": offset, "bias": bias, "mask": mask, "out": out},
            {
                "kernel": i64_array(kernel),
                "strides": i64_array(strides),
                "dilations": i64_array(dilations),
                "pads": i64_array(pads),
                "group": i64_attr(group),
                "offset_group": i64_attr(offset_group),
                "masked": unit_attr(mask is not None),
            },
        )

    def absent_roles(self) -> frozenset[str]:
        """The mask is told by `masked`, the bias by the count."""
        if self.masked is None:
            return frozenset({"mask"})
        return frozenset({"bias"}) if len(self.inputs) == 4 else frozenset()

    def runtime_attributes(self) -> DeformConvAttributes:
        def ints(attr: DenseArrayBase[I64]) -> tuple[int, ...]:
            return tuple(int(v) for v in attr.get_values())

        return DeformConvAttributes(
            ints(self.kernel),
            ints(self.strides),
            ints(self.dilations),
            ints(self.pads),
            self.group.value.data,
            self.offset_group.value.data,
        )

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return (shapes[0][0], shapes[1][0], *shapes[2][2:])

    def verify_shapes(self) -> None:
        a = self.runtime_attributes()
        rank = len(a.kernel)
        roles = self.bound_roles()
        x, w, offset = (shape_of(self.inputs[i]) for i in range(3))
        if (
            len(a.strides) != rank
            or len(a.dilations) != rank
            or len(a.pads) != 2 * rank
            or min((*a.kernel, *a.strides, *a.dilations), default=1) < 1
            or min(a.pads, default=0) < 0
            or a.group < 1
            or a.offset_group < 1
        ):
            raise VerifyException(
                f"'{self.name}' kernel {list(a.kernel)}, strides {list(a.strides)}, "
                f"dilations {list(a.dilations)}, pads {list(a.pads)}, group "
                f"{a.group}, offset_group {a.offset_group}: {rank} positive sizes "
                f"each, {2 * rank} non-negative pads and positive groups are needed"
            )
        if len(x) != rank + 2 or len(w) != rank + 2 or len(offset) != rank + 2:
            raise VerifyException(
                f"'{self.name}' input {fmt_shape(x)}, weight {fmt_shape(w)} and "
                f"offset {fmt_shape(offset)}: rank {rank + 2} each is needed"
            )
        taps = a.offset_group
        for k in a.kernel:
            taps *= k
        if (
            static_mismatch(x[1], DYNAMIC_INDEX if w[1] < 0 else w[1] * a.group)
            or (w[0] >= 0 and w[0] % a.group)
            or (x[1] >= 0 and x[1] % a.offset_group)
            or static_mismatch(offset[1], taps * rank)
            or static_mismatch(offset[0], x[0])
            or any(map(static_mismatch, w[2:], a.kernel))
        ):
            raise VerifyException(
                f"'{self.name}' input {fmt_shape(x)}, weight {fmt_shape(w)}, offset "
                f"{fmt_shape(offset)} do not fit group {a.group}, offset_group "
                f"{a.offset_group} and kernel {list(a.kernel)}"
            )
        bias, mask = roles["bias"], roles["mask"]
        if isinstance(bias, SSAValue):
            b = shape_of(bias)
            if len(b) != 1 or static_mismatch(b[0], w[0]):
                raise VerifyException(
                    f"'{self.name}' the bias {fmt_shape(b)} is not ({w[0]})"
                )
        if isinstance(mask, SSAValue):
            m = shape_of(mask)
            want_mask = (offset[0], taps, *offset[2:])
            if len(m) != len(want_mask) or any(map(static_mismatch, want_mask, m)):
                raise VerifyException(
                    f"'{self.name}' the mask {fmt_shape(m)} is not "
                    f"{fmt_shape(want_mask)}"
                )
        want = self.result_shape(x, w, offset)
        assert want is not None
        _check_result(self, want, "the deformable convolution")


OPS: tuple[type[Operation], ...] = (
    GridSampleOp,
    Col2ImOp,
    DeformConvOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "GRID_SAMPLE_MODES",
    "GRID_SAMPLE_PADDING_MODES",
    "Col2ImAttributes",
    "Col2ImOp",
    "DeformConvAttributes",
    "DeformConvOp",
    "GridSampleAttributes",
    "GridSampleOp",
]
