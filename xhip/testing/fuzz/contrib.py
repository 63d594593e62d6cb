"""Generators of ONNX Runtime's fused elementwise and normalization ops
(`onnx_to_hip/contrib.py`): FastGelu, BiasGelu, QuickGelu,
SkipLayerNormalization and SkipSimplifiedLayerNormalization in the
`com.microsoft` domain, SimplifiedLayerNormalization in the default one
(where ONNX Runtime registers it). Biases run along a static last dim."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.graph import MS, Generator, Graph, Value, contrib


def _last_static(g: Graph, ranks: tuple[int, ...] = (1, 2, 3)) -> Value | None:
    x = g.pick()
    if x is None or len(x.shape) not in ranks or not isinstance(x.shape[-1], int):
        return None
    return x


def _vector(g: Graph, n: int, low: float = -1.0, high: float = 1.0) -> str:
    return g.constant(g.rng.uniform(low, high, n).astype(np.float32))


def _fast_gelu(g: Graph) -> Value | None:
    """With a bias or without."""
    x = _last_static(g)
    if x is None:
        return None
    n = x.shape[-1]
    assert isinstance(n, int)
    inputs = [x.name] + ([_vector(g, n)] if g.rng.random() < 0.5 else [])
    return contrib(g, "FastGelu", inputs, x.shape)


def _bias_gelu(g: Graph) -> Value | None:
    x = _last_static(g)
    if x is None:
        return None
    n = x.shape[-1]
    assert isinstance(n, int)
    return contrib(g, "BiasGelu", [x.name, _vector(g, n)], x.shape)


def _quick_gelu(g: Graph) -> Value | None:
    """The default alpha (1.702) or a drawn one."""
    x = g.pick()
    if x is None:
        return None
    alpha = {} if g.rng.random() < 0.5 else {"alpha": float(g.rng.uniform(0.5, 2.0))}
    return contrib(g, "QuickGelu", [x.name], x.shape, **alpha)


def _skip(g: Graph, x: Value) -> str:
    """Another value of x's shape, or x (ORT wants the skip's batch and
    sequence dims, which no constant has when they are dynamic)."""
    same = [v for v in g.values if v.shape == x.shape and v is not x] or [x]
    return same[int(g.rng.integers(len(same)))].name


def _skip_norm(simplified: bool) -> Generator:
    """x + skip (+ bias) normalized over the last dim; a beta or none."""

    def make(g: Graph) -> Value | None:
        x = _last_static(g, (2, 3))
        if x is None:
            return None
        n = x.shape[-1]
        assert isinstance(n, int)
        inputs = [x.name, _skip(g, x), _vector(g, n, 0.5, 1.5)]
        if not simplified:
            inputs.append(_vector(g, n) if g.rng.random() < 0.5 else "")
        if g.rng.random() < 0.5:
            inputs.append(_vector(g, n))
        while inputs[-1] == "":
            inputs.pop()
        epsilon = float(g.rng.choice([1e-5, 1e-2]))
        op = (
            "SkipSimplifiedLayerNormalization"
            if simplified
            else "SkipLayerNormalization"
        )
        return contrib(g, op, inputs, x.shape, epsilon=epsilon)

    return make


def _simplified_norm(g: Graph) -> Value | None:
    """Over the last axis (the default) or the last two where both are static."""
    x = _last_static(g)
    if x is None:
        return None
    axis = -1
    if len(x.shape) > 1 and isinstance(x.shape[-2], int) and g.rng.random() < 0.5:
        axis = -2
    static = [d for d in x.shape[axis:] if isinstance(d, int)]
    scale = g.constant(g.rng.uniform(0.5, 1.5, static).astype(np.float32))
    epsilon = float(g.rng.choice([1e-5, 1e-2]))
    return g.add(
        "SimplifiedLayerNormalization",
        [x.name, scale],
        x.shape,
        axis=axis,
        epsilon=epsilon,
    )


GENERATORS: dict[str, Generator] = {
    f"{MS}.FastGelu": _fast_gelu,
    f"{MS}.BiasGelu": _bias_gelu,
    f"{MS}.QuickGelu": _quick_gelu,
    f"{MS}.SkipLayerNormalization": _skip_norm(simplified=False),
    f"{MS}.SkipSimplifiedLayerNormalization": _skip_norm(simplified=True),
    "SimplifiedLayerNormalization": _simplified_norm,
}
