"""ONNX compute ops -> hip DPS ops in tensor mode, one pattern per op type.

Each result gets a `tensor.empty` init whose dynamic sizes are `tensor.dim`s of
the operand that decides them, or of the operands a dim broadcasts from
(`support.build_init`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.compose import PatternFactory
from xhip.transforms.onnx_to_hip.support import (
    ConversionState,
    DimSource,
    OnnxPattern,
    SizeSource,
    Unsupported,
    broadcast_sources,
    build_init,
    context_of,
    ranked,
    recast,
)


def _emit(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    inputs: list[SSAValue],
    sources: Sequence[SizeSource],
    build: Callable[[SSAValue, SSAValue], hip.HipDPSOp],
) -> None:
    """Replace `op` by `build(ctx, init)`, init a fresh one of `op`'s result
    type (made before whatever `build` inserts)."""
    ctx = pattern.state.context(op)
    result_type = ranked(op.results[0], "the result")
    for value in inputs:
        ranked(value, "an operand")
    init = build_init(rewriter, pattern.state, op, result_type, sources)
    rewriter.replace(op, build(ctx, init))


class ConvertMatMul(OnnxPattern[onnx.MatMulOp]):
    """`onnx.MatMul` (numpy semantics, any rank) -> `hip.hipblaslt.matmul`."""

    def convert(self, op: onnx.MatMulOp, rewriter: PatternRewriter) -> None:
        a_shape = ranked(op.A, "operand A").get_shape()
        b_shape = ranked(op.B, "operand B").get_shape()
        if not a_shape or not b_shape:
            raise Unsupported("MatMul operands must have rank >= 1")
        batch_rank = max(len(a_shape), len(b_shape)) - 2
        sources: list[SizeSource] = []
        if batch_rank > 0:
            batch = [(op.A, a_shape[:-2]), (op.B, b_shape[:-2])]
            sources = broadcast_sources(batch, batch_rank)
        if len(a_shape) >= 2:
            sources.append((op.A, len(a_shape) - 2))
        if len(b_shape) >= 2:
            sources.append((op.B, len(b_shape) - 1))
        _emit(
            self,
            op,
            rewriter,
            [op.A, op.B],
            sources,
            lambda ctx, out: hip.MatmulOp.make(ctx, a=op.A, b=op.B, out=out),
        )


class ConvertGemm(OnnxPattern[onnx.GemmOp]):
    """`onnx.Gemm` -> `hip.hipblaslt.gemm`, attributes that differ from the spec's."""

    def convert(self, op: onnx.GemmOp, rewriter: PatternRewriter) -> None:
        trans_a, trans_b = op.get_int("transA"), op.get_int("transB")
        alpha, beta = op.get_float("alpha"), op.get_float("beta")
        for name, value in (("A", op.A), ("B", op.B)):
            if len(ranked(value, f"operand {name}").get_shape()) != 2:
                raise Unsupported(f"Gemm operand {name} must be 2-D")
        sources: list[DimSource | None] = [
            (op.A, 1 if trans_a else 0),
            (op.B, 0 if trans_b else 1),
        ]
        inputs = [op.A, op.B, *([op.C] if op.C is not None else [])]
        _emit(
            self,
            op,
            rewriter,
            inputs,
            sources,
            lambda ctx, out: hip.GemmOp.make(
                ctx,
                a=op.A,
                b=op.B,
                c=op.C,
                out=out,
                trans_a=bool(trans_a),
                trans_b=bool(trans_b),
                alpha=alpha,
                beta=beta,
            ),
        )


ELEMENTWISE: dict[type[onnx.OnnxOp], type[hip.ElementwiseOp]] = {
    onnx.AddOp: hip.AddOp,
    onnx.SubOp: hip.SubOp,
    onnx.MulOp: hip.MulOp,
    onnx.DivOp: hip.DivOp,
    onnx.ReluOp: hip.ReluOp,
    onnx.ExpOp: hip.ExpOp,
    onnx.NegOp: hip.NegOp,
    onnx.SigmoidOp: hip.SigmoidOp,
    onnx.SqrtOp: hip.SqrtOp,
    onnx.TanhOp: hip.TanhOp,
    onnx.AbsOp: hip.AbsOp,
    onnx.ErfOp: hip.ErfOp,
    onnx.SoftplusOp: hip.SoftplusOp,
    onnx.SoftsignOp: hip.SoftsignOp,
    onnx.EluOp: hip.EluOp,
    onnx.SeluOp: hip.SeluOp,
    onnx.CeluOp: hip.CeluOp,
    onnx.MishOp: hip.MishOp,
    onnx.LeakyReluOp: hip.LeakyReluOp,
    onnx.HardSigmoidOp: hip.HardSigmoidOp,
    onnx.HardSwishOp: hip.HardSwishOp,
    onnx.ThresholdedReluOp: hip.ThresholdedReluOp,
    onnx.LogOp: hip.LogOp,
    onnx.ReciprocalOp: hip.ReciprocalOp,
    onnx.FloorOp: hip.FloorOp,
    onnx.CeilOp: hip.CeilOp,
    onnx.RoundOp: hip.RoundOp,
    onnx.SinOp: hip.SinOp,
    onnx.CosOp: hip.CosOp,
    onnx.SignOp: hip.SignOp,
    onnx.TanOp: hip.TanOp,
    onnx.AsinOp: hip.AsinOp,
    onnx.AcosOp: hip.AcosOp,
    onnx.AtanOp: hip.AtanOp,
    onnx.SinhOp: hip.SinhOp,
    onnx.CoshOp: hip.CoshOp,
    onnx.AsinhOp: hip.AsinhOp,
    onnx.AcoshOp: hip.AcoshOp,
    onnx.AtanhOp: hip.AtanhOp,
    onnx.SwishOp: hip.SwishOp,
    onnx.EqualOp: hip.EqualOp,
    onnx.LessOp: hip.LessOp,
    onnx.LessOrEqualOp: hip.LessOrEqualOp,
    onnx.GreaterOp: hip.GreaterOp,
    onnx.GreaterOrEqualOp: hip.GreaterOrEqualOp,
    onnx.NotOp: hip.NotOp,
    onnx.AndOp: hip.AndOp,
    onnx.OrOp: hip.OrOp,
    onnx.XorOp: hip.XorOp,
    onnx.BitwiseAndOp: hip.BitwiseAndOp,
    onnx.BitwiseOrOp: hip.BitwiseOrOp,
    onnx.BitwiseXorOp: hip.BitwiseXorOp,
    onnx.BitwiseNotOp: hip.BitwiseNotOp,
    onnx.IsNaNOp: hip.IsNaNOp,
    onnx.IsInfOp: hip.IsInfOp,
    onnx.WhereOp: hip.WhereOp,
}
"""ONNX ops that are one elementwise hip op, operands in the same order; the
hip op's formula `Param`s are the ONNX attributes of the same names."""


class ConvertElementwise(OnnxPattern[onnx.OnnxOp]):
    """An ONNX op of `ELEMENTWISE` -> its hip op, broadcasting as numpy does.

    One instance per entry: it matches `onnx_type` only.
    """

    def __init__(
        self,
        state: ConversionState,
        onnx_type: type[onnx.OnnxOp],
        hip_type: type[hip.ElementwiseOp],
    ) -> None:
        super().__init__(state)
        self.op_type = onnx_type
        self.hip_type = hip_type

    def convert(self, op: onnx.OnnxOp, rewriter: PatternRewriter) -> None:
        emit_elementwise(self, op, rewriter, self.hip_type, list(op.operands))


def elementwise_pattern(
    onnx_type: type[onnx.OnnxOp], hip_type: type[hip.ElementwiseOp] | None = None
) -> PatternFactory:
    """The pattern of `onnx_type` as `ConvertElementwise` to `hip_type`
    (default: its `ELEMENTWISE` entry), for the tables of composed ops."""
    chosen = ELEMENTWISE[onnx_type] if hip_type is None else hip_type
    return lambda state: ConvertElementwise(state, onnx_type, chosen)


def attribute_value(op: onnx.OnnxOp, name: str) -> float:
    """The ONNX attribute `name` of `op` (or the spec's default) as a float."""
    attr = op.properties.get(name)
    if isinstance(attr, IntegerAttr | FloatAttr):
        return float(attr.value.data)
    value = op.DEFAULTS.get(name)
    if not isinstance(value, int | float):
        raise Unsupported(f"no value for attribute '{name}'")
    return float(value)


def element_type_check(
    hip_type: type[hip.ElementwiseOp], operands: list[SSAValue], result: SSAValue
) -> None:
    """`Unsupported` unless the element types fit the hip op's type rule."""
    types = [ranked(v, "an operand").get_element_type() for v in operands]
    element = ranked(result, "the result").get_element_type()
    error = hip_type.element_type_error(types, element)
    if error is not None:
        raise Unsupported(f"{hip_type.name} {error}")


def emit_elementwise(
    pattern: OnnxPattern[Any],
    op: onnx.OnnxOp,
    rewriter: PatternRewriter,
    hip_type: type[hip.ElementwiseOp],
    operands: list[SSAValue],
    params: dict[str, float] | None = None,
) -> None:
    """Replace `op` by the elementwise `hip_type` of `operands`, broadcast as
    numpy does; each formula `Param` is `params[name]`, else the ONNX
    attribute of that name."""
    element_type_check(hip_type, operands, op.results[0])
    given = params or {}
    values = {
        name: given[name] if name in given else attribute_value(op, name)
        for name in hip_type.FORMULA.params()
    }
    if len(operands) == 1:
        sources = _same_shape_sources(operands[0])
    else:
        rank = len(ranked(op.results[0], "the result").get_shape())
        shapes = [(v, ranked(v, "an operand").get_shape()) for v in operands]
        sources = broadcast_sources(shapes, rank)
    _emit(
        pattern,
        op,
        rewriter,
        operands,
        sources,
        lambda ctx, out: hip_type.make(ctx, *operands, out=out, **values),
    )


def _binary_sources(op: Operation) -> list[SizeSource]:
    result = ranked(op.results[0], "the result")
    shapes = [(v, ranked(v, "an operand").get_shape()) for v in op.operands]
    return broadcast_sources(shapes, len(result.get_shape()))


def cast_before(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    value: SSAValue,
    element: Attribute,
) -> SSAValue:
    """`value` converted to `element` by a `hip.cast` inserted before `op`."""
    shape = ranked(value, "an operand").get_shape()
    init = build_init(
        rewriter,
        pattern.state,
        op,
        TensorType(element, shape),
        _same_shape_sources(value),
    )
    cast = hip.CastOp.make(context_of(op), src=value, out=init)
    rewriter.insert(cast)
    return cast.res[0]


class ConvertPow(OnnxPattern[onnx.PowOp]):
    """`onnx.Pow` -> `hip.miopen.pow`, in one element type.

    An exponent of another type is cast to the base's, except that an integer
    base with a float exponent computes in the float type and casts the
    result back, as ONNX does (`2 ** 0.5` is `int(1.41...)`, not `2 ** 0`).
    """

    def convert(self, op: onnx.PowOp, rewriter: PatternRewriter) -> None:
        base, exponent = op.operands
        result = ranked(op.results[0], "the result")
        element = result.get_element_type()
        base_type = ranked(base, "the base").get_element_type()
        exponent_type = ranked(exponent, "the exponent").get_element_type()
        if base_type != element:
            raise Unsupported(
                f"base type {base.type} differs from the result's element type "
                f"{element}"
            )
        if exponent_type == element:
            _emit_pow(self, op, rewriter, base, exponent)
            return
        if isinstance(element, AnyFloat) or not isinstance(exponent_type, AnyFloat):
            exponent = cast_before(self, op, rewriter, exponent, element)
            _emit_pow(self, op, rewriter, base, exponent)
            return
        sources = _binary_sources(op)
        base = cast_before(self, op, rewriter, base, exponent_type)
        wide = TensorType(exponent_type, result.get_shape())
        init = build_init(rewriter, self.state, op, wide, sources)
        power = hip.PowOp.make(context_of(op), base, exponent, out=init)
        rewriter.insert(power)
        out = build_init(rewriter, self.state, op, result, sources)
        rewriter.replace(op, hip.CastOp.make(context_of(op), src=power.res[0], out=out))


def _emit_pow(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    base: SSAValue,
    exponent: SSAValue,
) -> None:
    _emit(
        pattern,
        op,
        rewriter,
        [base, exponent],
        _binary_sources(op),
        lambda ctx, out: hip.PowOp.make(ctx, base, exponent, out=out),
    )


def _same_shape_sources(value: SSAValue) -> list[DimSource | None]:
    return [(value, i) for i in range(len(ranked(value, "the input").get_shape()))]


class ConvertSoftmax(OnnxPattern[onnx.SoftmaxOp]):
    """`onnx.Softmax` (opset 13: along one axis) -> `hip.miopen.softmax`.

    The last axis is the hip op's default and is not spelled out.
    """

    def convert(self, op: onnx.SoftmaxOp, rewriter: PatternRewriter) -> None:
        rank = len(ranked(op.input, "the input").get_shape())
        axis = op.get_int("axis")
        if not -rank <= axis < max(rank, 1):
            raise Unsupported(f"axis {axis} is out of range for rank {rank}")
        axis %= max(rank, 1)
        _emit(
            self,
            op,
            rewriter,
            [op.input],
            _same_shape_sources(op.input),
            lambda ctx, out: hip.SoftmaxOp.make(
                ctx, src=op.input, out=out, axis=axis if axis != rank - 1 else None
            ),
        )


class ConvertTranspose(OnnxPattern[onnx.TransposeOp]):
    """`onnx.Transpose` -> `hip.transpose` for one swap, `hip.permute` otherwise.

    The identity permutation is no op at all.
    """

    def convert(self, op: onnx.TransposeOp, rewriter: PatternRewriter) -> None:
        ranked(op.data, "the input")
        perm = op.permutation()
        sources: list[DimSource | None] = [(op.data, p) for p in perm]
        moved = [i for i, p in enumerate(perm) if i != p]
        if not moved and op.data.type == op.transposed.type:
            rewriter.replace(op, [], [op.data])
        elif len(moved) == 2:
            index = self.state.folder.index
            _emit(
                self,
                op,
                rewriter,
                [op.data],
                sources,
                lambda ctx, out: hip.TransposeOp.make(
                    ctx,
                    src=op.data,
                    out=out,
                    dim0=index(rewriter, op, moved[0]),
                    dim1=index(rewriter, op, moved[1]),
                ),
            )
        else:
            _emit(
                self,
                op,
                rewriter,
                [op.data],
                sources,
                lambda ctx, out: hip.PermuteOp.make(
                    ctx, src=op.data, out=out, perm=perm
                ),
            )


class ConvertCast(OnnxPattern[onnx.CastOp]):
    """`onnx.Cast` -> `hip.cast`; a cast to the input's own type is its input."""

    def convert(self, op: onnx.CastOp, rewriter: PatternRewriter) -> None:
        if op.input.type == op.output.type:
            rewriter.replace(op, [], [op.input])
            return
        # lazy: the quantize patterns (and their families) only for a Cast
        from xhip.transforms.onnx_to_hip.quantize import convert_low_precision_cast

        if convert_low_precision_cast(self, op, rewriter):
            return
        sources = _same_shape_sources(op.input)
        _emit(
            self,
            op,
            rewriter,
            [op.input],
            sources,
            lambda ctx, out: hip.CastOp.make(ctx, src=op.input, out=out),
        )


class ConvertBitCast(OnnxPattern[onnx.BitCastOp]):
    """`onnx.BitCast` -> `hip.bitcast` (elements of one width); to the
    input's own type, its input."""

    def convert(self, op: onnx.BitCastOp, rewriter: PatternRewriter) -> None:
        if op.input.type == op.output.type:
            rewriter.replace(op, [], [op.input])
            return
        ranked(op.input, "the input")
        ranked(op.output, "the result")
        if hip.element_bytes(op.input) != hip.element_bytes(op.output):
            raise Unsupported(
                f"the input's elements ({op.input.type}) and the result's "
                f"({op.output.type}) differ in width"
            )
        _emit(
            self,
            op,
            rewriter,
            [op.input],
            _same_shape_sources(op.input),
            lambda ctx, out: hip.BitcastOp.make(ctx, src=op.input, out=out),
        )


class ConvertConcat(OnnxPattern[onnx.ConcatOp]):
    """`onnx.Concat` -> `hip.concat` with `axis` in `[0, rank)`.

    A dynamic size along the axis is the sum of the inputs' sizes there; any
    other dynamic size is the first input's.
    """

    def convert(self, op: onnx.ConcatOp, rewriter: PatternRewriter) -> None:
        result = ranked(op.concat_result, "the result")
        rank = len(result.get_shape())
        for value in op.inputs:
            if ranked(value, "an input").get_element_type() != (
                result.get_element_type()
            ):
                raise Unsupported(f"input type {value.type} differs from the result's")
        axis = op.axis.value.data
        if not -rank <= axis < max(rank, 1):
            raise Unsupported(f"axis {axis} is out of range for rank {rank}")
        axis %= max(rank, 1)
        sizes: list[SSAValue] = []
        for d, size in enumerate(result.get_shape()):
            if size != DYNAMIC_INDEX:
                continue
            summed = op.inputs if d == axis else op.inputs[:1]
            dims = [self._dim(op, rewriter, v, d) for v in summed]
            total = dims[0]
            for dim in dims[1:]:
                add = arith.AddiOp(total, dim)
                rewriter.insert(add)
                total = add.result
            sizes.append(total)
        empty = tensor.EmptyOp(sizes, result)
        rewriter.insert(empty)
        new = hip.ConcatOp.make(
            context_of(op), inputs=list(op.inputs), out=empty.tensor, axis=axis
        )
        rewriter.replace(op, new)

    def _dim(
        self, op: Operation, rewriter: PatternRewriter, value: SSAValue, d: int
    ) -> SSAValue:
        """`value`'s size in dim `d`: a constant if static, else a `tensor.dim`."""
        size = ranked(value, "an input").get_shape()[d]
        index = self.state.folder.index(rewriter, op, d if size < 0 else size)
        if size >= 0:
            return index
        dim = tensor.DimOp(value, index)
        dim.result.name_hint = "dim"
        rewriter.insert(dim)
        return dim.result


class ConvertIdentity(OnnxPattern[onnx.IdentityOp]):
    """`onnx.Identity` is its input."""

    def convert(self, op: onnx.IdentityOp, rewriter: PatternRewriter) -> None:
        cast = recast(op.input, op.output, "the input")
        if cast is None:
            rewriter.replace(op, [], [op.input])
        else:
            rewriter.replace(op, cast)
