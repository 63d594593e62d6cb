"""NonZero, Compress, Unique, NonMaxSuppression: outputs whose size is data.

Each counts on the device first (`hip.count_nonzero`, `hip.unique_count`,
`hip.nms_count` into a 0-D i64 tensor), reads the count back with
`hip.readback` (`shape_operand`), sizes the result's `tensor.empty` with it
and writes the result with a second op (docs/shape-values.md, "Data-sized
outputs"). Compress is NonZero of its condition (its first entries, as
many as the axis has: ONNX Runtime ignores the rest), then a `hip.gather`
along the axis. Without an axis, Compress and Unique work on the input flattened
to 1-D (a `tensor.collapse_shape`, a view).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index, IndexArith
from xhip.transforms.onnx_to_hip.shapes import shape_operand
from xhip.transforms.onnx_to_hip.support import (
    OnnxPattern,
    Unsupported,
    context_of,
    ranked,
)


def _empty(
    rewriter: PatternRewriter,
    arith: IndexArith,
    element: Attribute,
    sizes: Sequence[Index],
) -> SSAValue:
    """`tensor.empty` of these sizes (a static type where they are numbers)."""
    shape = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
    dynamic = [arith.value(s) for s in sizes if not isinstance(s, int)]
    empty = tensor.EmptyOp(dynamic, TensorType(element, shape))
    rewriter.insert(empty)
    return empty.tensor


def _run(rewriter: PatternRewriter, op: hip.HipDPSOp) -> list[SSAValue]:
    rewriter.insert(op)
    return list(op.res)


def _count(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    arith: IndexArith,
    make: Callable[[SSAValue], hip.HipComputeOp],
) -> Index:
    """The count `make` writes into a 0-D i64 init, read back."""
    (count,) = _run(rewriter, make(_empty(rewriter, arith, i64, [])))
    (n,) = shape_operand(pattern, op, rewriter, count, "the count")
    return n


def _as(rewriter: PatternRewriter, value: SSAValue, result: SSAValue) -> SSAValue:
    """`value`, cast to `result`'s type where that differs (a static dim the
    model declares)."""
    if value.type == result.type:
        return value
    cast = tensor.CastOp(value, ranked(result, "the result"))
    rewriter.insert(cast)
    return cast.dest


def _flatten(rewriter: PatternRewriter, value: SSAValue) -> SSAValue:
    """`value` as 1-D (a view)."""
    t = ranked(value, "the input")
    shape = t.get_shape()
    if len(shape) == 1:
        return value
    if not shape:
        raise Unsupported("a 0-D input has no axis")
    size = DYNAMIC_INDEX if DYNAMIC_INDEX in shape else math.prod(shape)
    group = ArrayAttr([IntegerAttr(d, i64) for d in range(len(shape))])
    new = tensor.CollapseShapeOp.create(
        operands=[value],
        result_types=[TensorType(t.get_element_type(), [size])],
        properties={"reassociation": ArrayAttr([group])},
    )
    rewriter.insert(new)
    return new.results[0]


def _axis(value: SSAValue, axis: int) -> int:
    rank = len(ranked(value, "the input").get_shape())
    if not -rank <= axis < rank:
        raise Unsupported(f"axis {axis} is out of range for rank {rank}")
    return axis % rank


def _sizes(arith: IndexArith, value: SSAValue, axis: int, n: Index) -> list[Index]:
    """`value`'s dims with `n` along `axis`."""
    rank = len(ranked(value, "the input").get_shape())
    return [n if d == axis else arith.dim(value, d) for d in range(rank)]


class ConvertNonZero(OnnxPattern[onnx.NonZeroOp]):
    """`onnx.NonZero` -> count, readback, `hip.nonzero` into `[rank, n]`."""

    def convert(self, op: onnx.NonZeroOp, rewriter: PatternRewriter) -> None:
        ctx, x = context_of(op), op.X
        arith = IndexArith(rewriter, op, self.state.folder)
        n = _count(
            self,
            op,
            rewriter,
            arith,
            lambda c: hip.CountNonZeroOp.make(ctx, src=x, count=c),
        )
        rank = max(len(ranked(x, "the input").get_shape()), 1)
        out = _empty(rewriter, arith, i64, [rank, n])
        (y,) = _run(rewriter, hip.NonZeroOp.make(ctx, src=x, out=out))
        rewriter.replace(op, [], [_as(rewriter, y, op.Y)])


def nonzero_positions(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    arith: IndexArith,
    condition: SSAValue,
) -> tuple[SSAValue, Index]:
    """The positions of the true elements of a 1-D `condition` (i64 `[n]`)."""
    ctx = context_of(op)
    n = _count(
        pattern,
        op,
        rewriter,
        arith,
        lambda c: hip.CountNonZeroOp.make(ctx, src=condition, count=c),
    )
    out = _empty(rewriter, arith, i64, [1, n])
    (rows,) = _run(rewriter, hip.NonZeroOp.make(ctx, src=condition, out=out))
    shape = [n if isinstance(n, int) else DYNAMIC_INDEX]
    collapse = tensor.CollapseShapeOp.create(
        operands=[rows],
        result_types=[TensorType(i64, shape)],
        properties={
            "reassociation": ArrayAttr(
                [ArrayAttr([IntegerAttr(0, i64), IntegerAttr(1, i64)])]
            )
        },
    )
    rewriter.insert(collapse)
    return collapse.results[0], n


def _first(
    rewriter: PatternRewriter,
    arith: IndexArith,
    op: Operation,
    condition: SSAValue,
    size: Index,
) -> SSAValue:
    """The first `size` entries of a 1-D `condition` at most: ONNX Runtime
    ignores a condition's entries past the axis (a `hip.slice`, where its
    length is not known to be at most `size`)."""
    length = arith.dim(condition, 0)
    kept = arith.min(length, size)
    if kept == length:
        return condition
    element = ranked(condition, "the condition").get_element_type()
    out = _empty(rewriter, arith, element, [kept])
    start = arith.value(0)
    slice_ = hip.SliceOp.make(
        context_of(op), src=condition, out=out, starts=[start], steps=[1]
    )
    (first,) = _run(rewriter, slice_)
    return first


class ConvertCompress(OnnxPattern[onnx.CompressOp]):
    """`onnx.Compress` -> the positions of the true conditions (NonZero),
    then `hip.gather` of those slices along the axis."""

    def convert(self, op: onnx.CompressOp, rewriter: PatternRewriter) -> None:
        condition = op.condition
        if len(ranked(condition, "the condition").get_shape()) != 1:
            raise Unsupported("the condition must be 1-D")
        x = op.input
        if op.axis is None:
            x, axis = _flatten(rewriter, x), 0
        else:
            axis = _axis(x, op.axis.value.data)
        arith = IndexArith(rewriter, op, self.state.folder)
        condition = _first(rewriter, arith, op, condition, arith.dim(x, axis))
        positions, n = nonzero_positions(self, op, rewriter, arith, condition)
        element = ranked(x, "the input").get_element_type()
        out = _empty(rewriter, arith, element, _sizes(arith, x, axis, n))
        gather = hip.GatherOp.make(
            context_of(op), data=x, indices=positions, out=out, axis=axis
        )
        (y,) = _run(rewriter, gather)
        rewriter.replace(op, [], [_as(rewriter, y, op.output)])


class ConvertUnique(OnnxPattern[onnx.UniqueOp]):
    """`onnx.Unique` -> `hip.unique_count`, readback, `hip.unique` into the
    four results (the ones the model does not use are erased later)."""

    def convert(self, op: onnx.UniqueOp, rewriter: PatternRewriter) -> None:
        ctx, x = context_of(op), op.X
        if op.axis is None:
            x, axis = _flatten(rewriter, x), 0
        else:
            axis = _axis(x, op.axis.value.data)
        sorted_ = op.get_int("sorted") != 0
        arith = IndexArith(rewriter, op, self.state.folder)
        n = _count(
            self,
            op,
            rewriter,
            arith,
            lambda c: hip.UniqueCountOp.make(ctx, src=x, count=c, axis=axis),
        )
        element = ranked(x, "the input").get_element_type()
        inits = {
            "y": _empty(rewriter, arith, element, _sizes(arith, x, axis, n)),
            "indices": _empty(rewriter, arith, i64, [n]),
            "inverse": _empty(rewriter, arith, i64, [arith.dim(x, axis)]),
            "counts": _empty(rewriter, arith, i64, [n]),
        }
        unique = hip.UniqueOp.make(ctx, src=x, **inits, axis=axis, sorted=sorted_)
        y, indices, inverse, counts = _run(rewriter, unique)
        onnx_results = (op.Y, op.indices, op.inverse_indices, op.counts)
        values = [
            _as(rewriter, value, result)
            for value, result in zip((y, indices, inverse, counts), onnx_results)
            if result is not None
        ]
        rewriter.replace(op, [], values)


class ConvertNonMaxSuppression(OnnxPattern[onnx.NonMaxSuppressionOp]):
    """`onnx.NonMaxSuppression` -> `hip.nms_count`, readback, `hip.nms`."""

    def convert(self, op: onnx.NonMaxSuppressionOp, rewriter: PatternRewriter) -> None:
        ctx = context_of(op)
        for value, what in ((op.boxes, "boxes"), (op.scores, "scores")):
            if len(ranked(value, what).get_shape()) != 3:
                raise Unsupported(f"the {what} must be 3-D")
        max_out = op.max_output_boxes_per_class
        iou, score = op.iou_threshold, op.score_threshold
        for value, role in ((max_out, "max_out"), (iou, "iou"), (score, "score")):
            if value is not None and math.prod(ranked(value, role).get_shape()) != 1:
                raise Unsupported(f"the {role} operand must have one element")
        center = op.get_int("center_point_box") != 0
        arith = IndexArith(rewriter, op, self.state.folder)
        boxes, scores = op.boxes, op.scores
        n = _count(
            self,
            op,
            rewriter,
            arith,
            lambda c: hip.NmsCountOp.make(
                ctx,
                boxes=boxes,
                scores=scores,
                max_out=max_out,
                iou=iou,
                score=score,
                count=c,
                center_point_box=center,
            ),
        )
        out = _empty(rewriter, arith, i64, [n, 3])
        nms = hip.NmsOp.make(
            ctx,
            boxes=boxes,
            scores=scores,
            max_out=max_out,
            iou=iou,
            score=score,
            out=out,
            center_point_box=center,
        )
        (y,) = _run(rewriter, nms)
        rewriter.replace(op, [], [_as(rewriter, y, op.selected_indices)])
