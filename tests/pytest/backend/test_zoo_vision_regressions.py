"""Small graphs of what the vision model zoo (`test_zoo_vision.py`) found
broken, each checked against ONNX Runtime on the CPU runtime."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

import xhip


def test_conv_weight_reshaped_through_identity_of_a_constant() -> None:
    """BiT's weight-standardized conv, as the TorchScript exporter writes it:
    the weight is computed (BatchNormalization over the flattened filters) and
    reshaped to 4-D by a target that is an Identity of an initializer. onnx's
    inference does not read the target through the Identity and leaves the
    weight `?x?x?x?`, which Conv cannot take; the importer's own Reshape rule
    now refines it to the constant target."""
    rng = np.random.default_rng(0)
    flat = rng.standard_normal((1, 4, 27)).astype(np.float32)
    nodes = [
        helper.make_node("Identity", ["target0"], ["target"]),
        helper.make_node(
            "BatchNormalization",
            ["flat", "scale", "bias", "mean", "var"],
            ["standardized"],
        ),
        helper.make_node("Reshape", ["standardized", "target"], ["w"]),
        helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1]),
    ]
    graph = helper.make_graph(
        nodes,
        "weight_standardized_conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3, "h", "w"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 4, "h", "w"])],
        [
            numpy_helper.from_array(flat, "flat"),
            numpy_helper.from_array(np.array([4, 3, 3, 3], np.int64), "target0"),
            numpy_helper.from_array(np.full(4, 1.5, np.float32), "scale"),
            numpy_helper.from_array(np.full(4, 0.25, np.float32), "bias"),
            numpy_helper.from_array(flat.mean((0, 2)), "mean"),
            numpy_helper.from_array(flat.var((0, 2)), "var"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    compiled = xhip.compile(model, "cpu")
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    try:
        for shape in [(1, 3, 8, 8), (2, 3, 5, 7)]:
            x = rng.standard_normal(shape).astype(np.float32)
            want = np.asarray(session.run(None, {"x": x})[0])
            got = np.asarray(compiled({"x": x})["y"])
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    finally:
        compiled.release()
