"""ONNX compute ops -> hip DPS ops in tensor mode, one pattern per op type.

Each result gets a `tensor.empty` init whose dynamic sizes are `tensor.dim`s of
the operand that decides them (`support.build_init`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    TensorType,
    UnitAttr,
    f32,
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
)


def _emit(
    pattern: OnnxPattern,
    op: Operation,
    rewriter: PatternRewriter,
    hip_type: type[hip.HipDPSOp],
    inputs: list[SSAValue],
    sources: list[DimSource | None],
    index_operands: tuple[int, ...] = (),
    properties: dict[str, Attribute | None] | None = None,
) -> None:
    """Replace `op` by `hip_type` writing a fresh init of `op`'s result type."""
    ctx = context_of(op)
    result_type = ranked(op.results[0], "the result")
    for value in inputs:
        ranked(value, "an operand")
    init = build_init(rewriter, pattern.state, op, result_type, sources)
    index = [pattern.state.folder.index(rewriter, op, i) for i in index_operands]
    new = hip_type(
        ctx, inputs, [init], index_operands=index, properties=properties or {}
    )
    rewriter.replace(op, new)


class ConvertMatMul(OnnxPattern):
    """`onnx.MatMul` (numpy semantics, any rank) -> `hip.hipblaslt.matmul`."""

    op_type = onnx.MatMulOp

    def convert(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, onnx.MatMulOp)
        a_shape = ranked(op.A, "operand A").get_shape()
        b_shape = ranked(op.B, "operand B").get_shape()
        if not a_shape or not b_shape:
            raise Unsupported("MatMul operands must have rank >= 1")
        batch_rank = max(len(a_shape), len(b_shape)) - 2
        sources: list[DimSource | None] = []
        if batch_rank > 0:
            batch = [(op.A, a_shape[:-2]), (op.B, b_shape[:-2])]
            sources = broadcast_sources(batch, batch_rank)
        if len(a_shape) >= 2:
            sources.append((op.A, len(a_shape) - 2))
        if len(b_shape) >= 2:
            sources.append((op.B, len(b_shape) - 1))
        _emit(self, op, rewriter, hip.MatmulOp, [op.A, op.B], sources)


class ConvertGemm(OnnxPattern):
    """`onnx.Gemm` -> `hip.hipblaslt.gemm`, attributes that differ from the spec's."""

    op_type = onnx.GemmOp

    def convert(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, onnx.GemmOp)
        trans_a, trans_b = op.get_int("transA"), op.get_int("transB")
        alpha, beta = op.get_float("alpha"), op.get_float("beta")
        for name, value in (("A", op.A), ("B", op.B)):
            if len(ranked(value, f"operand {name}").get_shape()) != 2:
                raise Unsupported(f"Gemm operand {name} must be 2-D")
        sources: list[DimSource | None] = [
            (op.A, 1 if trans_a else 0),
            (op.B, 0 if trans_b else 1),
        ]
        properties: dict[str, Attribute | None] = {
            "trans_a": UnitAttr() if trans_a else None,
            "trans_b": UnitAttr() if trans_b else None,
            "alpha": FloatAttr(alpha, f32) if alpha != 1.0 else None,
            "beta": FloatAttr(beta, f32) if beta != 1.0 and op.C is not None else None,
        }
        inputs = [op.A, op.B, *([op.C] if op.C is not None else [])]
        _emit(self, op, rewriter, hip.GemmOp, inputs, sources, properties=properties)


class _ConvertBinary(OnnxPattern):
    """An elementwise binary op, broadcasting as numpy does."""

    hip_type: ClassVar[type[hip.HipDPSOp]]

    def convert(self, op: Operation, rewriter: PatternRewriter) -> None:
        lhs, rhs = op.operands
        result = ranked(op.results[0], "the result")
        for value in (lhs, rhs):
            element = ranked(value, "an operand").get_element_type()
            if element != result.get_element_type():
                raise Unsupported(
                    f"operand type {value.type} differs from the result's "
                    f"element type {result.get_element_type()}"
                )
        _emit(self, op, rewriter, self.hip_type, [lhs, rhs], _binary_sources(op))


def _binary_sources(op: Operation) -> list[DimSource | None]:
    result = ranked(op.results[0], "the result")
    shapes = [(v, ranked(v, "an operand").get_shape()) for v in op.operands]
    return broadcast_sources(shapes, len(result.get_shape()))


def _cast(
    pattern: OnnxPattern,
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
    cast = hip.CastOp(context_of(op), [value], [init])
    rewriter.insert(cast)
    return cast.res[0]


class ConvertAdd(_ConvertBinary):
    """`onnx.Add` -> `hip.miopen.add`."""

    op_type = onnx.AddOp
    hip_type = hip.AddOp


class ConvertSub(_ConvertBinary):
    """`onnx.Sub` -> `hip.miopen.sub`."""

    op_type = onnx.SubOp
    hip_type = hip.SubOp


class ConvertMul(_ConvertBinary):
    """`onnx.Mul` -> `hip.miopen.mul`."""

    op_type = onnx.MulOp
    hip_type = hip.MulOp


class ConvertDiv(_ConvertBinary):
    """`onnx.Div` -> `hip.miopen.div`."""

    op_type = onnx.DivOp
    hip_type = hip.DivOp


class ConvertPow(OnnxPattern):
    """`onnx.Pow` -> `hip.miopen.pow`, in one element type.

    An exponent of another type is cast to the base's, except that an integer
    base with a float exponent computes in the float type and casts the
    result back, as ONNX does (`2 ** 0.5` is `int(1.41...)`, not `2 ** 0`).
    """

    op_type = onnx.PowOp

    def convert(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, onnx.PowOp)
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
            _emit(self, op, rewriter, hip.PowOp, [base, exponent], _binary_sources(op))
            return
        if isinstance(element, AnyFloat) or not isinstance(exponent_type, AnyFloat):
            exponent = _cast(self, op, rewriter, exponent, element)
            _emit(self, op, rewriter, hip.PowOp, [base, exponent], _binary_sources(op))
            return
        sources = _binary_sources(op)
        base = _cast(self, op, rewriter, base, exponent_type)
        wide = TensorType(exponent_type, result.get_shape())
        init = build_init(rewriter, self.state, op, wide, sources)
        power = hip.PowOp(context_of(op), [base, exponent], [init])
        rewriter.insert(power)
        out = build_init(rewriter, self.state, op, result, sources)
        rewriter.replace(op, hip.CastOp(context_of(op), [power.res[0]], [out]))


def _same_shape_sources(value: SSAValue) -> list[DimSource | None]:
    return [(value, i) for i in range(len(ranked(value, "the input").get_shape()))]


class _ConvertUnary(OnnxPattern):
    """An elementwise function of one operand, same shape in and out."""

    hip_type: ClassVar[type[hip.HipDPSOp]]

    def convert(self, op: Operation, rewriter: PatternRewriter) -> None:
        (x,) = op.operands
        _emit(self, op, rewriter, self.hip_type, [x], _same_shape_sources(x))


class ConvertRelu(_ConvertUnary):
    """`onnx.Relu` -> `hip.miopen.relu`."""

    op_type = onnx.ReluOp
    hip_type = hip.ReluOp


class ConvertExp(_ConvertUnary):
    """`onnx.Exp` -> `hip.miopen.exp`."""

    op_type = onnx.ExpOp
    hip_type = hip.ExpOp


class ConvertNeg(_ConvertUnary):
    """`onnx.Neg` -> `hip.miopen.neg`."""

    op_type = onnx.NegOp
    hip_type = hip.NegOp


class ConvertSigmoid(_ConvertUnary):
    """`onnx.Sigmoid` -> `hip.miopen.sigmoid`."""

    op_type = onnx.SigmoidOp
    hip_type = hip.SigmoidOp


class ConvertSqrt(_ConvertUnary):
    """`onnx.Sqrt` -> `hip.miopen.sqrt`."""

    op_type = onnx.SqrtOp
    hip_type = hip.SqrtOp


class ConvertTanh(_ConvertUnary):
    """`onnx.Tanh` -> `hip.miopen.tanh`."""

    op_type = onnx.TanhOp
    hip_type = hip.TanhOp


class ConvertSoftmax(OnnxPattern):
    """`onnx.Softmax` (opset 13: along one axis) -> `hip.miopen.softmax`.

    The last axis is the hip op's default and is not spelled out.
    """

    op_type = onnx.SoftmaxOp

    def convert(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, onnx.SoftmaxOp)
        rank = len(ranked(op.input, "the input").get_shape())
        axis = op.get_int("axis")
        if not -rank <= axis < max(rank, 1):
            raise Unsupported(f"axis {axis} is out of range for rank {rank}")
        axis %= max(rank, 1)
        properties: dict[str, Attribute | None] = {
            "axis": IntegerAttr(axis, i64) if axis != rank - 1 else None
        }
        _emit(
            self,
            op,
            rewriter,
            hip.SoftmaxOp,
            [op.input],
            _same_shape_sources(op.input),
            properties=properties,
        )


class ConvertTranspose(OnnxPattern):
    """`onnx.Transpose` -> `hip.transpose` for one swap, `hip.permute` otherwise.

    The identity permutation is no op at all.
    """

    op_type = onnx.TransposeOp

    def convert(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, onnx.TransposeOp)
        ranked(op.data, "the input")
        perm = op.permutation()
        sources: list[DimSource | None] = [(op.data, p) for p in perm]
        moved = [i for i, p in enumerate(perm) if i != p]
        if not moved and op.data.type == op.transposed.type:
            rewriter.replace(op, [], [op.data])
        elif len(moved) == 2:
            _emit(
                self,
                op,
                rewriter,
                hip.TransposeOp,
                [op.data],
                sources,
                index_operands=(moved[0], moved[1]),
            )
        else:
            properties: dict[str, Attribute | None] = {
                "perm": DenseArrayBase.from_list(i64, perm)
            }
            _emit(
                self,
                op,
                rewriter,
                hip.PermuteOp,
                [op.data],
                sources,
                properties=properties,
            )


class ConvertCast(OnnxPattern):
    """`onnx.Cast` -> `hip.cast`; a cast to the input's own type is its input."""

    op_type = onnx.CastOp

    def convert(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, onnx.CastOp)
        if op.input.type == op.output.type:
            rewriter.replace(op, [], [op.input])
            return
        sources = _same_shape_sources(op.input)
        _emit(self, op, rewriter, hip.CastOp, [op.input], sources)


class ConvertConcat(OnnxPattern):
    """`onnx.Concat` -> `hip.concat` with `axis` in `[0, rank)`.

    A dynamic size along the axis is the sum of the inputs' sizes there; any
    other dynamic size is the first input's.
    """

    op_type = onnx.ConcatOp

    def convert(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, onnx.ConcatOp)
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
        properties: dict[str, Attribute | None] = {"axis": IntegerAttr(axis, i64)}
        new = hip.ConcatOp(
            context_of(op), list(op.inputs), [empty.tensor], properties=properties
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


class ConvertIdentity(OnnxPattern):
    """`onnx.Identity` is its input."""

    op_type = onnx.IdentityOp

    def convert(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, onnx.IdentityOp)
        if op.input.type != op.output.type:
            raise Unsupported(
                f"input type {op.input.type} differs from result type {op.output.type}"
            )
        rewriter.replace(op, [], [op.input])
