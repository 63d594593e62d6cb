"""Resize -> `hip.resize` in tensor mode.

`scales` (float) and `roi` must be constants, `sizes` known at compile time
(`index_values`: constants, or shape values folded to index arithmetic).
`axes` (opset 18) spread them over the full rank (scale 1, roi [0, 1] and the
input's size elsewhere). The output size is `floor(in * scale)` with scales
(index arithmetic for an integer scale of a dynamic dim), the given sizes
otherwise. `keep_aspect_ratio_policy` not_larger / not_smaller (opset 18) picks
one scale for the axes, `min` or `max` of `size / in`, at compile time, and the
sizes become `round(scale * in)`; `hip.resize` then gets that scale, as with
given scales. With sizes (stretch) the runtime takes `out / in` per dim.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith as arith_dialect
from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.utils.hints import isa

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index, IndexArith, index_values
from xhip.transforms.onnx_to_hip.support import (
    OnnxPattern,
    Unsupported,
    context_of,
    ranked,
)


def constant_floats(value: SSAValue) -> list[float] | None:
    """The numbers of a constant float tensor (`onnx.Constant` or `arith.constant`)."""
    owner = value.owner
    if not isinstance(owner, onnx.ConstantOp | arith_dialect.ConstantOp):
        return None
    attr = owner.value
    if isa(attr, DenseIntOrFPElementsAttr[AnyFloat]):
        return [float(v) for v in attr.get_values()]
    return None


def _present(value: SSAValue | None) -> bool:
    """An optional operand given with elements (opset 13 passes an empty
    tensor for the one of `scales` and `sizes` not used)."""
    if value is None:
        return False
    shape = ranked(value, "an operand").get_shape()
    return not (len(shape) == 1 and shape[0] == 0)


class ConvertResize(OnnxPattern[onnx.ResizeOp]):
    """`onnx.Resize` -> `hip.resize` into an init of the output size."""

    def convert(self, op: onnx.ResizeOp, rewriter: PatternRewriter) -> None:
        x_type = ranked(op.X, "the input")
        result_type = ranked(op.Y, "the result")
        element = x_type.get_element_type()
        if result_type.get_element_type() != element:
            raise Unsupported(f"result type {op.Y.type} differs from the input's")
        shape = list(x_type.get_shape())
        rank = len(shape)
        mode = op.get_string("mode")
        coordinate_mode = op.get_string("coordinate_transformation_mode")
        nearest_mode = op.get_string("nearest_mode")
        policy = op.get_string("keep_aspect_ratio_policy")
        antialias = bool(op.get_int("antialias"))
        for name, value, allowed in (
            ("mode", mode, hip.RESIZE_MODES),
            (
                "coordinate_transformation_mode",
                coordinate_mode,
                hip.RESIZE_COORDINATE_MODES,
            ),
            ("nearest_mode", nearest_mode, hip.RESIZE_NEAREST_MODES),
            (
                "keep_aspect_ratio_policy",
                policy,
                ("stretch", "not_larger", "not_smaller"),
            ),
        ):
            if value not in allowed:
                raise Unsupported(f"{name} {value!r} is not one of {list(allowed)}")
        if not isinstance(element, AnyFloat) and not (
            mode == "nearest" and isinstance(element, IntegerType)
        ):
            raise Unsupported(
                f"input type {op.X.type}: {mode} needs a float element type"
            )
        if antialias and mode == "nearest":
            raise Unsupported("antialias applies to linear and cubic modes only")
        axes = self._axes(op, rank)
        roi = self._roi(op, axes, rank, coordinate_mode)
        index = IndexArith(rewriter, op, self.state.folder)
        scales: list[float] | None = None
        sizes: list[Index]
        if _present(op.scales):
            assert op.scales is not None
            given = constant_floats(op.scales)
            if given is None:
                raise Unsupported(
                    "scales must be known at compile time (a constant); it is "
                    "run-time data here"
                )
            if len(given) != len(axes) or min(given, default=1.0) <= 0:
                raise Unsupported(
                    f"scales {given} must be {len(axes)} positive numbers"
                )
            scales = [1.0] * rank
            for axis, scale in zip(axes, given):
                scales[axis] = scale
            sizes = [self._scaled(index, op.X, d, scales[d]) for d in range(rank)]
        elif _present(op.sizes):
            assert op.sizes is not None
            given_sizes = index_values(op.sizes)
            if given_sizes is None:
                raise Unsupported(
                    "sizes must be known at compile time (constants or shape "
                    "values); it is run-time data here"
                )
            if len(given_sizes) != len(axes):
                raise Unsupported(f"sizes {given_sizes} must have {len(axes)} entries")
            sizes = [index.dim(op.X, d) for d in range(rank)]
            for axis, size in zip(axes, given_sizes):
                sizes[axis] = size
            if policy != "stretch":
                scales, sizes = self._keep_aspect_ratio(shape, axes, sizes, policy)
        else:
            raise Unsupported("one of scales and sizes must be given")
        init = self._init(rewriter, index, result_type, sizes)
        a = op.cubic_coeff_a
        e = op.extrapolation_value
        new = hip.ResizeOp.make(
            context_of(op),
            x=op.X,
            out=init,
            mode=mode,
            coordinate_transformation_mode=coordinate_mode,
            nearest_mode=nearest_mode,
            cubic_coeff_a=-0.75 if a is None else a.value.data,
            extrapolation_value=0.0 if e is None else e.value.data,
            exclude_outside=bool(op.get_int("exclude_outside")),
            antialias=antialias,
            scales=scales,
            roi=roi,
        )
        rewriter.replace(op, new)

    @staticmethod
    def _axes(op: onnx.ResizeOp, rank: int) -> list[int]:
        given = op.get_ints("axes")
        if given is None:
            return list(range(rank))
        axes = [a + rank if a < 0 else a for a in given]
        if any(not 0 <= a < rank for a in axes) or len(set(axes)) != len(axes):
            raise Unsupported(f"axes {given} must be distinct dims of rank {rank}")
        return axes

    @staticmethod
    def _roi(
        op: onnx.ResizeOp, axes: list[int], rank: int, coordinate_mode: str
    ) -> list[float] | None:
        if coordinate_mode != "tf_crop_and_resize":
            return None
        if not _present(op.roi):
            raise Unsupported("tf_crop_and_resize needs roi")
        assert op.roi is not None
        given = constant_floats(op.roi)
        if given is None:
            raise Unsupported(
                "roi must be known at compile time (a constant); it is run-time data here"
            )
        if len(given) != 2 * len(axes):
            raise Unsupported(f"roi {given} must have {2 * len(axes)} entries")
        roi = [0.0] * rank + [1.0] * rank
        for i, axis in enumerate(axes):
            roi[axis] = given[i]
            roi[rank + axis] = given[len(axes) + i]
        return roi

    @staticmethod
    def _scaled(index: IndexArith, x: SSAValue, d: int, scale: float) -> Index:
        """`floor(in * scale)` of dim `d`."""
        size = index.dim(x, d)
        if isinstance(size, int):
            return math.floor(size * scale)
        if scale == int(scale):
            return index.mul(size, int(scale))
        raise Unsupported(
            f"scale {scale} of the dynamic dim {d}: only integer scales of a "
            "dynamic size are supported"
        )

    @staticmethod
    def _keep_aspect_ratio(
        shape: list[int], axes: list[int], sizes: list[Index], policy: str
    ) -> tuple[list[float], list[Index]]:
        static = [s for a in axes if isinstance(s := sizes[a], int)]
        if any(shape[a] == DYNAMIC_INDEX for a in axes) or len(static) != len(axes):
            raise Unsupported(
                f"keep_aspect_ratio_policy {policy!r} needs static input sizes and "
                "constant sizes"
            )
        ratios = [size / shape[a] for size, a in zip(static, axes)]
        scale = min(ratios) if policy == "not_larger" else max(ratios)
        scales = [scale if d in axes else 1.0 for d in range(len(shape))]
        new: list[Index] = list(sizes)
        for a in axes:
            new[a] = int(scale * shape[a] + 0.5)
        return scales, new

    @staticmethod
    def _init(
        rewriter: PatternRewriter,
        index: IndexArith,
        result_type: TensorType[Attribute],
        sizes: list[Index],
    ) -> SSAValue:
        dynamic: list[SSAValue] = []
        for d, (want, size) in enumerate(zip(result_type.get_shape(), sizes)):
            if want == DYNAMIC_INDEX:
                dynamic.append(index.value(size))
            elif isinstance(size, int) and size != want:
                raise Unsupported(
                    f"result type {result_type} has {want} in dim {d}, but the "
                    f"resize gives {size}"
                )
        empty = tensor.EmptyOp(dynamic, result_type)
        rewriter.insert(empty)
        return empty.tensor
