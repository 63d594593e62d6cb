"""The `hip` dialect: GPU library calls in destination-passing style.

Compute ops take the `!hip.context` first, then their inputs (`ins`) and the
buffers they write (`outs`). They work in two modes, like `linalg`:

- tensor mode: operands are tensors and the op returns one new tensor per init;
- memref mode: operands are memrefs, the op writes its `outs` and has no results.

    %r = hip.hipblaslt.matmul(%ctx) ins(%a, %b : T, T) outs(%c : T) -> T
    hip.hipblaslt.matmul(%ctx) ins(%a, %b : M, M) outs(%c : M)
"""

from __future__ import annotations

import math
from abc import ABC
from collections.abc import Sequence, Set
from typing import TYPE_CHECKING, ClassVar, TypeVar, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    AnyFloat,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
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
from xhip.dialects.formula import Expr, Param, X, Y, Z

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
    NUM_OUTPUTS: ClassVar[tuple[int, int]] = (1, 1)
    """Allowed (min, max) number of `outs` operands (`hip.miopen.layer_norm`
    writes its mean and inverse standard deviation too, when asked)."""
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
        lo, hi = self.NUM_OUTPUTS
        if not lo <= len(self.outputs) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise VerifyException(
                f"'{self.name}' expects {want} outs operand"
                f"{'' if want == '1' else 's'}, got {len(self.outputs)}"
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
        self.verify_element_types()
        self.verify_shapes()

    def verify_element_types(self) -> None:
        """By default, with `SAME_ELEMENT_TYPE`: every `ins` has the element
        type of `outs`."""
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

    def verify_shapes(self) -> None:
        """Op-specific static shape checks."""

    @classmethod
    def _parse_typed_list(
        cls, parser: Parser, keyword: str
    ) -> tuple[list[UnresolvedOperand], list[TypeAttribute]]:
        parser.parse_characters(keyword)
        parser.parse_punctuation("(")
        if parser.parse_optional_punctuation(")"):
            return [], []  # `ins()`: an op that reads nothing (`hip.fill`)
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
            if values:
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
            several = len(self.res) > 1  # parenthesized, as the parser reads them
            printer.print_string("(" if several else "")
            printer.print_list([r.type for r in self.res], printer.print_attribute)
            printer.print_string(")" if several else "")


class HipComputeOp(HipDPSOp, ABC):
    """A compute op whose only operands are the context, `ins` and `outs`."""

    ctx = operand_def(ContextType)
    inputs = var_operand_def(base(TensorType) | base(MemRefType))
    outputs = var_operand_def(base(TensorType) | base(MemRefType))
    res = var_result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)


def element_kind(element: Attribute) -> str | None:
    """The kind of an element type (`formula.KINDS`): f, i, u or b (i1)."""
    if isinstance(element, AnyFloat):
        return "f"
    if isinstance(element, IndexType):
        return "i"
    if isinstance(element, IntegerType):
        integer = cast("IntegerType[int, Signedness]", element)
        if integer.width.data == 1:
            return "b"
        return "u" if integer.signedness.data == Signedness.UNSIGNED else "i"
    return None


_KIND_NAMES = {"f": "float", "i": "signed integer", "u": "unsigned integer", "b": "i1"}


class ElementwiseOp(HipComputeOp, ABC):
    """`out = formula(ins...)` elementwise, with numpy broadcasting of the ins.

    `FORMULA` is the op's one declaration of what it computes: the CPU and
    GPU runtimes derive their implementations from it (`formula.py`), and so
    are its types: each operand and the result is a bool (i1) or has the
    op's element type `T` (`operand_bools`, `FORMULA.is_bool()`), `T` of a
    kind the formula computes in (`FORMULA.kinds()`). Each `Param` of the
    formula is a float property of that name (declared by `@elementwise_op`).
    """

    FORMULA: ClassVar[Expr]
    IN_PLACE: ClassVar[bool] = True
    SAME_ELEMENT_TYPE: ClassVar[bool] = False
    """The formula states the types instead (`verify_element_types`)."""
    KINDS: ClassVar[str] = formula.KINDS
    """Narrows the kinds of `T` the formula allows, where ONNX does (`1 / x`
    is float only)."""

    @classmethod
    def kinds(cls) -> str:
        """The kinds of element type `T` the op computes in (`formula.KINDS`):
        the formula's, narrowed by `KINDS`; i1 where all its types are bools."""
        if all(cls.operand_bools()) and cls.FORMULA.is_bool():
            return formula.BOOL
        return "".join(k for k in cls.FORMULA.kinds() if k in cls.KINDS)

    @classmethod
    def arity(cls) -> int:
        return cls.FORMULA.arity()

    @classmethod
    def runtime_call(cls) -> str:
        """`Runtime.unary`, `binary` or `ternary`, by the formula's arity,
        with the op's `kind()` as first argument."""
        return {1: "unary", 2: "binary", 3: "ternary"}[cls.arity()]

    @classmethod
    def kind(cls) -> str:
        """The op's name without its dialect and library: `hip.miopen.exp` is `exp`."""
        return cls.name.rsplit(".", 1)[-1]

    @classmethod
    def operand_bools(cls) -> tuple[bool, ...]:
        """For each operand, whether it is a bool; with a bool result too,
        `T` itself is i1 (`and`, `not`)."""
        return formula.operand_types(cls.FORMULA, cls.arity())

    @classmethod
    def element_type_error(
        cls, operands: Sequence[Attribute], result: Attribute
    ) -> str | None:
        """Why these element types do not fit the op, or None."""
        bools = cls.operand_bools()
        result_bool = cls.FORMULA.is_bool()
        every_bool = all(bools) and result_bool
        named = [
            *(
                (f"ins operand {i}", t, b or every_bool)
                for i, (t, b) in enumerate(zip(operands, bools))
            ),
            ("outs operand 0", result, result_bool),
        ]
        i1 = IntegerType(1)
        typed = [(what, t) for what, t, is_bool in named if not is_bool]
        for what, t, is_bool in named:
            if is_bool and t != i1:
                return f"{what} has element type {t} but must be i1"
        if typed:
            first, element = typed[-1] if not result_bool else typed[0]
            for what, t in typed:
                if t != element:
                    return f"{what} has element type {t} but {first} has {element}"
        element = typed[0][1] if typed else i1
        kinds = cls.kinds()
        kind = element_kind(element)
        if kind is None or kind not in kinds:
            wanted = ", ".join(_KIND_NAMES[k] for k in kinds)
            return f"computes in {wanted} types, not {element}"
        return None

    def verify_element_types(self) -> None:
        types: list[Attribute] = []
        for value in [*self.inputs, self.outputs[0]]:
            assert AnyShapedTypeConstr.verifies(value.type)
            types.append(value.type.get_element_type())
        error = self.element_type_error(types[:-1], types[-1])
        if error is not None:
            raise VerifyException(f"'{self.name}' {error}")

    def formula_params(self) -> tuple[float, ...]:
        """The values of the formula's `Param`s, in `FORMULA.params()` order."""
        values: list[float] = []
        for name in self.FORMULA.params():
            attr = self.properties.get(name)
            assert isinstance(attr, FloatAttr)
            values.append(float(attr.value.data))
        return tuple(values)

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        shape: tuple[int, ...] | None = shapes[0]
        for other in shapes[1:]:
            shape = None if shape is None else _broadcast(shape, other)
        return shape


OpT = TypeVar("OpT", bound=ElementwiseOp)


def elementwise_op(cls: type[OpT]) -> type[OpT]:
    """`irdl_op_definition` for an elementwise op, after declaring a float
    property for each `Param` of its `FORMULA` (what the runtimes get)."""
    for name in cls.FORMULA.params():
        setattr(cls, name, prop_def(FloatAttr))
    return irdl_op_definition(cls)


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


class TernaryElementwiseOp(ElementwiseOp, ABC):
    """`out = f(a, b, c)`, the three broadcast as numpy does (`Where`)."""

    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (3, 3)

    def verify_shapes(self) -> None:
        shapes = [shape_of(v) for v in self.inputs]
        out = shape_of(self.outputs[0])
        shape = self.result_shape(*shapes)
        if shape is None:
            raise VerifyException(
                f"'{self.name}' ins operands do not broadcast: "
                + ", ".join(_fmt(s) for s in shapes)
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


@elementwise_op
class AddOp(BinaryElementwiseOp):
    name = "hip.miopen.add"
    FORMULA: ClassVar[Expr] = X + Y


@elementwise_op
class SubOp(BinaryElementwiseOp):
    name = "hip.miopen.sub"
    FORMULA: ClassVar[Expr] = X - Y


@elementwise_op
class MulOp(BinaryElementwiseOp):
    name = "hip.miopen.mul"
    FORMULA: ClassVar[Expr] = X * Y


@elementwise_op
class DivOp(BinaryElementwiseOp):
    name = "hip.miopen.div"
    FORMULA: ClassVar[Expr] = X / Y


@elementwise_op
class PowOp(BinaryElementwiseOp):
    name = "hip.miopen.pow"
    FORMULA: ClassVar[Expr] = X**Y


@elementwise_op
class ReluOp(UnaryElementwiseOp):
    name = "hip.miopen.relu"
    FORMULA: ClassVar[Expr] = formula.relu(X)


@elementwise_op
class ExpOp(UnaryElementwiseOp):
    name = "hip.miopen.exp"
    FORMULA: ClassVar[Expr] = formula.exp(X)


@elementwise_op
class NegOp(UnaryElementwiseOp):
    name = "hip.miopen.neg"
    FORMULA: ClassVar[Expr] = -X


@elementwise_op
class SigmoidOp(UnaryElementwiseOp):
    """`1 / (1 + exp(-x))`."""

    name = "hip.miopen.sigmoid"
    FORMULA: ClassVar[Expr] = 1.0 / (1.0 + formula.exp(-X))


@elementwise_op
class SqrtOp(UnaryElementwiseOp):
    name = "hip.miopen.sqrt"
    FORMULA: ClassVar[Expr] = formula.sqrt(X)


@elementwise_op
class TanhOp(UnaryElementwiseOp):
    name = "hip.miopen.tanh"
    FORMULA: ClassVar[Expr] = formula.tanh(X)


@elementwise_op
class AbsOp(UnaryElementwiseOp):
    name = "hip.miopen.abs"
    FORMULA: ClassVar[Expr] = formula.abs_(X)


# Activations; the attributes they read are `Param`s (float properties).

_SQRT_HALF = 0.7071067811865476
_SQRT_TWO_OVER_PI = 0.7978845608028654


def _softplus(x: Expr) -> Expr:
    """log(1 + exp(x)) without overflow: max(x, 0) + log(1 + exp(-|x|))."""
    return formula.relu(x) + formula.log(1.0 + formula.exp(-formula.abs_(x)))


@elementwise_op
class GeluOp(UnaryElementwiseOp):
    """ONNX Gelu, `approximate = "none"`: `x/2 (1 + erf(x / sqrt 2))`."""

    name = "hip.miopen.gelu"
    FORMULA: ClassVar[Expr] = 0.5 * X * (1.0 + formula.erf(X * _SQRT_HALF))


@elementwise_op
class GeluTanhOp(UnaryElementwiseOp):
    """ONNX Gelu, `approximate = "tanh"`."""

    name = "hip.miopen.gelu_tanh"
    FORMULA: ClassVar[Expr] = (
        0.5 * X * (1.0 + formula.tanh(_SQRT_TWO_OVER_PI * (X + 0.044715 * (X * X * X))))
    )


@elementwise_op
class ErfOp(UnaryElementwiseOp):
    name = "hip.miopen.erf"
    FORMULA: ClassVar[Expr] = formula.erf(X)


@elementwise_op
class SoftplusOp(UnaryElementwiseOp):
    name = "hip.miopen.softplus"
    FORMULA: ClassVar[Expr] = _softplus(X)


@elementwise_op
class SoftsignOp(UnaryElementwiseOp):
    name = "hip.miopen.softsign"
    FORMULA: ClassVar[Expr] = X / (1.0 + formula.abs_(X))
    KINDS: ClassVar[str] = formula.FLOAT


@elementwise_op
class EluOp(UnaryElementwiseOp):
    name = "hip.miopen.elu"
    FORMULA: ClassVar[Expr] = formula.select(
        formula.lt(X, 0.0), Param("alpha") * (formula.exp(X) - 1.0), X
    )


@elementwise_op
class SeluOp(UnaryElementwiseOp):
    name = "hip.miopen.selu"
    FORMULA: ClassVar[Expr] = Param("gamma") * formula.select(
        formula.le(X, 0.0), Param("alpha") * formula.exp(X) - Param("alpha"), X
    )


@elementwise_op
class CeluOp(UnaryElementwiseOp):
    name = "hip.miopen.celu"
    FORMULA: ClassVar[Expr] = formula.relu(X) + formula.minimum(
        0.0, Param("alpha") * (formula.exp(X / Param("alpha")) - 1.0)
    )


@elementwise_op
class MishOp(UnaryElementwiseOp):
    name = "hip.miopen.mish"
    FORMULA: ClassVar[Expr] = X * formula.tanh(_softplus(X))


@elementwise_op
class LeakyReluOp(UnaryElementwiseOp):
    name = "hip.miopen.leaky_relu"
    FORMULA: ClassVar[Expr] = formula.select(formula.lt(X, 0.0), Param("alpha") * X, X)


@elementwise_op
class HardSigmoidOp(UnaryElementwiseOp):
    name = "hip.miopen.hard_sigmoid"
    FORMULA: ClassVar[Expr] = formula.maximum(
        0.0, formula.minimum(1.0, Param("alpha") * X + Param("beta"))
    )


@elementwise_op
class HardSwishOp(UnaryElementwiseOp):
    name = "hip.miopen.hard_swish"
    FORMULA: ClassVar[Expr] = X * formula.maximum(
        0.0, formula.minimum(1.0, X * (1.0 / 6.0) + 0.5)
    )


@elementwise_op
class ThresholdedReluOp(UnaryElementwiseOp):
    name = "hip.miopen.thresholded_relu"
    FORMULA: ClassVar[Expr] = formula.select(formula.gt(X, Param("alpha")), X, 0.0)


@elementwise_op
class PReluOp(BinaryElementwiseOp):
    """ONNX PRelu: `x < 0 ? slope * x : x`, the slope broadcast."""

    name = "hip.miopen.prelu"
    FORMULA: ClassVar[Expr] = formula.select(formula.lt(X, 0.0), Y * X, X)


# Unary math.


@elementwise_op
class LogOp(UnaryElementwiseOp):
    name = "hip.miopen.log"
    FORMULA: ClassVar[Expr] = formula.log(X)


@elementwise_op
class ReciprocalOp(UnaryElementwiseOp):
    name = "hip.miopen.reciprocal"
    FORMULA: ClassVar[Expr] = 1.0 / X
    KINDS: ClassVar[str] = formula.FLOAT


@elementwise_op
class FloorOp(UnaryElementwiseOp):
    name = "hip.miopen.floor"
    FORMULA: ClassVar[Expr] = formula.floor(X)


@elementwise_op
class CeilOp(UnaryElementwiseOp):
    name = "hip.miopen.ceil"
    FORMULA: ClassVar[Expr] = formula.ceil(X)


@elementwise_op
class RoundOp(UnaryElementwiseOp):
    """Half to even, as ONNX Round."""

    name = "hip.miopen.round"
    FORMULA: ClassVar[Expr] = formula.round_(X)


@elementwise_op
class SinOp(UnaryElementwiseOp):
    name = "hip.miopen.sin"
    FORMULA: ClassVar[Expr] = formula.sin(X)


@elementwise_op
class CosOp(UnaryElementwiseOp):
    name = "hip.miopen.cos"
    FORMULA: ClassVar[Expr] = formula.cos(X)


@elementwise_op
class SignOp(UnaryElementwiseOp):
    name = "hip.miopen.sign"
    FORMULA: ClassVar[Expr] = formula.sign(X)


@elementwise_op
class DivByOp(UnaryElementwiseOp):
    """`x / divisor`: ONNX Mean is a chain of adds, then this."""

    name = "hip.miopen.div_by"
    FORMULA: ClassVar[Expr] = X / Param("divisor")


# Binary math: the variadic Max, Min (and Clip) are chains of these.


@elementwise_op
class MaxOp(BinaryElementwiseOp):
    """NaN-propagating, as numpy's `maximum`."""

    name = "hip.miopen.max"
    FORMULA: ClassVar[Expr] = formula.maximum(X, Y)


@elementwise_op
class MinOp(BinaryElementwiseOp):
    name = "hip.miopen.min"
    FORMULA: ClassVar[Expr] = formula.minimum(X, Y)


@elementwise_op
class ModOp(BinaryElementwiseOp):
    """ONNX Mod, `fmod = 0`: the sign of the divisor, as Python's `%`."""

    name = "hip.miopen.mod"
    FORMULA: ClassVar[Expr] = formula.mod(X, Y)


@elementwise_op
class FmodOp(BinaryElementwiseOp):
    """ONNX Mod, `fmod = 1`: the sign of the dividend, as C's `fmod` and `%`."""

    name = "hip.miopen.fmod"
    FORMULA: ClassVar[Expr] = formula.fmod(X, Y)


# Comparisons and logic: bool results.


@elementwise_op
class EqualOp(BinaryElementwiseOp):
    name = "hip.miopen.equal"
    FORMULA: ClassVar[Expr] = formula.eq(X, Y)


@elementwise_op
class LessOp(BinaryElementwiseOp):
    name = "hip.miopen.less"
    FORMULA: ClassVar[Expr] = formula.lt(X, Y)


@elementwise_op
class LessOrEqualOp(BinaryElementwiseOp):
    name = "hip.miopen.less_or_equal"
    FORMULA: ClassVar[Expr] = formula.le(X, Y)


@elementwise_op
class GreaterOp(BinaryElementwiseOp):
    name = "hip.miopen.greater"
    FORMULA: ClassVar[Expr] = formula.gt(X, Y)


@elementwise_op
class GreaterOrEqualOp(BinaryElementwiseOp):
    name = "hip.miopen.greater_or_equal"
    FORMULA: ClassVar[Expr] = formula.ge(X, Y)


@elementwise_op
class NotOp(UnaryElementwiseOp):
    name = "hip.miopen.not"
    FORMULA: ClassVar[Expr] = formula.not_(X)


@elementwise_op
class AndOp(BinaryElementwiseOp):
    name = "hip.miopen.and"
    FORMULA: ClassVar[Expr] = formula.and_(X, Y)


@elementwise_op
class OrOp(BinaryElementwiseOp):
    name = "hip.miopen.or"
    FORMULA: ClassVar[Expr] = formula.or_(X, Y)


@elementwise_op
class XorOp(BinaryElementwiseOp):
    name = "hip.miopen.xor"
    FORMULA: ClassVar[Expr] = formula.xor(X, Y)


@elementwise_op
class IsNaNOp(UnaryElementwiseOp):
    name = "hip.miopen.isnan"
    FORMULA: ClassVar[Expr] = formula.isnan(X)


@elementwise_op
class IsInfOp(UnaryElementwiseOp):
    """ONNX IsInf; `detect_positive`, `detect_negative` are 0.0 or 1.0."""

    name = "hip.miopen.isinf"
    FORMULA: ClassVar[Expr] = formula.and_(
        formula.isinf(X),
        formula.or_(
            formula.and_(formula.gt(X, 0.0), Param("detect_positive")),
            formula.and_(formula.lt(X, 0.0), Param("detect_negative")),
        ),
    )


@elementwise_op
class WhereOp(TernaryElementwiseOp):
    """ONNX Where: `x` where the bool `condition`, else `y`, all broadcast."""

    name = "hip.miopen.where"
    FORMULA: ClassVar[Expr] = formula.select(X, Y, Z)


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


# Reductions, normalizations and the rest of the softmax family (converted by
# `onnx_to_hip/reduce.py`; kernels in `backend/kernels/reduce.h`).


def _reduced_shape(
    shape: Sequence[int], axes: Sequence[int], keepdims: bool
) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if d in axes else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in axes)


class ReduceOp(HipComputeOp, ABC):
    """`out` = a reduction of `ins[0]` over `axes` (sorted, unique, in `[0,
    rank)`; none: a copy), the reduced dims kept as size 1 under `keepdims`,
    else dropped. `kind()` names the reduction (`sum` for `reduce_sum`)."""

    RUNTIME_CALL: ClassVar[str] = "reduce"

    axes = prop_def(DenseArrayBase[I64])
    keepdims = opt_prop_def(UnitAttr)

    @classmethod
    def kind(cls) -> str:
        return cls.name.rsplit(".", 1)[-1].removeprefix("reduce_")

    def reduced_axes(self) -> tuple[int, ...]:
        return tuple(int(a) for a in self.axes.get_values())

    def runtime_attributes(self) -> dict[str, object]:
        return {"kind": self.kind(), "axes": self.reduced_axes()}

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return _reduced_shape(shapes[0], self.reduced_axes(), self.keepdims is not None)

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        axes = self.reduced_axes()
        if list(axes) != sorted(set(axes)) or any(not 0 <= a < len(src) for a in axes):
            raise VerifyException(
                f"'{self.name}' axes {list(axes)} must be sorted, unique and in "
                f"[0, {len(src)})"
            )
        want = _reduced_shape(src, axes, self.keepdims is not None)
        if len(want) != len(out) or any(map(_static_mismatch, want, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(out)} but reducing "
                f"{_fmt(src)} over {list(axes)} gives {_fmt(want)}"
            )


@irdl_op_definition
class ReduceSumOp(ReduceOp):
    name = "hip.miopen.reduce_sum"


@irdl_op_definition
class ReduceMeanOp(ReduceOp):
    name = "hip.miopen.reduce_mean"


@irdl_op_definition
class ReduceMaxOp(ReduceOp):
    name = "hip.miopen.reduce_max"


@irdl_op_definition
class ReduceMinOp(ReduceOp):
    name = "hip.miopen.reduce_min"


@irdl_op_definition
class ReduceProdOp(ReduceOp):
    name = "hip.miopen.reduce_prod"


@irdl_op_definition
class ReduceL1Op(ReduceOp):
    """Sum of absolute values (MIOpen's NORM1)."""

    name = "hip.miopen.reduce_l1"


@irdl_op_definition
class ReduceL2Op(ReduceOp):
    """Square root of the sum of squares (MIOpen's NORM2)."""

    name = "hip.miopen.reduce_l2"


@irdl_op_definition
class ReduceLogSumExpOp(ReduceOp):
    """`log(sum(exp(x)))`, computed shifted by the max; not a MIOpen mode."""

    name = "hip.reduce_log_sum_exp"


@irdl_op_definition
class ReduceSumSquareOp(ReduceOp):
    """Sum of squares; not a MIOpen mode."""

    name = "hip.reduce_sum_square"


class ArgReduceOp(HipComputeOp, ABC):
    """The index (int64 `outs`) of the largest (`argmax`) or smallest (`argmin`)
    element along `axis`, the first one unless `select_last_index`; NaN
    counts as the extreme, as in numpy."""

    RUNTIME_CALL: ClassVar[str] = "arg_reduce"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    axis = prop_def(IntegerAttr)
    keepdims = opt_prop_def(UnitAttr)
    select_last_index = opt_prop_def(UnitAttr)

    @classmethod
    def kind(cls) -> str:
        return cls.name.rsplit(".", 1)[-1].removeprefix("arg")

    def runtime_attributes(self) -> dict[str, object]:
        return {
            "kind": self.kind(),
            "axis": self.axis.value.data,
            "select_last": self.select_last_index is not None,
        }

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return _reduced_shape(
            shapes[0], (self.axis.value.data,), self.keepdims is not None
        )

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        axis = self.axis.value.data
        if not 0 <= axis < len(src):
            raise VerifyException(
                f"'{self.name}' axis {axis} is out of range for rank {len(src)}"
            )
        out_type = self.outputs[0].type
        assert AnyShapedTypeConstr.verifies(out_type)
        if out_type.get_element_type() != IntegerType(64):
            raise VerifyException(
                f"'{self.name}' outs operand 0 must have element type i64, got "
                f"{out_type.get_element_type()}"
            )
        want = _reduced_shape(src, (axis,), self.keepdims is not None)
        if len(want) != len(out) or any(map(_static_mismatch, want, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(out)} but reducing "
                f"{_fmt(src)} along {axis} gives {_fmt(want)}"
            )


@irdl_op_definition
class ArgMaxOp(ArgReduceOp):
    name = "hip.argmax"


@irdl_op_definition
class ArgMinOp(ArgReduceOp):
    name = "hip.argmin"


class _NormOp(HipComputeOp, ABC):
    """Normalizes `ins[0]` over its dims from `axis` on (in `[0, rank)`), then
    times `ins[1]` (the scale) and plus `ins[2]` (the bias) where given, each
    broadcast to those dims."""

    axis = prop_def(IntegerAttr)
    epsilon = prop_def(FloatAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {"axis": self.axis.value.data, "epsilon": self.epsilon.value.data}

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        axis = self.axis.value.data
        if not 0 <= axis < max(len(src), 1):
            raise VerifyException(
                f"'{self.name}' axis {axis} is out of range for rank {len(src)}"
            )
        if len(src) != len(out) or any(map(_static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {_fmt(src)} but outs "
                f"operand 0 has shape {_fmt(out)}"
            )
        inner = src[axis:]
        for i, value in enumerate(self.inputs[1:], 1):
            shape = shape_of(value)
            both = _broadcast(inner, shape)
            if (
                both is None
                or len(both) != len(inner)
                or any(map(_static_mismatch, both, inner))
            ):
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has shape {_fmt(shape)}, which "
                    f"does not broadcast to the normalized dims {_fmt(inner)}"
                )


@irdl_op_definition
class LayerNormOp(_NormOp):
    """ONNX LayerNormalization: `(x - mean) / sqrt(var + epsilon) * scale +
    bias`, `ins` (x, scale[, bias]); `outs` (y[, mean, inv_std_dev]): the
    statistics of each normalized group, with the normalized dims as size 1."""

    name = "hip.miopen.layer_norm"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (2, 3)
    NUM_OUTPUTS: ClassVar[tuple[int, int]] = (1, 3)
    RUNTIME_CALL: ClassVar[str] = "layer_norm"

    def verify_shapes(self) -> None:
        super().verify_shapes()
        if len(self.outputs) == 2:
            raise VerifyException(
                f"'{self.name}' takes 1 outs operand or 3 (y, mean, inv_std_dev), got 2"
            )
        src = shape_of(self.inputs[0])
        axis = self.axis.value.data
        want = (*src[:axis], *(1 for _ in src[axis:]))
        for i, value in enumerate(self.outputs[1:], 1):
            shape = shape_of(value)
            if len(shape) != len(want) or any(map(_static_mismatch, want, shape)):
                raise VerifyException(
                    f"'{self.name}' outs operand {i} has shape {_fmt(shape)}, "
                    f"expected {_fmt(want)}"
                )


@irdl_op_definition
class RmsNormOp(_NormOp):
    """ONNX RMSNormalization: `x / sqrt(mean(x^2) + epsilon) * scale`."""

    name = "hip.rms_norm"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (2, 2)
    RUNTIME_CALL: ClassVar[str] = "rms_norm"


class _AxisOp(_SameShapeOp, ABC):
    """Same shape in and out, computed along `axis` (in `[0, rank)`)."""

    axis = prop_def(IntegerAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {"axis": self.axis.value.data}

    def verify_shapes(self) -> None:
        super().verify_shapes()
        rank = len(shape_of(self.inputs[0]))
        if not 0 <= self.axis.value.data < max(rank, 1):
            raise VerifyException(
                f"'{self.name}' axis {self.axis.value.data} is out of range for "
                f"rank {rank}"
            )


@irdl_op_definition
class LogSoftmaxOp(_AxisOp):
    """`x - max - log(sum(exp(x - max)))` along `axis` (MIOpen's LOG mode)."""

    name = "hip.miopen.log_softmax"
    RUNTIME_CALL: ClassVar[str] = "log_softmax"


@irdl_op_definition
class HardmaxOp(_AxisOp):
    """1 at the first largest element along `axis`, 0 elsewhere."""

    name = "hip.hardmax"
    RUNTIME_CALL: ClassVar[str] = "hardmax"


@irdl_op_definition
class FillOp(HipComputeOp):
    """Every element of `outs` set to `value`; no `ins` (Dropout's mask)."""

    name = "hip.fill"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (0, 0)
    RUNTIME_CALL: ClassVar[str] = "fill"

    value = prop_def(base(IntegerAttr) | base(FloatAttr))

    def runtime_attributes(self) -> dict[str, object]:
        return {"value": self.value.value.data}


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


# Convolution and pooling (converted by `onnx_to_hip/conv.py`; kernels in
# `backend/kernels/conv.h`). Layout NC(D)HW: dims 0 and 1 are batch and
# channels, the rest spatial; `pads` are all begins, then all ends.


def window_output_size(
    size: int,
    kernel: int,
    stride: int,
    dilation: int,
    pad_begin: int,
    pad_end: int,
    ceil_mode: bool = False,
) -> int:
    """The output size of a sliding window along one dim (ONNX's formula; under
    `ceil_mode` the last window must start inside the input or its begin pad)."""
    if DYNAMIC_INDEX in (size, kernel):
        return DYNAMIC_INDEX
    span = size + pad_begin + pad_end - dilation * (kernel - 1) - 1
    if not ceil_mode:
        return span // stride + 1
    out = -(-span // stride) + 1
    if (out - 1) * stride >= size + pad_begin:
        out -= 1
    return out


class _WindowOp(HipComputeOp, ABC):
    """An op sliding a window over the spatial dims of `ins[0]`."""

    strides = prop_def(DenseArrayBase[I64])
    dilations = prop_def(DenseArrayBase[I64])
    pads = prop_def(DenseArrayBase[I64])

    def _ints(self, attr: DenseArrayBase[I64] | None) -> tuple[int, ...]:
        return () if attr is None else tuple(int(v) for v in attr.get_values())

    def window_attributes(self) -> dict[str, tuple[int, ...]]:
        return {
            "strides": self._ints(self.strides),
            "dilations": self._ints(self.dilations),
            "pads": self._ints(self.pads),
        }

    def kernel_of(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        raise NotImplementedError

    def uses_ceil_mode(self) -> bool:
        return False

    def spatial_output(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        """The output's spatial sizes for these `ins` shapes."""
        x = shapes[0]
        a = self.window_attributes()
        rank = len(x) - 2
        kernel = self.kernel_of(*shapes)
        return tuple(
            window_output_size(
                x[2 + d],
                kernel[d],
                a["strides"][d],
                a["dilations"][d],
                a["pads"][d],
                a["pads"][rank + d],
                self.uses_ceil_mode(),
            )
            for d in range(rank)
        )

    def verify_window(self) -> None:
        x = shape_of(self.inputs[0])
        rank = len(x) - 2
        if rank < 1:
            raise VerifyException(
                f"'{self.name}' ins operand 0 must have rank >= 3 (N, C, spatial), "
                f"got {_fmt(x)}"
            )
        a = self.window_attributes()
        for key, count in (("strides", rank), ("dilations", rank), ("pads", 2 * rank)):
            values = a[key]
            if len(values) != count or any(
                v < (0 if key == "pads" else 1) for v in values
            ):
                raise VerifyException(
                    f"'{self.name}' {key} {list(values)} must be {count} "
                    f"{'non-negative' if key == 'pads' else 'positive'} integers"
                )


@irdl_op_definition
class ConvOp(_WindowOp):
    """ONNX Conv: `ins` (x (N, C, s...), w (M, C/group, k...)[, bias (M)]),
    `outs` (y (N, M, o...), workspace): the workspace is the im2col matrix of
    one image, 1-D, `C * prod(k) * prod(o)` elements, or 0 where the matrix is
    the image itself (a 1x1 kernel, unit strides, no pads). The conversion
    sizes it, so the memory planner owns it; the runtime allocates nothing."""

    name = "hip.miopen.conv"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (2, 3)
    NUM_OUTPUTS: ClassVar[tuple[int, int]] = (2, 2)
    RUNTIME_CALL: ClassVar[str] = "conv"

    group = prop_def(IntegerAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {**self.window_attributes(), "group": self.group.value.data}

    def kernel_of(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        return shapes[1][2:]

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return (shapes[0][0], shapes[1][0], *self.spatial_output(*shapes))

    def workspace_size(self, *shapes: tuple[int, ...]) -> int:
        """Elements of the workspace for these `ins` shapes (DYNAMIC_INDEX if
        unknown)."""
        x, w = shapes[0], shapes[1]
        a = self.window_attributes()
        if (
            all(k == 1 for k in w[2:])
            and all(s == 1 for s in a["strides"])
            and not any(a["pads"])
        ):
            return 0
        sizes = (x[1], *w[2:], *self.spatial_output(*shapes))
        return DYNAMIC_INDEX if DYNAMIC_INDEX in sizes else math.prod(sizes)

    def verify_shapes(self) -> None:
        self.verify_window()
        x, w = shape_of(self.inputs[0]), shape_of(self.inputs[1])
        group = self.group.value.data
        if len(w) != len(x):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the weight) has rank {len(w)}, but "
                f"the input has rank {len(x)}"
            )
        if group < 1 or _static_mismatch(
            x[1], DYNAMIC_INDEX if w[1] < 0 else w[1] * group
        ):
            raise VerifyException(
                f"'{self.name}' the input has {x[1]} channels, but the weight "
                f"({_fmt(w)}) with group {group} takes {w[1]} per group"
            )
        if w[0] != DYNAMIC_INDEX and w[0] % group:
            raise VerifyException(
                f"'{self.name}' {w[0]} output channels do not split into {group} groups"
            )
        if len(self.inputs) == 3:
            b = shape_of(self.inputs[2])
            if len(b) != 1 or _static_mismatch(b[0], w[0]):
                raise VerifyException(
                    f"'{self.name}' ins operand 2 (the bias) has shape {_fmt(b)}, "
                    f"expected {w[0]}"
                )
        shapes = (x, w)
        want = self.result_shape(*shapes)
        out = shape_of(self.outputs[0])
        assert want is not None
        if len(out) != len(want) or any(map(_static_mismatch, want, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(out)}, but the "
                f"convolution gives {_fmt(want)}"
            )
        ws = shape_of(self.outputs[1])
        size = self.workspace_size(*shapes)
        if len(ws) != 1 or _static_mismatch(ws[0], size):
            raise VerifyException(
                f"'{self.name}' outs operand 1 (the workspace) has shape "
                f"{_fmt(ws)}, expected {'?' if size < 0 else size} elements"
            )


class PoolOp(_WindowOp, ABC):
    """ONNX MaxPool and AveragePool, and their Global forms: `kernel_shape`
    absent means the whole spatial extent of the input (strides 1, no pads).
    `ceil_mode` only decides the output size, which `outs` carries."""

    RUNTIME_CALL: ClassVar[str] = "pool"

    kernel_shape = opt_prop_def(DenseArrayBase[I64])
    ceil_mode = opt_prop_def(UnitAttr)

    @classmethod
    def kind(cls) -> str:
        return cls.name.rsplit(".", 1)[-1].removesuffix("_pool")

    def kernel_of(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        if self.kernel_shape is None:
            return shapes[0][2:]
        return self._ints(self.kernel_shape)

    def uses_ceil_mode(self) -> bool:
        return self.ceil_mode is not None

    def runtime_attributes(self) -> dict[str, object]:
        kernel = None if self.kernel_shape is None else self._ints(self.kernel_shape)
        return {"kind": self.kind(), "kernel": kernel, **self.window_attributes()}

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return (*shapes[0][:2], *self.spatial_output(*shapes))

    def verify_shapes(self) -> None:
        self.verify_window()
        x = shape_of(self.inputs[0])
        kernel = self.kernel_of(x)
        if len(kernel) != len(x) - 2 or any(0 <= k < 1 for k in kernel):
            raise VerifyException(
                f"'{self.name}' kernel_shape {list(kernel)} must be {len(x) - 2} "
                "positive integers"
            )
        want = self.result_shape(x)
        assert want is not None
        for i, value in enumerate(self.outputs):
            out = shape_of(value)
            if len(out) != len(want) or any(map(_static_mismatch, want, out)):
                raise VerifyException(
                    f"'{self.name}' outs operand {i} has shape {_fmt(out)}, but "
                    f"pooling {_fmt(x)} gives {_fmt(want)}"
                )


@irdl_op_definition
class MaxPoolOp(PoolOp):
    """`outs` (y[, indices]): indices (i64) are flat indices into `ins[0]`,
    row-major, or with the spatial dims column-major under `storage_order`;
    padding never wins."""

    name = "hip.miopen.max_pool"
    NUM_OUTPUTS: ClassVar[tuple[int, int]] = (1, 2)

    storage_order = opt_prop_def(UnitAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {
            **super().runtime_attributes(),
            "column_major": self.storage_order is not None,
        }

    def verify_shapes(self) -> None:
        if len(self.outputs) == 2:
            indices = self.outputs[1].type
            assert AnyShapedTypeConstr.verifies(indices)
            if indices.get_element_type() != IntegerType(64):
                raise VerifyException(
                    f"'{self.name}' outs operand 1 (the indices) must have element "
                    f"type i64, got {indices.get_element_type()}"
                )
        super().verify_shapes()


@irdl_op_definition
class AveragePoolOp(PoolOp):
    """The mean of each window: over its elements inside the input, or with
    `count_include_pad` over those inside the padded input (the part a
    `ceil_mode` window hangs past the end pad never counts)."""

    name = "hip.miopen.average_pool"

    count_include_pad = opt_prop_def(UnitAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {
            **super().runtime_attributes(),
            "count_include_pad": self.count_include_pad is not None,
        }


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
