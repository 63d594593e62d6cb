"""Generators of the views (`onnx_to_hip/reshape.py`)."""

from __future__ import annotations

import math

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value


def _flatten(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or len(x.shape) < 2:
        return None
    axis = int(g.rng.integers(1, len(x.shape)))
    head, tail = x.shape[:axis], x.shape[axis:]
    if not all(isinstance(d, int) for d in tail) or len(head) != 1:
        return None
    return g.add("Flatten", [x.name], (head[0], math.prod(tail)), axis=axis)  # pyright: ignore[reportArgumentType]


def _reshape(g: Graph) -> Value | None:
    """Split or merge the static trailing dims; keep the leading ones (`0`)."""
    x = g.pick()
    if x is None or len(x.shape) < 2 or not isinstance(x.shape[-1], int):
        return None
    last = x.shape[-1]
    factors = [f for f in range(2, last) if last % f == 0]
    lead = [0] * (len(x.shape) - 1)
    if factors:
        f = int(g.rng.choice(factors))
        target, shape = [*lead, f, -1], (*x.shape[:-1], f, last // f)
    elif isinstance(x.shape[-2], int):
        target, shape = [*lead[:-1], -1], (*x.shape[:-2], x.shape[-2] * last)
    else:
        return None
    shape_name = g.constant(np.array(target, np.int64), "shape")
    return g.add("Reshape", [x.name, shape_name], shape)


def _unsqueeze(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or len(x.shape) > 4:
        return None
    axis = int(g.rng.integers(-len(x.shape) - 1, len(x.shape) + 1))
    out = list(x.shape)
    out.insert(axis % (len(x.shape) + 1), 1)
    axes = g.constant(np.array([axis], np.int64), "axes")
    return g.add("Unsqueeze", [x.name, axes], tuple(out))


def _squeeze(g: Graph) -> Value | None:
    x = g.pick()
    ones = [] if x is None else [i for i, d in enumerate(x.shape) if d == 1]
    if x is None or not ones:
        return None
    axis = ones[int(g.rng.integers(len(ones)))]
    axes = g.constant(np.array([axis], np.int64), "axes")
    return g.add(
        "Squeeze", [x.name, axes], tuple(d for i, d in enumerate(x.shape) if i != axis)
    )


GENERATORS: dict[str, Generator] = {
    "Flatten": _flatten,
    "Reshape": _reshape,
    "Unsqueeze": _unsqueeze,
    "Squeeze": _squeeze,
}
