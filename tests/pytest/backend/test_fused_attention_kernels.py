"""The CPU's numba fused attention (`cpu_kernels_attention`) through the
runtime's `fused_attention`, against numpy float64 of the unfused chain:
odd sizes (T and S off the tiles, D = 1, 3, 80, 128, Dv != D, one query
row), masks (additive, causal, padding, broadcast over batch and heads),
scale times and divided, rows whose exp leaves range (the shifted pass),
fully masked rows (NaN, or `fill` @ v), float16, and the shapes that stay on
numpy's blocks (D over `MAX_HEAD`, float64)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from xhip.backend import cpu_attention
from xhip.backend import cpu_kernels_attention as kernels
from xhip.backend.cpu import CpuRuntime
from xhip.dialects import hip


def _reference(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, divide: bool,
    mask: np.ndarray | None, fill: float | None,
) -> np.ndarray:  # fmt: skip
    """softmax((q * scale) @ k + mask) @ v in float64; NaN rows `fill`."""
    f = 1 / scale if divide else scale
    s = (q.astype(np.float64) * f) @ k.astype(np.float64)
    if mask is not None:
        s = s + mask
    with np.errstate(invalid="ignore"):
        e = np.exp(s - s.max(-1, keepdims=True))
        p = e / e.sum(-1, keepdims=True)
    if fill is not None:
        p = np.where(np.isnan(p), fill, p)
    return p @ v.astype(np.float64)


@pytest.fixture(params=["numba", "python"])
def calls(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[bool]]:
    """Whether each fused attention bound went to the kernels (bind's result
    not None); the kernels taken on any CPU (without AVX-512 they are only
    slower, and the runtime leaves them: `wide_simd`); with several threads
    run as one launch on numba's threads (`attend_pool`) and, the fallback,
    a call a share on the runtime's Python threads (`cpu_host.numba_pool`)."""
    monkeypatch.setattr(cpu_attention, "wide_simd", lambda: True)
    pool = request.param == "numba"
    monkeypatch.setattr(cpu_attention, "numba_pool", lambda: pool)
    taken: list[bool] = []
    bind = kernels.bind

    def spy(*args: object, **kwargs: object) -> object:
        bound = bind(*args, **kwargs)  # pyright: ignore[reportArgumentType]
        taken.append(bound is not None)
        if bound is not None:
            funcs = [call.func for phase in bound for call in phase]
            threads = args[8]
            assert isinstance(threads, int)
            assert (funcs == [kernels.attend_pool]) == (pool and threads > 1)
        return bound

    monkeypatch.setattr(kernels, "bind", spy)
    yield taken


def _run(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, divide: bool,
    mask: np.ndarray | None, fill: float | None, threads: int,
) -> np.ndarray:  # fmt: skip
    cpu = CpuRuntime(threads=threads)
    shape = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    try:
        out = cpu.upload(np.full((*shape, q.shape[-2], v.shape[-1]), 7, q.dtype))
        cpu.fused_attention(
            cpu.upload(q),
            cpu.upload(k),
            cpu.upload(v),
            cpu.upload(np.asarray([scale], q.dtype)),
            None if mask is None else cpu.upload(mask),
            None if fill is None else cpu.upload(np.asarray([fill], q.dtype)),
            out,
            hip.FusedAttentionAttributes(divide=divide),
        )
        return cpu.download(out)
    finally:
        cpu.close()


def _operands(
    seed: int, batch: tuple[int, ...], s: int, t: int, d: int, dv: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    q = rng.normal(0, 1, (*batch, s, d)).astype(np.float32)
    k = rng.normal(0, 1, (*batch, d, t)).astype(np.float32)
    v = rng.normal(0, 1, (*batch, t, dv)).astype(np.float32)
    return q, k, v


@pytest.mark.parametrize(
    ("batch", "s", "t", "d", "dv"),
    [
        ((2, 3), 67, 700, 1, 5),  # D = 1, T and S off the tiles
        ((2, 2), 100, 1100, 3, 3),  # two chunks of keys, the second short
        ((1, 2), 131, 600, 80, 64),  # D over 64, not a multiple of 16
        ((2, 1), 64, 1500, 128, 128),  # the largest heads, Dv two panels
        ((1, 1), 200, 513, 64, 80),  # Dv != D, 80: a padded second panel
        ((40,), 65, 64, 16, 16),  # one batch dim, keys one panel
        ((2, 3), 70, 256, 64, 64),  # v's rows whole panels: read in place
    ],
)
@pytest.mark.parametrize("threads", [1, 2])
def test_odd_sizes_match_float64(
    calls: list[bool], batch: tuple[int, ...], s: int, t: int, d: int, dv: int,
    threads: int,
) -> None:  # fmt: skip
    q, k, v = _operands(s + t, batch, s, t, d, dv)
    scale = 1 / np.sqrt(d)
    got = _run(q, k, v, scale, False, None, None, threads)
    np.testing.assert_allclose(
        got, _reference(q, k, v, scale, False, None, None), rtol=2e-5, atol=2e-5
    )
    assert calls == [True]


@pytest.mark.parametrize("heads", [(3, 4), (1, 3)])
@pytest.mark.parametrize(("threads", "pool"), [(1, False), (2, False), (2, True)])
def test_strided_operands_match_float64(
    heads: tuple[int, int], threads: int, pool: bool
) -> None:
    """k the transposed view of (T, D) (the models' Transpose), v and out
    strided along their last dim (the element-wise copies beside the vector
    ones); shares of whole heads that pack their own (12 heads) and a
    packing phase before the blocks (3 heads under the 8 shares)."""
    rng = np.random.default_rng(21)
    s, t, d, dv = 70, 200, 64, 48
    q = rng.normal(0, 1, (*heads, s, d)).astype(np.float32)
    k = rng.normal(0, 1, (*heads, t, d)).astype(np.float32).transpose(0, 1, 3, 2)
    v = rng.normal(0, 1, (*heads, t, 2 * dv)).astype(np.float32)[..., ::2]
    out = np.full((*heads, s, 2 * dv), 7, np.float32)[..., ::2]
    bound = kernels.bind(
        q, k, v, None, out, np.asarray([0.125], np.float32), False, None, threads,
        cpu_attention.SUM_MIN, cpu_attention.SUM_MAX, pool=pool,
    )  # fmt: skip
    assert bound is not None
    for phase in bound:
        for call in phase:
            call()
    want = _reference(q, k, v, 0.125, False, None, None)
    np.testing.assert_allclose(out, want, rtol=2e-5, atol=2e-5)


def _masks(kind: str, s: int, t: int) -> np.ndarray:
    rng = np.random.default_rng(len(kind))
    if kind == "additive":  # over batch, broadcast over heads
        return rng.normal(0, 2, (2, 1, s, t)).astype(np.float32)
    if kind == "causal":  # the last s of t positions, broadcast over all
        return np.triu(np.full((s, t), -np.inf, np.float32), t - s + 1)
    lengths = np.array([t, t // 3])  # padding: keys from length on masked
    keep = np.arange(t)[None, :] < lengths[:, None]
    return np.where(keep, 0, -np.inf).astype(np.float32)[:, None, None, :]


@pytest.mark.parametrize("kind", ["additive", "causal", "padding"])
@pytest.mark.parametrize("divide", [False, True])
def test_masks_and_scale_match_float64(
    calls: list[bool], kind: str, divide: bool
) -> None:
    s, t = 75, 1100
    q, k, v = _operands(7, (2, 3), s, t, 64, 64)
    mask = _masks(kind, s, t)
    scale = 8.0 if divide else 0.125
    got = _run(q, k, v, scale, divide, mask, None, 2)
    want = _reference(q, k, v, scale, divide, mask, None)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
    assert calls == [True]


def test_rows_out_of_range_take_the_shifted_pass(calls: list[bool]) -> None:
    """Scores of hundreds: unshifted, the exp overflows (rows of a block
    that do not are shifted as well); and rows of scores far below: the
    exp underflows to 0 unshifted."""
    q, k, v = _operands(3, (2, 2), 80, 900, 16, 16)
    q[:, :, :10] *= 40.0
    mask = np.zeros((80, 900), np.float32)
    mask[20:30] = -300.0
    got = _run(q, k, v, 1.0, False, mask, None, 2)
    np.testing.assert_allclose(
        got, _reference(q, k, v, 1.0, False, mask, None), rtol=2e-5, atol=2e-5
    )
    assert calls == [True]


@pytest.mark.parametrize("fill", [None, 0.0, 0.25])
@pytest.mark.parametrize(("t", "dv"), [(800, 32), (768, 64)])  # packed v, v in place
def test_fully_masked_rows_are_nan_or_fill_at_v(
    calls: list[bool], fill: float | None, t: int, dv: int
) -> None:
    s = 70
    q, k, v = _operands(5, (2, 2), s, t, 64, dv)
    mask = np.zeros((2, 1, s, t), np.float32)
    mask[0, :, 3] = -np.inf  # a fully masked row in batch 0
    mask[1, :, 17:] = -np.inf  # the rows of batch 1 from 17 on
    got = _run(q, k, v, 0.125, False, mask, fill, 2)
    want = _reference(q, k, v, 0.125, False, mask, fill)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
    assert np.isnan(got[0, 0, 3]).all() == (fill is None)
    assert calls == [True]


def test_float16_computes_in_float32(calls: list[bool]) -> None:
    q, k, v = (x.astype(np.float16) for x in _operands(9, (2, 2), 64, 600, 64, 64))
    got = _run(q, k, v, 0.125, False, None, None, 2)
    assert got.dtype == np.float16
    want = _reference(q, k, v, 0.125, False, None, None)
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=3e-3, atol=3e-3)
    assert calls == [True]


@pytest.mark.parametrize(
    ("batch", "s", "d", "dtype"),
    [
        ((2, 2), 80, 129, np.float32),
        ((64, 2), 1, 64, np.float32),
        ((2, 2), 80, 64, np.float64),
    ],
)
def test_others_stay_on_numpy(
    calls: list[bool], batch: tuple[int, ...], s: int, d: int,
    dtype: type[np.floating],
) -> None:  # fmt: skip
    """D over `MAX_HEAD` and one query row (`MIN_ROWS`: the kernels
    decline) and float64 (never asked): numpy's blocks, the same numbers."""
    q, k, v = (x.astype(dtype) for x in _operands(11, batch, s, 900, d, 8))
    got = _run(q, k, v, 0.1, False, None, None, 2)
    np.testing.assert_allclose(
        got, _reference(q, k, v, 0.1, False, None, None), rtol=2e-5, atol=2e-5
    )
    assert calls == ([False] if dtype == np.float32 else [])


@pytest.mark.parametrize(
    ("name", "features", "wide"),
    [("generic", None, False), (None, "+avx2,+fma", False), (None, "+avx512f", True)],
)
def test_wide_simd_follows_numbas_cpu_settings(
    monkeypatch: pytest.MonkeyPatch, name: str | None, features: str | None,
    wide: bool,
) -> None:  # fmt: skip
    for key, value in (("NUMBA_CPU_NAME", name), ("NUMBA_CPU_FEATURES", features)):
        if value is None:
            monkeypatch.delenv(key, raising=False)
        else:
            monkeypatch.setenv(key, value)
    cpu_attention.wide_simd.cache_clear()
    try:
        assert cpu_attention.wide_simd() == wide
    finally:
        cpu_attention.wide_simd.cache_clear()


def test_a_steps_first_calls_do_not_count_a_late_thread() -> None:
    """`pool_state(threads, WARM)`: the first `WARM` calls, whose threads
    are being created or woken, leave the step on its threads however late
    one came; the rule (`LATE`, `ALONE`) counts from the next call on."""
    state = kernels.pool_state(2, kernels.WARM)
    for _ in range(kernels.WARM):
        assert kernels.team(state, 2) == 2  # pyright: ignore[reportCallIssue]
        state[4:] = (8, 0)  # the second thread took nothing
        kernels.review(state, 2)  # pyright: ignore[reportCallIssue]
    assert state[2] == 0 and state[3] == 0
    for _ in range(kernels.LATE):
        assert kernels.team(state, 2) == 2  # pyright: ignore[reportCallIssue]
        state[4:] = (8, 0)
        kernels.review(state, 2)  # pyright: ignore[reportCallIssue]
    assert state[2] == kernels.ALONE
