"""Generators of Det (`onnx_to_hip/linalg.py`)."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value


def _det(g: Graph) -> Value | None:
    """The determinants of a value's leading square blocks (at most 3 x 3; 1
    x 1 where a dim is dynamic), multiplied back into it (rank 3: along its
    first dim)."""
    x = g.pick()
    if x is None or len(x.shape) not in (2, 3):
        return None
    m = min(min(d, 3) if isinstance(d, int) else 1 for d in x.shape[-2:])
    batch = x.shape[:-2]
    starts = g.constant(np.array([0, 0], np.int64))
    ends = g.constant(np.array([m, m], np.int64))
    axes = g.constant(np.array([-2, -1], np.int64))
    block = g.add("Slice", [x.name, starts, ends, axes], (*batch, m, m))
    g.values.pop()
    det = g.add("Det", [block.name], batch)
    g.values.pop()
    if batch:
        at = g.constant(np.array([1, 2], np.int64))
        det = g.add("Unsqueeze", [det.name, at], (*batch, 1, 1))
        g.values.pop()
    return g.add("Mul", [x.name, det.name], x.shape)


GENERATORS: dict[str, Generator] = {"Det": _det}
