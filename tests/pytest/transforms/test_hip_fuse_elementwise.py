"""`hip-fuse-elementwise` and the CPU runtime's fused ops: fused execution
against ONNX Runtime and against unfused execution on real models, ops
counted; the blocked evaluation against numpy float64."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from xhip.api import compile_to_ir
from xhip.backend.cpu import CpuRuntime
from xhip.backend.cpu_fused import BLOCK_ELEMENTS
from xhip.backend.session import CompiledModel
from xhip.dialects import hip

MODELS = Path(__file__).parents[2] / "fixtures" / "models"
ERF = np.frompyfunc(math.erf, 1, 1)
"""The reference erf: the C library's, in float64."""


def _counts(model: CompiledModel) -> tuple[int, int]:
    ops = list(model.module.walk())
    return (
        sum(isinstance(op, hip.HipDPSOp) for op in ops),
        sum(isinstance(op, hip.FusedElementwiseOp) for op in ops),
    )


@pytest.mark.parametrize(
    "name", ["bert.torchscript", "gpt2.dynamo", "llama.torchscript"]
)
def test_fused_models_match_onnx_runtime_and_unfused(name: str) -> None:
    ort = pytest.importorskip("onnxruntime")
    path = MODELS / f"{name}.onnx"
    data = dict(np.load(MODELS / f"{name}.npz"))
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    inputs = {i.name: data[i.name] for i in session.get_inputs()}
    expected = session.run(None, inputs)
    ir = compile_to_ir(path)
    plain = CompiledModel(
        ir.module, ir.signature, ir.constants, CpuRuntime(), fuse_elementwise=False
    )
    fused = CompiledModel(ir.module, ir.signature, ir.constants, CpuRuntime())
    (ops_plain, none), (ops_fused, groups) = _counts(plain), _counts(fused)
    assert none == 0 and groups > 0
    assert ops_fused < ops_plain  # each group of k ops is one launch
    got, unfused = fused(inputs), plain(inputs)
    for out, want, same in zip(got.values(), expected, unfused.values()):
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)
        # Each step is its op's own numpy function, rounded to its type.
        np.testing.assert_array_equal(out, same)


def _runtime_call(
    x: np.ndarray, b: np.ndarray, out_shape: tuple[int, ...], in_place: bool
) -> np.ndarray:
    """GELU(x + b) * 2 as a fused op on the CPU runtime."""
    runtime = CpuRuntime(threads=2)
    steps = hip.parse_body(
        "add(x0, x1) : f32; gelu(s0) : f32; mul(s1, x2) : f32; cast(s2) : f16; "
        "cast(s3) : f32",
        3,
    )
    dx, db = runtime.upload(x, copy=True), runtime.upload(b, copy=True)
    two = runtime.upload(np.full((), 2.0, np.float32), copy=True)
    out = dx if in_place else runtime.empty(out_shape, np.dtype(np.float32))
    runtime.fused_elementwise((dx, db, two), out, hip.FusedAttributes(steps))
    result = runtime.download(out)
    runtime.close()
    return result


@pytest.mark.parametrize("in_place", [False, True])
@pytest.mark.parametrize("shape", [(3, 700, 50), (BLOCK_ELEMENTS * 2 + 7,), ()])
def test_blocks_match_numpy_float64(shape: tuple[int, ...], in_place: bool) -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal(shape[-1:]).astype(np.float32)
    got = _runtime_call(x, b, shape, in_place)
    h = x.astype(np.float64) + b
    erf = np.asarray(ERF(h / np.sqrt(2)), np.float64)
    want = np.asarray(0.5 * h * (1 + erf) * 2).astype(np.float16)
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=2e-3, atol=1e-6)


def test_an_input_overlapping_the_output_is_read_before_it_is_written() -> None:
    """The memory plan may put the output over an input that is dead after its
    first reader: a broadcast row at the output's start is copied first."""
    runtime = CpuRuntime(threads=1)
    rows, n = 4 * BLOCK_ELEMENTS // 64, 64
    pool = runtime.empty((rows * n,), np.dtype(np.float32))
    flat = runtime.array(pool)
    flat[:n] = np.arange(n, dtype=np.float32)
    row = np.arange(n, dtype=np.float64)
    bias = type(pool)(pool.buffer, pool.offset, (n,), (1,), pool.dtype)
    out = type(pool)(pool.buffer, pool.offset, (rows, n), (n, 1), pool.dtype)
    steps = hip.parse_body("add(x0, x0) : f32; neg(s0) : f32", 1)
    runtime.fused_elementwise((bias,), out, hip.FusedAttributes(steps))
    np.testing.assert_array_equal(
        runtime.array(out), np.broadcast_to(-2 * row, (rows, n))
    )
    runtime.close()
