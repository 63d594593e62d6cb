"""Index arithmetic that folds what is known at compile time.

Shape values (`onnx-fold-shapes`) and the patterns that turn them into sizes
and offsets both compute with `Index`es: an `int` known now, or an SSA `index`
value known at run time. `IndexArith` emits `arith` ops on `index` only where
an operand is not a number, so a fully static shape emits nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects import arith, builtin, func, memref, tensor
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.utils.comparisons import to_signed, to_unsigned

from xhip.dialects import onnx
from xhip.transforms.hip_add_context_arg import enclosing_function

Index = int | SSAValue
"""A size, offset or shape element: a number, or an `index` value."""


class ConstantFolder:
    """Uniques constants per function and puts new ones at the entry block's start.

    This is what MLIR's `OperationFolder` does while patterns run: each new
    constant is inserted at the start of the entry block, so the constants made
    first end up last (the seed's `%c2, %c1, %c0, %cst`).
    """

    def __init__(self) -> None:
        self._known: dict[tuple[int, Attribute, Attribute], SSAValue] = {}
        self._indices: dict[tuple[int, int], SSAValue] = {}
        """`index` by block and number: building the attribute to look it up
        costs more than the look-up."""

    def get(
        self,
        rewriter: PatternRewriter,
        anchor: Operation,
        value: IntegerAttr | DenseIntOrFPElementsAttr,
    ) -> SSAValue:
        block = self._entry_block(anchor)
        key = (id(block), value, value.get_type())
        if key in self._known:
            return self._known[key]
        op = arith.ConstantOp(value)
        if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
            number = value.value.data
            op.result.name_hint = f"c{number}" if number >= 0 else f"c_{-number}"
        else:
            op.result.name_hint = "cst"
        rewriter.insert(op, InsertPoint.at_start(block))
        self._known[key] = op.result
        return op.result

    def index(
        self, rewriter: PatternRewriter, anchor: Operation, value: int
    ) -> SSAValue:
        key = (id(self._entry_block(anchor)), value)
        known = self._indices.get(key)
        if known is None:
            known = self.get(rewriter, anchor, IntegerAttr(value, IndexType()))
            self._indices[key] = known
        return known

    @staticmethod
    def _entry_block(op: Operation) -> Block:
        # An op of a function's body, as the conversion's anchors are, found
        # by the fields alone; others by `enclosing_function`'s walk up.
        block = op.parent
        region = None if block is None else block.parent
        parent = None if region is None else region.parent
        function = parent if type(parent) is func.FuncOp else enclosing_function(op)
        if function is not None:
            return function.body.block
        block = op.parent_block()
        assert block is not None
        return block


# The semantics of `arith` on `index` values: 64-bit two's complement that
# wraps, the unsigned ops reading their operands as unsigned. The one table
# that folding here, the backend's interpreter and its output-size formulas
# (`backend/shapes.py`) compute with.

INDEX_BITS = 64
_LIMIT = 1 << (INDEX_BITS - 1)


def wrap(x: int) -> int:
    """`x` as a 64-bit index value (two's complement wrap-around)."""
    if -_LIMIT <= x < _LIMIT:
        return x
    return to_signed(x & ((1 << INDEX_BITS) - 1), INDEX_BITS)


def _unsigned(f: Callable[[int, int], int]) -> Callable[[int, int], int]:
    def run(a: int, b: int) -> int:
        return wrap(f(to_unsigned(a, INDEX_BITS), to_unsigned(b, INDEX_BITS)))

    return run


def _signed(f: Callable[[int, int], int]) -> Callable[[int, int], int]:
    return lambda a, b: wrap(f(a, b))


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


INDEX_BINARY: dict[type[Operation], Callable[[int, int], int]] = {
    arith.AddiOp: _signed(lambda a, b: a + b),
    arith.SubiOp: _signed(lambda a, b: a - b),
    arith.MuliOp: _signed(lambda a, b: a * b),
    arith.DivUIOp: _unsigned(lambda a, b: a // b),
    arith.DivSIOp: _signed(_trunc_div),
    arith.RemUIOp: _unsigned(lambda a, b: a % b),
    arith.RemSIOp: _signed(lambda a, b: a - _trunc_div(a, b) * b),
    arith.CeilDivUIOp: _unsigned(_ceil_div),
    arith.CeilDivSIOp: _signed(_ceil_div),
    arith.FloorDivSIOp: _signed(lambda a, b: a // b),
    arith.MaxUIOp: _unsigned(max),
    arith.MinUIOp: _unsigned(min),
    arith.MaxSIOp: _signed(max),
    arith.MinSIOp: _signed(min),
    arith.AndIOp: _signed(lambda a, b: a & b),
    arith.OrIOp: _signed(lambda a, b: a | b),
    arith.XOrIOp: _signed(lambda a, b: a ^ b),
}
"""What each binary `arith` op computes on index values."""


def _below_unsigned(a: int, b: int) -> bool:
    return to_unsigned(a, INDEX_BITS) < to_unsigned(b, INDEX_BITS)


INDEX_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "slt": lambda a, b: a < b,
    "sle": lambda a, b: a <= b,
    "sgt": lambda a, b: a > b,
    "sge": lambda a, b: a >= b,
    "ult": _below_unsigned,
    "ule": lambda a, b: not _below_unsigned(b, a),
    "ugt": lambda a, b: _below_unsigned(b, a),
    "uge": lambda a, b: not _below_unsigned(a, b),
}
"""`arith.cmpi` by predicate name, in the order of its predicate numbers."""


class IndexArith:
    """Emits index ops at the rewriter's insertion point; constants go where
    `constant` puts them (the conversion's `ConstantFolder`, uniqued)."""

    def __init__(
        self,
        rewriter: PatternRewriter,
        anchor: Operation,
        folder: ConstantFolder | None = None,
    ) -> None:
        self.rewriter = rewriter
        self.anchor = anchor
        self._folder = folder if folder is not None else ConstantFolder()

    def value(self, x: Index) -> SSAValue:
        """`x` as an SSA index value."""
        if isinstance(x, SSAValue):
            return x
        return self._folder.index(self.rewriter, self.anchor, x)

    def _emit(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op)
        return op.results[0]

    def dim(self, source: SSAValue, i: int) -> Index:
        """Dim `i` of a ranked tensor: its static size, or a `tensor.dim`."""
        shape = source.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType]
        if shape[i] >= 0:
            return int(shape[i])  # pyright: ignore[reportUnknownArgumentType]
        op = tensor.DimOp(source, self.value(i))
        op.result.name_hint = "dim"
        return self._emit(op)

    def add(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if b == 0:
            return a
        if a == 0:
            return b
        return self._emit(arith.AddiOp(self.value(a), self.value(b)))

    def sub(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a - b
        if b == 0:
            return a
        if a is b:
            return 0
        return self._emit(arith.SubiOp(self.value(a), self.value(b)))

    def mul(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if a == 0 or b == 0:
            return 0
        if b == 1:
            return a
        if a == 1:
            return b
        return self._emit(arith.MuliOp(self.value(a), self.value(b)))

    def trunc_div(self, a: Index, b: Index) -> Index:
        """C's `/` (ONNX integer Div): rounds toward zero."""
        if isinstance(a, int) and isinstance(b, int):
            return INDEX_BINARY[arith.DivSIOp](a, b)
        if b == 1:
            return a
        return self._emit(arith.DivSIOp(self.value(a), self.value(b)))

    def floor_div(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return INDEX_BINARY[arith.FloorDivSIOp](a, b)
        if b == 1:
            return a
        return self._emit(arith.FloorDivSIOp(self.value(a), self.value(b)))

    def ceil_div(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return INDEX_BINARY[arith.CeilDivSIOp](a, b)
        if b == 1:
            return a
        return self._emit(arith.CeilDivSIOp(self.value(a), self.value(b)))

    def floor_mod(self, a: Index, b: Index) -> Index:
        """Python's `%` (ONNX Mod, fmod=0): the sign of the divisor."""
        if isinstance(a, int) and isinstance(b, int):
            return a % b
        return self.sub(a, self.mul(self.floor_div(a, b), b))

    def trunc_mod(self, a: Index, b: Index) -> Index:
        """C's `%` (ONNX Mod, fmod=1): the sign of the dividend."""
        if isinstance(a, int) and isinstance(b, int):
            return INDEX_BINARY[arith.RemSIOp](a, b)
        return self._emit(arith.RemSIOp(self.value(a), self.value(b)))

    def max(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return max(a, b)
        if a is b or (b == 0 and non_negative(a)):
            return a
        if a == 0 and non_negative(b):
            return b
        return self._emit(arith.MaxSIOp(self.value(a), self.value(b)))

    def min(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return min(a, b)
        if a is b:
            return a
        return self._emit(arith.MinSIOp(self.value(a), self.value(b)))

    def clamp(self, x: Index, lo: Index, hi: Index) -> Index:
        return self.min(self.max(x, lo), hi)

    def compare(self, predicate: str, a: Index, b: Index) -> Index:
        """`a <predicate> b` as 0 or 1 (`eq`, `ne`, `slt`, `sle`, `sgt`, `sge`)."""
        if isinstance(a, int) and isinstance(b, int):
            return int(INDEX_COMPARE[predicate](a, b))
        if a is b and predicate in ("eq", "sle", "sge"):
            return 1
        known = _sign_decides(predicate, a, b)
        if known is not None:
            return known
        cond = self._emit(arith.CmpiOp(self.value(a), self.value(b), predicate))
        return self._emit(arith.SelectOp(cond, self.value(1), self.value(0)))

    def select(self, cond: Index, a: Index, b: Index) -> Index:
        """`cond ? a : b`, with `cond` a 0/1 index."""
        if isinstance(cond, int):
            return a if cond else b
        if a is b or (isinstance(a, int) and isinstance(b, int) and a == b):
            return a
        flag = _flag_of(cond)
        if flag is None:
            flag = self._emit(arith.CmpiOp(self.value(cond), self.value(0), "ne"))
        return self._emit(arith.SelectOp(flag, self.value(a), self.value(b)))

    def product(self, values: Sequence[Index]) -> Index:
        result: Index = 1
        for v in values:
            result = self.mul(result, v)
        return result

    def normalize_axis_index(self, x: Index, size: Index) -> Index:
        """A possibly negative index counted from the end: `x < 0 ? x + size : x`."""
        if isinstance(x, int) and x >= 0:
            return x
        if isinstance(x, int) and isinstance(size, int):
            return x + size
        return self.select(self.compare("slt", x, 0), self.add(x, size), x)


def _flag_of(cond: SSAValue) -> SSAValue | None:
    """The i1 behind a 0/1 index made by `IndexArith.compare`."""
    owner = cond.owner
    if (
        isinstance(owner, arith.SelectOp)
        and int_constant(owner.lhs) == [1]
        and int_constant(owner.rhs) == [0]
    ):
        return owner.cond
    return None


def non_negative(x: Index) -> bool:
    """Whether `x` is a size by construction: a dim, or sums, products,
    quotients and maxima of sizes (never a value read back from data)."""
    if isinstance(x, int):
        return x >= 0
    owner = x.owner
    if isinstance(owner, tensor.DimOp | memref.DimOp):
        return True
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data >= 0
    if isinstance(
        owner,
        arith.AddiOp
        | arith.MuliOp
        | arith.DivSIOp
        | arith.FloorDivSIOp
        | arith.CeilDivSIOp
        | arith.MinSIOp,
    ):
        return non_negative(owner.lhs) and non_negative(owner.rhs)
    if isinstance(owner, arith.MaxSIOp):
        return non_negative(owner.lhs) or non_negative(owner.rhs)
    if isinstance(owner, arith.SelectOp):
        return non_negative(owner.lhs) and non_negative(owner.rhs)
    return False


def _sign_decides(predicate: str, a: Index, b: Index) -> int | None:
    """`a <predicate> b` where one side is a size and the other a negative
    number (`Equal(shape, -1)` in exported masks)."""
    if isinstance(b, int) and b < 0 and non_negative(a):
        return {"eq": 0, "ne": 1, "slt": 0, "sle": 0, "sgt": 1, "sge": 1}[predicate]
    if isinstance(a, int) and a < 0 and non_negative(b):
        return {"eq": 0, "ne": 1, "slt": 1, "sle": 1, "sgt": 0, "sge": 0}[predicate]
    return None


def int_constant(value: SSAValue) -> list[int] | None:
    """The integers of a constant (`onnx.Constant`, `arith.constant`), if it is
    one (seen through a `tensor.cast`, which folding a shape leaves)."""
    owner = value.owner
    if isinstance(owner, tensor.CastOp):
        owner = owner.source.owner
    if not isinstance(owner, onnx.ConstantOp | arith.ConstantOp):
        return None
    attr = owner.value
    # Not `isa(attr, DenseIntOrFPElementsAttr[IntegerType | IndexType])`: xDSL
    # rebuilds that constraint on every call, and this runs for every constant.
    if isinstance(attr, DenseIntOrFPElementsAttr) and isinstance(
        attr.get_element_type(), IntegerType | IndexType
    ):
        ints = cast("DenseIntOrFPElementsAttr[IntegerType | IndexType]", attr)
        return [int(v) for v in ints.get_values()]
    if isinstance(attr, IntegerAttr):
        return [int(attr.value.data)]  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType]
    return None


def _element_index(element: SSAValue) -> Index | None:
    """What a `tensor.from_elements` operand stands for, as an index."""
    owner = element.owner
    if isinstance(owner, arith.IndexCastOp) and isinstance(owner.input.type, IndexType):
        return owner.input
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return int(owner.value.value.data)  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType]
    if (
        isinstance(owner, arith.CmpiOp)
        and owner.predicate.value.data == 1
        and isinstance(owner.lhs.type, IndexType)
        and int_constant(owner.rhs) == [0]
    ):
        return owner.lhs  # a bool element: `cmpi ne, %x, %c0` of a 0/1 index
    return None


def index_values(value: SSAValue) -> list[Index] | None:
    """The elements of a 0-D or 1-D integer (or bool) tensor known at compile
    time: constants, or the `tensor.from_elements` that `onnx-fold-shapes`
    makes of shape values. None when they are data known only at run time."""
    constant = int_constant(value)
    if constant is not None:
        return list(constant)
    owner = value.owner
    if isinstance(owner, tensor.CastOp):
        return index_values(owner.source)
    if isinstance(owner, tensor.FromElementsOp):
        elements = [_element_index(e) for e in owner.elements]
        if all(e is not None for e in elements):
            return [e for e in elements if e is not None]
    return None


def named_dims(
    module: builtin.ModuleOp,
) -> dict[tuple[SSAValue, int], tuple[SSAValue, int]]:
    """(argument, dim) -> the first (argument, dim) of the same `dim_params` name."""
    named: dict[tuple[SSAValue, int], tuple[SSAValue, int]] = {}
    for function in module.walk():
        if not isinstance(function, func.FuncOp) or function.arg_attrs is None:
            continue
        first: dict[str, tuple[SSAValue, int]] = {}
        for arg, attrs in zip(function.args, function.arg_attrs.data):
            text = attrs.data.get(onnx.DIM_PARAMS)
            if not isinstance(text, StringAttr):
                continue
            for i, name in onnx.parse_dim_params(text.data).items():
                named[(arg, i)] = first.setdefault(name, (arg, i))
    return named
