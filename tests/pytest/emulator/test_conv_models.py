"""The convolutional models of `tests/pytest/backend/test_conv_models.py` on
the GPU runtimes (CUDA at warp 32, HIP at warps 64 and 32) through the CPU
stand-in of their device, in debug mode, against ONNX Runtime: the im2col
kernel into the planned workspace and the SGEMM over the groups, the pooling
kernel (Indices too), batch norm as elementwise ops and reductions."""

from __future__ import annotations

import pytest

import xhip
from tests.pytest.backend.test_conv_models import MODELS, _inputs, check, expected
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.session import CompiledModel
from xhip.testing.emulator import EmulatedDevice

pytestmark = pytest.mark.emulator


@pytest.mark.parametrize("name", sorted(MODELS))
def test_conv_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    model, runs = MODELS[name]
    ir = xhip.compile_to_ir(model)
    runtime = make_gpu(debug=True)
    compiled = CompiledModel(ir.module, ir.signature, ir.constants, runtime)
    for sizes in runs:
        inputs = _inputs(model, sizes)
        check(compiled(inputs), expected(model, inputs))


def test_a_conv_is_im2col_then_one_sgemm_per_image(make_gpu: MakeGpu) -> None:
    """Two images, two groups: per image one im2col launch into the workspace
    and one SGEMM batched over the groups; no scratch allocation beyond the
    plan's (the workspace is a view of the pool)."""
    model, _ = MODELS["conv_block_valid_dilated_groups"]
    ir = xhip.compile_to_ir(model)
    runtime = make_gpu()
    compiled = CompiledModel(ir.module, ir.signature, ir.constants, runtime)
    device = runtime.device
    assert isinstance(device, EmulatedDevice)
    compiled(_inputs(model, (2, 9, 7)))
    assert device.launches.count("xhip_im2col_f32") == 2
    # The first conv's two SGEMMs (groups 2), then the 1x1 conv: one SGEMM
    # over the whole batch (the weight at batch stride 0), no im2col.
    assert [g.batch_count for g in device.gemms] == [2, 2, 2]
    assert device.gemms[2].stride_b == 0  # BLAS gets the row-major A as B
