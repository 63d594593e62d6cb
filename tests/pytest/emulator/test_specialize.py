"""Guarded specialization on the emulated GPUs: a data-dependent branch and a
structure operand given as an input (`xhip.specialize`), against ONNX Runtime."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

import xhip
from tests.pytest.backend.test_specialize import branchy_feeds, branchy_model
from tests.pytest.emulator.conftest import MakeGpu
from xhip.specialize import SpecializingModel


@pytest.mark.emulator
def test_a_data_dependent_branch_matches_onnxruntime(make_gpu: MakeGpu) -> None:
    onnx_model = branchy_model()
    session = ort.InferenceSession(
        onnx_model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    model = xhip.compile(onnx_model, runtime=make_gpu())
    assert isinstance(model, SpecializingModel)
    try:
        for feeds in branchy_feeds():
            (want,) = session.run(None, feeds)
            np.testing.assert_allclose(
                model(feeds)["y"], np.asarray(want), rtol=1e-5, atol=1e-6
            )
    finally:
        model.close()
