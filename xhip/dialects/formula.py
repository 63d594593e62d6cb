"""Elementwise formulas: what an elementwise hip op computes, stated once.

An elementwise op declares its `formula`, an expression over its operands
(`X`, `Y`, ...) built from a fixed set of primitives:

    formula = 1.0 / (1.0 + exp(-X))

The backend derives everything else from it: the numpy function the CPU
runtime runs and the C expression of the GPU kernels' switch
(`xhip/backend/elementwise.py` gives each primitive its numpy and C form).
So a new elementwise op that composes existing primitives is one declaration.
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
}
"""Each primitive and its number of arguments. `div` is ONNX Div (integers
round toward zero); `relu` keeps NaN, as numpy's `maximum` does."""


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

    def __str__(self) -> str:
        return f"{self.fn}({', '.join(map(str, self.args))})"


def lift(value: Expr | float) -> Expr:
    return value if isinstance(value, Expr) else Const(float(value))


def _primitive(fn: str) -> Callable[..., Expr]:
    def apply(*args: Expr | float) -> Expr:
        return Call(fn, tuple(lift(a) for a in args))

    apply.__name__ = fn
    return apply


X, Y = Arg(0), Arg(1)
exp = _primitive("exp")
sqrt = _primitive("sqrt")
tanh = _primitive("tanh")
relu = _primitive("relu")
abs_ = _primitive("abs")
