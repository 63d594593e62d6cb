"""The Gated DeltaNet layers of `tests/pytest/backend/
test_linear_attention_models.py` on the GPU runtimes through the CPU
stand-in of their device, in debug mode, against ONNX Runtime."""

from __future__ import annotations

import pytest

from tests.pytest.backend.test_gqa_models import compiled_on
from tests.pytest.backend.test_linear_attention_models import (
    RULES,
    check_layer,
    layer_model,
)
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator


@pytest.mark.parametrize("t", [5, 1])
@pytest.mark.parametrize("rule", RULES)
def test_gated_deltanet_layer_on_gpu_runtimes(
    rule: str, t: int, make_gpu: MakeGpu
) -> None:
    model = layer_model(rule, t)
    check_layer(model, compiled_on(make_gpu(debug=True), model), t)
