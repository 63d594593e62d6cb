"""ONNX Runtime's quantized contrib ops on the emulated GPU runtimes (CUDA at
warp 32, HIP at 64 and 32), against ONNX Runtime: every one-node case of
`tests/pytest/backend/test_qlinear_contrib_models.py`, the QOperator CNN and
the three quantized BERTs. The ops are compositions of existing hip ops
(`onnx_to_hip/qlinear.py`), so no kernel of their own; integer outputs
compare exactly, as on the CPU."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from tests.pytest.backend.test_qlinear_contrib_models import (
    BERT_TOLERANCE,
    BERTS,
    CNN,
    PARAMS,
    Case,
    assert_matches,
    bert_inputs,
    cnn_inputs,
    onnxruntime_outputs,
    run_on,
)
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator


@pytest.mark.parametrize("case", PARAMS)
def test_matches_onnxruntime_on_gpu_runtimes(case: Case, make_gpu: MakeGpu) -> None:
    want = onnxruntime_outputs(case.model(), case.inputs)
    got = run_on(make_gpu(debug=True), case.model(want[0].ndim), case.inputs)
    assert_matches(got, want, case.exact)


def test_qoperator_cnn_matches_onnxruntime(make_gpu: MakeGpu) -> None:
    model = onnx.load(CNN)
    feeds = cnn_inputs()
    got = run_on(make_gpu(), model, feeds)
    assert_matches(got, onnxruntime_outputs(model, feeds), exact=True)


@pytest.mark.parametrize("kind", sorted(BERTS))
def test_quantized_bert_matches_onnxruntime(kind: str, make_gpu: MakeGpu) -> None:
    model = onnx.load(BERTS[kind][0])
    feeds = bert_inputs()
    got = run_on(make_gpu(), model, feeds)
    want = onnxruntime_outputs(model, feeds)
    assert [g.shape for g in got] == [w.shape for w in want]
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, atol=BERT_TOLERANCE, rtol=0)
