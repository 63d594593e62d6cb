"""Regressions the text zoo (`test_zoo_text.py`) found, each a small graph
built with onnx.helper and checked against ONNX Runtime on the CPU runtime."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import xhip

INT_MAX = np.iinfo(np.int64).max


def _ints(name: str, values: list[int]) -> onnx.NodeProto:
    return helper.make_node(
        "Constant",
        [],
        [name],
        value=helper.make_tensor(name, TensorProto.INT64, [len(values)], values),
    )


def unflatten_model() -> onnx.ModelProto:
    """torch's `x.unflatten(-1, (3, E))` as the TorchScript exporter writes it
    (nn.MultiheadAttention's packed in-projection: SigLIP's pooling head): the
    split dim's bounds come from `Mod` of constants, so onnx's inference
    cannot tell the target's length, and the Reshape's rank with it."""
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        _ints("dim", [2]),
        _ints("rank", [3]),
        _ints("one", [1]),
        _ints("zero", [0]),
        _ints("max", [int(INT_MAX)]),
        _ints("split", [3, 16]),
        helper.make_node("Mod", ["dim", "rank"], ["axis"]),
        helper.make_node("Reshape", ["axis", "one"], ["start"]),
        helper.make_node("Add", ["axis", "one"], ["after"]),
        helper.make_node("Reshape", ["after", "one"], ["end"]),
        helper.make_node("Slice", ["shape", "zero", "start"], ["head"]),
        helper.make_node("Slice", ["shape", "end", "max"], ["tail"]),
        helper.make_node("Concat", ["head", "split", "tail"], ["target"], axis=0),
        helper.make_node("Reshape", ["x", "target"], ["r"]),
        helper.make_node("Transpose", ["r"], ["y"], perm=[2, 0, 1, 3]),
    ]
    graph = helper.make_graph(
        nodes,
        "unflatten",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", 48])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b", "c", "d"])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("shape", [(1, 1, 48), (2, 5, 48)])
def test_reshape_to_a_target_bounded_by_mod_of_constants(
    shape: tuple[int, ...],
) -> None:
    model = unflatten_model()
    x = np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32)
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    want = np.asarray(session.run(None, {"x": x})[0])
    got = xhip.compile(model, "cpu")({"x": x})["y"]
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)
