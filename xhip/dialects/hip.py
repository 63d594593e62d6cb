"""The `hip` dialect: GPU library calls in destination-passing style.

Compute ops take the `!hip.context` first, then their inputs (`ins`) and the
buffers they write (`outs`). They work in two modes, like `linalg`:

- tensor mode: operands are tensors and the op returns one new tensor per init;
- memref mode: operands are memrefs, the op writes its `outs` and has no results.

    %r = hip.hipblaslt.matmul(%ctx) ins(%a, %b : T, T) outs(%c : T) -> T
    hip.hipblaslt.matmul(%ctx) ins(%a, %b : M, M) outs(%c : M)
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence, Set
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    TensorType,
    UnitAttr,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    Operand,
    VarOperand,
    VarOpResult,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    MemoryAllocEffect,
    MemoryEffect,
    MemoryEffectKind,
    MemoryFreeEffect,
)
from xdsl.utils.exceptions import VerifyException

from xhip.dialects import formula
from xhip.dialects.constraints import AnyShapedTypeConstr
from xhip.dialects.formula import Expr, X, Y

ShapedType = TensorType[Attribute] | MemRefType[Attribute]


@irdl_attr_definition
class ContextType(ParametrizedAttribute, TypeAttribute):
    """The handle to a device, stream and library handles: `!hip.context`."""

    name = "hip.context"


CONSTANTS_FILE = "model.constants.bin"
"""The file the externalized constants are written to, in the output directory
(its layout: docs/constants-file.md)."""

CONSTANTS_FILE_ATTR = "hip.constants_file"
"""Module attribute naming the constants file, from `convert-onnx-to-hip` until
`hip-resolve-extern-constants` turns the globals into views of the blob."""

EXTERNAL_DATA_ATTR = "hip.external_data"
"""`memref.global` attribute `{offset, size}`: where in the constants file the
global's bytes are, in place of an initial value."""


def shape_of(value: SSAValue) -> tuple[int, ...]:
    assert AnyShapedTypeConstr.verifies(value.type)
    return value.type.get_shape()


def _static_mismatch(a: int, b: int) -> bool:
    return a != DYNAMIC_INDEX and b != DYNAMIC_INDEX and a != b


def _broadcast(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...] | None:
    """The numpy broadcast of two static-or-dynamic shapes; None if they clash."""
    rank = max(len(a), len(b))
    a = (1,) * (rank - len(a)) + tuple(a)
    b = (1,) * (rank - len(b)) + tuple(b)
    out: list[int] = []
    for x, y in zip(a, b):
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif x == DYNAMIC_INDEX or y == DYNAMIC_INDEX:
            out.append(x if y == DYNAMIC_INDEX else y)
        else:
            return None
    return tuple(out)


def _fmt(shape: Sequence[int]) -> str:
    return "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape) or "scalar"


class DestinationStyleEffects(MemoryEffect):
    """A compute op's effects depend on its mode, as for `linalg` ops.

    Tensor mode has none (values in, values out), so an unused op can be erased
    and equal ones merged; memref mode reads its `ins` and writes its `outs`, so
    it stays and is never merged with another.
    """

    @classmethod
    def get_effects(cls, op: Operation) -> Set[EffectInstance]:
        assert isinstance(op, HipDPSOp)
        if op.is_tensor_mode:
            return frozenset()
        return frozenset(
            [EffectInstance(MemoryEffectKind.READ, v) for v in op.inputs]
            + [EffectInstance(MemoryEffectKind.WRITE, v) for v in op.outputs]
        )


class HipDPSOp(IRDLOperation, ABC):
    """Base of the compute ops: shared syntax and mode checks.

    It declares no fields: IRDL orders operands by declaration, and
    `hip.transpose` needs its index operands between `ctx` and `inputs`, so it
    declares all of its own; the other ops take them from `HipComputeOp`.
    """

    NUM_INDEX_OPERANDS: ClassVar[int] = 0
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (1, 1)
    """Allowed (min, max) number of `ins` operands; max None: no limit."""
    SAME_ELEMENT_TYPE: ClassVar[bool] = True
    """Whether every `ins` operand must have the element type of `outs`: the
    library calls compute in one type; only a conversion may differ."""
    IN_PLACE: ClassVar[bool] = False
    """Whether `outs` may be exactly an `ins` view: true of elementwise
    functions; library calls (hipBLASLt, MIOpen) promise nothing then."""
    RUNTIME_CALL: ClassVar[str]
    """The `Runtime` method that runs the op. Unless the backend has a builder
    of its own for the op, it is called as `method(*index operands, *ins, out,
    **runtime_attributes())`."""

    @classmethod
    def runtime_call(cls) -> str:
        return cls.RUNTIME_CALL

    def runtime_attributes(self) -> dict[str, object]:
        """The op's static attributes as the keyword arguments of its call."""
        return {}

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        """The shape of `outs` for these `ins` shapes, where the op decides it;
        the backend checks it in debug mode."""
        return None

    traits = traits_def(DestinationStyleEffects())

    if TYPE_CHECKING:  # declared by the subclasses, for IRDL
        ctx: Operand
        inputs: VarOperand
        outputs: VarOperand
        res: VarOpResult

    def __init__(
        self,
        ctx: SSAValue | Operation,
        inputs: Sequence[SSAValue | Operation],
        outputs: Sequence[SSAValue | Operation],
        index_operands: Sequence[SSAValue | Operation] = (),
        properties: dict[str, Attribute | None] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        result_types = [
            SSAValue.get(o).type
            for o in outputs
            if isinstance(SSAValue.get(o).type, TensorType)
        ]
        super().__init__(
            operands=[ctx, *index_operands, inputs, outputs],
            result_types=[result_types],
            properties=properties or {},
            attributes=attributes or {},
        )

    @property
    def index_operands(self) -> Sequence[SSAValue]:
        return self.operands[1 : 1 + self.NUM_INDEX_OPERANDS]

    @property
    def is_tensor_mode(self) -> bool:
        return bool(self.outputs) and isinstance(self.outputs[0].type, TensorType)

    def verify_(self) -> None:
        lo, hi = self.NUM_INPUTS
        if len(self.inputs) < lo or (hi is not None and len(self.inputs) > hi):
            want = str(lo) if lo == hi else f"{lo} to {hi}" if hi else f"{lo} or more"
            raise VerifyException(
                f"'{self.name}' expects {want} ins operands, got {len(self.inputs)}"
            )
        if len(self.outputs) != 1:
            raise VerifyException(
                f"'{self.name}' expects 1 outs operand, got {len(self.outputs)}"
            )
        tensor_mode = self.is_tensor_mode
        for kind, values in (("ins", self.inputs), ("outs", self.outputs)):
            for i, value in enumerate(values):
                if isinstance(value.type, TensorType) != tensor_mode:
                    raise VerifyException(
                        f"'{self.name}' mixes tensors and memrefs: {kind} operand "
                        f"{i} is {value.type} but outs operand 0 is "
                        f"{self.outputs[0].type}"
                    )
        if tensor_mode:
            if len(self.res) != len(self.outputs):
                raise VerifyException(
                    f"'{self.name}' in tensor mode must return one result per "
                    f"outs operand ({len(self.outputs)}), got {len(self.res)}"
                )
            for i, (r, o) in enumerate(zip(self.res, self.outputs)):
                if r.type != o.type:
                    raise VerifyException(
                        f"'{self.name}' result {i} has type {r.type} but its init "
                        f"(outs operand {i}) has type {o.type}"
                    )
        elif self.res:
            raise VerifyException(
                f"'{self.name}' in memref mode has no results, got {len(self.res)}"
            )
        out_elt = self.outputs[0].type
        assert AnyShapedTypeConstr.verifies(out_elt)
        for i, value in enumerate(self.inputs if self.SAME_ELEMENT_TYPE else ()):
            assert AnyShapedTypeConstr.verifies(value.type)
            if value.type.get_element_type() != out_elt.get_element_type():
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has element type "
                    f"{value.type.get_element_type()} but outs operand 0 has "
                    f"{out_elt.get_element_type()}"
                )
        self.verify_shapes()

    def verify_shapes(self) -> None:
        """Op-specific static shape checks."""

    @classmethod
    def _parse_typed_list(
        cls, parser: Parser, keyword: str
    ) -> tuple[list[UnresolvedOperand], list[TypeAttribute]]:
        parser.parse_characters(keyword)
        parser.parse_punctuation("(")
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_type
        )
        parser.parse_punctuation(")")
        return operands, types

    @classmethod
    def parse(cls, parser: Parser) -> HipDPSOp:
        pos = parser.pos
        head = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        if len(head) != 1 + cls.NUM_INDEX_OPERANDS:
            parser.raise_error(
                f"'{cls.name}' expects the context"
                + (
                    f" and {cls.NUM_INDEX_OPERANDS} index operands"
                    if cls.NUM_INDEX_OPERANDS
                    else ""
                )
                + f" in parentheses, got {len(head)} operands",
                pos,
                parser.pos,
            )
        ctx = parser.resolve_operand(head[0], ContextType())
        index = [parser.resolve_operand(u, IndexType()) for u in head[1:]]
        pos = parser.pos
        ins, in_types = cls._parse_typed_list(parser, "ins")
        if len(ins) != len(in_types):
            parser.raise_error("ins: number of operands and types differ", pos)
        pos = parser.pos
        outs, out_types = cls._parse_typed_list(parser, "outs")
        if len(outs) != len(out_types):
            parser.raise_error("outs: number of operands and types differ", pos)
        attrs = parser.parse_optional_attr_dict()
        result_types: list[TypeAttribute] = []
        if parser.parse_optional_punctuation("->"):
            parsed = parser.parse_optional_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_type
            )
            result_types = parsed if parsed is not None else [parser.parse_type()]
        prop_names = cls.get_irdl_definition().properties
        props = {k: v for k, v in attrs.items() if k in prop_names}
        op = cls.__new__(cls)
        IRDLOperation.__init__(
            op,
            operands=[
                ctx,
                *index,
                [parser.resolve_operand(u, t) for u, t in zip(ins, in_types)],
                [parser.resolve_operand(u, t) for u, t in zip(outs, out_types)],
            ],
            result_types=[result_types],
            properties=props,
            attributes={k: v for k, v in attrs.items() if k not in props},
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list([self.ctx, *self.index_operands], printer.print_ssa_value)
        printer.print_string(")")
        for keyword, values in (("ins", self.inputs), ("outs", self.outputs)):
            printer.print_string(f" {keyword}(")
            printer.print_list(values, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list([v.type for v in values], printer.print_attribute)
            printer.print_string(")")
        printer.print_op_attributes(
            {**self.properties, **self.attributes},
            reserved_attr_names=("operandSegmentSizes",),
        )
        if self.res:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.res], printer.print_attribute)


class HipComputeOp(HipDPSOp, ABC):
    """A compute op whose only operands are the context, `ins` and `outs`."""

    ctx = operand_def(ContextType)
    inputs = var_operand_def(base(TensorType) | base(MemRefType))
    outputs = var_operand_def(base(TensorType) | base(MemRefType))
    res = var_result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)


class ElementwiseOp(HipComputeOp, ABC):
    """`out = formula(ins...)` elementwise, with numpy broadcasting of the ins.

    `FORMULA` is the op's one declaration of what it computes: the CPU and
    GPU runtimes derive their implementations from it (`formula.py`).
    """

    FORMULA: ClassVar[Expr]
    IN_PLACE: ClassVar[bool] = True

    @classmethod
    def runtime_call(cls) -> str:
        """`Runtime.unary` or `Runtime.binary`, by the formula's arity, with
        the op's `kind()` as first argument."""
        return "unary" if cls.FORMULA.arity() == 1 else "binary"

    @classmethod
    def kind(cls) -> str:
        """The op's name without its dialect and library: `hip.miopen.exp` is `exp`."""
        return cls.name.rsplit(".", 1)[-1]

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return _broadcast(*shapes) if len(shapes) == 2 else shapes[0]


class BinaryElementwiseOp(ElementwiseOp, ABC):
    """`out = lhs <op> rhs` with numpy broadcasting."""

    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (2, 2)

    def verify_shapes(self) -> None:
        lhs, rhs = (shape_of(v) for v in self.inputs)
        out = shape_of(self.outputs[0])
        shape = _broadcast(lhs, rhs)
        if shape is None:
            raise VerifyException(
                f"'{self.name}' ins operands do not broadcast: {_fmt(lhs)} and "
                f"{_fmt(rhs)}"
            )
        if len(shape) != len(out) or any(map(_static_mismatch, shape, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(out)} but the "
                f"broadcast of the ins operands is {_fmt(shape)}"
            )


class _SameShapeOp(HipComputeOp, ABC):
    """One `ins` operand of the shape of `outs`."""

    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (1, 1)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) != len(out) or any(map(_static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {_fmt(src)} but outs "
                f"operand 0 has shape {_fmt(out)}"
            )


class UnaryElementwiseOp(ElementwiseOp, _SameShapeOp, ABC):
    """`out = f(in)`, same shape in and out."""

    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (1, 1)


@irdl_op_definition
class MatmulOp(HipComputeOp):
    """numpy `matmul`: batched, with broadcasting of the batch dims."""

    name = "hip.hipblaslt.matmul"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (2, 2)
    RUNTIME_CALL: ClassVar[str] = "matmul"

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        a, b = shapes
        a2 = (1, *a) if len(a) == 1 else a
        b2 = (*b, 1) if len(b) == 1 else b
        batch = _broadcast(a2[:-2], b2[:-2])
        if batch is None:
            return None
        shape = [*batch, *a2[-2:-1], *b2[-1:]]
        if len(b) == 1:
            shape.pop()
        if len(a) == 1:
            shape.pop(-1 if len(b) == 1 else -2)
        return tuple(shape)

    def verify_shapes(self) -> None:
        a, b = (shape_of(v) for v in self.inputs)
        out = shape_of(self.outputs[0])
        if len(a) == 0 or len(b) == 0:
            raise VerifyException(f"'{self.name}' ins operands must have rank >= 1")
        k_b = b[-2] if len(b) >= 2 else b[-1]
        if _static_mismatch(a[-1], k_b):
            raise VerifyException(
                f"'{self.name}' K mismatch: ins operand 0 ({_fmt(a)}) has K = "
                f"{a[-1]} but ins operand 1 ({_fmt(b)}) has K = {k_b}"
            )
        batch = _broadcast(a[:-2], b[:-2])
        if batch is None:
            raise VerifyException(
                f"'{self.name}' batch dims of {_fmt(a)} and {_fmt(b)} do not broadcast"
            )
        expected = list(batch)
        if len(a) >= 2:
            expected.append(a[-2])
        if len(b) >= 2:
            expected.append(b[-1])
        if len(expected) != len(out) or any(map(_static_mismatch, expected, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(out)} but "
                f"{_fmt(a)} x {_fmt(b)} gives {_fmt(expected)}"
            )


@irdl_op_definition
class GemmOp(HipComputeOp):
    """ONNX Gemm: `out = alpha * op(A) @ op(B) + beta * C`, C optional."""

    name = "hip.hipblaslt.gemm"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (2, 3)
    RUNTIME_CALL: ClassVar[str] = "gemm"

    trans_a = opt_prop_def(UnitAttr)
    trans_b = opt_prop_def(UnitAttr)
    alpha = opt_prop_def(FloatAttr)
    beta = opt_prop_def(FloatAttr)

    def verify_shapes(self) -> None:
        a, b = shape_of(self.inputs[0]), shape_of(self.inputs[1])
        if len(a) != 2 or len(b) != 2:
            raise VerifyException(f"'{self.name}' A and B must be 2-D")
        m, k = (a[1], a[0]) if self.trans_a else a
        k_b, n = (b[1], b[0]) if self.trans_b else b
        if _static_mismatch(k, k_b):
            raise VerifyException(
                f"'{self.name}' K mismatch: A gives K = {k} but B gives K = {k_b}"
            )
        out = shape_of(self.outputs[0])
        if len(out) != 2 or _static_mismatch(out[0], m) or _static_mismatch(out[1], n):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(out)}, expected "
                f"{_fmt((m, n))}"
            )


@irdl_op_definition
class AddOp(BinaryElementwiseOp):
    name = "hip.miopen.add"
    FORMULA: ClassVar[Expr] = X + Y


@irdl_op_definition
class SubOp(BinaryElementwiseOp):
    name = "hip.miopen.sub"
    FORMULA: ClassVar[Expr] = X - Y


@irdl_op_definition
class MulOp(BinaryElementwiseOp):
    name = "hip.miopen.mul"
    FORMULA: ClassVar[Expr] = X * Y


@irdl_op_definition
class DivOp(BinaryElementwiseOp):
    name = "hip.miopen.div"
    FORMULA: ClassVar[Expr] = X / Y


@irdl_op_definition
class PowOp(BinaryElementwiseOp):
    name = "hip.miopen.pow"
    FORMULA: ClassVar[Expr] = X**Y


@irdl_op_definition
class ReluOp(UnaryElementwiseOp):
    name = "hip.miopen.relu"
    FORMULA: ClassVar[Expr] = formula.relu(X)


@irdl_op_definition
class ExpOp(UnaryElementwiseOp):
    name = "hip.miopen.exp"
    FORMULA: ClassVar[Expr] = formula.exp(X)


@irdl_op_definition
class NegOp(UnaryElementwiseOp):
    name = "hip.miopen.neg"
    FORMULA: ClassVar[Expr] = -X


@irdl_op_definition
class SigmoidOp(UnaryElementwiseOp):
    """`1 / (1 + exp(-x))`."""

    name = "hip.miopen.sigmoid"
    FORMULA: ClassVar[Expr] = 1.0 / (1.0 + formula.exp(-X))


@irdl_op_definition
class SqrtOp(UnaryElementwiseOp):
    name = "hip.miopen.sqrt"
    FORMULA: ClassVar[Expr] = formula.sqrt(X)


@irdl_op_definition
class TanhOp(UnaryElementwiseOp):
    name = "hip.miopen.tanh"
    FORMULA: ClassVar[Expr] = formula.tanh(X)


@irdl_op_definition
class AbsOp(UnaryElementwiseOp):
    name = "hip.miopen.abs"
    FORMULA: ClassVar[Expr] = formula.abs_(X)


@irdl_op_definition
class CopyOp(_SameShapeOp):
    """Copies `in` to `out` (same shape); used where a view is not possible."""

    name = "hip.copy"
    RUNTIME_CALL: ClassVar[str] = "copy"


@irdl_op_definition
class CastOp(_SameShapeOp):
    """Converts each element of `in` to the element type of `out` (ONNX Cast:
    float to integer truncates toward zero); the one op whose types differ."""

    name = "hip.cast"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False
    RUNTIME_CALL: ClassVar[str] = "cast"


@irdl_op_definition
class SoftmaxOp(HipComputeOp):
    """Softmax along `axis` (default: the last one) of `ins[0]`, times the
    one-element `ins[1]` if there is one (`hip-fuse-scaled-softmax` folds a
    scalar `mul` into it)."""

    name = "hip.miopen.softmax"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (1, 2)
    RUNTIME_CALL: ClassVar[str] = "softmax"
    IN_PLACE: ClassVar[bool] = True

    axis = opt_prop_def(IntegerAttr)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) != len(out) or any(map(_static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {_fmt(src)} but outs "
                f"operand 0 has shape {_fmt(out)}"
            )
        if len(self.inputs) == 2 and any(d != 1 for d in shape_of(self.inputs[1])):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the scale) must have one element, "
                f"got shape {_fmt(shape_of(self.inputs[1]))}"
            )
        rank = len(src)
        if self.axis is not None and not -rank <= self.axis.value.data < max(rank, 1):
            raise VerifyException(
                f"'{self.name}' axis {self.axis.value.data} is out of range for "
                f"rank {rank}"
            )


@irdl_op_definition
class ConcatOp(HipComputeOp):
    """ONNX Concat: the `ins` one after the other along `axis` (in `[0, rank)`);
    the runtime copies each into its slice of `out`."""

    name = "hip.concat"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (1, None)
    RUNTIME_CALL: ClassVar[str] = "concat"

    axis = prop_def(IntegerAttr)

    def verify_shapes(self) -> None:
        out = shape_of(self.outputs[0])
        axis = self.axis.value.data
        if not 0 <= axis < len(out):
            raise VerifyException(
                f"'{self.name}' axis {axis} is out of range for rank {len(out)}"
            )
        total = 0
        for i, value in enumerate(self.inputs):
            shape = shape_of(value)
            if len(shape) != len(out) or any(
                _static_mismatch(a, b)
                for d, (a, b) in enumerate(zip(shape, out))
                if d != axis
            ):
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has shape {_fmt(shape)} but outs "
                    f"operand 0 has shape {_fmt(out)} (they may differ in dim {axis} "
                    "only)"
                )
            total = (
                DYNAMIC_INDEX
                if DYNAMIC_INDEX in (total, shape[axis])
                else (total + shape[axis])
            )
        if _static_mismatch(total, out[axis]):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has size {out[axis]} in dim {axis} but "
                f"the ins operands add up to {total}"
            )


@irdl_op_definition
class TransposeOp(HipDPSOp):
    """Swaps two dimensions, given as index operands after the context."""

    name = "hip.transpose"
    NUM_INDEX_OPERANDS: ClassVar[int] = 2
    RUNTIME_CALL: ClassVar[str] = "transpose"

    ctx = operand_def(ContextType)
    dim0 = operand_def(IndexType)
    dim1 = operand_def(IndexType)
    inputs = var_operand_def(base(TensorType) | base(MemRefType))
    outputs = var_operand_def(base(TensorType) | base(MemRefType))
    res = var_result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def swapped_dims(self) -> tuple[int, int] | None:
        """The two dims if both are constants, else None."""
        from xdsl.dialects.arith import ConstantOp

        dims: list[int] = []
        for value in (self.dim0, self.dim1):
            owner = value.owner
            if not isinstance(owner, ConstantOp) or not isinstance(
                owner.value, IntegerAttr
            ):
                return None
            dims.append(owner.value.value.data)
        return dims[0], dims[1]

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) != len(out):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has rank {len(src)} but outs operand "
                f"0 has rank {len(out)}"
            )
        dims = self.swapped_dims()
        if dims is None:
            return
        d0, d1 = dims
        if not (0 <= d0 < len(src) and 0 <= d1 < len(src)):
            raise VerifyException(
                f"'{self.name}' dims ({d0}, {d1}) out of range for rank {len(src)}"
            )
        expected = list(src)
        expected[d0], expected[d1] = expected[d1], expected[d0]
        if any(map(_static_mismatch, expected, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(out)} but swapping "
                f"dims {d0} and {d1} of {_fmt(src)} gives {_fmt(expected)}"
            )


@irdl_op_definition
class PermuteOp(HipComputeOp):
    """General transpose: `out` dim i is `in` dim `perm[i]`."""

    name = "hip.permute"
    RUNTIME_CALL: ClassVar[str] = "permute"

    perm = opt_prop_def(DenseArrayBase[I64])

    def runtime_attributes(self) -> dict[str, object]:
        return {"perm": self.permutation()}

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return tuple(shapes[0][p] for p in self.permutation())

    def permutation(self) -> tuple[int, ...]:
        rank = len(shape_of(self.inputs[0]))
        if self.perm is None:
            return tuple(reversed(range(rank)))
        return tuple(int(p) for p in self.perm.get_values())

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        perm = self.permutation()
        if sorted(perm) != list(range(len(src))) or len(out) != len(src):
            raise VerifyException(
                f"'{self.name}' perm {list(perm)} is not a permutation of the "
                f"{len(src)} dims of ins operand 0 into outs operand 0"
            )
        expected = [src[p] for p in perm]
        if any(map(_static_mismatch, expected, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(out)} but perm "
                f"{list(perm)} of {_fmt(src)} gives {_fmt(expected)}"
            )


@irdl_op_definition
class AllocOp(IRDLOperation):
    """Device memory from the context's allocator."""

    name = "hip.alloc"

    ctx = operand_def(ContextType)
    dynamic_sizes = var_operand_def(IndexType)
    memref = result_def(MemRefType)

    traits = traits_def(MemoryAllocEffect())

    assembly_format = "`(` $ctx (`,` $dynamic_sizes^)? `)` attr-dict `:` type($memref)"

    def __init__(
        self,
        ctx: SSAValue | Operation,
        dynamic_sizes: Sequence[SSAValue | Operation],
        result_type: MemRefType[Attribute],
    ):
        super().__init__(operands=[ctx, dynamic_sizes], result_types=[result_type])

    def verify_(self) -> None:
        dynamic = self.memref.type.get_shape().count(DYNAMIC_INDEX)
        if dynamic != len(self.dynamic_sizes):
            raise VerifyException(
                f"'{self.name}' result {self.memref.type} has {dynamic} dynamic "
                f"dims but {len(self.dynamic_sizes)} size operands were given"
            )


@irdl_op_definition
class FreeOp(IRDLOperation):
    """Returns memory from `hip.alloc` to the context's allocator."""

    name = "hip.free"

    ctx = operand_def(ContextType)
    memref = operand_def(MemRefType)

    traits = traits_def(MemoryFreeEffect())

    assembly_format = "`(` $ctx `,` $memref `)` attr-dict `:` type($memref)"

    def __init__(self, ctx: SSAValue | Operation, memref: SSAValue | Operation):
        super().__init__(operands=[ctx, memref])


def _declared_ops() -> list[type[Operation]]:
    """The ops of this module, in declaration order: the dialect's one list."""
    return [
        value
        for value in list(globals().values())
        if isinstance(value, type)
        and issubclass(value, IRDLOperation)
        and value.__module__ == __name__
        and "name" in vars(value)
    ]


COMPUTE_OPS: tuple[type[HipDPSOp], ...] = tuple(
    op for op in _declared_ops() if issubclass(op, HipDPSOp)
)
"""Every compute op, derived from the declarations above."""

ELEMENTWISE_OPS: tuple[type[ElementwiseOp], ...] = tuple(
    op for op in COMPUTE_OPS if issubclass(op, ElementwiseOp)
)
"""The ops a `formula` defines; the backend's kernels number them in this order."""

HIP = Dialect("hip", _declared_ops(), [ContextType])
