"""The sequence models of `tests/pytest/backend/test_sequence_models.py` on
the GPU runtimes through the CPU stand-in of their device, in debug mode,
against ONNX Runtime: sequences resolve to existing hip ops, so these run the
GPU kernels of Split, Gather, Concat, Mul and Relu."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

import xhip
from tests.pytest.backend.test_sequence_models import (
    LIST_ROWS,
    check,
    loop_model,
    map_model,
    ort_outputs,
)
from tests.pytest.emulator.conftest import MakeGpu
from xhip.frontend.sequence_types import gather_outputs, with_tensor_inputs

pytestmark = pytest.mark.emulator


def test_loop_filling_a_sequence_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    model = loop_model()
    compiled = xhip.compile(model, runtime=make_gpu(debug=True))
    x = np.arange(12, dtype=np.float32).reshape(4, 3) - 5
    for trips in (3, 1):
        feeds = {"x": x, "m": np.array(trips, np.int64)}
        check(ort_outputs(model, feeds), gather_outputs(model, compiled(feeds)))


def test_torch_list_export_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    model = onnx.load(LIST_ROWS)
    compiled = xhip.compile(model, runtime=make_gpu(debug=True))
    x = np.random.default_rng(2).standard_normal((4, 3)).astype(np.float32)
    feeds = {"x": x, "n": np.array(3, np.int64)}
    check(ort_outputs(model, feeds), list(compiled(feeds).values()))


def test_sequence_input_mapped_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    model = map_model()
    rng = np.random.default_rng(1)
    xs = [rng.standard_normal((r, 2)).astype(np.float32) for r in (2, 1, 3)]
    expanded, arrays = with_tensor_inputs(model, {"xs": xs})
    compiled = xhip.compile(expanded, runtime=make_gpu(debug=True))
    check(ort_outputs(model, {"xs": xs}), gather_outputs(expanded, compiled(arrays)))
