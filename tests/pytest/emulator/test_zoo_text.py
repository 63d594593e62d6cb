"""A representative subset of the text/audio/multimodal zoo
(`tests/pytest/backend/test_zoo_text.py`) on the GPU runtimes through the CPU
stand-in of their device, in debug mode, against ONNX Runtime at two sizes:
an encoder with padded rows, a GQA decoder with past keys/values, T5's
relative position buckets, ALiBi, the audio front ends (Whisper's conv1d,
Wav2Vec2's conv feature extractor and GroupNorm), DeBERTa's disentangled
attention, an encoder-decoder, and SigLIP's pooling head (nn.MultiheadAttention)."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import xhip
from tests.pytest.backend.test_zoo_text import (
    FIXTURES,
    check,
    expected,
    fixture_path,
    inputs,
    sizes,
)
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = [pytest.mark.emulator, pytest.mark.slow]

SUBSET = [
    "distilbert.dynamo",
    "qwen2_past.torchscript",
    "t5_encoder.torchscript",
    "bloom.dynamo",
    "whisper_encoder.torchscript",
    "wav2vec2.torchscript",
    "deberta_v2.torchscript",
    "bart.dynamo",
    "siglip_vision.torchscript",
]


@pytest.mark.parametrize("name", SUBSET)
def test_zoo_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    assert name in FIXTURES, f"{name} is not in tests/fixtures/zoo/text"
    path = fixture_path(name)
    model = onnx.load(str(path))
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    compiled = xhip.compile(path, runtime=make_gpu(debug=True))
    try:
        for size in sizes(model)[:2]:
            feeds = inputs(model, size, np.random.default_rng(size + 7))
            want = expected(session, feeds)
            check(compiled(dict(feeds)), want, f"{name} size {size}")
    finally:
        compiled.release()
