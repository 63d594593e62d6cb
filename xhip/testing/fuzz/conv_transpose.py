"""Generators of ConvTranspose and LpPool (`onnx_to_hip/conv_transpose.py`)."""

from __future__ import annotations

import math

import numpy as np

from xhip.testing.fuzz.conv import pool
from xhip.testing.fuzz.graph import Generator, Graph, Value, channels_first


def _conv_transpose(g: Graph) -> Value | None:
    """Kernel 3, stride 1, pads 1 and 1: the length is kept."""
    x = channels_first(g)
    if x is None:
        return None
    channels = x.shape[1]
    assert isinstance(channels, int)
    group = int(g.rng.choice([d for d in (1, 2, channels) if channels % d == 0]))
    out = group * int(g.rng.integers(1, 3))
    w = (
        g.rng.standard_normal((channels, out // group, 3)) / math.sqrt(3 * channels)
    ).astype(np.float32)
    inputs = [x.name, g.constant(w, "w")]
    if g.rng.random() < 0.5:
        inputs.append(g.constant(g.rng.standard_normal(out).astype(np.float32), "b"))
    shape = (x.shape[0], out, x.shape[2])
    return g.add("ConvTranspose", inputs, shape, group=group, pads=[1, 1])


GENERATORS: dict[str, Generator] = {
    "ConvTranspose": _conv_transpose,
    "LpPool": pool("LpPool"),
}
