"""Small float16 and float64 MatMul/Gemm models (dynamic batch) compiled by
xhip and run by the GPU runtimes on the CPU stand-in of their device: float64
against ONNX Runtime, float16 (float32 accumulation in the GEMM) against numpy
float64 of the same half inputs and weights, at half's tolerance."""

from __future__ import annotations

from functools import cache

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.api import CompiledIR
from xhip.backend.gpu import KernelRuntime
from xhip.backend.session import CompiledModel
from xhip.testing.emulator import EmulatedDevice

pytestmark = pytest.mark.emulator

TYPES = {"float16": TensorProto.FLOAT16, "float64": TensorProto.DOUBLE}


def _weights(dtype: str) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(5)
    return {
        "W": rng.standard_normal((16, 8)).astype(dtype),
        "G": rng.standard_normal((12, 8)).astype(dtype),  # Gemm's B, transB=1
        "bias": rng.standard_normal(12).astype(dtype),
    }


def matmul_gemm_model(dtype: str) -> onnx.ModelProto:
    """y = Gemm(Flatten(MatMul(x, W)), G, bias; alpha 0.5, transB), x: (N, 3, 16)."""
    t = TYPES[dtype]
    nodes = [
        helper.make_node("MatMul", ["x", "W"], ["h"]),
        helper.make_node("Reshape", ["h", "shape"], ["flat"]),
        helper.make_node(
            "Gemm", ["flat", "G", "bias"], ["y"], alpha=0.5, beta=1.0, transB=1
        ),
    ]
    inits = [numpy_helper.from_array(v, n) for n, v in _weights(dtype).items()]
    inits.append(numpy_helper.from_array(np.array([-1, 8], np.int64), "shape"))
    graph = helper.make_graph(
        nodes,
        f"matmul_gemm_{dtype}",
        [helper.make_tensor_value_info("x", t, ["N", 3, 16])],
        [helper.make_tensor_value_info("y", t, ["M", 12])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@cache
def _compiled(dtype: str) -> tuple[onnx.ModelProto, CompiledIR]:
    model = matmul_gemm_model(dtype)
    return model, xhip.compile_to_ir(model)


def _reference(x: np.ndarray, dtype: str) -> np.ndarray:
    w = {k: v.astype(np.float64) for k, v in _weights(dtype).items()}
    flat = (x.astype(np.float64) @ w["W"]).reshape(-1, 8)
    return 0.5 * flat @ w["G"].T + w["bias"]


@pytest.mark.parametrize("batch", [1, 4])
@pytest.mark.parametrize("dtype", list(TYPES))
def test_typed_matmul_gemm_model(gpu: KernelRuntime, dtype: str, batch: int) -> None:
    model, ir = _compiled(dtype)
    x = np.random.default_rng(batch).standard_normal((batch, 3, 16)).astype(dtype)
    device = gpu.device
    assert isinstance(device, EmulatedDevice)
    got = CompiledModel(ir.module, ir.signature, ir.constants, gpu)({"x": x})["y"]
    assert got.dtype == np.dtype(dtype) and got.shape == (batch * 3, 12)
    assert [g.dtype for g in device.gemms] == [dtype, dtype]
    if dtype == "float64":
        (want,) = ort.InferenceSession(
            model.SerializeToString(), providers=["CPUExecutionProvider"]
        ).run(None, {"x": x})
        np.testing.assert_allclose(got, np.asarray(want), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(got, _reference(x, dtype), rtol=1e-12, atol=1e-12)
    else:
        # The MatMul's half result feeds the Gemm: two roundings to half.
        np.testing.assert_allclose(
            got.astype(np.float64), _reference(x, dtype), rtol=5e-3, atol=1e-2
        )
