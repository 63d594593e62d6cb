"""float32 GEMMs by a constant weight as numba kernels (issue 25).

numpy's OpenBLAS runs the GEMMs of a transformer layer or a ResNet at
95-136 GFLOP/s a core; `cpu_kernels_attention._tile`, a 6 x 64 tile in 24
AVX-512 registers over a packed panel of B, at 156-195. The weight of a
MatMul or Gemm is most often a model constant: `pack` copies it into
panels of `NR` columns (k x NR each, zero-padded) once, at bind, and each
call runs `gemm` on a thread's rows; on several threads, one launch of
`gemm_pool` on numba's (`cpu_host.numba_pool`), or a `gemm` call a share
on the runtime's Python threads. Consecutive `gemm_pool` steps of one A
(q, k, v's projections) become one `gemm_pool3` launch (`merge`).

`gemm` blocks the rows by `MC` and k by `KC` (a block of A and a panel of B
stay in L2 and L1 while the tiles sweep them), adds the bias (per column)
to each block of rows when done, while it is in cache. Tiles off the edge
(rows under `MR`, the last panel's padding) run whole through the
thread's scratch.

Cache: keyed on this file, `cpu_kernels_attention` (`_tile`, `take`,
`team`, `review`), `cpu_kernels_rows` (`wide_vectors`) and
`cpu_kernels_runs` (`add_run`), whose code the kernels compile in
(`numba_cache.key_on`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
from numba import njit, prange, types

from xhip.backend import (
    cpu_kernels_attention,
    cpu_kernels_pool,
    cpu_kernels_rows,
    cpu_kernels_runs,
    numba_cache,
)
from xhip.backend.cpu_kernels_attention import (  # pyright: ignore[reportPrivateUsage]
    MR,
    NR,
    _tile,
    _tile_of,
    readonly,
)
from xhip.backend.cpu_kernels_pool import (
    MAX_THREADS,
    SHARES,
    WARM,
    pool_state,
    review,
    take,
    team,
)
from xhip.backend.cpu_kernels_rows import wide_vectors
from xhip.backend.cpu_kernels_runs import add_run

numba_cache.key_on(
    __file__,
    [
        cpu_kernels_attention.__file__,
        cpu_kernels_pool.__file__,
        cpu_kernels_rows.__file__,
        cpu_kernels_runs.__file__,
    ],
)

KC = 128
"""k a block: a block of a B panel (KC x NR, 32 KiB) and a tile's rows of A
(MR x KC) in L1. One thread, GFLOP/s at 128x256x256, 128x256x1024,
128x1024x256, 512x256x256, 3136x576x64, 784x1152x128: KC 128 148-170,
192 154-184, 256 145-177, 512 153-180 (numpy 118-158)."""
MC = 96
"""Rows a block (a multiple of `MR`): its A block (MC x KC, 48 KiB) stays
in L2 over all the panels."""

_F = np.float32
_IN2 = types.Array(types.float32, 2, "A", readonly=True)
_OUT2 = types.Array(types.float32, 2, "A")
_ONE = types.Array(types.float32, 1, "C", readonly=True)
_P3, _C2 = types.float32[:, :, ::1], types.float32[:, ::1]
_SHARES = types.int64[:, ::1]
_ZERO = _F(0.0)


_EDGE = 16
"""A last panel of a multiple of this many columns (16, 32, 48) runs on a
tile as wide (`_edge`), its outputs written in place; other widths go
through the scratch, a whole tile's work each."""
_edge16, _edge32, _edge48 = (_tile_of(_EDGE, v, NR) for v in (1, 2, 3))


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _edge(
    a: Any, lda: int, b: Any, c: Any, ldc: int, k: int, add: bool, w: int
) -> None:
    """`_tile` on the first `w` (16, 32 or 48) columns of a panel."""
    if w == _EDGE:
        _edge16(a, lda, b, c, ldc, k, add)  # pyright: ignore[reportCallIssue]
    elif w == 2 * _EDGE:
        _edge32(a, lda, b, c, ldc, k, add)  # pyright: ignore[reportCallIssue]
    else:
        _edge48(a, lda, b, c, ldc, k, add)  # pyright: ignore[reportCallIssue]


@njit(types.void(_IN2, _P3, types.intp, types.intp), cache=True, nogil=True)
def pack(w: Any, wp: Any, lo: int, hi: int) -> None:
    """Panels [lo, hi) of w (k, n) into wp (n / NR, k, NR); the padding
    stays as it is (zeros from `packed`)."""
    k, n = w.shape
    across = w.strides[0] < w.strides[1]  # w the transposed view of (n, k)
    for s in range(lo, hi):
        j0 = s * NR
        width = min(NR, n - j0)
        if across:
            for j in range(width):
                for i in range(k):
                    wp[s, i, j] = w[i, j0 + j]
        else:
            for i in range(k):
                for j in range(width):
                    wp[s, i, j] = w[i, j0 + j]


@njit(
    types.void(
        _IN2, _P3, types.intp, _OUT2, _ONE, types.boolean, types.intp, types.intp,
        types.intp, types.intp, _C2, _C2,
    ),
    cache=True, nogil=True, error_model="numpy",
)  # fmt: skip
def gemm(
    a: Any, wp: Any, n: int, c: Any, bias: Any, has_bias: bool, r0: int, r1: int,
    p0: int, p1: int, ta: Any, tc: Any,
) -> None:  # fmt: skip
    """c[r0:r1, columns of panels p0:p1] = a[r0:r1] @ w (+ bias): a's and
    c's columns unit stride, w packed (`pack`), n its columns. The thread's
    scratch: `ta` (MR, k) for the last rows, `tc` (MR, NR) for the tiles off
    the edge."""
    wide_vectors()  # pyright: ignore[reportCallIssue]
    k = a.shape[1]
    lda, ldc = a.strides[0] // 4, c.strides[0] // 4
    step = wp.strides[0]
    whole = min(n // NR, p1)  # panels whose NR columns all lie in c
    last = n - whole * NR  # the columns of the panel after them, if any
    # That panel on a tile of its width, in place (`_edge`).
    narrow = whole < p1 and 0 < last < NR and last % _EDGE == 0
    base_a, base_b, base_c = a.ctypes.data, wp.ctypes.data, c.ctypes.data
    for m0 in range(r0, r1, MC):
        m1 = min(m0 + MC, r1)
        full = m0 + (m1 - m0) // MR * MR  # rows of whole tiles
        for k0 in range(0, k, KC):
            kc = min(KC, k - k0)
            for p in range(p0, whole):
                panel = base_b + p * step + k0 * NR * 4
                for r in range(m0, full, MR):
                    pa = base_a + (r * lda + k0) * 4
                    pc = base_c + (r * ldc + p * NR) * 4
                    _tile(pa, lda, panel, pc, ldc, kc, k0 > 0)  # pyright: ignore[reportCallIssue]
            if narrow:
                panel = base_b + whole * step + k0 * NR * 4
                for r in range(m0, full, MR):
                    pa = base_a + (r * lda + k0) * 4
                    pc = base_c + (r * ldc + whole * NR) * 4
                    _edge(pa, lda, panel, pc, ldc, kc, k0 > 0, last)
        # The tiles off the edge, whole k at once, through `tc`.
        for p in range(max(p0, whole + 1 if narrow else whole), p1):
            panel = base_b + p * step
            width = n - p * NR
            for r in range(m0, full, MR):
                pa = base_a + r * lda * 4
                _tile(pa, lda, panel, tc.ctypes.data, NR, k, False)  # pyright: ignore[reportCallIssue]
                for i in range(MR):
                    for j in range(width):
                        c[r + i, p * NR + j] = tc[i, j]
        if full < m1:
            rows = m1 - full
            ta[:] = _ZERO
            for i in range(rows):
                for j in range(k):
                    ta[i, j] = a[full + i, j]
            for p in range(p0, p1):
                panel = base_b + p * step
                width = min(NR, n - p * NR)
                _tile(ta.ctypes.data, k, panel, tc.ctypes.data, NR, k, False)  # pyright: ignore[reportCallIssue]
                for i in range(rows):
                    for j in range(width):
                        c[full + i, p * NR + j] = tc[i, j]
        if has_bias:  # a vector at a time (`add_run`)
            lo, hi = p0 * NR, min(p1 * NR, n)
            for i in range(m0, m1):
                at = base_c + (i * ldc + lo) * 4
                add_run(at, bias.ctypes.data + lo * 4, hi - lo)  # pyright: ignore[reportCallIssue]


@njit(
    types.void(
        _IN2, _P3, types.intp, _OUT2, _ONE, types.boolean, _SHARES, _P3, _P3,
        types.int64[::1],
    ),
    cache=True, nogil=True, error_model="numpy", parallel=True,
)  # fmt: skip
def gemm_pool(
    a: Any, wp: Any, n: int, c: Any, bias: Any, has_bias: bool, shares: Any,
    ta: Any, tc: Any, state: Any,
) -> None:  # fmt: skip
    """The shares (r0, r1, p0, p1) of `gemm` on numba's threads, one launch
    a step rather than a Python thread woken a share: a thread takes the
    next share (`take`) until none is left; `ta[j]`, `tc[j]` the scratch of
    thread j of at most `len(ta)` (`team`, `review`)."""
    threads = team(state, ta.shape[0])  # pyright: ignore[reportCallIssue]
    for j in prange(threads):
        i = take(state, 0)  # pyright: ignore[reportCallIssue]
        while i < shares.shape[0]:
            r0, r1, p0, p1 = shares[i, 0], shares[i, 1], shares[i, 2], shares[i, 3]
            gemm(a, wp, n, c, bias, has_bias, r0, r1, p0, p1, ta[j], tc[j])
            state[4 + j] += 1
            i = take(state, 0)  # pyright: ignore[reportCallIssue]
    review(state, threads)  # pyright: ignore[reportCallIssue]


@njit(
    types.void(
        _IN2, _P3, _P3, _P3, types.intp[::1], _OUT2, _OUT2, _OUT2, _ONE, _ONE,
        _ONE, types.boolean[::1], _SHARES, _P3, _P3, types.int64[::1],
    ),
    cache=True, nogil=True, error_model="numpy", parallel=True,
)  # fmt: skip
def gemm_pool3(
    a: Any, wp0: Any, wp1: Any, wp2: Any, ns: Any, c0: Any, c1: Any, c2: Any,
    b0: Any, b1: Any, b2: Any, has_bias: Any, shares: Any, ta: Any, tc: Any,
    state: Any,
) -> None:  # fmt: skip
    """Up to three `gemm_pool` steps of one `a` as one launch (`merge`): the
    shares (g, r0, r1, p0, p1) of product g, taken as `gemm_pool` takes
    them, so two waits for the slowest thread fewer."""
    threads = team(state, ta.shape[0])  # pyright: ignore[reportCallIssue]
    for j in prange(threads):
        i = take(state, 0)  # pyright: ignore[reportCallIssue]
        while i < shares.shape[0]:
            g, r0, r1 = shares[i, 0], shares[i, 1], shares[i, 2]
            p0, p1 = shares[i, 3], shares[i, 4]
            wp = wp0 if g == 0 else (wp1 if g == 1 else wp2)
            c = c0 if g == 0 else (c1 if g == 1 else c2)
            b = b0 if g == 0 else (b1 if g == 1 else b2)
            gemm(a, wp, ns[g], c, b, has_bias[g], r0, r1, p0, p1, ta[j], tc[j])
            state[4 + j] += 1
            i = take(state, 0)  # pyright: ignore[reportCallIssue]
    review(state, threads)  # pyright: ignore[reportCallIssue]


def merge(calls: list[partial[None]]) -> list[partial[None]]:
    """Consecutive `gemm_pool` calls (`bind` marks them) as `gemm_pool3`
    calls, three at most, where they read the same `a` and write outputs
    that overlap neither it nor each other: each product's shares as they
    were, so the same bits. 8 x 128 on the seed: q, k, v's projections."""
    merged: list[partial[None]] = []
    run: list[partial[None]] = []
    for call in [*calls, None]:
        if run and (call is None or len(run) == 3 or not _joins(run, call)):
            merged.append(run[0] if len(run) == 1 else _launch(run))
            run = []
        if call is not None:
            run.append(call)
    return merged


def _joins(run: list[partial[None]], call: partial[None]) -> bool:
    """Whether `call` reads `run`'s a, on as many threads, and none of
    them writes what another reads or writes (a bias, an output, a)."""
    a, o, bias, ta = call.args[0], call.args[3], call.args[4], call.args[7]
    first = run[0].args
    return (
        a.__array_interface__ == first[0].__array_interface__
        and ta.shape == first[7].shape
        and not np.may_share_memory(first[3], a)
        and not np.may_share_memory(o, a)
        and not any(
            np.may_share_memory(o, other.args[3])
            or np.may_share_memory(o, other.args[4])
            or np.may_share_memory(bias, other.args[3])
            for other in run
        )
    )


def _launch(run: list[partial[None]]) -> partial[None]:
    """The `gemm_pool3` call of `run` (2 or 3 `gemm_pool` calls)."""
    parts = [call.args for call in run]
    while len(parts) < 3:  # a product no share names
        parts.append(parts[-1])
    shares = np.concatenate(
        [
            np.concatenate([np.full((len(args[6]), 1), g, np.int64), args[6]], 1)
            for g, args in enumerate(parts[: len(run)])
        ]
    )
    a, ta, tc, state = parts[0][0], parts[0][7], parts[0][8], parts[0][9]
    ns = np.array([args[2] for args in parts], np.intp)
    has_bias = np.array([args[5] for args in parts], np.bool_)
    wps = [args[1] for args in parts]
    cs = [args[3] for args in parts]
    bs = [args[4] for args in parts]
    return partial(gemm_pool3, a, *wps, ns, *cs, *bs, has_bias, shares, ta, tc, state)


def packed(w: np.ndarray) -> np.ndarray:
    """w (k, n) float32 in panels of `NR` columns (`pack`), zero-padded."""
    k, n = w.shape
    panels = -(-n // NR)
    wp = np.zeros((panels, k, NR), np.float32)
    pack(readonly(w), wp, 0, panels)
    return wp


def bind(
    x: np.ndarray, wp: np.ndarray, n: int, o: np.ndarray,
    bias: np.ndarray | None, pieces: int, by_columns: bool = False,
    pool: bool = False,
) -> list[partial[None]]:  # fmt: skip
    """The calls of o = x @ w (+ bias) with w packed (`packed`), its rows
    (or its panels, `by_columns`: short and wide, each thread then reads
    only its share of w) cut in `pieces`, a call each, or with `pool` one
    call of them all on numba's threads (`gemm_pool`); x's and o's columns
    of unit stride, their row strides whole floats."""
    rows, k = x.shape
    panels = wp.shape[0]
    units = panels if by_columns else -(-rows // MR)
    threads = max(1, min(pieces, units, MAX_THREADS if pool else pieces))
    # Several shares a thread on numba's: a core that another job slows
    # does less of them (`gemm_pool`).
    pieces = max(1, min(pieces * SHARES if pool else pieces, units))
    cuts = [units * i // pieces for i in range(pieces + 1)]
    b = readonly(
        np.zeros(1, np.float32) if bias is None else np.ascontiguousarray(bias)
    )
    xs = readonly(x)
    shares = np.array(
        [
            (0, rows, lo, hi)
            if by_columns
            else (lo * MR, min(rows, hi * MR), 0, panels)
            for lo, hi in zip(cuts, cuts[1:])
            if hi > lo
        ],
        np.int64,
    ).reshape(-1, 4)
    has_bias = bias is not None
    if pool and threads > 1:
        ta, tc = _scratch(threads, k)
        state = pool_state(threads, WARM)
        call = partial(gemm_pool, xs, wp, n, o, b, has_bias, shares, ta, tc, state)
        call.merge = merge  # pyright: ignore[reportAttributeAccessIssue]
        return [call]
    ta, tc = _scratch(len(shares), k)
    return [
        partial(gemm, xs, wp, n, o, b, has_bias, *share, ta[i], tc[i])
        for i, share in enumerate(shares.tolist())
    ]


def _scratch(count: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """`count` calls' `ta` and `tc` (`gemm`), one under another."""
    return np.empty((count, MR, max(k, 1)), np.float32), np.empty(
        (count, MR, NR), np.float32
    )
