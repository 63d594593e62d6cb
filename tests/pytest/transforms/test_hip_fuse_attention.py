"""`hip-fuse-attention` and the CPU runtime's blocked fused attention: every
fixture with attention fused and against ONNX Runtime; the blocked
evaluation (several blocks, two threads, broadcast heads, masks, fully masked
rows with and without the NaN guard, an output over an input) against numpy
float64 of the unfused chain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from xhip.api import compile_to_ir
from xhip.backend.cpu import CpuRuntime
from xhip.backend.cpu_attention import KEY_CHUNK
from xhip.backend.session import CompiledModel
from xhip.dialects import hip

MODELS = Path(__file__).parents[2] / "fixtures" / "models"
EXAMPLE = Path(__file__).parents[3] / "examples" / "attention.onnx"


def _fused(model: CompiledModel) -> int:
    return sum(isinstance(op, hip.FusedAttentionOp) for op in model.module.walk())


@pytest.mark.parametrize(
    "name",
    [
        "bert.torchscript",
        "bert.dynamo",
        "gpt2.torchscript",
        "gpt2.dynamo",
        "llama.torchscript",
        "llama.dynamo",
    ],
)
def test_fixtures_fuse_every_attention_and_match_onnx_runtime(name: str) -> None:
    """Two layers each: two fused attentions, no softmax left; BERT's padding
    mask and NaN guard, GPT-2's and llama's causal masks."""
    ort = pytest.importorskip("onnxruntime")
    path = MODELS / f"{name}.onnx"
    data = dict(np.load(MODELS / f"{name}.npz"))
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    inputs = {i.name: data[i.name] for i in session.get_inputs()}
    expected = session.run(None, inputs)
    ir = compile_to_ir(path)
    model = CompiledModel(ir.module, ir.signature, ir.constants)
    assert _fused(model) == 2
    assert not any(isinstance(op, hip.SoftmaxOp) for op in model.module.walk())
    unfused = CompiledModel(ir.module, ir.signature, ir.constants, fuse_attention=False)
    assert _fused(unfused) == 0
    for got, want in zip(model(inputs).values(), expected):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(("batch", "seq"), [(1, 1), (2, 37), (1, 700)])
def test_the_seed_attention_fused_matches_onnx_runtime(batch: int, seq: int) -> None:
    ort = pytest.importorskip("onnxruntime")
    ir = compile_to_ir(EXAMPLE)
    model = CompiledModel(ir.module, ir.signature, ir.constants)
    assert _fused(model) == 1
    x = np.random.default_rng(seq).standard_normal((batch, seq, 64)).astype(np.float32)
    session = ort.InferenceSession(str(EXAMPLE), providers=["CPUExecutionProvider"])
    (want,) = session.run(None, {"X": x})
    np.testing.assert_allclose(model({"X": x})["out"], want, rtol=1e-4, atol=1e-5)


def _reference(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float | None, divide: bool,
    mask: np.ndarray | None, fill: float | None,
) -> np.ndarray:  # fmt: skip
    """The unfused chain in float64."""
    with np.errstate(invalid="ignore"):
        s = q.astype(np.float64) @ k.astype(np.float64)
        if scale is not None:
            s = s / scale if divide else s * scale
        if mask is not None:
            s = s + mask
        e = np.exp(s - s.max(-1, keepdims=True))
        p = e / e.sum(-1, keepdims=True)
        if fill is not None:
            p = np.where(np.isnan(p), fill, p)
        return p @ v.astype(np.float64)


CASES: list[dict[str, Any]] = [
    {"q": (2, 3, 300, 16), "t": 600, "scale": 0.25, "mask": (2, 1, 1, 600)},
    {"q": (2, 3, 300, 16), "t": 600, "scale": 4.0, "divide": True, "kv_heads": 1},
    {"q": (5, 8), "t": 5, "mask": "causal"},
    {
        "q": (2, 2, 150, 8),
        "t": 2000,
        "mask": (2, 1, 150, 2000),
        "dead": True,
        "fill": 0.0,
    },
    {"q": (2, 2, 40, 8), "t": 9, "mask": (2, 1, 1, 9), "dead": True},
    {"q": (3, 50, 4), "t": 50, "dv": 6, "dtype": np.float64, "scale": 0.5},
]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", CASES, ids=lambda c: str(sorted(c.items())))
def test_blocked_fused_attention_against_float64(
    case: dict[str, Any], threads: int
) -> None:
    dtype = case.get("dtype", np.float32)
    rng = np.random.default_rng(len(str(case)))
    *batch, s, d = case["q"]
    t, dv = case["t"], case.get("dv", d)
    kv = [*batch[:-1], case["kv_heads"]] if "kv_heads" in case else batch
    q = rng.normal(0, 1, case["q"]).astype(dtype)
    k = rng.normal(0, 1, (*kv, d, t)).astype(dtype)
    v = rng.normal(0, 1, (*kv, t, dv)).astype(dtype)
    mask = None
    if case.get("mask") == "causal":
        mask = np.triu(np.full((s, t), -np.inf, dtype), 1)
    elif "mask" in case:
        mask = rng.normal(0, 1, case["mask"]).astype(dtype)
        if case.get("dead"):
            mask[0, ..., -1, :] = -np.inf  # batch 0: a row with every key masked
    scale, fill = case.get("scale"), case.get("fill")
    divide = bool(case.get("divide"))
    if t >= 600:  # these cases must span several chunks of keys per head
        assert t > KEY_CHUNK
    want = _reference(q, k, v, scale, divide, mask, fill)
    cpu = CpuRuntime(threads=threads)
    try:
        out = cpu.upload(np.full((*batch, s, dv), 7.0, dtype))
        cpu.fused_attention(
            cpu.upload(q),
            cpu.upload(k),
            cpu.upload(v),
            None if scale is None else cpu.upload(np.asarray([scale], dtype)),
            None if mask is None else cpu.upload(mask),
            None if fill is None else cpu.upload(np.asarray([fill], dtype)),
            out,
            hip.FusedAttentionAttributes(divide=divide),
        )
        got = cpu.download(out)
    finally:
        cpu.close()
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_an_output_over_the_queries_is_computed_from_them() -> None:
    """The memory plan may give `outs` the queries' buffer (dead after the
    first matmul): they are copied before the first block is written."""
    rng = np.random.default_rng(5)
    q = rng.normal(0, 1, (2, 600, 16)).astype(np.float32)
    k = rng.normal(0, 1, (2, 16, 600)).astype(np.float32)
    v = rng.normal(0, 1, (2, 600, 16)).astype(np.float32)
    want = _reference(q, k, v, None, False, None, None)
    cpu = CpuRuntime(threads=2)
    try:
        shared = cpu.upload(q)
        cpu.fused_attention(
            shared, cpu.upload(k), cpu.upload(v), None, None, None, shared,
            hip.FusedAttentionAttributes(divide=False),
        )  # fmt: skip
        np.testing.assert_allclose(cpu.download(shared), want, rtol=1e-5, atol=1e-5)
    finally:
        cpu.close()
