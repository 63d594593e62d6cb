"""The Resize generator (`onnx_to_hip/resize.py`)."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value, channels_first


def _resize(g: Graph) -> Value | None:
    """The length doubled (a static one), linear or nearest."""
    x = channels_first(g)
    if x is None or not isinstance(x.shape[2], int):
        return None
    scales = g.constant(np.asarray([1.0, 1.0, 2.0], np.float32), "scales")
    mode = str(g.rng.choice(["nearest", "linear"]))
    shape = (x.shape[0], x.shape[1], 2 * x.shape[2])
    return g.add("Resize", [x.name, "", scales], shape, mode=mode)


GENERATORS: dict[str, Generator] = {"Resize": _resize}
