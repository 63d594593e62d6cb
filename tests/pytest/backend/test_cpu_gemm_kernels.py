"""The CPU's numba GEMMs by a constant weight (`cpu_kernels_gemm`), through
the runtime's `matmul` and `gemm` and directly, against numpy float64: odd
m, n and k (k off `KC`, n off the panels, rows off the tiles), one row,
empty dims, strided rows of x, a transposed weight (Gemm's transB), the
bias, one and two threads; weights in writable memory (computed each call)
are never packed, and their new values are read by every call."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import numpy as np
import pytest

from xhip.backend import cpu_host
from xhip.backend import cpu_kernels_gemm as kernels
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import DeviceArray
from xhip.dialects import hip


def _close(
    got: np.ndarray, x: np.ndarray, w: np.ndarray, bias: float | np.ndarray = 0.0
) -> None:
    """`got` against x @ w (+ bias) in float64, relative to the products'
    magnitude (`|x| @ |w|`): float32 rounding over k terms, as OpenBLAS's."""
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    want = x64 @ w64 + bias
    scale = np.abs(x64) @ np.abs(w64) + np.abs(bias) + 1e-30
    k = max(x.shape[-1], 1)
    np.testing.assert_array_less(np.abs(got - want) / scale, 4e-7 * np.sqrt(k) + 1e-6)


def _shares(calls: list[partial[None]]) -> int:
    """The threads of a bound GEMM: its calls, or one pool call's (its
    scratch's)."""
    if len(calls) == 1 and calls[0].func is kernels.gemm_pool:
        return len(calls[0].args[7])
    return len(calls)


@pytest.fixture(params=["numba", "python"])
def taken(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[int]]:
    """The pieces of each GEMM bound to the kernels; the kernels taken on any
    CPU (without AVX-512 they are only slower: `wide_simd`), the pieces run
    as one launch on numba's threads (`gemm_pool`) and, the fallback, each
    on the runtime's Python threads (`cpu_host.numba_pool`)."""
    monkeypatch.setattr(cpu_host, "wide_simd", lambda: True)
    pool = request.param == "numba"
    monkeypatch.setattr(cpu_host, "numba_pool", lambda: pool)
    pieces: list[int] = []
    bind = kernels.bind

    def spy(*args: object, **kwargs: object) -> object:
        calls = bind(*args, **kwargs)  # pyright: ignore[reportArgumentType]
        pieces.append(_shares(calls))
        # Several pieces: one pool launch, or a call each on Python's threads.
        assert len(calls) == 1 if pool else all(c.func is kernels.gemm for c in calls)
        return calls

    monkeypatch.setattr(kernels, "bind", spy)
    yield pieces


def _threaded(macs: int) -> bool:
    """Whether a kernel GEMM of `macs` multiply-adds is cut over the threads:
    from `BLAS_PARALLEL_MIN_MACS`, or on numba's pool (one launch) from
    `POOL_GEMM_MIN_MACS`."""
    pooled = macs >= cpu_host.POOL_GEMM_MIN_MACS and cpu_host.numba_pool()
    return macs >= cpu_host.BLAS_PARALLEL_MIN_MACS or pooled


def _constant(cpu: CpuRuntime, w: np.ndarray) -> DeviceArray:
    """`w` in read-only memory, as the model's constants are."""
    kept = w.copy()
    kept.flags.writeable = False
    return cpu.upload(kept)


@pytest.mark.parametrize(
    ("m", "k", "n"),
    [
        (24, 11, 4096),
        (25, 131, 120),
        (97, 300, 250),
        (200, 257, 64),
        (130, 520, 60),
        (301, 200, 190),
        (100, 300, 300),
    ],
)
@pytest.mark.parametrize("threads", [1, 2])
def test_matmul_by_constant(
    taken: list[int], m: int, k: int, n: int, threads: int
) -> None:
    rng = np.random.default_rng(m * k + n)
    x = rng.normal(0, 1, (m, k)).astype(np.float32)
    w = rng.normal(0, 1, (k, n)).astype(np.float32)
    cpu = CpuRuntime(threads=threads)
    try:
        out = cpu.upload(np.full((m, n), 7, np.float32))
        cpu.matmul(cpu.upload(x), _constant(cpu, w), out)
        got = cpu.download(out)
    finally:
        cpu.close()
    assert taken == [threads if _threaded(m * k * n) else 1]
    _close(got, x, w)


def test_batched_rows_strided_x_and_transposed_weight(taken: list[int]) -> None:
    """x (2, 40, 96) a slice of wider rows, flattened by nothing (strided):
    each 2-D product by W.T, W (70, 96) constant, as Gemm's transB."""
    rng = np.random.default_rng(3)
    wide = rng.normal(0, 1, (80, 160)).astype(np.float32)
    x = wide[:, 30:126]
    w = rng.normal(0, 1, (120, 96)).astype(np.float32)
    cpu = CpuRuntime(threads=2)
    try:
        base = cpu.upload(wide)
        xs = DeviceArray(base.buffer, 30 * 4, (80, 96), (160, 1), x.dtype)
        out = cpu.upload(np.zeros((80, 120), np.float32))
        attrs = hip.GemmAttributes(trans_a=False, trans_b=True, alpha=1.0, beta=1.0)
        cpu.gemm(xs, _constant(cpu, w), None, out, attrs)
        got = cpu.download(out)
    finally:
        cpu.close()
    assert taken == [2 if _threaded(80 * 96 * 120) else 1]
    _close(got, x, w.T)


def test_gemm_bias_alpha(taken: list[int]) -> None:
    rng = np.random.default_rng(5)
    x = rng.normal(0, 1, (60, 200)).astype(np.float32)
    w = rng.normal(0, 1, (200, 180)).astype(np.float32)
    c = rng.normal(0, 1, 180).astype(np.float32)
    cpu = CpuRuntime(threads=1)
    try:
        out = cpu.upload(np.zeros((60, 180), np.float32))
        attrs = hip.GemmAttributes(trans_a=False, trans_b=False, alpha=0.5, beta=2.0)
        cpu.gemm(cpu.upload(x), _constant(cpu, w), _constant(cpu, c), out, attrs)
        got = cpu.download(out)
    finally:
        cpu.close()
    assert taken == [1]
    _close(got, 0.5 * x, w, 2.0 * c.astype(np.float64))


@pytest.mark.parametrize("shape", [(180,), (1, 180)])
def test_gemm_bias_fused(
    taken: list[int], shape: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Linear layer (alpha = beta = 1, a row of bias, transB): the bias
    added by the kernel, read at each call (a new bias, a new result)."""
    biases: list[object] = []
    bind = kernels.bind

    def spy(*args: object, **kwargs: object) -> object:
        biases.append(args[4])
        return bind(*args, **kwargs)  # pyright: ignore[reportArgumentType]

    monkeypatch.setattr(kernels, "bind", spy)
    rng = np.random.default_rng(6)
    x = rng.normal(0, 1, (60, 200)).astype(np.float32)
    w = rng.normal(0, 1, (180, 200)).astype(np.float32)
    c = rng.normal(0, 1, shape).astype(np.float32)
    cpu = CpuRuntime(threads=2)
    try:
        out = cpu.upload(np.zeros((60, 180), np.float32))
        bias = cpu.upload(c, copy=True)
        attrs = hip.GemmAttributes(trans_a=False, trans_b=True, alpha=1.0, beta=1.0)
        call = cpu.bind_gemm(cpu.upload(x), _constant(cpu, w), bias, out, attrs)
        call()
        _close(cpu.download(out), x, w.T, c.astype(np.float64).reshape(-1))
        cpu.write(bias, 3 * c)
        call()
        _close(cpu.download(out), x, w.T, 3 * c.astype(np.float64).reshape(-1))
    finally:
        cpu.close()
    assert len(biases) == 1 and biases[0] is not None  # fused, not a pass after


def test_computed_weight_not_packed(taken: list[int]) -> None:
    """A weight in writable memory is read by every call: OpenBLAS's."""
    rng = np.random.default_rng(7)
    x = rng.normal(0, 1, (64, 128)).astype(np.float32)
    w = rng.normal(0, 1, (128, 128)).astype(np.float32)
    cpu = CpuRuntime(threads=2)
    try:
        weight = cpu.upload(w, copy=True)
        out = cpu.upload(np.zeros((64, 128), np.float32))
        call = cpu.bind_matmul(cpu.upload(x), weight, out)
        call()
        _close(cpu.download(out), x, w)
        cpu.write(weight, 2 * w)
        call()
        _close(cpu.download(out), x, 2 * w)
    finally:
        cpu.close()
    assert taken == []


def test_read_only_view_of_writable_memory_not_kept(taken: list[int]) -> None:
    """A read-only view of writable memory (a caller's input wrapped in
    place) is packed at each bind, never kept: its bytes may change."""
    rng = np.random.default_rng(8)
    x = rng.normal(0, 1, (64, 128)).astype(np.float32)
    w = rng.normal(0, 1, (128, 128)).astype(np.float32)
    view = w.view()
    view.flags.writeable = False
    cpu = CpuRuntime(threads=1)
    try:
        out = cpu.upload(np.zeros((64, 128), np.float32))
        cpu.matmul(cpu.upload(x), cpu.upload(view), out)
        _close(cpu.download(out), x, w)
        w *= -3
        cpu.matmul(cpu.upload(x), cpu.upload(view), out)
        _close(cpu.download(out), x, w)
        assert not cpu._packed  # pyright: ignore[reportPrivateUsage]
    finally:
        cpu.close()
    assert taken == [1, 1]


def test_constant_bytes_packed_once(taken: list[int]) -> None:
    """Weights in a bytes object (the constants blob) are packed once for
    all binds of the runtime."""
    rng = np.random.default_rng(4)
    x = rng.normal(0, 1, (64, 128)).astype(np.float32)
    w = rng.normal(0, 1, (128, 128)).astype(np.float32)
    blob = np.frombuffer(w.tobytes(), np.float32).reshape(w.shape)
    cpu = CpuRuntime(threads=1)
    try:
        weight = cpu.upload(blob)
        for rows in (64, 30):
            out = cpu.upload(np.zeros((rows, 128), np.float32))
            cpu.matmul(cpu.upload(x[:rows]), weight, out)
            _close(cpu.download(out), x[:rows], w)
        assert len(cpu._packed) == 1  # pyright: ignore[reportPrivateUsage]
    finally:
        cpu.close()
    assert taken == [1, 1]


@pytest.mark.parametrize(
    ("m", "k", "n"), [(1, 5, 3), (6, 64, 64), (7, 129, 65), (0, 4, 5), (5, 0, 70)]
)
@pytest.mark.parametrize("pieces", [1, 2, 3])
@pytest.mark.parametrize("by_columns", [False, True])
@pytest.mark.parametrize("pool", [False, True])
def test_kernel_direct(
    m: int, k: int, n: int, pieces: int, by_columns: bool, pool: bool
) -> None:
    """The kernels below the runtime's sizes: one row, one tile, empty dims;
    with a bias; rows or panels cut, each piece a call or all in one launch
    on numba's threads (`gemm_pool`, more pieces than its threads too)."""
    rng = np.random.default_rng(m + k + n)
    x = rng.normal(0, 1, (m, k)).astype(np.float32)
    w = rng.normal(0, 1, (k, n)).astype(np.float32)
    bias = rng.normal(0, 1, n).astype(np.float32)
    o = np.full((m, n), 7, np.float32)
    wp = kernels.packed(w)
    for call in kernels.bind(x, wp, n, o, bias, pieces, by_columns, pool):
        call()
    _close(o, x, w, bias.astype(np.float64))


def test_float64_one_row_and_narrow_stay_on_blas(taken: list[int]) -> None:
    rng = np.random.default_rng(9)
    cpu = CpuRuntime(threads=1)
    try:
        for dtype, m, n in (
            (np.float64, 128, 256),
            (np.float32, 1, 256),
            (np.float32, 512, 65),
        ):
            x = rng.normal(0, 1, (m, 256)).astype(dtype)
            w = rng.normal(0, 1, (256, n)).astype(dtype)
            out = cpu.upload(np.zeros((m, n), dtype))
            cpu.matmul(cpu.upload(x), _constant(cpu, w), out)
            _close(cpu.download(out), x, w)
    finally:
        cpu.close()
    assert taken == []
