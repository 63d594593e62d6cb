"""The TopK generator (`onnx_to_hip/topk.py`)."""

from __future__ import annotations

import numpy as np
from onnx import helper

from xhip.testing.fuzz.graph import Generator, Graph, Value, to_float


def _topk(g: Graph) -> Value | None:
    """Along a static dim, K a constant; the indices cast back to float32."""
    x = g.pick()
    if x is None:
        return None
    axes = [d for d, n in enumerate(x.shape) if isinstance(n, int)]
    if not axes:
        return None
    axis = axes[int(g.rng.integers(len(axes)))]
    n = x.shape[axis]
    assert isinstance(n, int)
    k = int(g.rng.integers(1, n + 1))
    shape = tuple(k if d == axis else size for d, size in enumerate(x.shape))
    values = Value(g.fresh("topk"), shape)
    indices = Value(g.fresh("topk_i"), shape)
    node = helper.make_node(
        "TopK",
        [x.name, g.constant(np.array([k], np.int64), "k")],
        [values.name, indices.name],
        name=values.name,
        axis=axis - len(x.shape) if g.rng.random() < 0.5 else axis,
        largest=int(g.rng.integers(2)),
    )
    g.nodes.append(node)
    g.values.append(values)
    g.values.append(indices)
    return to_float(g, indices)


GENERATORS: dict[str, Generator] = {"TopK": _topk}
