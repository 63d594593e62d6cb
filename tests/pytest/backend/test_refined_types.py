"""Ops whose result is their input, where the model knows a dim of the result
that the input leaves dynamic (a declared `value_info`, or onnx's inference
after a Shape chain): the converter recasts the input (`support.recast`)
instead of refusing. Found by the fuzzer (seeds 20009 and 20382: a Dropout
and a one-input Max). Checked against ONNX Runtime on the CPU and the
emulated GPU."""

from __future__ import annotations

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
        np.testing.assert_array_equal(compiled({"x": x})["z"], want)


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
