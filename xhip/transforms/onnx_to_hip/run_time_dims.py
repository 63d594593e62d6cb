"""Sizes known only at run time as the shape values composed ops feed their
parts: a `tensor.from_elements` of index casts, which `index_values` reads
back as index arithmetic (a Range's limit, a Reshape's shape) and which a data
use turns into a tensor, as `onnx-fold-shapes` does for a Shape."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.transforms.index_arith import Index, IndexArith
from xhip.transforms.onnx_to_hip.compose import Parts
from xhip.transforms.onnx_to_hip.support import ranked


def index_tensor(
    parts: Parts,
    rewriter: PatternRewriter,
    values: Sequence[Index],
    element: IntegerType,
    scalar: bool = False,
) -> SSAValue:
    """`values` as a 1-D (or, `scalar`, 0-D) tensor of `element`: a constant
    where all are numbers, else a shape value computed before the op."""
    shape: list[int] = [] if scalar else [len(values)]
    numbers = [v for v in values if isinstance(v, int)]
    if len(numbers) == len(values):
        return parts.constant(np.asarray(numbers, np.int64).reshape(shape), element)
    arith_ = IndexArith(rewriter, parts.op, parts.pattern.state.folder)
    elements: list[SSAValue] = []
    for v in values:
        cast = arith.IndexCastOp(arith_.value(v), element)
        rewriter.insert(cast)
        elements.append(cast.result)
    new = tensor.FromElementsOp(*elements, result_type=TensorType(element, shape))  # pyright: ignore[reportCallIssue]
    rewriter.insert(new)
    return new.result


def dims_of(rewriter: PatternRewriter, parts: Parts, value: SSAValue) -> list[Index]:
    """Each dim of `value`: its static size or a `tensor.dim`."""
    arith_ = IndexArith(rewriter, parts.op, parts.pattern.state.folder)
    rank = ranked(value, "the input").get_num_dims()
    return [arith_.dim(value, d) for d in range(rank)]
