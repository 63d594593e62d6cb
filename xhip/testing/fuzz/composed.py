"""Generators of the ops made of other ops (`onnx_to_hip/composed.py`):
LpNormalization, MeanVarianceNormalization, GlobalLpPool, the windows,
ReverseSequence and EyeLike."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto

from xhip.testing.fuzz.graph import Generator, Graph, Value


def _lp_normalization(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape:
        return None
    axis = int(g.rng.integers(-len(x.shape), len(x.shape)))
    p = int(g.rng.integers(1, 3))
    return g.add("LpNormalization", [x.name], x.shape, axis=axis, p=p)


def _mean_variance_normalization(g: Graph) -> Value | None:
    """Over a random set of static axes of 2 or more elements (the default
    0, 2, 3 needs rank 4), of the value plus random offsets along them: on a
    line of zero variance ONNX Runtime's kernel divides 0 by 0 (NaN), where
    the spec (its 1e-9) and xhip give 0; lines that vary keep both close."""
    x = g.pick()
    sizes = [n if isinstance(n, int) else 1 for n in x.shape] if x else []
    static = [d for d, n in enumerate(sizes) if n >= 2]
    if x is None or not static:
        return None
    count = int(g.rng.integers(1, len(static) + 1))
    axes = sorted(int(a) for a in g.rng.choice(static, count, replace=False))
    offsets = [n if d in axes else 1 for d, n in enumerate(sizes)]
    ramp = g.constant(g.rng.uniform(-1, 1, offsets).astype(np.float32))
    varied = g.add("Add", [x.name, ramp], x.shape)
    g.values.pop()
    return g.add("MeanVarianceNormalization", [varied.name], x.shape, axes=axes)


def _global_lp_pool(g: Graph) -> Value | None:
    x = g.pick(rank=3)
    if x is None:
        return None
    p = int(g.rng.integers(1, 4))
    return g.add("GlobalLpPool", [x.name], (x.shape[0], x.shape[1], 1), p=p)


def _window(op_type: str) -> Generator:
    """A window of a constant size plus 0.25, added to a value whose last
    dim it is. The 0.25 keeps the sum off 0 where the value is 0 (a cast
    bool): Blackman's and Hann's ends are 0 in exact arithmetic, and ONNX
    Runtime's (double, its a0 = 0.5f - 0.08f) and the spec's (float32)
    roundings of them differ in sign (fuzz seed 70782: a Sign after it)."""

    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None or not x.shape or not isinstance(x.shape[-1], int):
            return None
        n = x.shape[-1]
        size = g.constant(np.array(n, np.int64), "size")
        window = g.add(op_type, [size], (n,), periodic=int(g.rng.integers(2)))
        g.values.pop()  # 1-D: added to x, not drawn on alone
        lifted = g.add(
            "Add", [window.name, g.constant(np.array(0.25, np.float32))], (n,)
        )
        g.values.pop()
        return g.add("Add", [x.name, lifted.name], x.shape)

    return make


def _reverse_sequence(g: Graph) -> Value | None:
    """Time and batch the first two dims (either way round); a dynamic batch
    dim sliced to 1 (the result then added back into the value); lengths
    from 0 to a static time dim, or, for one known only at run time, that
    dim less 0 to 3 (at least 0), computed in the graph."""
    x = g.pick()
    if x is None or len(x.shape) < 2:
        return None
    time = int(g.rng.integers(2))
    steps, batch = x.shape[time], x.shape[1 - time]
    source = x
    if not isinstance(batch, int):
        batch = 1
        at = g.constant(np.array([1 - time], np.int64))
        zero, one = (g.constant(np.array([v], np.int64)) for v in (0, 1))
        source = g.add("Slice", [x.name, zero, one, at], x.shape)
        g.values.pop()
    if isinstance(steps, int):
        drawn = g.rng.integers(0, steps + 1, batch).astype(np.int64)
        lens = g.constant(drawn, "lens")
    else:
        less = g.constant(g.rng.integers(0, 4, batch).astype(np.int64), "less")
        dim = g.add("Shape", [x.name], (1,), start=time, end=time + 1)
        short = g.add("Sub", [dim.name, less], (batch,))
        floor = g.constant(np.array([0], np.int64))
        lens = g.add("Max", [short.name, floor], (batch,)).name
        del g.values[-3:]  # int64: not values the float generators may read
    flags = {"time_axis": time, "batch_axis": 1 - time}
    out = g.add("ReverseSequence", [source.name, lens], source.shape, **flags)
    if source is x:
        return out
    g.values.pop()
    return g.add("Add", [x.name, out.name], x.shape)


def _eye_like(g: Graph) -> Value | None:
    """Multiplied into a rank-2 value (a float EyeLike of a float input)."""
    x = g.pick(rank=2)
    if x is None:
        return None
    k = int(g.rng.integers(-2, 3))
    eye = g.add("EyeLike", [x.name], x.shape, k=k, dtype=TensorProto.FLOAT)
    g.values.pop()
    return g.add("Mul", [x.name, eye.name], x.shape)


GENERATORS: dict[str, Generator] = {
    "LpNormalization": _lp_normalization,
    "MeanVarianceNormalization": _mean_variance_normalization,
    "GlobalLpPool": _global_lp_pool,
    "HannWindow": _window("HannWindow"),
    "HammingWindow": _window("HammingWindow"),
    "BlackmanWindow": _window("BlackmanWindow"),
    "EyeLike": _eye_like,
    "ReverseSequence": _reverse_sequence,
}
