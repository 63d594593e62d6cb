"""What every onnx-to-hip pattern shares: constants, inits, errors, the context."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeGuard, TypeVar, get_args, get_origin

from xdsl.dialects import arith, builtin, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    IndexType,
    StringAttr,
    TensorType,
    UnregisteredOp,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.hints import isa

from xhip.analysis.size_expr import Atom, AtomTable, KeyAtom, Poly
from xhip.dialects import hip, onnx
from xhip.transforms.hip_add_context_arg import context_arg, enclosing_function
from xhip.transforms.index_arith import (
    INDEX_BINARY,
    INDEX_COMPARE,
    ConstantFolder,
    int_constant,
    named_dims,
)

INDEX = IndexType()
"""`index`, built once (xDSL verifies each new one)."""


class Unsupported(Exception):
    """A pattern cannot convert its op; the message says why."""


class DimsMustBeStatic(Unsupported):
    """A dim the op needs as a number (an RNN's sequence length) is known only
    at run time: compiling per input shape (`xhip.specialize_shapes`) lifts it."""


def op_name(op: Operation) -> str:
    """The op's name, also for ops of no registered kind."""
    if isinstance(op, UnregisteredOp):
        return op.op_name.data
    return op.name


def describe(op: Operation) -> str:
    """`onnx.Foo (node 'name')`: how errors name an op."""
    node = op.attributes.get("onnx_node_name")
    if isinstance(node, StringAttr):
        return f"{op_name(op)} (node '{node.data}')"
    return f"{op_name(op)} (unnamed node)"


@dataclass
class ConversionState:
    """Shared by the patterns of one pass run."""

    folder: ConstantFolder = field(default_factory=ConstantFolder)
    failures: dict[int, str] = field(default_factory=dict[int, str])
    """Why a pattern gave up on an op, by the op's id."""
    sizes: SizeKeys | None = None
    """What the dims of the converted values are (`SizeKeys`), made on first use."""
    static_dims: set[int] = field(default_factory=set[int])
    """The ops (by id) refused only for a dim that is not static."""
    contexts: dict[int, tuple[Operation, SSAValue]] = field(
        default_factory=dict[int, tuple[Operation, SSAValue]]
    )
    """Each function's `!hip.context` argument, by the function's id (`context`)."""

    def record(self, op: Operation, reason: str, static_dims: bool = False) -> None:
        self.failures[id(op)] = reason
        if static_dims:
            self.static_dims.add(id(op))
        else:
            self.static_dims.discard(id(op))

    def context(self, op: Operation) -> SSAValue:
        """`context_of(op)`, each function's context looked up once: the
        arguments do not change while the patterns run."""
        function = enclosing_function(op)
        if function is not None:
            known = self.contexts.get(id(function))
            if known is not None and known[0] is function:
                return known[1]
        ctx = context_of(op)
        if function is not None:
            self.contexts[id(function)] = (function, ctx)
        return ctx

    def message(self, op: Operation, default: str) -> str:
        """`onnx.Foo (node 'n'): why`, for the final error."""
        return f"{describe(op)}: {self.failures.get(id(op), default)}"


DimSource = tuple[SSAValue, int]
"""Which operand dimension gives a result dimension at run time."""


@dataclass(frozen=True)
class Broadcast:
    """Operand dims that broadcast to one result dim, the types knowing the
    size of at most one (not 1): its size is one dim's where that one is proven
    the broadcast of all, else their broadcast at run time (`build_init`)."""

    dims: tuple[DimSource, ...]


SizeSource = DimSource | Broadcast | None
"""What gives a result dim's size: one operand dim, a broadcast, or nothing."""


@dataclass(frozen=True)
class OpKey:
    """An index op the algebra does not expand, by its operands."""

    op_type: type[Operation]
    predicate: int | None
    """`arith.cmpi`'s."""
    operands: tuple[Poly, ...]


@dataclass(frozen=True)
class BroadcastKey:
    """numpy's broadcast of two or more sizes, none a number, where they
    broadcast: `select(a == 1, b, a)` is the broadcast of `a` and `b`."""

    members: frozenset[Poly]


class SizeKeys:
    """Each dim of a converted value as a polynomial in the arguments' dims:
    equal polynomials are equal sizes at run time.

    A hip op's result has the dims of its `outs` init, a `tensor.empty` its
    size operands, a view its output sizes (a collapse: products); a named
    argument dim (`batch`) is the first argument dim of that name, as the
    session checks. Sums, differences and products expand (`x + 2 - 3 + 1` is
    `x`); other index ops are atoms keyed by their operands' polynomials
    (`OpKey`), so a convolution's output size computed twice is one atom.
    """

    def __init__(self, module: builtin.ModuleOp | None) -> None:
        self.module = module
        self.named = named_dims(module) if module is not None else {}
        self.table = AtomTable()
        self._dims: dict[DimSource, Poly] = {}
        self._indices: dict[SSAValue, Poly] = {}

    def dim(self, value: SSAValue, i: int) -> Poly:
        """Dim `i` of the ranked tensor `value`."""
        key = (value, i)
        if key not in self._dims:
            self._dims[key] = self._dim(value, i)
        return self._dims[key]

    def _dim(self, value: SSAValue, i: int) -> Poly:
        shape = ranked(value, "a value").get_shape()
        if shape[i] != DYNAMIC_INDEX:
            return Poly.const(shape[i])
        dynamic = sum(1 for s in shape[:i] if s == DYNAMIC_INDEX)
        owner = value.owner
        if isinstance(owner, hip.HipDPSOp) and isinstance(value, OpResult):
            return self.dim(owner.outputs[value.index], i)
        if isinstance(owner, tensor.EmptyOp):
            return self.index(owner.dynamic_sizes[dynamic])
        if isinstance(owner, tensor.ExpandShapeOp):
            static = owner.static_output_shape.get_values()
            if static[i] != DYNAMIC_INDEX:
                return Poly.const(static[i])
            position = sum(1 for s in static[:i] if s == DYNAMIC_INDEX)
            return self.index(owner.dynamic_output_shape[position])
        if isinstance(owner, tensor.CastOp):
            return self.dim(owner.source, i)
        if isinstance(owner, tensor.CollapseShapeOp):
            size = Poly.const(1)
            for d in owner.reassociation.data[i]:
                size = size * self.dim(owner.src, d.value.data)
            return size
        return self.table.keyed(self.named.get((value, i), (value, i)))

    def index(self, value: SSAValue) -> Poly:
        """The index value `value`."""
        if value not in self._indices:
            self._indices[value] = self._index(value)
        return self._indices[value]

    def _index(self, value: SSAValue) -> Poly:
        number = int_constant(value)
        if number is not None and len(number) == 1:
            return Poly.const(number[0])
        owner = value.owner
        if isinstance(owner, tensor.DimOp):
            i = int_constant(owner.index)
            if i is not None and len(i) == 1:
                return self.dim(owner.source, i[0])
        if isinstance(owner, arith.AddiOp | arith.SubiOp | arith.MuliOp):
            lhs, rhs = self.index(owner.lhs), self.index(owner.rhs)
            if isinstance(owner, arith.AddiOp):
                return lhs + rhs
            return lhs - rhs if isinstance(owner, arith.SubiOp) else lhs * rhs
        if isinstance(owner, arith.CmpiOp | arith.SelectOp) or (
            isinstance(owner, Operation) and type(owner) in INDEX_BINARY
        ):
            predicate = (
                owner.predicate.value.data if isinstance(owner, arith.CmpiOp) else None
            )
            operands = tuple(self.index(o) for o in owner.operands)
            return self._apply(OpKey(type(owner), predicate, operands))
        return self.table.value(value)

    def _apply(self, key: OpKey) -> Poly:
        """The op of `key`: a number if its operands are, else its atom."""
        op_type, predicate, operands = key.op_type, key.predicate, key.operands
        numbers = [o.constant for o in operands]
        if op_type is arith.SelectOp:
            if numbers[0] is not None:
                return operands[1] if numbers[0] else operands[2]
            if operands[1] == operands[2]:
                return operands[1]
            condition = operands[0].as_atom
            one = Poly.const(1)
            if isinstance(condition, KeyAtom) and condition.key == OpKey(
                arith.CmpiOp, 0, (operands[2], one)
            ):
                return self.broadcast((operands[2], operands[1]))
        elif all(n is not None for n in numbers):
            lhs, rhs = (n for n in numbers if n is not None)
            if predicate is not None:
                return Poly.const(
                    int(list(INDEX_COMPARE.values())[predicate](lhs, rhs))
                )
            return Poly.const(INDEX_BINARY[op_type](lhs, rhs))
        elif operands[0] == operands[1] and op_type in _IDEMPOTENT:
            return operands[0]
        elif op_type in _DIVISIONS:
            quotient = operands[0].divided_exactly(operands[1])
            if quotient is not None:
                return quotient
        return self.table.keyed(key)

    def broadcast(self, sizes: Iterable[Poly]) -> Poly:
        """numpy's broadcast of `sizes`, where they broadcast: a set of them,
        less the 1s (broadcasts in it are their members); a number not 1 is
        the size."""
        members: set[Poly] = set()
        for size in sizes:
            members |= self.members(size)
        members.discard(Poly.const(1))
        numbers = [m for m in members if m.constant is not None]
        if numbers or len(members) <= 1:
            return numbers[0] if numbers else next(iter(members), Poly.const(1))
        return self.table.keyed(BroadcastKey(frozenset(members)))

    def members(self, size: Poly) -> frozenset[Poly]:
        """The sizes `size` is the broadcast of (itself, if it is none)."""
        atom = size.as_atom
        if isinstance(atom, KeyAtom) and isinstance(atom.key, BroadcastKey):
            return atom.key.members
        return frozenset((size,))

    def substitute(self, poly: Poly, atom: Atom, number: int) -> Poly:
        """`poly` where `atom` is `number`, folded."""
        total = Poly.const(0)
        for monomial, coefficient in poly.terms:
            term = Poly.const(coefficient)
            for factor in monomial:
                term = term * self._substitute_atom(factor, atom, number)
            total = total + term
        return total

    def _substitute_atom(self, factor: Atom, atom: Atom, number: int) -> Poly:
        if factor is atom:
            return Poly.const(number)
        key = factor.key if isinstance(factor, KeyAtom) else None
        if isinstance(key, OpKey):
            operands = tuple(self.substitute(o, atom, number) for o in key.operands)
            return self._apply(OpKey(key.op_type, key.predicate, operands))
        if isinstance(key, BroadcastKey):
            return self.broadcast(self.substitute(m, atom, number) for m in key.members)
        return Poly.atom(factor)

    def gives(self, size: Poly, other: Poly) -> bool:
        """Whether `size` is the broadcast of `size` and `other` wherever they
        broadcast: they are equal, `other` is 1, or `other` is 1 when `size`
        is (`min(seq, 512)` against `seq`)."""
        if other.constant == 1 or self.members(other) <= self.members(size):
            return True
        atom = size.as_atom
        return atom is not None and self.substitute(other, atom, 1).constant == 1


_IDEMPOTENT = (arith.MaxSIOp, arith.MinSIOp, arith.MaxUIOp, arith.MinUIOp)
"""Ops whose value for equal operands is that operand."""
_DIVISIONS = (
    arith.DivUIOp,
    arith.DivSIOp,
    arith.FloorDivSIOp,
    arith.CeilDivUIOp,
    arith.CeilDivSIOp,
)
"""Ops that are `a / b` where `b` divides `a` (`b*s*768 / (b*s)` is `768*s`)."""


def ranked(value: SSAValue, what: str) -> TensorType[Attribute]:
    typ = value.type
    if not _is_ranked_tensor(typ):
        raise Unsupported(f"{what} has type {typ}; a ranked tensor is needed")
    return typ


def _is_ranked_tensor(typ: Attribute) -> TypeGuard[TensorType[Attribute]]:
    """`AnyTensorTypeConstr.verifies(typ)`, which is this `isinstance`, without
    the verification context and exception it goes through (`ranked` is
    asked of every operand and result)."""
    return isinstance(typ, TensorType)


def check_refines(value: SSAValue, result: SSAValue, what: str) -> bool:
    """Whether `result`'s type differs from `value`'s, and then only in dims
    that one side leaves dynamic (shape inference knew a dim on one side
    only); raises where they differ in more. `what` names `value`."""
    if value.type == result.type:
        return False
    source, target = ranked(value, what), ranked(result, "the result")
    if (
        source.get_element_type() != target.get_element_type()
        or len(source.get_shape()) != len(target.get_shape())
        or any(
            a != b and DYNAMIC_INDEX not in (a, b)
            for a, b in zip(source.get_shape(), target.get_shape(), strict=True)
        )
    ):
        raise Unsupported(
            f"{what} has type {value.type} but the result has {result.type}"
        )
    return True


def recast(value: SSAValue, result: SSAValue, what: str) -> tensor.CastOp | None:
    """`value` as `result`'s type (the same tensor, recast) where
    `check_refines` allows it; None where the types are equal."""
    if not check_refines(value, result, what):
        return None
    return tensor.CastOp(value, ranked(result, "the result"))


def context_of(op: Operation) -> SSAValue:
    """The `!hip.context` argument of the function holding `op`."""
    function = enclosing_function(op)
    ctx = context_arg(function) if function is not None else None
    if ctx is None:
        raise Unsupported(
            "the enclosing function has no !hip.context argument (run "
            "hip-add-context-arg first)"
        )
    return ctx


def broadcast_sources(
    operands: Sequence[tuple[SSAValue, Sequence[int]]], out_rank: int
) -> list[SizeSource]:
    """For each dim of a numpy broadcast of the shapes, what sets its size.

    Each operand comes with the (leading part of its) shape that takes part.
    One dynamic dim, and no static size but 1, gives the size; several dims
    that may differ at run time are a `Broadcast`; else the first static size
    that is not 1: a size-1 dim is the one being broadcast.
    """
    sources: list[SizeSource] = []
    for i in range(out_rank):
        dynamic: list[DimSource] = []
        static: DimSource | None = None
        for value, shape in operands:
            j = i - (out_rank - len(shape))
            if j < 0:
                continue
            if shape[j] == DYNAMIC_INDEX:
                dynamic.append((value, j))
            elif static is None or (shape[j] != 1 and static_size(static) == 1):
                static = (value, j)
        if dynamic and static is not None and static_size(static) != 1:
            sources.append(Broadcast((*dynamic, static)))
        elif len(dynamic) > 1:
            sources.append(Broadcast(tuple(dynamic)))
        else:
            sources.append(dynamic[0] if dynamic else static)
    return sources


def static_size(source: SizeSource) -> int:
    """The size a source gives if its type knows it, else `DYNAMIC_INDEX`
    (always for a `Broadcast`); no source is a dim of size 1."""
    if source is None:
        return 1
    if isinstance(source, Broadcast):
        return DYNAMIC_INDEX
    value, i = source
    return ranked(value, "an operand").get_shape()[i]


def build_init(
    rewriter: PatternRewriter,
    state: ConversionState,
    op: Operation,
    result_type: TensorType[Attribute],
    sources: Sequence[SizeSource],
) -> SSAValue:
    """`tensor.empty` of `result_type`, each dynamic size a `tensor.dim` of its
    source (of a `Broadcast`, numpy's broadcast of its dims: `broadcast_size`)."""
    needed: list[DimSource | Broadcast] = []
    for i, size in enumerate(result_type.get_shape()):
        if size != DYNAMIC_INDEX:
            continue
        source = sources[i] if i < len(sources) else None
        if source is None:
            raise Unsupported(f"no operand dim gives the size of result dim {i}")
        needed.append(source)
    sizes: list[SSAValue] = []
    # The `tensor.dim`s and the `tensor.empty` go in with one `insert` where
    # no broadcast comes between (most inits): the same ops in the same order.
    pending: list[Operation] = []
    for source in needed:
        if isinstance(source, Broadcast):
            if pending:
                rewriter.insert(pending)
                pending = []
            sizes.append(broadcast_size(rewriter, state, op, source.dims))
        else:
            dim_op = _dim_op(rewriter, state, op, source)
            pending.append(dim_op)
            sizes.append(dim_op.result)
    # `create`: the op `tensor.EmptyOp(sizes, result_type)` builds, without
    # the builder's grouping of its one variadic operand.
    empty = tensor.EmptyOp.create(operands=sizes, result_types=[result_type])
    pending.append(empty)
    rewriter.insert(pending)
    return empty.tensor


def _dim_op(
    rewriter: PatternRewriter, state: ConversionState, op: Operation, source: DimSource
) -> tensor.DimOp:
    """The `tensor.dim` of `source`, not inserted (its index constant is)."""
    value, i = source
    # `create`, not `DimOp(...)`: the op xDSL's builder would make (no
    # attributes), without its argument checks or a new `IndexType` each.
    dim_op = tensor.DimOp.create(
        operands=[value, state.folder.index(rewriter, op, i)], result_types=[INDEX]
    )
    dim_op.result.name_hint = "dim"
    return dim_op


def _dim(
    rewriter: PatternRewriter, state: ConversionState, op: Operation, source: DimSource
) -> SSAValue:
    dim_op = _dim_op(rewriter, state, op, source)
    rewriter.insert(dim_op)
    return dim_op.result


SizeSourceOrIndex = DimSource | SSAValue
"""A run-time size: an operand dim, or an index value (Expand's shape operand)."""


def proven_broadcast(
    state: ConversionState, op: Operation, of: Sequence[SizeSourceOrIndex]
) -> SizeSourceOrIndex | None:
    """The one of `of` proven (`SizeKeys`) to be the broadcast of all, if any."""
    return _broadcast_parts(state, op, of)[0]


def _broadcast_parts(
    state: ConversionState, op: Operation, of: Sequence[SizeSourceOrIndex]
) -> tuple[SizeSourceOrIndex | None, list[SizeSourceOrIndex]]:
    """The size proven the broadcast of all, if any; and the sizes not proven
    equal, less those proven 1."""
    if state.sizes is None:
        top = op.get_toplevel_object()
        state.sizes = SizeKeys(top if isinstance(top, builtin.ModuleOp) else None)
    sizes = state.sizes
    distinct: dict[Poly, SizeSourceOrIndex] = {}
    for source in of:
        if isinstance(source, SSAValue):
            size = sizes.index(source)
        else:
            size = sizes.dim(*source)
        if size.constant is not None and size.constant != 1:
            return source, []  # canonicalize folds it
        if size.constant != 1:
            distinct.setdefault(size, source)
    if not distinct:
        return of[0], []
    for size, source in distinct.items():
        if all(sizes.gives(size, other) for other in distinct):
            return source, []
    return None, list(distinct.values())


def broadcast_size(
    rewriter: PatternRewriter,
    state: ConversionState,
    op: Operation,
    of: Sequence[SizeSourceOrIndex],
) -> SSAValue:
    """numpy's broadcast of run-time sizes.

    Sizes proven equal (`SizeKeys`: the same dim, the same named dim, the same
    polynomial in the arguments' dims) are one, and a size proven 1 drops out;
    where one size is the broadcast of all (`SizeKeys.gives`), usually the
    first, the result is it (a dim's `tensor.dim`). Otherwise the size is
    numpy's rule folded over them, `b if a == 1 else a` (not `max`: 0 and 1
    give 0), an `arith.cmpi` and an `arith.select` per further size; sizes
    that differ and are not 1 are the runtime's error, as numpy's.
    """

    def value(source: SizeSourceOrIndex) -> SSAValue:
        if isinstance(source, SSAValue):
            return source
        return _dim(rewriter, state, op, source)

    proven, distinct = _broadcast_parts(state, op, of)
    if proven is not None:
        return value(proven)
    first, *others = distinct
    size = value(first)
    one = state.folder.index(rewriter, op, 1)
    for source in others:
        is_one = arith.CmpiOp(size, one, "eq")
        select = arith.SelectOp(is_one, value(source), size)
        rewriter.insert(is_one)
        rewriter.insert(select)
        size = select.result
    return size


constant_ints = int_constant
"""The integers of a constant tensor (`onnx.Constant` or `arith.constant`)."""


def constant_scalar(value: SSAValue) -> float | None:
    """The one element of a constant int or float tensor, as a float."""
    owner = value.owner
    if not isinstance(owner, onnx.ConstantOp | arith.ConstantOp):
        return None
    attr = owner.value
    if isa(attr, DenseIntOrFPElementsAttr):
        values = attr.get_values()
        if len(values) == 1 and isinstance(values[0], int | float):
            return float(values[0])
    return None


OpT = TypeVar("OpT", bound=Operation)


class OnnxPattern(RewritePattern, ABC, Generic[OpT]):
    """Converts one ONNX op type, `OpT`; an `Unsupported` becomes a recorded error.

    `OnnxPattern[onnx.ReluOp]` matches `onnx.ReluOp`s: the type argument is the
    op type matched (`op_type`), so `convert` gets the op typed.
    """

    op_type: type[OpT]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            if get_origin(base) is OnnxPattern:
                (arg,) = get_args(base)
                if isinstance(arg, type):
                    cls.op_type = arg

    def __init__(self, state: ConversionState) -> None:
        self.state = state

    def matched_op_types(self) -> tuple[type[Operation], ...] | None:
        """What `TypedPatternApplier` tries this pattern on: `op_type`, unless
        a subclass matches otherwise."""
        defining = next(c for c in type(self).__mro__ if "match_and_rewrite" in vars(c))
        if defining is not OnnxPattern:
            return None
        return (self.op_type,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.op_type):
            return
        try:
            self.convert(op, rewriter)
        except Unsupported as error:
            self.state.record(op, str(error), isinstance(error, DimsMustBeStatic))

    @abstractmethod
    def convert(self, op: OpT, rewriter: PatternRewriter) -> None: ...
