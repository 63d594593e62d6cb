"""The hip dialect's shared part: the context type, the bases of the compute
ops (their syntax, mode checks and operand roles), the elementwise bases, and
`hip.alloc`, `hip.free`, `hip.readback`.

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
from collections.abc import Collection, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar, cast

from xdsl.dialects.arith import ConstantOp
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
    f32,
    f64,
    i64,
)
from xdsl.ir import (
    Attribute,
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

from xhip import files
from xhip.dialects import formula
from xhip.dialects.constraints import AnyShapedTypeConstr
from xhip.dialects.dps_effects import DestinationStyleEffects
from xhip.dialects.formula import Expr
from xhip.dialects.roles import (
    Role,
    RoleArg,
    T,
    Value,
    bind_group,
    flatten_roles,
    parse_roles,
    role_counts,
    spec_counts,
)
from xhip.dialects.type_text import print_types

ShapedType = TensorType[Attribute] | MemRefType[Attribute]


@irdl_attr_definition
class ContextType(ParametrizedAttribute, TypeAttribute):
    """The handle to a device, stream and library handles: `!hip.context`."""

    name = "hip.context"


CONSTANTS_FILE = files.CONSTANTS_FILE

CONSTANTS_FILE_ATTR = "hip.constants_file"
"""Module attribute naming the constants file, from `convert-onnx-to-hip` until
`hip-resolve-extern-constants` turns the globals into views of the blob."""

EXTERNAL_DATA_ATTR = "hip.external_data"
"""`memref.global` attribute `{offset, size}`: where in the constants file the
global's bytes are, in place of an initial value."""


def shape_of(value: SSAValue) -> tuple[int, ...]:
    type_ = value.type  # the classes by `is` first: the constraint is a Python call
    if type(type_) is not TensorType and type(type_) is not MemRefType:
        assert AnyShapedTypeConstr.verifies(type_)
    return type_.get_shape()


def static_mismatch(a: int, b: int) -> bool:
    return a != DYNAMIC_INDEX and b != DYNAMIC_INDEX and a != b


def broadcast(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...] | None:
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


def fmt_shape(shape: Sequence[int]) -> str:
    return "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape) or "scalar"


def constant_index(value: SSAValue) -> int | None:
    """The value of an `arith.constant` index operand, else None (run time)."""
    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


# Typed attribute values for the ops' `make` builders: one spelling each, so
# a conversion passes Python values and the printed IR stays as it was.


def i64_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


def f32_attr(value: float) -> FloatAttr:
    return FloatAttr(value, f32)


def f64_attr(value: float) -> FloatAttr:
    return FloatAttr(value, f64)


def unit_attr(flag: bool) -> UnitAttr | None:
    """A unit property is its presence: None (absent) for False."""
    return UnitAttr() if flag else None


def i64_array(values: Sequence[int]) -> DenseArrayBase[I64]:
    return DenseArrayBase.from_list(i64, list(values))


def f64_array(values: Sequence[float]) -> DenseArrayBase[Any]:
    return DenseArrayBase.from_list(f64, list(values))


def str_attr(value: str) -> StringAttr:
    return StringAttr(value)


# Runtime attributes: a compute op's static attributes as its runtime method
# takes them, one frozen dataclass per kind of op, declared next to the op and
# returned by `runtime_attributes()`; the method gets it as `attrs`. The ones
# several families share are here.


@dataclass(frozen=True, slots=True)
class AxisAttributes:
    """One axis, in `[0, rank)` (softmax's may be -1, the last)."""

    axis: int


@dataclass(frozen=True, slots=True)
class ElementwiseAttributes:
    """An elementwise op's `kind()` and its formula's `Param` values, in
    `FORMULA.params()` order."""

    kind: str
    params: tuple[float, ...]


def _index_group(
    cls: type[HipDPSOp], index: Sequence[SSAValue | Operation]
) -> list[Any]:
    """The index operands as IRDL wants them: one operand each, or one
    variadic group when the op takes any number."""
    return [list(index)] if cls.NUM_INDEX_OPERANDS is None else list(index)


_SEGMENTS_NAME = "operandSegmentSizes"
_SEGMENTS: dict[tuple[type[HipDPSOp], int, int, int, tuple[str, ...]], Attribute] = {}
"""The `operandSegmentSizes` IRDL's builder gave the first compute op of each
(class, numbers of index, `ins` and `outs` operands, properties given): the
later ones are built without the builder, which costs four times as much
(`HipDPSOp.__init__`). Kept only where the builder's op was the plain one."""


_Shaped = TensorType[Attribute] | MemRefType[Attribute]
"""What the IRDL constraints make every `ins` and `outs` operand."""


class HipDPSOp(IRDLOperation, ABC):
    """Base of the compute ops: shared syntax and mode checks.

    It declares no fields: IRDL orders operands by declaration, and
    `hip.transpose` needs its index operands between `ctx` and `inputs`, so it
    declares all of its own; the other ops take them from `HipComputeOp`.
    """

    NUM_INDEX_OPERANDS: ClassVar[int | None] = 0
    """How many index operands IRDL declares after the context; None: one
    variadic group (an op whose sizes or offsets depend on the rank, e.g.
    `hip.slice`'s starts)."""
    INDEX: ClassVar[tuple[str, ...]] = ()
    """The roles of the index operands (ints at run time)."""
    INS: ClassVar[tuple[str, ...]] = ("src",)
    """The roles of the `ins` operands: the names of the `Runtime` method's
    parameters; `name?` optional (absent: None), `name*` any number and
    `name+` one or more (a tuple)."""
    OUTS: ClassVar[tuple[str, ...]] = ("out",)
    """The roles of the `outs` operands (`hip.miopen.layer_norm` writes its
    mean and inverse standard deviation too, when asked)."""
    SAME_ELEMENT_TYPE: ClassVar[bool] = True
    """Whether every `ins` operand must have the element type of `outs`: the
    library calls compute in one type; only a conversion may differ."""
    IN_PLACE: ClassVar[bool] = False
    """Whether `outs` may be exactly an `ins` view: true of elementwise
    functions; library calls (hipBLASLt, MIOpen) promise nothing then."""
    RUNTIME_CALL: ClassVar[str]
    """The `Runtime` method that runs the op, called with its operands by role
    (`bind_roles`) and, if it has any, `runtime_attributes()` as `attrs`."""

    @classmethod
    def runtime_call(cls) -> str:
        return cls.RUNTIME_CALL

    @classmethod
    def role_groups(cls) -> tuple[tuple[Role, ...], tuple[Role, ...], tuple[Role, ...]]:
        """The parsed roles of the (index operands, `ins`, `outs`)."""
        return parse_roles(cls.INDEX), parse_roles(cls.INS), parse_roles(cls.OUTS)

    @classmethod
    def bind_roles(
        cls,
        ins: Sequence[T],
        outs: Sequence[T],
        index: Sequence[T] = (),
        absent: Collection[str] = (),
    ) -> dict[str, T | None | tuple[T, ...]]:
        """Role name -> value for these operands (SSA values, or run-time
        values): an absent optional role is None, a variadic one a tuple. An
        op whose optional roles are told apart by type rather than position
        (`hip.attention_softmax`) names the absent ones: `absent_roles()`."""
        index_roles, in_roles, out_roles = cls.role_groups()
        return {
            **bind_group(index_roles, index, absent),
            **bind_group(in_roles, ins, absent),
            **bind_group(out_roles, outs, absent),
        }

    def absent_roles(self) -> frozenset[str]:
        """Optional roles this op lacks that positions alone would not tell."""
        return frozenset()

    def bound_roles(self) -> dict[str, SSAValue | None | tuple[SSAValue, ...]]:
        """This op's operands by role."""
        return self.bind_roles(
            self.inputs, self.outputs, self.index_operands, self.absent_roles()
        )

    @classmethod
    def _from_roles(
        cls,
        ctx: Value,
        roles: Mapping[str, RoleArg],
        properties: Mapping[str, Attribute | None] | None = None,
    ) -> Self:
        """The op of these operands by role: what each op's `make` calls."""
        index_roles, in_roles, out_roles = cls.role_groups()
        known = {r.name for group in cls.role_groups() for r in group}
        if unknown := set(roles) - known:
            raise TypeError(f"{cls.name} has no roles {sorted(unknown)}")
        return cls(
            ctx,
            flatten_roles(in_roles, roles, cls.name),
            flatten_roles(out_roles, roles, cls.name),
            index_operands=flatten_roles(index_roles, roles, cls.name),
            properties=dict(properties or {}),
        )

    def runtime_attributes(self) -> object | None:
        """The op's static attributes as its runtime method's `attrs` (a frozen
        dataclass declared next to the op), or None: the method takes none."""
        return None

    def copies_overlaps(self) -> bool:
        """Whether the runtime writes `outs` through a copy where they overlap
        any operand (a conv with a fused Relu, whose out the memory plan placed
        for the Relu): debug mode then checks operands only for bounds."""
        return False

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
        get = SSAValue.get
        ins, outs = [get(v) for v in inputs], [get(v) for v in outputs]
        index = [get(v) for v in index_operands]
        types: list[Attribute] = [o.type for o in outs]
        result_types: list[Attribute] = [
            t
            for t in types
            if isinstance(t, TensorType)  # pyright: ignore[reportUnknownMemberType]
        ]
        given = {k: v for k, v in (properties or {}).items() if v is not None}
        key = (type(self), len(index), len(ins), len(outs), tuple(given))
        segments = _SEGMENTS.get(key)
        if segments is not None and not attributes:
            # What IRDL's builder makes of these, without its grouping:
            # `_SEGMENTS` says the first op of this key came out the same.
            given[_SEGMENTS_NAME] = segments
            Operation.__init__(
                self,
                operands=[get(ctx), *index, *ins, *outs],
                result_types=result_types,
                properties=given,
            )
            return
        super().__init__(
            operands=[ctx, *_index_group(type(self), index), ins, outs],
            result_types=[result_types],
            properties=properties or {},
            attributes=attributes or {},
        )
        if (
            not attributes
            and list(self.properties) == [*given, _SEGMENTS_NAME]
            and list(self.operands) == [get(ctx), *index, *ins, *outs]
        ):
            _SEGMENTS[key] = self.properties[_SEGMENTS_NAME]

    @property
    def index_operands(self) -> Sequence[SSAValue]:
        if self.NUM_INDEX_OPERANDS is None:
            return self.operands[
                1 : len(self.operands) - len(self.inputs) - len(self.outputs)
            ]
        return self.operands[1 : 1 + self.NUM_INDEX_OPERANDS]

    @property
    def is_tensor_mode(self) -> bool:
        outputs = self.outputs
        return bool(outputs) and isinstance(outputs[0].type, TensorType)

    def verify_(self) -> None:
        # Each accessor read once and the roles' limits kept per spec: the
        # final verify of every compile runs this on each compute op.
        inputs, outputs = self.inputs, self.outputs
        for kind, spec, values in (
            ("index", self.INDEX, self.index_operands),
            ("ins", self.INS, inputs),
            ("outs", self.OUTS, outputs),
        ):
            lo, hi = spec_counts(spec)
            if len(values) < lo or (hi is not None and len(values) > hi):
                want = (
                    str(lo) if lo == hi else f"{lo} to {hi}" if hi else f"{lo} or more"
                )
                plural = "s" if kind == "ins" or want != "1" else ""
                raise VerifyException(
                    f"'{self.name}' expects {want} {kind} operand{plural}, got "
                    f"{len(values)}"
                )
        tensor_mode = bool(outputs) and type(outputs[0].type) is TensorType
        for kind, values in (("ins", inputs), ("outs", outputs)):
            for i, value in enumerate(values):
                if (type(value.type) is TensorType) != tensor_mode:
                    raise VerifyException(
                        f"'{self.name}' mixes tensors and memrefs: {kind} operand "
                        f"{i} is {value.type} but outs operand 0 is "
                        f"{outputs[0].type}"
                    )
        res = self.res
        if tensor_mode:
            if len(res) != len(outputs):
                raise VerifyException(
                    f"'{self.name}' in tensor mode must return one result per "
                    f"outs operand ({len(outputs)}), got {len(res)}"
                )
            for i, (r, o) in enumerate(zip(res, outputs)):
                if r.type != o.type:
                    raise VerifyException(
                        f"'{self.name}' result {i} has type {r.type} but its init "
                        f"(outs operand {i}) has type {o.type}"
                    )
        elif res:
            raise VerifyException(
                f"'{self.name}' in memref mode has no results, got {len(res)}"
            )
        if type(self).verify_element_types is HipDPSOp.verify_element_types:
            self._verify_same_element_types(inputs, outputs)
        else:
            self.verify_element_types()
        self.verify_shapes()

    def verify_element_types(self) -> None:
        """By default, with `SAME_ELEMENT_TYPE`: every `ins` has the element
        type of `outs`."""
        self._verify_same_element_types(self.inputs, self.outputs)

    def _verify_same_element_types(
        self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> None:
        """`verify_element_types` of the groups `verify_` read (IRDL made them shaped)."""
        out_type: _Shaped = outputs[0].type  # pyright: ignore[reportAssignmentType]
        out_elt = out_type.get_element_type()
        for i, value in enumerate(inputs if self.SAME_ELEMENT_TYPE else ()):
            value_type: _Shaped = value.type  # pyright: ignore[reportAssignmentType]
            elt = value_type.get_element_type()
            if elt != out_elt:
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has element type "
                    f"{elt} but outs operand 0 has {out_elt}"
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
                print_types(printer, [v.type for v in values])
            printer.print_string(")")
        printer.print_op_attributes(
            {**self.properties, **self.attributes},
            reserved_attr_names=("operandSegmentSizes",),
        )
        if self.res:
            printer.print_string(" -> ")
            several = len(self.res) > 1  # parenthesized, as the parser reads them
            printer.print_string("(" if several else "")
            print_types(printer, [r.type for r in self.res])
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
    def make(cls, ctx: Value, /, *ins: Value, out: Value, **params: float) -> Self:
        """The op of `ins` (its formula's arguments, in order) into `out`, each
        `Param` of the formula given by name."""
        names = cls.FORMULA.params()
        if set(params) != set(names):
            raise TypeError(f"{cls.name} takes the params {list(names)}")
        return cls(ctx, ins, [out], properties={n: f64_attr(params[n]) for n in names})

    def runtime_attributes(self) -> ElementwiseAttributes:
        """`Runtime.unary`, `binary` or `ternary` (by arity) take the op's
        `kind()` and its formula's `Param` values."""
        return ElementwiseAttributes(self.kind(), self.formula_params())

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
            value_type: _Shaped = value.type  # pyright: ignore[reportAssignmentType]
            types.append(value_type.get_element_type())  # shaped: IRDL said so
        # Once per class and element types: a model has few such pairs.
        key = (type(self), *types)
        if key in _ELEMENT_TYPE_ERRORS:
            error = _ELEMENT_TYPE_ERRORS[key]
        else:
            error = self.element_type_error(types[:-1], types[-1])
            _ELEMENT_TYPE_ERRORS[key] = error
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
            shape = None if shape is None else broadcast(shape, other)
        return shape


_ELEMENT_TYPE_ERRORS: dict[tuple[object, ...], str | None] = {}
"""`ElementwiseOp.element_type_error` by (op class, its operands' and its
result's element types), for the final verify: it depends on nothing else."""


OpT = TypeVar("OpT", bound=ElementwiseOp)


def elementwise_op(cls: type[OpT]) -> type[OpT]:
    """`irdl_op_definition` for an elementwise op, after declaring a float
    property for each `Param` of its `FORMULA` (what the runtimes get)."""
    for name in cls.FORMULA.params():
        setattr(cls, name, prop_def(FloatAttr))
    return irdl_op_definition(cls)


class BinaryElementwiseOp(ElementwiseOp, ABC):
    """`out = lhs <op> rhs` with numpy broadcasting."""

    INS: ClassVar[tuple[str, ...]] = ("a", "b")
    RUNTIME_CALL: ClassVar[str] = "binary"

    def verify_shapes(self) -> None:
        lhs, rhs = (shape_of(v) for v in self.inputs)
        out = shape_of(self.outputs[0])
        shape = broadcast(lhs, rhs)
        if shape is None:
            raise VerifyException(
                f"'{self.name}' ins operands do not broadcast: {fmt_shape(lhs)} and "
                f"{fmt_shape(rhs)}"
            )
        if len(shape) != len(out) or any(map(static_mismatch, shape, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)} but the "
                f"broadcast of the ins operands is {fmt_shape(shape)}"
            )


class TernaryElementwiseOp(ElementwiseOp, ABC):
    """`out = f(a, b, c)`, the three broadcast as numpy does (`Where`)."""

    INS: ClassVar[tuple[str, ...]] = ("a", "b", "c")
    RUNTIME_CALL: ClassVar[str] = "ternary"

    def verify_shapes(self) -> None:
        shapes = [shape_of(v) for v in self.inputs]
        out = shape_of(self.outputs[0])
        shape = self.result_shape(*shapes)
        if shape is None:
            raise VerifyException(
                f"'{self.name}' ins operands do not broadcast: "
                + ", ".join(fmt_shape(s) for s in shapes)
            )
        if len(shape) != len(out) or any(map(static_mismatch, shape, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)} but the "
                f"broadcast of the ins operands is {fmt_shape(shape)}"
            )


class SameShapeOp(HipComputeOp, ABC):
    """One `ins` operand of the shape of `outs`."""

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) != len(out) or any(map(static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 has shape {fmt_shape(src)} but outs "
                f"operand 0 has shape {fmt_shape(out)}"
            )


class UnaryElementwiseOp(ElementwiseOp, SameShapeOp, ABC):
    """`out = f(in)`, same shape in and out."""

    RUNTIME_CALL: ClassVar[str] = "unary"


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
                f"'{self.name}' reads {len(self.values)} values from {fmt_shape(shape)}"
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


OPS: tuple[type[Operation], ...] = (
    ReadbackOp,
    AllocOp,
    FreeOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "AllocOp",
    "AxisAttributes",
    "BinaryElementwiseOp",
    "CONSTANTS_FILE",
    "CONSTANTS_FILE_ATTR",
    "ContextType",
    "DestinationStyleEffects",
    "EXTERNAL_DATA_ATTR",
    "ElementwiseAttributes",
    "ElementwiseOp",
    "FreeOp",
    "HipComputeOp",
    "HipDPSOp",
    "HipIndexedComputeOp",
    "OpT",
    "ReadbackOp",
    "Role",
    "RoleArg",
    "SameShapeOp",
    "ShapedType",
    "TernaryElementwiseOp",
    "UnaryElementwiseOp",
    "Value",
    "bind_group",
    "element_kind",
    "elementwise_op",
    "parse_roles",
    "role_counts",
    "shape_of",
]
