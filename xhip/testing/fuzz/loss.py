"""The loss generators (`onnx_to_hip/loss.py`): NegativeLogLikelihoodLoss of
a log-softmax and SoftmaxCrossEntropyLoss of raw scores, the targets the
ArgMax of another value of the shape over the classes (valid at every size,
a dynamic batch included), with or without weights and `ignore_index`, every
reduction (a scalar loss unsqueezed to (1,): other generators take values of
rank 1 up). An ignored class counts only under `none` and `sum`: under
`mean` all targets ignored would be 0 / 0."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value, channels_first


def _hidden(
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


def _loss(g: Graph, op_type: str) -> Value | None:
    x = channels_first(g)
    if x is None:
        return None
    n, c, length = x.shape
    assert isinstance(c, int)
    target_shape = (n, length)
    target = _hidden(g, "ArgMax", [x.name], target_shape, axis=1, keepdims=0)
    scores = x.name
    if op_type == "NegativeLogLikelihoodLoss":
        scores = _hidden(g, "LogSoftmax", [x.name], x.shape, axis=1)
    reduction = str(g.rng.choice(["none", "sum", "mean"]))
    inputs = [scores, target]
    if g.rng.random() < 0.5:
        weight = g.rng.uniform(0.5, 1.5, (c,)).astype(np.float32)
        inputs.append(g.constant(weight, "weight"))
    attributes: dict[str, object] = {"reduction": reduction}
    if g.rng.random() < 0.5:
        classes = [-1, c] if reduction == "mean" else [-1, c, *range(c)]
        attributes["ignore_index"] = int(g.rng.choice(classes))
    if reduction == "none":
        return g.add(op_type, inputs, target_shape, **attributes)
    loss = _hidden(g, op_type, inputs, (), **attributes)
    return g.add("Unsqueeze", [loss, g.constant(np.array([0], np.int64), "axes")], (1,))


def _nll(g: Graph) -> Value | None:
    return _loss(g, "NegativeLogLikelihoodLoss")


def _sce(g: Graph) -> Value | None:
    return _loss(g, "SoftmaxCrossEntropyLoss")


GENERATORS: dict[str, Generator] = {
    "NegativeLogLikelihoodLoss": _nll,
    "SoftmaxCrossEntropyLoss": _sce,
}
