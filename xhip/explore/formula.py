"""Index arithmetic read back from IR as formulas in the model's dim names.

The pool passes write sizes and offsets as chains of `arith` ops on `memref.dim`
values. To show them to a person we read each chain into a `Poly` (the algebra
the passes use, `xhip.analysis.size_expr`), name the dims after the function's
`onnx.dim_params` (`batch`, `seq`), recognise `(x + 255) / 256` as a rounded-up
quotient, and print `256 * ceil(x / 256)` as `align256(x)`.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby

from xdsl.dialects import arith, func, memref, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from xhip.analysis.size_expr import (
    Atom,
    AtomTable,
    CeilDivAtom,
    Monomial,
    Poly,
    ValueAtom,
)
from xhip.dialects import hip
from xhip.dialects.onnx import DIM_PARAMS, parse_dim_params

DimNames = Mapping[int, Mapping[int, str]]
"""Argument index -> dim index -> name, e.g. `{1: {0: "batch", 1: "seq"}}`."""


class FormulaError(ValueError):
    """A formula cannot be evaluated: a dim has no value, or an op is opaque."""


def arg_attrs(function: func.FuncOp) -> list[dict[str, Attribute]]:
    """The attribute dictionary of each argument (empty where there is none)."""
    count = len(function.function_type.inputs.data)
    attrs = function.arg_attrs
    if not isinstance(attrs, ArrayAttr):
        return [{} for _ in range(count)]
    return [dict(d.data) if isinstance(d, DictionaryAttr) else {} for d in attrs.data]


def dim_names(function: func.FuncOp) -> dict[int, dict[int, str]]:
    """Dim names from each argument's `onnx.dim_params` (`"0:batch,1:seq"`)."""
    names: dict[int, dict[int, str]] = {}
    for index, attrs in enumerate(arg_attrs(function)):
        params = attrs.get(DIM_PARAMS)
        if isinstance(params, StringAttr) and params.data:
            names[index] = parse_dim_params(params.data)
    return names


class FormulaReader:
    """Reads index values of one function as polynomials over named dims.

    Two `memref.dim`s of the same argument and dim are the same symbol, so
    formulas read before and after CSE agree. An op the algebra cannot express
    becomes an opaque symbol named after its SSA value; evaluating it fails.
    """

    def __init__(
        self,
        function: func.FuncOp,
        names: DimNames | None = None,
        ssa_names: Mapping[SSAValue, str] | None = None,
    ):
        self.function = function
        self.names: DimNames = names if names is not None else dim_names(function)
        self.ssa_names: Mapping[SSAValue, str] = ssa_names or {}
        self.table = AtomTable()
        self._symbols: dict[str, Poly] = {}
        self._atom_names: dict[Atom, str] = {}
        self._opaque: set[Atom] = set()
        self._cache: dict[SSAValue, Poly] = {}
        self._read_argument_dims()

    def _read_argument_dims(self) -> None:
        """Meet the dims of the arguments in order, so formulas list `batch`
        before `seq` however the IR happens to compute them."""
        block = self._entry()
        dims: list[tuple[int, int, SSAValue]] = []
        for op in self.function.walk():
            if isinstance(op, memref.DimOp | tensor.DimOp):
                source, index = op.source, self.read(op.index).constant
                if (
                    index is not None
                    and isinstance(source, BlockArgument)
                    and source.block is block
                ):
                    dims.append((source.index, index, op.result))
        for _, _, value in sorted(dims, key=lambda d: d[:2]):
            self.read(value)

    def symbol(self, name: str, value: SSAValue, opaque: bool = False) -> Poly:
        """The polynomial of the symbol `name`, made on first use."""
        if name not in self._symbols:
            poly = self.table.value(value)
            atom = poly.terms[0][0][0]
            self._symbols[name] = poly
            self._atom_names[atom] = name
            if opaque:
                self._opaque.add(atom)
        return self._symbols[name]

    def read(self, value: SSAValue) -> Poly:
        if value not in self._cache:
            self._cache[value] = self._read(value)
        return self._cache[value]

    def _read(self, value: SSAValue) -> Poly:
        op = value.owner
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            return Poly.const(op.value.value.data)
        if isinstance(op, arith.AddiOp):
            return self.read(op.lhs) + self.read(op.rhs)
        if isinstance(op, arith.SubiOp):
            return self.read(op.lhs) - self.read(op.rhs)
        if isinstance(op, arith.MuliOp):
            return self.read(op.lhs) * self.read(op.rhs)
        if isinstance(op, arith.IndexCastOp):
            return self.read(op.input)
        if isinstance(
            op, arith.MaxSIOp | arith.MinSIOp | arith.MaxUIOp | arith.MinUIOp
        ):
            lhs, rhs = self.read(op.lhs), self.read(op.rhs)
            if lhs == rhs:
                return lhs
        if isinstance(op, arith.DivUIOp | arith.DivSIOp | arith.FloorDivSIOp):
            exact = self.read(op.lhs).divided_exactly(self.read(op.rhs))
            if exact is not None:
                return exact
        if isinstance(op, arith.DivUIOp | arith.DivSIOp | arith.FloorDivSIOp):
            divisor = self.read(op.rhs).constant
            if divisor is not None and divisor > 0:
                floor = self._floor_div(self.read(op.lhs), divisor)
                if floor is not None:
                    return floor
        if isinstance(op, arith.CeilDivUIOp | arith.CeilDivSIOp):
            divisor = self.read(op.rhs).constant
            if divisor is not None and divisor > 0:
                return self.table.ceil_div(self.read(op.lhs), divisor)
        if isinstance(op, memref.DimOp | tensor.DimOp):
            index = self.read(op.index).constant
            if index is not None:
                return self._dim(op.source, index, value)
        return self._opaque_symbol(value)

    def _floor_div(self, numerator: Poly, divisor: int) -> Poly | None:
        """`floor(numerator / divisor)` where the algebra can say it exactly."""
        if (value := numerator.constant) is not None:
            return Poly.const(value // divisor)
        exact = Poly.of(
            (m, c // divisor) for m, c in numerator.terms if c % divisor == 0
        )
        rest = Poly.of((m, c) for m, c in numerator.terms if c % divisor != 0)
        if (value := rest.constant) is not None:
            return exact + value // divisor
        bias = rest.constant_term
        if bias % divisor == divisor - 1:
            # (x + k*d + d-1) / d == k + ceil(x / d)
            return exact + bias // divisor + self.table.ceil_div(rest - bias, divisor)
        return None

    def _dim(self, source: SSAValue, index: int, value: SSAValue) -> Poly:
        typ = source.type
        if isinstance(typ, MemRefType | TensorType):
            shape = typ.get_shape()
            if 0 <= index < len(shape) and shape[index] != DYNAMIC_INDEX:
                return Poly.const(shape[index])
            owner = source.owner
            sizes = None
            if isinstance(owner, memref.AllocOp | memref.AllocaOp | hip.AllocOp):
                sizes = owner.dynamic_sizes
            elif isinstance(owner, memref.ViewOp):
                sizes = owner.sizes
            elif isinstance(owner, tensor.EmptyOp):
                sizes = owner.dynamic_sizes
            elif isinstance(owner, memref.ExpandShapeOp):
                sizes = owner.output_shape
            elif isinstance(owner, memref.CastOp):
                return self._dim(owner.source, index, value)
            elif isinstance(owner, memref.CollapseShapeOp) and index < len(shape):
                group = owner.reassociation.data[index]
                size = Poly.const(1)
                for axis in group.data:  # pyright: ignore[reportAttributeAccessIssue]
                    size = size * self._dim(owner.src, axis.value.data, value)
                return size
            if sizes is not None and 0 <= index < len(shape):
                position = shape[:index].count(DYNAMIC_INDEX)
                return self.read(sizes[position])
        if isinstance(source, BlockArgument) and source.block is self._entry():
            name = self.names.get(source.index, {}).get(index)
            if name is None:
                name = f"{self._arg_name(source.index)}.d{index}"
            return self.symbol(name, value)
        return self._opaque_symbol(value)

    def _entry(self) -> Block | None:
        return self.function.body.blocks.first

    def _arg_name(self, index: int) -> str:
        name = arg_attrs(self.function)[index].get("onnx.name")
        return name.data if isinstance(name, StringAttr) else f"arg{index}"

    def _opaque_symbol(self, value: SSAValue) -> Poly:
        name = self.ssa_names.get(value) or value.name_hint or f"v{id(value):x}"
        return self.symbol(f"%{name}", value, opaque=True)

    def render(self, poly: Poly) -> str:
        """`1024*batch*seq + 2*align256(4*batch*seq^2)`."""
        if not poly.terms:
            return "0"
        out = ""
        for monomial, coefficient in poly.terms:
            term = self._term(monomial, abs(coefficient))
            if not out:
                out = term if coefficient > 0 else f"-{term}"
            else:
                out += (" + " if coefficient > 0 else " - ") + term
        return out

    def _term(self, monomial: Monomial, coefficient: int) -> str:
        factors: list[str] = []
        for atom, group in groupby(monomial):
            power = len(list(group))
            if isinstance(atom, CeilDivAtom) and coefficient % atom.divisor == 0:
                coefficient //= atom.divisor
                text = f"align{atom.divisor}({self.render(atom.numerator)})"
                factors.extend([text] * power)
                continue
            text = self._atom(atom)
            factors.append(text if power == 1 else f"{text}^{power}")
        if not factors:
            return str(coefficient)
        if coefficient != 1:
            factors.insert(0, str(coefficient))
        return "*".join(factors)

    def _atom(self, atom: Atom) -> str:
        if isinstance(atom, CeilDivAtom):
            numerator = self.render(atom.numerator)
            if len(atom.numerator.terms) > 1:
                numerator = f"({numerator})"
            return f"ceil({numerator} / {atom.divisor})"
        return self._atom_names.get(atom, "?")

    def evaluate(self, poly: Poly, dims: Mapping[str, int]) -> int:
        """The value for named dims, e.g. `{"batch": 2, "seq": 128}`."""
        values: dict[Atom, int] = {}
        for atom, name in self._atom_names.items():
            if atom in self._opaque:
                continue
            if name in dims:
                values[atom] = dims[name]
        try:
            return poly.evaluate(values)
        except KeyError as missing:
            atom = missing.args[0]
            name = self._atom_names.get(atom, "?") if isinstance(atom, Atom) else "?"
            if isinstance(atom, ValueAtom) and atom in self._opaque:
                op = atom.value.owner
                what = op.name if isinstance(op, Operation) else "an argument"
                raise FormulaError(f"{name} ({what}) has no formula") from None
            given = ", ".join(sorted(dims)) or "none"
            raise FormulaError(f"no value for dim {name!r} (given: {given})") from None

    def symbols(self) -> list[str]:
        """The dim names the formulas read so far use, in order of first use."""
        return [n for a, n in self._atom_names.items() if a not in self._opaque]


__all__ = [
    "DimNames",
    "FormulaError",
    "FormulaReader",
    "arg_attrs",
    "dim_names",
]
