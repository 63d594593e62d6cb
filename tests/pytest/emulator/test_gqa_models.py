"""The GroupQueryAttention, RotaryEmbedding and genai-builder models of
`tests/pytest/backend/test_gqa_models.py` on the GPU runtimes through the CPU
stand-in of their device, in debug mode, against ONNX Runtime."""

from __future__ import annotations

import pytest

from tests.pytest.backend.test_gqa_models import (
    GQA_MODELS,
    ROTARY_MODELS,
    check_genai,
    check_gqa,
    check_rotary,
    compiled_on,
    genai_model,
)
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator

ON_GPU = ["separate", "rotary_packed", "rotary_partial", "local_window_2",
          "attention_bias", "head_sink", "multi_query", "bidirectional"]  # fmt: skip
"""A GQA model per path of the conversion: separate and packed Q, K, V, rotary
(partial), a window, a bias, the sink's softmax, one KV head, no causal mask."""


@pytest.mark.parametrize("name", ON_GPU)
def test_gqa_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    check_gqa(name, compiled_on(make_gpu(debug=True), GQA_MODELS[name]))


@pytest.mark.parametrize("name", ["3d_num_heads", "4d_interleaved", "first_position"])
def test_rotary_embedding_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    check_rotary(name, compiled_on(make_gpu(debug=True), ROTARY_MODELS[name]))


@pytest.mark.parametrize("precision", ["fp32", "int4"])
def test_genai_model_on_gpu_runtimes(precision: str, make_gpu: MakeGpu) -> None:
    model = genai_model(precision)
    check_genai(model, compiled_on(make_gpu(debug=True), model), batch=2)
