"""Conv, pooling and BatchNormalization -> hip DPS ops in tensor mode.

- `Conv` -> `hip.miopen.conv`, `ins` (x, w[, bias]), `outs` (y, workspace):
  the workspace is a 1-D init of `C * prod(kernel) * prod(output spatial)`
  elements (the im2col matrix of one image; 0 for a 1x1 kernel with unit
  strides and no pads), so the memory planner owns it like any other buffer.
- `MaxPool`, `AveragePool` -> `hip.miopen.max_pool` (with an i64 init for
  `Indices` when that output is used), `hip.miopen.average_pool`;
  `GlobalMaxPool`, `GlobalAveragePool` -> the same ops without a kernel shape.
- `BatchNormalization` (inference) -> elementwise hip ops: the per-channel
  `s = scale / sqrt(var + epsilon)` and `b = B - mean * s` on the C-element
  vectors, then `y = x * s + b` with `s` and `b` viewed as (C, 1, ..., 1).

`auto_pad` becomes explicit `pads`; a dynamic spatial size (a named dim) is
fine, the output size being index arithmetic of its `tensor.dim` (ONNX's
formula; `ceil_mode` as a `ceildiv` and a `min`), except under SAME_UPPER or
SAME_LOWER with a stride above 1, where the pads themselves depend on the
size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.support import (
    DimSource,
    OnnxPattern,
    Unsupported,
    broadcast_sources,
    build_init,
    context_of,
    ranked,
    static_size,
)


@dataclass(frozen=True)
class Window:
    """A sliding window's static attributes, `pads` as begins then ends."""

    kernel: tuple[int, ...]
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads: tuple[int, ...]


def _ints(op: onnx.OnnxOp, name: str, count: int, default: int) -> tuple[int, ...]:
    values = op.get_ints(name)
    if values is None:
        return (default,) * count
    if len(values) != count:
        raise Unsupported(f"{name} {values} must have {count} entries")
    return tuple(values)


def _same_pads(
    size: int, kernel: int, stride: int, dilation: int, lower: bool
) -> tuple[int, int]:
    """SAME_UPPER/SAME_LOWER: the output is ceil(size / stride), the odd pad
    at the end (upper) or at the begin (lower)."""
    out = -(-size // stride)
    total = max(0, (out - 1) * stride + (kernel - 1) * dilation + 1 - size)
    small, big = total // 2, total - total // 2
    return (big, small) if lower else (small, big)


def window_of(
    op: onnx.ConvOp
    | onnx.MaxPoolOp
    | onnx.AveragePoolOp
    | onnx.LpPoolOp
    | onnx.ConvIntegerOp
    | onnx.QLinearConvOp,
    x_shape: Sequence[int],
    kernel: Sequence[int],
) -> Window:
    """The explicit window of an ONNX op, `auto_pad` resolved."""
    rank = len(x_shape) - 2
    kernel = tuple(kernel)
    if len(kernel) != rank or any(k < 1 for k in kernel):
        raise Unsupported(f"kernel shape {list(kernel)} must be {rank} positive sizes")
    strides = _ints(op, "strides", rank, 1)
    dilations = _ints(op, "dilations", rank, 1)
    if any(s < 1 for s in strides) or any(d < 1 for d in dilations):
        raise Unsupported(
            f"strides {list(strides)} and dilations {list(dilations)} must be positive"
        )
    auto_pad = op.get_auto_pad()
    if auto_pad == "NOTSET":
        pads = _ints(op, "pads", 2 * rank, 0)
        if any(p < 0 for p in pads):
            raise Unsupported(f"negative pads {list(pads)}")
    elif auto_pad == "VALID":
        pads = (0,) * (2 * rank)
    elif auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        begins: list[int] = []
        ends: list[int] = []
        for d in range(rank):
            size = x_shape[2 + d]
            if size == DYNAMIC_INDEX and strides[d] != 1:
                raise Unsupported(
                    f"auto_pad {auto_pad} with stride {strides[d]} along the "
                    f"dynamic spatial dim {2 + d}: the pads depend on its size"
                )
            # With unit stride the total pad, (k - 1) * dilation, is the same
            # for every size: any size gives it.
            b, e = _same_pads(
                1 if size == DYNAMIC_INDEX else size,
                kernel[d],
                strides[d],
                dilations[d],
                auto_pad == "SAME_LOWER",
            )
            begins.append(b)
            ends.append(e)
        pads = (*begins, *ends)
    else:
        raise Unsupported(f"unknown auto_pad {auto_pad!r}")
    return Window(kernel, strides, dilations, pads)


def _index(
    pattern: OnnxPattern[Any], op: Operation, rewriter: PatternRewriter, n: int
) -> SSAValue:
    return pattern.state.folder.index(rewriter, op, n)


def _insert(rewriter: PatternRewriter, new: Operation) -> SSAValue:
    rewriter.insert(new)
    return new.results[0]


def _size(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    value: SSAValue,
    d: int,
) -> SSAValue:
    """`value`'s size in dim `d`: a constant if static, else a `tensor.dim`."""
    size = ranked(value, "an operand").get_shape()[d]
    if size != DYNAMIC_INDEX:
        return _index(pattern, op, rewriter, size)
    dim = tensor.DimOp(value, _index(pattern, op, rewriter, d))
    dim.result.name_hint = "dim"
    return _insert(rewriter, dim)


def output_size(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    x: SSAValue,
    d: int,
    window: Window,
    ceil_mode: bool = False,
) -> SSAValue:
    """The output size along spatial dim `d` as index arithmetic of the input's:
    `(in + pb + pe - dil * (k - 1) - 1) floordiv s + 1`, or under `ceil_mode`
    `min(ceildiv(in + pb + pe - dil * (k - 1) - 1, s) + 1, ceildiv(in + pb, s))`
    (the last window starts inside the input or its begin pad)."""
    rank = len(window.kernel)
    size = _size(pattern, op, rewriter, x, 2 + d)
    pb, pe = window.pads[d], window.pads[rank + d]
    stride = _index(pattern, op, rewriter, window.strides[d])
    one = _index(pattern, op, rewriter, 1)
    shift = pb + pe - window.dilations[d] * (window.kernel[d] - 1) - 1
    span = size
    if shift:
        span = _insert(
            rewriter, arith.AddiOp(size, _index(pattern, op, rewriter, shift))
        )
    if not ceil_mode:
        quotient = span
        if window.strides[d] != 1:
            quotient = _insert(rewriter, arith.FloorDivSIOp(span, stride))
        return _insert(rewriter, arith.AddiOp(quotient, one))
    quotient = _insert(rewriter, arith.CeilDivSIOp(span, stride))
    count = _insert(rewriter, arith.AddiOp(quotient, one))
    start = size
    if pb:
        start = _insert(rewriter, arith.AddiOp(size, _index(pattern, op, rewriter, pb)))
    starts = _insert(rewriter, arith.CeilDivSIOp(start, stride))
    return _insert(rewriter, arith.MinSIOp(count, starts))


def _windowed_init(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    x: SSAValue,
    result_type: TensorType[Attribute],
    channels: DimSource,
    window: Window | None,
    ceil_mode: bool = False,
) -> SSAValue:
    """A `tensor.empty` of `result_type` (N, channels, spatial...): N from `x`,
    the spatial sizes from the window (or 1: a global pool)."""
    shape = result_type.get_shape()
    sizes: list[SSAValue] = []
    for d, size in enumerate(shape):
        if size != DYNAMIC_INDEX:
            continue
        if d == 0:
            sizes.append(_size(pattern, op, rewriter, x, 0))
        elif d == 1:
            sizes.append(_size(pattern, op, rewriter, *channels))
        elif window is None:
            raise Unsupported(f"a global pool's spatial dim {d} is 1, not dynamic")
        else:
            sizes.append(
                output_size(pattern, op, rewriter, x, d - 2, window, ceil_mode)
            )
    return _insert(rewriter, tensor.EmptyOp(sizes, result_type))


windowed_init = _windowed_init
"""Public for `onnx_to_hip/quantize.py` (ConvInteger, QLinearConv)."""


def _check_result(
    result_type: TensorType[Attribute], want: Sequence[int], what: str
) -> None:
    got = result_type.get_shape()
    if len(got) != len(want) or any(
        a != DYNAMIC_INDEX and b != DYNAMIC_INDEX and a != b for a, b in zip(got, want)
    ):
        raise Unsupported(
            f"result type {result_type} does not match the {what} shape "
            f"{'x'.join('?' if s < 0 else str(s) for s in want)}"
        )


def _float_input(
    x: SSAValue, result: SSAValue, min_rank: int = 3, integers: bool = False
) -> tuple[list[int], TensorType[Attribute]]:
    """The input's shape and the result type; integers only where `integers`
    (MaxPool reads int8 and uint8 too)."""
    x_type = ranked(x, "the input")
    result_type = ranked(result, "the result")
    element = x_type.get_element_type()
    if not isinstance(element, AnyFloat) and not (
        integers and isinstance(element, IntegerType)
    ):
        raise Unsupported(f"input type {x.type}: a float element type is needed")
    if result_type.get_element_type() != x_type.get_element_type():
        raise Unsupported(f"result type {result.type} differs from the input's")
    shape = list(x_type.get_shape())
    if len(shape) < min_rank:
        raise Unsupported(
            f"input type {x.type}: rank >= {min_rank} (N, C, spatial...) is needed"
        )
    return shape, result_type


class ConvertConv(OnnxPattern[onnx.ConvOp]):
    """`onnx.Conv` -> `hip.miopen.conv` writing `Y` and an im2col workspace."""

    def convert(self, op: onnx.ConvOp, rewriter: PatternRewriter) -> None:
        x_shape, result_type = _float_input(op.X, op.Y)
        w_type = ranked(op.W, "the weight")
        w_shape = list(w_type.get_shape())
        if w_type.get_element_type() != result_type.get_element_type():
            raise Unsupported(f"weight type {op.W.type} differs from the input's")
        if len(w_shape) != len(x_shape):
            raise Unsupported(
                f"weight type {op.W.type} must have the input's rank {len(x_shape)}"
            )
        kernel = op.get_ints("kernel_shape") or w_shape[2:]
        if DYNAMIC_INDEX in kernel or DYNAMIC_INDEX in w_shape[:2]:
            raise Unsupported(f"weight type {op.W.type}: static sizes are needed")
        if list(kernel) != w_shape[2:]:
            raise Unsupported(
                f"kernel_shape {list(kernel)} differs from the weight's {w_shape[2:]}"
            )
        group = op.get_int("group")
        if group < 1 or (
            x_shape[1] != DYNAMIC_INDEX and x_shape[1] != w_shape[1] * group
        ):
            raise Unsupported(
                f"{x_shape[1]} input channels do not match the weight's {w_shape[1]} "
                f"per group times group {group}"
            )
        if w_shape[0] % group:
            raise Unsupported(
                f"{w_shape[0]} output channels do not split into {group} groups"
            )
        window = window_of(op, x_shape, kernel)
        ctx = context_of(op)
        if op.B is not None:
            b_type = ranked(op.B, "the bias")
            if b_type.get_element_type() != result_type.get_element_type():
                raise Unsupported(f"bias type {op.B.type} differs from the input's")
        out_init = _windowed_init(
            self, op, rewriter, op.X, result_type, (op.W, 0), window
        )
        workspace = self._workspace(op, rewriter, x_shape, window, out_init)
        new = hip.ConvOp.make(
            ctx,
            x=op.X,
            w=op.W,
            bias=op.B,
            out=out_init,
            workspace=workspace,
            strides=window.strides,
            dilations=window.dilations,
            pads=window.pads,
            group=group,
        )
        rewriter.replace(op, new, [new.res[0]])

    def _workspace(
        self,
        op: onnx.ConvOp,
        rewriter: PatternRewriter,
        x_shape: Sequence[int],
        window: Window,
        out_init: SSAValue,
    ) -> SSAValue:
        element = ranked(op.X, "the input").get_element_type()
        direct = (
            all(k == 1 for k in window.kernel)
            and all(s == 1 for s in window.strides)
            and not any(window.pads)
        )
        if direct:
            return _insert(rewriter, tensor.EmptyOp([], TensorType(element, [0])))
        out_shape = ranked(out_init, "the init").get_shape()
        static = x_shape[1] if x_shape[1] != DYNAMIC_INDEX else 1
        for k in window.kernel:
            static *= k
        factors: list[SSAValue] = []
        if x_shape[1] == DYNAMIC_INDEX:
            factors.append(_size(self, op, rewriter, op.X, 1))
        for d in range(2, len(out_shape)):
            if out_shape[d] == DYNAMIC_INDEX:
                factors.append(_size(self, op, rewriter, out_init, d))
            else:
                static *= out_shape[d]
        if not factors:
            return _insert(rewriter, tensor.EmptyOp([], TensorType(element, [static])))
        total = factors[0]
        for factor in factors[1:]:
            total = _insert(rewriter, arith.MuliOp(total, factor))
        if static != 1:
            total = _insert(
                rewriter, arith.MuliOp(total, _index(self, op, rewriter, static))
            )
        return _insert(
            rewriter, tensor.EmptyOp([total], TensorType(element, [DYNAMIC_INDEX]))
        )


def _pool_kernel(op: onnx.MaxPoolOp | onnx.AveragePoolOp) -> list[int]:
    kernel = op.get_ints("kernel_shape")
    if kernel is None:
        raise Unsupported("kernel_shape is required")
    return kernel


class ConvertMaxPool(OnnxPattern[onnx.MaxPoolOp]):
    """`onnx.MaxPool` -> `hip.miopen.max_pool`, `Indices` an i64 init if used."""

    def convert(self, op: onnx.MaxPoolOp, rewriter: PatternRewriter) -> None:
        x_shape, result_type = _float_input(op.X, op.Y, integers=True)
        window = window_of(op, x_shape, _pool_kernel(op))
        ceil_mode = bool(op.get_int("ceil_mode"))
        init = _windowed_init(
            self, op, rewriter, op.X, result_type, (op.X, 1), window, ceil_mode
        )
        outs = [init]
        indices = op.Indices
        if indices is not None and indices.uses:
            index_type = ranked(indices, "the indices")
            if index_type.get_element_type() != i64:
                raise Unsupported(f"indices type {indices.type}: i64 is needed")
            outs.append(
                _windowed_init(
                    self, op, rewriter, op.X, index_type, (op.X, 1), window, ceil_mode
                )
            )
        new = hip.MaxPoolOp.make(
            context_of(op),
            x=op.X,
            out=outs[0],
            indices=outs[1] if len(outs) == 2 else None,
            strides=window.strides,
            dilations=window.dilations,
            pads=window.pads,
            kernel_shape=window.kernel,
            ceil_mode=ceil_mode,
            storage_order=bool(op.get_int("storage_order")),
        )
        results: list[SSAValue | None] = [new.res[0]]
        if indices is not None:
            results.append(new.res[1] if len(outs) == 2 else None)
        rewriter.replace(op, new, results)


class ConvertAveragePool(OnnxPattern[onnx.AveragePoolOp]):
    """`onnx.AveragePool` -> `hip.miopen.average_pool`."""

    def convert(self, op: onnx.AveragePoolOp, rewriter: PatternRewriter) -> None:
        x_shape, result_type = _float_input(op.X, op.Y)
        window = window_of(op, x_shape, _pool_kernel(op))
        ceil_mode = bool(op.get_int("ceil_mode"))
        include = bool(op.get_int("count_include_pad"))
        init = _windowed_init(
            self, op, rewriter, op.X, result_type, (op.X, 1), window, ceil_mode
        )
        new = hip.AveragePoolOp.make(
            context_of(op),
            x=op.X,
            out=init,
            strides=window.strides,
            dilations=window.dilations,
            pads=window.pads,
            kernel_shape=window.kernel,
            ceil_mode=ceil_mode,
            count_include_pad=include,
        )
        rewriter.replace(op, new)


def _global_pool(
    pattern: OnnxPattern[Any],
    op: onnx.GlobalAveragePoolOp | onnx.GlobalMaxPoolOp,
    rewriter: PatternRewriter,
    hip_type: type[hip.MaxPoolOp] | type[hip.AveragePoolOp],
) -> None:
    x_shape, result_type = _float_input(op.X, op.Y, integers=hip_type is hip.MaxPoolOp)
    rank = len(x_shape) - 2
    _check_result(result_type, [*x_shape[:2], *([1] * rank)], "global pool's")
    init = _windowed_init(pattern, op, rewriter, op.X, result_type, (op.X, 1), None)
    new = hip_type.make(
        context_of(op),
        x=op.X,
        out=init,
        strides=[1] * rank,
        dilations=[1] * rank,
        pads=[0] * (2 * rank),
    )
    rewriter.replace(op, new)


class ConvertGlobalAveragePool(OnnxPattern[onnx.GlobalAveragePoolOp]):
    """`onnx.GlobalAveragePool` -> `hip.miopen.average_pool` over all of H, W."""

    def convert(self, op: onnx.GlobalAveragePoolOp, rewriter: PatternRewriter) -> None:
        _global_pool(self, op, rewriter, hip.AveragePoolOp)


class ConvertGlobalMaxPool(OnnxPattern[onnx.GlobalMaxPoolOp]):
    """`onnx.GlobalMaxPool` -> `hip.miopen.max_pool` over all of H, W."""

    def convert(self, op: onnx.GlobalMaxPoolOp, rewriter: PatternRewriter) -> None:
        _global_pool(self, op, rewriter, hip.MaxPoolOp)


class ConvertBatchNormalization(OnnxPattern[onnx.BatchNormalizationOp]):
    """`onnx.BatchNormalization` -> elementwise hip ops (and two reductions in
    training mode), all at run time: onnx's cases feed the statistics as
    graph inputs, and the per-channel part is C elements.

    Inference: `s = scale / sqrt(var + epsilon)`, `b = B - mean * s` on the
    C-element vectors, then `y = x * s + b` with `s` and `b` expanded to
    (C, 1, ..., 1) views. Training mode (opset 14+): the batch's mean and
    (population) variance over every dim but C by `hip.miopen.reduce_mean`,
    `y = (x - mean) * scale / sqrt(var + epsilon) + B`, and the running
    statistics `input * momentum + batch * (1 - momentum)` when used.
    """

    def convert(self, op: onnx.BatchNormalizationOp, rewriter: PatternRewriter) -> None:
        training = bool(op.get_int("training_mode"))
        extra = (op.running_mean, op.running_var, op.saved_mean, op.saved_var)
        if any(r is not None and r.uses for r in extra[2 if training else 0 :]):
            raise Unsupported(
                "the training outputs (running or saved statistics) are used"
            )
        x_shape, result_type = _float_input(op.X, op.Y, min_rank=2)
        element = result_type.get_element_type()
        vectors = [op.scale, op.B, op.input_mean, op.input_var]
        for value in vectors:
            shape = ranked(value, "a statistics operand").get_shape()
            if (
                len(shape) != 1
                or ranked(value, "an operand").get_element_type() != element
                or (
                    shape[0] != DYNAMIC_INDEX
                    and x_shape[1] != DYNAMIC_INDEX
                    and shape[0] != x_shape[1]
                )
            ):
                raise Unsupported(
                    f"operand type {value.type}: a vector of the {x_shape[1]} "
                    f"channels of element type {element} is needed"
                )
        assert isinstance(element, AnyFloat)
        self.ctx = context_of(op)
        self.op = op
        self.rewriter = rewriter
        self.element = element
        scale, bias, mean, var = vectors
        rank = len(x_shape)
        eps = self._scalar(op.get_float("epsilon"))
        if training:
            results = self._training(op, rank, eps)
            rewriter.replace(op, [], results)
            return
        root = self._unary(hip.SqrtOp, self._binary(hip.AddOp, var, eps, var))
        factor = self._binary(hip.DivOp, scale, root, scale)
        product = self._binary(hip.MulOp, mean, factor, mean)
        offset = self._binary(hip.SubOp, bias, product, bias)
        factor_v = self._channel_view(op, rewriter, factor, rank)
        offset_v = self._channel_view(op, rewriter, offset, rank)
        y = self._binary(hip.MulOp, op.X, factor_v, op.X)
        out = self._binary(hip.AddOp, y, offset_v, op.X)
        results: list[SSAValue | None] = [out, *(None for r in extra if r is not None)]
        rewriter.replace(op, [], results)

    def _training(
        self, op: onnx.BatchNormalizationOp, rank: int, eps: SSAValue
    ) -> list[SSAValue | None]:
        axes = [d for d in range(rank) if d != 1]
        mean = self._reduce_mean(op.X, axes)
        centered = self._binary(hip.SubOp, op.X, mean, op.X)
        square = self._binary(hip.MulOp, centered, centered, op.X)
        var = self._reduce_mean(square, axes)
        root = self._unary(hip.SqrtOp, self._binary(hip.AddOp, var, eps, var))
        scale_v = self._channel_view(op, self.rewriter, op.scale, rank)
        factor = self._binary(hip.DivOp, scale_v, root, root)
        y = self._binary(hip.MulOp, centered, factor, op.X)
        out = self._binary(
            hip.AddOp, y, self._channel_view(op, self.rewriter, op.B, rank), op.X
        )
        results: list[SSAValue | None] = [out]
        momentum = op.get_float("momentum")
        for stat, given, result in (
            (mean, op.input_mean, op.running_mean),
            (var, op.input_var, op.running_var),
        ):
            if result is None:
                continue
            if not result.uses:
                results.append(None)
                continue
            flat = self._flat(stat, rank)
            kept = self._binary(hip.MulOp, given, self._scalar(momentum), given)
            new = self._binary(hip.MulOp, flat, self._scalar(1.0 - momentum), flat)
            results.append(self._binary(hip.AddOp, kept, new, given))
        return results

    def _scalar(self, value: float) -> SSAValue:
        """A one-element constant of the element type."""
        scalar_type = TensorType(self.element, [1])
        return self.state.folder.get(
            self.rewriter,
            self.op,
            DenseIntOrFPElementsAttr.from_list(scalar_type, [value]),
        )

    def _binary(
        self,
        hip_type: type[hip.ElementwiseOp],
        a: SSAValue,
        b: SSAValue,
        like: SSAValue,
    ) -> SSAValue:
        """`hip_type(a, b)` into an init of the broadcast shape of `a` and `b`,
        whose rank is `like`'s."""
        shapes = [(v, ranked(v, "an operand").get_shape()) for v in (a, b)]
        rank = len(ranked(like, "an operand").get_shape())
        sources = broadcast_sources(shapes, rank)
        shape = [static_size(src) for src in sources]
        init = build_init(
            self.rewriter, self.state, self.op, TensorType(self.element, shape), sources
        )
        new = hip_type.make(self.ctx, a, b, out=init)
        self.rewriter.insert(new)
        return new.res[0]

    def _unary(self, hip_type: type[hip.ElementwiseOp], a: SSAValue) -> SSAValue:
        a_type = ranked(a, "an operand")
        sources: list[DimSource | None] = [
            (a, d) for d in range(len(a_type.get_shape()))
        ]
        init = build_init(self.rewriter, self.state, self.op, a_type, sources)
        new = hip_type.make(self.ctx, a, out=init)
        self.rewriter.insert(new)
        return new.res[0]

    def _reduce_mean(self, x: SSAValue, axes: list[int]) -> SSAValue:
        shape = ranked(x, "the input").get_shape()
        out_shape = [1 if d in axes else s for d, s in enumerate(shape)]
        sources: list[DimSource | None] = [
            None if d in axes else (x, d) for d in range(len(shape))
        ]
        init = build_init(
            self.rewriter,
            self.state,
            self.op,
            TensorType(self.element, out_shape),
            sources,
        )
        new = hip.ReduceMeanOp.make(self.ctx, src=x, out=init, axes=axes, keepdims=True)
        self.rewriter.insert(new)
        return new.res[0]

    def _flat(self, stat: SSAValue, rank: int) -> SSAValue:
        """(1, C, 1, ...) -> (C): a view."""
        stat_type = ranked(stat, "a statistic")
        groups = ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in range(rank)])])
        return _insert(
            self.rewriter,
            tensor.CollapseShapeOp.create(
                operands=[stat],
                result_types=[TensorType(self.element, [stat_type.get_shape()[1]])],
                properties={"reassociation": groups},
            ),
        )

    def _channel_view(
        self, op: Operation, rewriter: PatternRewriter, value: SSAValue, rank: int
    ) -> SSAValue:
        """The (C) vector as a (C, 1, ..., 1) view, which broadcasts over
        (N, C, spatial...)."""
        value_type = ranked(value, "a channel vector")
        if rank == 2:
            return value
        shape = [value_type.get_shape()[0], *([1] * (rank - 2))]
        sizes = (
            [] if shape[0] != DYNAMIC_INDEX else [_size(self, op, rewriter, value, 0)]
        )
        groups = ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in range(rank - 1)])])
        return _insert(
            rewriter,
            tensor.ExpandShapeOp(
                value,
                sizes,
                groups,
                DenseArrayBase.from_list(i64, shape),
                TensorType(value_type.get_element_type(), shape),
            ),
        )
