"""`hip-fold-attention-layouts` and `hip-fold-attention-bias` on the GPU
runtimes (the emulated CUDA and HIP devices, both warp sizes): the flash
kernel reads the projections through strides with their biases added and
writes the output transposed; the block matches ONNX Runtime with eight
device calls fewer (three adds, four copies, and the copy of the queries the
in-place attention needed), in debug mode too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import xhip
from tests.pytest.backend import test_bert_contrib_models as bert
from tests.pytest.transforms.test_hip_fold_attention import (
    contrib_case,
    onnx_runtime,
    pre_ln_block,
)
from xhip.backend.gpu import KernelRuntime
from xhip.backend.session import CompiledModel
from xhip.testing.emulator import EmulatedDevice

pytestmark = pytest.mark.emulator


def _calls(gpu: KernelRuntime) -> int:
    device = gpu.device
    assert isinstance(device, EmulatedDevice)
    return len(device.launches) + len(device.gemms)


@pytest.mark.parametrize("debug", [False, True])
def test_the_block_folded_matches_onnx_runtime(
    make_gpu: Callable[..., KernelRuntime], debug: bool
) -> None:
    model = pre_ln_block(32, 4)
    x = np.random.default_rng(3).standard_normal((2, 5, 32), np.float32)
    (want,) = onnx_runtime(model, {"X": x})
    ir = xhip.compile_to_ir(model)
    calls: dict[bool, int] = {}
    for fold in (True, False):
        gpu = make_gpu(debug=debug)
        options: dict[str, Any] = {"fold_attention": fold, "max_bound_plans": 0}
        compiled = CompiledModel(ir.module, ir.signature, ir.constants, gpu, **options)
        (got,) = compiled({"X": x}).values()
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        calls[fold] = _calls(gpu)
    assert calls[False] - calls[True] == 8


@pytest.mark.parametrize("half", [False, True], ids=["f32", "f16"])
@pytest.mark.parametrize("name", ["mha_bias", "mha_v_hidden", "attention_plain"])
def test_contrib_attentions_with_computed_inputs_match_onnx_runtime(
    make_gpu: Callable[..., KernelRuntime], name: str, half: bool
) -> None:
    """MultiHeadAttention's Q, K and V biases, sliced one after another into
    one pool view, fold only while the view still holds the one the add
    read (`tests/pytest/transforms/test_hip_fold_attention.py`)."""
    model, feeds, want = contrib_case(name, computed=True, half=half)
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(ir.module, ir.signature, ir.constants, make_gpu())
    bert.check(compiled(feeds), want, name)
