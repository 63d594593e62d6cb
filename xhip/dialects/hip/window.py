"""LpPool and ConvTranspose, the window ops built on GEMMs and taps (converted
by `onnx_to_hip/conv_transpose.py`; kernels in `backend/kernels/window.h`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    DenseArrayBase,
    IntegerAttr,
)
from xdsl.ir import Operation
from xdsl.irdl import (
    irdl_op_definition,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.hip.base import (
    Value,
    fmt_shape,
    i64_array,
    i64_attr,
    shape_of,
    static_mismatch,
    unit_attr,
)
from xhip.dialects.hip.conv import (
    ConvAttributes,
    LpPoolAttributes,
    PoolOp,
    WindowOp,
)


@irdl_op_definition
class LpPoolOp(PoolOp):
    """ONNX LpPool: `(sum |x|^p)^(1/p)` over each window's elements inside
    the input (the padding adds nothing)."""

    name = "hip.miopen.lp_pool"
    OUTS: ClassVar[tuple[str, ...]] = ("out",)
    RUNTIME_CALL: ClassVar[str] = "lp_pool"

    p = prop_def(IntegerAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        out: Value,
        strides: Sequence[int],
        dilations: Sequence[int],
        pads: Sequence[int],
        kernel_shape: Sequence[int],
        ceil_mode: bool = False,
        p: int,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"x": x, "out": out},
            {
                "strides": i64_array(strides),
                "dilations": i64_array(dilations),
                "pads": i64_array(pads),
                "kernel_shape": i64_array(kernel_shape),
                "ceil_mode": unit_attr(ceil_mode),
                "p": i64_attr(p),
            },
        )

    def runtime_attributes(self) -> LpPoolAttributes:
        kernel = self._ints(self.kernel_shape)
        return LpPoolAttributes(*self.window(), kernel=kernel, p=self.p.value.data)


@irdl_op_definition
class ConvTransposeOp(WindowOp):
    """ONNX ConvTranspose: `ins` (x (N, C, s...), w (C, M/group, k...)[, bias
    (M)]), `outs` (y (N, M, o...), workspace), `o = stride * (s - 1) +
    output_padding + dil * (k - 1) + 1 - pad_begin - pad_end`. The workspace
    is one image's column matrix (GEMM, then col2im), 1-D, `M * prod(k) *
    prod(s)` elements, or 0 where the GEMM writes y itself (a 1x1 kernel, unit
    strides, no pads nor output padding); the conversion sizes it."""

    name = "hip.miopen.conv_transpose"
    INS: ClassVar[tuple[str, ...]] = ("x", "w", "bias?")
    OUTS: ClassVar[tuple[str, ...]] = ("out", "workspace")
    RUNTIME_CALL: ClassVar[str] = "conv_transpose"

    group = prop_def(IntegerAttr)
    output_padding = prop_def(DenseArrayBase[I64])

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        w: Value,
        bias: Value | None = None,
        out: Value,
        workspace: Value,
        strides: Sequence[int],
        dilations: Sequence[int],
        pads: Sequence[int],
        group: int,
        output_padding: Sequence[int],
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"x": x, "w": w, "bias": bias, "out": out, "workspace": workspace},
            {
                "strides": i64_array(strides),
                "dilations": i64_array(dilations),
                "pads": i64_array(pads),
                "group": i64_attr(group),
                "output_padding": i64_array(output_padding),
            },
        )

    def runtime_attributes(self) -> ConvAttributes:
        return ConvAttributes(*self.window(), group=self.group.value.data, relu=False)

    def spatial_output(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        x, w = shapes[0], shapes[1]
        strides, dilations, pads = self.window()
        extra = self._ints(self.output_padding)
        rank = len(x) - 2
        return tuple(
            DYNAMIC_INDEX
            if DYNAMIC_INDEX in (x[2 + d], w[2 + d])
            else strides[d] * (x[2 + d] - 1)
            + extra[d]
            + dilations[d] * (w[2 + d] - 1)
            + 1
            - pads[d]
            - pads[rank + d]
            for d in range(rank)
        )

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        x, w = shapes[0], shapes[1]
        channels = DYNAMIC_INDEX if w[1] < 0 else w[1] * self.group.value.data
        return (x[0], channels, *self.spatial_output(*shapes))

    def workspace_size(self, *shapes: tuple[int, ...]) -> int:
        """Elements of the workspace for these `ins` shapes (DYNAMIC_INDEX if
        unknown)."""
        x, w = shapes[0], shapes[1]
        strides, _, pads = self.window()
        if (
            all(k == 1 for k in w[2:])
            and all(s == 1 for s in strides)
            and not any(pads)
            and not any(self._ints(self.output_padding))
        ):
            return 0
        channels = DYNAMIC_INDEX if w[1] < 0 else w[1] * self.group.value.data
        sizes = (channels, *w[2:], *x[2:])
        return DYNAMIC_INDEX if DYNAMIC_INDEX in sizes else math.prod(sizes)

    def verify_shapes(self) -> None:
        self.verify_window()
        x, w = shape_of(self.inputs[0]), shape_of(self.inputs[1])
        group = self.group.value.data
        rank = len(x) - 2
        extra = self._ints(self.output_padding)
        if len(w) != len(x):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the weight) has rank {len(w)}, but "
                f"the input has rank {len(x)}"
            )
        if group < 1 or static_mismatch(x[1], w[0]) or (w[0] >= 0 and w[0] % group):
            raise VerifyException(
                f"'{self.name}' the input has {x[1]} channels, but the weight "
                f"({fmt_shape(w)}) with group {group} takes {w[0]}"
            )
        if len(extra) != rank or any(e < 0 for e in extra):
            raise VerifyException(
                f"'{self.name}' output_padding {list(extra)} must be {rank} "
                "non-negative integers"
            )
        shapes = (x, w)
        want = self.result_shape(*shapes)
        assert want is not None
        if len(self.inputs) == 3:
            b = shape_of(self.inputs[2])
            if len(b) != 1 or static_mismatch(b[0], want[1]):
                raise VerifyException(
                    f"'{self.name}' ins operand 2 (the bias) has shape {fmt_shape(b)}, "
                    f"expected {fmt_shape(want[1:2])}"
                )
        out = shape_of(self.outputs[0])
        if len(out) != len(want) or any(map(static_mismatch, want, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)}, but the "
                f"transposed convolution gives {fmt_shape(want)}"
            )
        ws = shape_of(self.outputs[1])
        size = self.workspace_size(*shapes)
        if len(ws) != 1 or static_mismatch(ws[0], size):
            raise VerifyException(
                f"'{self.name}' outs operand 1 (the workspace) has shape "
                f"{fmt_shape(ws)}, expected {'?' if size < 0 else size} elements"
            )


OPS: tuple[type[Operation], ...] = (
    LpPoolOp,
    ConvTransposeOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "ConvTransposeOp",
    "LpPoolOp",
]
