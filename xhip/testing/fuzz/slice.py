"""Generators of the slicing, splitting and broadcasting copies
(`onnx_to_hip/slice.py`)."""

from __future__ import annotations

import numpy as np
from onnx import helper

from xhip.testing.fuzz.graph import Generator, Graph, Value


def _slice(g: Graph) -> Value | None:
    """A static dim sliced at random (out-of-range and negative starts and
    ends, negative steps), a dynamic one kept whole or reversed."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    axis = int(g.rng.integers(len(x.shape)))
    n, step = x.shape[axis], int(g.rng.choice([-2, -1, 1, 2]))
    if isinstance(n, str):
        start, end = (0, 2**63 - 1) if step > 0 else (-1, -(2**63))
        step, size = (1, n) if step > 0 else (-1, n)
    else:
        start, end = (int(v) for v in g.rng.integers(-n - 2, n + 3, 2))
        size = len(range(n)[start:end:step])
        if size == 0:
            return None
    names = [g.constant(np.array([v], np.int64), "s") for v in (start, end)]
    axes = g.constant(np.array([axis - len(x.shape)], np.int64), "axes")
    steps = g.constant(np.array([step], np.int64), "steps")
    shape = tuple(size if d == axis else m for d, m in enumerate(x.shape))
    return g.add("Slice", [x.name, *names, axes, steps], shape)


def _split(g: Graph) -> Value | None:
    """Two parts of a static dim: by `num_outputs` (an uneven last one) or by
    `split` sizes; both are values of the graph."""
    x = g.pick()
    axes = [] if x is None else [d for d, n in enumerate(x.shape) if n in range(2, 99)]
    if x is None or not axes:
        return None
    axis = axes[int(g.rng.integers(len(axes)))]
    n = x.shape[axis]
    assert isinstance(n, int)
    first = -(-n // 2) if g.rng.random() < 0.5 else int(g.rng.integers(1, n))
    outs = [Value(g.fresh("split"), x.shape), Value(g.fresh("split"), x.shape)]
    for value, size in zip(outs, (first, n - first), strict=True):
        value.shape = tuple(size if d == axis else m for d, m in enumerate(x.shape))
    if first == -(-n // 2):
        node = helper.make_node(
            "Split", [x.name], [v.name for v in outs], axis=axis, num_outputs=2
        )
    else:
        sizes = g.constant(np.array([first, n - first], np.int64), "split")
        node = helper.make_node("Split", [x.name, sizes], [v.name for v in outs])
        node.attribute.append(helper.make_attribute("axis", axis))
    g.nodes.append(node)
    g.values += outs
    return outs[-1]


def _tile(g: Graph) -> Value | None:
    """Static dims repeated 1 to 3 times; dynamic ones once."""
    x = g.pick()
    if x is None or len(x.shape) > 3:
        return None
    repeats = [1 if isinstance(n, str) else int(g.rng.integers(1, 4)) for n in x.shape]
    shape = tuple(n if r == 1 else n * r for n, r in zip(x.shape, repeats))  # pyright: ignore[reportOperatorIssue]
    name = g.constant(np.array(repeats, np.int64), "repeats")
    return g.add("Tile", [x.name, name], shape)


def _expand(g: Graph) -> Value | None:
    """numpy broadcasting both ways: a size-1 dim widened, a 1 in the shape
    keeping the input's dim, a new leading dim sometimes."""
    x = g.pick()
    if x is None or len(x.shape) > 3:
        return None
    lead = [int(g.rng.integers(1, 3))] if g.rng.random() < 0.5 else []
    target = lead + [int(g.rng.integers(1, 4)) if n == 1 else 1 for n in x.shape]
    shape = (*lead, *(t if n == 1 else n for n, t in zip(x.shape, target[len(lead) :])))
    name = g.constant(np.array(target, np.int64), "shape")
    return g.add("Expand", [x.name, name], shape)


GENERATORS: dict[str, Generator] = {
    "Slice": _slice,
    "Split": _split,
    "Tile": _tile,
    "Expand": _expand,
}
