"""Generators of the gathers (`onnx_to_hip/gather.py`)."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value


def _index_array(g: Graph, size: int | str, shape: tuple[int, ...]) -> np.ndarray:
    """Indices into a dim, negative ones too: `[-n, n)` for a static size, 0 or
    -1 (valid at every size) for a dynamic one."""
    if isinstance(size, int):
        return g.rng.integers(-size, size, shape).astype(np.int64)
    return g.rng.choice(np.array([0, -1], np.int64), shape)


def _gather(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape or len(x.shape) > 3:
        return None
    axis = int(g.rng.integers(-len(x.shape), len(x.shape)))
    here = axis % len(x.shape)
    shape = tuple(int(n) for n in g.rng.integers(1, 4, int(g.rng.integers(0, 3))))
    idx = _index_array(g, x.shape[here], shape).astype(
        np.int32 if g.rng.random() < 0.5 else np.int64
    )
    out = (*x.shape[:here], *shape, *x.shape[here + 1 :])
    return g.add("Gather", [x.name, g.constant(idx, "idx")], out, axis=axis)


def _gather_elements(g: Graph) -> Value | None:
    """Off the axis the indices are no larger than data: 1 on a dynamic dim."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    axis = int(g.rng.integers(-len(x.shape), len(x.shape)))
    here = axis % len(x.shape)
    shape = tuple(
        int(g.rng.integers(1, 4))
        if d == here
        else int(g.rng.integers(1, n + 1))
        if isinstance(n, int)
        else 1
        for d, n in enumerate(x.shape)
    )
    idx = _index_array(g, x.shape[here], shape)
    return g.add("GatherElements", [x.name, g.constant(idx, "idx")], shape, axis=axis)


def _gather_nd(g: Graph) -> Value | None:
    """batch_dims 0: constant indices cannot share a dynamic batch dim."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    k = int(g.rng.integers(1, len(x.shape) + 1))
    lead = tuple(int(n) for n in g.rng.integers(1, 4, int(g.rng.integers(1, 3))))
    idx = np.stack([_index_array(g, n, lead) for n in x.shape[:k]], -1)
    out = (*lead, *x.shape[k:])
    return g.add("GatherND", [x.name, g.constant(idx, "idx")], out)


GENERATORS: dict[str, Generator] = {
    "Gather": _gather,
    "GatherElements": _gather_elements,
    "GatherND": _gather_nd,
}
