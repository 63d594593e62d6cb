"""Sibling subgraphs that reuse value names (two SequenceMap bodies, each
`in -> out`): each body is typed as onnx infers it, not as its sibling.
The importer kept one type per name, the last body's, so the first body's
`in` had the rank of the second's and the conversion refused it (fuzz seed
70877: "no operand dim gives the size of result dim 4")."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

import xhip
from tests.pytest.frontend.models import check_like_onnxruntime, tensor

F = TensorProto.FLOAT


def _body(op_type: str) -> onnx.GraphProto:
    return helper.make_graph(
        [helper.make_node(op_type, ["in"], ["out"])],
        f"{op_type.lower()}_body",
        [helper.make_tensor_value_info("in", F, None)],
        [helper.make_tensor_value_info("out", F, None)],
    )


def two_maps_model() -> onnx.ModelProto:
    """Sigmoid over (x, x), stacked to (2, batch, 3); Tanh over two of
    those, stacked to (2, 2, batch, 3)."""
    nodes = [
        helper.make_node("SequenceConstruct", ["x", "x"], ["s1"]),
        helper.make_node("SequenceMap", ["s1"], ["m1"], body=_body("Sigmoid")),
        helper.make_node("ConcatFromSequence", ["m1"], ["c1"], axis=0, new_axis=1),
        helper.make_node("SequenceConstruct", ["c1", "c1"], ["s2"]),
        helper.make_node("SequenceMap", ["s2"], ["m2"], body=_body("Tanh")),
        helper.make_node("ConcatFromSequence", ["m2"], ["y"], axis=0, new_axis=1),
    ]
    graph = helper.make_graph(
        nodes, "two_maps", [tensor("x", F, ["batch", 3])], [tensor("y", F, None)]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def test_sibling_bodies_keep_their_own_types() -> None:
    model = two_maps_model()
    compiled = xhip.compile(model, device="cpu")
    rng = np.random.default_rng(0)
    cases = [
        (f"batch {n}", {"x": rng.normal(size=(n, 3)).astype(np.float32)})
        for n in (1, 4)
    ]
    check_like_onnxruntime(compiled, model, cases)
