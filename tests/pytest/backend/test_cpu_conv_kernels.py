"""The CPU runtime's 2-D convolution and max pooling at sizes that take the
numba kernels (`cpu_kernels_conv`: im2col, depthwise, max pool;
`cpu_kernels_convgemm`: the convolution and Winograd by the GEMM tile
kernel) and the positions-cut GEMM, against numpy float64 references: odd
sizes, strides 2 and 3, dilations, asymmetric pads, windows past the end
(ceil mode), batch > 1, groups, one thread and two, with AVX-512's paths
(`wide_simd`, forced: the kernels are right on any CPU, only slower) and
without; the tile kernel's on two threads both as one launch on numba's
pool (`conv_pool`, `conv_rows_pool`, `winograd_pool`) and as a call a
share on the runtime's Python threads (`cpu_host.numba_pool`). The numpy forms below the size threshold are covered by the node
suite and `test_conv_models.py`."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from xhip.backend import cpu_conv, cpu_host
from xhip.backend import cpu_kernels_convgemm as convgemm
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import DeviceArray
from xhip.dialects import hip


@dataclass(frozen=True)
class Case:
    x: tuple[int, int, int, int]
    kernel: tuple[int, int]
    strides: tuple[int, int] = (1, 1)
    dilations: tuple[int, int] = (1, 1)
    pads: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Begins, then ends."""
    extra: tuple[int, int] = (0, 0)
    """Output positions past the last full window (pooling's ceil mode)."""

    def out_shape(self) -> tuple[int, int]:
        return tuple(  # pyright: ignore[reportReturnType]
            (self.x[2 + d] + self.pads[d] + self.pads[2 + d] - self.span(d))
            // self.strides[d]
            + 1
            + self.extra[d]
            for d in range(2)
        )

    def span(self, d: int) -> int:
        return (self.kernel[d] - 1) * self.dilations[d] + 1


def _windows(x: np.ndarray, case: Case, fill: float) -> np.ndarray:
    """x (N, C, H, W) as float64 windows (N, C, Ho, Wo, kh, kw), `fill` in
    the padding."""
    ho, wo = case.out_shape()
    lengths = [
        (o - 1) * s + case.span(d)
        for d, (o, s) in enumerate(zip((ho, wo), case.strides))
    ]
    padded = np.full((*x.shape[:2], *lengths), fill)
    top, left = case.pads[:2]
    h, w = (min(x.shape[2 + d], lengths[d] - case.pads[d]) for d in range(2))
    padded[:, :, top : top + h, left : left + w] = x[:, :, :h, :w]
    view = sliding_window_view(padded, (case.span(0), case.span(1)), axis=(2, 3))
    sh, sw = case.strides
    dh, dw = case.dilations
    return view[:, :, ::sh, ::sw, ::dh, ::dw]


def conv_reference(
    x: np.ndarray, w: np.ndarray, bias: np.ndarray | None, case: Case, group: int
) -> np.ndarray:
    windows = _windows(x.astype(np.float64), case, 0.0)
    n, c = x.shape[:2]
    m = w.shape[0]
    per = windows.reshape(n, group, c // group, *windows.shape[2:])
    kernels = w.astype(np.float64).reshape(group, m // group, c // group, *case.kernel)
    out = np.einsum("ngchwij,gmcij->ngmhw", per, kernels)
    out = out.reshape(n, m, *out.shape[3:])
    return out if bias is None else out + bias.reshape(m, 1, 1)


CONVS = [
    (Case((1, 16, 56, 60), (3, 3), pads=(1, 1, 1, 1)), 1),
    (Case((2, 5, 41, 37), (3, 3), (2, 2), pads=(1, 0, 2, 1)), 1),
    (Case((1, 3, 67, 71), (7, 7), (2, 2), pads=(3, 3, 3, 3)), 1),
    (Case((1, 6, 45, 38), (3, 2), (3, 1), (2, 3), (2, 1, 0, 3)), 2),
    (Case((1, 12, 39, 44), (3, 3), pads=(1, 1, 1, 1)), 12),
    (Case((2, 8, 33, 47), (3, 3), (2, 2), pads=(0, 1, 1, 0)), 8),
    (Case((1, 4, 50, 29), (5, 3), (1, 3), (2, 1), (3, 0, 1, 2)), 4),
    (Case((1, 40, 44, 44), (1, 1), (2, 2)), 1),
]
"""(case, group): groups of one channel are depthwise (the numba kernel),
the last a depthwise with two output channels per input."""


TEAMS = [
    pytest.param((1, True), id="1"),
    pytest.param((2, True), id="2-numba"),
    pytest.param((2, False), id="2-python"),
]
"""(threads, numba's pool allowed): one thread, two on numba's pool, two on
the runtime's Python threads."""


def _pooled(
    monkeypatch: pytest.MonkeyPatch, team: tuple[int, bool]
) -> Callable[[bool], None]:
    """numba's pool allowed or not (`cpu_host.numba_pool`); the check, once
    the convolution ran, that it launched a pool kernel exactly where it
    should (two threads, the pool allowed, work enough for two)."""
    threads, pool = team
    monkeypatch.setattr(cpu_host, "numba_pool", lambda: pool)
    launched: list[str] = []
    for name in (
        "conv_pool",
        "conv_rows_pool",
        "winograd_pool",
        "winograd_rows_pool",
        "max_pool_pool",
    ):
        kernel = getattr(convgemm, name)

        def spy(*args: Any, kernel: Any = kernel, name: str = name) -> None:
            launched.append(name)
            kernel(*args)

        monkeypatch.setattr(convgemm, name, spy)

    def check(shared: bool) -> None:
        assert bool(launched) == (threads > 1 and pool and shared), launched

    return check


def _run_conv(
    case: Case,
    group: int,
    multiplier: int,
    threads: int,
    bias: bool,
    outputs: int | None = None,
    read_only: bool = False,
    relu: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(math.prod(case.x) + group)
    x = rng.standard_normal(case.x).astype(np.float32)
    c = case.x[1]
    m = outputs or (c * multiplier if group > 1 else 2 * c + 3)
    w = rng.standard_normal((m, c // group, *case.kernel)).astype(np.float32)
    w.setflags(write=not read_only)  # read-only: as the model's constants
    b = rng.standard_normal(m).astype(np.float32) if bias else None
    out_spatial = case.out_shape()
    runtime = CpuRuntime(threads=threads)
    try:
        size = c * math.prod(case.kernel) * math.prod(out_spatial)
        out = runtime.empty((case.x[0], m, *out_spatial), np.dtype(np.float32))
        attrs = hip.ConvAttributes(
            case.strides, case.dilations, case.pads, group, relu=relu
        )
        runtime.conv(
            runtime.upload(x),
            runtime.upload(w),
            None if b is None else runtime.upload(b),
            out,
            runtime.empty((size,), np.dtype(np.float32)),
            attrs,
        )
        got = runtime.download(out)
    finally:
        runtime.close()
    want = conv_reference(x, w, b, case, group)
    return got, np.maximum(want, 0.0) if relu else want


@pytest.mark.parametrize("block_bytes", [cpu_conv.BLOCK_BYTES, 1 << 14])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("case", "group"), CONVS)
def test_conv_matches_float64(
    case: Case,
    group: int,
    threads: int,
    block_bytes: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without AVX-512 (numpy's GEMMs). With small blocks, every case of one
    group runs by blocks of a few output rows (`_bind_blocked`), a thread's
    run of rows split unevenly."""
    monkeypatch.setattr(cpu_conv, "wide_simd", lambda: False)
    monkeypatch.setattr(cpu_conv, "BLOCK_BYTES", block_bytes)
    multiplier = 2 if group == 4 else 1
    got, want = _run_conv(case, group, multiplier, threads, bias=group != 2)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


DIRECT = [
    *(case for case, group in CONVS if group == 1),
    Case((2, 3, 61, 57), (7, 7), (2, 2), pads=(3, 3, 3, 3)),
    Case((1, 32, 7, 9), (3, 3), pads=(1, 1, 1, 1)),
    Case((2, 40, 47, 41), (1, 1), (2, 2)),
    Case((1, 9, 40, 33), (3, 3), (2, 1), (1, 2), (0, 2, 1, 0)),
]
"""Convolutions of one group (not Winograd's) that take the tile kernel
(`_bind_direct`): besides `CONVS`', a 7x7 stem of stride 2 at batch 2,
positions too few for a panel per thread (7x9: the output channels are cut
instead), a 1x1 of stride 2, a dilated one of unequal strides."""


@pytest.mark.parametrize("chunk_bytes", [cpu_conv.CHUNK_BYTES, 1])
@pytest.mark.parametrize("team", TEAMS)
@pytest.mark.parametrize("case", DIRECT)
def test_conv_by_tile_kernel_matches_float64(
    case: Case,
    team: tuple[int, bool],
    chunk_bytes: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tile kernel's convolution (`cpu_kernels_convgemm.conv`), output
    channels not a multiple of the tile's rows (2 * C + 3), with and without
    a bias; with chunks of one panel, many chunks a thread, the last short;
    on two threads those of `BLAS_PARALLEL_MIN_MACS` or more."""
    check = _pooled(monkeypatch, team)
    threads = team[0]
    monkeypatch.setattr(cpu_conv, "wide_simd", lambda: True)
    monkeypatch.setattr(cpu_conv, "CHUNK_BYTES", chunk_bytes)
    taken: list[object] = []
    monkeypatch.setattr(
        cpu_conv.CpuConvolutions,
        "_bind_direct",
        _spy(cpu_conv.CpuConvolutions._bind_direct, taken),  # pyright: ignore[reportPrivateUsage]
    )
    got, want = _run_conv(case, 1, 1, threads, bias=case.x[1] % 2 == 0)
    assert taken
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    m = 2 * case.x[1] + 3
    macs = math.prod(case.x[:2]) * m * math.prod((*case.kernel, *case.out_shape()))
    check(macs >= cpu_host.BLAS_PARALLEL_MIN_MACS)


ROWS = [
    (Case((1, 64, 28, 28), (3, 3), (2, 2), pads=(1, 1, 1, 1)), 128),
    (Case((2, 64, 15, 13), (3, 3), pads=(1, 1, 1, 1)), 192),
    (Case((1, 60, 12, 12), (3, 3), (1, 1), (2, 2), (2, 1, 2, 3)), 64),
    (Case((1, 64, 7, 7), (3, 3), pads=(1, 1, 1, 1)), 150),
]
"""(case, output channels): few positions (196, 195 a batch of 2, 144,
and 49: less than one panel of 64) by constant weights, which take the
positions as the tile kernel's rows (`_bind_by_rows`): three panels of
output channels (cut 1 and 2 over two threads), a dilated one with
asymmetric pads. The 3x3 unit-stride ones with tiles enough would be
Winograd by rows (`WINOGRAD_ROWS_BYTES`, off here)."""


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("team", TEAMS)
@pytest.mark.parametrize(("case", "outputs"), ROWS)
def test_conv_by_rows_matches_float64(
    case: Case,
    outputs: int,
    team: tuple[int, bool],
    bias: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    check = _pooled(monkeypatch, team)
    threads = team[0]
    monkeypatch.setattr(cpu_conv, "wide_simd", lambda: True)
    monkeypatch.setattr(cpu_conv, "WINOGRAD_ROWS_BYTES", 0)
    taken: list[object] = []
    method = cpu_conv.CpuConvolutions._bind_by_rows  # pyright: ignore[reportPrivateUsage]
    monkeypatch.setattr(cpu_conv.CpuConvolutions, "_bind_by_rows", _spy(method, taken))
    got, want = _run_conv(case, 1, 1, threads, bias, outputs, read_only=True)
    assert taken
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    check(outputs > convgemm.NR or case.x[0] > 1)


WINOGRAD_ROWS = [
    (Case((1, 40, 14, 14), (3, 3), pads=(1, 1, 1, 1)), 70),
    (Case((2, 24, 13, 11), (3, 3), pads=(2, 0, 1, 1)), 130),
    (Case((1, 16, 17, 19), (3, 3)), 64),
]
"""(case, output channels): few tiles and constant weights, which run as
Winograd with the tiles as the tile kernel's rows (`_bind_winograd_rows`):
49 tiles and two panels of output channels (the second of 6), odd output
sizes with asymmetric pads at batch 2 over three panels, no pads and one
whole panel."""


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("team", TEAMS)
@pytest.mark.parametrize(("case", "outputs"), WINOGRAD_ROWS)
def test_winograd_rows_matches_float64(
    case: Case,
    outputs: int,
    team: tuple[int, bool],
    bias: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    check = _pooled(monkeypatch, team)
    threads = team[0]
    monkeypatch.setattr(cpu_conv, "wide_simd", lambda: True)
    taken: list[object] = []
    method = cpu_conv.CpuConvolutions._bind_winograd_rows  # pyright: ignore[reportPrivateUsage]
    monkeypatch.setattr(
        cpu_conv.CpuConvolutions, "_bind_winograd_rows", _spy(method, taken)
    )
    got, want = _run_conv(case, 1, 1, threads, bias, outputs, read_only=True)
    assert taken
    scale = float(np.abs(want).max())
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=2e-5 * scale)
    ho, wo = case.out_shape()
    macs = case.x[0] * case.x[1] * outputs * 9 * ho * wo
    check(outputs > convgemm.NR and macs >= cpu_host.BLAS_PARALLEL_MIN_MACS)


SPLIT = [
    Case((2, 3, 61, 57), (7, 7), (2, 2), pads=(3, 3, 3, 3)),
    Case((1, 5, 41, 37), (3, 3), (2, 2), pads=(1, 0, 2, 1)),
    Case((1, 4, 50, 33), (5, 5), (1, 3), (2, 1), (3, 0, 1, 2)),
    Case((1, 6, 90, 38), (3, 2), (3, 2), (2, 3), (2, 1, 0, 3)),
]
"""Strided convolutions whose windows `_bind_direct` reads from the image
split by stride phase (`cpu_kernels_convgemm.split_image`): the stem's
7x7/2 at batch 2 (split as it is), and with `SPLIT_MIN_TAPS` lowered a
3x3/2 with asymmetric pads, a dilated 5x5 of strides (1, 3), a dilated
3x2 of strides (3, 2)."""


@pytest.mark.parametrize("team", TEAMS)
@pytest.mark.parametrize("case", SPLIT)
def test_conv_split_by_phase_matches_float64(
    case: Case, team: tuple[int, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    check = _pooled(monkeypatch, team)
    threads = team[0]
    monkeypatch.setattr(cpu_conv, "wide_simd", lambda: True)
    monkeypatch.setattr(cpu_conv, "SPLIT_MIN_TAPS", 1)
    split: list[object] = []
    monkeypatch.setattr(convgemm, "split_image", _spy(convgemm.split_image, split))
    got, want = _run_conv(case, 1, 1, threads, bias=case.x[1] % 2 == 1)
    assert split
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    m = 2 * case.x[1] + 3
    macs = math.prod(case.x[:2]) * m * math.prod((*case.kernel, *case.out_shape()))
    check(macs >= cpu_host.BLAS_PARALLEL_MIN_MACS)


def test_the_stem_splits_by_phase() -> None:
    """The rule as ResNet's convolutions meet it: the 7x7/2 stem splits;
    3x3/2 and 1x1/2 read the image as it is (the copy would cost more)."""
    assert cpu_conv._splits((7, 7), (2, 2))  # pyright: ignore[reportPrivateUsage]
    assert not cpu_conv._splits((3, 3), (2, 2))  # pyright: ignore[reportPrivateUsage]
    assert not cpu_conv._splits((1, 1), (2, 2))  # pyright: ignore[reportPrivateUsage]
    assert not cpu_conv._splits((7, 7), (1, 1))  # pyright: ignore[reportPrivateUsage]


@pytest.mark.parametrize(
    ("case", "read_only"),
    [(ROWS[0][0], False), (Case((1, 96, 28, 28), (1, 1), (2, 2)), True)],
)
def test_conv_by_rows_only_where_it_pays(
    case: Case, read_only: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Weights that are not constants, and a GEMM too shallow (a 1x1 of 96
    channels: `ROWS_MIN_DEPTH`), take the panels (`_bind_direct`)."""
    monkeypatch.setattr(cpu_conv, "wide_simd", lambda: True)
    taken: list[object] = []
    method = cpu_conv.CpuConvolutions._bind_direct  # pyright: ignore[reportPrivateUsage]
    monkeypatch.setattr(cpu_conv.CpuConvolutions, "_bind_direct", _spy(method, taken))
    got, want = _run_conv(case, 1, 1, 2, True, 128, read_only=read_only)
    assert taken
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("read_only", [True, False])
def test_many_channels_over_few_positions_take_the_tile_kernel(
    read_only: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A column matrix under `KERNEL_MIN_ELEMENTS` with multiply-adds of
    `KERNEL_MIN_MACS` (ResNet's last downsample: 1x1 of stride 2, 256 to 512
    channels at 7x7 outputs) takes the tile kernel, not numpy's im2col."""
    case, outputs = Case((1, 256, 14, 14), (1, 1), (2, 2)), 512
    elements = case.x[1] * math.prod(case.out_shape())
    assert elements < cpu_conv.KERNEL_MIN_ELEMENTS
    assert elements * outputs >= cpu_conv.KERNEL_MIN_MACS
    monkeypatch.setattr(cpu_conv, "wide_simd", lambda: True)
    taken: list[object] = []
    method = cpu_conv.CpuConvolutions._bind_direct  # pyright: ignore[reportPrivateUsage]
    monkeypatch.setattr(cpu_conv.CpuConvolutions, "_bind_direct", _spy(method, taken))
    got, want = _run_conv(case, 1, 1, 2, True, outputs, read_only=read_only)
    assert taken
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def _spy(method: Any, taken: list[object]) -> Any:
    """`method`, noting in `taken` each time it is called."""

    def spy(*args: Any, **kwargs: Any) -> Any:
        taken.append(args)
        return method(*args, **kwargs)

    return spy


def test_sizes_take_the_kernels() -> None:
    """Every case above is large enough for the numba path (or it would
    test the numpy one twice)."""
    for case in [*(case for case, _ in CONVS), *DIRECT]:
        elements = case.x[1] * math.prod(case.kernel) * math.prod(case.out_shape())
        assert elements >= cpu_conv.KERNEL_MIN_ELEMENTS, case


POOLS = [
    Case((1, 16, 112, 112), (3, 3), (2, 2), pads=(1, 1, 1, 1)),
    Case((2, 7, 45, 38), (2, 2), (2, 2), extra=(1, 1)),
    Case((1, 5, 50, 61), (3, 2), (3, 1), (2, 3), (2, 1, 0, 1), extra=(1, 0)),
    Case((3, 4, 40, 40), (5, 5), (1, 1), pads=(2, 2, 2, 2)),
    # 3-wide stride 2 (its taps in one loop), dilated, uneven pads
    Case((1, 8, 41, 60), (3, 3), (2, 2), (2, 2), (0, 3, 2, 1)),
    Case((1, 8, 40, 120), (2, 3), (2, 2), pads=(1, 2, 1, 2)),  # pads near a window
]


@pytest.mark.parametrize("team", TEAMS)
@pytest.mark.parametrize("case", POOLS)
def test_max_pool_matches_float64(
    case: Case, team: tuple[int, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    check = _pooled(monkeypatch, team)
    threads = team[0]
    rng = np.random.default_rng(sum(case.x))
    x = rng.standard_normal(case.x).astype(np.float32)
    x[0, 0, 3, 4] = np.nan  # NaN wins its windows, as np.maximum
    want = _windows(x, case, -np.inf).max(axis=(-2, -1))
    runtime = CpuRuntime(threads=threads)
    try:
        out = runtime.empty((*case.x[:2], *case.out_shape()), np.dtype(np.float32))
        attrs = hip.PoolAttributes(
            case.strides, case.dilations, case.pads, "max", case.kernel, False, False
        )
        assert out.size * math.prod(case.kernel) >= cpu_conv.KERNEL_MIN_ELEMENTS
        runtime.pool(runtime.upload(x), out, None, attrs)
        got = runtime.download(out)
    finally:
        runtime.close()
    np.testing.assert_array_equal(got, want.astype(np.float32))
    check(out.size * math.prod(case.kernel) >= cpu_conv.PARALLEL_MIN_ELEMENTS)


def test_gemm_cut_by_positions_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1x1 conv with few channels and many positions takes the positions
    cut (`_bind_gemm`); it matches the rows cut."""
    case = Case((1, 24, 64, 64), (1, 1))
    monkeypatch.setattr(cpu_conv, "COLUMN_SPLIT_RATIO", 1)
    cut, want = _run_conv(case, 1, 1, 2, bias=True)
    np.testing.assert_allclose(cut, want, rtol=1e-4, atol=1e-4)


WINOGRAD = [
    (Case((1, 16, 56, 56), (3, 3), pads=(1, 1, 1, 1)), 16),
    (Case((2, 9, 23, 30), (3, 3), pads=(2, 0, 1, 1)), 8),
    (Case((1, 12, 17, 19), (3, 3)), 11),
    (Case((1, 7, 40, 11), (3, 3), pads=(0, 1, 2, 2)), 5),
    (Case((1, 20, 14, 14), (3, 3), pads=(1, 1, 1, 1)), 20),
    (Case((2, 6, 33, 31), (3, 3), pads=(1, 1, 1, 1)), 6),
]
"""(case, output channels): odd output heights and widths (the last tiles
cut), asymmetric pads, no pads, batch 2; all 3x3 of unit strides with their
tiles and products fitting in the workspace. With AVX-512 (the tile
kernel's, `_bind_winograd_tiles`): 14x14 is one chunk of tiles (the output
channels cut over the threads, the scratch its own), 33x31 five chunks (the
last of 16 tiles) over the threads, the scratch in the workspace."""


@pytest.mark.parametrize("wide", [True, False])
@pytest.mark.parametrize("team", TEAMS)
@pytest.mark.parametrize(("case", "outputs"), WINOGRAD)
def test_winograd_matches_float64(
    case: Case,
    outputs: int,
    team: tuple[int, bool],
    wide: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The 3x3 unit-stride convolutions that run as Winograd F(2x2, 3x3),
    by the tile kernel (`wide`) or numpy's GEMMs: float32 transforms, so a
    looser bound than im2col's (the tolerance is well above the error
    measured, 1e-6 relative, and far below a wrong tile's)."""
    check = _pooled(monkeypatch, team)
    threads = team[0]
    monkeypatch.setattr(cpu_conv, "wide_simd", lambda: wide)
    taken: list[object] = []
    name = "_bind_winograd_tiles" if wide else "_bind_winograd"
    monkeypatch.setattr(
        cpu_conv.CpuConvolutions,
        name,
        _spy(getattr(cpu_conv.CpuConvolutions, name), taken),
    )
    c = case.x[1]
    ho, wo = case.out_shape()
    tiles = ((ho + 1) // 2) * ((wo + 1) // 2)
    assert tiles >= cpu_conv.WINOGRAD_MIN_TILES
    assert 16 * tiles * (c + outputs) <= c * 9 * ho * wo
    got, want = _run_conv(case, 1, 1, threads, bias=c != 12, outputs=outputs)
    assert taken
    scale = float(np.abs(want).max())
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=2e-5 * scale)
    check(wide)


@pytest.mark.parametrize("pool", [True, False])
@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("wide", [True, False])
@pytest.mark.parametrize("read_only", [False, True])
def test_bound_conv_follows_the_weights(
    read_only: bool,
    wide: bool,
    stride: int,
    pool: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bound Winograd convolution (stride 1) transforms writable weights
    again on every call (they may be computed: here changed in place between
    calls), and read-only ones (the constants, used in place) once, at
    binding; the others (stride 2) read them at every call. (Winograd by
    rows takes read-only weights only: `test_winograd_rows_matches_float64`;
    off here.)"""
    check = _pooled(monkeypatch, (2, pool))
    monkeypatch.setattr(cpu_conv, "wide_simd", lambda: wide)
    monkeypatch.setattr(cpu_conv, "WINOGRAD_ROWS_BYTES", 0)
    case = Case((1, 8, 30, 30), (3, 3), (stride, stride), pads=(1, 1, 1, 1))
    rng = np.random.default_rng(5)
    x = rng.standard_normal(case.x).astype(np.float32)
    w = rng.standard_normal((8, 8, 3, 3)).astype(np.float32)
    original = w.copy()
    w.setflags(write=not read_only)
    runtime = CpuRuntime(threads=2)
    try:
        out = runtime.empty((1, 8, *case.out_shape()), np.dtype(np.float32))
        size = 8 * 9 * math.prod(case.out_shape())
        attrs = hip.ConvAttributes(case.strides, (1, 1), case.pads, 1, False)
        weights = runtime.upload(w)
        bound = runtime.bind_conv(
            runtime.upload(x),
            weights,
            None,
            out,
            runtime.empty((size,), np.dtype(np.float32)),
            attrs,
        )
        calls = []
        for scale in (1.0, -2.0):
            if not read_only:
                np.copyto(runtime.array(weights), original * np.float32(scale))
            bound()
            calls.append((runtime.download(out), scale))
    finally:
        runtime.close()
    check(wide and stride == 1)
    for got, scale in calls:
        factor = 1.0 if read_only else scale
        want = conv_reference(x, original * factor, None, case, 1)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("read_only", [False, True])
@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize(
    ("case", "group"),
    [*CONVS, *((case, 1) for case in DIRECT[-4:]), (Case((1, 24, 20, 21), (1, 1)), 1)],
)
def test_a_fused_relu_clamps_on_every_path(
    case: Case,
    group: int,
    wide: bool,
    read_only: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`ConvAttributes.relu` (`hip-fuse-conv-relu`): the tile kernels clamp
    as they add the bias, the other paths (numpy's GEMMs, im2col, depthwise,
    1x1 as the image itself) by a pass after; all as Relu(conv)."""
    monkeypatch.setattr(cpu_conv, "wide_simd", lambda: wide)
    multiplier = 2 if group == 4 else 1
    got, want = _run_conv(
        case, group, multiplier, 2, bias=group != 2, read_only=read_only, relu=True
    )
    assert (got >= 0).all() and (want == 0).any()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("wide", [False, True])
def test_a_fused_relu_out_over_its_input_goes_through_a_copy(
    wide: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memory plan may give a fused Relu's out the memory of a conv
    operand that dies at the conv: the conv then writes a copy (the tile
    kernels read the image while they write)."""
    monkeypatch.setattr(cpu_conv, "wide_simd", lambda: wide)
    case = Case((1, 16, 24, 24), (3, 3), pads=(1, 1, 1, 1))
    rng = np.random.default_rng(5)
    x = rng.standard_normal(case.x).astype(np.float32)
    w = rng.standard_normal((16, 16, 3, 3)).astype(np.float32)
    runtime = CpuRuntime(threads=2)
    try:
        shared = runtime.upload(x, copy=True)  # out over it
        out = DeviceArray.contiguous(shared.buffer, 0, x.shape, np.dtype(np.float32))
        work = runtime.empty((16 * 9 * 576,), np.dtype(np.float32))
        attrs = hip.ConvAttributes(case.strides, case.dilations, case.pads, 1, True)
        runtime.conv(shared, runtime.upload(w), None, out, work, attrs)
        got = runtime.download(out)
    finally:
        runtime.close()
    want = np.maximum(conv_reference(x, w, None, case, 1), 0.0)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
