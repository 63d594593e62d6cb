"""The CPU kernels a small transformer (GPT-2's fixture: d = 8 heads, 32
and 96 wide projections, tanh GELU) runs at 8 x 64, against float64 or
numpy: `tanh32`'s ulp bound, a fused loop's pow by a one-element exponent
(products for 2 and 3, numpy's bits; libm's pow else) and tanh, a lone
Where as a loop, the fused attention's narrow panels of v (Dv up to
`NARROW`), the GEMM's narrow last panel and its bias a vector at a time,
and the committed exports at sizes that take all of them, against ONNX
Runtime."""

from __future__ import annotations

import math

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from numba import njit

import xhip
import xhip.backend.cpu_fused as cpu_fused
import xhip.backend.cpu_kernels_fused as fused_kernels
from tests.pytest.backend.test_real_exports import FIXTURES, _inputs
from xhip.backend import cpu_attention
from xhip.backend import cpu_kernels_attention as attention
from xhip.backend import cpu_kernels_gemm as gemm
from xhip.backend.cpu import CpuRuntime
from xhip.backend.cpu_kernels_rows import tanh32
from xhip.dialects import hip


@njit
def _apply_tanh(x: np.ndarray, out: np.ndarray) -> None:
    for i in range(x.size):
        out[i] = tanh32(x[i])


def _floats(lo: float, hi: float, step: int) -> np.ndarray:
    """Every `step`-th float32 (by bit pattern) in [lo, hi], both signs."""
    bits = np.arange(0, 0x7F800000, step, dtype=np.uint32).view(np.float32)
    both = np.concatenate([bits, -bits])
    return both[(both >= lo) & (both <= hi)]


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in ulps of float32 at `want` (float64)."""
    spacing = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    return np.abs(got.astype(np.float64) - want) / spacing


def test_tanh32_is_within_the_stated_ulp_bound_of_float64() -> None:
    """1.31 ulp measured (cpu_kernels_rows' doc), 1.5 asserted; NaN, the
    infinities, signed zeros and tiny values as tanh has them, in a long
    run too (the vectorized loop, not only its scalar tail)."""
    x = _floats(-20.0, 20.0, 101)
    got = np.empty_like(x)
    _apply_tanh(x, got)
    assert _ulps(got, np.tanh(x.astype(np.float64))).max() <= 1.5
    edges = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-30, -1e-40, 100.0])
    run = np.tile(edges.astype(np.float32), 40)
    got = np.empty_like(run)
    _apply_tanh(run, got)
    want = np.tile(np.array([np.nan, 1, -1, 0, -0.0, 1e-30, -1e-40, 1], np.float32), 40)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def _fused(body: str, arrays: list[np.ndarray], numba: bool) -> tuple[np.ndarray, bool]:
    """The fused group `body` of `arrays` (the first full) on the CPU runtime,
    the numba loop on or off; whether a numba loop was bound."""
    saved = cpu_fused.NUMBA_MIN_ELEMENTS
    cpu_fused.NUMBA_MIN_ELEMENTS = 1 << 16 if numba else 1 << 62
    taken: list[bool] = []
    bind = fused_kernels.bind_kernel

    def spy(*args: object, **kwargs: object) -> object:
        loops = bind(*args, **kwargs)  # pyright: ignore[reportArgumentType]
        taken.append(loops is not None)
        return loops

    fused_kernels.bind_kernel = spy  # pyright: ignore[reportAttributeAccessIssue]
    try:
        runtime = CpuRuntime(threads=2)
        steps = hip.parse_body(body, len(arrays))
        inputs = [runtime.upload(a, copy=True) for a in arrays]
        out = runtime.empty(arrays[0].shape, np.dtype(arrays[0].dtype))
        runtime.fused_elementwise(inputs, out, hip.FusedAttributes(steps))
        result = runtime.download(out)
        runtime.close()
        return result, taken == [True]
    finally:
        cpu_fused.NUMBA_MIN_ELEMENTS = saved
        fused_kernels.bind_kernel = bind


POW = "pow(x0, x1) : f32; mul(s0, x2) : f32; add(s1, x0) : f32"


@pytest.mark.parametrize("exponent", [2.0, 3.0])
def test_pow_by_two_or_three_in_a_loop_is_numpys_products(exponent: float) -> None:
    """x ** 2 and x ** 3 by a one-element exponent: the loop's products,
    bit for bit what numpy's steps give (`elementwise._power`)."""
    rng = np.random.default_rng(int(exponent))
    x = (rng.standard_normal((256, 384)) * 3).astype(np.float32)
    scalars = [np.array(exponent, np.float32), np.array(0.044715, np.float32)]
    got, taken = _fused(POW, [x, *scalars], numba=True)
    assert taken
    plain, taken = _fused(POW, [x, *scalars], numba=False)
    assert not taken
    np.testing.assert_array_equal(got, plain)


@pytest.mark.parametrize("exponent", [2.5, -1.0, 0.5, 4.0])
def test_pow_by_other_exponents_in_a_loop_matches_float64(exponent: float) -> None:
    """Any other one-element exponent takes libm's pow in the same loop:
    within float32 rounding of float64, NaN where a negative base has no
    real power."""
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((256, 384)) * 3).astype(np.float32)
    scalars = [np.array(exponent, np.float32), np.array(0.5, np.float32)]
    got, taken = _fused(POW, [x, *scalars], numba=True)
    assert taken
    h = x.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        power = np.power(h, exponent)
    want = power * 0.5 + h
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    fine = ~np.isnan(want)
    bound = 4 * np.spacing(np.abs(power[fine] * 0.5).astype(np.float32))
    bound += 2 * np.spacing(np.abs(want[fine]).astype(np.float32))
    assert np.all(np.abs(got[fine] - want[fine]) <= bound)


GELU_TANH = (
    "mul(x0, x1) : f32; pow(x0, x2) : f32; mul(s1, x3) : f32; add(x0, s2) : f32; "
    "mul(s3, x4) : f32; tanh(s4) : f32; add(s5, x5) : f32; mul(s0, s6) : f32"
)
"""GPT-2's GELU as torch exports it: 0.5 x (1 + tanh(sqrt(2 / pi) (x +
0.044715 x ** 3)))."""


def test_gpt2_gelu_group_is_a_loop_within_float32_rounding() -> None:
    """The tanh GELU group (pow by 3, tanh) runs as one numba loop, within
    float32 rounding of each step of float64's (the cancellation of 1 +
    tanh for negative x scales tanh's error by |x|)."""
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((8, 64, 128)) * 3).astype(np.float32)
    values = (0.5, 3.0, 0.044715, math.sqrt(2 / math.pi), 1.0)
    scalars = [np.array(v, np.float32) for v in values]
    got, taken = _fused(GELU_TANH, [x, *scalars], numba=True)
    assert taken
    h = x.astype(np.float64)
    want = 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h**3)))
    bound = 4e-7 * np.abs(h) + 2 * np.spacing(np.abs(want).astype(np.float32))
    assert np.all(np.abs(got - want) <= bound)


@pytest.mark.parametrize(
    ("shapes", "taken"),
    [
        ([(8, 1, 64, 64), (1,), (1,)], True),  # GPT-2's mask: 0 or -inf
        ([(64, 512), (64, 512), (512,)], True),  # full and a row
        ([(300, 1000), (), (300, 1000)], True),  # large: numba's pool
        ([(8, 64, 16), (8, 64, 16), (1,)], False),  # 8 Ki: numpy's
    ],
)
def test_lone_where_is_a_loop_with_numpys_bits(
    shapes: list[tuple[int, ...]], taken: bool
) -> None:
    """A lone Where of 16 Ki elements and more (numba loaded, as a model's
    norms and GEMMs load it): a one-step loop reading the bool condition,
    numpy's bits (NaN, infinities, signed zeros picked as they are)."""
    import numba  # noqa: F401  # pyright: ignore[reportUnusedImport]

    rng = np.random.default_rng(len(shapes[0]))
    condition = rng.random(shapes[0]) > 0.3
    x, y = (rng.standard_normal(s).astype(np.float32) for s in shapes[1:])
    for a, specials in ((x, [np.nan, -0.0, np.inf, -np.inf]), (y, [-0.0, np.nan])):
        a.reshape(-1)[: len(specials)] = specials[: a.size]
    want = np.where(condition, x, y)
    runtime = CpuRuntime(threads=2)
    ins = [runtime.upload(a, copy=True) for a in (condition, x, y)]
    out = runtime.empty(want.shape, np.dtype(np.float32))
    arrays = [runtime.array(a) for a in ins]
    try:
        loop = runtime._bind_numba_op("where", (), arrays, runtime.array(out))  # pyright: ignore[reportPrivateUsage]
        assert (loop is not None) == taken
        where = hip.ElementwiseAttributes("where", ())
        runtime.ternary(ins[0], ins[1], ins[2], out, where)
        got = runtime.download(out)
    finally:
        runtime.close()
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_bool_inputs_the_loop_reads_only_as_conditions() -> None:
    """A bool input read as anything but a `where`'s condition keeps the
    group on numpy (the loop would read it as a number of another type)."""
    condition = np.ones((256, 256), np.bool_)
    x = np.ones((256, 256), np.float32)
    out = np.empty_like(x)
    where = hip.parse_body("where(x0, x1, x1) : f32; mul(s0, x1) : f32", 2)
    assert fused_kernels.bind_kernel(where, [condition, x], out, 1) is not None
    picked = hip.parse_body("where(x1, x0, x0) : f32", 2)
    assert fused_kernels.bind_kernel(picked, [condition, x], out, 1) is None


def _reference(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, mask: np.ndarray
) -> np.ndarray:
    s = (q.astype(np.float64) * scale) @ k.astype(np.float64) + mask
    e = np.exp(s - s.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ v.astype(np.float64)


def _panels(bound: list[list[object]]) -> np.ndarray:
    """v's panels (`vp`) in the calls `attention.bind` made."""
    call = bound[-1][0]
    assert hasattr(call, "func") and hasattr(call, "args")
    func, args = call.func, call.args  # pyright: ignore[reportAttributeAccessIssue]
    at = {attention.attend: 2, attention.attend_own: 3, attention.attend_pool: 3}
    return args[at[func]]


@pytest.mark.parametrize(
    ("heads", "s", "t", "d", "dv", "layout"),
    [
        ((8, 4), 64, 64, 8, 8, "direct"),  # GPT-2's fixture at 8 x 64
        ((2, 3), 70, 130, 4, 16, "direct"),
        ((1, 2), 100, 1100, 32, 24, "direct"),  # two chunks of keys
        ((2, 2), 64, 200, 16, 32, "direct"),
        ((2, 2), 67, 90, 8, 5, "packed"),  # Dv off the 8-float vectors
        ((1, 3), 64, 77, 8, 8, "strided"),  # v strided: packed
        ((2, 1), 65, 300, 16, 20, "strided"),
        ((1, 2), 64, 100, 8, 33, "packed"),  # over `NARROW`: panels of 64
    ],
)
@pytest.mark.parametrize(("threads", "pool"), [(1, False), (2, False), (2, True)])
def test_narrow_heads_match_float64(
    heads: tuple[int, int], s: int, t: int, d: int, dv: int, layout: str,
    threads: int, pool: bool,
) -> None:  # fmt: skip
    """Dv up to `NARROW` runs exp @ v on tiles of Dv rounded up to 8 floats
    (v read in place where its rows are whole panels, else packed), a
    causal mask broadcast over the heads; wider Dv on panels of 64."""
    rng = np.random.default_rng(s + t + dv)
    q = rng.normal(0, 1, (*heads, s, d)).astype(np.float32)
    k = rng.normal(0, 1, (*heads, d, t)).astype(np.float32)
    v = rng.normal(0, 1, (*heads, t, dv)).astype(np.float32)
    if layout == "strided":
        v = np.repeat(v, 2, axis=-1)[..., ::2]
    causal = np.triu(np.full((s, t), -np.inf, np.float32), t - s + 1)
    mask = np.broadcast_to(np.ascontiguousarray(causal[None, None]), (*heads, s, t))
    out = np.full((*heads, s, dv), 7, np.float32)
    scale = np.asarray([1 / math.sqrt(d)], np.float32)
    bound = attention.bind(
        q, k, v, mask, out, scale, False, None, threads, cpu_attention.SUM_MIN,
        cpu_attention.SUM_MAX, pool=pool,
    )  # fmt: skip
    assert bound is not None
    width = attention.NR if dv > attention.NARROW else -(-dv // 8) * 8
    panels = _panels(bound)  # pyright: ignore[reportArgumentType]
    assert panels.shape[-1] == width
    assert (panels.shape[2] == 0) == (layout == "direct")
    for phase in bound:
        for call in phase:
            call()
    want = _reference(q, k, v, float(scale[0]), causal)
    np.testing.assert_allclose(out, want, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("n", [16, 32, 48, 96, 112, 40, 200])
@pytest.mark.parametrize(("rows", "k"), [(512, 32), (131, 300), (5, 64)])
@pytest.mark.parametrize(
    ("pieces", "by_columns", "pool"),
    [(1, False, False), (2, False, True), (2, True, False)],
)
def test_gemm_narrow_last_panel_matches_float64(
    n: int, rows: int, k: int, pieces: int, by_columns: bool, pool: bool
) -> None:
    """A last panel of 16, 32 or 48 columns on a tile of its width, in
    place (k over several blocks: the tiles add to what they wrote); other
    widths through the scratch; the bias added a vector at a time, bit for
    bit numpy's float32 add to the product without it."""
    rng = np.random.default_rng(n + rows + k)
    x = rng.normal(0, 1, (rows, k)).astype(np.float32)
    w = rng.normal(0, 1, (k, n)).astype(np.float32)
    bias = rng.normal(0, 1, n).astype(np.float32)
    wp = gemm.packed(w)
    plain = np.full((rows, n), 7, np.float32)
    biased = np.full((rows, n), 7, np.float32)
    for out, b in ((plain, None), (biased, bias)):
        for call in gemm.bind(x, wp, n, out, b, pieces, by_columns, pool):
            call()
    want = x.astype(np.float64) @ w.astype(np.float64)
    np.testing.assert_allclose(plain, want, rtol=1e-5, atol=2e-5 * math.sqrt(k))
    np.testing.assert_array_equal(biased, plain + bias)


SIZES = {"": (8, 64), "_past": (8, 60)}
"""(batch, seq) per kind of export: 64 positions at most (the past adds 4)."""
EXPORTS = [
    f"{model}{past}.{exporter}"
    for model in ("gpt2", "bert", "llama")
    for past in ("", "_past")
    for exporter in ("torchscript", "dynamo")
    if (FIXTURES / f"{model}{past}.{exporter}.onnx").exists()
]


@pytest.mark.parametrize("name", EXPORTS)
def test_exports_at_8x64_match_onnxruntime(name: str) -> None:
    """The committed exports (d = 8 heads, 32-wide hidden) at a size where
    every step above runs: the attention's narrow panels, GPT-2's GELU
    loop, the GEMMs by the projections; later rows padded."""
    path = FIXTURES / f"{name}.onnx"
    model = onnx.load(str(path))
    batch, seq = SIZES["_past" if "_past" in name else ""]
    feeds = _inputs(model, batch, seq)
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    want = [np.asarray(x) for x in session.run(None, feeds)]
    runtime = CpuRuntime(threads=2)
    try:
        compiled = xhip.compile(path, "cpu", runtime=runtime)
        for _ in range(2):  # the first call binds, the second replays
            got = list(compiled(dict(feeds)).values())
            for ours, theirs in zip(got, want, strict=True):
                np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)
    finally:
        runtime.close()
