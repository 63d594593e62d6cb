"""TopK -> `hip.topk` in tensor mode.

`K` is the size of both results along `axis`: a constant, a shape value
`onnx-fold-shapes` made into a `tensor.from_elements` (an `index` value known
only at run time), or data read back with `hip.readback`. `axis` is put in `[0, rank)`; `largest=0` is the `smallest` unit
attribute. `sorted=0` leaves the order to the implementation, so the sorted
order serves it too.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, i64
from xdsl.ir import Attribute, SSAValue
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


class ConvertTopK(OnnxPattern[onnx.TopKOp]):
    """`onnx.TopK` -> `hip.topk` writing a values and an i64 indices init."""

    def convert(self, op: onnx.TopKOp, rewriter: PatternRewriter) -> None:
        x_type = ranked(op.X, "the input")
        shape = x_type.get_shape()
        if not shape:
            raise Unsupported("the input must have rank >= 1")
        axis = op.get_int("axis")
        if not -len(shape) <= axis < len(shape):
            raise Unsupported(f"axis {axis} is out of range for rank {len(shape)}")
        axis %= len(shape)
        values_type = ranked(op.Values, "the values result")
        indices_type = ranked(op.Indices, "the indices result")
        if values_type.get_element_type() != x_type.get_element_type():
            raise Unsupported(
                f"the values result type {values_type} differs from the input's "
                f"element type {x_type.get_element_type()}"
            )
        if indices_type.get_element_type() != i64:
            raise Unsupported(f"the indices result type {indices_type} is not of i64")
        for result in (values_type, indices_type):
            if len(result.get_shape()) != len(shape):
                raise Unsupported(f"the result type {result} has the wrong rank")
        k = self._k(op, rewriter, shape[axis])
        arith = IndexArith(rewriter, op, self.state.folder)
        sizes: dict[int, SSAValue] = {}
        inits = [
            self._init(rewriter, arith, op.X, result, axis, k, sizes)
            for result in (values_type, indices_type)
        ]
        new = hip.TopKOp.make(
            context_of(op),
            src=op.X,
            values=inits[0],
            indices=inits[1],
            axis=axis,
            largest=bool(op.get_int("largest")),
        )
        rewriter.replace(op, new)

    def _k(self, op: onnx.TopKOp, rewriter: PatternRewriter, size: int) -> Index:
        """K: folded, or read back at run time (it sizes the results)."""
        known = shape_operand(self, op, rewriter, op.K, "K")
        if len(known) != 1:
            raise Unsupported(f"K must have one element, got {len(known)}")
        (k,) = known
        if isinstance(k, int) and (k < 0 or (size != DYNAMIC_INDEX and k > size)):
            raise Unsupported(
                f"K = {k} is out of range for the {size} elements along the axis"
            )
        return k

    @staticmethod
    def _init(
        rewriter: PatternRewriter,
        arith: IndexArith,
        x: SSAValue,
        result: TensorType[Attribute],
        axis: int,
        k: Index,
        sizes: dict[int, SSAValue],
    ) -> SSAValue:
        """`tensor.empty` of `result`: `k` along `axis`, `x`'s dims elsewhere
        (each dim's size made once, in `sizes`)."""
        shape = result.get_shape()
        if isinstance(k, int) and shape[axis] not in (DYNAMIC_INDEX, k):
            raise Unsupported(
                f"the result type {result} does not have K = {k} elements along "
                f"axis {axis}"
            )
        for d, size in enumerate(shape):
            if size == DYNAMIC_INDEX and d not in sizes:
                sizes[d] = arith.value(k if d == axis else arith.dim(x, d))
        dynamic = [sizes[d] for d, size in enumerate(shape) if size == DYNAMIC_INDEX]
        empty = tensor.EmptyOp(dynamic, result)
        rewriter.insert(empty)
        return empty.tensor
