"""The CPU's numba fused attention (`cpu_kernels_attention`) through the
runtime's `fused_attention`, against numpy float64 of the unfused chain:
odd sizes (T and S off the tiles, D = 1, 3, 80, 128, Dv != D, one query
row), masks (additive, causal, padding, broadcast over batch and heads),
scale times and divided, rows whose exp leaves range (the shifted pass),
fully masked rows (NaN, or `fill` @ v), float16, the shapes that stay on
numpy's blocks (D over `MAX_HEAD`, float64), and q, k, v biases of every
shape that broadcasts (`hip-fold-attention-bias`'s, added as the kernels
read the operands)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from tests.pytest.transforms.test_hip_fold_attention import onnx_runtime, pre_ln_block
from xhip.api import compile_to_ir
from xhip.backend import cpu_attention
from xhip.backend import cpu_kernels_attention as kernels
from xhip.backend import cpu_kernels_pool as pool
from xhip.backend.cpu import CpuRuntime
from xhip.backend.session import CompiledModel
from xhip.dialects import hip

Biases = tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]
NO_BIAS: Biases = (None, None, None)


def _reference(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, divide: bool,
    mask: np.ndarray | None, fill: float | None, biases: Biases = NO_BIAS,
) -> np.ndarray:  # fmt: skip
    """softmax(((q + qb) * scale) @ (k + kb) + mask) @ (v + vb) in float64;
    NaN rows `fill`."""
    q, k, v = (
        x.astype(np.float64) + (0 if b is None else b.astype(np.float64))
        for x, b in zip((q, k, v), biases)
    )
    f = 1 / scale if divide else scale
    s = (q * f) @ k
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
    biases: Biases = NO_BIAS,
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
            *(None if b is None else cpu.upload(b) for b in biases),
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


@pytest.mark.parametrize("heads", [(3, 4), (1, 3), (1, 1)])
@pytest.mark.parametrize(("threads", "pool"), [(1, False), (2, False), (2, True)])
def test_strided_operands_match_float64(
    heads: tuple[int, int], threads: int, pool: bool
) -> None:
    """k the transposed view of (T, D) (the models' Transpose), v and out
    strided along their last dim (the element-wise copies beside the vector
    ones); shares of whole heads that pack their own (12 heads), a
    packing phase before the blocks (3 heads under the 8 shares) and, in
    one launch, one head packed by each thread (`COPIES`)."""
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
    if pool and threads > 1:
        modes = {(3, 4): kernels.OWN, (1, 3): kernels.SHARED, (1, 1): kernels.COPIES}
        assert bound[0][0].args[-1] == modes[heads]
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
    state = pool.pool_state(2, pool.WARM)
    for _ in range(pool.WARM):
        assert pool.team(state, 2) == 2  # pyright: ignore[reportCallIssue]
        state[4:] = (8, 0)  # the second thread took nothing
        pool.review(state, 2)  # pyright: ignore[reportCallIssue]
    assert state[2] == 0 and state[3] == 0
    for _ in range(pool.LATE):
        assert pool.team(state, 2) == 2  # pyright: ignore[reportCallIssue]
        state[4:] = (8, 0)
        pool.review(state, 2)  # pyright: ignore[reportCallIssue]
    assert state[2] == pool.ALONE


def _bias(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 1, shape).astype(np.float32)


@pytest.mark.parametrize(
    ("q_bias", "k_bias", "v_bias"),
    [
        ((1, 3, 1, 64), (1, 3, 64, 1), (1, 3, 1, 64)),  # the fold's, per head
        ((64,), (64, 1), (64,)),  # along D (Dv) only
        ((2, 3, 70, 64), (2, 3, 64, 256), (2, 3, 256, 64)),  # whole operands
        ((70, 1), (256,), (256, 1)),  # along S; along T: v packed with it
        ((1,), None, (1,)),  # one value; v's at the outputs, element by element
        (None, (3, 64, 256), None),  # k's alone, varying along T
        (None, None, (3, 1, 64)),  # v's alone: v (whole panels) read in place
    ],
)
@pytest.mark.parametrize("threads", [1, 2])
def test_biases_of_every_shape_match_float64(
    calls: list[bool], q_bias: tuple[int, ...] | None,
    k_bias: tuple[int, ...] | None, v_bias: tuple[int, ...] | None, threads: int,
) -> None:  # fmt: skip
    """Each bias broadcast to its operand as the op allows: per head and
    along D (what `hip-fold-attention-bias` makes), whole, along S or T,
    one value; v's the same for every key goes to the outputs (P's rows sum
    to 1 after the softmax), else into v's panels."""
    q, k, v = _operands(31, (2, 3), 70, 256, 64, 64)
    biases: Biases = tuple(  # pyright: ignore[reportAssignmentType]
        None if shape is None else _bias(shape, i)
        for i, shape in enumerate((q_bias, k_bias, v_bias))
    )
    got = _run(q, k, v, 0.125, False, None, None, threads, biases)
    want = _reference(q, k, v, 0.125, False, None, None, biases)
    np.testing.assert_allclose(got, want, rtol=3e-5, atol=3e-5)
    assert calls == [True]


def test_v_bias_at_the_outputs_equals_v_plus_bias(calls: list[bool]) -> None:
    """P @ (v + b) = P @ v + b when each row of P sums to 1: the kernels'
    outputs with v's bias added to them against v + b computed first, both
    also against float64."""
    q, k, v = _operands(41, (2, 2), 96, 320, 64, 48)
    vb = _bias((1, 2, 1, 48), 4)
    late = _run(q, k, v, 0.125, False, None, None, 1, (None, None, vb))
    early = _run(q, k, v + vb, 0.125, False, None, None, 1)
    np.testing.assert_allclose(late, early, rtol=2e-5, atol=2e-5)
    want = _reference(q, k, v, 0.125, False, None, None, (None, None, vb))
    np.testing.assert_allclose(late, want, rtol=2e-5, atol=2e-5)
    assert calls == [True, True]


@pytest.mark.parametrize("v_bias", [(1, 1, 1, 64), (768, 64)])  # outputs, panels
def test_biased_fully_masked_rows_fill_at_v_plus_bias(
    calls: list[bool], v_bias: tuple[int, ...]
) -> None:
    """A fully masked row's `fill` multiplies the sum of v + b."""
    q, k, v = _operands(5, (2, 2), 70, 768, 64, 64)
    mask = np.zeros((2, 1, 70, 768), np.float32)
    mask[0, :, 3] = -np.inf
    biases: Biases = (_bias((64,), 1), _bias((64, 1), 2), _bias(v_bias, 3))
    got = _run(q, k, v, 0.125, False, mask, 0.25, 2, biases)
    want = _reference(q, k, v, 0.125, False, mask, 0.25, biases)
    np.testing.assert_allclose(got, want, rtol=3e-5, atol=3e-5)
    assert calls == [True]


@pytest.mark.parametrize(("threads", "pool"), [(1, False), (2, False), (2, True)])
def test_biases_on_strided_operands_match_float64(threads: int, pool: bool) -> None:
    """The block's layout: q and v views of (B, S, H * D), k the transposed
    view of one (gathered, its bias per row of k), out strided along Dv (its
    bias added element by element)."""
    rng = np.random.default_rng(8)
    b, h, s, d = 2, 4, 80, 64
    qkv = rng.normal(0, 1, (3, b, s, h * d)).astype(np.float32)
    q, v = (x.reshape(b, s, h, d).transpose(0, 2, 1, 3) for x in (qkv[0], qkv[2]))
    k = qkv[1].reshape(b, s, h, d).transpose(0, 2, 3, 1)
    out = np.full((b, h, s, 2 * d), 7, np.float32)[..., ::2]
    biases = (_bias((1, h, 1, d), 1), _bias((1, h, d, 1), 2), _bias((1, h, 1, d), 3))
    bound = kernels.bind(
        q, k, v, None, out, np.asarray([0.125], np.float32), False, None, threads,
        cpu_attention.SUM_MIN, cpu_attention.SUM_MAX, pool=pool, biases=biases,
    )  # fmt: skip
    assert bound is not None
    for phase in bound:
        for call in phase:
            call()
    want = _reference(q, k, v, 0.125, False, None, None, biases)
    np.testing.assert_allclose(out, want, rtol=3e-5, atol=3e-5)


def test_the_blocks_folded_biases_match_onnx_runtime(calls: list[bool]) -> None:
    """The pre-LN block (`benchmarks/transformer_block.py`) at 96 tokens:
    its Q, K, V bias adds folded into the attention, which the kernels take
    with its biases; the outputs are ONNX Runtime's."""
    model = pre_ln_block(64, 4)
    x = np.random.default_rng(96).standard_normal((2, 96, 64), np.float32)
    (want,) = onnx_runtime(model, {"X": x})
    ir = compile_to_ir(model)
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, CpuRuntime(threads=2)
    )
    (att,) = [
        op for op in compiled.module.walk() if isinstance(op, hip.FusedAttentionOp)
    ]
    assert att.biased_operands() == "qkv"
    (got,) = compiled({"X": x}).values()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    assert calls and all(calls)


@pytest.mark.parametrize(("d", "t"), [(64, 200), (72, 77), (16, 16), (8, 40)])
@pytest.mark.parametrize("k_bias", [None, (1, 2, "d", 1), (1, 1, "d", "t")])
def test_transposed_keys_pack_with_their_bias(
    d: int, t: int, k_bias: tuple[int | str, ...] | None
) -> None:
    """k the transposed view of (T, D): 16 x 16 blocks transposed, the keys
    and the D rows off the blocks one by one and gathered; its bias along D
    added in the blocks, one varying along T after them."""
    rng = np.random.default_rng(d + t)
    q = rng.normal(0, 1, (2, 2, 66, d)).astype(np.float32)
    k = rng.normal(0, 1, (2, 2, t, d)).astype(np.float32).transpose(0, 1, 3, 2)
    v = rng.normal(0, 1, (2, 2, t, 64)).astype(np.float32)
    out = np.full((2, 2, 66, 64), 7, np.float32)
    sizes = {"d": d, "t": t}
    shape = None if k_bias is None else tuple(sizes.get(str(x), x) for x in k_bias)
    biases = (None, None if shape is None else _bias(shape, 5), None)  # pyright: ignore[reportArgumentType]
    bound = kernels.bind(
        q, k, v, None, out, np.asarray([0.3], np.float32), False, None, 1,
        cpu_attention.SUM_MIN, cpu_attention.SUM_MAX, biases=biases,
    )  # fmt: skip
    assert bound is not None
    for phase in bound:
        for call in phase:
            call()
    want = _reference(q, k, v, 0.3, False, None, None, biases)
    np.testing.assert_allclose(out, want, rtol=3e-5, atol=3e-5)
