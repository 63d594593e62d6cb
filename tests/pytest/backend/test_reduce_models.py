"""Models of the reduction family through every pass and the CPU runtime,
against ONNX Runtime, at several dims (batch 1, seq 1, odd sizes).

A pre-LN encoder block: LayerNorm -> MatMul -> Add -> erf-GELU
(`0.5 * x * (1 + erf(x / sqrt(2)))`) or Relu -> MatMul -> Add -> residual
Add, then ReduceMean over the features, and the LayerNorm's Mean/InvStdDev, a
LogSoftmax, an ArgMax and an inference Dropout with its mask as outputs too.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip

D, HIDDEN = 20, 37


def encoder_block(activation: str = "gelu") -> onnx.ModelProto:
    rng = np.random.default_rng(0)

    def weight(name: str, *shape: int) -> onnx.TensorProto:
        return numpy_helper.from_array(
            (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32), name
        )

    initializers = [
        weight("w1", D, HIDDEN),
        weight("b1", HIDDEN),
        weight("w2", HIDDEN, D),
        weight("b2", D),
        numpy_helper.from_array(rng.uniform(0.5, 1.5, D).astype(np.float32), "g"),
        numpy_helper.from_array(rng.normal(0, 0.1, D).astype(np.float32), "beta"),
        numpy_helper.from_array(np.array([-1], np.int64), "last"),
        numpy_helper.from_array(np.array(np.sqrt(2), np.float32), "sqrt2"),
        numpy_helper.from_array(np.array(1, np.float32), "one"),
        numpy_helper.from_array(np.array(0.5, np.float32), "half"),
    ]
    if activation == "gelu":
        act = [
            helper.make_node("Div", ["h2", "sqrt2"], ["g1"]),
            helper.make_node("Erf", ["g1"], ["g2"]),
            helper.make_node("Add", ["g2", "one"], ["g3"]),
            helper.make_node("Mul", ["h2", "g3"], ["g4"]),
            helper.make_node("Mul", ["g4", "half"], ["h3"]),
        ]
    else:
        act = [helper.make_node("Relu", ["h2"], ["h3"])]
    nodes = [
        helper.make_node(
            "LayerNormalization",
            ["X", "g", "beta"],
            ["ln", "mean", "inv"],
            epsilon=1e-5,
        ),
        helper.make_node("MatMul", ["ln", "w1"], ["h1"]),
        helper.make_node("Add", ["h1", "b1"], ["h2"]),
        *act,
        helper.make_node("MatMul", ["h3", "w2"], ["h4"]),
        helper.make_node("Add", ["h4", "b2"], ["h5"]),
        helper.make_node("Add", ["X", "h5"], ["Y"]),
        helper.make_node("ReduceMean", ["Y", "last"], ["pooled"], keepdims=0),
        helper.make_node("LogSoftmax", ["Y"], ["logp"], axis=1),
        helper.make_node("ArgMax", ["Y"], ["best"], axis=-1, keepdims=0),
        helper.make_node("Dropout", ["Y"], ["kept", "mask"]),
    ]
    f = TensorProto.FLOAT
    outputs = [
        helper.make_tensor_value_info("Y", f, ["batch", "seq", D]),
        helper.make_tensor_value_info("pooled", f, ["batch", "seq"]),
        helper.make_tensor_value_info("mean", f, ["batch", "seq", 1]),
        helper.make_tensor_value_info("inv", f, ["batch", "seq", 1]),
        helper.make_tensor_value_info("logp", f, ["batch", "seq", D]),
        helper.make_tensor_value_info("best", TensorProto.INT64, ["batch", "seq"]),
        helper.make_tensor_value_info("kept", f, ["batch", "seq", D]),
        helper.make_tensor_value_info("mask", TensorProto.BOOL, ["batch", "seq", D]),
    ]
    graph = helper.make_graph(
        nodes,
        "encoder_block",
        [helper.make_tensor_value_info("X", f, ["batch", "seq", D])],
        outputs,
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


DIMS = [(1, 1), (1, 7), (3, 1), (2, 13), (5, 33)]


@pytest.fixture(scope="module", params=["gelu", "relu"])
def block(
    request: pytest.FixtureRequest,
) -> tuple[onnx.ModelProto, ort.InferenceSession]:
    model = encoder_block(request.param)
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return model, session


@pytest.mark.parametrize("debug", [False, True], ids=["plan", "debug"])
def test_encoder_block_matches_onnxruntime(
    block: tuple[onnx.ModelProto, ort.InferenceSession], debug: bool
) -> None:
    model, session = block
    compiled = xhip.compile(model, device="cpu", debug=debug)
    for batch, seq in DIMS:
        x = np.random.default_rng(batch * 10 + seq).normal(size=(batch, seq, D))
        x = x.astype(np.float32)
        want = session.run(None, {"X": x})
        got = compiled({"X": x})
        assert list(got) == [o.name for o in model.graph.output]
        for (name, value), expected in zip(got.items(), want, strict=True):
            assert value.dtype == expected.dtype, name
            np.testing.assert_allclose(
                value, expected, rtol=1e-4, atol=1e-5, err_msg=f"{name} {batch}x{seq}"
            )
