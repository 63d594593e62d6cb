"""Gather, GatherElements and GatherND -> `hip.gather`, `hip.gather_elements`,
`hip.gather_nd` in tensor mode.

The indices (int32 or int64, negative ones counted from the end) are run-time
data: the hip op reads them, so nothing here needs them at compile time; the
result's shape comes from the operands' shapes alone. Each dynamic result dim
is a `tensor.dim` of the operand dim it comes from (`build_init`):

- Gather: `data[:axis] + indices + data[axis+1:]`;
- GatherElements: the indices' shape;
- GatherND: `indices[:-1] + data[batch_dims + k:]`, k the static last dim
  of the indices.

The axis is normalized to `[0, rank)`. Gather on shape values (`Gather(Shape(x),
1)`) is folded before this pass runs (`onnx-fold-shapes`); what is left here is
Gather on tensors, an embedding lookup for instance.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerType,
)
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.support import (
    DimSource,
    OnnxPattern,
    Unsupported,
    build_init,
    context_of,
    ranked,
)

INDEX_TYPES = (IntegerType(32), IntegerType(64))
"""The element types ONNX allows for the indices (GatherND: int64 only; int32
is taken there too)."""


def _check_types(op: onnx.OnnxOp, data: SSAValue, indices: SSAValue) -> int:
    """The data's rank, after checking the operands' and the result's types."""
    data_type = ranked(data, "the data")
    index_type = ranked(indices, "the indices")
    result = ranked(op.results[0], "the result")
    if index_type.get_element_type() not in INDEX_TYPES:
        raise Unsupported(
            f"indices of element type {index_type.get_element_type()}; int32 or "
            "int64 are needed"
        )
    if data_type.get_element_type() != result.get_element_type():
        raise Unsupported(
            f"data type {data.type} differs from the result's element type "
            f"{result.get_element_type()}"
        )
    return data_type.get_num_dims()


def _axis(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise Unsupported(f"axis {axis} is out of range for rank {rank}")
    return axis % rank


def _replace(
    pattern: OnnxPattern[Any],
    op: onnx.OnnxOp,
    rewriter: PatternRewriter,
    sources: list[DimSource | None],
    build: Callable[[SSAValue, SSAValue], hip.HipDPSOp],
) -> None:
    """Replace `op` by `build(ctx, init)`."""
    result = ranked(op.results[0], "the result")
    if result.get_num_dims() != len(sources):
        raise Unsupported(
            f"the result has rank {result.get_num_dims()}, the operands give "
            f"rank {len(sources)}"
        )
    ctx = context_of(op)
    init = build_init(rewriter, pattern.state, op, result, sources)
    rewriter.replace(op, build(ctx, init))


class ConvertGather(OnnxPattern[onnx.GatherOp]):
    """`onnx.Gather` -> `hip.gather {axis}`."""

    def convert(self, op: onnx.GatherOp, rewriter: PatternRewriter) -> None:
        rank = _check_types(op, op.data, op.indices)
        axis = _axis(op.get_int("axis"), rank)
        q = ranked(op.indices, "the indices").get_num_dims()
        sources: list[DimSource | None] = [
            *((op.data, d) for d in range(axis)),
            *((op.indices, d) for d in range(q)),
            *((op.data, d) for d in range(axis + 1, rank)),
        ]
        _replace(
            self,
            op,
            rewriter,
            sources,
            lambda ctx, out: hip.GatherOp.make(
                ctx, data=op.data, indices=op.indices, out=out, axis=axis
            ),
        )


class ConvertGatherElements(OnnxPattern[onnx.GatherElementsOp]):
    """`onnx.GatherElements` -> `hip.gather_elements {axis}`."""

    def convert(self, op: onnx.GatherElementsOp, rewriter: PatternRewriter) -> None:
        rank = _check_types(op, op.data, op.indices)
        axis = _axis(op.get_int("axis"), rank)
        q = ranked(op.indices, "the indices").get_num_dims()
        if q != rank:
            raise Unsupported(f"indices of rank {q}, data of rank {rank}")
        sources: list[DimSource | None] = [(op.indices, d) for d in range(q)]
        _replace(
            self,
            op,
            rewriter,
            sources,
            lambda ctx, out: hip.GatherElementsOp.make(
                ctx, data=op.data, indices=op.indices, out=out, axis=axis
            ),
        )


class ConvertGatherND(OnnxPattern[onnx.GatherNDOp]):
    """`onnx.GatherND` -> `hip.gather_nd {batch_dims}` (only when not 0)."""

    def convert(self, op: onnx.GatherNDOp, rewriter: PatternRewriter) -> None:
        rank = _check_types(op, op.data, op.indices)
        shape = ranked(op.indices, "the indices").get_shape()
        batch = op.get_int("batch_dims")
        if not shape:
            raise Unsupported("0-D indices; GatherND needs rank 1 or more")
        k = shape[-1]
        if k == DYNAMIC_INDEX:
            raise Unsupported(
                "the last dim of the indices (how many dims each index tuple "
                "has) must be static: it decides the result's rank"
            )
        if not 0 <= batch < min(rank, len(shape)):
            raise Unsupported(
                f"batch_dims {batch} must be in [0, {min(rank, len(shape))})"
            )
        if batch + k > rank:
            raise Unsupported(
                f"index tuples of {k} dims after {batch} batch dims exceed the "
                f"data's rank {rank}"
            )
        sources: list[DimSource | None] = [
            *((op.indices, d) for d in range(len(shape) - 1)),
            *((op.data, d) for d in range(batch + k, rank)),
        ]
        _replace(
            self,
            op,
            rewriter,
            sources,
            lambda ctx, out: hip.GatherNDOp.make(
                ctx, data=op.data, indices=op.indices, out=out, batch_dims=batch
            ),
        )
