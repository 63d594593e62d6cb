"""ConvTranspose and LpPool models on the GPU runtimes (CUDA at warp 32, HIP
at warps 64 and 32) through the CPU stand-in of their device, in debug mode,
against ONNX Runtime: the ConvTranspose and LpPool cases of
`tests/pytest/backend/test_resize_models.py` (groups, strides, dilations,
output padding, output_shape, auto_pad, 1x1, 3-D, pads, ceil_mode, dynamic
H and W), and a small decoder (ConvTranspose -> Relu -> LpPool ->
ConvTranspose) on dynamic N, H and W, on the CPU runtime too."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from tests.pytest.backend.test_resize_models import CASES, _model
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.session import CompiledModel
from xhip.testing.emulator import EmulatedDevice

pytestmark = pytest.mark.emulator

WINDOW_CASES = sorted(n for n in CASES if n.startswith(("conv_transpose", "lp_pool")))


def _shapes(dims: Sequence[int | str]) -> list[list[int]]:
    if all(isinstance(d, int) for d in dims):
        return [[int(d) for d in dims]]
    return [[2, 4, 5, 6], [1, 4, 7, 3]]


@pytest.mark.parametrize("name", WINDOW_CASES)
def test_window_case_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    node, inits, dims = CASES[name]
    model = _model(node, dims, inits)
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, make_gpu(debug=True)
    )
    session = ort.InferenceSession(model.SerializeToString())
    rng = np.random.default_rng(len(name))
    for shape in _shapes(dims):
        x = rng.normal(size=shape).astype(np.float32)
        want = np.asarray(session.run(None, {"x": x})[0])
        (got,) = compiled({"x": x}).values()
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def decoder() -> onnx.ModelProto:
    """ConvTranspose (stride 2, groups 2, bias, output padding) -> Relu ->
    LpPool (p 3, pads) -> ConvTranspose 1x1 on (N, 4, H, W)."""
    rng = np.random.default_rng(7)
    inits = {
        "w": rng.normal(0, 0.5, (4, 3, 3, 3)).astype(np.float32),
        "b": rng.normal(size=6).astype(np.float32),
        "w1": rng.normal(0, 0.5, (6, 2, 1, 1)).astype(np.float32),
    }
    nodes = [
        helper.make_node(
            "ConvTranspose",
            ["x", "w", "b"],
            ["c"],
            strides=[2, 2],
            pads=[1, 0, 0, 1],
            output_padding=[1, 0],
            group=2,
        ),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node(
            "LpPool", ["r"], ["p"], kernel_shape=[2, 3], pads=[0, 1, 1, 1], p=3
        ),
        helper.make_node("ConvTranspose", ["p", "w1"], ["y"]),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4, "H", "W"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph(
        nodes,
        "decoder",
        [x],
        [y],
        [numpy_helper.from_array(v, k) for k, v in inits.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return onnx.shape_inference.infer_shapes(model)


SIZES = [(2, 5, 6), (1, 3, 7)]


def _run_decoder(compiled: Any) -> None:
    model = decoder()
    session = ort.InferenceSession(model.SerializeToString())
    for n, h, w in SIZES:
        x = np.random.default_rng(n * h * w).normal(size=(n, 4, h, w))
        x = x.astype(np.float32)
        want = np.asarray(session.run(None, {"x": x})[0])
        (got,) = compiled({"x": x}).values()
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_decoder_on_cpu() -> None:
    _run_decoder(xhip.compile(decoder(), debug=True))


def test_decoder_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    ir = xhip.compile_to_ir(decoder())
    runtime = make_gpu(debug=True)
    _run_decoder(CompiledModel(ir.module, ir.signature, ir.constants, runtime))
    device = runtime.device
    assert isinstance(device, EmulatedDevice)
    # Per image of the first ConvTranspose: one SGEMM over the 2 groups and
    # one col2im; the 1x1 ConvTranspose is one SGEMM over the batch.
    assert device.launches.count("xhip_col2im_f32") == sum(n for n, _, _ in SIZES)
    assert device.launches.count("xhip_lp_pool_f32") == len(SIZES)
