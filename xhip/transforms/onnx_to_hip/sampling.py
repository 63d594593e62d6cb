"""GridSample, Col2Im, DeformConv -> `hip.grid_sample`, `hip.col2im`,
`hip.deform_conv`; CenterCropPad ->
`hip.slice` and `hip.pad`; AffineGrid, MaxUnpool and TensorScatter -> the
onnx ops of their definition (`compose.Parts`; each pattern says which).

- GridSample: opset 16's `bilinear` and `bicubic` are opset 20's `linear` and
  `cubic`; the output is (N, C, grid's o...).
- Col2Im: `image_shape` and `block_shape` must be known at compile time
  (constants or shape values); `pads`, `strides`, `dilations` default to 0,
  1, 1 per dim. The input's C * prod(block) may be known only at run time:
  C is then that dim over prod(block), index arithmetic.
- DeformConv: `kernel_shape` defaults to the weight's (then static) spatial
  sizes; `strides`, `dilations`, `pads` to 1, 1, 0 per dim; the output is
  (N, M, offset's o...).
- CenterCropPad: a `hip.slice` keeping `min(in, n)` from `max(in - n, 0) //
  2` on each of `axes`, then a zero `hip.pad` of `max(n - in, 0) // 2` before
  and the rest after, index arithmetic on the input's dims and the sizes
  `shape` gives (constants fold; run-time data is read back, `hip.readback`).
- AffineGrid: `size`'s spatial sizes known at compile time (N and C may be
  shape values); the grid is the constant base
  grid (N-D points of [-1, 1] per dim, `align_corners` as the spec says, and
  a column of ones) times theta transposed, a MatMul, then a Reshape to
  (N, s..., r).
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index, IndexArith, index_values
from xhip.transforms.onnx_to_hip.compose import Parts, PatternFactory, si64
from xhip.transforms.onnx_to_hip.compute import (
    ConvertElementwise,
    ConvertMatMul,
    ConvertTranspose,
)
from xhip.transforms.onnx_to_hip.elementwise import ConvertMod
from xhip.transforms.onnx_to_hip.reshape import ConvertReshape
from xhip.transforms.onnx_to_hip.run_time_dims import index_tensor
from xhip.transforms.onnx_to_hip.scatter import ConvertScatterElements
from xhip.transforms.onnx_to_hip.shapes import (
    ConvertShape,
    empty,
    shape_operand,
)
from xhip.transforms.onnx_to_hip.slice import ConvertExpand
from xhip.transforms.onnx_to_hip.support import (
    DimSource,
    OnnxPattern,
    Unsupported,
    build_init,
    context_of,
    ranked,
)

MODE_NAMES = {"bilinear": "linear", "bicubic": "cubic"}
"""Opset 16's GridSample modes, by their opset 20 names."""

PATTERNS: dict[type[onnx.OnnxOp], PatternFactory] = {
    onnx.ScatterElementsOp: ConvertScatterElements,
    onnx.ShapeOp: ConvertShape,
    onnx.ExpandOp: ConvertExpand,
    onnx.AddOp: lambda state: ConvertElementwise(state, onnx.AddOp, hip.AddOp),
    onnx.ModOp: ConvertMod,
    onnx.TransposeOp: ConvertTranspose,
    onnx.MatMulOp: ConvertMatMul,
    onnx.ReshapeOp: ConvertReshape,
}
"""The ops AffineGrid, MaxUnpool and TensorScatter are made of, and their
patterns."""


def _string(op: onnx.OnnxOp, name: str) -> str:
    attr = op.properties.get(name)
    if isinstance(attr, StringAttr):
        return attr.data
    value = op.DEFAULTS[name]
    assert isinstance(value, str)
    return value


def _float_element(value: SSAValue, what: str) -> TensorType[Attribute]:
    tensor_type = ranked(value, what)
    if not isinstance(tensor_type.get_element_type(), AnyFloat):
        raise Unsupported(f"{what} {value.type}: a float element type is needed")
    return tensor_type


def _known_ints(value: SSAValue, what: str) -> list[int]:
    """A 1-D int operand's numbers, known at compile time."""
    values = index_values(value)
    if values is None or not all(isinstance(v, int) for v in values):
        raise Unsupported(
            f"{what} must be known at compile time (a constant); it is run-time "
            "data here"
        )
    return [v for v in values if isinstance(v, int)]


class ConvertGridSample(OnnxPattern[onnx.GridSampleOp]):
    def convert(self, op: onnx.GridSampleOp, rewriter: PatternRewriter) -> None:
        x_type = _float_element(op.X, "the input")
        grid_type = _float_element(op.grid, "the grid")
        result = ranked(op.Y, "the result")
        if grid_type.get_element_type() != x_type.get_element_type():
            raise Unsupported(
                f"grid {op.grid.type} and input {op.X.type}: one element type is "
                "needed (xhip samples in the input's type)"
            )
        mode = _string(op, "mode")
        mode = MODE_NAMES.get(mode, mode)
        padding_mode = _string(op, "padding_mode")
        if mode not in hip.GRID_SAMPLE_MODES:
            raise Unsupported(
                f"mode {mode!r} is not one of {list(hip.GRID_SAMPLE_MODES)}"
            )
        if padding_mode not in hip.GRID_SAMPLE_PADDING_MODES:
            raise Unsupported(
                f"padding_mode {padding_mode!r} is not one of "
                f"{list(hip.GRID_SAMPLE_PADDING_MODES)}"
            )
        rank = x_type.get_num_dims()
        if rank < 3 or grid_type.get_num_dims() != rank:
            raise Unsupported(
                f"input {op.X.type} and grid {op.grid.type}: (N, C, s...) and "
                "(N, o..., r) of one rank are needed"
            )
        sources: list[DimSource | None] = [
            (op.X, 0),
            (op.X, 1),
            *((op.grid, d) for d in range(1, rank - 1)),
        ]
        init = build_init(rewriter, self.state, op, result, sources)
        new = hip.GridSampleOp.make(
            context_of(op),
            x=op.X,
            grid=op.grid,
            out=init,
            mode=mode,
            padding_mode=padding_mode,
            align_corners=bool(op.get_int("align_corners")),
        )
        rewriter.replace(op, new)


class ConvertCol2Im(OnnxPattern[onnx.Col2ImOp]):
    def convert(self, op: onnx.Col2ImOp, rewriter: PatternRewriter) -> None:
        x_type = _float_element(op.input, "the input")
        result = ranked(op.output, "the result")
        if x_type.get_num_dims() != 3:
            raise Unsupported(
                f"input {op.input.type}: (N, C * prod(block), L) is needed"
            )
        image = _known_ints(op.image_shape, "image_shape")
        block = _known_ints(op.block_shape, "block_shape")
        rank = len(image)
        if len(block) != rank or result.get_num_dims() != rank + 2:
            raise Unsupported(
                f"image_shape {image} and block_shape {block} do not fit the "
                f"result {op.output.type}"
            )
        strides = op.get_ints("strides") or [1] * rank
        dilations = op.get_ints("dilations") or [1] * rank
        pads = op.get_ints("pads") or [0] * (2 * rank)
        size = int(np.prod(block))
        channels = x_type.get_shape()[1]
        want = [
            x_type.get_shape()[0],
            DYNAMIC_INDEX if channels < 0 else channels // size,
            *image,
        ]
        result_type = TensorType(result.get_element_type(), want)
        if channels >= 0:
            init = build_init(rewriter, self.state, op, result_type, [(op.input, 0)])
        else:  # C = the input's dim 1 / prod(block), at run time
            index = IndexArith(rewriter, op, self.state.folder)
            batch = index.dim(op.input, 0)
            sizes = [index.trunc_div(index.dim(op.input, 1), size)]
            if isinstance(batch, SSAValue):
                sizes.insert(0, batch)
            empty = tensor.EmptyOp([index.value(v) for v in sizes], result_type)
            rewriter.insert(empty)
            init = empty.tensor
        new = hip.Col2ImOp.make(
            context_of(op),
            x=op.input,
            out=init,
            block=block,
            strides=strides,
            dilations=dilations,
            pads=pads,
        )
        rewriter.insert(new)
        value: SSAValue = new.results[0]
        if value.type != op.output.type:
            cast = tensor.CastOp(value, op.output.type)
            rewriter.insert(cast)
            value = cast.results[0]
        rewriter.replace(op, [], [value])


class ConvertDeformConv(OnnxPattern[onnx.DeformConvOp]):
    def convert(self, op: onnx.DeformConvOp, rewriter: PatternRewriter) -> None:
        x_type = _float_element(op.X, "the input")
        element = x_type.get_element_type()
        result = ranked(op.Y, "the result")
        extra = [(op.B, "the bias"), (op.mask, "the mask")]
        for value, what in [(op.W, "the weight"), (op.offset, "the offset"), *extra]:
            if value is not None and _float_element(value, what).get_element_type() != (
                element
            ):
                raise Unsupported(
                    f"{what} {value.type} and input {op.X.type}: one element type "
                    "is needed"
                )
        rank = x_type.get_num_dims() - 2
        w_shape = ranked(op.W, "the weight").get_shape()
        if rank < 1 or len(w_shape) != rank + 2:
            raise Unsupported(
                f"input {op.X.type} and weight {op.W.type}: (N, C, s...) and "
                "(M, C/group, k...) of one rank are needed"
            )
        kernel = op.get_ints("kernel_shape") or list(w_shape[2:])
        if len(kernel) != rank or min(kernel) < 1:
            raise Unsupported(
                f"kernel_shape {kernel}: {rank} positive sizes (given, or the "
                "weight's static ones) are needed"
            )
        sources: list[DimSource | None] = [
            (op.X, 0),
            (op.W, 0),
            *((op.offset, d) for d in range(2, rank + 2)),
        ]
        init = build_init(rewriter, self.state, op, result, sources)
        new = hip.DeformConvOp.make(
            context_of(op),
            x=op.X,
            w=op.W,
            offset=op.offset,
            bias=op.B,
            mask=op.mask,
            out=init,
            kernel=kernel,
            strides=op.get_ints("strides") or [1] * rank,
            dilations=op.get_ints("dilations") or [1] * rank,
            pads=op.get_ints("pads") or [0] * (2 * rank),
            group=op.get_int("group"),
            offset_group=op.get_int("offset_group"),
        )
        rewriter.replace(op, new)


class ConvertCenterCropPad(OnnxPattern[onnx.CenterCropPadOp]):
    def convert(self, op: onnx.CenterCropPadOp, rewriter: PatternRewriter) -> None:
        x_type = ranked(op.input_data, "the input")
        result = ranked(op.output_data, "the result")
        element = x_type.get_element_type()
        if result.get_element_type() != element:
            raise Unsupported(
                f"result type {op.output_data.type} differs from the input's"
            )
        rank = x_type.get_num_dims()
        given = op.get_ints("axes")
        axes = list(range(rank)) if given is None else given
        if any(not -rank <= a < rank for a in axes):
            raise Unsupported(f"axes {axes} out of range for rank {rank}")
        axes = [a % rank for a in axes]
        if len(set(axes)) != len(axes):
            raise Unsupported(f"repeated axes {given}")
        sizes = shape_operand(self, op, rewriter, op.shape, "the shape operand")
        if len(sizes) != len(axes):
            raise Unsupported(f"shape has {len(sizes)} sizes for {len(axes)} axes")
        if any(isinstance(n, int) and n < 0 for n in sizes):
            raise Unsupported(f"shape {sizes} has a negative size")
        arith = IndexArith(rewriter, op, self.state.folder)
        dims = [arith.dim(op.input_data, d) for d in range(rank)]
        starts: list[Index] = [0] * rank
        kept, final = list(dims), list(dims)
        begins: list[Index] = [0] * rank
        ends: list[Index] = [0] * rank
        for a, n in zip(axes, sizes):
            kept[a] = arith.min(dims[a], n)
            starts[a] = arith.floor_div(arith.max(arith.sub(dims[a], n), 0), 2)
            begins[a] = arith.floor_div(arith.max(arith.sub(n, dims[a]), 0), 2)
            ends[a] = arith.sub(arith.sub(n, kept[a]), begins[a])
            final[a] = n
        value = op.input_data
        if any(s != 0 for s in starts) or any(k is not d for k, d in zip(kept, dims)):
            shape = [k if isinstance(k, int) else DYNAMIC_INDEX for k in kept]
            init = empty(rewriter, TensorType(element, shape), kept, arith)
            crop = hip.SliceOp.make(
                context_of(op),
                src=value,
                out=init,
                starts=[arith.value(s) for s in starts],
                steps=[1] * rank,
            )
            rewriter.insert(crop)
            value = crop.results[0]
        if all(p == 0 for p in (*begins, *ends)):
            if value.type != result:
                cast = tensor.CastOp(value, result)
                rewriter.insert(cast)
                value = cast.results[0]
            rewriter.replace(op, [], [value])
            return
        init = empty(rewriter, result, final, arith)
        pad = hip.PadOp.make(
            context_of(op),
            x=value,
            out=init,
            pads=[arith.value(p) for p in (*begins, *ends)],
            mode="constant",
        )
        rewriter.replace(op, pad)


def base_grid(sizes: list[int], align_corners: bool) -> np.ndarray:
    """AffineGrid's points before theta: (prod(sizes), r + 1), each row the
    point's coordinates innermost dim first (x, y[, z]), then 1. A size of 1
    under `align_corners` is the point 1, as ONNX Runtime has it (Eigen's
    one-point LinSpaced; onnx's reference takes -1)."""
    axes: list[np.ndarray[Any, np.dtype[np.float64]]] = []
    for n in sizes:
        if not align_corners:
            axes.append((2.0 * np.arange(n, dtype=np.float64) + 1.0) / n - 1.0)
        elif n > 1:
            axes.append(np.linspace(-1.0, 1.0, n, dtype=np.float64))
        else:
            axes.append(np.ones(1, np.float64))
    mesh = np.meshgrid(*axes, indexing="ij")
    columns = [np.ravel(m) for m in reversed(mesh)]
    columns.append(np.ones(columns[0].shape, np.float64))
    return np.stack(columns, axis=1)


class ConvertAffineGrid(OnnxPattern[onnx.AffineGridOp]):
    def convert(self, op: onnx.AffineGridOp, rewriter: PatternRewriter) -> None:
        theta_type = _float_element(op.theta, "theta")
        element = theta_type.get_element_type()
        given = index_values(op.size)
        spatial = given[2:] if given is not None else []
        if given is None or not all(isinstance(n, int) for n in spatial):
            raise Unsupported(
                "the size operand's spatial sizes must be known at compile time "
                "(constants or shape values); they are run-time data here"
            )
        size = [n for n in spatial if isinstance(n, int)]
        if len(given) not in (4, 5) or min(size) < 1:
            raise Unsupported(
                f"size of {len(given)} elements, spatial {size}: (N, C, H, W) or "
                "(N, C, D, H, W) is needed"
            )
        rank = len(size)
        theta = theta_type.get_shape()
        if len(theta) != 3 or theta[1:] not in ((rank, rank + 1), (DYNAMIC_INDEX,) * 2):
            raise Unsupported(
                f"theta {op.theta.type}: (N, {rank}, {rank + 1}) is needed for "
                f"{rank} spatial sizes"
            )
        if isinstance(given[0], int) and theta[0] not in (DYNAMIC_INDEX, given[0]):
            raise Unsupported(
                f"size's N = {given[0]} is not theta's batch {theta[0]} "
                "(ONNX Runtime refuses it too)"
            )
        parts = Parts(self, op, rewriter, PATTERNS)
        points = base_grid(size, bool(op.get_int("align_corners")))
        base = parts.constant(points, element)
        turned = parts.insert(
            onnx.TransposeOp,
            [op.theta],
            TensorType(element, (theta[0], rank + 1, rank)),
            {"perm": ArrayAttr([si64(p) for p in (0, 2, 1)])},
        )
        flat = parts.insert(
            onnx.MatMulOp,
            [base, turned],
            TensorType(element, (theta[0], points.shape[0], rank)),
        )
        grid = parts.insert(
            onnx.ReshapeOp,
            [flat, parts.ints([-1, *size, rank])],
            op.grid.type,
        )
        parts.finish([grid])


class ConvertMaxUnpool(OnnxPattern[onnx.MaxUnpoolOp]):
    """`X` scattered at the indices `I` into zeros. MaxPool's indices are flat
    over the whole tensor, and each lies in its own element's image: so modulo
    the output's spatial size P they are positions in (N, C, P), where a
    ScatterElements along the last axis puts `X` (N, C, L). Zeros (a
    `hip.fill`), Reshapes, a Mod, the scatter, a Reshape to the output. N and
    C may be dynamic, and so may the spatial sizes without `output_shape`
    (index arithmetic on the input's). Repeated indices carry equal values
    (one input element, the max of two windows): the order of the writes
    does not matter."""

    def convert(self, op: onnx.MaxUnpoolOp, rewriter: PatternRewriter) -> None:
        x_type = ranked(op.X, "the input")
        element = x_type.get_element_type()
        shape = list(x_type.get_shape())
        rank = len(shape) - 2
        if rank < 1 or ranked(op.I, "the indices").get_num_dims() != rank + 2:
            raise Unsupported(
                f"input {op.X.type} and indices {op.I.type}: (N, C, s...) both"
            )
        kernel = op.get_ints("kernel_shape")
        if kernel is None or len(kernel) != rank:
            raise Unsupported(f"kernel_shape {kernel}: {rank} sizes are needed")
        strides = op.get_ints("strides") or [1] * rank
        pads = op.get_ints("pads") or [0] * (2 * rank)
        arith = IndexArith(rewriter, op, self.state.folder)
        out: list[Index]
        if op.output_shape is not None:
            out = list(_known_ints(op.output_shape, "output_shape")[2:])
        else:  # (in - 1) * stride - pads + kernel, at run time where `in` is
            out = [
                arith.add(
                    arith.mul(arith.sub(arith.dim(op.X, 2 + d), 1), strides[d]),
                    kernel[d] - pads[d] - pads[rank + d],
                )
                for d in range(rank)
            ]
        known = [n for n in out if isinstance(n, int)]
        if len(out) != rank or (known and min(known) < 1):
            shown = ", ".join(str(n) if isinstance(n, int) else "?" for n in out)
            raise Unsupported(
                f"output sizes [{shown}]: {rank} positive sizes are needed"
            )
        plane = arith.product(out)
        lead = [arith.dim(op.X, 0), arith.dim(op.X, 1)]
        lead_shape = [n if isinstance(n, int) else DYNAMIC_INDEX for n in lead]
        plane_size = plane if isinstance(plane, int) else DYNAMIC_INDEX
        zeros_type = TensorType(element, (*lead_shape, plane_size))
        init = empty(rewriter, zeros_type, [*lead, plane], arith)
        kind: Attribute = element
        if isinstance(kind, IntegerType):
            integer = cast("IntegerType[int, Signedness]", kind)
            fill = hip.FillOp.make(
                context_of(op), out=init, value=0, integer_type=integer
            )
        else:
            fill = hip.FillOp.make(context_of(op), out=init, value=0.0)
        rewriter.insert(fill)
        parts = Parts(self, op, rewriter, PATTERNS)
        flat = parts.ints([0, 0, -1])
        count = DYNAMIC_INDEX if DYNAMIC_INDEX in shape[2:] else math.prod(shape[2:])
        values = parts.insert(
            onnx.ReshapeOp, [op.X, flat], TensorType(element, (*lead_shape, count))
        )
        indices = parts.insert(
            onnx.ReshapeOp, [op.I, flat], TensorType(i64, (*lead_shape, count))
        )
        size = index_tensor(parts, rewriter, [plane], i64, scalar=True)
        local = parts.insert(onnx.ModOp, [indices, size], indices.type)
        scattered = parts.insert(
            onnx.ScatterElementsOp,
            [fill.results[0], local, values],
            zeros_type,
            {"axis": si64(2)},
        )
        # ONNX's 0 (the input's dim) in a constant shape; the dims themselves
        # where the shape is computed (index arithmetic reads no 0 as a copy)
        static = all(isinstance(n, int) for n in out)
        shape = index_tensor(
            parts, rewriter, [0, 0, *out] if static else [*lead, *out], i64
        )
        result = parts.insert(
            onnx.ReshapeOp,
            [scattered, shape],
            op.output.type,
        )
        parts.finish([result])


class ConvertTensorScatter(OnnxPattern[onnx.TensorScatterOp]):
    """`update` (B, ..., S, ...) written into `past_cache` (B, ..., L, ...)
    along `axis` at `write_indices[b] + s` (0 + s without them), modulo L
    under `circular`: a ScatterElements whose indices are those positions
    (an Add of the indices reshaped (B, 1...) and 0..S-1 along the axis, a
    constant or, for a dynamic S, a `hip.range`; a Mod by L) expanded to the
    update's shape."""

    def convert(self, op: onnx.TensorScatterOp, rewriter: PatternRewriter) -> None:
        past = ranked(op.past_cache, "past_cache")
        update = ranked(op.update, "update")
        rank = past.get_num_dims()
        axis = op.get_int("axis")
        if not -rank < axis < rank or axis % rank == 0:
            raise Unsupported(f"axis {axis}: a dim of rank {rank} other than the batch")
        axis %= rank
        mode = _string(op, "mode")
        if mode not in ("linear", "circular"):
            raise Unsupported(f"mode {mode!r} is not one of ['linear', 'circular']")
        steps, length = update.get_shape()[axis], past.get_shape()[axis]
        batch = update.get_shape()[0]
        parts = Parts(self, op, rewriter, PATTERNS)
        along = [1] * rank
        along[axis] = steps
        if steps == DYNAMIC_INDEX:  # 0..S-1 as a hip.range of the update's dim
            where = parts.insert(
                onnx.ReshapeOp,
                [
                    self._steps(op, rewriter, axis),
                    parts.ints([-1 if d == axis else 1 for d in range(rank)]),
                ],
                TensorType(i64, along),
            )
        else:
            where = parts.constant(np.arange(steps, dtype=np.int64).reshape(along), i64)
        if op.write_indices is not None:
            column = [1] * rank
            column[0] = -1
            starts = parts.insert(
                onnx.ReshapeOp,
                [op.write_indices, parts.ints(column)],
                TensorType(i64, (batch, *[1] * (rank - 1))),
            )
            along[0] = batch
            where = parts.insert(onnx.AddOp, [starts, where], TensorType(i64, along))
        if mode == "circular":
            if length == DYNAMIC_INDEX:  # the cache's length, as a [1] tensor
                modulus = parts.insert(
                    onnx.ShapeOp,
                    [op.past_cache],
                    TensorType(i64, (1,)),
                    {"start": si64(axis), "end": si64(axis + 1)},
                )
            else:
                modulus = parts.constant(np.asarray(length, np.int64), i64)
            where = parts.insert(onnx.ModOp, [where, modulus], where.type)
        sizes = update.get_shape()
        if DYNAMIC_INDEX in sizes:
            shape = parts.insert(onnx.ShapeOp, [op.update], TensorType(i64, (rank,)))
        else:
            shape = parts.ints(sizes)
        indices = parts.insert(
            onnx.ExpandOp, [where, shape], TensorType(i64, update.get_shape())
        )
        result = parts.insert(
            onnx.ScatterElementsOp,
            [op.past_cache, indices, op.update],
            op.present_cache.type,
            {"axis": si64(axis)},
        )
        parts.finish([result])

    def _steps(
        self, op: onnx.TensorScatterOp, rewriter: PatternRewriter, axis: int
    ) -> SSAValue:
        """0, 1, ..., S-1 for the update's dynamic length S along `axis`."""
        arith_ = IndexArith(rewriter, op, self.state.folder)
        folder = self.state.folder
        start, delta = (
            folder.get(
                rewriter,
                op,
                DenseIntOrFPElementsAttr.from_list(TensorType(i64, []), [v]),
            )
            for v in (0, 1)
        )
        init = empty(
            rewriter,
            TensorType(i64, [DYNAMIC_INDEX]),
            [arith_.dim(op.update, axis)],
            arith_,
        )
        steps = hip.RangeOp.make(context_of(op), start=start, delta=delta, out=init)
        rewriter.insert(steps)
        return steps.results[0]
