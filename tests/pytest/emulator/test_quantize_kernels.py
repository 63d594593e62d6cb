"""The kernels of `kernels/quantize.h` on the emulated GPU runtimes (CUDA at
warp 32, HIP at 64 and 32), against ONNX Runtime: every one-node case of
`tests/pytest/backend/test_quantize_models.py` (per tensor, per axis,
blocked; each integer type; DynamicQuantizeLinear; MatMulInteger with its
zero points, batched), the QDQ-quantized MLP fixture, and the runtime
methods on transposed (strided) operands. Exact comparisons.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

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
from xhip.dialects.hip import QuantizeAttributes

pytestmark = pytest.mark.emulator

KERNELS = {
    "xhip_quantize_linear",
    "xhip_dequantize_linear",
    "xhip_dynamic_quantize_params",
    "xhip_matmul_integer",
}


@pytest.mark.parametrize("case", PARAMS)
def test_matches_onnxruntime_on_gpu_runtimes(case: Case, make_gpu: MakeGpu) -> None:
    got = run_on(make_gpu(debug=True), case.model(), case.feeds())
    assert_same(got, case.expected())


def test_qdq_mlp_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    model = onnx.load(QDQ_MLP)
    feeds = qdq_mlp_inputs()
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
    gpu.quantize_linear(x_view, s, z, transposed(out), QuantizeAttributes(0, 0))
    got = gpu.download(out).T
    np.testing.assert_array_equal(got, want)
    back = gpu.empty((9, 13), np.dtype(np.float32))
    gpu.dequantize_linear(
        transposed(out), s, z, transposed(back), QuantizeAttributes(0, 0)
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
