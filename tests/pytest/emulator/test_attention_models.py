"""The attention models of `tests/pytest/backend/test_attention_models.py` on
the GPU runtimes (CUDA at warp 32, HIP at warps 64 and 32) through the CPU
stand-in of their device, in debug mode, against ONNX Runtime: the GEMMs
around `xhip_attention_softmax_<type>` (or the row softmax), the rotary
kernel, the permutes and the KV-cache concat."""

from __future__ import annotations

import pytest

import xhip
from tests.pytest.backend.test_attention_models import MODELS, _inputs, check, expected
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.session import CompiledModel

pytestmark = pytest.mark.emulator


@pytest.mark.parametrize("name", sorted(MODELS))
def test_attention_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    model, runs = MODELS[name]
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, make_gpu(debug=True)
    )
    for dims in runs:
        feeds = _inputs(model, dims)
        check(compiled(feeds), expected(model, feeds), str(dims))
