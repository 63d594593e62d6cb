"""Reductions, normalizations, the rest of the softmax family and Dropout ->
hip DPS ops in tensor mode.

- `ReduceX` -> `hip.miopen.reduce_x` / `hip.reduce_x` with `axes` normalized
  (sorted, unique, in `[0, rank)`) and `keepdims` only when set. `axes` comes
  from the attribute (older opsets) or from the input, which must be a
  constant; no axes reduce everything, or, under `noop_with_empty_axes`,
  nothing: a reduction over zero axes (|x| for L1), or the input itself for
  sum, mean, max, min and prod. `ReduceLogSum` -> `hip.miopen.reduce_sum`
  then `hip.miopen.log`.
- `ArgMax`/`ArgMin` -> `hip.argmax`/`hip.argmin` into an i64 init.
- `LayerNormalization` -> `hip.miopen.layer_norm`: one init for `Y`, and one
  each for the mean and the inverse standard deviation when either output is
  used; `RMSNormalization` -> `hip.rms_norm`.
- `LogSoftmax`, `Hardmax` -> `hip.miopen.log_softmax`, `hip.hardmax`, the
  axis in `[0, rank)`.
- `Dropout` in inference mode is its input; its mask, when used, a
  `hip.fill` of true.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.utils.hints import isa

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.compute import element_type_check
from xhip.transforms.onnx_to_hip.support import (
    DimSource,
    OnnxPattern,
    Unsupported,
    build_init,
    check_refines,
    constant_ints,
    context_of,
    ranked,
    recast,
)


def _init(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    result: SSAValue | TensorType[Attribute],
    sources: Sequence[DimSource | None],
) -> SSAValue:
    result_type = (
        result if isinstance(result, TensorType) else ranked(result, "the result")
    )
    return build_init(rewriter, pattern.state, op, result_type, sources)


def _exact(
    declared: TensorType[Attribute], shape: Sequence[int], axes: list[int], keep: bool
) -> TensorType[Attribute]:
    """`declared` with the dims the axes decide made static: a result typed
    before its axes were known (`xhip.compile` specializes on them) has `?`
    where the reduction gives 1 or the input's static dim."""
    rank = range(len(shape))
    exact = (
        [1 if d in axes else shape[d] for d in rank]
        if keep
        else [shape[d] for d in rank if d not in axes]
    )
    dims = declared.get_shape()
    if len(exact) != len(dims):
        return declared
    refined = [e if s == DYNAMIC_INDEX else s for s, e in zip(dims, exact, strict=True)]
    return TensorType(declared.get_element_type(), refined)


def _axis(axis: int, rank: int) -> int:
    """`axis` in `[0, rank)`."""
    if not -rank <= axis < rank:
        raise Unsupported(f"axis {axis} is out of range for rank {rank}")
    return axis % rank


def _same_element_type(value: SSAValue, result: SSAValue) -> None:
    got = ranked(value, "the input").get_element_type()
    want = ranked(result, "the result").get_element_type()
    if got != want:
        raise Unsupported(
            f"input type {value.type} differs from the result's element type {want}"
        )


def _reduce_axes(
    op: onnx.OnnxOp, data: SSAValue, axes_input: SSAValue | None
) -> list[int] | None:
    """The axes to reduce, normalized; None for "no axes given"."""
    rank = len(ranked(data, "the input").get_shape())
    if axes_input is not None:
        axes = constant_ints(axes_input)
        if axes is None:
            raise Unsupported(
                "the axes input must be a constant (an initializer or "
                "onnx.Constant): the reduced dims decide the result's shape"
            )
    else:
        axes = op.get_ints("axes")
    if not axes:
        return None
    normalized = sorted({_axis(a, max(rank, 1)) for a in axes})
    if len(normalized) != len(axes):
        raise Unsupported(f"axes {axes} name a dim twice")
    return normalized


_ONE_IS_ITSELF = ("sum", "mean", "max", "min", "prod")
"""The reductions whose value over one element is that element, bit for bit
(the others apply |x|, x * x, ... to it)."""


def _convert_reduce(
    pattern: OnnxPattern[Any],
    op: onnx.OnnxOp,
    rewriter: PatternRewriter,
    hip_type: type[hip.ReduceOp],
    then: type[hip.UnaryElementwiseOp] | None = None,
) -> None:
    """`op` as `hip_type` over its axes, then `then` of that if given.

    Under `noop_with_empty_axes` with no axes, ONNX Runtime and onnx's
    reference reduce nothing but still apply the element function (ReduceL1
    gives |x|): that is `hip_type` over zero axes, which every runtime
    computes as over one dim of size 1, as ONNX Runtime does; a kind of
    `_ONE_IS_ITSELF` leaves the input as it is.
    """
    data, *rest = op.operands
    axes_input = rest[0] if rest else None
    result = op.results[0]
    _same_element_type(data, result)
    if then is not None:
        element_type_check(then, [data], result)
    shape = ranked(data, "the input").get_shape()
    axes = _reduce_axes(op, data, axes_input)
    noop = axes is None and bool(op.get_int("noop_with_empty_axes"))
    if noop:  # the result is the input, maybe with dims inference knew
        check_refines(data, result, "a no-op reduction's input")
    if axes is None:
        axes = [] if noop else list(range(len(shape)))
    keepdims = bool(op.get_int("keepdims"))
    if keepdims:
        sources: list[DimSource | None] = [
            None if d in axes else (data, d) for d in range(len(shape))
        ]
    else:
        sources = [(data, d) for d in range(len(shape)) if d not in axes]
    declared = ranked(result, "the result")
    exact = _exact(declared, shape, axes, keepdims)
    value, last = data, None
    if not (noop and hip_type.kind() in _ONE_IS_ITSELF):
        init = _init(pattern, op, rewriter, exact, sources)
        last = hip_type.make(
            context_of(op), src=data, out=init, axes=axes, keepdims=keepdims
        )
        value = last.res[0]
    if then is not None:
        if last is not None:
            rewriter.insert(last)
        init = _init(pattern, op, rewriter, exact, sources)
        last = then.make(context_of(op), value, out=init)
    if last is None:
        cast = recast(data, result, "a no-op reduction's input")
        if cast is None:
            rewriter.replace(op, [], [data])
        else:
            rewriter.replace(op, cast)
    elif exact != declared:
        rewriter.insert(last)
        rewriter.replace(op, tensor.CastOp(last.res[0], declared))
    else:
        rewriter.replace(op, last)


class ConvertReduceMean(OnnxPattern[onnx.ReduceMeanOp]):
    def convert(self, op: onnx.ReduceMeanOp, rewriter: PatternRewriter) -> None:
        _convert_reduce(self, op, rewriter, hip.ReduceMeanOp)


class ConvertReduceSum(OnnxPattern[onnx.ReduceSumOp]):
    def convert(self, op: onnx.ReduceSumOp, rewriter: PatternRewriter) -> None:
        _convert_reduce(self, op, rewriter, hip.ReduceSumOp)


class ConvertReduceMax(OnnxPattern[onnx.ReduceMaxOp]):
    def convert(self, op: onnx.ReduceMaxOp, rewriter: PatternRewriter) -> None:
        _convert_reduce(self, op, rewriter, hip.ReduceMaxOp)


class ConvertReduceMin(OnnxPattern[onnx.ReduceMinOp]):
    def convert(self, op: onnx.ReduceMinOp, rewriter: PatternRewriter) -> None:
        _convert_reduce(self, op, rewriter, hip.ReduceMinOp)


class ConvertReduceProd(OnnxPattern[onnx.ReduceProdOp]):
    def convert(self, op: onnx.ReduceProdOp, rewriter: PatternRewriter) -> None:
        _convert_reduce(self, op, rewriter, hip.ReduceProdOp)


class ConvertReduceL1(OnnxPattern[onnx.ReduceL1Op]):
    def convert(self, op: onnx.ReduceL1Op, rewriter: PatternRewriter) -> None:
        _convert_reduce(self, op, rewriter, hip.ReduceL1Op)


class ConvertReduceL2(OnnxPattern[onnx.ReduceL2Op]):
    def convert(self, op: onnx.ReduceL2Op, rewriter: PatternRewriter) -> None:
        _convert_reduce(self, op, rewriter, hip.ReduceL2Op)


class ConvertReduceLogSumExp(OnnxPattern[onnx.ReduceLogSumExpOp]):
    def convert(self, op: onnx.ReduceLogSumExpOp, rewriter: PatternRewriter) -> None:
        _convert_reduce(self, op, rewriter, hip.ReduceLogSumExpOp)


class ConvertReduceSumSquare(OnnxPattern[onnx.ReduceSumSquareOp]):
    def convert(self, op: onnx.ReduceSumSquareOp, rewriter: PatternRewriter) -> None:
        _convert_reduce(self, op, rewriter, hip.ReduceSumSquareOp)


class ConvertReduceLogSum(OnnxPattern[onnx.ReduceLogSumOp]):
    """`onnx.ReduceLogSum` -> `hip.miopen.reduce_sum`, then `hip.miopen.log`
    (float types: log takes no integers)."""

    def convert(self, op: onnx.ReduceLogSumOp, rewriter: PatternRewriter) -> None:
        _convert_reduce(self, op, rewriter, hip.ReduceSumOp, then=hip.LogOp)


def _convert_arg(
    pattern: OnnxPattern[Any],
    op: onnx.ArgMaxOp | onnx.ArgMinOp,
    rewriter: PatternRewriter,
    hip_type: type[hip.ArgReduceOp],
) -> None:
    shape = ranked(op.data, "the input").get_shape()
    if not shape:
        raise Unsupported("the input must have rank >= 1")
    if ranked(op.reduced, "the result").get_element_type() != i64:
        raise Unsupported(f"the result type {op.reduced.type} is not of i64")
    axis = _axis(op.get_int("axis"), len(shape))
    keepdims = bool(op.get_int("keepdims"))
    if keepdims:
        sources: list[DimSource | None] = [
            None if d == axis else (op.data, d) for d in range(len(shape))
        ]
    else:
        sources = [(op.data, d) for d in range(len(shape)) if d != axis]
    init = _init(pattern, op, rewriter, op.reduced, sources)
    new = hip_type.make(
        context_of(op),
        src=op.data,
        out=init,
        axis=axis,
        keepdims=keepdims,
        select_last_index=bool(op.get_int("select_last_index")),
    )
    rewriter.replace(op, new)


class ConvertArgMax(OnnxPattern[onnx.ArgMaxOp]):
    def convert(self, op: onnx.ArgMaxOp, rewriter: PatternRewriter) -> None:
        _convert_arg(self, op, rewriter, hip.ArgMaxOp)


class ConvertArgMin(OnnxPattern[onnx.ArgMinOp]):
    def convert(self, op: onnx.ArgMinOp, rewriter: PatternRewriter) -> None:
        _convert_arg(self, op, rewriter, hip.ArgMinOp)


def _norm_attributes(
    op: onnx.LayerNormalizationOp | onnx.RMSNormalizationOp, rank: int
) -> tuple[int, float]:
    """The normalization's axis (in `[0, rank)`) and epsilon."""
    if rank == 0:
        raise Unsupported("the input must have rank >= 1")
    return _axis(op.get_int("axis"), rank), op.get_float("epsilon")


class ConvertLayerNormalization(OnnxPattern[onnx.LayerNormalizationOp]):
    """`onnx.LayerNormalization` -> `hip.miopen.layer_norm`; the statistics are
    written only when a `Mean` or `InvStdDev` result is used (both then, as
    the op has both or neither)."""

    def convert(self, op: onnx.LayerNormalizationOp, rewriter: PatternRewriter) -> None:
        _same_element_type(op.X, op.Y)
        shape = ranked(op.X, "the input").get_shape()
        axis, epsilon = _norm_attributes(op, len(shape))
        same: list[DimSource | None] = [(op.X, d) for d in range(len(shape))]
        outs = [_init(self, op, rewriter, op.Y, same)]
        stats = [r for r in (op.Mean, op.InvStdDev) if r is not None]
        if stats:
            stat_sources: list[DimSource | None] = [
                (op.X, d) if d < axis else None for d in range(len(shape))
            ]
            for which in (op.Mean, op.InvStdDev):
                like = which if which is not None else stats[0]
                outs.append(_init(self, op, rewriter, like, stat_sources))
        stat_outs = outs[1:] if len(outs) == 3 else [None, None]
        new = hip.LayerNormOp.make(
            context_of(op),
            x=op.X,
            scale=op.Scale,
            bias=op.B,
            out=outs[0],
            mean=stat_outs[0],
            inv_std=stat_outs[1],
            axis=axis,
            epsilon=epsilon,
        )
        rewriter.insert(new)
        values = [new.res[0]]
        if op.Mean is not None:
            values.append(new.res[1])
        if op.InvStdDev is not None:
            values.append(new.res[2])
        rewriter.replace(op, [], values)


class ConvertRMSNormalization(OnnxPattern[onnx.RMSNormalizationOp]):
    """`onnx.RMSNormalization` (opset 23) -> `hip.rms_norm`."""

    def convert(self, op: onnx.RMSNormalizationOp, rewriter: PatternRewriter) -> None:
        _same_element_type(op.X, op.Y)
        shape = ranked(op.X, "the input").get_shape()
        axis, epsilon = _norm_attributes(op, len(shape))
        same: list[DimSource | None] = [(op.X, d) for d in range(len(shape))]
        init = _init(self, op, rewriter, op.Y, same)
        new = hip.RmsNormOp.make(
            context_of(op),
            x=op.X,
            scale=op.scale,
            out=init,
            axis=axis,
            epsilon=epsilon,
        )
        rewriter.replace(op, new)


def _convert_along_axis(
    pattern: OnnxPattern[Any],
    op: onnx.LogSoftmaxOp | onnx.HardmaxOp,
    rewriter: PatternRewriter,
    hip_type: type[hip.LogSoftmaxOp | hip.HardmaxOp],
) -> None:
    _same_element_type(op.input, op.output)
    shape = ranked(op.input, "the input").get_shape()
    if not shape:
        raise Unsupported("the input must have rank >= 1")
    axis = _axis(op.get_int("axis"), len(shape))
    sources: list[DimSource | None] = [(op.input, d) for d in range(len(shape))]
    init = _init(pattern, op, rewriter, op.output, sources)
    new = hip_type.make(context_of(op), src=op.input, out=init, axis=axis)
    rewriter.replace(op, new)


class ConvertLogSoftmax(OnnxPattern[onnx.LogSoftmaxOp]):
    def convert(self, op: onnx.LogSoftmaxOp, rewriter: PatternRewriter) -> None:
        _convert_along_axis(self, op, rewriter, hip.LogSoftmaxOp)


class ConvertHardmax(OnnxPattern[onnx.HardmaxOp]):
    def convert(self, op: onnx.HardmaxOp, rewriter: PatternRewriter) -> None:
        _convert_along_axis(self, op, rewriter, hip.HardmaxOp)


class ConvertDropout(OnnxPattern[onnx.DropoutOp]):
    """`onnx.Dropout` in inference mode: `output` is `data`, `mask` all true.

    Training mode drops at random, which no deterministic run reproduces:
    `training_mode` must be absent or a constant false, unless `ratio` is a
    constant 0 (nothing is dropped then).
    """

    def convert(self, op: onnx.DropoutOp, rewriter: PatternRewriter) -> None:
        if op.training_mode is not None:
            training = constant_ints(op.training_mode)
            if training is None:
                raise Unsupported(
                    "training_mode must be a constant: xhip runs Dropout in "
                    "inference mode only"
                )
            if any(training) and not self._zero_ratio(op):
                raise Unsupported(
                    "training_mode is true and ratio is not a constant 0: random "
                    "dropout is not supported (inference only)"
                )
        cast = recast(op.data, op.output, "the input")
        if cast is not None:
            rewriter.insert(cast)
        values: list[SSAValue] = [op.data if cast is None else cast.dest]
        if op.mask is not None:
            mask = ranked(op.mask, "the mask")
            shape = ranked(op.data, "the input").get_shape()
            if len(mask.get_shape()) != len(shape):
                raise Unsupported(f"the mask type {mask} has the wrong rank")
            sources: list[DimSource | None] = [(op.data, d) for d in range(len(shape))]
            init = _init(self, op, rewriter, op.mask, sources)
            fill = hip.FillOp.make(context_of(op), out=init, value=1)
            rewriter.insert(fill)
            values.append(fill.res[0])
        rewriter.replace(op, [], values)

    @staticmethod
    def _zero_ratio(op: onnx.DropoutOp) -> bool:
        if op.ratio is None:
            return False
        owner = op.ratio.owner
        if not isinstance(owner, onnx.ConstantOp | arith.ConstantOp):
            return False
        value = owner.value
        if not isa(value, DenseIntOrFPElementsAttr[AnyFloat]):
            return False
        return all(v == 0.0 for v in value.get_values())
