"""Every ONNX op that lowers to one elementwise hip op, in a model with a
dynamic dim and a broadcast operand, against ONNX Runtime.

The ops come from `compute.ELEMENTWISE`, so an op added there is tested here
with no new line.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import xhip
from xhip.transforms.onnx_to_hip.compute import ELEMENTWISE


def _model(op_type: str, arity: int) -> onnx.ModelProto:
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 5])]
    names = ["x"]
    if arity == 2:
        inputs.append(helper.make_tensor_value_info("y", TensorProto.FLOAT, [5]))
        names.append("y")
    node = helper.make_node(op_type, names, ["z"], name=op_type.lower())
    graph = helper.make_graph(
        [node],
        op_type.lower(),
        inputs,
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, ["batch", 5])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


OPS = [
    pytest.param(
        onnx_type.name.removeprefix("onnx."),
        len(onnx_type.get_irdl_definition().operands),
        id=onnx_type.name,
    )
    for onnx_type in ELEMENTWISE
]


@pytest.mark.parametrize(("op_type", "arity"), OPS)
@pytest.mark.parametrize("batch", [1, 3, 17])
def test_matches_onnxruntime(op_type: str, arity: int, batch: int) -> None:
    model = _model(op_type, arity)
    rng = np.random.default_rng(batch)
    feeds = {"x": (rng.standard_normal((batch, 5)) * 2).astype(np.float32)}
    if arity == 2:
        feeds["y"] = rng.uniform(0.5, 2.0, 5).astype(np.float32)
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    (expected,) = session.run(None, feeds)
    got = xhip.compile(model)(feeds)["z"]
    np.testing.assert_allclose(got, expected, rtol=2e-6, atol=1e-7)
