"""The MultiHeadAttention, Attention and EmbedLayerNormalization models of
`tests/pytest/backend/test_bert_contrib_models.py`, and the fused BERT, on
the GPU runtimes through the CPU stand-in of their device, in debug mode,
against ONNX Runtime."""

from __future__ import annotations

import pytest

from tests.pytest.backend.test_bert_contrib_models import (
    check_bert,
    check_case,
    check_packed,
    fused_bert,
)
from tests.pytest.backend.test_gqa_models import compiled_on
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator

ON_GPU = ["mha_attention_bias", "mha_mask_lengths", "mha_mask_3d", "mha_bnsh_kv",
          "mha_past_unidirectional", "attention_mask_end_start",
          "attention_past_present", "attention_qkv_hidden_sizes", "embed_full",
          "embed_no_mask"]  # fmt: skip
"""One model per path of the conversions: each mask form, the bias, 4-D K/V,
the KV cache, the QKV cut, the embeddings with and without a mask."""


@pytest.mark.parametrize("name", ON_GPU)
def test_bert_op_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    gpu = make_gpu(debug=True)
    check_case(name, lambda model: compiled_on(gpu, model))


def test_packed_mha_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    gpu = make_gpu(debug=True)
    check_packed("packed_qkv", lambda model: compiled_on(gpu, model))


def test_fused_bert_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    check_bert(compiled_on(make_gpu(debug=True), fused_bert()))
