"""The generators of ONNX Runtime's LLM attention ops (`onnx_to_hip/gqa.py`),
in the `com.microsoft` domain (the driver imports it where a graph uses it),
and the helpers the attention families share:
GroupQueryAttention as a first prompt of a value's rows, its projections
constants, `seqlens_k` and `total_sequence_length` made from the value's
shape as an exporter makes them; RotaryEmbedding at positions 0 to S - 1."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper

from xhip.testing.fuzz.graph import MS, Generator, Graph, Value

POSITIONS = 32
"""Rows of the rotary caches: more than any sequence the fuzzer makes."""


def hidden(
    g: Graph,
    op_type: str,
    inputs: list[str],
    shape: tuple[int | str, ...],
    **attributes: object,
) -> str:
    """A node's output that no other generator reads."""
    value = g.add(op_type, inputs, shape, **attributes)
    g.values.pop()
    return value.name


def caches(g: Graph, half: int) -> list[str]:
    angles = g.rng.uniform(0, 6, (POSITIONS, half))
    return [
        g.constant(np.cos(angles).astype(np.float32), "cos"),
        g.constant(np.sin(angles).astype(np.float32), "sin"),
    ]


def sequence(g: Graph, x: Value) -> tuple[str, str]:
    """The shape of `x` and its dim 1 (an int64 scalar), as shape ops."""
    shape = hidden(g, "Shape", [x.name], (3,))
    seq = hidden(g, "Gather", [shape, g.constant(np.array(1, np.int64))], ())
    return shape, seq


def pick_sequence(g: Graph) -> Value | None:
    """A rank-3 value (B, S, F), F static, S short enough for the caches."""
    x = g.pick(rank=3)
    if x is None or not isinstance(x.shape[2], int):
        return None
    if isinstance(x.shape[1], int) and x.shape[1] > POSITIONS:
        return None
    return x


def _gqa(g: Graph) -> Value | None:
    """Q, K, V projected from a value (packed or not), rotary or not, a local
    window, softcap, a head sink, one KV head or more."""
    x = pick_sequence(g)
    if x is None:
        return None
    rng = g.rng
    heads, kv_heads = [(2, 1), (2, 2), (4, 2), (4, 1)][int(rng.integers(4))]
    rotary = rng.random() < 0.5
    head = 16 if rotary else int(rng.choice([8, 16]))  # ORT: a multiple of 8
    packed = rng.random() < 0.5
    batch, seq, features = x.shape
    assert isinstance(features, int)

    def project(width: int) -> str:
        w = rng.uniform(-0.5, 0.5, (features, width)).astype(np.float32)
        return hidden(g, "MatMul", [x.name, g.constant(w, "w")], (batch, seq, width))

    if packed:
        names = [project((heads + 2 * kv_heads) * head), "", ""]
    else:
        names = [
            project(heads * head),
            project(kv_heads * head),
            project(kv_heads * head),
        ]
    shape, length = sequence(g, x)
    total = hidden(g, "Cast", [length], (), to=TensorProto.INT32)
    last = hidden(g, "Sub", [total, g.constant(np.array(1, np.int32))], ())
    batches = hidden(
        g,
        "Slice",
        [
            shape,
            g.constant(np.array([0], np.int64)),
            g.constant(np.array([1], np.int64)),
        ],
        (1,),
    )
    seqlens = hidden(g, "Expand", [last, batches], (batch,))
    names += ["", "", seqlens, total]
    attributes: dict[str, object] = {
        "num_heads": heads,
        "kv_num_heads": kv_heads,
        "local_window_size": int(rng.choice([-1, 1, 3])),
        "softcap": float(rng.choice([0.0, 2.0])),
    }
    if rotary:
        names += caches(g, head // 2)
        attributes |= {"do_rotary": 1, "rotary_interleaved": int(rng.integers(2))}
    if rng.random() < 0.3:
        sinks = rng.uniform(-1, 1, heads).astype(np.float32)
        names += [""] * (11 - len(names)) + [g.constant(sinks, "sink")]
    out = Value(g.fresh("gqa"), (batch, seq, heads * head))
    node = helper.make_node(
        "GroupQueryAttention",
        names,
        [out.name, g.fresh("present_key"), g.fresh("present_value")],
        name=out.name,
        domain=MS,
    )
    node.attribute.extend(
        helper.make_attribute(k, v) for k, v in sorted(attributes.items())
    )
    g.nodes.append(node)
    g.values.append(out)
    return out


def all_positions(g: Graph, x: Value) -> str:
    """(B, S) positions 0 to S - 1 of a value (B, S, F), as shape ops."""
    shape, length = sequence(g, x)
    zero, one = (g.constant(np.array(v, np.int64)) for v in (0, 1))
    steps = hidden(g, "Range", [zero, length, one], (x.shape[1],))
    row = hidden(
        g, "Unsqueeze", [steps, g.constant(np.array([0], np.int64))], (1, x.shape[1])
    )
    sizes = hidden(
        g,
        "Slice",
        [
            shape,
            g.constant(np.array([0], np.int64)),
            g.constant(np.array([2], np.int64)),
        ],
        (2,),
    )
    return hidden(g, "Expand", [row, sizes], x.shape[:2])


def _rotary(g: Graph) -> Value | None:
    """com.microsoft's RotaryEmbedding of a value's heads at positions 0 to
    S - 1 of every batch entry, or from a first position on (position_ids
    (1,)); all of each head or half, interleaved or not; `num_heads` and
    `rotary_embedding_dim` given, or neither (the head from the caches)."""
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
    seq = x.shape[1]
    if g.rng.random() < 0.3 and not (isinstance(seq, int) and seq > POSITIONS - 8):
        # The first-position form: positions k to k + S - 1.
        positions = g.constant(g.rng.integers(0, 8, 1).astype(np.int64), "first")
    else:
        positions = all_positions(g, x)
    out = Value(g.fresh("rotary"), x.shape)
    sizes = {"num_heads": count, "rotary_embedding_dim": rotary}
    if rotary == head and g.rng.random() < 0.3:
        sizes = {}  # heads of the caches' 2 * half, as many as the value holds
    node = helper.make_node(
        "RotaryEmbedding",
        [x.name, positions, *caches(g, rotary // 2)],
        [out.name],
        name=out.name,
        domain=MS,
        interleaved=int(g.rng.integers(2)),
    )
    node.attribute.extend(helper.make_attribute(k, v) for k, v in sizes.items())
    g.nodes.append(node)
    g.values.append(out)
    return out


GENERATORS: dict[str, Generator] = {
    f"{MS}.GroupQueryAttention": _gqa,
    f"{MS}.RotaryEmbedding": _rotary,
}
