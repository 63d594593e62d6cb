"""Generators of ONNX Runtime's BERT ops (`onnx_to_hip/bert.py`):
MultiHeadAttention and Attention over a value's rows, EmbedLayerNormalization
of ids made from a matrix's entries."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto

from xhip.testing.fuzz.gqa import hidden, pick_sequence
from xhip.testing.fuzz.graph import MS, Generator, Graph, Value, contrib, to_integers

VOCAB = 64
"""Ids are in [0, 63] (`to_integers` unsigned)."""


def _heads(g: Graph) -> tuple[int, int]:
    return [(1, 4), (2, 2), (2, 4), (4, 2)][int(g.rng.integers(4))]


def _mha(g: Graph) -> Value | None:
    """Q, K and V projections of a value (self-attention) or K and V of
    another of the same batch (cross), a bias or none, unidirectional or not
    (self only), a scale or the default."""
    x = pick_sequence(g)
    if x is None:
        return None
    rng = g.rng
    heads, head = _heads(g)
    width = heads * head
    others = [
        v
        for v in g.values
        if len(v.shape) == 3
        and v.shape[0] == x.shape[0]
        and isinstance(v.shape[2], int)
    ]
    source = others[int(rng.integers(len(others)))] if rng.random() < 0.3 else x

    def project(v: Value) -> str:
        f = v.shape[2]
        assert isinstance(f, int)
        w = rng.uniform(-0.5, 0.5, (f, width)).astype(np.float32)
        shape = (v.shape[0], v.shape[1], width)
        return hidden(g, "MatMul", [v.name, g.constant(w, "w")], shape)

    names = [project(x), project(source), project(source)]
    if rng.random() < 0.5:
        names.append(g.constant(rng.uniform(-0.5, 0.5, 3 * width).astype(np.float32)))
    attributes: dict[str, object] = {"num_heads": heads}
    if source is x and rng.random() < 0.5:
        attributes["unidirectional"] = 1
    if rng.random() < 0.3:
        attributes["scale"] = float(rng.uniform(0.1, 1.0))
    return contrib(
        g, "MultiHeadAttention", names, (x.shape[0], x.shape[1], width), **attributes
    )


def _attention(g: Graph) -> Value | None:
    """Packed Q, K, V weights and bias; unidirectional or not, a scale or
    the default, Q/K and V hidden sizes equal or V's different."""
    x = pick_sequence(g)
    if x is None:
        return None
    rng = g.rng
    heads, head = _heads(g)
    features = x.shape[2]
    assert isinstance(features, int)
    qk = heads * head
    v = heads * int(rng.choice([head, 2 * head])) if rng.random() < 0.3 else qk
    width = 2 * qk + v
    weights = rng.uniform(-0.5, 0.5, (features, width)).astype(np.float32)
    bias = rng.uniform(-0.5, 0.5, width).astype(np.float32)
    attributes: dict[str, object] = {
        "num_heads": heads,
        "unidirectional": int(rng.integers(2)),
    }
    if v != qk:
        attributes["qkv_hidden_sizes"] = [qk, qk, v]
    if rng.random() < 0.3:
        attributes["scale"] = float(rng.uniform(0.1, 1.0))
    names = [x.name, g.constant(weights, "w"), g.constant(bias, "b")]
    return contrib(g, "Attention", names, (x.shape[0], x.shape[1], v), **attributes)


def _embed(g: Graph) -> Value | None:
    """Word ids (and segment ids, or none) from a (batch, F) matrix's entries
    taken as (batch, seq = F); position embeddings at 0 to F - 1; the
    mask_index result left unread."""
    x = g.pick(rank=2)
    if x is None or not isinstance(x.shape[1], int):
        return None
    rng = g.rng
    hidden_size = int(rng.choice([4, 8]))
    ids = hidden(
        g,
        "Cast",
        [to_integers(g, x, unsigned=True).name],
        x.shape,
        to=TensorProto.INT32,
    )

    def table(rows: int) -> str:
        return g.constant(
            rng.standard_normal((rows, hidden_size)).astype(np.float32), "emb"
        )

    segments = ""
    if rng.random() < 0.5:
        odd = hidden(g, "Mod", [ids, g.constant(np.array(2, np.int32))], x.shape)
        segments = odd
    names = [
        ids,
        segments,
        table(VOCAB),
        table(x.shape[1] + int(rng.integers(0, 3))),
        table(2) if segments else "",
        g.constant(rng.uniform(0.5, 1.5, hidden_size).astype(np.float32), "gamma"),
        g.constant(rng.uniform(-1, 1, hidden_size).astype(np.float32), "beta"),
    ]
    out = contrib(
        g,
        "EmbedLayerNormalization",
        names,
        (x.shape[0], x.shape[1], hidden_size),
        epsilon=float(rng.choice([1e-5, 1e-2])),
    )
    g.nodes[-1].output.append(g.fresh("mask_index"))
    return out


GENERATORS: dict[str, Generator] = {
    f"{MS}.MultiHeadAttention": _mha,
    f"{MS}.Attention": _attention,
    f"{MS}.EmbedLayerNormalization": _embed,
}
