"""The dynamic-hidden-size RotaryEmbedding models of
`tests/pytest/backend/test_rotary_dynamic_hidden.py` on the GPU runtimes
through the CPU stand-in of their device, in debug mode, against ONNX
Runtime."""

from __future__ import annotations

import pytest

from tests.pytest.backend.test_gqa_models import compiled_on
from tests.pytest.backend.test_rotary_dynamic_hidden import (
    MODELS,
    check_dynamic_rotary,
)
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator


@pytest.mark.parametrize(
    "name", ["ms_from_cache", "ms_partial", "ms_4d", "onnx_num_heads"]
)
def test_dynamic_rotary_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    check_dynamic_rotary(name, compiled_on(make_gpu(debug=True), MODELS[name][0]))
