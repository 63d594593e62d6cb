"""Ops whose result is their input, where the model knows a dim of the result
that the input leaves dynamic (a declared `value_info`, or onnx's inference
after a Shape chain): the converter recasts the input (`support.recast`)
instead of refusing. Found by the fuzzer (seeds 20009 and 20382: a Dropout
and a one-input Max). Checked against ONNX Runtime on the CPU and the
emulated GPU."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import xhip
from xhip.backend.cuda import CudaRuntime
from xhip.backend.session import CompiledModel

F = TensorProto.FLOAT
OPS = ["Dropout", "Identity", "Max", "Min", "Sum", "Mean"]


def refined_model(op: str, result: list[int | str]) -> onnx.ModelProto:
    """`z = relu(op(x))` with x float32[a, b] and op's result declared `result`."""
    nodes = [
        helper.make_node(op, ["x"], ["y"], name="refined"),
        helper.make_node("Relu", ["y"], ["z"], name="relu"),
    ]
    graph = helper.make_graph(
        nodes,
        "refined",
        [helper.make_tensor_value_info("x", F, ["a", "b"])],
        [helper.make_tensor_value_info("z", F, ["a", result[1]])],
        value_info=[helper.make_tensor_value_info("y", F, result)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _check(compiled: xhip.Model, model: onnx.ModelProto) -> None:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    for rows in (1, 3):
        x = np.random.default_rng(rows).standard_normal((rows, 8)).astype(np.float32)
        (want,) = session.run(None, {"x": x})
        got = compiled({"x": x})["z"]
        np.testing.assert_allclose(got, np.asarray(want), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("op", OPS)
def test_a_refined_result_runs_on_cpu_like_onnxruntime(op: str) -> None:
    model = refined_model(op, ["a", 8])
    _check(xhip.compile(model, device="cpu"), model)


@pytest.mark.emulator
@pytest.mark.parametrize("op", ["Dropout", "Max"])
def test_a_refined_result_runs_on_emulated_gpu_like_onnxruntime(
    op: str, emulated_cuda: CudaRuntime
) -> None:
    model = refined_model(op, ["a", 8])
    ir = xhip.compile_to_ir(model)
    _check(CompiledModel(ir.module, ir.signature, ir.constants, emulated_cuda), model)


def composed_model(op: str) -> onnx.ModelProto:
    """`op` on x float32[a, 3, 4] with its result declared [2, 3, 4]."""
    inputs = ["x"]
    initializers: list[onnx.TensorProto] = []
    attrs: dict[str, Any] = {}
    if op == "ReverseSequence":
        inputs.append("lens")
        initializers.append(
            onnx.numpy_helper.from_array(np.array([1, 2, 3], np.int64), "lens")
        )
        attrs = {"batch_axis": 1, "time_axis": 0}
    elif op == "MeanVarianceNormalization":
        attrs = {"axes": [0, 2]}  # the default [0, 2, 3] needs rank 4
    nodes = [
        helper.make_node(op, inputs, ["y"], name="refined", **attrs),
        helper.make_node("Relu", ["y"], ["z"], name="relu"),
    ]
    shape: list[int | str] = [4, "a", 3] if op == "ReverseSequence" else ["a", 3, 4]
    refined = [4, 3, 3] if op == "ReverseSequence" else [2, 3, 4]
    graph = helper.make_graph(
        nodes,
        "composed",
        [helper.make_tensor_value_info("x", F, shape)],
        [helper.make_tensor_value_info("z", F, refined)],
        initializers,
        value_info=[helper.make_tensor_value_info("y", F, refined)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize(
    "op", ["MeanVarianceNormalization", "LpNormalization", "ReverseSequence"]
)
def test_a_refined_composed_result_runs_like_onnxruntime(op: str) -> None:
    model = composed_model(op)
    shape = (4, 3, 3) if op == "ReverseSequence" else (2, 3, 4)
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    (want,) = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    ).run(None, {"x": x})
    got = xhip.compile(model, device="cpu")({"x": x})["z"]
    np.testing.assert_allclose(got, np.asarray(want), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "op", ["ReduceProd", "ReduceLogSumExp", "ReduceSum", "ReduceL1"]
)
def test_a_refined_no_op_reduction_runs_like_onnxruntime(op: str) -> None:
    """`noop_with_empty_axes` without axes: the input itself (or, for L1 and
    LogSumExp, its elementwise part), recast to the declared result (fuzzer
    seeds 70041 and 70470)."""
    model = refined_model(op, ["a", 8])
    model.graph.node[0].attribute.append(
        helper.make_attribute("noop_with_empty_axes", 1)
    )
    model.opset_import[0].version = 18
    _check(xhip.compile(model, device="cpu"), model)
