"""An elementwise formula bound to its operands: the CPU runtime's elementwise calls.

With the operands fixed (a bound plan's views), everything about a formula
but its numpy calls is decided once: `bind_formula` resolves the compute
type, the constants, the parameters and which calls write straight into the
output (`_program`, cached per formula and operand dtypes), and returns the
list of numpy calls that remain. Each primitive is `elementwise.NUMPY`'s, a
float16 operand is widened to float32 first (as the GPU kernels compute), a
call on the output's dtype writes into it (the root, or every call of a
chain that reads one live value), any other call makes a new array, and a
result of another dtype is cast into the output at the end.

The calls run inside `quietly`, which ignores floating-point errors
(overflow to inf, 0/0 to NaN: IEEE arithmetic, as the GPU kernels do) once
around a whole group of calls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

import numpy as np

from xhip.backend.elementwise import NUMPY
from xhip.dialects.formula import Arg, Call, Const, Expr, Param

Calls = list[Callable[[], object]]


def _chain_in_out(expr: Expr) -> bool:
    """Whether each call reads at most one non-constant value: every step
    may then write the output, with no temporary array."""
    if not isinstance(expr, Call):
        return True
    live = [a for a in expr.args if not isinstance(a, Const | Param)]
    return len(live) <= 1 and all(_chain_in_out(a) for a in live)


class _Registers:
    """Calls of which some read a new array an earlier one made: each call's
    arguments are slots of a register list, filled with the fixed ones."""

    __slots__ = ("values", "steps", "out")

    def __init__(
        self,
        values: list[Any],
        steps: list[tuple[Callable[..., Any], tuple[int, ...], Any, int]],
        out: np.ndarray | None,
    ):
        self.values = values
        self.steps = steps
        """(function, argument slots, `out=`, result slot) per call."""
        self.out = out
        """Where the last result is cast to, if the last call does not write it."""

    def __call__(self) -> None:
        regs = self.values.copy()
        for fn, args, into, slot in self.steps:
            regs[slot] = fn(*[regs[a] for a in args], out=into)
        if self.out is not None:
            np.copyto(self.out, regs[-1], casting="unsafe")


Step = tuple[Callable[..., Any], tuple[int, ...], bool, int]
"""A call of the program: function, argument slots, whether it writes the
output, result slot."""


@dataclass(frozen=True)
class _Program:
    """`expr` on operands of given dtypes: what `bind_formula` fills in with
    the arrays. Slots: the operands, then constants and call results."""

    compute: np.dtype[Any]
    widen: tuple[int, ...]
    """Operands to widen to `compute` (float16) before the calls."""
    constants: tuple[tuple[int, Any], ...]
    """(slot, value) of each constant and parameter, in `compute`."""
    steps: tuple[Step, ...]
    slots: int
    cast: bool
    """Whether the last result is cast into the output (no call writes it)."""
    fixed: bool
    """Whether every call reads operands, constants or the output only."""


@cache
def _program(
    expr: Expr,
    arity: int,
    dtypes: tuple[np.dtype[Any], ...],
    out_dtype: np.dtype[Any],
    params: tuple[float, ...],
) -> _Program:
    bools = [i in expr.bool_args() for i in range(arity)]
    typed = [d for d, b in zip(dtypes, bools) if not b]
    dtype = np.result_type(*typed) if typed else np.dtype(np.bool_)
    compute = np.dtype(np.float32) if dtype == np.float16 else np.dtype(dtype)
    widen = tuple(
        i
        for i, (d, b) in enumerate(zip(dtypes, bools))
        if compute != dtype and not b and d != compute
    )
    want = np.dtype(np.bool_) if expr.is_bool() else compute
    writes = out_dtype == want
    in_place = _chain_in_out(expr)
    names = expr.params()
    constants: list[tuple[int, Any]] = []
    steps: list[Step] = []
    fixed = [True] * arity
    """Per slot: the same object on every call (an operand, a constant, or
    the output a call writes), not a new array."""

    def slot(is_fixed: bool) -> int:
        fixed.append(is_fixed)
        return len(fixed) - 1

    def visit(node: Expr) -> int:
        """The slot of `node`'s value, its calls appended to `steps`."""
        if isinstance(node, Arg):
            return node.index
        if isinstance(node, Const | Param):
            value = (
                node.value
                if isinstance(node, Const)
                else params[names.index(node.name)]
            )
            constants.append((slot(True), compute.type(value)))
            return len(fixed) - 1
        assert isinstance(node, Call)
        args = tuple(visit(a) for a in node.args)
        into = False
        if writes and (node is expr or in_place):
            into = out_dtype == (np.dtype(np.bool_) if node.is_bool() else compute)
        steps.append((NUMPY[node.fn], args, into, slot(into)))
        return len(fixed) - 1

    visit(expr)
    return _Program(
        compute,
        widen,
        tuple(constants),
        tuple(steps),
        len(fixed),
        not writes,
        writes and all(fixed[a] for _, args, _, _ in steps for a in args),
    )


def bind_formula(
    expr: Expr,
    arity: int,
    inputs: Sequence[np.ndarray],
    out: np.ndarray,
    params: Sequence[float] = (),
) -> Calls:
    """The calls computing `expr` of `inputs` into `out` (numpy broadcasting),
    `params` the values of its `Param`s in `expr.params()` order; to run
    inside `quietly`."""
    if isinstance(expr, Arg):
        return [partial(np.copyto, out, inputs[expr.index])]
    dtypes = tuple(x.dtype for x in inputs)
    program = _program(expr, arity, dtypes, out.dtype, tuple(params))
    calls: Calls = []
    values: list[Any] = [*inputs, *([None] * (program.slots - arity))]
    for i in program.widen:
        values[i] = np.empty(inputs[i].shape, program.compute)
        calls.append(partial(np.copyto, values[i], inputs[i]))
    for i, value in program.constants:
        values[i] = value
    steps = [
        (fn, args, out if into else None, r) for fn, args, into, r in program.steps
    ]
    for _, _, into, result in steps:
        values[result] = into
    if program.fixed:
        # Every call reads operands and writes the output: no registers.
        calls += [
            partial(fn, *(values[a] for a in args), out=into)
            for fn, args, into, _ in steps
        ]
        return calls
    calls.append(_Registers(values, steps, out if program.cast else None))
    return calls


def quietly(calls: Sequence[Callable[[], object]]) -> Callable[[], None]:
    """The calls in order, floating-point errors ignored (see module doc)."""
    if len(calls) == 1:
        (only,) = calls

        def run_one() -> None:
            with np.errstate(all="ignore"):
                only()

        return run_one

    def run() -> None:
        with np.errstate(all="ignore"):
            for call in calls:
                call()

    return run
