"""Output sizes as arithmetic on input sizes, read from the IR.

The final IR takes its outputs as out-params the caller allocates, so the caller
must know each output's shape before the call. A dim the signature names after
an input dim (`batch`) is bound by that input; others, such as the `batch*seq`
rows after a Flatten or a Reshape to `[-1, 64]`, are only known to the
computation. The last stage where `@main_graph` still returns its outputs as
memrefs (after `one-shot-bufferize`, before `buffer-results-to-out-params`)
allocates them itself, sized with `memref.dim` of the inputs and `arith` index
math. `result_dims` reads that math backwards from each returned value into a
small `DimExpr` tree, which the session evaluates on the inputs' shapes.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, bufferization, func, memref, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerAttr, MemRefType, TensorType
from xdsl.ir import BlockArgument, Operation, SSAValue

from xhip.transforms.index_arith import INDEX_BINARY, INDEX_COMPARE


class UnknownDim(Exception):
    """The IR computes a size in a way `result_dims` does not follow."""


class DimExpr:
    """A size computed from the inputs' sizes; `str` is its formula."""

    def evaluate(self, shapes: Sequence[tuple[int, ...]]) -> int:
        """The size, given the shape of every input in signature order."""
        raise NotImplementedError


@dataclass(frozen=True)
class Const(DimExpr):
    value: int

    def evaluate(self, shapes: Sequence[tuple[int, ...]]) -> int:
        return self.value

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class InputDim(DimExpr):
    """Dim `dim` of input number `input`; `label` is how it prints (`batch`)."""

    input: int
    dim: int
    label: str

    def evaluate(self, shapes: Sequence[tuple[int, ...]]) -> int:
        return shapes[self.input][self.dim]

    def __str__(self) -> str:
        return self.label


SYMBOLS: dict[type[Operation], str] = {
    arith.AddiOp: "+",
    arith.SubiOp: "-",
    arith.MuliOp: "*",
    arith.DivUIOp: "/",
    arith.DivSIOp: "/",
    arith.FloorDivSIOp: "/",
    arith.CeilDivUIOp: "ceildiv",
    arith.CeilDivSIOp: "ceildiv",
    arith.RemUIOp: "%",
    arith.RemSIOp: "%",
    arith.MaxUIOp: "max",
    arith.MaxSIOp: "max",
    arith.MinUIOp: "min",
    arith.MinSIOp: "min",
}
"""How the `arith` ops size computations use print; what they compute is
`index_arith.INDEX_BINARY`, the one semantics of index arithmetic."""


@dataclass(frozen=True)
class Binary(DimExpr):
    symbol: str
    fn: Callable[[int, int], int]
    lhs: DimExpr
    rhs: DimExpr

    def evaluate(self, shapes: Sequence[tuple[int, ...]]) -> int:
        return self.fn(self.lhs.evaluate(shapes), self.rhs.evaluate(shapes))

    def __str__(self) -> str:
        if self.symbol.isalpha():
            return f"{self.symbol}({self.lhs}, {self.rhs})"
        return f"({self.lhs}{self.symbol}{self.rhs})"


@dataclass(frozen=True)
class Compare(DimExpr):
    """`arith.cmpi` of sizes: 1 or 0 (`b if a == 1 else a`, a run-time broadcast)."""

    predicate: str
    lhs: DimExpr
    rhs: DimExpr

    def evaluate(self, shapes: Sequence[tuple[int, ...]]) -> int:
        compare = INDEX_COMPARE[self.predicate]
        return int(compare(self.lhs.evaluate(shapes), self.rhs.evaluate(shapes)))

    def __str__(self) -> str:
        return f"{self.predicate}({self.lhs}, {self.rhs})"


@dataclass(frozen=True)
class Select(DimExpr):
    condition: DimExpr
    if_true: DimExpr
    if_false: DimExpr

    def evaluate(self, shapes: Sequence[tuple[int, ...]]) -> int:
        chosen = self.if_true if self.condition.evaluate(shapes) else self.if_false
        return chosen.evaluate(shapes)

    def __str__(self) -> str:
        return f"({self.if_true} if {self.condition} else {self.if_false})"


def product(factors: Sequence[DimExpr]) -> DimExpr:
    """`a*b*...`, with static factors folded."""
    static = 1
    dynamic: list[DimExpr] = []
    for f in factors:
        if isinstance(f, Const):
            static *= f.value
        else:
            dynamic.append(f)
    if not dynamic:
        return Const(static)
    expr = (
        dynamic[0]
        if static == 1
        else Binary("*", operator.mul, Const(static), dynamic[0])
    )
    for f in dynamic[1:]:
        expr = Binary("*", operator.mul, expr, f)
    return expr


class _Reader:
    """Follows sizes back to the function's arguments, memoized per value."""

    def __init__(self, labels: dict[BlockArgument, tuple[int, tuple[str, ...]]]):
        self.labels = labels
        """Argument -> (input number, how each of its dims prints)."""
        self._dims: dict[tuple[SSAValue, int], DimExpr] = {}

    def dim(self, value: SSAValue, index: int) -> DimExpr:
        key = (value, index)
        if key not in self._dims:
            self._dims[key] = self._dim(value, index)
        return self._dims[key]

    def _dim(self, value: SSAValue, index: int) -> DimExpr:
        typ = value.type
        if not isinstance(typ, MemRefType | TensorType):
            raise UnknownDim(f"{typ} has no shape")
        static = typ.get_shape()[index]
        if static != DYNAMIC_INDEX:
            return Const(static)
        if isinstance(value, BlockArgument):
            if value not in self.labels:
                raise UnknownDim(f"argument {value.index} is not an input")
            number, labels = self.labels[value]
            return InputDim(number, index, labels[index])
        op = value.owner
        assert isinstance(op, Operation)
        if isinstance(op, memref.AllocOp | memref.AllocaOp):
            return self.index(
                op.dynamic_sizes[_dynamic_position(typ.get_shape(), index)]
            )
        if isinstance(
            op,
            memref.CastOp
            | memref.MemorySpaceCastOp
            | tensor.CastOp
            | bufferization.ToTensorOp
            | bufferization.ToBufferOp
            | bufferization.CloneOp,
        ):
            return self.dim(op.operands[0], index)
        if isinstance(op, memref.CollapseShapeOp):
            group = op.reassociation.data[index]
            return product([self.dim(op.src, g.value.data) for g in group.data])
        if isinstance(op, memref.ExpandShapeOp):
            return self.index(
                op.output_shape[_dynamic_position(typ.get_shape(), index)]
            )
        if isinstance(op, memref.ViewOp):
            return self.index(op.sizes[_dynamic_position(typ.get_shape(), index)])
        if isinstance(op, memref.ReinterpretCastOp | memref.SubviewOp):
            sizes = op.static_sizes.get_values()
            if len(sizes) != len(typ.get_shape()):
                raise UnknownDim(f"'{op.name}' drops dims")
            return self.index(op.sizes[_dynamic_position(sizes, index)])
        raise UnknownDim(f"'{op.name}' makes it")

    def index(self, value: SSAValue) -> DimExpr:
        """The value of an `index` SSA value, as a formula."""
        if isinstance(value, BlockArgument):
            raise UnknownDim("an index computed by an argument")
        op = value.owner
        assert isinstance(op, Operation)
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            return Const(op.value.value.data)
        if isinstance(op, memref.DimOp | tensor.DimOp):
            dim = self.index(op.index)
            if not isinstance(dim, Const):
                raise UnknownDim(f"'{op.name}' of a dim that is not a constant")
            return self.dim(op.source, dim.value)
        if isinstance(op, arith.IndexCastOp):
            return self.index(op.input)
        if isinstance(op, arith.CmpiOp):
            predicate = list(INDEX_COMPARE)[op.predicate.value.data]
            return Compare(predicate, self.index(op.lhs), self.index(op.rhs))
        if isinstance(op, arith.SelectOp):
            return Select(self.index(op.cond), self.index(op.lhs), self.index(op.rhs))
        symbol = SYMBOLS.get(type(op))
        if symbol is not None:
            assert isinstance(op, arith.SignlessIntegerBinaryOperation)
            fn = INDEX_BINARY[type(op)]
            lhs, rhs = self.index(op.lhs), self.index(op.rhs)
            if isinstance(lhs, Const) and isinstance(rhs, Const):
                return Const(fn(lhs.value, rhs.value))
            return Binary(symbol, fn, lhs, rhs)
        raise UnknownDim(f"an index computed by '{op.name}'")


def _dynamic_position(sizes: Sequence[int], index: int) -> int:
    """Which dynamic size operand gives dim `index`."""
    return sum(1 for s in sizes[:index] if s == DYNAMIC_INDEX)


def result_dims(
    function: func.FuncOp,
    inputs: dict[BlockArgument, tuple[int, tuple[str, ...]]],
) -> list[tuple[DimExpr | UnknownDim, ...]]:
    """For each value `function` returns, each dim as a formula of the inputs' dims.

    `inputs` maps the arguments that are inputs to their number in the signature
    and the labels their dims print with. A dim the IR computes in a way this
    does not follow is the `UnknownDim` saying why, not an error: the caller may
    not need it.
    """
    ret = function.body.block.last_op
    if not isinstance(ret, func.ReturnOp):
        return []
    reader = _Reader(inputs)
    dims: list[tuple[DimExpr | UnknownDim, ...]] = []
    for value in ret.arguments:
        typ = value.type
        rank = len(typ.get_shape()) if isinstance(typ, MemRefType | TensorType) else 0
        row: list[DimExpr | UnknownDim] = []
        for i in range(rank):
            try:
                row.append(reader.dim(value, i))
            except UnknownDim as e:
                row.append(e)
        dims.append(tuple(row))
    return dims
