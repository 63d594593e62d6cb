"""Elementwise formulas: what an elementwise hip op computes, stated once.

An elementwise op declares its `formula`, an expression over its operands
(`X`, `Y`, ...) built from a fixed set of primitives:

    formula = 1.0 / (1.0 + exp(-X))

The backend derives everything else from it: the numpy function the CPU
runtime runs and the C expression of the GPU kernels' switch
(`xhip/backend/elementwise.py` gives each primitive its numpy and C form).
So a new elementwise op that composes existing primitives is one declaration.

A formula may read the op's attributes, `Param("alpha")`: the hip op has a
float property of that name (copied from the ONNX attribute of the same name
by the conversion) and the runtimes get its value with the call. A formula
also states its types: comparisons, logic, `isnan`/`isinf` give bool, and an
operand used as a condition (`select`'s first) or by a logical primitive is
bool; everything else has the op's element type `T` (`Expr.is_bool`,
`operand_types`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

PRIMITIVES: dict[str, int] = {
    "add": 2,
    "sub": 2,
    "mul": 2,
    "div": 2,
    "pow": 2,
    "neg": 1,
    "exp": 1,
    "sqrt": 1,
    "tanh": 1,
    "relu": 1,
    "abs": 1,
    "erf": 1,
    "log": 1,
    "floor": 1,
    "ceil": 1,
    "round": 1,
    "sin": 1,
    "cos": 1,
    "sign": 1,
    "min": 2,
    "max": 2,
    "mod": 2,
    "fmod": 2,
    "eq": 2,
    "lt": 2,
    "le": 2,
    "gt": 2,
    "ge": 2,
    "not": 1,
    "and": 2,
    "or": 2,
    "xor": 2,
    "isnan": 1,
    "isinf": 1,
    "select": 3,
    "tan": 1,
    "asin": 1,
    "acos": 1,
    "atan": 1,
    "sinh": 1,
    "cosh": 1,
    "asinh": 1,
    "acosh": 1,
    "atanh": 1,
    "bitand": 2,
    "bitor": 2,
    "bitxor": 2,
    "bitnot": 1,
    "shl": 2,
    "shr": 2,
}
"""Each primitive and its number of arguments. `div` is ONNX Div (integers
round toward zero); `relu` keeps NaN, as numpy's `maximum` does; `round`
rounds half to even; `min`/`max` propagate NaN (numpy's `minimum`);
`mod` is Python's (the result has the divisor's sign), `fmod` C's (the
dividend's); `select(c, a, b)` is `a` where `c`, else `b`. `bit*` are the
integer bitwise operations; `shl`/`shr` shift by `y` bits, a shift out of
`[0, bits)` giving 0 (`shr`: the sign, -1 or 0), as ONNX BitShift says."""

BOOL_RESULT = frozenset(
    {"eq", "lt", "le", "gt", "ge", "not", "and", "or", "xor", "isnan", "isinf"}
)
"""Primitives whose value is a bool."""
BOOL_ARGUMENTS: dict[str, frozenset[int]] = {
    "not": frozenset({0}),
    "and": frozenset({0, 1}),
    "or": frozenset({0, 1}),
    "xor": frozenset({0, 1}),
    "select": frozenset({0}),
}
"""Which arguments of a primitive are bools (the others have the op's type)."""

FLOAT = "f"
SIGNED = "i"
UNSIGNED = "u"
BOOL = "b"
KINDS = FLOAT + SIGNED + UNSIGNED + BOOL
"""Kinds of element type: a primitive applied to a `T` value constrains `T`."""
NUMERIC = FLOAT + SIGNED + UNSIGNED
ACCEPTS: dict[str, str] = {
    **{fn: NUMERIC for fn in ("add", "sub", "mul", "div", "pow", "min", "max")},
    **{fn: NUMERIC for fn in ("mod", "fmod", "lt", "le", "gt", "ge", "sign")},
    **{fn: FLOAT for fn in ("exp", "sqrt", "tanh", "erf", "log", "sin", "cos")},
    **{fn: FLOAT for fn in ("floor", "ceil", "round", "isnan", "isinf")},
    "neg": FLOAT + SIGNED,
    "relu": FLOAT + SIGNED,
    "abs": NUMERIC,
    "eq": KINDS,
    "select": KINDS,
    **{fn: BOOL for fn in ("not", "and", "or", "xor")},
    **{fn: FLOAT for fn in ("tan", "asin", "acos", "atan", "sinh", "cosh")},
    **{fn: FLOAT for fn in ("asinh", "acosh", "atanh")},
    **{fn: SIGNED + UNSIGNED for fn in ("bitand", "bitor", "bitxor", "bitnot")},
    **{fn: SIGNED + UNSIGNED for fn in ("shl", "shr")},
}
"""The kinds of `T` each primitive takes for its `T` arguments (bool ones are
bools whatever `T` is)."""


class Expr:
    """A node of a formula; Python's operators build `add`, `sub`, ..."""

    def __add__(self, other: Expr | float) -> Expr:
        return Call("add", (self, lift(other)))

    def __radd__(self, other: float) -> Expr:
        return Call("add", (lift(other), self))

    def __sub__(self, other: Expr | float) -> Expr:
        return Call("sub", (self, lift(other)))

    def __rsub__(self, other: float) -> Expr:
        return Call("sub", (lift(other), self))

    def __mul__(self, other: Expr | float) -> Expr:
        return Call("mul", (self, lift(other)))

    def __rmul__(self, other: float) -> Expr:
        return Call("mul", (lift(other), self))

    def __truediv__(self, other: Expr | float) -> Expr:
        return Call("div", (self, lift(other)))

    def __rtruediv__(self, other: float) -> Expr:
        return Call("div", (lift(other), self))

    def __pow__(self, other: Expr | float) -> Expr:
        return Call("pow", (self, lift(other)))

    def __neg__(self) -> Expr:
        return Call("neg", (self,))

    def arity(self) -> int:
        """How many operands the formula reads: one more than its highest `Arg`."""
        return max((a.arity() for a in self.children()), default=0)

    def children(self) -> tuple[Expr, ...]:
        return ()

    def params(self) -> tuple[str, ...]:
        """The names of the `Param`s the formula reads, in first-use order."""
        names: dict[str, None] = {}
        for child in self.children():
            names.update(dict.fromkeys(child.params()))
        return tuple(names)

    def is_bool(self) -> bool:
        """Whether the formula's value is a bool (else it has the type `T`)."""
        return False

    def kinds(self) -> str:
        """The kinds of element type `T` the formula computes in (`KINDS`)."""
        return KINDS

    def bool_args(self) -> frozenset[int]:
        """The operands read as bools (a condition, a logical argument)."""
        return frozenset()


@dataclass(frozen=True, eq=True)
class Param(Expr):
    """The op's float attribute `name` (a property of the hip op)."""

    name: str

    def params(self) -> tuple[str, ...]:
        return (self.name,)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, eq=True)
class Arg(Expr):
    """Operand `index` of the op (0 is `X`)."""

    index: int

    def arity(self) -> int:
        return self.index + 1

    def __str__(self) -> str:
        return "XYZ"[self.index] if self.index < 3 else f"arg{self.index}"


@dataclass(frozen=True, eq=True)
class Const(Expr):
    """A number, converted to the op's element type where it is used."""

    value: float

    def __str__(self) -> str:
        return repr(self.value)


@dataclass(frozen=True, eq=True)
class Call(Expr):
    """A primitive applied to its arguments."""

    fn: str
    args: tuple[Expr, ...]

    def __post_init__(self) -> None:
        want = PRIMITIVES.get(self.fn)
        if want is None:
            raise ValueError(f"unknown primitive {self.fn!r}")
        if want != len(self.args):
            raise ValueError(f"{self.fn} takes {want} arguments, got {len(self.args)}")

    def children(self) -> tuple[Expr, ...]:
        return self.args

    def is_bool(self) -> bool:
        if self.fn == "select":
            return self.args[1].is_bool()
        return self.fn in BOOL_RESULT

    def kinds(self) -> str:
        bools = BOOL_ARGUMENTS.get(self.fn, frozenset())
        kinds = set(KINDS)
        for i, arg in enumerate(self.args):
            kinds &= set(arg.kinds())
            typed = i not in bools and not arg.is_bool()
            if typed and not isinstance(arg, Param | Const):
                kinds &= set(ACCEPTS[self.fn])
            fraction = isinstance(arg, Const) and not float(arg.value).is_integer()
            if typed and (isinstance(arg, Param) or fraction):
                kinds &= set(FLOAT)  # a float attribute or constant: float math
        return "".join(k for k in KINDS if k in kinds)

    def bool_args(self) -> frozenset[int]:
        bools = BOOL_ARGUMENTS.get(self.fn, frozenset())
        found = frozenset(
            a.index
            for i, a in enumerate(self.args)
            if i in bools and isinstance(a, Arg)
        )
        return found.union(*(a.bool_args() for a in self.args))

    def __str__(self) -> str:
        return f"{self.fn}({', '.join(map(str, self.args))})"


def lift(value: Expr | float) -> Expr:
    return value if isinstance(value, Expr) else Const(float(value))


def _primitive(fn: str) -> Callable[..., Expr]:
    def apply(*args: Expr | float) -> Expr:
        return Call(fn, tuple(lift(a) for a in args))

    apply.__name__ = fn
    return apply


X, Y, Z = Arg(0), Arg(1), Arg(2)
exp = _primitive("exp")
sqrt = _primitive("sqrt")
tanh = _primitive("tanh")
relu = _primitive("relu")
abs_ = _primitive("abs")
erf = _primitive("erf")
log = _primitive("log")
floor = _primitive("floor")
ceil = _primitive("ceil")
round_ = _primitive("round")
sin = _primitive("sin")
cos = _primitive("cos")
sign = _primitive("sign")
minimum = _primitive("min")
maximum = _primitive("max")
mod = _primitive("mod")
fmod = _primitive("fmod")
eq = _primitive("eq")
lt = _primitive("lt")
le = _primitive("le")
gt = _primitive("gt")
ge = _primitive("ge")
not_ = _primitive("not")
and_ = _primitive("and")
or_ = _primitive("or")
xor = _primitive("xor")
isnan = _primitive("isnan")
isinf = _primitive("isinf")
select = _primitive("select")
tan = _primitive("tan")
asin = _primitive("asin")
acos = _primitive("acos")
atan = _primitive("atan")
sinh = _primitive("sinh")
cosh = _primitive("cosh")
asinh = _primitive("asinh")
acosh = _primitive("acosh")
atanh = _primitive("atanh")
bitand = _primitive("bitand")
bitor = _primitive("bitor")
bitxor = _primitive("bitxor")
bitnot = _primitive("bitnot")
shl = _primitive("shl")
shr = _primitive("shr")


def operand_types(expr: Expr, arity: int) -> tuple[bool, ...]:
    """For each operand, whether it is a bool (else it has the type `T`).

    A formula with bool operands only and a bool value (`and`, `not`) has
    `T` = bool: every operand and the result are bools.
    """
    bools = expr.bool_args()
    return tuple(i in bools for i in range(arity))
