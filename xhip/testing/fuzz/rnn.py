"""The LSTM, GRU and RNN generators (`onnx_to_hip/rnn.py`)."""

from __future__ import annotations

import numpy as np
from onnx import helper

from xhip.testing.fuzz.graph import Generator, Graph, Value

_GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}


def _recurrent(op_type: str) -> Generator:
    """A sequence made of a (batch, features) value: unsqueezed to (1, batch,
    features) and scaled per step by a (seq, 1, 1) constant, as the sequence
    length must be static; any direction, random weights, bias and clip,
    GRU's linear_before_reset; the final H (D, batch, hidden) out, and for
    LSTM sometimes the final C too (ONNX Runtime's CPU kernels take layout 0
    only)."""

    def make(g: Graph) -> Value | None:
        x = g.pick(2)
        if x is None or not isinstance(x.shape[1], int):
            return None
        seq = int(g.rng.integers(1, 4))
        axes = g.constant(np.array([0], np.int64), "axes")
        steps = g.add("Unsqueeze", [x.name, axes], (1, *x.shape))
        g.values.pop()
        scale = g.rng.uniform(0.5, 1.5, (seq, 1, 1)).astype(np.float32)
        steps = g.add("Mul", [steps.name, g.constant(scale)], (seq, *x.shape))
        g.values.pop()
        direction = str(g.rng.choice(["forward", "reverse", "bidirectional"]))
        dirs = 2 if direction == "bidirectional" else 1
        hidden = int(g.rng.integers(1, 5))
        rows = _GATES[op_type] * hidden

        def weight(shape: tuple[int, ...]) -> str:
            return g.constant(g.rng.uniform(-0.8, 0.8, shape).astype(np.float32), "w")

        inputs = [
            steps.name,
            weight((dirs, rows, x.shape[1])),
            weight((dirs, rows, hidden)),
        ]
        if g.rng.random() < 0.7:
            inputs.append(weight((dirs, 2 * rows)))
        attributes: dict[str, object] = {"hidden_size": hidden, "direction": direction}
        if g.rng.random() < 0.3:
            attributes["clip"] = float(g.rng.uniform(0.5, 2.0))
        if op_type == "GRU":
            attributes["linear_before_reset"] = int(g.rng.integers(2))
        state = Value(g.fresh(op_type.lower()), (dirs, x.shape[0], hidden))
        outputs = ["", state.name]
        cell: Value | None = None
        if op_type == "LSTM" and g.rng.random() < 0.5:
            cell = Value(g.fresh("lstm_c"), state.shape)
            outputs.append(cell.name)
        node = helper.make_node(op_type, inputs, outputs, name=state.name)
        node.attribute.extend(
            helper.make_attribute(k, v) for k, v in sorted(attributes.items())
        )
        g.nodes.append(node)
        g.values.append(state)
        if cell is not None:
            g.values.append(cell)
        return state

    return make


GENERATORS: dict[str, Generator] = {
    op_type: _recurrent(op_type) for op_type in ("GRU", "LSTM", "RNN")
}
