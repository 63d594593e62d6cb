"""Generators of ai.onnx's opset-23 attention ops (`onnx_to_hip/attention.py`):
Attention over Q, K and V projected from a value's rows, and RotaryEmbedding
of a value's heads at positions 0 to S - 1."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.gqa import all_positions, caches, hidden, pick_sequence
from xhip.testing.fuzz.graph import Generator, Graph, Value


def _attention(g: Graph) -> Value | None:
    """3-D self-attention: grouped heads or not, causal or not, a scale or
    the default, softcap or none; Q, K and V constant projections."""
    x = pick_sequence(g)
    if x is None:
        return None
    rng = g.rng
    heads, kv_heads = [(1, 1), (2, 1), (2, 2), (4, 2)][int(rng.integers(4))]
    head = int(rng.choice([2, 4, 8]))
    batch, seq, features = x.shape
    assert isinstance(features, int)

    def project(width: int) -> str:
        w = rng.uniform(-0.5, 0.5, (features, width)).astype(np.float32)
        return hidden(g, "MatMul", [x.name, g.constant(w, "w")], (batch, seq, width))

    names = [project(heads * head), project(kv_heads * head), project(kv_heads * head)]
    attributes: dict[str, object] = {
        "q_num_heads": heads,
        "kv_num_heads": kv_heads,
        "is_causal": int(rng.integers(2)),
    }
    if rng.random() < 0.3:
        attributes["softcap"] = 2.0
    if rng.random() < 0.3:
        attributes["scale"] = float(rng.uniform(0.1, 1.0))
    return g.add("Attention", names, (batch, seq, heads * head), **attributes)


def _rotary(g: Graph) -> Value | None:
    """3-D RotaryEmbedding with `num_heads`: all of each head or part of it,
    interleaved or not, cos/sin caches indexed by position_ids 0 to S - 1."""
    x = pick_sequence(g)
    if x is None:
        return None
    features = x.shape[2]
    assert isinstance(features, int)
    heads = [h for h in (1, 2, 4) if features % h == 0 and (features // h) % 2 == 0]
    if not heads:
        return None
    count = heads[int(g.rng.integers(len(heads)))]
    head = features // count
    rotary = head if head % 4 or g.rng.random() < 0.5 else head // 2
    positions = all_positions(g, x)
    attributes: dict[str, object] = {
        "num_heads": count,
        "interleaved": int(g.rng.integers(2)),
    }
    if rotary != head or g.rng.random() < 0.5:
        attributes["rotary_embedding_dim"] = rotary
    inputs = [x.name, *caches(g, rotary // 2), positions]
    return g.add("RotaryEmbedding", inputs, x.shape, **attributes)


GENERATORS: dict[str, Generator] = {
    "Attention": _attention,
    "RotaryEmbedding": _rotary,
}

OPSETS: dict[str, int] = {"Attention": 23, "RotaryEmbedding": 23}
"""The opset these ops came in: the graphs that draw them are opset 23 or more."""
