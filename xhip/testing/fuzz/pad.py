"""Generators of Pad and InstanceNormalization (`onnx_to_hip/pad.py`)."""

from __future__ import annotations

import math

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value, channels_first


def _pad(g: Graph) -> Value | None:
    """Pads on the static dims: a crop of 1 or a pad of up to 2 in constant
    mode; pads of 0 or 1 in the other modes, on dims of 2 or more."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    mode = str(g.rng.choice(["constant", "reflect", "edge", "wrap"]))
    rank = len(x.shape)
    pads = [0] * (2 * rank)
    for d, n in enumerate(x.shape):
        if not isinstance(n, int) or (mode != "constant" and n < 2):
            continue
        low = -1 if mode == "constant" and n > 2 else 0
        high = 2 if mode == "constant" else 1
        pads[d], pads[rank + d] = (int(v) for v in g.rng.integers(low, high + 1, 2))
    shape = tuple(
        n if isinstance(n, str) else n + pads[d] + pads[rank + d]
        for d, n in enumerate(x.shape)
    )
    inputs = [x.name, g.constant(np.array(pads, np.int64), "pads")]
    if mode == "constant":
        inputs.append(g.constant(np.array(g.rng.standard_normal(), np.float32)))
    return g.add("Pad", inputs, shape, mode=mode)


def _instance_norm(g: Graph) -> Value | None:
    x = channels_first(g)
    if x is None:
        return None
    c = x.shape[1]
    assert isinstance(c, int)
    spatial = x.shape[2:]
    if all(isinstance(n, int) for n in spatial) and math.prod(spatial) == 1:
        # One element per channel: its variance is 0, the exact result is the
        # bias, and a reference's rounding in x - mean is multiplied by
        # 1/sqrt(epsilon) = 316 (seed 135 drew this; ONNX Runtime was off by
        # 7.8e-4 where numpy in float64 gives the bias exactly).
        return None
    scale = g.constant(g.rng.uniform(0.5, 1.5, c).astype(np.float32))
    bias = g.constant(g.rng.standard_normal(c).astype(np.float32))
    if all(isinstance(n, int) for n in spatial):
        return g.add("InstanceNormalization", [x.name, scale, bias], x.shape)
    # A dynamic length is 1 at run time one time in five: the exact result is
    # then the bias, and ONNX Runtime's E[x^2] - E[x]^2 is off by about
    # |x|^2 / 50000 (2.7e-4 on integers up to 64, seed 140090), which also
    # breaks the bias's ties across the batch (a Hardmax or ArgMin after it:
    # seeds 549, 140459). So |x| is kept below 1 (Tanh), and 0.01 x added
    # to the result parts the ties where x differs.
    squashed = g.add("Tanh", [x.name], x.shape)
    g.values.pop()
    normed = g.add("InstanceNormalization", [squashed.name, scale, bias], x.shape)
    g.values.pop()
    hundredth = g.constant(np.array(0.01, np.float32))
    nudge = g.add("Mul", [squashed.name, hundredth], x.shape)
    g.values.pop()
    return g.add("Add", [normed.name, nudge.name], x.shape)


GENERATORS: dict[str, Generator] = {
    "Pad": _pad,
    "InstanceNormalization": _instance_norm,
}
