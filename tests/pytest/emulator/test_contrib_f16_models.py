"""The float16 contrib-op models of
`tests/pytest/backend/test_contrib_f16_models.py` on the GPU runtimes through
the CPU stand-in of their device, in debug mode, against ONNX Runtime: one
model per path (the widened ops' casts, GQA's float16 rotary and cache around
its float32 attention), the fused BERT and the builder's float16 Llamas."""

from __future__ import annotations

import pytest

from tests.pytest.backend.test_bert_contrib_models import fused_bert
from tests.pytest.backend.test_contrib_f16_models import (
    GENAI,
    check_bert,
    check_contrib,
    check_fused_bert,
    check_genai,
    check_gqa,
    check_rotary,
    to_f16,
)
from tests.pytest.backend.test_gqa_models import compiled_on, genai_model
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator

CONTRIB = ["skip_layer_norm", "skip_simplified_layer_norm", "bias_gelu",
           "quick_gelu_alpha", "bias_add"]  # fmt: skip
BERT = ["mha_past_unidirectional", "attention_mask_2d", "embed_full"]
GQA = ["rotary_packed", "attention_bias", "head_sink", "local_window_2"]


@pytest.mark.parametrize("name", CONTRIB)
def test_contrib_f16_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    gpu = make_gpu(debug=True)
    check_contrib(name, lambda model: compiled_on(gpu, model))


@pytest.mark.parametrize("name", BERT)
def test_bert_op_f16_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    gpu = make_gpu(debug=True)
    check_bert(name, lambda model: compiled_on(gpu, model))


@pytest.mark.parametrize("name", GQA)
def test_gqa_f16_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    gpu = make_gpu(debug=True)
    check_gqa(name, lambda model: compiled_on(gpu, model))


def test_fused_bert_f16_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    model = to_f16(fused_bert())
    check_fused_bert(compiled_on(make_gpu(debug=True), model))


def test_rotary_embedding_f16_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    gpu = make_gpu(debug=True)
    check_rotary("4d_interleaved", lambda model: compiled_on(gpu, model))


@pytest.mark.parametrize("name", GENAI)
def test_genai_f16_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    check_genai(name, compiled_on(make_gpu(debug=True), genai_model(name)), batch=2)
