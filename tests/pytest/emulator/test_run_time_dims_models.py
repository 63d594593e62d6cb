"""The models of `tests/pytest/backend/test_run_time_dims_models.py` (ops
whose structure follows a dim known only at run time) on the GPU runtimes
through the CPU stand-in of their device, in debug mode, against ONNX
Runtime. They are compositions of existing hip ops, so no kernel of their
own."""

from __future__ import annotations

import pytest

from tests.pytest.backend.test_run_time_dims_models import MODELS, check_model
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_on_gpu_runtimes_matches_onnxruntime(
    name: str, make_gpu: MakeGpu
) -> None:
    check_model(name, make_gpu(debug=True))
