"""The Resize generator (`onnx_to_hip/resize.py`)."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value, channels_first


def _resize(g: Graph) -> Value | None:
    """The length doubled, linear or nearest; where the length is a named dim,
    the (static) channels doubled instead, nearest."""
    x = channels_first(g)
    if x is None:
        return None
    c, length = x.shape[1], x.shape[2]
    assert isinstance(c, int)
    if isinstance(length, int):
        factors, shape = [1.0, 1.0, 2.0], (x.shape[0], c, 2 * length)
        mode = str(g.rng.choice(["nearest", "linear"]))
    else:
        factors, shape, mode = [1.0, 2.0, 1.0], (x.shape[0], 2 * c, length), "nearest"
    scales = g.constant(np.asarray(factors, np.float32), "scales")
    return g.add("Resize", [x.name, "", scales], shape, mode=mode)


GENERATORS: dict[str, Generator] = {"Resize": _resize}
