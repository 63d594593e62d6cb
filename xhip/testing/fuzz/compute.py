"""Generators of the ops `onnx_to_hip/compute.py` converts: every op of its
`ELEMENTWISE` table, derived from the op's `FORMULA` (bool results cast back
to float32, bool operands comparisons, integer-only ops on integers made from
float32 values and cast back), and MatMul, Gemm, Pow, Softmax, Transpose,
Concat, Cast and Identity."""

from __future__ import annotations

import math

import numpy as np
from onnx import TensorProto, defs

from xhip.dialects.formula import FLOAT, operand_types
from xhip.testing.fuzz.graph import (
    OPSET,
    Generator,
    Graph,
    Value,
    broadcast_partner,
    integer_partner,
    to_float,
    to_integers,
)
from xhip.transforms.onnx_to_hip.compute import ELEMENTWISE

POSITIVE_DOMAIN = {"Log": 0.1, "Sqrt": 0.1, "Acosh": 1.1}
"""Ops drawn on `Abs(x) + c`: a NaN they would make below their domain
meets reductions and ArgMax, where ONNX Runtime's NaN handling follows the
order it visits elements in (see docs/fuzzing.md); Acosh's 1.1 keeps it off
its infinite slope at 1."""


BOUNDED_DOMAIN = {
    **dict.fromkeys(("Sin", "Cos", "Tan"), 1.0),
    **dict.fromkeys(("Asin", "Acos", "Atanh"), 0.5),
}
"""Ops drawn on `Tanh(x) * c`: at |x| in the thousands (`Exp(Exp(x))`) one
ulp of the argument moves Sin and Cos by 1e-4, which is the input's
rounding, not a bug; Tan has its poles, Asin, Acos and Atanh their domain
[-1, 1] with infinite slopes at the ends, where `Tanh` rounds to 1."""


def _unary(op_type: str) -> Generator:
    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        if op_type in BOUNDED_DOMAIN:
            x = g.add("Tanh", [x.name], x.shape)
            g.values.pop()
            if BOUNDED_DOMAIN[op_type] != 1.0:
                scale = np.array(BOUNDED_DOMAIN[op_type], np.float32)
                x = g.add("Mul", [x.name, g.constant(scale)], x.shape)
                g.values.pop()
        if op_type in POSITIVE_DOMAIN:
            shifted = g.add("Abs", [x.name], x.shape)
            g.values.pop()
            low = np.array(POSITIVE_DOMAIN[op_type], np.float32)
            x = g.add("Add", [shifted.name, g.constant(low)], x.shape)
            g.values.pop()
        return g.add(op_type, [x.name], x.shape)

    return make


def _integer(op_type: str, arity: int) -> Generator:
    """An op of integers only (the bitwise ones): on int32 values made from
    float32 ones, its result cast back to float32."""

    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        operands = [to_integers(g, x).name]
        if arity == 2:
            other = integer_partner(g, x)
            operands = [*operands, other][:: 1 if g.rng.random() < 0.7 else -1]
        return to_float(g, g.add(op_type, operands, x.shape))

    return make


def _binary(op_type: str) -> Generator:
    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        other, shape = broadcast_partner(g, x)
        inputs = [x.name, other] if g.rng.random() < 0.7 else [other, x.name]
        return g.add(op_type, inputs, shape)

    return make


def _pow(g: Graph) -> Value | None:
    x = g.pick()
    if x is None:
        return None
    exponent = np.float32(g.rng.choice([2.0, 3.0, -1.0]))  # no NaN: see POSITIVE_DOMAIN
    return g.add("Pow", [x.name, g.constant(np.array(exponent))], x.shape)


def _matmul(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape or not isinstance(x.shape[-1], int):
        return None
    n = int(g.rng.integers(1, 9))
    k = x.shape[-1]
    w = (g.rng.standard_normal((k, n)) / math.sqrt(k)).astype(np.float32)
    return g.add("MatMul", [x.name, g.constant(w, "w")], (*x.shape[:-1], n))


def _gemm(g: Graph) -> Value | None:
    x = g.pick(rank=2)
    if x is None or not isinstance(x.shape[1], int):
        return None
    trans_b = int(g.rng.integers(2))
    k, n = x.shape[1], int(g.rng.integers(1, 9))
    w = (g.rng.standard_normal((n, k) if trans_b else (k, n)) / math.sqrt(k)).astype(
        np.float32
    )
    inputs = [x.name, g.constant(w, "w")]
    if g.rng.random() < 0.7:
        inputs.append(g.constant(g.rng.standard_normal(n).astype(np.float32), "b"))
    alpha = float(g.rng.choice([1.0, 0.5]))
    return g.add("Gemm", inputs, (x.shape[0], n), transB=trans_b, alpha=alpha)


def _softmax(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape:
        return None
    axis = int(g.rng.integers(-len(x.shape), len(x.shape)))
    return g.add("Softmax", [x.name], x.shape, axis=axis)


def _transpose(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or len(x.shape) < 2:
        return None
    perm = [int(p) for p in g.rng.permutation(len(x.shape))]
    return g.add("Transpose", [x.name], tuple(x.shape[p] for p in perm), perm=perm)


def _concat(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape:
        return None
    axes = [i for i, d in enumerate(x.shape) if isinstance(d, int)]
    if not axes:
        return None
    axis = axes[int(g.rng.integers(len(axes)))]
    here = x.shape[axis]
    assert isinstance(here, int)
    static = [d for d in x.shape if isinstance(d, int)]
    if len(static) < len(x.shape):  # a dynamic dim: concatenate x with itself
        inputs, extra = [x.name, x.name], here
    else:
        extra = int(g.rng.integers(1, 4))
        shape = [extra if i == axis else d for i, d in enumerate(static)]
        array = g.rng.standard_normal(shape).astype(np.float32)
        inputs = [x.name, g.constant(array)]
    out = list(x.shape)
    out[axis] = here + extra
    return g.add("Concat", inputs, tuple(out), axis=axis)


def _cast(g: Graph) -> Value | None:
    """Through float16 and back, or through float64: real conversions."""
    x = g.pick()
    if x is None:
        return None
    via = int(g.rng.choice([TensorProto.FLOAT16, TensorProto.DOUBLE]))
    mid = g.add("Cast", [x.name], x.shape, to=via)
    g.values.pop()  # not a float32 value: nothing else may read it
    return g.add("Cast", [mid.name], x.shape, to=TensorProto.FLOAT)


def _bool_result(op_type: str, arity: int) -> Generator:
    """A comparison or test: its bool result cast back to float32."""

    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        if arity == 1:
            return to_float(g, g.add(op_type, [x.name], x.shape))
        other, shape = broadcast_partner(g, x)
        return to_float(g, g.add(op_type, [x.name, other], shape))

    return make


def _condition(g: Graph, x: Value) -> Value:
    """A bool value of `x`'s shape: `x > c` for a random constant `c`."""
    c = g.constant(np.array(g.rng.uniform(-0.5, 0.5), np.float32))
    cond = g.add("Greater", [x.name, c], x.shape)
    g.values.pop()
    return cond


def _logical(op_type: str, arity: int) -> Generator:
    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        operands = [_condition(g, x).name for _ in range(arity)]
        return to_float(g, g.add(op_type, operands, x.shape))

    return make


def _where(g: Graph) -> Value | None:
    x = g.pick()
    if x is None:
        return None
    other, shape = broadcast_partner(g, x)
    return g.add("Where", [_condition(g, x).name, x.name, other], shape)


def _bitcast(g: Graph) -> Value | None:
    """BitCast of `1.5 + Tanh(x)` (NaN made 0: in [0.5, 2.5], no NaN whose
    payload, no zero whose sign the bits would show) to int32 or uint32,
    cast back to float32 and scaled by 2^-30."""
    x = g.pick()
    if x is None:
        return None
    zero = g.constant(np.array(0.0, np.float32))
    steps = [
        ("IsNaN", [x.name]),
        ("Where", [None, zero, x.name]),
        ("Tanh", [None]),
        ("Add", [None, g.constant(np.array(1.5, np.float32))]),
    ]
    value = x
    for op_type, inputs in steps:
        value = g.add(op_type, [n or value.name for n in inputs], x.shape)
        g.values.pop()
    to = TensorProto.INT32 if g.rng.random() < 0.5 else TensorProto.UINT32
    bits = g.add("BitCast", [value.name], x.shape, to=to)
    g.values.pop()
    back = g.add("Cast", [bits.name], x.shape, to=TensorProto.FLOAT)
    g.values.pop()
    scale = g.constant(np.array(2.0**-30, np.float32))
    return g.add("Mul", [back.name, scale], x.shape)


OPSETS: dict[str, int] = {"BitCast": 26}
"""The opset an op came in where it is newer than `OPSET`: BitCast, and the
`ELEMENTWISE` ops `_elementwise_table` finds newer (Swish)."""


def _elementwise_table() -> dict[str, Generator]:
    """A generator for every op of `compute.ELEMENTWISE`, from its formula:
    bool results are cast back to float32, bool operands are comparisons,
    integer-only ops take integers made from float32 values."""
    table: dict[str, Generator] = {}
    for onnx_type, hip_type in ELEMENTWISE.items():
        op_type = onnx_type.name.removeprefix("onnx.")
        if not defs.has(op_type, OPSET):  # newer than the base opset (Swish)
            OPSETS[op_type] = defs.get_schema(op_type).since_version
        formula = hip_type.FORMULA
        arity = formula.arity()
        bools = operand_types(formula, arity)
        if op_type == "Where":
            table[op_type] = _where
        elif any(bools):
            table[op_type] = _logical(op_type, arity)
        elif formula.is_bool():
            table[op_type] = _bool_result(op_type, arity)
        elif FLOAT not in hip_type.kinds():
            table[op_type] = _integer(op_type, arity)
        else:
            table[op_type] = _unary(op_type) if arity == 1 else _binary(op_type)
    return table


GENERATORS: dict[str, Generator] = {
    **_elementwise_table(),
    "Pow": _pow,
    "Identity": _unary("Identity"),
    "MatMul": _matmul,
    "Gemm": _gemm,
    "Softmax": _softmax,
    "Transpose": _transpose,
    "Concat": _concat,
    "Cast": _cast,
    "BitCast": _bitcast,
}
