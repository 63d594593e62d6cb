"""Generators of ai.onnx's opset-27 recurrent-state ops
(`onnx_to_hip/linear_attention.py`): LinearAttention over Q, K, V, decay
and beta projected from a value's rows, CausalConvWithState on a
channels-first transpose; each with a past state or without."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.gqa import hidden, pick_sequence
from xhip.testing.fuzz.graph import Generator, Graph, Value, channels_first

RULES = ("linear", "gated", "delta", "gated_delta")


def batched(g: Graph, x: Value, array: np.ndarray) -> str:
    """`array` (1, ...) expanded to x's batch (its dim 0), as shape ops."""
    shape = hidden(g, "Shape", [x.name], (len(x.shape),))
    starts, ends = (g.constant(np.array([v], np.int64)) for v in (0, 1))
    batch = hidden(g, "Slice", [shape, starts, ends], (1,))
    rest = g.constant(np.array(array.shape[1:], np.int64))
    sizes = hidden(g, "Concat", [batch, rest], (array.ndim,), axis=0)
    return hidden(
        g, "Expand", [g.constant(array, "state"), sizes], (x.shape[0], *array.shape[1:])
    )


def _linear_attention(g: Graph) -> Value | None:
    """Every update rule; grouped heads or not; decay per head or per key
    dim (-Softplus of a projection: log-space, below 0); beta per head or
    one (Sigmoid of a projection); a past state or none."""
    x = pick_sequence(g)
    if x is None:
        return None
    rng = g.rng
    heads, kv_heads = [(1, 1), (2, 1), (2, 2), (4, 2)][int(rng.integers(4))]
    dk, dv = int(rng.choice([2, 4])), int(rng.choice([2, 3, 4]))
    batch, seq, features = x.shape
    assert isinstance(features, int)

    def project(width: int, then: str | None = None) -> str:
        w = rng.uniform(-0.5, 0.5, (features, width)).astype(np.float32)
        name = hidden(g, "MatMul", [x.name, g.constant(w, "w")], (batch, seq, width))
        return name if then is None else hidden(g, then, [name], (batch, seq, width))

    rule = RULES[int(rng.integers(len(RULES)))]
    names = [project(heads * dk), project(kv_heads * dk), project(kv_heads * dv)]
    if rng.random() < 0.5:
        state = rng.uniform(-0.5, 0.5, (1, kv_heads, dk, dv)).astype(np.float32)
        names.append(batched(g, x, state))
    else:
        names.append("")
    if "gated" in rule:
        width = kv_heads * dk if rng.random() < 0.5 else kv_heads
        names.append(
            hidden(g, "Neg", [project(width, "Softplus")], (batch, seq, width))
        )
    if "delta" in rule:
        names += [""] * (5 - len(names))
        width = kv_heads if rng.random() < 0.5 else 1
        names.append(project(width, "Sigmoid"))
    attributes: dict[str, object] = {
        "q_num_heads": heads,
        "kv_num_heads": kv_heads,
        "update_rule": rule,
    }
    if rng.random() < 0.3:
        attributes["scale"] = float(rng.uniform(0.1, 1.0))
    while names[-1] == "":
        names.pop()
    out = g.add("LinearAttention", names, (batch, seq, heads * dv), **attributes)
    g.nodes[-1].output.append(g.fresh("present_state"))
    return out


def _causal_conv(g: Graph) -> Value | None:
    """A kernel of 1 to 4, a bias or none, a past state or zeros, SiLU or
    no activation."""
    x = channels_first(g)
    if x is None:
        return None
    g.values.pop()  # the transpose: not a value others read
    channels = x.shape[1]
    assert isinstance(channels, int)
    k = int(g.rng.integers(1, 5))
    weight = g.rng.uniform(-1, 1, (channels, 1, k)).astype(np.float32)
    names = [x.name, g.constant(weight, "w")]
    if g.rng.random() < 0.5:
        names.append(g.constant(g.rng.uniform(-1, 1, channels).astype(np.float32)))
    else:
        names.append("")
    if k > 1 and g.rng.random() < 0.5:
        past = g.rng.uniform(-1, 1, (1, channels, k - 1)).astype(np.float32)
        names.append(batched(g, x, past))
    while names[-1] == "":
        names.pop()
    activation = str(g.rng.choice(["none", "silu", "swish"]))
    out = g.add("CausalConvWithState", names, x.shape, activation=activation)
    g.nodes[-1].output.append(g.fresh("present_state"))
    return out


GENERATORS: dict[str, Generator] = {
    "LinearAttention": _linear_attention,
    "CausalConvWithState": _causal_conv,
}

OPSETS: dict[str, int] = {"LinearAttention": 27, "CausalConvWithState": 27}
"""The opset these ops came in."""
