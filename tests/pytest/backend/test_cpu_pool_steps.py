"""Every threaded numba step on numba's one pool (`cpu_host.numba_pool`):
the norms (`cpu_kernels_pool.norm_pool`), the fused elementwise loops and
the large lone exact ops (`kernel_pool` of `cpu_kernels_fused`) run as one
launch there, and a share a Python thread (`_Workers`) where the pool is
not numba's. Either way the same answers: the exact ops numpy's bits, the
norms numpy float64's within float32 rounding, the GELU group within its
documented bound; called again and again, bound once."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from xhip.backend import cpu_host
from xhip.backend import cpu_kernels_fused as fused
from xhip.backend import cpu_kernels_pool as pool
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import DeviceArray
from xhip.dialects import hip
from xhip.dialects.hip import ElementwiseAttributes, NormAttributes

F32 = np.dtype(np.float32)
GELU = (
    "add(x0, x1) : f32; div(s0, x2) : f32; erf(s1) : f32; add(s2, x3) : f32; "
    "mul(s3, s0) : f32; mul(s4, x4) : f32"
)
CALLS = 4
"""Calls of each bound step: past the pool's first calls (`WARM`) too."""


@pytest.fixture(params=["numba", "python"])
def launches(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[str]]:
    """The pool launches of the steps bound meanwhile, with numba's pool
    allowed or not (`cpu_host.numba_pool`): first which ("numba" or
    "python"), then an entry a launch, by spies on the pool kernels."""
    allowed = request.param == "numba"
    monkeypatch.setattr(cpu_host, "numba_pool", lambda: allowed)
    launched: list[str] = []
    norm_pool = pool.norm_pool

    def norm_spy(*args: Any) -> None:
        launched.append("norm_pool")
        norm_pool(*args)

    monkeypatch.setattr(pool, "norm_pool", norm_spy)
    load = fused.kernel

    def kernel_spy(text: str) -> Any:
        module = load(text)

        class Spied:
            kernel = module.kernel

            @staticmethod
            def kernel_pool(*args: Any) -> None:
                launched.append("kernel_pool")
                module.kernel_pool(*args)

        return Spied

    monkeypatch.setattr(fused, "kernel", kernel_spy)
    launched.append(request.param)
    yield launched


def _run(
    launched: list[str], bind: Callable[[], Callable[[], object]], taken: bool = True
) -> None:
    """Binds a step, calls it `CALLS` times; one launch each on numba's pool
    where it is allowed (and the kernels `taken`), none on Python's threads."""
    allowed = launched[0] == "numba" and taken
    before = len(launched)
    call = bind()
    for _ in range(CALLS):
        call()
    assert len(launched) - before == (CALLS if allowed else 0)


def _norm_want(
    x: np.ndarray, scale: np.ndarray, bias: np.ndarray | None, centre: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    w = x.astype(np.float64)
    m = w.mean(-1, keepdims=True) if centre else np.zeros_like(w[..., :1])
    inv = 1 / np.sqrt(((w - m) ** 2).mean(-1, keepdims=True) + 1e-5)
    out = (w - m) * inv * scale + (0.0 if bias is None else bias)
    return out, m, inv


@pytest.mark.parametrize("centre", [True, False])
@pytest.mark.parametrize("in_place", [False, True])
@pytest.mark.parametrize("shape", [(8, 128, 256), (1000, 77)])
def test_norms_match_float64(
    launches: list[str], centre: bool, in_place: bool, shape: tuple[int, ...]
) -> None:
    """LayerNorm with its statistics, and RMSNorm, written apart or over x;
    rows that do not share out evenly (1000 rows of 77)."""
    rng = np.random.default_rng(len(shape) + centre)
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    n = shape[-1]
    scale = rng.uniform(0.5, 1.5, n).astype(np.float32)
    bias = rng.normal(0, 0.1, n).astype(np.float32)
    runtime = CpuRuntime(threads=2)
    src, g, b = (runtime.upload(a, copy=True) for a in (x, scale, bias))
    out = src if in_place else runtime.empty(shape, F32)
    stats = shape[:-1] + (1,)
    mean, inv_std = runtime.empty(stats, F32), runtime.empty(stats, F32)
    attrs = NormAttributes(axis=len(shape) - 1, epsilon=1e-5)
    want, m, inv = _norm_want(x, scale, bias if centre else None, centre)

    def bind() -> Callable[[], object]:
        if centre:
            return runtime.bind_layer_norm(src, g, b, out, mean, inv_std, attrs)
        return runtime.bind_rms_norm(src, g, out, attrs)

    try:
        if in_place:  # each call normalizes the last one's output: once only
            call = bind()
            call()
            assert len(launches) == 1 + (launches[0] == "numba")
        else:
            _run(launches, bind)
        np.testing.assert_allclose(runtime.download(out), want, rtol=1e-5, atol=1e-5)
        if centre:
            np.testing.assert_allclose(runtime.download(mean), m, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(runtime.download(inv_std), inv, rtol=1e-5)
    finally:
        runtime.close()


def _fused(
    runtime: CpuRuntime, body: str, arrays: list[DeviceArray], out: DeviceArray
) -> Callable[[], object]:
    steps = hip.parse_body(body, len(arrays))
    return runtime.bind_fused_elementwise(arrays, out, hip.FusedAttributes(steps))


@pytest.mark.parametrize("shape", [(8, 128, 1024), (3, 50000)])
def test_fused_gelu_matches_float64(
    launches: list[str], shape: tuple[int, ...]
) -> None:
    """Torch's erf GELU of x + bias: within float32 rounding of each step, as
    `test_cpu_kernels.test_fused_gelu_loop_matches_float64` (a long vector of
    few rows, 3 x 50000, shares out as rows of it)."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape).astype(np.float32) * 3
    bias = rng.standard_normal(shape[-1]).astype(np.float32)
    scalars = [np.array(v, np.float32) for v in (math.sqrt(2), 1.0, 0.5)]
    runtime = CpuRuntime(threads=2)
    inputs = [runtime.upload(a, copy=True) for a in (x, bias, *scalars)]
    out = runtime.empty(shape, F32)
    try:
        _run(launches, lambda: _fused(runtime, GELU, inputs, out))
        got = runtime.download(out)
    finally:
        runtime.close()
    h = (x + bias).astype(np.float64)
    erf = np.array(np.frompyfunc(math.erf, 1, 1)(h / math.sqrt(2)), np.float64)
    want = 0.5 * h * (1.0 + erf)
    bound = 4e-7 * np.abs(h) + 2 * np.spacing(np.abs(want).astype(np.float32))
    assert np.all(np.abs(got - want) <= bound)


def test_fused_exact_group_is_numpys_bits(launches: list[str]) -> None:
    """A bias + residual + relu group, its bias a row: numpy's bits, step by
    step; in place over the residual too."""
    rng = np.random.default_rng(2)
    x, res = (rng.standard_normal((1024, 256)).astype(np.float32) for _ in range(2))
    bias = rng.standard_normal(256).astype(np.float32)
    body = "add(x0, x1) : f32; add(s0, x2) : f32; relu(s1) : f32"
    want = np.maximum(np.add(np.add(x, bias), res), np.float32(0))
    runtime = CpuRuntime(threads=2)
    inputs = [runtime.upload(a, copy=True) for a in (x, bias, res)]
    out = runtime.empty(x.shape, F32)
    try:
        _run(launches, lambda: _fused(runtime, body, inputs, out))
        np.testing.assert_array_equal(runtime.download(out), want)
        _fused(runtime, body, inputs, inputs[2])()
        np.testing.assert_array_equal(runtime.download(inputs[2]), want)
    finally:
        runtime.close()


@pytest.mark.parametrize(
    ("kind", "shapes", "taken"),
    [
        ("add", [(1024, 256), (1024, 256)], True),
        ("sub", [(4, 64, 512), (512,)], True),
        ("mul", [(4, 64, 512), (4, 64, 1)], True),
        ("div", [(1, 64, 56, 56), (1, 64, 56, 1)], True),
        ("div", [(1, 64, 56, 56), (1, 64, 1, 1)], False),
        ("max", [(512, 512), ()], True),
        ("min", [(300, 1000), (300, 1000)], True),
        ("relu", [(1, 64, 112, 112)], True),
        ("neg", [(512, 512)], True),
        ("abs", [(512, 512)], True),
    ],
)
def test_large_lone_exact_ops_are_numpys_bits(
    launches: list[str], kind: str, shapes: list[tuple[int, ...]], taken: bool
) -> None:
    """Large plain binaries and unaries of `cpu_fused.EXACT_KINDS`, some
    broadcast (a row, a column, a scalar): one-step loops on numba's pool,
    numpy's formulas on Python's threads; numpy's bits either way, NaN,
    infinities and signed zeros included. A broadcast the loop does not
    read (per channel: not a row, a column or a scalar of the output seen
    as 2-D) stays on numpy's formulas (not `taken`)."""
    rng = np.random.default_rng(len(kind))
    arrays = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    flat = arrays[0].reshape(-1)
    flat[:6] = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-40]
    numpy_forms: dict[str, Callable[..., np.ndarray]] = {
        "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
        "max": np.maximum, "min": np.minimum, "neg": np.negative, "abs": np.abs,
        "relu": lambda a: np.maximum(a, np.float32(0)),
    }  # fmt: skip
    with np.errstate(all="ignore"):
        want = numpy_forms[kind](*arrays)
    runtime = CpuRuntime(threads=2)
    inputs = [runtime.upload(a, copy=True) for a in arrays]
    out = runtime.empty(want.shape, F32)
    attrs = ElementwiseAttributes(kind, ())
    bind = (
        (lambda: runtime.bind_unary(inputs[0], out, attrs))
        if len(inputs) == 1
        else (lambda: runtime.bind_binary(inputs[0], inputs[1], out, attrs))
    )
    try:
        _run(launches, bind, taken)
        got = runtime.download(out)
    finally:
        runtime.close()
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_small_steps_stay_on_the_callers_thread(launches: list[str]) -> None:
    """Below `cpu_host.PARALLEL_MIN_ELEMENTS` a norm, a fused group and a
    lone add run on the caller alone: one call, no launch."""
    rows = cpu_host.PARALLEL_MIN_ELEMENTS // 256 - 1
    rng = np.random.default_rng(3)
    x = rng.standard_normal((rows, 256)).astype(np.float32)
    scale = np.ones(256, np.float32)
    runtime = CpuRuntime(threads=2)
    src, g = runtime.upload(x, copy=True), runtime.upload(scale, copy=True)
    out = runtime.empty(x.shape, F32)
    try:
        steps = [
            runtime.bind_rms_norm(src, g, out, NormAttributes(axis=1, epsilon=1e-5)),
            _fused(runtime, "add(x0, x1) : f32; relu(s0) : f32", [src, g], out),
            runtime.bind_binary(src, src, out, ElementwiseAttributes("add", ())),
        ]
        for step in steps:
            step()
            assert getattr(step, "func", None) != runtime._parallel  # pyright: ignore[reportPrivateUsage]
        assert len(launches) == 1
        np.testing.assert_array_equal(runtime.download(out), x + x)
    finally:
        runtime.close()


def test_one_thread_never_launches(launches: list[str]) -> None:
    """A runtime of one thread runs every step on its caller."""
    x = np.random.default_rng(4).standard_normal((1024, 256)).astype(np.float32)
    runtime = CpuRuntime(threads=1)
    src = runtime.upload(x, copy=True)
    out = runtime.empty(x.shape, F32)
    try:
        runtime.bind_unary(src, out, ElementwiseAttributes("relu", ()))()
        _fused(runtime, GELU.split(";")[0], [src, src], out)()
        assert len(launches) == 1
    finally:
        runtime.close()


def test_shares_cover_the_rows_once() -> None:
    """`shares`' cut points: from 0 to every row, increasing, at most one
    share a row, `SHARES` a thread."""
    for rows, threads in [(1, 2), (5, 2), (8, 2), (1000, 3), (7, 16)]:
        cuts = pool.shares(rows, threads)
        assert cuts[0] == 0 and cuts[-1] == rows
        assert np.all(np.diff(cuts) >= 1)
        assert len(cuts) - 1 == min(rows, threads * pool.SHARES)
