"""The run-time broadcasts of `tests/pytest/transforms/test_runtime_broadcast.py`
on the GPU runtimes (CUDA at warp 32, HIP at warps 64 and 32) through the CPU
stand-in of their device, in debug mode, against ONNX Runtime: a dim of 1
against N both ways round, 0 against 1, and the mismatch refused."""

from __future__ import annotations

import pytest

import xhip
from tests.pytest.emulator.conftest import MakeGpu
from tests.pytest.transforms.test_runtime_broadcast import MODELS, run_all
from xhip.backend.session import CompiledModel

pytestmark = pytest.mark.emulator


@pytest.mark.parametrize("name", sorted(MODELS))
def test_gpu_matches_onnxruntime(name: str, make_gpu: MakeGpu) -> None:
    ir = xhip.compile_to_ir(MODELS[name][0]())
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, make_gpu(debug=True)
    )
    run_all(compiled, name)
