"""Elementwise formulas made runnable: numpy functions and GPU kernel code.

Each primitive of `xhip.dialects.formula` has its numpy form and its C form
here, side by side; every elementwise op's CPU function and its case in the
GPU kernels' switch are derived from its `FORMULA`, so adding an op adds no
table entry in the backend.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from xhip.dialects import hip
from xhip.dialects.formula import PRIMITIVES, Arg, Call, Const, Expr


def _divide(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> Any:
    """ONNX Div: integers round toward zero (C's `/`); numpy's `//` rounds down."""
    if np.result_type(a, b).kind not in "iu":
        return np.divide(a, b, out=out)
    quotient = np.floor_divide(a, b)
    quotient += (np.remainder(a, b) != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0))
    if out is None:
        return quotient
    np.copyto(out, quotient, casting="unsafe")
    return out


def _relu(x: np.ndarray, out: np.ndarray | None = None) -> Any:
    return np.maximum(x, np.zeros((), np.asarray(x).dtype), out=out)  # keeps NaN


NUMPY: dict[str, Callable[..., Any]] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": _divide,
    "pow": np.power,
    "neg": np.negative,
    "exp": np.exp,
    "sqrt": np.sqrt,
    "tanh": np.tanh,
    "relu": _relu,
    "abs": np.absolute,
}
"""Each primitive as a numpy function taking `out=`."""

C: dict[str, str] = {
    "add": "({0} + {1})",
    "sub": "({0} - {1})",
    "mul": "({0} * {1})",
    "div": "({0} / {1})",
    "pow": "powf({0}, {1})",
    "neg": "(-{0})",
    "exp": "expf({0})",
    "sqrt": "sqrtf({0})",
    "tanh": "tanhf({0})",
    "relu": "(({0}) > 0.0f || ({0}) != ({0}) ? ({0}) : 0.0f)",
    "abs": "fabsf({0})",
}
"""Each primitive as a float32 C expression of its arguments `{0}`, `{1}`."""

assert NUMPY.keys() == C.keys() == PRIMITIVES.keys()

NumpyFn = Callable[..., None]
"""`fn(*inputs, out=out)`."""


def _chain_in_out(expr: Expr) -> bool:
    """Whether each call reads at most one non-constant value: then every
    step can be computed in `out`, with no temporary array."""
    if not isinstance(expr, Call):
        return True
    live = [a for a in expr.args if not isinstance(a, Const)]
    return len(live) <= 1 and all(_chain_in_out(a) for a in live)


@cache
def numpy_function(expr: Expr) -> NumpyFn:
    """The formula as `fn(*inputs, out=out)` over numpy arrays.

    It runs with floating-point errors ignored: overflow to inf, 0/0 to NaN,
    as the GPU kernels (IEEE arithmetic) do.
    """
    in_place = _chain_in_out(expr)

    def evaluate(node: Expr, inputs: tuple[np.ndarray, ...], out: np.ndarray) -> Any:
        if isinstance(node, Arg):
            return inputs[node.index]
        if isinstance(node, Const):
            return out.dtype.type(node.value)
        assert isinstance(node, Call)
        args = [evaluate(a, inputs, out) for a in node.args]
        target = out if in_place or node is expr else None
        return NUMPY[node.fn](*args, out=target)

    if isinstance(expr, Arg):
        index = expr.index

        def copy(*inputs: np.ndarray, out: np.ndarray) -> None:
            np.copyto(out, inputs[index])

        return copy

    def run(*inputs: np.ndarray, out: np.ndarray) -> None:
        with np.errstate(all="ignore"):
            evaluate(expr, inputs, out)

    return run


def c_expression(expr: Expr) -> str:
    """The formula as a float32 C expression of `x` (operand 0) and `y`."""
    if isinstance(expr, Arg):
        return "xy"[expr.index]
    if isinstance(expr, Const):
        return f"{float(expr.value)!r}f"
    assert isinstance(expr, Call)
    return C[expr.fn].format(*(c_expression(a) for a in expr.args))


def _codes(arity: int) -> dict[str, int]:
    ops = [op for op in hip.ELEMENTWISE_OPS if op.FORMULA.arity() == arity]
    return {op.kind(): i + 1 for i, op in enumerate(ops)}


UNARY_CODES: dict[str, int] = _codes(1)
"""`op` codes of `xhip_unary_f32`, 0 being a copy."""
BINARY_CODES: dict[str, int] = _codes(2)
"""`op` codes of `xhip_binary_f32`."""
COPY_CODE = 0


def generated_switches() -> str:
    """The device functions the elementwise kernels call, one case per op."""
    lines = ["// Generated from the FORMULA of each elementwise hip op."]
    for arity, codes, params in (
        (1, UNARY_CODES, "float x"),
        (2, BINARY_CODES, "float x, float y"),
    ):
        name = "xhip_unary_op" if arity == 1 else "xhip_binary_op"
        lines.append(f"__device__ inline float {name}(int op, {params}) {{")
        lines.append("  switch (op) {")
        for op in hip.ELEMENTWISE_OPS:
            if op.kind() in codes and op.FORMULA.arity() == arity:
                code = codes[op.kind()]
                lines.append(f"    case {code}: return {c_expression(op.FORMULA)};")
        lines.append("    default: return x;")  # unary 0: a copy
        lines.append("  }")
        lines.append("}")
    return "\n".join(lines) + "\n"
