"""Generators of Pad, the normalizations of images and the depth/space
rearrangements (`onnx_to_hip/pad.py`); the 4-D ones on `graph.image`."""

from __future__ import annotations

import math

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value, channels_first, image


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


def _depth_to_space(g: Graph) -> Value | None:
    """Channels tiled by blocksize^2 first, so they divide; both modes."""
    x = image(g)
    if x is None:
        return None
    n, c, h, w = x.shape
    assert isinstance(c, int) and isinstance(h, int)
    b = int(g.rng.choice([1, 2, 3]))
    repeats = g.constant(np.array([1, b * b, 1, 1], np.int64), "repeats")
    tiled = g.add("Tile", [x.name, repeats], (n, c * b * b, h, w))
    g.values.pop()
    width = w * b if isinstance(w, int) else g.fresh("width")
    mode = str(g.rng.choice(["DCR", "CRD"]))
    return g.add(
        "DepthToSpace", [tiled.name], (n, c, h * b, width), blocksize=b, mode=mode
    )


def _space_to_depth(g: Graph) -> Value | None:
    """The width tiled by the blocksize first (a run-time width too), the
    height drawn a multiple of it."""
    x = image(g)
    if x is None:
        return None
    n, c, h, w = x.shape
    assert isinstance(c, int) and isinstance(h, int)
    b = int(g.rng.choice([d for d in (1, 2, 4) if h % d == 0]))
    repeats = g.constant(np.array([1, 1, 1, b], np.int64), "repeats")
    wide = g.add(
        "Tile",
        [x.name, repeats],
        (n, c, h, w * b if isinstance(w, int) else g.fresh("width")),
    )
    g.values.pop()
    return g.add("SpaceToDepth", [wide.name], (n, c * b * b, h // b, w), blocksize=b)


def _lrn(g: Graph) -> Value | None:
    x = image(g)
    if x is None:
        return None
    size = int(g.rng.choice([1, 3, 5]))  # ONNX Runtime: odd sizes only
    return g.add(
        "LRN",
        [x.name],
        x.shape,
        size=size,
        alpha=float(g.rng.uniform(1e-4, 0.5)),
        beta=float(g.rng.uniform(0.5, 1.0)),
        bias=float(g.rng.uniform(1.0, 2.0)),
    )


def _group_norm(g: Graph) -> Value | None:
    """GroupNormalization-21 (a scale and bias per channel), on a rank-3 or
    an image value; the groups divide the channels."""
    x = channels_first(g) if g.rng.random() < 0.5 else image(g)
    if x is None:
        return None
    c = x.shape[1]
    assert isinstance(c, int)
    groups = int(g.rng.choice([d for d in range(1, c + 1) if c % d == 0]))
    if (
        all(isinstance(n, int) for n in x.shape[2:])
        and math.prod(
            x.shape[2:]  # pyright: ignore[reportArgumentType]
        )
        * (c // groups)
        == 1
    ):
        return None  # one element a group: the bias, and ULPs times 316 (above)
    scale = g.constant(g.rng.uniform(0.5, 1.5, c).astype(np.float32))
    bias = g.constant(g.rng.standard_normal(c).astype(np.float32))
    return g.add(
        "GroupNormalization", [x.name, scale, bias], x.shape, num_groups=groups
    )


GENERATORS: dict[str, Generator] = {
    "Pad": _pad,
    "InstanceNormalization": _instance_norm,
    "DepthToSpace": _depth_to_space,
    "SpaceToDepth": _space_to_depth,
    "LRN": _lrn,
    "GroupNormalization": _group_norm,
}

OPSETS: dict[str, int] = {"GroupNormalization": 21}
"""GroupNormalization-21: a scale and bias per channel (18's, per group, is
deprecated and onnx's checker refuses it)."""
