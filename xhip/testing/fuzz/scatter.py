"""Generators of the scatters, Trilu, CumSum and OneHot (`onnx_to_hip/scatter.py`)."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value


def _trilu(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or len(x.shape) < 2:
        return None
    k = g.constant(np.array(int(g.rng.integers(-3, 4)), np.int64), "k")
    return g.add("Trilu", [x.name, k], x.shape, upper=int(g.rng.integers(2)))


def _cumsum(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape:
        return None
    axis = g.constant(
        np.array(int(g.rng.integers(-len(x.shape), len(x.shape))), np.int64), "axis"
    )
    flags = {"exclusive": int(g.rng.integers(2)), "reverse": int(g.rng.integers(2))}
    return g.add("CumSum", [x.name, axis], x.shape, **flags)


def _scatter_elements(g: Graph) -> Value | None:
    """Indices in range of a static axis; size 1 in dynamic dims (any run-time
    size holds it); a reduction, so that duplicates are defined."""
    x = g.pick()
    static = [d for d, n in enumerate(x.shape) if isinstance(n, int)] if x else []
    if x is None or not static:
        return None
    axis = static[int(g.rng.integers(len(static)))]
    n = x.shape[axis]
    assert isinstance(n, int)
    shape = [s if isinstance(s, int) else 1 for s in x.shape]
    indices = g.constant(g.rng.integers(-n, n, shape).astype(np.int64), "idx")
    updates = g.constant(g.rng.uniform(0.5, 1.5, shape).astype(np.float32), "upd")
    reduction = str(g.rng.choice(["add", "mul", "max", "min"]))
    return g.add(
        "ScatterElements",
        [x.name, indices, updates],
        x.shape,
        axis=axis,
        reduction=reduction,
    )


def _scatter_nd(g: Graph) -> Value | None:
    """One row of dim 0 (0 or -1: there for any run-time size)."""
    x = g.pick()
    if x is None or not x.shape or not all(isinstance(n, int) for n in x.shape[1:]):
        return None
    rest = [int(n) for n in x.shape[1:]]
    indices = g.constant(np.array([[int(g.rng.choice([0, -1]))]], np.int64), "rows")
    updates = g.constant(g.rng.standard_normal([1, *rest]).astype(np.float32), "upd")
    reduction = str(g.rng.choice(["none", "add", "mul", "max", "min"]))
    return g.add("ScatterND", [x.name, indices, updates], x.shape, reduction=reduction)


def _one_hot(g: Graph) -> Value | None:
    """OneHot of an ArgMax over a static last dim, that many classes; rank >= 2,
    as ONNX Runtime refuses 0-D indices."""
    x = g.pick()
    if x is None or len(x.shape) < 2 or not isinstance(x.shape[-1], int):
        return None
    depth = x.shape[-1]
    best = g.add("ArgMax", [x.name], x.shape[:-1], axis=-1, keepdims=0)
    g.values.pop()
    axis = int(g.rng.integers(-len(x.shape), len(x.shape)))
    shape = list(x.shape[:-1])
    shape.insert(axis % len(x.shape), depth)
    depth_name = g.constant(np.array(float(depth), np.float32), "depth")
    values = g.constant(np.array([-0.5, 2.0], np.float32), "values")
    return g.add("OneHot", [best.name, depth_name, values], tuple(shape), axis=axis)


def _cumprod(g: Graph) -> Value | None:
    """CumProd of `1 + Tanh(x) / 2`, in [0.5, 1.5]: products of a few such
    factors stay well scaled."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    squashed = g.add("Tanh", [x.name], x.shape)
    g.values.pop()
    half = g.add("Mul", [squashed.name, g.constant(np.array(0.5, np.float32))], x.shape)
    g.values.pop()
    factors = g.add("Add", [half.name, g.constant(np.array(1.0, np.float32))], x.shape)
    g.values.pop()
    axis = g.constant(
        np.array(int(g.rng.integers(-len(x.shape), len(x.shape))), np.int64), "axis"
    )
    flags = {"exclusive": int(g.rng.integers(2)), "reverse": int(g.rng.integers(2))}
    return g.add("CumProd", [factors.name, axis], x.shape, **flags)


GENERATORS: dict[str, Generator] = {
    "Trilu": _trilu,
    "CumSum": _cumsum,
    "CumProd": _cumprod,
    "ScatterElements": _scatter_elements,
    "ScatterND": _scatter_nd,
    "OneHot": _one_hot,
}

OPSETS: dict[str, int] = {"CumProd": 26}
"""The opset CumProd came in."""
