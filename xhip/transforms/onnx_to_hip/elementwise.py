"""The elementwise ONNX ops that are not one table entry of `compute.ELEMENTWISE`.

- `Gelu`, `Mod` and `BitShift` pick their hip op by an attribute
  (`approximate`, `fmod`, `direction`): each mode is a formula of its own.
- The variadic `Max`, `Min`, `Sum` and `Mean` are a chain of binary hip ops,
  left to right, each intermediate of the broadcast shape of the inputs so
  far; `Mean` divides the sum by the count (`hip.miopen.div_by`). One input
  is the input itself.
- `CastLike` is `hip.cast` to its second operand's element type (the
  function bodies of the activations, `test_elu_expanded`, use it).
- `PRelu` is `hip.miopen.prelu`, the slope broadcast as numpy does; a slope
  of one value per channel that does not broadcast (opset 6's channel slope,
  PyTorch's `PReLU(num_parameters=C)` exports, which onnx's version converter
  leaves as they are) is viewed as `C x 1 x ... x 1` first.
- `Clip` (opset 13: optional scalar `min` and `max` inputs) is `max` then
  `min`, numpy's `clip`: NaN stays NaN, and `min > max` gives `max`.
- `Shrink` is `hip.miopen.shrink`, whose float attributes make it a float
  formula; on integers it computes as onnx's reference does, in float64, the
  result truncated back: `hip.cast` on either side.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    TensorType,
    f64,
    i64,
)
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.compute import (
    attribute_value,
    cast_before,
    element_type_check,
    emit_elementwise,
)
from xhip.transforms.onnx_to_hip.quantize import convert_low_precision_cast
from xhip.transforms.onnx_to_hip.support import (
    OnnxPattern,
    Unsupported,
    broadcast_sources,
    build_init,
    context_of,
    ranked,
    recast,
)

GELU: dict[str, type[hip.ElementwiseOp]] = {
    "none": hip.GeluOp,
    "tanh": hip.GeluTanhOp,
}
"""Gelu's `approximate` -> its hip op."""


class ConvertGelu(OnnxPattern[onnx.GeluOp]):
    """`onnx.Gelu` -> `hip.miopen.gelu` (erf) or `hip.miopen.gelu_tanh`."""

    def convert(self, op: onnx.GeluOp, rewriter: PatternRewriter) -> None:
        attr = op.approximate
        mode = attr.data if isinstance(attr, StringAttr) else "none"
        hip_type = GELU.get(mode)
        if hip_type is None:
            raise Unsupported(f"approximate = {mode!r} is not 'none' or 'tanh'")
        emit_elementwise(self, op, rewriter, hip_type, [op.X])


class ConvertMod(OnnxPattern[onnx.ModOp]):
    """`onnx.Mod` -> `hip.miopen.mod` (`fmod = 0`, Python's sign rule) or
    `hip.miopen.fmod` (`fmod = 1`, C's)."""

    def convert(self, op: onnx.ModOp, rewriter: PatternRewriter) -> None:
        hip_type = hip.FmodOp if op.get_int("fmod") else hip.ModOp
        emit_elementwise(self, op, rewriter, hip_type, [op.A, op.B])


BIT_SHIFT: dict[str, type[hip.ElementwiseOp]] = {
    "LEFT": hip.BitShiftLeftOp,
    "RIGHT": hip.BitShiftRightOp,
}
"""BitShift's `direction` -> its hip op."""


class ConvertBitShift(OnnxPattern[onnx.BitShiftOp]):
    """`onnx.BitShift` -> `hip.miopen.bit_shift_left` or `_right`."""

    def convert(self, op: onnx.BitShiftOp, rewriter: PatternRewriter) -> None:
        direction = op.direction.data
        hip_type = BIT_SHIFT.get(direction)
        if hip_type is None:
            raise Unsupported(f"direction = {direction!r} is not 'LEFT' or 'RIGHT'")
        emit_elementwise(self, op, rewriter, hip_type, [op.A, op.B])


class ConvertShrink(OnnxPattern[onnx.ShrinkOp]):
    """`onnx.Shrink` -> `hip.miopen.shrink`; on integers between `hip.cast`s
    to float64 and back (see above)."""

    def convert(self, op: onnx.ShrinkOp, rewriter: PatternRewriter) -> None:
        x_type = ranked(op.X, "the input")
        element = x_type.get_element_type()
        if hip.element_kind(element) not in ("i", "u"):
            emit_elementwise(self, op, rewriter, hip.ShrinkOp, [op.X])
            return
        result = ranked(op.Y, "the result")
        if result.get_element_type() != element:
            raise Unsupported(f"the result {op.Y.type} is not of the input's type")
        wide = cast_before(self, op, rewriter, op.X, f64)
        sources = [(op.X, i) for i in range(len(x_type.get_shape()))]
        init = build_init(
            rewriter, self.state, op, TensorType(f64, x_type.get_shape()), sources
        )
        params = {n: attribute_value(op, n) for n in hip.ShrinkOp.FORMULA.params()}
        shrink = hip.ShrinkOp.make(context_of(op), wide, out=init, **params)
        rewriter.insert(shrink)
        out = build_init(rewriter, self.state, op, result, sources)
        rewriter.replace(
            op, hip.CastOp.make(context_of(op), src=shrink.res[0], out=out)
        )


def _broadcast_shape(shapes: Sequence[Sequence[int]]) -> list[int]:
    """numpy's broadcast of static-or-dynamic shapes (already known to agree)."""
    rank = max(len(s) for s in shapes)
    out: list[int] = []
    for i in range(rank):
        dims = [s[i - rank + len(s)] for s in shapes if i - rank + len(s) >= 0]
        static = [d for d in dims if d not in (1, DYNAMIC_INDEX)]
        if static:
            out.append(static[0])
        elif DYNAMIC_INDEX in dims:
            out.append(DYNAMIC_INDEX)
        else:
            out.append(1)
    return out


def _chain(
    pattern: OnnxPattern[Any],
    op: onnx.OnnxOp,
    rewriter: PatternRewriter,
    hip_type: type[hip.ElementwiseOp],
    operands: list[SSAValue],
) -> SSAValue:
    """`hip_type` folded over `operands`, left to right, inserted before `op`."""
    element_type_check(hip_type, operands, op.results[0])
    element = ranked(op.results[0], "the result").get_element_type()
    value = operands[0]
    for i, other in enumerate(operands[1:], start=2):
        taking_part = operands[:i]
        shapes = [ranked(v, "an operand").get_shape() for v in taking_part]
        shape = _broadcast_shape(shapes)
        sources = broadcast_sources(list(zip(taking_part, shapes)), len(shape))
        init = build_init(
            rewriter, pattern.state, op, TensorType(element, shape), sources
        )
        new = hip_type(context_of(op), [value, other], [init])
        rewriter.insert(new)
        value = new.res[0]
    return value


def _replace(
    op: onnx.OnnxOp, rewriter: PatternRewriter, value: SSAValue, what: str
) -> None:
    """`op`'s result is `value` (recast where inference refined a dim)."""
    cast = recast(value, op.results[0], what)
    if cast is None:
        rewriter.replace(op, [], [value])
    else:
        rewriter.replace(op, cast)


class _ConvertVariadic(OnnxPattern[Any]):
    """A variadic broadcast op (`data_0`) as a chain of `hip_type()`."""

    @abstractmethod
    def hip_type(self) -> type[hip.ElementwiseOp]: ...

    def convert(self, op: Any, rewriter: PatternRewriter) -> None:
        hip_type = self.hip_type()
        operands: list[SSAValue] = list(op.data_0)
        if not operands:
            raise Unsupported("no inputs")
        if len(operands) == 1:
            element_type_check(hip_type, operands * 2, op.results[0])
            _replace(op, rewriter, operands[0], "the one input")
            return
        value = _chain(self, op, rewriter, hip_type, operands[:-1])
        emit_elementwise(self, op, rewriter, hip_type, [value, operands[-1]])


class ConvertMax(_ConvertVariadic, OnnxPattern[onnx.MaxOp]):
    """`onnx.Max` -> a chain of `hip.miopen.max`."""

    def hip_type(self) -> type[hip.ElementwiseOp]:
        return hip.MaxOp


class ConvertMin(_ConvertVariadic, OnnxPattern[onnx.MinOp]):
    """`onnx.Min` -> a chain of `hip.miopen.min`."""

    def hip_type(self) -> type[hip.ElementwiseOp]:
        return hip.MinOp


class ConvertSum(_ConvertVariadic, OnnxPattern[onnx.SumOp]):
    """`onnx.Sum` -> a chain of `hip.miopen.add`."""

    def hip_type(self) -> type[hip.ElementwiseOp]:
        return hip.AddOp


class ConvertMean(OnnxPattern[onnx.MeanOp]):
    """`onnx.Mean` -> a chain of `hip.miopen.add`, then `hip.miopen.div_by`
    the number of inputs."""

    def convert(self, op: onnx.MeanOp, rewriter: PatternRewriter) -> None:
        operands = list(op.data_0)
        if not operands:
            raise Unsupported("no inputs")
        element_type_check(hip.DivByOp, operands[:1], op.result)
        if len(operands) == 1:
            _replace(op, rewriter, operands[0], "the one input")
            return
        total = _chain(self, op, rewriter, hip.AddOp, operands)
        divisor = {"divisor": float(len(operands))}
        emit_elementwise(self, op, rewriter, hip.DivByOp, [total], divisor)


class ConvertClip(OnnxPattern[onnx.ClipOp]):
    """`onnx.Clip` -> `hip.miopen.max` with `min`, then `hip.miopen.min` with
    `max`, each only if given; neither given: the input itself."""

    def convert(self, op: onnx.ClipOp, rewriter: PatternRewriter) -> None:
        steps: list[tuple[type[hip.ElementwiseOp], SSAValue]] = []
        if op.min is not None:
            steps.append((hip.MaxOp, op.min))
        if op.max is not None:
            steps.append((hip.MinOp, op.max))
        for _, bound in steps:
            if any(d != 1 for d in ranked(bound, "a bound").get_shape()):
                raise Unsupported(f"the bounds must be scalars, got {bound.type}")
        if not steps:
            _replace(op, rewriter, op.input, "the input")
            return
        value = op.input
        for hip_type, bound in steps[:-1]:
            value = _chain(self, op, rewriter, hip_type, [value, bound])
        hip_type, bound = steps[-1]
        emit_elementwise(self, op, rewriter, hip_type, [value, bound])


class ConvertCastLike(OnnxPattern[onnx.CastLikeOp]):
    """`onnx.CastLike` -> `hip.cast`; to the input's own type, the input."""

    def convert(self, op: onnx.CastLikeOp, rewriter: PatternRewriter) -> None:
        if op.input.type == op.output.type:
            rewriter.replace(op, [], [op.input])
            return
        if convert_low_precision_cast(self, op, rewriter):
            return
        shape = ranked(op.input, "the input").get_shape()
        sources = [(op.input, i) for i in range(len(shape))]
        init = build_init(
            rewriter, self.state, op, ranked(op.output, "the result"), sources
        )
        rewriter.replace(op, hip.CastOp.make(context_of(op), src=op.input, out=init))


def _numpy_broadcasts(a: Sequence[int], b: Sequence[int]) -> bool:
    return all(
        x == y or 1 in (x, y) or DYNAMIC_INDEX in (x, y)
        for x, y in zip(reversed(a), reversed(b))
    )


class ConvertPRelu(OnnxPattern[onnx.PReluOp]):
    """`onnx.PRelu` -> `hip.miopen.prelu`, the slope broadcast (see above)."""

    def convert(self, op: onnx.PReluOp, rewriter: PatternRewriter) -> None:
        x_shape = ranked(op.X, "the input").get_shape()
        slope_type = ranked(op.slope, "the slope")
        slope_shape = slope_type.get_shape()
        slope = op.slope
        channel = (
            len(slope_shape) == 1
            and len(x_shape) >= 3
            and slope_shape[0] == x_shape[1] != DYNAMIC_INDEX
            and not _numpy_broadcasts(x_shape, slope_shape)
        )
        if channel:
            shape = [slope_shape[0], *[1] * (len(x_shape) - 2)]
            groups = ArrayAttr(
                [ArrayAttr([IntegerAttr(d, i64) for d in range(len(shape))])]
            )
            view = tensor.ExpandShapeOp(
                slope,
                [],
                groups,
                DenseArrayBase.from_list(i64, shape),
                TensorType(slope_type.get_element_type(), shape),
            )
            rewriter.insert(view)
            slope = view.result
        emit_elementwise(self, op, rewriter, hip.PReluOp, [op.X, slope])
