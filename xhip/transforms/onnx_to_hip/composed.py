"""Ops made of other ops: each becomes the onnx ops of its definition
(`compose.Parts`), converted by their own patterns, or a few hip ops.

- `LpNormalization`: `x / ReduceL{p}(x, [axis])`, a zero norm divided as 1
  (ONNX Runtime gives 0 for an all-zero line, not NaN).
- `MeanVarianceNormalization`: `d = x - ReduceMean(x, axes)`,
  `d / (Sqrt(ReduceMean(d * d, axes)) + 1e-9)`: the spec's
  `E[X^2] - E[X]^2` as the mean of squared deviations, which does not cancel.
  A line of zero variance gives 0 (onnx's reference too; ONNX Runtime's
  kernel, which adds no epsilon, NaN).
- `GlobalLpPool`: `ReduceL1`/`ReduceL2` over the spatial dims, any other `p`
  `Pow(ReduceSum(Pow(Abs(x), p)), 1 / p)`.
- `HannWindow`, `HammingWindow`, `BlackmanWindow`: onnx's function bodies,
  `a0 - a1 cos(t) + a2 cos(2t)`, `t = n * (2 pi / N)` with `N` the size
  (periodic) or the size less one, `n` a `Range` over the size (a constant,
  or read back: `docs/shape-values.md`), computed in float64 then cast, as
  ONNX Runtime's kernel does: the float32 body is a few ulps off it, which a
  Floor or an integer output type turns into a whole step.
- `ReverseSequence`: a `GatherElements` along the time axis at
  `t < len[b] ? len[b] - 1 - t : t`, made from `t` (a constant, or a
  `Range` to a time dim known only at run time) and the lengths reshaped to
  the batch axis, expanded to the input's shape.
- `EyeLike`: a `hip.fill` of ones, kept on the `k`th diagonal by two
  `hip.trilu` (upper, then lower, at `k`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    TensorType,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import IndexArith
from xhip.transforms.onnx_to_hip.compose import Parts, PatternFactory, si64
from xhip.transforms.onnx_to_hip.compute import (
    ConvertCast,
    ConvertPow,
    elementwise_pattern,
)
from xhip.transforms.onnx_to_hip.gather import ConvertGatherElements
from xhip.transforms.onnx_to_hip.reduce import (
    ConvertReduceL1,
    ConvertReduceL2,
    ConvertReduceMean,
    ConvertReduceSum,
)
from xhip.transforms.onnx_to_hip.reshape import ConvertReshape
from xhip.transforms.onnx_to_hip.run_time_dims import dims_of, index_tensor
from xhip.transforms.onnx_to_hip.shapes import ConvertRange
from xhip.transforms.onnx_to_hip.slice import ConvertExpand
from xhip.transforms.onnx_to_hip.support import (
    DimSource,
    OnnxPattern,
    Unsupported,
    build_init,
    check_refines,
    context_of,
    ranked,
)

PATTERNS: dict[type[onnx.OnnxOp], PatternFactory] = {
    **{
        t: elementwise_pattern(t)
        for t in (
            onnx.AddOp,
            onnx.SubOp,
            onnx.MulOp,
            onnx.DivOp,
            onnx.SqrtOp,
            onnx.AbsOp,
            onnx.CosOp,
            onnx.EqualOp,
            onnx.WhereOp,
        )
    },
    onnx.LessOp: elementwise_pattern(onnx.LessOp),
    onnx.ReshapeOp: ConvertReshape,
    onnx.ExpandOp: ConvertExpand,
    onnx.GatherElementsOp: ConvertGatherElements,
    onnx.PowOp: ConvertPow,
    onnx.CastOp: ConvertCast,
    onnx.RangeOp: ConvertRange,
    onnx.ReduceL1Op: ConvertReduceL1,
    onnx.ReduceL2Op: ConvertReduceL2,
    onnx.ReduceMeanOp: ConvertReduceMean,
    onnx.ReduceSumOp: ConvertReduceSum,
}
"""The ops these are made of, and their patterns."""


def _float_type(value: SSAValue, what: str) -> TensorType[Attribute]:
    tensor_type = ranked(value, what)
    if not isinstance(tensor_type.get_element_type(), AnyFloat):
        raise Unsupported(f"{what} must be a float tensor, got {value.type}")
    return tensor_type


def _same_type(op: onnx.OnnxOp) -> TensorType[Attribute]:
    """The input's type, which the result has too (or a refinement of it,
    which `Parts.finish` recasts to)."""
    x, y = op.operands[0], op.results[0]
    tensor_type = _float_type(x, "the input")
    check_refines(x, y, "the input")
    return tensor_type


def _axes(axes: Sequence[int], rank: int) -> list[int]:
    """`axes` in `[0, rank)`, sorted; each named once."""
    if any(not -rank <= a < rank for a in axes):
        raise Unsupported(f"axes {list(axes)} are out of range for rank {rank}")
    normalized = sorted({a % rank for a in axes})
    if len(normalized) != len(axes):
        raise Unsupported(f"axes {list(axes)} name a dim twice")
    return normalized


def _reduced(
    parts: Parts,
    reduce: type[onnx.ReduceBase],
    x: SSAValue,
    axes: Sequence[int],
) -> SSAValue:
    """`reduce` of `x` over `axes`, the dims kept (as size 1)."""
    tensor_type = ranked(x, "the input")
    shape = [1 if d in axes else n for d, n in enumerate(tensor_type.get_shape())]
    return parts.insert(
        reduce,
        [x, []],
        TensorType(tensor_type.get_element_type(), shape),
        {"axes": ArrayAttr([si64(a) for a in axes]), "keepdims": si64(1)},
    )


def _scalar(parts: Parts, value: float, element: Attribute) -> SSAValue:
    assert isinstance(element, AnyFloat)
    dtype = {16: np.float16, 32: np.float32, 64: np.float64}[element.bitwidth]
    return parts.constant(np.asarray(value, dtype), element)


class ConvertLpNormalization(OnnxPattern[onnx.LpNormalizationOp]):
    def convert(self, op: onnx.LpNormalizationOp, rewriter: PatternRewriter) -> None:
        x = _same_type(op)
        rank = len(x.get_shape())
        if rank == 0:
            raise Unsupported("the input must have rank >= 1")
        p = op.get_int("p")
        if p not in (1, 2):
            raise Unsupported(f"p must be 1 or 2, got {p}")
        (axis,) = _axes([op.get_int("axis")], rank)
        parts = Parts(self, op, rewriter, PATTERNS)
        reduce = onnx.ReduceL1Op if p == 1 else onnx.ReduceL2Op
        norm = _reduced(parts, reduce, op.input, [axis])
        element = x.get_element_type()
        zero, one = (_scalar(parts, v, element) for v in (0.0, 1.0))
        bools = TensorType(i1, ranked(norm, "the norm").get_shape())
        is_zero = parts.insert(onnx.EqualOp, [norm, zero], bools)
        safe = parts.insert(onnx.WhereOp, [is_zero, one, norm], norm.type)
        parts.finish([parts.insert(onnx.DivOp, [op.input, safe], x)])


class ConvertMeanVarianceNormalization(OnnxPattern[onnx.MeanVarianceNormalizationOp]):
    def convert(
        self, op: onnx.MeanVarianceNormalizationOp, rewriter: PatternRewriter
    ) -> None:
        x = _same_type(op)
        given = op.get_ints("axes")
        axes = _axes(given if given is not None else [0, 2, 3], len(x.get_shape()))
        parts = Parts(self, op, rewriter, PATTERNS)
        mean = _reduced(parts, onnx.ReduceMeanOp, op.X, axes)
        deviation = parts.insert(onnx.SubOp, [op.X, mean], x)
        square = parts.insert(onnx.MulOp, [deviation, deviation], x)
        variance = _reduced(parts, onnx.ReduceMeanOp, square, axes)
        std = parts.insert(onnx.SqrtOp, [variance], variance.type)
        epsilon = _scalar(parts, 1e-9, x.get_element_type())
        denominator = parts.insert(onnx.AddOp, [std, epsilon], variance.type)
        parts.finish([parts.insert(onnx.DivOp, [deviation, denominator], x)])


class ConvertGlobalLpPool(OnnxPattern[onnx.GlobalLpPoolOp]):
    def convert(self, op: onnx.GlobalLpPoolOp, rewriter: PatternRewriter) -> None:
        x = _float_type(op.X, "the input")
        rank = len(x.get_shape())
        if rank < 3:
            raise Unsupported("the input must have rank >= 3 (N, C, spatial dims)")
        p = op.get_int("p")
        if p < 1:
            raise Unsupported(f"p must be at least 1, got {p}")
        axes = list(range(2, rank))
        parts = Parts(self, op, rewriter, PATTERNS)
        if p in (1, 2):
            reduce = onnx.ReduceL1Op if p == 1 else onnx.ReduceL2Op
            parts.finish([_reduced(parts, reduce, op.X, axes)])
            return
        element = x.get_element_type()
        magnitude = parts.insert(onnx.AbsOp, [op.X], x)
        power = parts.insert(
            onnx.PowOp, [magnitude, _scalar(parts, float(p), element)], x
        )
        total = _reduced(parts, onnx.ReduceSumOp, power, axes)
        root = _scalar(parts, 1.0 / p, element)
        parts.finish([parts.insert(onnx.PowOp, [total, root], total.type)])


_HAMMING_A0 = np.float32(25) / np.float32(46)
_BLACKMAN_A2 = np.float32(0.16) / np.float32(2)
WINDOW_COEFFICIENTS: dict[type[onnx.WindowOp], tuple[float, float, float]] = {
    onnx.HannWindowOp: (0.5, 0.5, 0.0),
    onnx.HammingWindowOp: (float(_HAMMING_A0), float(1 - _HAMMING_A0), 0.0),
    onnx.BlackmanWindowOp: (float(0.5 - _BLACKMAN_A2), 0.5, float(_BLACKMAN_A2)),
}
"""`(a0, a1, a2)` of `a0 - a1 cos(t) + a2 cos(2t)`: float32 values, as onnx's
function bodies and ONNX Runtime's kernel state them (`25.f / 46.f`,
`.5f - .16f / 2.f`), taken exactly into the float64 arithmetic."""

WINDOW_TAU = 2 * np.pi
"""2 pi in float64, like the rest of ONNX Runtime's window arithmetic."""


class ConvertHannWindow(OnnxPattern[onnx.HannWindowOp]):
    def convert(self, op: onnx.HannWindowOp, rewriter: PatternRewriter) -> None:
        _convert_window(self, op, rewriter)


class ConvertHammingWindow(OnnxPattern[onnx.HammingWindowOp]):
    def convert(self, op: onnx.HammingWindowOp, rewriter: PatternRewriter) -> None:
        _convert_window(self, op, rewriter)


class ConvertBlackmanWindow(OnnxPattern[onnx.BlackmanWindowOp]):
    def convert(self, op: onnx.BlackmanWindowOp, rewriter: PatternRewriter) -> None:
        _convert_window(self, op, rewriter)


def _convert_window(
    pattern: OnnxPattern[Any], op: onnx.WindowOp, rewriter: PatternRewriter
) -> None:
    size_type = ranked(op.size, "size")
    size_element = size_type.get_element_type()
    if size_type.get_shape() or size_element not in (i32, i64):
        raise Unsupported(f"size must be a 0-D int32 or int64, got {op.size.type}")
    result = ranked(op.output, "the result")
    if len(result.get_shape()) != 1:
        raise Unsupported(f"the result type {result} must have rank 1")
    a0, a1, a2 = WINDOW_COEFFICIENTS[type(op)]
    parts = Parts(pattern, op, rewriter, PATTERNS)
    shape = result.get_shape()
    vector, scalar = TensorType(f64, shape), TensorType(f64, [])
    to_f64: dict[str, Attribute] = {"to": f64}
    dtype = np.int32 if size_element == i32 else np.int64
    start, delta = (parts.constant(np.asarray(v, dtype), size_element) for v in (0, 1))
    points = TensorType(size_element, shape)
    n = parts.insert(onnx.RangeOp, [start, op.size, delta], points)
    n = parts.insert(onnx.CastOp, [n], vector, to_f64)
    size = parts.insert(onnx.CastOp, [op.size], scalar, to_f64)
    if not op.get_int("periodic"):
        size = parts.insert(onnx.SubOp, [size, _scalar(parts, 1.0, f64)], scalar)
    tau = _scalar(parts, WINDOW_TAU, f64)
    increment = parts.insert(onnx.DivOp, [tau, size], scalar)
    angle = parts.insert(onnx.MulOp, [n, increment], vector)
    cos = parts.insert(onnx.CosOp, [angle], vector)
    term = parts.insert(onnx.MulOp, [_scalar(parts, a1, f64), cos], vector)
    window = parts.insert(onnx.SubOp, [_scalar(parts, a0, f64), term], vector)
    if a2:
        double = parts.insert(onnx.MulOp, [angle, _scalar(parts, 2.0, f64)], vector)
        cos2 = parts.insert(onnx.CosOp, [double], vector)
        term2 = parts.insert(onnx.MulOp, [_scalar(parts, a2, f64), cos2], vector)
        window = parts.insert(onnx.AddOp, [window, term2], vector)
    if result.get_element_type() != f64:
        to = {"to": result.get_element_type()}
        window = parts.insert(onnx.CastOp, [window], result, to)
    parts.finish([window])


class ConvertReverseSequence(OnnxPattern[onnx.ReverseSequenceOp]):
    def convert(self, op: onnx.ReverseSequenceOp, rewriter: PatternRewriter) -> None:
        x = ranked(op.input, "the input")
        shape = x.get_shape()
        check_refines(op.input, op.Y, "the input")  # finish recasts
        lens = ranked(op.sequence_lens, "sequence_lens")
        if lens.get_element_type() != i64 or len(lens.get_shape()) != 1:
            raise Unsupported(f"sequence_lens must be 1-D int64, got {lens}")
        rank = len(shape)
        if rank < 2:
            raise Unsupported("the input must have rank >= 2")
        (time,) = _axes([op.get_int("time_axis")], rank)
        (batch,) = _axes([op.get_int("batch_axis")], rank)
        if {time, batch} != {0, 1}:
            raise Unsupported("time_axis and batch_axis must be 0 and 1, one each")
        parts = Parts(self, op, rewriter, PATTERNS)
        dims = dims_of(rewriter, parts, op.input)
        at_time = [shape[time] if d == time else 1 for d in range(rank)]
        if shape[time] == DYNAMIC_INDEX:  # 0, 1, ..., T - 1 by `hip.range`
            zero, one = (parts.constant(np.asarray(v, np.int64), i64) for v in (0, 1))
            limit = index_tensor(parts, rewriter, [dims[time]], i64, scalar=True)
            flat = TensorType(i64, [DYNAMIC_INDEX])
            steps = parts.insert(onnx.RangeOp, [zero, limit, one], flat)
            at = parts.ints([-1 if d == time else 1 for d in range(rank)])
            t = parts.insert(onnx.ReshapeOp, [steps, at], TensorType(i64, at_time))
        else:
            steps = np.arange(shape[time], dtype=np.int64).reshape(at_time)
            t = parts.constant(steps, i64)
        at_batch = [-1 if d == batch else 1 for d in range(rank)]
        batch_shape = [lens.get_shape()[0] if d == batch else 1 for d in range(rank)]
        small = TensorType(i64, batch_shape)
        length = parts.insert(
            onnx.ReshapeOp, [op.sequence_lens, parts.ints(at_batch)], small
        )
        grid = [at_time[d] if d == time else batch_shape[d] for d in range(rank)]
        both = TensorType(i64, grid)
        inside = parts.insert(onnx.LessOp, [t, length], TensorType(i1, grid))
        one = parts.constant(np.asarray(1, np.int64), i64)
        last = parts.insert(onnx.SubOp, [length, one], small)
        back = parts.insert(onnx.SubOp, [last, t], both)
        index = parts.insert(onnx.WhereOp, [inside, back, t], both)
        full = TensorType(i64, shape)
        size = index_tensor(parts, rewriter, dims, i64)
        index = parts.insert(onnx.ExpandOp, [index, size], full)
        axis: dict[str, Attribute] = {"axis": si64(time)}
        y = parts.insert(onnx.GatherElementsOp, [op.input, index], x, axis)
        parts.finish([y])


class ConvertEyeLike(OnnxPattern[onnx.EyeLikeOp]):
    def convert(self, op: onnx.EyeLikeOp, rewriter: PatternRewriter) -> None:
        x = ranked(op.input, "the input")
        result = ranked(op.output, "the result")
        if len(x.get_shape()) != 2:
            raise Unsupported(f"the input must have rank 2, got {op.input.type}")
        k = op.get_int("k")
        sources: list[DimSource | None] = [(op.input, 0), (op.input, 1)]
        ctx = context_of(op)
        arith_ = IndexArith(rewriter, op, self.state.folder)
        k_value = arith_.value(k)
        init = build_init(rewriter, self.state, op, result, sources)
        ones = hip.FillOp.make(ctx, out=init, value=1)
        rewriter.insert(ones)
        value = ones.res[0]
        for upper in (True, False):
            init = build_init(rewriter, self.state, op, result, sources)
            trilu = hip.TriluOp.make(ctx, src=value, out=init, k=k_value, upper=upper)
            rewriter.insert(trilu)
            value = trilu.res[0]
        rewriter.replace(op, [], [value])
