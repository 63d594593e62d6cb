"""The CPU runtime's numba kernels against float64: `exp32`/`erf32` ulp
bounds, fused elementwise loops, softmax rows and layer/RMS norm rows, and
the on-disk cache of the generated fused loops."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import xhip.backend.cpu as cpu
import xhip.backend.cpu_fused as cpu_fused
import xhip.backend.cpu_kernels_fused as cpu_fused_kernels
import xhip.backend.cpu_reduce as cpu_reduce
from xhip.backend.cpu import CpuRuntime
from xhip.backend.cpu_kernels_rows import erf32, exp32
from xhip.dialects import hip
from xhip.dialects.hip import AxisAttributes, NormAttributes

F32 = np.dtype(np.float32)


@njit
def _apply_exp(x: np.ndarray, out: np.ndarray) -> None:
    for i in range(x.size):
        out[i] = exp32(x[i])


@njit
def _apply_erf(x: np.ndarray, out: np.ndarray) -> None:
    for i in range(x.size):
        out[i] = erf32(x[i])


def _floats(lo: float, hi: float, step: int) -> np.ndarray:
    """Every `step`-th float32 (by bit pattern) in [lo, hi], both signs."""
    bits = np.arange(0, 0x7F800000, step, dtype=np.uint32).view(np.float32)
    both = np.concatenate([bits, -bits])
    return both[(both >= lo) & (both <= hi)]


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in ulps of float32 at `want` (float64)."""
    spacing = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    return np.abs(got.astype(np.float64) - want) / spacing


def test_exp32_is_within_one_ulp_of_float64() -> None:
    x = _floats(-87.0, 88.7, 97)
    got = np.empty_like(x)
    _apply_exp(x, got)
    assert _ulps(got, np.exp(x.astype(np.float64))).max() <= 1.0
    edges = np.array([np.nan, np.inf, -np.inf, -200.0, 89.0, 0.0], np.float32)
    got = np.empty_like(edges)
    _apply_exp(edges, got)
    np.testing.assert_array_equal(got, [np.nan, np.inf, 0.0, 0.0, np.inf, 1.0])


def test_erf32_is_within_the_stated_ulp_bound_of_float64() -> None:
    """1.11 ulp measured (docs/benchmarks.md), 1.5 asserted; normal inputs
    (subnormal ones round through the small branch's a + a * p)."""
    x = _floats(-6.0, 6.0, 2001)
    x = x[np.abs(x) > 1e-30]
    got = np.empty_like(x)
    _apply_erf(x, got)
    want = np.array(np.frompyfunc(math.erf, 1, 1)(x.astype(np.float64)), np.float64)
    assert _ulps(got, want).max() <= 1.5
    edges = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 10.0], np.float32)
    got = np.empty_like(edges)
    _apply_erf(edges, got)
    np.testing.assert_array_equal(got, [np.nan, 1.0, -1.0, 0.0, -0.0, 1.0])
    assert np.signbit(got[4])


def _fused(
    body: str, arrays: list[np.ndarray], shape: tuple[int, ...], numba: bool
) -> np.ndarray:
    """The fused group `body` of `arrays` on the CPU runtime, the numba loop
    on or off (its size threshold moved)."""
    saved = cpu_fused.NUMBA_MIN_ELEMENTS, cpu_fused.SMALL_NUMBA_MIN_ELEMENTS
    cpu_fused.NUMBA_MIN_ELEMENTS = 1 << 16 if numba else 1 << 62
    cpu_fused.SMALL_NUMBA_MIN_ELEMENTS = saved[1] if numba else 1 << 62
    try:
        runtime = CpuRuntime(threads=2)
        steps = hip.parse_body(body, len(arrays))
        inputs = [runtime.upload(a, copy=True) for a in arrays]
        out = runtime.empty(shape, np.dtype(arrays[0].dtype))
        runtime.fused_elementwise(inputs, out, hip.FusedAttributes(steps))
        result = runtime.download(out)
        runtime.close()
        return result
    finally:
        cpu_fused.NUMBA_MIN_ELEMENTS, cpu_fused.SMALL_NUMBA_MIN_ELEMENTS = saved


GELU = (
    "add(x0, x1) : f32; div(s0, x2) : f32; erf(s1) : f32; add(s2, x3) : f32; "
    "mul(s3, s0) : f32; mul(s4, x4) : f32"
)


@pytest.mark.parametrize("bias_shape", [(2048,), (64, 1), (4, 64, 2048), ()])
def test_fused_gelu_loop_matches_float64(bias_shape: tuple[int, ...]) -> None:
    """Torch's erf GELU of x + bias, the bias a row, a column, full or a
    scalar: within float32 rounding of each step (the cancellation of
    1 + erf for negative h scales erf's error by |h|)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 64, 2048)).astype(np.float32) * 3
    bias = rng.standard_normal(bias_shape).astype(np.float32)
    scalars = [np.array(v, np.float32) for v in (math.sqrt(2), 1.0, 0.5)]
    got = _fused(GELU, [x, bias, *scalars], x.shape, numba=True)
    h = (x + bias).astype(np.float64)  # float32's rounding of the first step
    erf = np.array(np.frompyfunc(math.erf, 1, 1)(h / math.sqrt(2)), np.float64)
    want = 0.5 * h * (1.0 + erf)
    bound = 4e-7 * np.abs(h) + 2 * np.spacing(np.abs(want).astype(np.float32))
    assert np.all(np.abs(got - want) <= bound)


def test_fused_float64_loop_matches_math() -> None:
    """A float64 group computes in float64 (libm's exp and erf)."""
    rng = np.random.default_rng(6)
    x = rng.standard_normal((256, 512))
    body = "erf(x0) : f64; exp(s0) : f64; sub(s1, x1) : f64"
    got = _fused(body, [x, np.array(1.0)], x.shape, numba=True)
    erf = np.array(np.frompyfunc(math.erf, 1, 1)(x), np.float64)
    np.testing.assert_allclose(got, np.exp(erf) - 1.0, rtol=1e-14, atol=1e-15)


def test_fused_arithmetic_loop_is_bit_identical_to_numpy() -> None:
    """+, -, *, / and max round as numpy's, one step at a time."""
    rng = np.random.default_rng(1)
    x, y = (rng.standard_normal((300, 1000)).astype(np.float32) for _ in range(2))
    row = rng.standard_normal(1000).astype(np.float32)
    body = (
        "sub(x0, x2) : f32; mul(s0, x1) : f32; div(s1, x2) : f32; max(s2, x0) : f32; "
        "relu(s3) : f32; neg(s4) : f32"
    )
    fused = _fused(body, [x, y, row], x.shape, numba=True)
    plain = _fused(body, [x, y, row], x.shape, numba=False)
    np.testing.assert_array_equal(fused, plain)


def test_fused_groups_the_loop_does_not_take_stay_on_numpy() -> None:
    """A cast step, float16 and a bool step all give numpy's results."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((256, 512)).astype(np.float32)
    body = "exp(x0) : f32; cast(s0) : f16; cast(s1) : f32"
    got = _fused(body, [x], x.shape, numba=True)
    np.testing.assert_array_equal(got, np.exp(x).astype(np.float16).astype(np.float32))
    half = x.astype(np.float16)
    got = _fused("tanh(x0) : f16; neg(s0) : f16", [half], x.shape, numba=True)
    np.testing.assert_array_equal(
        got, _fused("tanh(x0) : f16; neg(s0) : f16", [half], x.shape, numba=False)
    )


def test_fused_loop_in_place_reads_through_its_output() -> None:
    """A group written over its own input reads that input as `out[i, j]`
    (a loop that LLVM vectorizes; see `cpu_kernels_fused`), with the same
    results as the group written elsewhere."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((128, 1024)).astype(np.float32)
    row = rng.standard_normal(1024).astype(np.float32)
    steps = hip.parse_body("add(x0, x1) : f32; erf(s0) : f32; mul(s1, x0) : f32", 2)
    target = x.copy()
    loops = cpu_fused_kernels.bind_kernel(steps, [target, row], target, 2)
    assert loops is not None
    text = cpu_fused_kernels.source(steps, ["o", "r"], "f32")
    assert text is not None and "out[i, j]" in text and "a0[i, j]" not in text
    for loop in loops:
        loop()
    apart = np.empty_like(x)
    loops = cpu_fused_kernels.bind_kernel(steps, [x, row], apart, 2)
    assert loops is not None
    for loop in loops:
        loop()
    np.testing.assert_array_equal(target, apart)
    h = (x + row).astype(np.float64)
    erf = np.array(np.frompyfunc(math.erf, 1, 1)(h), np.float64)
    bound = 2 * np.spacing(np.abs(erf * x).astype(np.float32)) + 4e-7 * np.abs(x)
    assert np.all(np.abs(target - erf * x) <= bound)


@pytest.mark.parametrize("in_place", [False, True])
def test_large_lone_erf_is_the_float32_loop(in_place: bool) -> None:
    """A lone float32 Erf of 64 Ki elements and more: the numba loop, within
    erf32's bound of float64."""
    x = np.random.default_rng(5).standard_normal((128, 1024)).astype(np.float32)
    runtime = CpuRuntime(threads=2)
    src = runtime.upload(x, copy=True)
    out = src if in_place else runtime.empty(x.shape, F32)
    attrs = hip.ElementwiseAttributes("erf", ())
    loop = runtime._bind_numba_op(  # pyright: ignore[reportPrivateUsage]
        "erf", (), [runtime.array(src)], runtime.array(out)
    )
    assert loop is not None
    runtime.unary(src, out, attrs)
    want = np.array(np.frompyfunc(math.erf, 1, 1)(x.astype(np.float64)), np.float64)
    assert _ulps(runtime.download(out), want).max() <= 1.5
    runtime.close()


def _softmax(
    x: np.ndarray, factor: float | None, numba: bool, in_place: bool = False
) -> np.ndarray:
    saved = cpu.NUMBA_MIN_ELEMENTS
    cpu.NUMBA_MIN_ELEMENTS = 1 << 16 if numba else 1 << 62
    try:
        runtime = CpuRuntime(threads=2)
        src = runtime.upload(x, copy=True)
        out = src if in_place else runtime.empty(x.shape, F32)
        scale = None
        if factor is not None:
            scale = runtime.upload(np.array(factor, np.float32), copy=True)
        with np.errstate(invalid="ignore"):  # numpy's form on the NaN rows
            runtime.softmax(src, scale, out, AxisAttributes(axis=-1))
        result = runtime.download(out)
        runtime.close()
        return result
    finally:
        cpu.NUMBA_MIN_ELEMENTS = saved


@pytest.mark.parametrize("in_place", [False, True])
@pytest.mark.parametrize("width", [2048, 77])
def test_softmax_rows_match_float64_and_numpy(width: int, in_place: bool) -> None:
    """Plain rows, rows past exp's range (the shifted path), a masked row,
    an all -inf row and a row with a NaN: as float64, and NaN where the
    numpy form gives NaN; written in place too (the kernel's own loop)."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 256, width)).astype(np.float32) * 4
    x[0, 0] *= 200  # overflows unshifted
    x[0, 1] -= 1000  # underflows unshifted
    x[0, 2, : width // 2] = -np.inf
    x[0, 3] = -np.inf
    x[0, 4, 5] = np.nan
    got = _softmax(x, 0.125, numba=True, in_place=in_place)
    plain = _softmax(x, 0.125, numba=False)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(plain))
    w = x.astype(np.float64) * 0.125
    with np.errstate(invalid="ignore"):
        w = np.exp(w - w.max(-1, keepdims=True))
        w /= w.sum(-1, keepdims=True)
    ok = ~np.isnan(w)
    np.testing.assert_allclose(got[ok], w[ok], rtol=2e-6, atol=1e-30)


@pytest.mark.parametrize("centre", [True, False])
@pytest.mark.parametrize("in_place", [False, True])
def test_norm_rows_match_float64(centre: bool, in_place: bool) -> None:
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((8, 64, 512)) * 3 + 1).astype(np.float32)
    scale = rng.uniform(0.5, 1.5, 512).astype(np.float32)
    bias = rng.normal(0, 0.1, 512).astype(np.float32)
    runtime = CpuRuntime(threads=2)
    src, g, b = (runtime.upload(a, copy=True) for a in (x, scale, bias))
    out = src if in_place else runtime.empty(x.shape, F32)
    attrs = NormAttributes(axis=2, epsilon=1e-5)
    w = x.astype(np.float64)
    m = w.mean(-1, keepdims=True) if centre else np.zeros_like(w[..., :1])
    inv = 1 / np.sqrt(((w - m) ** 2).mean(-1, keepdims=True) + 1e-5)
    if centre:
        mean, inv_std = runtime.empty((8, 64, 1), F32), runtime.empty((8, 64, 1), F32)
        runtime.layer_norm(src, g, b, out, mean, inv_std, attrs)
        np.testing.assert_allclose(runtime.download(mean), m, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(runtime.download(inv_std), inv, rtol=1e-5)
        want = (w - m) * inv * scale + bias
    else:
        runtime.rms_norm(src, g, out, attrs)
        want = w * inv * scale
    np.testing.assert_allclose(runtime.download(out), want, rtol=1e-5, atol=1e-5)
    runtime.close()


def test_norm_rows_are_the_kernel_not_numpy() -> None:
    """The sizes above do run the numba kernel (it is no silent fallback)."""
    runtime = CpuRuntime(threads=1)
    x = runtime.upload(np.ones((256, 512), np.float32), copy=True)
    g = runtime.upload(np.ones(512, np.float32), copy=True)
    out = runtime.empty((256, 512), F32)
    call = runtime._bind_norm_rows(  # pyright: ignore[reportPrivateUsage]
        runtime.array(x), g, None, runtime.array(out), [None, None],
        NormAttributes(axis=1, epsilon=1e-5), False,
    )  # fmt: skip
    assert call is not None
    assert cpu_reduce.NUMBA_MIN_ELEMENTS <= 256 * 512
    runtime.close()


_CACHED = """
import numpy as np
from xhip.backend import cpu_kernels_fused as k
from xhip.dialects import hip
steps = hip.parse_body("mul(x0, x1) : f32; tanh(s0) : f32", 2)
x = np.ones((64, 2048), np.float32)
loops = k.bind_kernel(steps, [x, np.float32(2).reshape(())], np.empty_like(x), 1)
loops[0]()
(run,) = {c.func for c in loops}
print(sum(run.stats.cache_hits.values()), sum(run.stats.cache_misses.values()))
"""


def test_fused_loops_are_cached_on_disk(tmp_path: Path) -> None:
    """A second process loads the group's compiled loop from the cache
    folder: a hit, no miss."""
    env = {**os.environ, "XHIP_KERNEL_CACHE": str(tmp_path)}
    first, second = (
        subprocess.run(
            [sys.executable, "-c", _CACHED], env=env, check=True,
            capture_output=True, text=True,
        ).stdout.split()
        for _ in range(2)
    )  # fmt: skip
    assert first == ["0", "1"]
    assert second == ["1", "0"]
    assert list(tmp_path.glob("fused_*.py"))


def _bound_group(
    body: str, arrays: list[np.ndarray]
) -> tuple[object, np.ndarray, CpuRuntime]:
    """`body` of `arrays` bound on a one-thread runtime, and its output."""
    runtime = CpuRuntime(threads=1)
    steps = hip.parse_body(body, len(arrays))
    inputs = [runtime.upload(a, copy=True) for a in arrays]
    out = runtime.empty(arrays[0].shape, np.dtype(arrays[0].dtype))
    call = runtime.bind_fused_elementwise(inputs, out, hip.FusedAttributes(steps))
    return call, runtime.array(out), runtime


def test_small_exact_group_is_a_loop_with_numpys_bits() -> None:
    """A bias + residual group of 128 x 256 (under `NUMBA_MIN_ELEMENTS`) runs
    as the numba loop once numba is loaded, and rounds as numpy's float32."""
    rng = np.random.default_rng(8)
    x, residual = (rng.standard_normal((128, 256)).astype(np.float32) for _ in range(2))
    bias = rng.standard_normal(256).astype(np.float32)
    assert x.size < cpu_fused.NUMBA_MIN_ELEMENTS
    assert "numba" in sys.modules  # this module imports it
    body = "add(x0, x1) : f32; add(x2, s0) : f32"
    call, out, runtime = _bound_group(body, [x, bias, residual])
    assert hasattr(getattr(call, "func", None), "py_func")  # a numba dispatcher
    call()  # pyright: ignore[reportCallIssue]
    np.testing.assert_array_equal(out, residual + (x + bias))
    runtime.close()


def test_small_group_with_erf_stays_on_numpy() -> None:
    """Under `NUMBA_MIN_ELEMENTS` a group with erf keeps numpy's float64 erf:
    only groups whose loop rounds as numpy does move to the loop."""
    x = np.random.default_rng(9).standard_normal((128, 256)).astype(np.float32)
    call, out, runtime = _bound_group("erf(x0) : f32; add(s0, x0) : f32", [x])
    assert not hasattr(getattr(call, "func", None), "py_func")
    call()  # pyright: ignore[reportCallIssue]
    erf = np.array(np.frompyfunc(math.erf, 1, 1)(x.astype(np.float64)), np.float64)
    np.testing.assert_allclose(out, erf + x, rtol=2e-7, atol=1e-7)
    runtime.close()
