"""Consecutive pooled GEMMs of one input merged into one launch
(`cpu_kernels_gemm.merge`, `plan._merged`): each product against numpy
float64, the same bits as the launches apart, runs that must stay apart
(another input, an output another product reads or writes), and the seed
attention at 8 x 128 (q, k, v's projections one launch) against ONNX
Runtime."""

from __future__ import annotations

from functools import partial

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import xhip
from tests.pytest.backend.test_cpu_gemm_kernels import (
    _close,  # pyright: ignore[reportPrivateUsage]
)
from xhip.backend import cpu_host
from xhip.backend import cpu_kernels_gemm as kernels
from xhip.backend import plan as plans
from xhip.backend.cpu import CpuRuntime
from xhip.backend.reference import AttentionWeights
from xhip.backend.session import CompiledModel


def _products(
    x: np.ndarray, shapes: list[tuple[int, bool]], seed: int = 0
) -> tuple[list[partial[None]], list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]]:
    """A pooled GEMM of x by a weight of n columns (a bias or not) a shape;
    the calls and each (o, w, bias)."""
    rng = np.random.default_rng(seed)
    calls: list[partial[None]] = []
    made: list[tuple[np.ndarray, np.ndarray, np.ndarray | None]] = []
    for n, biased in shapes:
        w = rng.normal(0, 1, (x.shape[1], n)).astype(np.float32)
        bias = rng.normal(0, 1, n).astype(np.float32) if biased else None
        o = np.full((x.shape[0], n), 7, np.float32)
        calls += kernels.bind(x, kernels.packed(w), n, o, bias, 2, pool=True)
        made.append((o, w, bias))
    return calls, made


@pytest.mark.parametrize(
    "shapes",
    [
        [(64, True), (64, True), (64, True)],
        [(70, False), (3, True)],
        [(64, True), (130, False), (1, True), (64, False)],
    ],
)
def test_merged_products_match_float64_and_the_launches_apart(
    shapes: list[tuple[int, bool]],
) -> None:
    x = np.random.default_rng(1).normal(0, 1, (97, 45)).astype(np.float32)
    calls, made = _products(x, shapes)
    merged = kernels.merge(calls)
    assert [c.func for c in merged] == [kernels.gemm_pool3] + [kernels.gemm_pool] * (
        len(shapes) > 3
    )
    apart = []
    for call in calls:
        call()
    for o, _, _ in made:
        apart.append(o.copy())
        o.fill(7)
    for call in merged:
        call()
    for (o, w, bias), before in zip(made, apart, strict=True):
        _close(o, x, w, 0.0 if bias is None else bias.astype(np.float64))
        np.testing.assert_array_equal(o, before)


def test_runs_that_must_stay_apart() -> None:
    """Another x, or an output that another product of the run reads (its
    x) or writes: each launch stays as it was."""
    rng = np.random.default_rng(2)
    x = rng.normal(0, 1, (40, 16)).astype(np.float32)
    other = x.copy()
    first, _ = _products(x, [(16, False)])
    second, _ = _products(other, [(16, False)])
    assert kernels.merge(first + second) == first + second
    w = kernels.packed(rng.normal(0, 1, (16, 16)).astype(np.float32))
    shared = np.zeros((40, 16), np.float32)
    writes_x = kernels.bind(x, w, 16, x, None, 2, pool=True)
    assert kernels.merge(first + writes_x) == first + writes_x
    a = kernels.bind(x, w, 16, shared, None, 2, pool=True)
    b = kernels.bind(x, w, 16, shared, None, 2, pool=True)
    assert kernels.merge(a + b) == a + b


def test_plan_merges_only_runs_with_the_same_merge() -> None:
    calls: list[object] = []

    def joined(run: list[partial[None]]) -> list[partial[None]]:
        return [partial(calls.append, "+".join(c.args[0] for c in run))]

    def marked(tag: str) -> partial[None]:
        call = partial(calls.append, tag)
        call.merge = joined  # pyright: ignore[reportAttributeAccessIssue]
        return call

    one, two = marked("a"), marked("b")
    alone = partial(calls.append, "c")
    other = partial(calls.append, "d")
    other.merge = lambda run: run  # pyright: ignore[reportAttributeAccessIssue]
    for call in plans._merged([one, two, alone, marked("d"), other, marked("e")]):  # pyright: ignore[reportPrivateUsage]
        call()
    assert calls == ["a+b", "c", "d", "d", "e"]


def test_seed_attention_projections_one_launch_match_onnxruntime(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cpu_host, "wide_simd", lambda: True)
    monkeypatch.setattr(cpu_host, "numba_pool", lambda: True)
    onnx_bytes = AttentionWeights.random(0).onnx_model()
    ir = xhip.compile_to_ir(onnx.load_from_string(onnx_bytes))
    model = CompiledModel(ir.module, ir.signature, ir.constants, CpuRuntime(threads=2))
    reference = ort.InferenceSession(onnx_bytes, providers=["CPUExecutionProvider"])
    x = np.random.default_rng(3).standard_normal((8, 128, 64)).astype(np.float32)
    for _ in range(2):  # binds, then replays
        got = next(iter(model({"X": x}).values()))
        want = np.asarray(reference.run(None, {"X": x})[0])
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    (bound,) = model._bound.values()  # pyright: ignore[reportPrivateUsage]
    assert bound is not None
    funcs = [getattr(call, "func", None) for call in bound.calls]
    assert funcs.count(kernels.gemm_pool3) == 1
    assert kernels.gemm_pool not in funcs
