"""The RNN models of `tests/pytest/backend/test_rnn_models.py` on the GPU
runtimes through the CPU stand-in of their device, in debug mode, against
ONNX Runtime: the exported LSTM classifier, and one model of each cell with
the paths the GPU kernels take apart (sequence_lens masks, peepholes, clip,
GRU's two resets, layout 1, the parametrized activations)."""

from __future__ import annotations

import onnx
import pytest

import xhip
from tests.pytest.backend.test_rnn_models import (
    FIXTURE,
    MODELS,
    check,
    expected,
    feeds,
)
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.session import CompiledModel

pytestmark = pytest.mark.emulator

ON_GPU = (
    "lstm_peepholes_clip_lens",
    "lstm_activations",
    "gru_lens_bidirectional",
    "gru_linear_before_reset",
    "rnn_layout1_bidirectional",
)


def _run(model: onnx.ModelProto, make_gpu: MakeGpu, batches: tuple[int, ...]) -> None:
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, make_gpu(debug=True)
    )
    for batch in batches:
        inputs = feeds(model, batch)
        check(compiled(inputs), expected(model, inputs), f"batch {batch}")


@pytest.mark.parametrize("name", ON_GPU)
def test_rnn_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    _run(MODELS[name], make_gpu, (3,))


def test_lstm_classifier_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    _run(onnx.load(FIXTURE), make_gpu, (1, 4))
