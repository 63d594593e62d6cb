"""Generators of the convolution, the pools and batch normalization
(`onnx_to_hip/conv.py`), on a channels-first transpose of a rank-3 value."""

from __future__ import annotations

import math

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value, channels_first


def _conv(g: Graph) -> Value | None:
    x = channels_first(g)
    if x is None:
        return None
    channels = x.shape[1]
    assert isinstance(channels, int)
    group = int(g.rng.choice([d for d in (1, 2, channels) if channels % d == 0]))
    out = group * int(g.rng.integers(1, 3))
    k = int(g.rng.choice([1, 3]))
    w = (
        g.rng.standard_normal((out, channels // group, k)) / math.sqrt(k * channels)
    ).astype(np.float32)
    inputs = [x.name, g.constant(w, "w")]
    if g.rng.random() < 0.5:
        inputs.append(g.constant(g.rng.standard_normal(out).astype(np.float32), "b"))
    shape = (x.shape[0], out, x.shape[2])
    return g.add(
        "Conv", inputs, shape, group=group, kernel_shape=[k], pads=[k // 2, k // 2]
    )


def pool(op_type: str) -> Generator:
    def make(g: Graph) -> Value | None:
        x = channels_first(g)
        if x is None:
            return None
        if op_type.startswith("Global"):
            return g.add(op_type, [x.name], (x.shape[0], x.shape[1], 1))
        # kernel 2, stride 1, one pad at the end: the length is kept.
        shape = x.shape
        return g.add(op_type, [x.name], shape, kernel_shape=[2], pads=[0, 1])

    return make


def _batch_norm(g: Graph) -> Value | None:
    x = channels_first(g)
    if x is None:
        return None
    c = x.shape[1]
    assert isinstance(c, int)
    stats = [
        g.rng.uniform(0.5, 1.5, c),
        g.rng.standard_normal(c),
        g.rng.standard_normal(c),
        g.rng.uniform(0.5, 2.0, c),
    ]
    names = [g.constant(a.astype(np.float32)) for a in stats]
    return g.add("BatchNormalization", [x.name, *names], x.shape)


GENERATORS: dict[str, Generator] = {
    "Conv": _conv,
    "MaxPool": pool("MaxPool"),
    "AveragePool": pool("AveragePool"),
    "GlobalAveragePool": pool("GlobalAveragePool"),
    "GlobalMaxPool": pool("GlobalMaxPool"),
    "BatchNormalization": _batch_norm,
}
