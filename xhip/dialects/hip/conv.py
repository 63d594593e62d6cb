"""Convolution and pooling (converted by `onnx_to_hip/conv.py`; kernels in
`backend/kernels/conv.h`). Layout NC(D)HW: dims 0 and 1 are batch and
channels, the rest spatial; `pads` are all begins, then all ends."""

from __future__ import annotations

import math
from abc import ABC
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    DenseArrayBase,
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
    HipComputeOp,
    Value,
    fmt_shape,
    i64_array,
    i64_attr,
    shape_of,
    static_mismatch,
    unit_attr,
)


def window_output_size(
    size: int,
    kernel: int,
    stride: int,
    dilation: int,
    pad_begin: int,
    pad_end: int,
    ceil_mode: bool = False,
) -> int:
    """The output size of a sliding window along one dim (ONNX's formula; under
    `ceil_mode` the last window must start inside the input or its begin pad)."""
    if DYNAMIC_INDEX in (size, kernel):
        return DYNAMIC_INDEX
    span = size + pad_begin + pad_end - dilation * (kernel - 1) - 1
    if not ceil_mode:
        return span // stride + 1
    out = -(-span // stride) + 1
    if (out - 1) * stride >= size + pad_begin:
        out -= 1
    return out


def window_too_large(
    spatial: Sequence[int], kernel: Sequence[int], attrs: WindowAttributes
) -> str | None:
    """Why a window does not fit the padded input (ONNX Runtime refuses such
    an input: "Invalid input shape"), or None where it fits along every dim."""
    rank = len(kernel)
    for d, (size, k) in enumerate(zip(spatial, kernel, strict=True)):
        padded = size + attrs.pads[d] + attrs.pads[rank + d]
        if padded < attrs.dilations[d] * (k - 1) + 1:
            sizes = "x".join(map(str, spatial))
            kernels = "x".join(map(str, kernel))
            return (
                f"the input's spatial size {sizes} with pads {list(attrs.pads)} is "
                f"smaller than the kernel {kernels} (dilations "
                f"{list(attrs.dilations)}): the input is too small for the model"
            )
    return None


@dataclass(frozen=True, slots=True)
class WindowAttributes:
    """How a window slides: per spatial dim; `pads` all begins, then all ends."""

    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ConvAttributes(WindowAttributes):
    """Conv's and ConvTranspose's: the window and the number of groups;
    `relu`: a Relu of the result written in its place (`hip-fuse-conv-relu`)."""

    group: int
    relu: bool


@dataclass(frozen=True, slots=True)
class PoolAttributes(WindowAttributes):
    """MaxPool's and AveragePool's: `kind` max or average, `kernel` None for
    all of the input's spatial dims; `column_major` orders MaxPool's indices'
    spatial dims, `count_include_pad` counts AveragePool's padding."""

    kind: str
    kernel: tuple[int, ...] | None
    column_major: bool
    count_include_pad: bool


@dataclass(frozen=True, slots=True)
class LpPoolAttributes(WindowAttributes):
    """LpPool's: the window and the norm's `p`."""

    kernel: tuple[int, ...]
    p: int


Window = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""(strides, dilations, pads): what every window op's attributes start with."""


class WindowOp(HipComputeOp, ABC):
    """An op sliding a window over the spatial dims of `ins[0]`."""

    strides = prop_def(DenseArrayBase[I64])
    dilations = prop_def(DenseArrayBase[I64])
    pads = prop_def(DenseArrayBase[I64])

    def _ints(self, attr: DenseArrayBase[I64] | None) -> tuple[int, ...]:
        return () if attr is None else tuple(int(v) for v in attr.get_values())

    def window(self) -> Window:
        return (
            self._ints(self.strides),
            self._ints(self.dilations),
            self._ints(self.pads),
        )

    def kernel_of(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        raise NotImplementedError

    def uses_ceil_mode(self) -> bool:
        return False

    def spatial_output(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        """The output's spatial sizes for these `ins` shapes."""
        x = shapes[0]
        strides, dilations, pads = self.window()
        rank = len(x) - 2
        kernel = self.kernel_of(*shapes)
        return tuple(
            window_output_size(
                x[2 + d],
                kernel[d],
                strides[d],
                dilations[d],
                pads[d],
                pads[rank + d],
                self.uses_ceil_mode(),
            )
            for d in range(rank)
        )

    def verify_window(self) -> None:
        x = shape_of(self.inputs[0])
        rank = len(x) - 2
        if rank < 1:
            raise VerifyException(
                f"'{self.name}' ins operand 0 must have rank >= 3 (N, C, spatial), "
                f"got {fmt_shape(x)}"
            )
        keys, counts = ("strides", "dilations", "pads"), (rank, rank, 2 * rank)
        for key, values, count in zip(keys, self.window(), counts):
            if len(values) != count or any(
                v < (0 if key == "pads" else 1) for v in values
            ):
                raise VerifyException(
                    f"'{self.name}' {key} {list(values)} must be {count} "
                    f"{'non-negative' if key == 'pads' else 'positive'} integers"
                )


@irdl_op_definition
class ConvOp(WindowOp):
    """ONNX Conv: `ins` (x (N, C, s...), w (M, C/group, k...)[, bias (M)]),
    `outs` (y (N, M, o...), workspace): the workspace is the im2col matrix of
    one image, 1-D, `C * prod(k) * prod(o)` elements, or 0 where the matrix is
    the image itself (a 1x1 kernel, unit strides, no pads). The conversion
    sizes it, so the memory planner owns it; the runtime allocates nothing.
    With `relu` (the backend's `hip-fuse-conv-relu`, never `onnx-to-hip`)
    `out` is the Relu of the convolution."""

    name = "hip.miopen.conv"
    INS: ClassVar[tuple[str, ...]] = ("x", "w", "bias?")
    OUTS: ClassVar[tuple[str, ...]] = ("out", "workspace")
    RUNTIME_CALL: ClassVar[str] = "conv"

    group = prop_def(IntegerAttr)
    relu = opt_prop_def(UnitAttr)

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
        relu: bool = False,
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"x": x, "w": w, "bias": bias, "out": out, "workspace": workspace},
            {
                "strides": i64_array(strides),
                "dilations": i64_array(dilations),
                "pads": i64_array(pads),
                "group": i64_attr(group),
                "relu": unit_attr(relu),
            },
        )

    def runtime_attributes(self) -> ConvAttributes:
        return ConvAttributes(
            *self.window(), group=self.group.value.data, relu=self.relu is not None
        )

    def copies_overlaps(self) -> bool:
        return self.relu is not None

    def kernel_of(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        return shapes[1][2:]

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return (shapes[0][0], shapes[1][0], *self.spatial_output(*shapes))

    def workspace_size(self, *shapes: tuple[int, ...]) -> int:
        """Elements of the workspace for these `ins` shapes (DYNAMIC_INDEX if
        unknown)."""
        x, w = shapes[0], shapes[1]
        strides, _, pads = self.window()
        if (
            all(k == 1 for k in w[2:])
            and all(s == 1 for s in strides)
            and not any(pads)
        ):
            return 0
        sizes = (x[1], *w[2:], *self.spatial_output(*shapes))
        return DYNAMIC_INDEX if DYNAMIC_INDEX in sizes else math.prod(sizes)

    def verify_shapes(self) -> None:
        self.verify_window()
        x, w = shape_of(self.inputs[0]), shape_of(self.inputs[1])
        group = self.group.value.data
        if len(w) != len(x):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the weight) has rank {len(w)}, but "
                f"the input has rank {len(x)}"
            )
        if group < 1 or static_mismatch(
            x[1], DYNAMIC_INDEX if w[1] < 0 else w[1] * group
        ):
            raise VerifyException(
                f"'{self.name}' the input has {x[1]} channels, but the weight "
                f"({fmt_shape(w)}) with group {group} takes {w[1]} per group"
            )
        if w[0] != DYNAMIC_INDEX and w[0] % group:
            raise VerifyException(
                f"'{self.name}' {w[0]} output channels do not split into {group} groups"
            )
        if len(self.inputs) == 3:
            b = shape_of(self.inputs[2])
            if len(b) != 1 or static_mismatch(b[0], w[0]):
                raise VerifyException(
                    f"'{self.name}' ins operand 2 (the bias) has shape {fmt_shape(b)}, "
                    f"expected {w[0]}"
                )
        shapes = (x, w)
        want = self.result_shape(*shapes)
        out = shape_of(self.outputs[0])
        assert want is not None
        if len(out) != len(want) or any(map(static_mismatch, want, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)}, but the "
                f"convolution gives {fmt_shape(want)}"
            )
        ws = shape_of(self.outputs[1])
        size = self.workspace_size(*shapes)
        if len(ws) != 1 or static_mismatch(ws[0], size):
            raise VerifyException(
                f"'{self.name}' outs operand 1 (the workspace) has shape "
                f"{fmt_shape(ws)}, expected {'?' if size < 0 else size} elements"
            )


class PoolOp(WindowOp, ABC):
    """ONNX MaxPool and AveragePool, and their Global forms: `kernel_shape`
    absent means the whole spatial extent of the input (strides 1, no pads).
    `ceil_mode` only decides the output size, which `outs` carries."""

    INS: ClassVar[tuple[str, ...]] = ("x",)
    OUTS: ClassVar[tuple[str, ...]] = ("out", "indices?")
    """MaxPool may write the indices too; AveragePool's verifier refuses them."""
    RUNTIME_CALL: ClassVar[str] = "pool"

    kernel_shape = opt_prop_def(DenseArrayBase[I64])
    ceil_mode = opt_prop_def(UnitAttr)

    @classmethod
    def kind(cls) -> str:
        return cls.name.rsplit(".", 1)[-1].removesuffix("_pool")

    def kernel_of(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        if self.kernel_shape is None:
            return shapes[0][2:]
        return self._ints(self.kernel_shape)

    def uses_ceil_mode(self) -> bool:
        return self.ceil_mode is not None

    def pool_attributes(
        self, column_major: bool = False, count_include_pad: bool = False
    ) -> PoolAttributes:
        kernel = None if self.kernel_shape is None else self._ints(self.kernel_shape)
        return PoolAttributes(
            *self.window(),
            kind=self.kind(),
            kernel=kernel,
            column_major=column_major,
            count_include_pad=count_include_pad,
        )

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return (*shapes[0][:2], *self.spatial_output(*shapes))

    def verify_shapes(self) -> None:
        self.verify_window()
        x = shape_of(self.inputs[0])
        kernel = self.kernel_of(x)
        if len(kernel) != len(x) - 2 or any(0 <= k < 1 for k in kernel):
            raise VerifyException(
                f"'{self.name}' kernel_shape {list(kernel)} must be {len(x) - 2} "
                "positive integers"
            )
        want = self.result_shape(x)
        assert want is not None
        for i, value in enumerate(self.outputs):
            out = shape_of(value)
            if len(out) != len(want) or any(map(static_mismatch, want, out)):
                raise VerifyException(
                    f"'{self.name}' outs operand {i} has shape {fmt_shape(out)}, but "
                    f"pooling {fmt_shape(x)} gives {fmt_shape(want)}"
                )


@irdl_op_definition
class MaxPoolOp(PoolOp):
    """`outs` (y[, indices]): indices (i64) are flat indices into `ins[0]`,
    row-major, or with the spatial dims column-major under `storage_order`;
    padding never wins."""

    name = "hip.miopen.max_pool"

    storage_order = opt_prop_def(UnitAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        out: Value,
        indices: Value | None = None,
        strides: Sequence[int],
        dilations: Sequence[int],
        pads: Sequence[int],
        kernel_shape: Sequence[int] | None = None,
        ceil_mode: bool = False,
        storage_order: bool = False,
    ) -> Self:
        """`kernel_shape` None: global pooling."""
        return cls._from_roles(
            ctx,
            {"x": x, "out": out, "indices": indices},
            {
                "strides": i64_array(strides),
                "dilations": i64_array(dilations),
                "pads": i64_array(pads),
                "kernel_shape": None
                if kernel_shape is None
                else i64_array(kernel_shape),
                "ceil_mode": unit_attr(ceil_mode),
                "storage_order": unit_attr(storage_order),
            },
        )

    def runtime_attributes(self) -> PoolAttributes:
        return self.pool_attributes(column_major=self.storage_order is not None)

    def verify_shapes(self) -> None:
        if len(self.outputs) == 2:
            indices = self.outputs[1].type
            assert AnyShapedTypeConstr.verifies(indices)
            if indices.get_element_type() != IntegerType(64):
                raise VerifyException(
                    f"'{self.name}' outs operand 1 (the indices) must have element "
                    f"type i64, got {indices.get_element_type()}"
                )
        super().verify_shapes()


@irdl_op_definition
class AveragePoolOp(PoolOp):
    """The mean of each window: over its elements inside the input, or with
    `count_include_pad` over those inside the padded input (the part a
    `ceil_mode` window hangs past the end pad never counts)."""

    name = "hip.miopen.average_pool"

    count_include_pad = opt_prop_def(UnitAttr)

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
        kernel_shape: Sequence[int] | None = None,
        ceil_mode: bool = False,
        count_include_pad: bool = False,
    ) -> Self:
        """`kernel_shape` None: global pooling."""
        return cls._from_roles(
            ctx,
            {"x": x, "out": out},
            {
                "strides": i64_array(strides),
                "dilations": i64_array(dilations),
                "pads": i64_array(pads),
                "kernel_shape": None
                if kernel_shape is None
                else i64_array(kernel_shape),
                "ceil_mode": unit_attr(ceil_mode),
                "count_include_pad": unit_attr(count_include_pad),
            },
        )

    def runtime_attributes(self) -> PoolAttributes:
        return self.pool_attributes(
            count_include_pad=self.count_include_pad is not None
        )

    def verify_shapes(self) -> None:
        if len(self.outputs) != 1:
            raise VerifyException(f"'{self.name}' writes no indices")
        super().verify_shapes()


OPS: tuple[type[Operation], ...] = (
    ConvOp,
    MaxPoolOp,
    AveragePoolOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "AveragePoolOp",
    "ConvAttributes",
    "ConvOp",
    "LpPoolAttributes",
    "MaxPoolOp",
    "PoolAttributes",
    "PoolOp",
    "WindowAttributes",
    "window_output_size",
]
