"""What every onnx-to-hip pattern shares: constants, inits, errors, the context."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, get_args, get_origin

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    StringAttr,
    TensorType,
    UnregisteredOp,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.hints import isa

from xhip.dialects import onnx
from xhip.dialects.constraints import AnyTensorTypeConstr
from xhip.transforms.hip_add_context_arg import context_arg, enclosing_function
from xhip.transforms.index_arith import ConstantFolder, int_constant


class Unsupported(Exception):
    """A pattern cannot convert its op; the message says why."""


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

    def record(self, op: Operation, reason: str) -> None:
        self.failures[id(op)] = reason

    def message(self, op: Operation, default: str) -> str:
        """`onnx.Foo (node 'n'): why`, for the final error."""
        return f"{describe(op)}: {self.failures.get(id(op), default)}"


DimSource = tuple[SSAValue, int]
"""Which operand dimension gives a result dimension at run time."""


def ranked(value: SSAValue, what: str) -> TensorType[Attribute]:
    if not AnyTensorTypeConstr.verifies(value.type):
        raise Unsupported(f"{what} has type {value.type}; a ranked tensor is needed")
    return value.type


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
) -> list[DimSource | None]:
    """For each dim of a numpy broadcast of the shapes, the operand dim that sets it.

    Each operand comes with the (leading part of its) shape that takes part.
    The first operand whose right-aligned dim is dynamic wins, then the first
    whose static size is not 1: a size-1 dim is the one being broadcast.
    """
    sources: list[DimSource | None] = []
    for i in range(out_rank):
        best: tuple[int, DimSource] | None = None
        for value, shape in operands:
            j = i - (out_rank - len(shape))
            if j < 0:
                continue
            size = shape[j]
            rank = 0 if size == DYNAMIC_INDEX else 1 if size != 1 else 2
            if best is None or rank < best[0]:
                best = (rank, (value, j))
        sources.append(best[1] if best is not None else None)
    return sources


def build_init(
    rewriter: PatternRewriter,
    state: ConversionState,
    op: Operation,
    result_type: TensorType[Attribute],
    sources: Sequence[DimSource | None],
) -> SSAValue:
    """`tensor.empty` of `result_type`, each dynamic size a `tensor.dim` of its source."""
    needed: list[DimSource] = []
    for i, size in enumerate(result_type.get_shape()):
        if size != DYNAMIC_INDEX:
            continue
        source = sources[i] if i < len(sources) else None
        if source is None:
            raise Unsupported(f"no operand dim gives the size of result dim {i}")
        needed.append(source)
    sizes: list[SSAValue] = []
    for value, dim in needed:
        index = state.folder.index(rewriter, op, dim)
        dim_op = tensor.DimOp(value, index)
        dim_op.result.name_hint = "dim"
        rewriter.insert(dim_op)
        sizes.append(dim_op.result)
    empty = tensor.EmptyOp(sizes, result_type)
    rewriter.insert(empty)
    return empty.tensor


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

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.op_type):
            return
        try:
            self.convert(op, rewriter)
        except Unsupported as error:
            self.state.record(op, str(error))

    @abstractmethod
    def convert(self, op: OpT, rewriter: PatternRewriter) -> None: ...
