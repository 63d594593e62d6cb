"""The kernels of `kernels/nbits.h` on the emulated GPU runtimes (CUDA at
warp 32, HIP at 64 and 32), against ONNX Runtime: every MatMulNBits and
GatherBlockQuantized case of `tests/pytest/backend/test_nbits_models.py`
(bits 2, 4, 8; block sizes 16 to 256; K not a multiple of the block; with
and without zero points, packed or float, and bias; accuracy levels 0, 1, 3
and 4), the tied int4 LM, and the runtime methods on transposed (strided)
operands. Tolerances as that module's (exact for GatherBlockQuantized).

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

import xhip
from tests.pytest.backend.test_nbits_models import (
    CASES,
    GATHER_CASES,
    RUNS,
    GatherCase,
    NBitsCase,
    check_case,
    feeds_for,
    onnxruntime_run,
    pack,
    tied_lm,
    tied_lm_feeds,
    tolerance,
)
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.cpu import CpuRuntime
from xhip.backend.gpu_host import transposed
from xhip.backend.session import CompiledModel
from xhip.dialects.hip import GatherQuantizedAttributes, NBitsAttributes

pytestmark = pytest.mark.emulator

KERNELS = {"xhip_matmul_nbits", "xhip_gather_block_quantized"}


def _compiled(model: onnx.ModelProto, make_gpu: MakeGpu) -> CompiledModel:
    ir = xhip.compile_to_ir(model)
    return CompiledModel(ir.module, ir.signature, ir.constants, make_gpu(debug=True))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_matmul_nbits_on_gpu_runtimes(case: NBitsCase, make_gpu: MakeGpu) -> None:
    model = case.model()
    compiled = _compiled(model, make_gpu)
    for dims in RUNS:
        feeds = feeds_for(model, dims)
        (want,) = onnxruntime_run(model, feeds)
        check_case(case, compiled(feeds)["y"], want)


@pytest.mark.parametrize("case", GATHER_CASES, ids=lambda c: c.id)
def test_gather_block_quantized_on_gpu_runtimes(
    case: GatherCase, make_gpu: MakeGpu
) -> None:
    model = case.model()
    compiled = _compiled(model, make_gpu)
    for dims in RUNS:
        feeds = case.feeds(dims)
        (want,) = onnxruntime_run(model, feeds)
        np.testing.assert_array_equal(compiled(feeds)["y"], want)


def test_tied_int4_lm_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    model = tied_lm()
    compiled = _compiled(model, make_gpu)
    for dims in RUNS:
        feeds = tied_lm_feeds(dims)
        (want,) = onnxruntime_run(model, feeds)
        got = compiled(feeds)["logits"]
        np.testing.assert_allclose(got, want, rtol=0, atol=tolerance(4, want))


@pytest.mark.parametrize("int8", [False, True])
def test_matmul_nbits_on_transposed_operands(make_gpu: MakeGpu, int8: bool) -> None:
    """a and out as transposed views (copied dense / written strided), the
    same results as the CPU runtime's on dense ones (the same arithmetic,
    summed in another order)."""
    gpu, cpu = make_gpu(debug=True), CpuRuntime(debug=True)
    rng = np.random.default_rng(3)
    k, n, m, block = 72, 10, 6, 32
    blocks = 3
    attrs = NBitsAttributes(k, n, 4, block, int8)
    a = rng.standard_normal((k, m)).astype(np.float32)  # a.T is (m, k)
    b = pack(rng.integers(0, 16, (n, blocks, block)), 4)
    scales = rng.uniform(0.01, 0.1, (n, blocks)).astype(np.float32)
    zero = pack(rng.integers(0, 16, (n, 4)), 4)
    bias = rng.standard_normal(n).astype(np.float32)
    want = cpu.empty((m, n), np.dtype(np.float32))
    cpu.matmul_nbits(
        cpu.upload(np.ascontiguousarray(a.T)),
        cpu.upload(b),
        cpu.upload(scales),
        cpu.upload(zero),
        cpu.upload(bias),
        want,
        attrs,
    )
    out = gpu.empty((n, m), np.dtype(np.float32))
    gpu.matmul_nbits(
        transposed(gpu.upload(a)),
        gpu.upload(b),
        gpu.upload(scales),
        gpu.upload(zero),
        gpu.upload(bias),
        transposed(out),
        attrs,
    )
    expected = cpu.download(want)
    np.testing.assert_allclose(
        gpu.download(out).T, expected, rtol=0, atol=1e-5 * np.abs(expected).max()
    )


def test_gather_block_quantized_into_transposed_out(make_gpu: MakeGpu) -> None:
    gpu, cpu = make_gpu(debug=True), CpuRuntime(debug=True)
    rng = np.random.default_rng(4)
    data = pack(rng.integers(0, 16, (5, 64)), 4)
    scales = rng.uniform(0.01, 0.1, (5, 2)).astype(np.float32)
    indices = np.asarray([4, -1, 7, 0], np.int64)
    attrs = GatherQuantizedAttributes(0, 1, 32, 4)
    want = cpu.empty((4, 64), np.dtype(np.float32))
    cpu.gather_block_quantized(
        cpu.upload(data), cpu.upload(indices), cpu.upload(scales), None, want, attrs
    )
    out = gpu.empty((64, 4), np.dtype(np.float32))
    gpu.gather_block_quantized(
        gpu.upload(data),
        gpu.upload(indices),
        gpu.upload(scales),
        None,
        transposed(out),
        attrs,
    )
    np.testing.assert_array_equal(gpu.download(out).T, cpu.download(want))
