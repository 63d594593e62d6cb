"""The CPU's small fused attention in one numba call
(`cpu_kernels_small_attention`) through the runtime's `fused_attention`,
against numpy float64 of the unfused chain: every scores form (k (D, T),
k the transposed view of (T, D) the models give, k strided), one and
several query rows, D and Dv off the vectors, masks of every shape that
broadcasts (along keys too, strided), scale times and divided, rows whose
exp leaves range (the shifted pass), rows fully masked or with NaN or +inf
in the mask (NaN, or `fill` @ v), biases of every shape, operands that are
broadcast views (strides 0), out in q's place; and which attentions take
it."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from xhip.backend import cpu_attention
from xhip.backend import cpu_kernels_small_attention as small
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import DeviceArray
from xhip.dialects import hip

Biases = tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]
NO_BIAS: Biases = (None, None, None)


def _reference(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, divide: bool,
    mask: np.ndarray | None, fill: float | None, biases: Biases = NO_BIAS,
) -> np.ndarray:  # fmt: skip
    """softmax(((q + qb) * scale) @ (k + kb) + mask) @ (v + vb) in float64;
    the softmax's NaNs `fill`."""
    q, k, v = (
        x.astype(np.float64) + (0 if b is None else b.astype(np.float64))
        for x, b in zip((q, k, v), biases)
    )
    s = (q / scale if divide else q * scale) @ k
    if mask is not None:
        s = s + mask
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(s - s.max(-1, keepdims=True))
        p = e / e.sum(-1, keepdims=True)
    if fill is not None:
        p = np.where(np.isnan(p), fill, p)
    return p @ v


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Whether each fused attention bound went to the small kernel, made to
    take every float32 one here (the packed kernels none)."""
    monkeypatch.setattr(cpu_attention, "KERNEL_MIN_SCORES", 1 << 60)
    monkeypatch.setattr(cpu_attention, "_small", lambda *_: True)
    calls: list[bool] = []
    bind = small.bind

    def spy(*args: object, **kwargs: object) -> object:
        bound = bind(*args, **kwargs)  # pyright: ignore[reportArgumentType]
        calls.append(bound is not None)
        return bound

    monkeypatch.setattr(small, "bind", spy)
    yield calls


def _on(cpu: CpuRuntime, x: np.ndarray) -> DeviceArray:
    """x, a view of a contiguous array (strides 0 and all), as a view of
    that array uploaded."""
    base = x
    while isinstance(base.base, np.ndarray):
        base = base.base
    assert base.flags.c_contiguous
    whole = cpu.upload(base)
    item = x.itemsize
    offset = x.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    strides = tuple(s // item for s in x.strides)
    return DeviceArray(whole.buffer, offset, x.shape, strides, x.dtype)


def _run(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, divide: bool,
    mask: np.ndarray | None = None, fill: float | None = None,
    biases: Biases = NO_BIAS, out: np.ndarray | None = None,
) -> np.ndarray:  # fmt: skip
    """The runtime's fused attention of these views (into `out`, a view,
    where given)."""
    cpu = CpuRuntime(threads=2)
    shape = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    if out is None:
        out = np.full((*shape, q.shape[-2], v.shape[-1]), 7, q.dtype)
    try:
        o = _on(cpu, out)
        cpu.fused_attention(
            _on(cpu, q),
            _on(cpu, k),
            _on(cpu, v),
            cpu.upload(np.asarray([scale], q.dtype)),
            None if mask is None else _on(cpu, mask),
            None if fill is None else cpu.upload(np.asarray([fill], q.dtype)),
            o,
            hip.FusedAttentionAttributes(divide=divide),
            *(None if b is None else _on(cpu, b) for b in biases),
        )
        return cpu.download(o)
    finally:
        cpu.close()


def _keys(rng: np.random.Generator, shape: tuple[int, ...], layout: str) -> np.ndarray:
    """k (..., D, T) as `layout`: "rows" (contiguous), "cols" (the
    transposed view of (..., T, D)), "strided" (every other float)."""
    *batch, d, t = shape
    if layout == "cols":
        return rng.normal(0, 1, (*batch, t, d)).astype(np.float32).swapaxes(-1, -2)
    if layout == "strided":
        return rng.normal(0, 1, (*batch, d, 2 * t)).astype(np.float32)[..., ::2]
    return rng.normal(0, 1, shape).astype(np.float32)


def _operands(
    seed: int, batch: tuple[int, ...], s: int, t: int, d: int, dv: int,
    layout: str = "cols",
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    rng = np.random.default_rng(seed)
    q = rng.normal(0, 1, (*batch, s, d)).astype(np.float32)
    k = _keys(rng, (*batch, d, t), layout)
    v = rng.normal(0, 1, (*batch, t, dv)).astype(np.float32)
    return q, k, v


@pytest.mark.parametrize(
    ("batch", "s", "t", "d", "dv"),
    [
        ((), 1, 1, 64, 64),  # no batch dims, one score
        ((1,), 1, 1, 64, 64),  # the seed's attention at 1 x 1
        ((1,), 16, 16, 64, 64),  # the seed's at 1 x 16
        ((2, 3), 1, 300, 64, 64),  # a decode step: keys off the vectors
        ((1, 4), 16, 16, 8, 8),  # GPT-2's heads (d 8)
        ((2, 2), 5, 33, 20, 12),  # D and Dv off the vectors
        ((3,), 7, 17, 1, 1),  # D = Dv = 1
        ((2, 3), 2, 1, 16, 24),  # one key
        ((2, 1, 2), 3, 70, 80, 130),  # three batch dims, Dv over 2 x 64
    ],
)
@pytest.mark.parametrize("layout", ["rows", "cols", "strided"])
def test_shapes_and_layouts_match_float64(
    taken: list[bool], batch: tuple[int, ...], s: int, t: int, d: int, dv: int,
    layout: str,
) -> None:  # fmt: skip
    q, k, v = _operands(s * t + d, batch, s, t, d, dv, layout)
    scale = 1 / np.sqrt(d)
    got = _run(q, k, v, scale, False)
    want = _reference(q, k, v, scale, False, None, None)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
    assert taken == [True]


def _mask(kind: str, s: int, t: int) -> np.ndarray:
    rng = np.random.default_rng(len(kind))
    if kind == "scores":  # (S, T), broadcast over batch and heads
        return rng.normal(0, 2, (s, t)).astype(np.float32)
    if kind == "keys":  # (T,): the same for every row
        return rng.normal(0, 2, t).astype(np.float32)
    if kind == "batch":  # (B, 1, S, T), broadcast over heads
        return rng.normal(0, 2, (2, 1, s, t)).astype(np.float32)
    if kind == "rows":  # (S, 1): broadcast along the keys (stride 0)
        return rng.normal(0, 2, (s, 1)).astype(np.float32)
    if kind == "strided":  # every other float of a wider mask
        return rng.normal(0, 2, (2, 3, s, 2 * t)).astype(np.float32)[..., ::2]
    causal = np.triu(np.full((s, t), -np.inf, np.float32), t - s + 1)
    return causal  # the last s of t positions


@pytest.mark.parametrize(
    "kind", ["scores", "keys", "batch", "rows", "strided", "causal"]
)
@pytest.mark.parametrize("divide", [False, True])
@pytest.mark.parametrize("s", [1, 6])
def test_masks_and_scale_match_float64(
    taken: list[bool], kind: str, divide: bool, s: int
) -> None:
    t = 37
    q, k, v = _operands(s, (2, 3), s, t, 64, 64)
    mask = _mask(kind, s, t)
    scale = 8.0 if divide else 0.125
    got = _run(q, k, v, scale, divide, mask)
    want = _reference(q, k, v, scale, divide, mask, None)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
    assert taken == [True]


@pytest.mark.parametrize("layout", ["rows", "cols"])
@pytest.mark.parametrize("s", [1, 8])
def test_rows_out_of_range_take_the_shifted_pass(
    taken: list[bool], layout: str, s: int
) -> None:
    """Scores of hundreds: unshifted, the exp overflows; and rows of scores
    far below: unshifted, the exp underflows to 0; beside rows in range."""
    q, k, v = _operands(3, (2, 2), s, 90, 16, 16, layout)
    q[:, :, : (s + 1) // 2] *= 40.0
    mask = np.zeros((s, 90), np.float32)
    mask[s // 2 :] = -300.0
    got = _run(q, k, v, 1.0, False, mask)
    want = _reference(q, k, v, 1.0, False, mask, None)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
    assert np.isfinite(got).all()
    assert taken == [True]


@pytest.mark.parametrize("fill", [None, 0.0, 0.25])
@pytest.mark.parametrize("v_bias", [None, (1, 2, 1, 24), (2, 2, 40, 24)])
def test_masked_and_nan_rows_are_nan_or_fill_at_v(
    taken: list[bool], fill: float | None, v_bias: tuple[int, ...] | None
) -> None:
    """Rows of the mask all -inf, or with a NaN, or with +inf: the softmax
    is NaN there, the output NaN, or `fill` * the sum of v (+ its bias);
    a row partly -inf is a softmax over the rest."""
    s, t = 6, 40
    q, k, v = _operands(5, (2, 2), s, t, 32, 24)
    mask = np.zeros((2, 1, s, t), np.float32)
    mask[0, :, 1] = -np.inf  # all masked
    mask[0, :, 2, 5] = np.nan
    mask[1, :, 3, 7] = np.inf
    mask[1, :, 4, 10:] = -np.inf  # partly
    vb = None if v_bias is None else np.random.default_rng(2).normal(0, 1, v_bias)
    biases: Biases = (None, None, None if vb is None else vb.astype(np.float32))
    got = _run(q, k, v, 0.2, False, mask, fill, biases)
    want = _reference(q, k, v, 0.2, False, mask, fill, biases)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
    dead = got[0, :, 1], got[0, :, 2], got[1, :, 3]
    for row in dead:
        assert np.isnan(row).all() == (fill is None)
    assert np.isfinite(got[1, :, 4]).all()
    assert taken == [True]


def _bias(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 1, shape).astype(np.float32)


@pytest.mark.parametrize(
    ("q_bias", "k_bias", "v_bias"),
    [
        ((1, 3, 1, 64), (1, 3, 64, 1), (1, 3, 1, 48)),  # the fold's, per head
        ((64,), (64, 1), (48,)),  # along D (Dv) only
        ((2, 3, "s", 64), (2, 3, 64, 40), (2, 3, 40, 48)),  # whole operands
        (("s", 1), (40,), (40, 1)),  # along S; along T
        ((1,), None, (1,)),  # one value
        (None, (3, 64, 40), None),  # k's alone, varying along T
    ],
)
@pytest.mark.parametrize("layout", ["rows", "cols"])
@pytest.mark.parametrize("s", [1, 5])
def test_biases_of_every_shape_match_float64(
    taken: list[bool], q_bias: tuple[int | str, ...] | None,
    k_bias: tuple[int, ...] | None, v_bias: tuple[int, ...] | None,
    layout: str, s: int,
) -> None:  # fmt: skip
    q, k, v = _operands(31, (2, 3), s, 40, 64, 48, layout)
    shapes = (
        None if q_bias is None else tuple(s if x == "s" else int(x) for x in q_bias),
        k_bias,
        v_bias,
    )
    biases: Biases = tuple(  # pyright: ignore[reportAssignmentType]
        None if shape is None else _bias(shape, i) for i, shape in enumerate(shapes)
    )
    got = _run(q, k, v, 0.125, False, None, None, biases)
    want = _reference(q, k, v, 0.125, False, None, None, biases)
    np.testing.assert_allclose(got, want, rtol=3e-5, atol=3e-5)
    assert taken == [True]


@pytest.mark.parametrize("which", [0, 1, 2])
@pytest.mark.parametrize("fill", [None, 0.5])
def test_a_nan_in_a_bias_reaches_the_outputs(
    taken: list[bool], which: int, fill: float | None
) -> None:
    """A NaN in one head's q or k bias makes that head's scores NaN (its
    rows NaN, or `fill` @ v), though a k bias the same for every key only
    shifts each row; one in v's bias makes a column NaN."""
    q, k, v = _operands(17, (2, 3), 4, 30, 16, 16)
    shapes = ((1, 3, 1, 16), (1, 3, 16, 1), (1, 3, 1, 16))
    biases = [_bias(shape, i) for i, shape in enumerate(shapes)]
    biases[which][(0, 1, 2, 0) if which == 1 else (0, 1, 0, 2)] = np.nan
    both: Biases = (biases[0], biases[1], biases[2])
    got = _run(q, k, v, 0.125, False, None, fill, both)
    want = _reference(q, k, v, 0.125, False, None, fill, both)
    np.testing.assert_allclose(got, want, rtol=3e-5, atol=3e-5)
    head = got[:, 1]
    assert np.isnan(head).all() == (which < 2 and fill is None)
    assert np.isnan(head[..., 2]).all() == (which == 2 or fill is None)
    assert np.isfinite(got[:, 0]).all()
    assert taken == [True]


def test_broadcast_and_strided_views_match_float64(taken: list[bool]) -> None:
    """q broadcast over the batch (strides 0), k and v over the heads (a
    grouped-query layout, k the transposed view), v and out split-heads
    views of (B, S, H * Dv), the mask and the biases broadcast views."""
    rng = np.random.default_rng(4)
    b, h, s, t, d = 2, 3, 4, 24, 16
    q = np.broadcast_to(rng.normal(0, 1, (1, h, s, d)).astype(np.float32), (b, h, s, d))
    k = np.broadcast_to(
        rng.normal(0, 1, (b, 1, t, d)).astype(np.float32).swapaxes(-1, -2), (b, h, d, t)
    )
    v = rng.normal(0, 1, (b, t, h * d)).astype(np.float32).reshape(b, t, h, d)
    v = v.transpose(0, 2, 1, 3)
    out = (
        np.full((b, s, h * d), 7, np.float32).reshape(b, s, h, d).transpose(0, 2, 1, 3)
    )
    mask = np.broadcast_to(
        rng.normal(0, 1, (1, 1, 1, t)).astype(np.float32), (b, h, s, t)
    )
    biases: Biases = (
        np.broadcast_to(_bias((d,), 1), (b, h, s, d)),
        np.broadcast_to(_bias((d, 1), 2), (b, h, d, t)),
        np.broadcast_to(_bias((d,), 3), (b, h, t, d)),
    )
    got = _run(q, k, v, 0.25, False, mask, None, biases, out)
    want = _reference(q, k, v, 0.25, False, mask, None, biases)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
    assert taken == [True]


@pytest.mark.parametrize("v_bias", [(1, 3, 1, 24), (2, 3, 30, 24)])  # outputs, v's
def test_rows_strided_along_d_match_float64(
    taken: list[bool], v_bias: tuple[int, ...]
) -> None:
    """q, v, out and the biases every other float along D and Dv (q's bias
    too, or contiguous): read and written a float at a time, not as vector
    rows."""
    rng = np.random.default_rng(6)
    b, h, s, t, d, dv = 2, 3, 5, 30, 20, 24
    q = rng.normal(0, 1, (b, h, s, 2 * d)).astype(np.float32)[..., ::2]
    k = _keys(rng, (b, h, d, t), "cols")
    v = rng.normal(0, 1, (b, h, t, 2 * dv)).astype(np.float32)[..., ::2]
    out = np.full((b, h, s, 2 * dv), 7, np.float32)[..., ::2]
    widths = (*v_bias[:-1], 2 * dv)
    late = v_bias[2] == 1
    q_bias = _bias((1, h, 1, 2 * d), 1)[..., ::2] if late else _bias((h, 1, d), 1)
    biases: Biases = (q_bias, None, _bias(widths, 3)[..., ::2])
    got = _run(q, k, v, 0.25, True, None, None, biases, out)
    want = _reference(q, k, v, 0.25, True, None, None, biases)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
    assert taken == [True]


def test_out_in_qs_place_and_overlapping_k(taken: list[bool]) -> None:
    """out where q is (the memory plan's reuse of q's buffer: each row read
    before its output is written), and out over k's buffer (k copied
    first)."""
    q, k, v = _operands(9, (2, 3), 8, 20, 16, 16, "rows")
    want = _reference(q, k, v, 0.3, False, None, None)
    got = _run(q, k, v, 0.3, False, out=q)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
    q, k, v = _operands(9, (2, 3), 8, 20, 16, 16, "rows")
    k_wide = np.zeros((2, 3, 16, 20 + 16), np.float32)
    k_wide[..., :20] = k
    out = k_wide.reshape(2, 3, -1)[..., : 8 * 16].reshape(2, 3, 8, 16)
    got = _run(q, k_wide[..., :20], v, 0.3, False, out=out)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
    assert taken == [True, True]


def test_scale_and_fill_are_read_at_every_call(taken: list[bool]) -> None:
    """A bound attention reads its one-element scale and fill when it
    runs, not when it is bound."""
    q, k, v = _operands(12, (1, 2), 3, 10, 16, 16)
    mask = np.zeros((3, 10), np.float32)
    mask[1] = -np.inf
    cpu = CpuRuntime(threads=1)
    try:
        scale, fill = (
            cpu.upload(np.ones(1, np.float32)),
            cpu.upload(np.ones(1, np.float32)),
        )
        out = cpu.upload(np.zeros((1, 2, 3, 16), np.float32))
        call = cpu.bind_fused_attention(
            _on(cpu, q), _on(cpu, k), _on(cpu, v), scale, _on(cpu, mask), fill, out,
            hip.FusedAttentionAttributes(divide=False),
        )  # fmt: skip
        for value, filled in ((0.5, 2.0), (0.125, -1.0)):
            cpu.array(scale)[0], cpu.array(fill)[0] = value, filled
            call()
            want = _reference(q, k, v, value, False, mask, filled)
            np.testing.assert_allclose(cpu.download(out), want, rtol=2e-5, atol=2e-5)
    finally:
        cpu.close()
    assert taken == [True]


def _dispatch(
    monkeypatch: pytest.MonkeyPatch, dtype: type[np.floating], batch: tuple[int, ...],
    s: int, t: int,
) -> bool:  # fmt: skip
    """Whether the runtime gives this attention to the small kernel, at the
    module's own thresholds; its result against float64 either way."""
    calls: list[bool] = []
    bind = small.bind

    def spy(*args: object, **kwargs: object) -> object:
        bound = bind(*args, **kwargs)  # pyright: ignore[reportArgumentType]
        calls.append(bound is not None)
        return bound

    monkeypatch.setattr(small, "bind", spy)
    q, k, v = (
        np.ascontiguousarray(x, dtype) for x in _operands(1, batch, s, t, 64, 64)
    )
    got = _run(q, k, v, 0.125, False)
    want = _reference(q, k, v, 0.125, False, None, None)
    tol = 3e-3 if dtype == np.float16 else 2e-5
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol)
    return calls == [True]


def test_the_seeds_step_and_decode_steps_take_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """float32 at the seed's 1 x 1 and at decode steps (one row a head, up
    to 2048 keys); not float16 or float64 (numpy's blocks), nor many rows
    (numpy's GEMMs share k and v between them), nor from
    `PARALLEL_MIN_ELEMENTS` scores on (numpy's blocks on the threads)."""
    assert _dispatch(monkeypatch, np.float32, (1,), 1, 1)
    assert _dispatch(monkeypatch, np.float32, (1, 12), 1, 512)
    assert _dispatch(monkeypatch, np.float32, (1, 4), 1, 2048)
    assert not _dispatch(monkeypatch, np.float16, (1,), 1, 1)
    assert not _dispatch(monkeypatch, np.float64, (1, 12), 1, 512)
    assert not _dispatch(monkeypatch, np.float32, (1,), 48, 512)
    assert not _dispatch(monkeypatch, np.float32, (1, 32), 1, 2048)
