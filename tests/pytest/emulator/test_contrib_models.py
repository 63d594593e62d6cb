"""The contrib-op models of `tests/pytest/backend/test_contrib_models.py` on
the GPU runtimes through the CPU stand-in of their device, in debug mode,
against ONNX Runtime: the layer norms, RMS norms, Gelus and adds they become."""

from __future__ import annotations

import pytest

import xhip
from tests.pytest.backend.test_contrib_models import (
    MODELS,
    RUNS,
    check,
    expected,
    inputs,
)
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.session import CompiledModel

pytestmark = pytest.mark.emulator


@pytest.mark.parametrize("name", sorted(MODELS))
def test_contrib_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    model = MODELS[name]
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, make_gpu(debug=True)
    )
    for dims in RUNS:
        feeds = inputs(model, dims)
        check(compiled(feeds), expected(model, feeds), str(dims))
