"""The kernels of `kernels/quantize.h` on the emulated GPU runtimes (CUDA at
warp 32, HIP at 64 and 32), against ONNX Runtime: every one-node case of
`tests/pytest/backend/test_quantize_models.py` (per tensor, per axis,
blocked; each integer type; DynamicQuantizeLinear; MatMulInteger with its
zero points, batched), QLinearMatMul, ConvInteger and QLinearConv
(`test_qlinear_models.py`), the
quantized model fixtures, and the runtime methods on transposed (strided)
operands. Exact comparisons.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import pytest

from tests.pytest.backend.test_qlinear_models import (
    CONV_PARAMS,
    QLINEAR_CONV_PARAMS,
    QOPERATOR_CNN,
    QOPERATOR_MLP,
    ConvIntegerCase,
    QLinearCase,
    QLinearConvCase,
    qoperator_cnn_inputs,
)
from tests.pytest.backend.test_qlinear_models import PARAMS as QLINEAR_PARAMS
from tests.pytest.backend.test_quantize_models import (
    PARAMS,
    QDQ_MLP,
    Case,
    assert_same,
    onnxruntime_outputs,
    qdq_mlp_inputs,
    run_on,
)
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.gpu_host import transposed
from xhip.dialects.hip import ConvAttributes, QuantizeAttributes, RequantizeAttributes

pytestmark = pytest.mark.emulator

KERNELS = {
    "xhip_quantize_linear",
    "xhip_dequantize_linear",
    "xhip_dynamic_quantize_params",
    "xhip_matmul_integer",
    "xhip_requantize",
    "xhip_conv_integer",
}


@pytest.mark.parametrize("case", PARAMS)
def test_matches_onnxruntime_on_gpu_runtimes(case: Case, make_gpu: MakeGpu) -> None:
    got = run_on(make_gpu(debug=True), case.model(), case.feeds())
    assert_same(got, case.expected())


@pytest.mark.parametrize("case", QLINEAR_PARAMS)
def test_qlinear_matmul_on_gpu_runtimes(case: QLinearCase, make_gpu: MakeGpu) -> None:
    got = run_on(make_gpu(debug=True), case.model(), case.feeds())
    assert_same(got, case.expected())


@pytest.mark.parametrize("case", CONV_PARAMS)
def test_conv_integer_on_gpu_runtimes(case: ConvIntegerCase, make_gpu: MakeGpu) -> None:
    got = run_on(make_gpu(debug=True), case.model(), case.feeds())
    assert_same(got, case.expected())


@pytest.mark.parametrize("case", QLINEAR_CONV_PARAMS)
def test_qlinear_conv_on_gpu_runtimes(case: QLinearConvCase, make_gpu: MakeGpu) -> None:
    got = run_on(make_gpu(debug=True), case.model(), case.feeds())
    assert_same(got, case.expected())


@pytest.mark.parametrize(
    ("path", "inputs"),
    [
        pytest.param(QDQ_MLP, qdq_mlp_inputs, id="qdq_mlp"),
        pytest.param(QOPERATOR_MLP, qdq_mlp_inputs, id="qoperator_mlp"),
        pytest.param(QOPERATOR_CNN, qoperator_cnn_inputs, id="qoperator_cnn"),
    ],
)
def test_quantized_models_on_gpu_runtimes(
    path: Path, inputs: Callable[[], dict[str, np.ndarray]], make_gpu: MakeGpu
) -> None:
    model = onnx.load(path)
    feeds = inputs()
    assert_same(run_on(make_gpu(), model, feeds), onnxruntime_outputs(model, feeds))


def _one_node(
    op: str, x: np.ndarray, scale: np.ndarray, zero: np.ndarray
) -> np.ndarray:
    case = Case("strided", op, (x,), (scale, zero), (("axis", 0),))
    (want,) = onnxruntime_outputs(case.model(), case.feeds())
    return want


def test_strided_operands(make_gpu: MakeGpu) -> None:
    """x and out as transposed views; a per-axis scale along the first dim."""
    gpu = make_gpu(debug=True)
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((9, 13)) * 30).astype(np.float32)
    scale = rng.uniform(0.1, 0.4, 13).astype(np.float32)
    zero = rng.integers(-20, 20, 13).astype(np.int8)
    # The view x.T (13, 9) of a (9, 13) buffer, quantized along its dim 0.
    want = _one_node("QuantizeLinear", np.ascontiguousarray(x.T), scale, zero)
    x_view = transposed(gpu.upload(x))
    out = gpu.empty((9, 13), np.dtype(np.int8))
    s, z = gpu.upload(scale), gpu.upload(zero)
    gpu.quantize_linear(x_view, s, z, transposed(out), QuantizeAttributes(0, 0, True))
    got = gpu.download(out).T
    np.testing.assert_array_equal(got, want)
    back = gpu.empty((9, 13), np.dtype(np.float32))
    gpu.dequantize_linear(
        transposed(out), s, z, transposed(back), QuantizeAttributes(0, 0, True)
    )
    np.testing.assert_array_equal(
        gpu.download(back).T, _one_node("DequantizeLinear", want, scale, zero)
    )


def test_matmul_integer_on_transposed_operands(make_gpu: MakeGpu) -> None:
    gpu = make_gpu(debug=True)
    rng = np.random.default_rng(8)
    a = rng.integers(0, 256, (37, 5)).astype(np.uint8)  # a.T is (5, 37)
    b = rng.integers(-128, 128, (11, 37)).astype(np.int8)  # b.T is (37, 11)
    az, bz = np.uint8(17), rng.integers(-5, 5, 11).astype(np.int8)
    case = Case(
        "mm_t",
        "MatMulInteger",
        (np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)),
        (az, bz),
        opset=10,
    )
    (want,) = case.expected()
    out = gpu.empty((5, 11), np.dtype(np.int32))
    gpu.matmul_integer(
        transposed(gpu.upload(a)),
        transposed(gpu.upload(b)),
        gpu.upload(np.asarray(az)),
        gpu.upload(bz),
        out,
    )
    np.testing.assert_array_equal(gpu.download(out), want)


def test_conv_integer_and_requantize_on_strided_operands(make_gpu: MakeGpu) -> None:
    """x and w of ConvInteger as views with every dim's stride reversed, a
    per-channel w zero point and a bias; then requantize reading that
    result through a transposed view, against ORT's QLinearConv of the same
    data (its bias and requantization are these two kernels')."""
    gpu = make_gpu(debug=True)
    rng = np.random.default_rng(9)
    x = rng.integers(0, 256, (2, 3, 6, 5)).astype(np.uint8)
    w = rng.integers(-128, 128, (4, 3, 2, 3)).astype(np.int8)
    bias = rng.integers(-3000, 3000, 4).astype(np.int32)
    w_scale = rng.uniform(0.001, 0.02, 4).astype(np.float32)
    params = (np.float32(0.02), np.uint8(9), w_scale, np.zeros(4, np.int8))
    case = QLinearConvCase(
        "strided",
        x,
        w,
        (*params, np.float32(0.3), np.uint8(100)),
        bias,
        (("pads", [1, 0, 0, 1]),),
    )
    (want,) = case.expected()
    attrs = ConvAttributes((1, 1), (1, 1), (1, 0, 0, 1), 1, False)
    acc = gpu.empty((2, 4, 6, 4)[::-1], np.dtype(np.int32))
    gpu.conv_integer(
        transposed(gpu.upload(np.ascontiguousarray(x.transpose()))),
        transposed(gpu.upload(np.ascontiguousarray(w.transpose()))),
        gpu.upload(np.asarray(params[1])),
        gpu.upload(params[3]),
        gpu.upload(bias),
        transposed(acc),
        attrs,
    )
    out = gpu.empty((2, 4, 6, 4), np.dtype(np.uint8))
    gpu.requantize(
        transposed(acc),
        gpu.upload(np.asarray(params[0])),
        gpu.upload(w_scale),
        gpu.upload(np.asarray(np.float32(0.3))),
        gpu.upload(np.asarray(np.uint8(100))),
        out,
        RequantizeAttributes(1, 1),
    )
    np.testing.assert_array_equal(gpu.download(out), want)
