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
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

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
    StringAttr,
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


def _index_group(
    cls: type[HipDPSOp], index: Sequence[SSAValue | Operation]
) -> list[Any]:
    """The index operands as IRDL wants them: one operand each, or one
    variadic group when the op takes any number."""
    return [list(index)] if cls.NUM_INDEX_OPERANDS is None else list(index)


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

    NUM_INDEX_OPERANDS: ClassVar[int | None] = 0
    """How many index operands follow the context; None: any number (an op
    whose sizes or offsets depend on the rank, e.g. `hip.slice`'s starts)."""
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
            operands=[ctx, *_index_group(type(self), index_operands), inputs, outputs],
            result_types=[result_types],
            properties=properties or {},
            attributes=attributes or {},
        )

    @property
    def index_operands(self) -> Sequence[SSAValue]:
        if self.NUM_INDEX_OPERANDS is None:
            return self.operands[
                1 : len(self.operands) - len(self.inputs) - len(self.outputs)
            ]
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
        if (
            cls.NUM_INDEX_OPERANDS is not None
            and len(head) != 1 + cls.NUM_INDEX_OPERANDS
        ):
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
                *_index_group(cls, index),
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


class HipIndexedComputeOp(HipDPSOp, ABC):
    """A compute op with any number of index operands after the context: run-time
    offsets or sizes, one per dim (`hip.slice`'s starts). They are passed to
    the runtime method first, as ints."""

    NUM_INDEX_OPERANDS: ClassVar[int | None] = None

    ctx = operand_def(ContextType)
    indices = var_operand_def(IndexType)
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
    NUM_INDEX_OPERANDS: ClassVar[int | None] = 2
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


# Gathers (converted by `onnx_to_hip/gather.py`; kernel in
# `backend/kernels/gather.h`): `ins` (data, indices), indices i32 or i64,
# negative ones counted from the end; `outs` of data's element type.


class _GatherOp(HipComputeOp, ABC):
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (2, 2)
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    def gathered_shape(
        self, data: Sequence[int], indices: Sequence[int]
    ) -> tuple[int, ...] | None:
        """The shape of `outs` for these shapes; None if they do not fit."""
        raise NotImplementedError

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return self.gathered_shape(shapes[0], shapes[1])

    def verify_element_types(self) -> None:
        data, indices = self.inputs[0].type, self.inputs[1].type
        out = self.outputs[0].type
        assert AnyShapedTypeConstr.verifies(data)
        assert AnyShapedTypeConstr.verifies(indices)
        assert AnyShapedTypeConstr.verifies(out)
        if indices.get_element_type() not in (IntegerType(32), IntegerType(64)):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the indices) must have element type "
                f"i32 or i64, got {indices.get_element_type()}"
            )
        if data.get_element_type() != out.get_element_type():
            raise VerifyException(
                f"'{self.name}' ins operand 0 has element type "
                f"{data.get_element_type()} but outs operand 0 has "
                f"{out.get_element_type()}"
            )

    def verify_shapes(self) -> None:
        data, indices = shape_of(self.inputs[0]), shape_of(self.inputs[1])
        out = shape_of(self.outputs[0])
        want = self.gathered_shape(data, indices)
        if want is None:
            raise VerifyException(
                f"'{self.name}' cannot gather from data of shape {_fmt(data)} with "
                f"indices of shape {_fmt(indices)} ({self._what()})"
            )
        if len(want) != len(out) or any(map(_static_mismatch, want, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(out)} but data "
                f"{_fmt(data)} and indices {_fmt(indices)} give {_fmt(want)}"
            )

    def _what(self) -> str:
        return ""


class _AxisGatherOp(_GatherOp, ABC):
    axis = prop_def(IntegerAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {"axis": self.axis.value.data}

    def _what(self) -> str:
        return f"axis {self.axis.value.data}"


@irdl_op_definition
class GatherOp(_AxisGatherOp):
    """ONNX Gather: `out` is `data[:axis] + indices + data[axis+1:]`, each
    index (in `[-n, n)`, n = data's size along `axis`, in `[0, rank)`)
    picking a slice along `axis`."""

    name = "hip.gather"
    RUNTIME_CALL: ClassVar[str] = "gather"

    def gathered_shape(
        self, data: Sequence[int], indices: Sequence[int]
    ) -> tuple[int, ...] | None:
        axis = self.axis.value.data
        if not 0 <= axis < len(data):
            return None
        return (*data[:axis], *indices, *data[axis + 1 :])


@irdl_op_definition
class GatherElementsOp(_AxisGatherOp):
    """ONNX GatherElements: `out[i] = data[i with i[axis] = indices[i]]`;
    indices of data's rank, no larger than data off the axis; `out` has
    their shape."""

    name = "hip.gather_elements"
    RUNTIME_CALL: ClassVar[str] = "gather_elements"

    def gathered_shape(
        self, data: Sequence[int], indices: Sequence[int]
    ) -> tuple[int, ...] | None:
        axis = self.axis.value.data
        if not 0 <= axis < len(data) or len(indices) != len(data):
            return None
        for d, (n, m) in enumerate(zip(data, indices)):
            if d != axis and DYNAMIC_INDEX not in (n, m) and m > n:
                return None
        return tuple(indices)


@irdl_op_definition
class GatherNDOp(_GatherOp):
    """ONNX GatherND: the last dim of `indices` (static, k) holds index tuples
    into data's dims `batch_dims .. batch_dims + k`; the leading `batch_dims`
    dims are shared. `out` is `indices[:-1] + data[batch_dims + k:]`."""

    name = "hip.gather_nd"
    RUNTIME_CALL: ClassVar[str] = "gather_nd"

    batch_dims = opt_prop_def(IntegerAttr)

    def batch(self) -> int:
        return 0 if self.batch_dims is None else self.batch_dims.value.data

    def runtime_attributes(self) -> dict[str, object]:
        return {"batch_dims": self.batch()}

    def _what(self) -> str:
        return f"batch_dims {self.batch()}"

    def gathered_shape(
        self, data: Sequence[int], indices: Sequence[int]
    ) -> tuple[int, ...] | None:
        b = self.batch()
        if not indices or indices[-1] == DYNAMIC_INDEX:
            return None
        k = indices[-1]
        if b < 0 or b >= min(len(data), len(indices)) or b + k > len(data):
            return None
        if any(map(_static_mismatch, data[:b], indices[:b])):
            return None
        return (*indices[:-1], *data[b + k :])


# Slicing and broadcasting copies (converted by `onnx_to_hip/slice.py`;
# kernels in `backend/kernels/movement.h`).


@irdl_op_definition
class SliceOp(HipIndexedComputeOp):
    """A strided slice: `out[i] = in[start + i * step]` in each dim. The index
    operands are the starts, one per dim (in `[0, size)` wherever `out` is not
    empty), `steps` the steps (non-zero, negative backwards); `out`'s shape is
    the count taken in each dim (ONNX Slice, Split)."""

    name = "hip.slice"
    RUNTIME_CALL: ClassVar[str] = "slice"

    steps = prop_def(DenseArrayBase[I64])

    def step_values(self) -> tuple[int, ...]:
        return tuple(int(s) for s in self.steps.get_values())

    def runtime_attributes(self) -> dict[str, object]:
        return {"steps": self.step_values()}

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        steps = self.step_values()
        if not len(src) == len(out) == len(steps) == len(self.index_operands):
            raise VerifyException(
                f"'{self.name}' needs one start and one step per dim: ins operand "
                f"0 has rank {len(src)}, outs operand 0 rank {len(out)}, with "
                f"{len(self.index_operands)} starts and {len(steps)} steps"
            )
        for d, (n, m, step) in enumerate(zip(src, out, steps)):
            if step == 0:
                raise VerifyException(f"'{self.name}' step of dim {d} is 0")
            if n != DYNAMIC_INDEX and m != DYNAMIC_INDEX and m > -(-n // abs(step)):
                raise VerifyException(
                    f"'{self.name}' outs operand 0 has size {m} in dim {d}, more "
                    f"than {n} elements by steps of {step} hold"
                )


@irdl_op_definition
class TileOp(HipComputeOp):
    """ONNX Tile: `out[i] = in[i mod in.shape]` in each dim; each dim of `out`
    is a multiple of `in`'s (the repeats are in the shapes)."""

    name = "hip.tile"
    RUNTIME_CALL: ClassVar[str] = "tile"

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) != len(out):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has rank {len(src)} but outs operand "
                f"0 has rank {len(out)}"
            )
        for d, (n, m) in enumerate(zip(src, out)):
            if DYNAMIC_INDEX in (n, m):
                continue
            if (m % n if n else m) != 0:
                raise VerifyException(
                    f"'{self.name}' outs operand 0 has size {m} in dim {d}, not a "
                    f"multiple of ins operand 0's {n}"
                )


@irdl_op_definition
class ExpandOp(HipComputeOp):
    """ONNX Expand: `in` broadcast to `out`'s shape as numpy does (`in`'s dims
    right-aligned, each 1 or `out`'s size)."""

    name = "hip.expand"
    RUNTIME_CALL: ClassVar[str] = "expand"

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        lead = len(out) - len(src)
        if lead < 0 or any(
            n != 1 and _static_mismatch(n, out[lead + d]) for d, n in enumerate(src)
        ):
            raise VerifyException(
                f"'{self.name}' ins operand 0 of shape {_fmt(src)} does not "
                f"broadcast to outs operand 0 of shape {_fmt(out)}"
            )


# Attention and rotary embeddings (converted by `onnx_to_hip/attention.py`;
# CPU in `backend/cpu_attention.py`, kernels in `backend/kernels/attention.h`).

ATTENTION_STAGES = ("scaled", "softcapped", "biased", "softmax")
"""What `hip.attention_softmax` writes, by its `stage`: ONNX Attention's
`qk_matmul_output_mode` 0 to 3."""


@irdl_op_definition
class AttentionSoftmaxOp(HipIndexedComputeOp):
    """ONNX Attention between its two matmuls, on scores (B, H, S, T): times
    `scale`, then `softcap * tanh(x / softcap)` (if `softcap`), plus the bias,
    then softmax along T. The bias is the mask (ins[1] if not i64: a bool one
    gives 0 where true and -inf where false, a float one is added; broadcast
    to (B, H, S, T') with T' <= T, the keys past T' masked), the causal
    frontier (`is_causal`: query i sees key j iff j <= i + offset) and the
    window (`left_window`/`right_window`, -1 unbounded, about i + offset),
    and `nonpad` (the i64 (B,) ins: key j of batch b masked from nonpad[b]
    on). offset is the one index operand (the cached keys) or, given
    nonpad, nonpad[b] - S. A row whose whole bias is -inf gives zeros.
    `stage` stops early (`ATTENTION_STAGES`). It computes in the element
    type, float16 in float32 under `wide` (`softmax_precision`)."""

    name = "hip.attention_softmax"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (1, 3)
    RUNTIME_CALL: ClassVar[str] = "attention_softmax"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False
    IN_PLACE: ClassVar[bool] = True

    scale = prop_def(FloatAttr)
    softcap = opt_prop_def(FloatAttr)
    is_causal = opt_prop_def(UnitAttr)
    left_window = opt_prop_def(IntegerAttr)
    right_window = opt_prop_def(IntegerAttr)
    stage = opt_prop_def(IntegerAttr)
    wide = opt_prop_def(UnitAttr)

    def mask(self) -> SSAValue | None:
        return next((v for v in self.inputs[1:] if not _is_i64(v)), None)

    def nonpad(self) -> SSAValue | None:
        return next((v for v in self.inputs[1:] if _is_i64(v)), None)

    def stage_index(self) -> int:
        if self.stage is None:
            return len(ATTENTION_STAGES) - 1
        return self.stage.value.data

    def runtime_attributes(self) -> dict[str, object]:
        return {
            "scale": self.scale.value.data,
            "softcap": 0.0 if self.softcap is None else self.softcap.value.data,
            "causal": self.is_causal is not None,
            "left_window": (
                -1 if self.left_window is None else self.left_window.value.data
            ),
            "right_window": (
                -1 if self.right_window is None else self.right_window.value.data
            ),
            "stage": ATTENTION_STAGES[self.stage_index()],
            "wide": self.wide is not None,
        }

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_element_types(self) -> None:
        out = self.outputs[0].type
        assert AnyShapedTypeConstr.verifies(out)
        elt = out.get_element_type()
        types = [_attention_element(v) for v in self.inputs]
        if types[0] != elt:
            raise VerifyException(
                f"'{self.name}' ins operand 0 has element type {types[0]} but outs "
                f"operand 0 has {elt}"
            )
        masks = [t for t in types[1:] if t != IntegerType(64)]
        if len(masks) > 1 or len(types) - 1 - len(masks) > 1:
            raise VerifyException(
                f"'{self.name}' takes at most one mask and one i64 nonpad operand"
            )
        if masks and masks[0] not in (IntegerType(1), elt):
            raise VerifyException(
                f"'{self.name}' mask has element type {masks[0]}; i1 or {elt} is needed"
            )

    def verify_shapes(self) -> None:
        if len(self.index_operands) != 1:
            raise VerifyException(
                f"'{self.name}' expects one index operand (the cached keys), got "
                f"{len(self.index_operands)}"
            )
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) != 4 or len(out) != 4 or any(map(_static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 ({_fmt(src)}) and outs operand 0 "
                f"({_fmt(out)}) must be the same 4-D shape"
            )
        mask, nonpad = self.mask(), self.nonpad()
        if mask is not None:
            shape = shape_of(mask)
            head = _broadcast(src[:-1], shape[:-1])
            if not 1 <= len(shape) <= 4 or head is None or len(head) != 3:
                raise VerifyException(
                    f"'{self.name}' mask shape {_fmt(shape)} does not broadcast to "
                    f"{_fmt(src)}"
                )
        if nonpad is not None and len(shape_of(nonpad)) != 1:
            raise VerifyException(f"'{self.name}' nonpad must be 1-D")
        if not 0 <= self.stage_index() < len(ATTENTION_STAGES):
            raise VerifyException(f"'{self.name}' stage must be 0 to 3")


@irdl_op_definition
class RotaryEmbeddingOp(HipComputeOp):
    """ONNX RotaryEmbedding: `ins` (x, cos, sin[, position_ids (B, S) i64]),
    x (B, H, S, D) or, with `num_heads`, (B, S, H * D); cos and sin (B, S,
    R / 2), or (P, R / 2) indexed by position_ids. The first `rotary_dim`
    (R) of each head's D rotate, pairs (k, k + R / 2), or (2k, 2k + 1)
    `interleaved`; the rest are copied."""

    name = "hip.rotary_embedding"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (3, 4)
    RUNTIME_CALL: ClassVar[str] = "rotary_embedding"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    interleaved = opt_prop_def(UnitAttr)
    rotary_dim = prop_def(IntegerAttr)
    num_heads = opt_prop_def(IntegerAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {
            "interleaved": self.interleaved is not None,
            "rotary_dim": self.rotary_dim.value.data,
            "num_heads": 0 if self.num_heads is None else self.num_heads.value.data,
        }

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_element_types(self) -> None:
        elt = _attention_element(self.outputs[0])
        for i, value in enumerate(self.inputs[:3]):
            if _attention_element(value) != elt:
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has element type "
                    f"{_attention_element(value)} but outs operand 0 has {elt}"
                )
        if len(self.inputs) == 4 and _attention_element(self.inputs[3]) != IntegerType(
            64
        ):
            raise VerifyException(f"'{self.name}' position_ids must be i64")

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if (
            len(src) not in (3, 4)
            or len(src) != len(out)
            or any(map(_static_mismatch, src, out))
        ):
            raise VerifyException(
                f"'{self.name}' ins operand 0 ({_fmt(src)}) and outs operand 0 "
                f"({_fmt(out)}) must be the same 3-D or 4-D shape"
            )
        if len(src) == 3 and (self.num_heads is None or self.num_heads.value.data < 1):
            raise VerifyException(f"'{self.name}' a 3-D input needs num_heads")
        rotary = self.rotary_dim.value.data
        if rotary < 2 or rotary % 2:
            raise VerifyException(f"'{self.name}' rotary_dim must be even and >= 2")
        want = 2 if len(self.inputs) == 4 else 3
        for i in (1, 2):
            shape = shape_of(self.inputs[i])
            if len(shape) != want or _static_mismatch(shape[-1], rotary // 2):
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has shape {_fmt(shape)}; "
                    f"{want}-D with last dim {rotary // 2} is needed"
                )


def _attention_element(value: SSAValue) -> Attribute:
    shaped = value.type
    assert AnyShapedTypeConstr.verifies(shaped)
    return shaped.get_element_type()


def _is_i64(value: SSAValue) -> bool:
    return _attention_element(value) == IntegerType(64)


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


@irdl_op_definition
class TopKOp(HipComputeOp):
    """ONNX TopK: the `k` largest (or, under `smallest`, smallest) elements of
    `ins[0]` along `axis` (in `[0, rank)`), `k` being the size of `outs` there;
    `outs` (values, i64 indices), always sorted, ties to the lower index, NaN
    counted as larger than any number (numpy's sort order)."""

    name = "hip.topk"
    NUM_OUTPUTS: ClassVar[tuple[int, int]] = (2, 2)
    RUNTIME_CALL: ClassVar[str] = "topk"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    axis = prop_def(IntegerAttr)
    smallest = opt_prop_def(UnitAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {"axis": self.axis.value.data, "largest": self.smallest is None}

    def verify_element_types(self) -> None:
        src, values, indices = self.inputs[0].type, *(o.type for o in self.outputs)
        assert AnyShapedTypeConstr.verifies(src)
        assert AnyShapedTypeConstr.verifies(values)
        assert AnyShapedTypeConstr.verifies(indices)
        if values.get_element_type() != src.get_element_type():
            raise VerifyException(
                f"'{self.name}' outs operand 0 has element type "
                f"{values.get_element_type()} but ins operand 0 has "
                f"{src.get_element_type()}"
            )
        if indices.get_element_type() != IntegerType(64):
            raise VerifyException(
                f"'{self.name}' outs operand 1 must have element type i64, got "
                f"{indices.get_element_type()}"
            )

    def verify_shapes(self) -> None:
        src = shape_of(self.inputs[0])
        values, indices = (shape_of(o) for o in self.outputs)
        axis = self.axis.value.data
        if not 0 <= axis < len(src):
            raise VerifyException(
                f"'{self.name}' axis {axis} is out of range for rank {len(src)}"
            )
        if len(values) != len(indices) or any(map(_static_mismatch, values, indices)):
            raise VerifyException(
                f"'{self.name}' outs operands have shapes {_fmt(values)} and "
                f"{_fmt(indices)}; they must be equal"
            )
        others = [
            _static_mismatch(a, b)
            for d, (a, b) in enumerate(zip(src, values))
            if d != axis
        ]
        too_many = DYNAMIC_INDEX not in (src[axis], values[axis]) and (
            values[axis] > src[axis]
        )
        if len(values) != len(src) or any(others) or too_many:
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(values)} but ins "
                f"operand 0 has shape {_fmt(src)} (they may differ in dim {axis} "
                "only, where outs has at most as many)"
            )


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


# Padding, group normalization and LRN (converted by `onnx_to_hip/pad.py`;
# kernels in `backend/kernels/image.h`). DepthToSpace and SpaceToDepth are
# views around a `hip.permute`.

PAD_MODES = ("constant", "reflect", "edge", "wrap")
"""`hip.pad`'s modes, as ONNX Pad names them."""


def _constant_index(value: SSAValue) -> int | None:
    from xdsl.dialects.arith import ConstantOp

    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


@irdl_op_definition
class PadOp(HipIndexedComputeOp):
    """ONNX Pad: the index operands are the pads, all begins then all ends (2 *
    rank; a negative pad crops); `ins` (x[, value]): the value (one element)
    fills the `constant` mode's padding, 0 if absent. Cropping comes first,
    so `reflect` (period 2 (n - 1)), `edge` and `wrap` (period n) extend the
    cropped input."""

    name = "hip.pad"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (1, 2)
    RUNTIME_CALL: ClassVar[str] = "pad"

    mode = prop_def(StringAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {"mode": self.mode.data}

    def result_shape(self, *args: Any) -> tuple[int, ...] | None:
        pads: tuple[int, ...] = args[: len(args) - len(self.inputs)]
        x: tuple[int, ...] = args[len(pads)]
        rank = len(x)
        return tuple(x[d] + pads[d] + pads[rank + d] for d in range(rank))

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if self.mode.data not in PAD_MODES:
            raise VerifyException(
                f"'{self.name}' mode {self.mode.data!r} is not one of {list(PAD_MODES)}"
            )
        pads = self.index_operands
        if len(pads) != 2 * len(src) or len(out) != len(src):
            raise VerifyException(
                f"'{self.name}' takes 2 pads per dim of ins operand 0 "
                f"({_fmt(src)}) and outs of its rank, got {len(pads)} pads and "
                f"{_fmt(out)}"
            )
        if len(self.inputs) == 2 and any(d != 1 for d in shape_of(self.inputs[1])):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the value) must have one element, "
                f"got shape {_fmt(shape_of(self.inputs[1]))}"
            )
        rank = len(src)
        for d in range(rank):
            begin, end = _constant_index(pads[d]), _constant_index(pads[rank + d])
            if begin is None or end is None or src[d] == DYNAMIC_INDEX:
                continue
            size = src[d] + begin + end
            if size < 0 or _static_mismatch(size, out[d]):
                raise VerifyException(
                    f"'{self.name}' outs operand 0 has size {out[d]} in dim {d}, "
                    f"but padding {src[d]} by ({begin}, {end}) gives {size}"
                )


@irdl_op_definition
class GroupNormOp(HipComputeOp):
    """ONNX GroupNormalization and InstanceNormalization: `ins` (x (N, C, ...),
    scale, bias); each of the `num_groups` groups of C / num_groups channels
    of each image is normalized (`(x - mean) / sqrt(var + epsilon)`), then
    times scale plus bias, which are (C), or (num_groups) under `per_group`
    (GroupNormalization-18). No `num_groups`: one group per channel
    (InstanceNormalization, whose C may be known at run time only)."""

    name = "hip.miopen.group_norm"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (3, 3)
    RUNTIME_CALL: ClassVar[str] = "group_norm"

    num_groups = opt_prop_def(IntegerAttr)
    epsilon = prop_def(FloatAttr)
    per_group = opt_prop_def(UnitAttr)

    def groups(self) -> int | None:
        return None if self.num_groups is None else self.num_groups.value.data

    def runtime_attributes(self) -> dict[str, object]:
        return {
            "num_groups": self.groups(),
            "epsilon": self.epsilon.value.data,
            "per_group": self.per_group is not None,
        }

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) < 2 or len(src) != len(out) or any(map(_static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {_fmt(src)} but outs "
                f"operand 0 has shape {_fmt(out)} (both (N, C, ...))"
            )
        groups = self.groups()
        if groups is not None and (
            groups < 1 or (src[1] != DYNAMIC_INDEX and src[1] % groups)
        ):
            raise VerifyException(
                f"'{self.name}' {src[1]} channels do not split into {groups} groups"
            )
        if self.per_group is not None and groups is None:
            raise VerifyException(f"'{self.name}' per_group needs num_groups")
        want = groups if groups is not None and self.per_group is not None else src[1]
        for i in (1, 2):
            shape = shape_of(self.inputs[i])
            if len(shape) != 1 or _static_mismatch(shape[0], want):
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has shape {_fmt(shape)}, "
                    f"expected {_fmt((want,))}"
                )


@irdl_op_definition
class LrnOp(_SameShapeOp):
    """ONNX LRN on x (N, C, ...): `x / (bias + alpha / size * sum)^beta`, the
    sum of squares over channels `c - (size - 1) // 2` to `c + size // 2`
    (those inside [0, C))."""

    name = "hip.miopen.lrn"
    RUNTIME_CALL: ClassVar[str] = "lrn"

    size = prop_def(IntegerAttr)
    alpha = prop_def(FloatAttr)
    beta = prop_def(FloatAttr)
    bias = prop_def(FloatAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {
            "size": self.size.value.data,
            "alpha": self.alpha.value.data,
            "beta": self.beta.value.data,
            "bias": self.bias.value.data,
        }

    def verify_shapes(self) -> None:
        super().verify_shapes()
        if len(shape_of(self.inputs[0])) < 2 or self.size.value.data < 1:
            raise VerifyException(
                f"'{self.name}' needs an (N, C, ...) input and a positive size"
            )


# Scatters, Trilu, CumSum and OneHot (converted by `onnx_to_hip/scatter.py`;
# kernels in `backend/kernels/scatter.h`).

SCATTER_REDUCTIONS = ("none", "add", "mul", "max", "min")
"""ONNX's `reduction` values: how an update combines with the element it hits."""


def _element_type(value: SSAValue) -> Attribute:
    assert AnyShapedTypeConstr.verifies(value.type)
    return value.type.get_element_type()


def _is_index_type(element: Attribute, widths: tuple[int, ...]) -> bool:
    if not isinstance(element, IntegerType):
        return False
    integer = cast("IntegerType[int, Signedness]", element)
    return element_kind(integer) == "i" and integer.width.data in widths


class _ScatterOp(HipComputeOp, ABC):
    """`out` = a copy of `ins[0]` (data) with `ins[2]` (updates) written where
    `ins[1]` (indices, negative ones counted from the end) says, combined
    with what is there by `reduction` (none: replaced)."""

    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (3, 3)
    SAME_ELEMENT_TYPE: ClassVar[bool] = False
    INDEX_WIDTHS: ClassVar[tuple[int, ...]] = (32, 64)

    reduction = prop_def(StringAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {"reduction": self.reduction.data}

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_element_types(self) -> None:
        data, indices, updates = self.inputs
        want = _element_type(self.outputs[0])
        for i, value in ((0, data), (2, updates)):
            if _element_type(value) != want:
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has element type "
                    f"{_element_type(value)} but outs operand 0 has {want}"
                )
        if not _is_index_type(_element_type(indices), self.INDEX_WIDTHS):
            widths = " or ".join(f"i{w}" for w in self.INDEX_WIDTHS)
            raise VerifyException(
                f"'{self.name}' ins operand 1 (indices) must have element type "
                f"{widths}, got {_element_type(indices)}"
            )

    def verify_shapes(self) -> None:
        if self.reduction.data not in SCATTER_REDUCTIONS:
            raise VerifyException(
                f"'{self.name}' reduction '{self.reduction.data}' is not one of "
                + ", ".join(SCATTER_REDUCTIONS)
            )
        data, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(data) != len(out) or any(map(_static_mismatch, data, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {_fmt(data)} but outs "
                f"operand 0 has shape {_fmt(out)}"
            )


@irdl_op_definition
class ScatterNDOp(_ScatterOp):
    """ONNX ScatterND: each row of the last dim of indices (k of them, static)
    picks a slice `data[i0, ..., ik-1]`; updates has shape `indices.shape[:-1]
    + data.shape[k:]`."""

    name = "hip.scatter_nd"
    RUNTIME_CALL: ClassVar[str] = "scatter_nd"
    INDEX_WIDTHS: ClassVar[tuple[int, ...]] = (64,)

    def verify_shapes(self) -> None:
        super().verify_shapes()
        data, indices, updates = (shape_of(v) for v in self.inputs)
        if not indices or indices[-1] == DYNAMIC_INDEX:
            raise VerifyException(
                f"'{self.name}' ins operand 1 (indices) must have rank >= 1 and a "
                f"static last dim, got {_fmt(indices)}"
            )
        k = indices[-1]
        if k > len(data):
            raise VerifyException(
                f"'{self.name}' indices have {k} coordinates but data has rank "
                f"{len(data)}"
            )
        want = (*indices[:-1], *data[k:])
        if len(updates) != len(want) or any(map(_static_mismatch, updates, want)):
            raise VerifyException(
                f"'{self.name}' ins operand 2 (updates) has shape {_fmt(updates)}, "
                f"expected {_fmt(want)}"
            )


@irdl_op_definition
class ScatterElementsOp(_ScatterOp):
    """ONNX ScatterElements: `out[..., indices[i, j, ...], ...] = updates[i, j,
    ...]`, the index replacing the coordinate of `axis` (in `[0, rank)`);
    indices and updates have one shape, of data's rank."""

    name = "hip.scatter_elements"
    RUNTIME_CALL: ClassVar[str] = "scatter_elements"

    axis = prop_def(IntegerAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {**super().runtime_attributes(), "axis": self.axis.value.data}

    def verify_shapes(self) -> None:
        super().verify_shapes()
        data, indices, updates = (shape_of(v) for v in self.inputs)
        axis = self.axis.value.data
        if not 0 <= axis < len(data):
            raise VerifyException(
                f"'{self.name}' axis {axis} is out of range for rank {len(data)}"
            )
        if (
            len(indices) != len(data)
            or len(updates) != len(indices)
            or any(map(_static_mismatch, indices, updates))
        ):
            raise VerifyException(
                f"'{self.name}' indices ({_fmt(indices)}) and updates "
                f"({_fmt(updates)}) must have one shape, of data's rank {len(data)}"
            )


@irdl_op_definition
class TriluOp(HipIndexedComputeOp):
    """ONNX Trilu on the last two dims (batched over the others): keeps the
    elements on and above (`upper`) or below the `k`-th diagonal, the one
    index operand; zeroes the rest."""

    name = "hip.trilu"
    RUNTIME_CALL: ClassVar[str] = "trilu"

    upper = opt_prop_def(UnitAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {"upper": self.upper is not None}

    def result_shape(self, *args: Any) -> tuple[int, ...] | None:
        return args[-1]

    def verify_shapes(self) -> None:
        if len(self.index_operands) != 1:
            raise VerifyException(
                f"'{self.name}' takes one index operand (k), got "
                f"{len(self.index_operands)}"
            )
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) < 2:
            raise VerifyException(f"'{self.name}' needs rank >= 2, got {_fmt(src)}")
        if len(src) != len(out) or any(map(_static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {_fmt(src)} but outs "
                f"operand 0 has shape {_fmt(out)}"
            )


@irdl_op_definition
class CumSumOp(_SameShapeOp):
    """ONNX CumSum along `axis` (in `[0, rank)`): each element the sum of those
    before it (`exclusive`) or up to it, counted from the end under `reverse`;
    computed in the element type, one element after the other."""

    name = "hip.cumsum"
    RUNTIME_CALL: ClassVar[str] = "cumsum"

    axis = prop_def(IntegerAttr)
    exclusive = opt_prop_def(UnitAttr)
    reverse = opt_prop_def(UnitAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {
            "axis": self.axis.value.data,
            "exclusive": self.exclusive is not None,
            "reverse": self.reverse is not None,
        }

    def verify_shapes(self) -> None:
        super().verify_shapes()
        rank = len(shape_of(self.inputs[0]))
        if not 0 <= self.axis.value.data < rank:
            raise VerifyException(
                f"'{self.name}' axis {self.axis.value.data} is out of range for "
                f"rank {rank}"
            )


@irdl_op_definition
class OneHotOp(HipComputeOp):
    """ONNX OneHot: `ins` (indices, values = [off, on]); `out` has a new dim at
    `axis` (in `[0, rank of out)`) whose size is the depth; an element is `on`
    where its coordinate there equals its index (negative ones plus depth;
    float indices truncated), else `off`."""

    name = "hip.one_hot"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (2, 2)
    SAME_ELEMENT_TYPE: ClassVar[bool] = False
    RUNTIME_CALL: ClassVar[str] = "one_hot"

    axis = prop_def(IntegerAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {"axis": self.axis.value.data}

    def verify_element_types(self) -> None:
        values, want = _element_type(self.inputs[1]), _element_type(self.outputs[0])
        if values != want:
            raise VerifyException(
                f"'{self.name}' ins operand 1 (values) has element type {values} but "
                f"outs operand 0 has {want}"
            )
        if element_kind(_element_type(self.inputs[0])) not in ("f", "i", "u"):
            raise VerifyException(
                f"'{self.name}' ins operand 0 (indices) must be numeric, got "
                f"{_element_type(self.inputs[0])}"
            )

    def verify_shapes(self) -> None:
        indices, values = (shape_of(v) for v in self.inputs)
        out = shape_of(self.outputs[0])
        axis = self.axis.value.data
        if len(values) != 1 or _static_mismatch(values[0], 2):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (values) must have shape 2, got "
                f"{_fmt(values)}"
            )
        if len(out) != len(indices) + 1 or not 0 <= axis < len(out):
            raise VerifyException(
                f"'{self.name}' outs operand 0 ({_fmt(out)}) must have the rank of "
                f"the indices ({_fmt(indices)}) plus one, and axis {axis} in it"
            )
        kept = (*out[:axis], *out[axis + 1 :])
        if any(map(_static_mismatch, indices, kept)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(out)} but the "
                f"indices have {_fmt(indices)} (dim {axis} is the depth)"
            )


@irdl_op_definition
class FromElementsOp(HipIndexedComputeOp):
    """`outs` (int or bool, at most 1-D) written from host index values: a shape
    value (`onnx-fold-shapes`) that device code reads. Bools are `value != 0`."""

    name = "hip.from_elements"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (0, 0)
    RUNTIME_CALL: ClassVar[str] = "from_elements"

    def verify_shapes(self) -> None:
        out = shape_of(self.outputs[0])
        if len(out) > 1 or math.prod(out) != len(self.indices):
            raise VerifyException(
                f"'{self.name}' writes {len(self.indices)} values into {_fmt(out)}"
            )


@irdl_op_definition
class RangeOp(HipComputeOp):
    """ONNX Range: `out[i] = start + i * delta`; `ins` are the 0-D start and
    delta, the length is the size of `outs` (computed by the conversion)."""

    name = "hip.range"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (2, 2)
    RUNTIME_CALL: ClassVar[str] = "range"


class _ReadbackEffects(MemoryEffect):
    """Reads its source, and waits for every queued write to it: it cannot be
    merged with another readback or moved before the ops that write it."""

    @classmethod
    def get_effects(cls, op: Operation) -> Set[EffectInstance]:
        assert isinstance(op, ReadbackOp)
        return frozenset([EffectInstance(MemoryEffectKind.READ, op.source)])


@irdl_op_definition
class ReadbackOp(IRDLOperation):
    """The elements of a small int tensor, read back to the host as index
    values: sizes known only at run time (a shape given as a graph input, a
    Range over data). On a GPU the runtime synchronizes, then copies to the
    host; nothing folds it."""

    name = "hip.readback"

    ctx = operand_def(ContextType)
    source = operand_def(base(TensorType) | base(MemRefType))
    values = var_result_def(IndexType)

    traits = traits_def(_ReadbackEffects())

    assembly_format = (
        "`(` $ctx `)` $source attr-dict `:` type($source) `->` type($values)"
    )

    def __init__(
        self, ctx: SSAValue | Operation, source: SSAValue | Operation, count: int
    ):
        super().__init__(operands=[ctx, source], result_types=[[IndexType()] * count])

    def verify_(self) -> None:
        shape = shape_of(self.source)
        if len(shape) > 1 or math.prod(shape) != len(self.values):
            raise VerifyException(
                f"'{self.name}' reads {len(self.values)} values from {_fmt(shape)}"
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


@irdl_op_definition
class LpPoolOp(PoolOp):
    """ONNX LpPool: `(sum |x|^p)^(1/p)` over each window's elements inside
    the input (the padding adds nothing)."""

    name = "hip.miopen.lp_pool"
    RUNTIME_CALL: ClassVar[str] = "lp_pool"

    p = prop_def(IntegerAttr)

    def runtime_attributes(self) -> dict[str, object]:
        return {
            "kernel": self._ints(self.kernel_shape),
            **self.window_attributes(),
            "p": self.p.value.data,
        }


@irdl_op_definition
class ConvTransposeOp(_WindowOp):
    """ONNX ConvTranspose: `ins` (x (N, C, s...), w (C, M/group, k...)[, bias
    (M)]), `outs` (y (N, M, o...), workspace), `o = stride * (s - 1) +
    output_padding + dil * (k - 1) + 1 - pad_begin - pad_end`. The workspace
    is one image's column matrix (GEMM, then col2im), 1-D, `M * prod(k) *
    prod(s)` elements, or 0 where the GEMM writes y itself (a 1x1 kernel, unit
    strides, no pads nor output padding); the conversion sizes it."""

    name = "hip.miopen.conv_transpose"
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (2, 3)
    NUM_OUTPUTS: ClassVar[tuple[int, int]] = (2, 2)
    RUNTIME_CALL: ClassVar[str] = "conv_transpose"

    group = prop_def(IntegerAttr)
    output_padding = prop_def(DenseArrayBase[I64])

    def runtime_attributes(self) -> dict[str, object]:
        return {**self.window_attributes(), "group": self.group.value.data}

    def spatial_output(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        x, w = shapes[0], shapes[1]
        a = self.window_attributes()
        extra = self._ints(self.output_padding)
        rank = len(x) - 2
        return tuple(
            DYNAMIC_INDEX
            if DYNAMIC_INDEX in (x[2 + d], w[2 + d])
            else a["strides"][d] * (x[2 + d] - 1)
            + extra[d]
            + a["dilations"][d] * (w[2 + d] - 1)
            + 1
            - a["pads"][d]
            - a["pads"][rank + d]
            for d in range(rank)
        )

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        x, w = shapes[0], shapes[1]
        channels = DYNAMIC_INDEX if w[1] < 0 else w[1] * self.group.value.data
        return (x[0], channels, *self.spatial_output(*shapes))

    def workspace_size(self, *shapes: tuple[int, ...]) -> int:
        """Elements of the workspace for these `ins` shapes (DYNAMIC_INDEX if
        unknown)."""
        x, w = shapes[0], shapes[1]
        a = self.window_attributes()
        if (
            all(k == 1 for k in w[2:])
            and all(s == 1 for s in a["strides"])
            and not any(a["pads"])
            and not any(self._ints(self.output_padding))
        ):
            return 0
        channels = DYNAMIC_INDEX if w[1] < 0 else w[1] * self.group.value.data
        sizes = (channels, *w[2:], *x[2:])
        return DYNAMIC_INDEX if DYNAMIC_INDEX in sizes else math.prod(sizes)

    def verify_shapes(self) -> None:
        self.verify_window()
        x, w = shape_of(self.inputs[0]), shape_of(self.inputs[1])
        group = self.group.value.data
        rank = len(x) - 2
        extra = self._ints(self.output_padding)
        if len(w) != len(x):
            raise VerifyException(
                f"'{self.name}' ins operand 1 (the weight) has rank {len(w)}, but "
                f"the input has rank {len(x)}"
            )
        if group < 1 or _static_mismatch(x[1], w[0]) or (w[0] >= 0 and w[0] % group):
            raise VerifyException(
                f"'{self.name}' the input has {x[1]} channels, but the weight "
                f"({_fmt(w)}) with group {group} takes {w[0]}"
            )
        if len(extra) != rank or any(e < 0 for e in extra):
            raise VerifyException(
                f"'{self.name}' output_padding {list(extra)} must be {rank} "
                "non-negative integers"
            )
        shapes = (x, w)
        want = self.result_shape(*shapes)
        assert want is not None
        if len(self.inputs) == 3:
            b = shape_of(self.inputs[2])
            if len(b) != 1 or _static_mismatch(b[0], want[1]):
                raise VerifyException(
                    f"'{self.name}' ins operand 2 (the bias) has shape {_fmt(b)}, "
                    f"expected {_fmt(want[1:2])}"
                )
        out = shape_of(self.outputs[0])
        if len(out) != len(want) or any(map(_static_mismatch, want, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {_fmt(out)}, but the "
                f"transposed convolution gives {_fmt(want)}"
            )
        ws = shape_of(self.outputs[1])
        size = self.workspace_size(*shapes)
        if len(ws) != 1 or _static_mismatch(ws[0], size):
            raise VerifyException(
                f"'{self.name}' outs operand 1 (the workspace) has shape "
                f"{_fmt(ws)}, expected {'?' if size < 0 else size} elements"
            )


RESIZE_MODES = ("nearest", "linear", "cubic")
RESIZE_COORDINATE_MODES = (
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_crop_and_resize",
)
RESIZE_NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


@irdl_op_definition
class ResizeOp(HipComputeOp):
    """ONNX Resize of every dim of `ins[0]` to the size of `outs`: each output
    coordinate maps back (`coordinate_transformation_mode`, with `scales`, one
    per dim, or where absent out/in, and `roi` (begins then ends, per dim)
    under tf_crop_and_resize) and interpolates (`mode`: nearest with
    `nearest_mode`, linear, cubic with `cubic_coeff_a`; `antialias`,
    `exclude_outside`), separably per dim; a dim whose size and scale stay is
    copied. Under tf_crop_and_resize a coordinate outside the input gives
    `extrapolation_value`."""

    name = "hip.resize"
    RUNTIME_CALL: ClassVar[str] = "resize"

    mode = prop_def(StringAttr)
    coordinate_transformation_mode = prop_def(StringAttr)
    nearest_mode = prop_def(StringAttr)
    cubic_coeff_a = prop_def(FloatAttr)
    extrapolation_value = prop_def(FloatAttr)
    exclude_outside = opt_prop_def(UnitAttr)
    antialias = opt_prop_def(UnitAttr)
    scales = opt_prop_def(DenseArrayBase)
    roi = opt_prop_def(DenseArrayBase)

    @staticmethod
    def _floats(attr: Attribute | None) -> tuple[float, ...] | None:
        if not isinstance(attr, DenseArrayBase):
            return None
        values = cast("DenseArrayBase[Any]", attr).get_values()
        return tuple(float(v) for v in values)

    def runtime_attributes(self) -> dict[str, object]:
        return {
            "mode": self.mode.data,
            "coordinate_mode": self.coordinate_transformation_mode.data,
            "nearest_mode": self.nearest_mode.data,
            "cubic_coeff_a": float(self.cubic_coeff_a.value.data),
            "exclude_outside": self.exclude_outside is not None,
            "antialias": self.antialias is not None,
            "extrapolation_value": float(self.extrapolation_value.value.data),
            "scales": self._floats(self.scales),
            "roi": self._floats(self.roi),
        }

    def verify_shapes(self) -> None:
        x, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(x) != len(out):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has rank {len(out)}, but the input "
                f"has rank {len(x)}"
            )
        for key, allowed in (
            ("mode", RESIZE_MODES),
            ("coordinate_transformation_mode", RESIZE_COORDINATE_MODES),
            ("nearest_mode", RESIZE_NEAREST_MODES),
        ):
            value = cast(StringAttr, self.properties[key]).data
            if value not in allowed:
                raise VerifyException(
                    f"'{self.name}' {key} {value!r} is not one of {list(allowed)}"
                )
        for key, count in (("scales", len(x)), ("roi", 2 * len(x))):
            values = self._floats(self.properties.get(key))
            if values is not None and (
                len(values) != count or (key == "scales" and min(values) <= 0)
            ):
                raise VerifyException(
                    f"'{self.name}' {key} {list(values)} must be {count} "
                    f"{'positive ' if key == 'scales' else ''}numbers"
                )


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
