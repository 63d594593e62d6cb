"""ONNX Runtime's `com.microsoft` QuantizeLinear and DequantizeLinear on the
emulated GPU runtimes (CUDA at warp 32, HIP at 64 and 32), against ORT:
every one-node case of `tests/pytest/backend/test_contrib_extra_models.py`
and its quantize_static CNNs (8-bit and 16-bit). They run the kernels of
`kernels/quantize.h`, which `test_quantize_kernels.py` covers. Exact
comparisons for the nodes; the CNNs to float32 rounding."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.pytest.backend.test_contrib_extra_models import (
    PARAMS,
    Case,
    assert_same,
    onnxruntime_outputs,
    output_step,
    quantized_cnn,
    run_on,
)
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator


@pytest.mark.parametrize("case", PARAMS)
def test_contrib_qdq_on_gpu_runtimes(case: Case, make_gpu: MakeGpu) -> None:
    feeds = {"x": case.x}
    got = run_on(make_gpu(debug=True), case.model(), feeds)
    assert_same(got, onnxruntime_outputs(case.model(), feeds))


@pytest.mark.parametrize("activations16", [False, True], ids=["8bit", "16bit"])
def test_contrib_qdq_cnn_on_gpu_runtimes(
    activations16: bool, tmp_path: Path, make_gpu: MakeGpu
) -> None:
    model = quantized_cnn(str(tmp_path), activations16)
    x = np.random.default_rng(7).standard_normal((2, 3, 8, 8)).astype(np.float32)
    got = run_on(make_gpu(), model, {"x": x})
    want = onnxruntime_outputs(model, {"x": x})
    assert (got[0].dtype, got[0].shape) == (want[0].dtype, want[0].shape)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=output_step(model))
