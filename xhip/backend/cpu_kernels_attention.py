"""The float32 fused attention (`hip.fused_attention`) as numba kernels.

numpy's BLAS (OpenBLAS) reaches 120-140 GFLOP/s a core on attention's
GEMMs (K = 64 or N = 64, small), too slow to beat ONNX Runtime's MLAS at
4 x 2048. `_tile` is a GEMM micro-kernel written as LLVM vector IR: a tile
of `MR` x `NR` outputs (6 rows x 4 vectors of 16) held in 24 registers
through the whole K loop, B read from a packed panel, A broadcast: 155-170
GFLOP/s a core on the same shapes with AVX-512 (195 with all in L1). The
kernels call `cpu_kernels_rows.wide_vectors()`: LLVM otherwise splits
512-bit vectors, and vectorizes the exp at 256 bits, on CPUs it tunes for
256-bit ones. On a CPU without AVX-512 LLVM splits them into what it has:
right, but 5x slower than numpy's blocks, which the runtime keeps there
(`cpu_attention.wide_simd`).

`attend` runs blocks of `ROWS` query rows: per chunk of `CHUNK` keys, the
scores (q * scale) @ k into the thread's scratch, + mask, exp unshifted (the
row sums kept beside), then exp @ v added to the block's outputs; divided
by the sums at the end. The exp goes a vector at a time in LLVM IR, and so
do the queries, the outputs and the packing's rows (`cpu_kernels_runs`).
The projections' biases (`hip-fold-attention-bias`) are added there, as
the kernels read q, k and v (`Q_BIAS`, ...): no pass of their own. A block whose row sums leave [low,
high] (an exp overflowed, or underflowed too much, or a NaN) runs again
shifted by its rows' maxima, as `cpu_attention._Attend`; a row whose sum
is still NaN (all keys masked) gets `fill` * sum of v when there is a
`fill`.

`pack` copies k (D, T) and v (T, Dv) of a head into panels of `NR` columns
once per call (their padding zeroed once, by `bind`), so that every tile is
a whole one (a v whose rows are whole panels, Dv = NR floats in a row, is
read in place); a v of Dv up to `NARROW` into panels of Dv rounded up to 8
floats, exp @ v then on tiles as narrow (`_narrow`: at 8 x 64 on GPT-2's
heads of 8, one thread, 300 -> 155 us); k's transposed view (the models'
layout) 16 x 16 floats at a time (`transpose16`); the query rows are
copied, scaled, into a scratch padded to `MR` rows. Few query rows
(`MIN_ROWS`) do not pay for the packing.

Threads: `attend_pool`, one launch on numba's threads (`cpu_host.numba_pool`:
its OpenMP or TBB layer) that packs and then attends, each thread taking
the next share (`take`); elsewhere a call a share on the runtime's Python
threads. With at least as many heads as shares (8 x 128, 8 x 512; one
thread) a share is whole heads, each packed just before its blocks
(`attend_own`): no launch and wait for the packing, and the panels still
in the core's caches. `take`, `team` and `review` serve
`cpu_kernels_gemm.gemm_pool` too.

Cache: keyed on this file, `cpu_kernels_rows` (`exp32`) and
`cpu_kernels_runs`, whose code the kernels compile in (`numba_cache.key_on`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from xhip.backend import (
    cpu_kernels_pool,
    cpu_kernels_rows,
    cpu_kernels_runs,
    numba_cache,
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
from xhip.backend.cpu_kernels_rows import (
    LANES,
    exp32,
    wide_vectors,
)
from xhip.backend.cpu_kernels_runs import (
    ADD_FIRST,
    ADD_LAST,
    DIVIDE,
    exp_run,
    gather_run,
    scale_run,
    transpose16,
)

numba_cache.key_on(
    __file__,
    [cpu_kernels_pool.__file__, cpu_kernels_rows.__file__, cpu_kernels_runs.__file__],
)

MR, NR, _LANE = 6, 64, 16
"""The micro-kernel's tile: rows, columns, floats a vector."""
ROWS = 24
"""Query rows a block (a multiple of `MR`)."""
CHUNK = 1024
"""Keys a chunk (a multiple of `NR`): a block's scores are 96 KiB, in L2
with the chunk's panels of k and v (256 KiB each at D = Dv = 64). Measured
at 1 x 2048 on one thread (CPU time, best of 20): 24 x 1024 8.4-8.9 ms,
6 x 2048 8.6-8.9, 96 x 256 8.6-9.6, 96 x 128 9.2-9.7, 96 x 64 10.0."""
MIN_ROWS = 64
"""Fewest query rows the kernels take: with fewer, packing k and v costs
more than it saves (two threads, against numpy's blocks: 1 x 32 heads x 1
x 4096 keys 1.85x slower, 1 x 12 x 8 x 2048 2.7x, 1 x 12 x 32 x 2048
1.09x, 4 x 1 x 64 x 2048 0.75x)."""
MAX_HEAD = 128
"""Largest D and Dv the kernels take (larger: numpy's blocks)."""
SHARED, OWN, COPIES = 0, 1, 2
"""`attend_pool`'s ways to pack k and v: every head once, in a launch before
the blocks; a share's own heads; one head, a copy a thread: one launch
and no wait on one thread's packing (the seed's attention at 1 x 128, two
threads, best of 5 x 1000 calls in one process, 3 processes: SHARED
35.3-37.2 us a call, COPIES 31.1-34.3)."""

_F = np.float32
_IN4 = types.Array(types.float32, 4, "A", readonly=True)
_MASK = types.Array(types.float32, 4, "C", readonly=True)
_ONE = types.Array(types.float32, 1, "A", readonly=True)
_C4, _C2 = types.float32[:, :, :, ::1], types.float32[:, ::1]
_C3 = types.float32[:, :, ::1]
"""The kernels' operand types, given so that each compiles once, when this
module is imported: every view as "A" (read-only: numpy's broadcast views
are), the mask "C" (its rows vectorize), scratch and panels "C"."""
_ZERO, _UNIT, _NEG = _F(0.0), _F(1.0), _F(-np.inf)


def _tile_of(lanes: int, vectors: int, ldb: int = 0) -> Any:
    """The micro-kernel of `MR` rows by `vectors` vectors of `lanes` floats
    (`_tile`: 16 x 4, `NR` columns; `NARROW`'s: 8 x 1 to 4), b's rows `ldb`
    floats apart (0: as wide as the tile)."""
    width = ldb or lanes * vectors

    def tile(
        typingctx: Any, a: Any, lda: Any, b: Any, c: Any, ldc: Any, k: Any, add: Any
    ) -> Any:
        sig = types.void(
            types.intp, types.intp, types.intp, types.intp, types.intp, types.intp,
            types.boolean,
        )  # fmt: skip

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            pa, lda, pb, pc, ldc, k, add = args
            f32 = ir.FloatType()
            vec = ir.VectorType(f32, lanes)
            fptr, vptr = f32.as_pointer(), vec.as_pointer()
            pa, pb, pc = (builder.inttoptr(x, fptr) for x in (pa, pb, pc))
            fma = cgutils.get_or_insert_function(
                builder.module,
                ir.FunctionType(vec, [vec] * 3),
                f"llvm.fmuladd.v{lanes}f32",
            )
            intp = lda.type
            slots: list[tuple[Any, Any]] = []
            for r in range(MR):
                row = builder.gep(pc, [builder.mul(intp(r), ldc)])
                for v in range(vectors):
                    slot = cgutils.alloca_once(builder, vec)  # a register after SROA
                    at = builder.bitcast(builder.gep(row, [intp(v * lanes)]), vptr)
                    start = builder.select(add, builder.load(at, align=4), vec(None))
                    builder.store(start, slot)
                    slots.append((slot, at))
            undef = ir.Constant(vec, ir.Undefined)
            splat = ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes)
            with cgutils.for_range(builder, k) as loop:
                p = loop.index
                brow = builder.gep(pb, [builder.mul(p, intp(width))])
                bs = [
                    builder.load(
                        builder.bitcast(builder.gep(brow, [intp(v * lanes)]), vptr),
                        align=4,
                    )
                    for v in range(vectors)
                ]
                for r in range(MR):
                    x = builder.load(
                        builder.gep(pa, [builder.add(builder.mul(intp(r), lda), p)])
                    )
                    xs = builder.insert_element(undef, x, ir.IntType(32)(0))
                    xs = builder.shuffle_vector(xs, undef, splat)
                    for v in range(vectors):
                        slot = slots[r * vectors + v][0]
                        builder.store(
                            builder.call(fma, [xs, bs[v], builder.load(slot)]), slot
                        )
            for slot, at in slots:
                builder.store(builder.load(slot), at, align=4)
            return context.get_dummy_value()

        return sig, codegen

    tile.__name__ = tile.__qualname__ = f"_tile_{lanes}x{vectors}_{width}"
    return intrinsic(tile)


_tile = _tile_of(_LANE, NR // _LANE)
"""c[MR, NR] (+)= a[MR, k] @ b[k, NR]: float32 addresses, a's and c's row
strides in elements, b a packed panel (rows of NR); c added to when `add`,
else overwritten. The calling kernel calls `wide_vectors()`, or LLVM may
split the 512-bit vectors."""
_NARROW_LANE = 8
NARROW = 4 * _NARROW_LANE
"""Widest Dv whose exp @ v runs on a narrow tile (`_narrow`): v in panels
of Dv rounded up to 8 floats, not `NR`. At Dv = 8 (GPT-2's small heads) a
64-column panel made 8 times the multiply-adds of the product."""
_tile8, _tile16, _tile24, _tile32 = (_tile_of(_NARROW_LANE, m) for m in range(1, 5))


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _narrow(
    a: Any, lda: int, b: Any, c: Any, ldc: int, k: int, add: bool, w: int
) -> None:
    """`_tile` on a panel of `w` columns (8, 16, 24 or 32)."""
    if w == 8:
        _tile8(a, lda, b, c, ldc, k, add)  # pyright: ignore[reportCallIssue]
    elif w == 16:
        _tile16(a, lda, b, c, ldc, k, add)  # pyright: ignore[reportCallIssue]
    elif w == 24:
        _tile24(a, lda, b, c, ldc, k, add)  # pyright: ignore[reportCallIssue]
    else:
        _tile32(a, lda, b, c, ldc, k, add)  # pyright: ignore[reportCallIssue]


Q_BIAS, K_BIAS, V_BIAS, OUT_BIAS = 1, 2, 4, 8
"""`biased`'s bits: q's bias added as the queries are copied, k's and v's as
they are packed, or v's to the outputs instead (`OUT_BIAS`: v's bias the
same for every key, so P @ (v + b) = P @ v + b, P's rows summing to 1
after the softmax's division)."""


@njit(
    types.void(_IN4, _IN4, _IN4, _IN4, types.intp, _C4, _C4, types.intp, types.intp),
    cache=True, nogil=True,
)  # fmt: skip
def pack(
    k: Any, v: Any, kb: Any, vb: Any, biased: int, kp: Any, vp: Any, lo: int,
    hi: int,
) -> None:  # fmt: skip
    """Heads [lo, hi) (flat over k's two batch dims) of k (D, T) + kb into
    kp (T / NR, D, NR) and of v (T, Dv) (+ vb with `V_BIAS`) into vp
    (Dv / NR, T, NR), v not where vp has no rows (`bind`'s `direct`); their
    padding stays as it is (zeros from `bind`). kb and vb are broadcast to
    k and v; kb the same along T (the projections' bias) is added in the
    copy, else after it."""
    wide_vectors()  # pyright: ignore[reportCallIssue]
    heads = k.shape[1]
    d, t = k.shape[2], k.shape[3]
    width = v.shape[3]
    k_bias, v_bias = biased & K_BIAS != 0, biased & V_BIAS != 0
    per_row = k_bias and kb.strides[3] == 0  # one bias a row of k (D, T)
    # k's transposed view, D floats in a row: 16 x 16 blocks (`transpose16`),
    # its bias (if any) one a row of k, a vector of 16 along D.
    square = k.strides[2] == 4 and (not k_bias or per_row and kb.strides[2] == 4)
    for u in range(lo, hi):
        b, h = u // heads, u % heads
        across = k.strides[3] > k.strides[2]  # k the transposed view of (T, D)
        for s in range(kp.shape[1]):
            j0 = s * NR
            n = min(NR, t - j0)
            if across:  # k's rows in memory: transposed, or gathered along them
                at = k.ctypes.data + b * k.strides[0] + h * k.strides[1]
                at += j0 * k.strides[3]
                to = kp.ctypes.data + (u * kp.shape[1] + s) * kp.strides[1]
                step = k.strides[3]
                blocks = d // _LANE if square else 0
                for i0 in range(0, blocks * _LANE, _LANE):
                    src = at + i0 * 4
                    add = kb.ctypes.data + b * kb.strides[0] + h * kb.strides[1]
                    add += i0 * kb.strides[2]
                    for j in range(0, n - n % _LANE, _LANE):
                        dst = to + (i0 * NR + j) * 4
                        transpose16(src + j * step, step, dst, NR * 4, add, k_bias)  # pyright: ignore[reportCallIssue]
                    for i in range(i0, i0 + _LANE):  # the keys off the blocks
                        plus = kb[b, h, i, 0] if k_bias else _ZERO
                        for j in range(n - n % _LANE, n):
                            kp[u, s, i, j] = k[b, h, i, j0 + j] + plus
                for i in range(blocks * _LANE, d):
                    plus = kb[b, h, i, 0] if per_row else _ZERO
                    src = at + i * k.strides[2]
                    gather_run(src, step, to + i * NR * 4, n, plus)  # pyright: ignore[reportCallIssue]
            elif k.strides[3] == 4:  # rows of floats: copied a vector at a time
                at = k.ctypes.data + b * k.strides[0] + h * k.strides[1] + j0 * 4
                to = kp.ctypes.data + (u * kp.shape[1] + s) * kp.strides[1]
                for i in range(d):
                    plus = kb[b, h, i, 0] if per_row else _ZERO
                    src = at + i * k.strides[2]
                    scale_run(src, to + i * NR * 4, n, _UNIT, plus, 0, 0)  # pyright: ignore[reportCallIssue]
            else:
                for i in range(d):
                    plus = kb[b, h, i, 0] if per_row else _ZERO
                    for j in range(n):
                        kp[u, s, i, j] = k[b, h, i, j0 + j] + plus
            if k_bias and not per_row:
                for i in range(d):
                    for j in range(n):
                        kp[u, s, i, j] += kb[b, h, i, j0 + j]
        wide = vp.shape[3]  # NR, or Dv rounded up to 8 (`NARROW`)
        for s in range(vp.shape[1] if vp.shape[2] > 0 else 0):  # not `direct`
            c0 = s * wide
            n = min(wide, width - c0)
            if v.strides[3] == 4:
                at = v.ctypes.data + b * v.strides[0] + h * v.strides[1] + c0 * 4
                to = vp.ctypes.data + (u * vp.shape[1] + s) * vp.strides[1]
                for j in range(t):
                    src = at + j * v.strides[2]
                    scale_run(src, to + j * wide * 4, n, _UNIT, _ZERO, 0, 0)  # pyright: ignore[reportCallIssue]
            else:
                for j in range(t):
                    for c in range(n):
                        vp[u, s, j, c] = v[b, h, j, c0 + c]
            if v_bias:
                for j in range(t):
                    for c in range(n):
                        vp[u, s, j, c] += vb[b, h, j, c0 + c]


@njit(cache=True, nogil=True, error_model="numpy", fastmath={"contract"})
def _exp_row(
    s: Any, i: int, mask: Any, has_mask: bool, c0: int, n: int, width: int,
    shift: Any,
) -> Any:  # fmt: skip
    """s[i, :n] = exp(s[i, :n] + mask[c0:c0 + n] - shift), zero from n to
    `width`; the sum of the row."""
    wide_vectors()  # pyright: ignore[reportCallIssue]
    whole = n - n % LANES
    at = s.ctypes.data + i * s.shape[1] * 4
    total = exp_run(at, mask.ctypes.data + c0 * 4, has_mask, whole, shift)  # pyright: ignore[reportCallIssue]
    for j in range(whole, n):
        x = s[i, j] + mask[c0 + j] if has_mask else s[i, j]
        e = exp32(x - shift)
        s[i, j] = e
        total += e
    for j in range(n, width):
        s[i, j] = _ZERO
    return total


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _scores(qs: Any, keys: int, step: int, tiles: int, s: Any, cols: int) -> None:
    """s[:tiles * MR, :cols] = qs @ the `cols` keys whose first panel is at
    address `keys`, `step` bytes a panel."""
    d = qs.shape[1]
    row, at = s.shape[1], s.ctypes.data
    for p in range(cols // NR):
        panel = keys + p * step
        for r in range(tiles):
            a = qs.ctypes.data + r * MR * d * 4
            c = at + (r * MR * row + p * NR) * 4
            _tile(a, d, panel, c, row, d, False)  # pyright: ignore[reportCallIssue]


@njit(
    types.void(
        _IN4, _C4, _C4, _IN4, _IN4, _IN4, types.intp, _MASK, types.boolean,
        types.intp, _ONE, types.boolean, _ONE, types.boolean,
        types.Array(types.float32, 4, "A"), types.int64[:, ::1], types.float32,
        types.float32, _C2, _C2, _C2,
    ),
    cache=True, nogil=True, error_model="numpy",
)  # fmt: skip
def attend(
    q: Any, kp: Any, vp: Any, v: Any, qb: Any, vb: Any, biased: int, mask: Any,
    has_mask: bool, t: int, scale: Any, divide: bool, fill: Any,
    has_fill: bool, out: Any, units: Any, low: Any, high: Any, qs: Any, s: Any,
    acc: Any,
) -> None:  # fmt: skip
    """The blocks `units` (rows of (head, first row, end row), heads flat
    over q's two batch dims) of softmax((q + qb) * scale (or / scale when
    `divide`) @ k + mask) @ (v + vb) into `out`; v's panels `vp` (vb in
    them with `V_BIAS`), or v itself where `vp` has no rows (`direct`);
    qb with `Q_BIAS`, vb to the outputs with `OUT_BIAS`. The thread's
    scratch: `qs` (rows a block, D), `s` (rows, keys a chunk), `acc` (rows,
    Dv padded to its panels' width)."""
    wide_vectors()  # pyright: ignore[reportCallIssue]
    heads = q.shape[1]
    d, width = q.shape[3], out.shape[3]
    strips, wide = vp.shape[1], vp.shape[3]  # v's panels: NR, or `NARROW`
    padded = kp.shape[1] * NR
    chunk = s.shape[1]
    f = scale[0]
    sums = np.empty(qs.shape[0], np.float32)
    peaks = np.empty(qs.shape[0], np.float32)
    row, ld = s.shape[1], acc.shape[1]
    q_bias, v_bias = biased & Q_BIAS != 0, biased & (V_BIAS | OUT_BIAS) != 0
    late = biased & OUT_BIAS != 0
    rows_in_place = q.strides[3] == 4 and (not q_bias or qb.strides[3] == 4)
    q_mode = (ADD_FIRST if q_bias else 0) | (DIVIDE if divide else 0)
    out_mode = ADD_LAST if late else 0
    for w in range(units.shape[0]):
        u, r0, r1 = units[w, 0], units[w, 1], units[w, 2]
        b, h = u // heads, u % heads
        rows = r1 - r0
        tiles = -(-rows // MR)
        keys = kp.ctypes.data + u * kp.strides[0]
        values = vp.ctypes.data + u * vp.strides[0]
        if vp.shape[2] == 0:  # v's rows are its panel (`direct`)
            values = v.ctypes.data + b * v.strides[0] + h * v.strides[1]
        mb, mh = b % mask.shape[0], h % mask.shape[1]
        qs[rows:] = _ZERO
        if rows_in_place:  # a vector at a time
            for i in range(rows):
                at = q.ctypes.data + b * q.strides[0] + h * q.strides[1]
                at += (r0 + i) * q.strides[2]
                add = qb.ctypes.data + b * qb.strides[0] + h * qb.strides[1]
                add += (r0 + i) * qb.strides[2]
                to = qs.ctypes.data + i * d * 4
                scale_run(at, to, d, f, _ZERO, add, q_mode)  # pyright: ignore[reportCallIssue]
        else:
            for i in range(rows):
                for j in range(d):
                    x = q[b, h, r0 + i, j]
                    if q_bias:
                        x += qb[b, h, r0 + i, j]
                    qs[i, j] = x / f if divide else x * f
        for shifted in range(2):
            sums[:] = _ZERO
            for c0 in range(0, padded, chunk):
                cols = min(chunk, padded - c0)
                _scores(
                    qs, keys + c0 // NR * kp.strides[1], kp.strides[1], tiles, s, cols
                )
                n = min(cols, t - c0)
                for i in range(tiles * MR):
                    if i < rows:
                        line = mask[mb, mh, (r0 + i) % mask.shape[2]]
                        shift = peaks[i] if shifted else _ZERO
                        sums[i] += _exp_row(s, i, line, has_mask, c0, n, cols, shift)
                    else:
                        s[i, :] = _ZERO
                for p in range(strips):  # the keys up to t: s is 0 after them
                    panel = values + p * vp.strides[1] + c0 * wide * 4
                    for r in range(tiles):
                        a = s.ctypes.data + r * MR * row * 4
                        c = acc.ctypes.data + (r * MR * ld + p * wide) * 4
                        if wide == NR:
                            _tile(a, row, panel, c, ld, n, c0 > 0)  # pyright: ignore[reportCallIssue]
                        else:
                            _narrow(a, row, panel, c, ld, n, c0 > 0, wide)
            fine = True
            for i in range(rows):
                fine = fine and sums[i] >= low and sums[i] <= high
            if fine or shifted:
                break
            # Again, shifted by each row's max (NaN skipped; -inf for a
            # row of all -inf, whose exp is then NaN: `fill`).
            peaks[:] = _NEG
            for c0 in range(0, padded, chunk):
                cols = min(chunk, padded - c0)
                _scores(
                    qs, keys + c0 // NR * kp.strides[1], kp.strides[1], tiles, s, cols
                )
                n = min(cols, t - c0)
                for i in range(rows):
                    line = mask[mb, mh, (r0 + i) % mask.shape[2]]
                    top = peaks[i]
                    for j in range(n):
                        x = s[i, j] + line[c0 + j] if has_mask else s[i, j]
                        top = x if x > top else top
                    peaks[i] = top
        for i in range(rows):
            total = sums[i]
            if has_fill and total != total:
                for c in range(width):
                    column = _ZERO
                    for j in range(t):
                        column += v[b, h, j, c]
                        if v_bias:
                            column += vb[b, h, j, c]
                    out[b, h, r0 + i, c] = fill[0] * column
            else:  # times the reciprocal: a division each costs 7% at 1 x 128
                inverse = _F(1.0) / total
                if out.strides[3] == 4 and (not late or vb.strides[3] == 4):
                    to = out.ctypes.data + b * out.strides[0] + h * out.strides[1]
                    to += (r0 + i) * out.strides[2]
                    add = vb.ctypes.data + b * vb.strides[0] + h * vb.strides[1]
                    row_i = acc.ctypes.data + i * ld * 4
                    scale_run(row_i, to, width, inverse, _ZERO, add, out_mode)  # pyright: ignore[reportCallIssue]
                else:
                    for c in range(width):
                        x = acc[i, c] * inverse
                        out[b, h, r0 + i, c] = x + vb[b, h, 0, c] if late else x


@njit(
    types.void(
        _IN4, _IN4, _C4, _C4, _IN4, _IN4, _IN4, _IN4, types.intp, _MASK,
        types.boolean, types.intp, _ONE, types.boolean, _ONE, types.boolean,
        types.Array(types.float32, 4, "A"), types.int64[:, ::1], types.float32,
        types.float32, _C2, _C2, _C2,
    ),
    cache=True, nogil=True, error_model="numpy",
)  # fmt: skip
def attend_own(
    k: Any, v: Any, kp: Any, vp: Any, q: Any, qb: Any, kb: Any, vb: Any,
    biased: int, mask: Any, has_mask: bool, t: int, scale: Any, divide: bool,
    fill: Any, has_fill: bool, out: Any, units: Any, low: Any, high: Any,
    qs: Any, s: Any, acc: Any,
) -> None:  # fmt: skip
    """`attend` of `units`, whole heads, each head packed (`pack`) just
    before its blocks: its panels still in this core's caches, and no
    wait for all heads' packing."""
    first = 0
    while first < units.shape[0]:
        u = units[first, 0]
        end = first
        while end < units.shape[0] and units[end, 0] == u:
            end += 1
        pack(k, v, kb, vb, biased, kp, vp, u, u + 1)
        attend(
            q, kp, vp, v, qb, vb, biased, mask, has_mask, t, scale, divide, fill,
            has_fill, out, units[first:end], low, high, qs, s, acc,
        )  # fmt: skip
        first = end


@njit(
    types.void(
        _IN4, _IN4, _C4, _C4, _IN4, _IN4, _IN4, _IN4, types.intp, _MASK,
        types.boolean, types.intp, _ONE, types.boolean, _ONE, types.boolean,
        types.Array(types.float32, 4, "A"), types.int64[:, ::1], types.int64[::1],
        types.float32, types.float32, _C3, _C3, _C3, types.int64[::1],
        types.intp,
    ),
    cache=True, nogil=True, error_model="numpy", parallel=True,
)  # fmt: skip
def attend_pool(
    k: Any, v: Any, kp: Any, vp: Any, q: Any, qb: Any, kb: Any, vb: Any,
    biased: int, mask: Any, has_mask: bool, t: int, scale: Any, divide: bool,
    fill: Any, has_fill: bool, out: Any, units: Any, cuts: Any, low: Any,
    high: Any, qs: Any, s: Any, acc: Any, state: Any, mode: int,
) -> None:  # fmt: skip
    """`pack` of every head, then `attend` of the units [cuts[i],
    cuts[i + 1]) for each share i, on numba's threads, one launch each: a
    thread takes the next head or share (`take`) until none is left, so that
    one that the machine holds back does less of them (a static split waits
    for it); `qs[j]`, `s[j]`, `acc[j]` the scratch of thread j of at most
    `len(qs)` (`team`, `review`). `mode` `OWN` (shares of whole heads): a
    share packs its own heads (`attend_own`); `COPIES` (one head): each
    thread packs it into panels of its own, `kp[j]` and `vp[j]`, then takes
    shares of its rows. Either is one launch, with no wait for another
    thread's packing."""
    threads = team(state, qs.shape[0])  # pyright: ignore[reportCallIssue]
    heads, shares = kp.shape[0], cuts.shape[0] - 1
    if mode == SHARED:  # a launch of its own: every head packed before any block
        for _ in prange(threads):
            u = take(state, 0)  # pyright: ignore[reportCallIssue]
            while u < heads:
                pack(k, v, kb, vb, biased, kp, vp, u, u + 1)
                u = take(state, 0)  # pyright: ignore[reportCallIssue]
    for j in prange(threads):
        if mode == COPIES:
            pack(k, v, kb, vb, biased, kp[j : j + 1], vp[j : j + 1], 0, 1)
        i = take(state, 1)  # pyright: ignore[reportCallIssue]
        while i < shares:
            if mode == OWN:
                attend_own(
                    k, v, kp, vp, q, qb, kb, vb, biased, mask, has_mask, t, scale,
                    divide, fill, has_fill, out, units[cuts[i] : cuts[i + 1]], low,
                    high, qs[j], s[j], acc[j],
                )  # fmt: skip
            elif mode == COPIES:
                attend(
                    q, kp[j : j + 1], vp[j : j + 1], v, qb, vb, biased, mask,
                    has_mask, t, scale, divide, fill, has_fill, out,
                    units[cuts[i] : cuts[i + 1]], low, high, qs[j], s[j], acc[j],
                )  # fmt: skip
            else:
                attend(
                    q, kp, vp, v, qb, vb, biased, mask, has_mask, t, scale, divide,
                    fill, has_fill, out, units[cuts[i] : cuts[i + 1]], low, high,
                    qs[j], s[j], acc[j],
                )  # fmt: skip
            state[4 + j] += 1
            i = take(state, 1)  # pyright: ignore[reportCallIssue]
    review(state, threads)  # pyright: ignore[reportCallIssue]


def readonly(x: np.ndarray) -> np.ndarray:
    """A read-only view of `x`: the type the kernels are compiled for."""
    view = x.view()
    view.flags.writeable = False
    return view


def _two_batch(x: np.ndarray) -> np.ndarray | None:
    """`x` (..., m, n) as a view with exactly two batch dims; None where the
    batch dims do not merge without a copy."""
    if x.ndim < 4:
        return x.reshape((1,) * (4 - x.ndim) + x.shape)
    try:
        return np.reshape(x, (-1, *x.shape[-3:]), copy=False)
    except ValueError:
        return None


def bind(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
    out: np.ndarray, scale: np.ndarray | None, divide: bool,
    fill: np.ndarray | None, threads: int, low: float, high: float,
    rows: int = ROWS, chunk: int = CHUNK, pool: bool = False,
    biases: tuple[np.ndarray | None, ...] = (None, None, None),
) -> list[list[partial[None]]] | None:  # fmt: skip
    """The calls of one fused attention, float32 operands broadcast to
    out's batch dims, in phases whose calls may run at once: the packing (a
    call a thread) and the blocks (a few calls a thread), or one phase of
    shares of whole heads that pack their own (`attend_own`) where there are
    as many heads, or with `pool` (and threads) one call of it all on
    numba's threads (`attend_pool`); `biases` q's, k's and v's (or None),
    each broadcastable to its operand, added as the kernels read them;
    None where the kernels do not take it (D or Dv over `MAX_HEAD`, fewer
    than `MIN_ROWS` query rows, batch dims that do not merge, a mask not
    contiguous along the keys)."""
    d, width, t = q.shape[-1], v.shape[-1], k.shape[-1]
    if d > MAX_HEAD or width > MAX_HEAD or t == 0 or q.shape[-2] < MIN_ROWS:
        return None
    views = [_two_batch(x) for x in (readonly(q), readonly(k), readonly(v), out)]
    m4 = None if mask is None else _two_batch(mask)
    if any(x is None for x in views) or (mask is not None and m4 is None):
        return None
    zero = readonly(np.zeros((1, 1, 1, 1), np.float32))
    added = [
        zero if x is None else _two_batch(readonly(np.broadcast_to(x, of.shape)))
        for x, of in zip(biases, (q, k, v))
    ]
    qb, kb, vb = (zero if x is None else x for x in added)
    if any(x is None for x in added):
        return None
    # v's bias the same for every key: added to the outputs (`OUT_BIAS`).
    late = biases[2] is not None and (vb.strides[2] == 0 or t == 1)
    biased = sum(
        bit
        for bit, given in (
            (Q_BIAS, biases[0] is not None),
            (K_BIAS, biases[1] is not None),
            (OUT_BIAS, late),
            (V_BIAS, biases[2] is not None and not late),
        )
        if given
    )
    if m4 is not None:  # the mask as stored: its broadcast dims of size 1
        m4 = m4[tuple(slice(0, 1) if st == 0 else slice(None) for st in m4.strides)]
        if m4.shape[-1] != t or not m4.flags.c_contiguous:
            return None
        m4 = readonly(m4)
    q4, k4, v4, o4 = (x for x in views if x is not None)
    b, h, s = o4.shape[:3]
    heads = b * h
    panels = -(-t // NR)
    kp = np.zeros((heads, panels, d, NR), np.float32)
    # v's panels: NR columns, or Dv's rounded up to 8 up to `NARROW`.
    wide = NR if width > NARROW else -(-width // _NARROW_LANE) * _NARROW_LANE
    # `direct`: v's rows (Dv = `wide` floats, in a row) are a whole panel
    # already (read in place with other strides, the GEMM's B rows 1 KiB
    # apart at 8 x 128 cost what the packing saved).
    direct = width == wide and v4.strides[2:] == (wide * 4, 4) and not biased & V_BIAS
    vp = np.zeros(
        (heads, -(-width // wide), 0 if direct else panels * NR, wide), np.float32
    )
    m = zero if m4 is None else m4
    f = readonly(np.ones(1, np.float32) if scale is None else scale.reshape(1))
    fills = readonly(np.zeros(1, np.float32) if fill is None else fill.reshape(1))
    units = np.array(
        [(u, r, min(r + rows, s)) for u in range(heads) for r in range(0, s, rows)],
        np.int64,
    ).reshape(-1, 3)
    lo, hi = np.float32(low), np.float32(high)
    # Several blocks of units a thread, each taken by the first thread free
    # (`cpu_host._Share`, `attend_pool`): a core that another job slows does
    # less of them.
    count = min(threads * SHARES if threads > 1 else 1, len(units))
    # As many heads as shares: shares of whole heads, each packing its own.
    own = heads >= count
    if own:
        count = min(count, heads)
        cuts = np.array([heads * i // count for i in range(count + 1)], np.int64)
        cuts *= -(-s // rows)  # units a head
    else:
        cuts = np.array([len(units) * i // count for i in range(count + 1)], np.int64)
    given = (m, mask is not None, t, f, divide, fills, fill is not None, o4)
    if pool and threads > 1:
        workers = min(threads, count, MAX_THREADS)
        mode = OWN if own else COPIES if heads == 1 else SHARED
        if mode == COPIES:  # a thread's own panels
            kp = np.zeros((workers, *kp.shape[1:]), np.float32)
            vp = np.zeros((workers, *vp.shape[1:]), np.float32)
        call = partial(
            attend_pool, k4, v4, kp, vp, q4, qb, kb, vb, biased, *given, units,
            cuts, lo, hi,
            *_scratch(workers, rows, d, chunk, panels, vp.shape[1] * wide),
            pool_state(workers, WARM), mode,
        )  # fmt: skip
        return [[call]]
    scratch = _scratch(count, rows, d, chunk, panels, vp.shape[1] * wide)
    if own:
        return [
            [
                partial(
                    attend_own,
                    k4,
                    v4,
                    kp,
                    vp,
                    q4,
                    qb,
                    kb,
                    vb,
                    biased,
                    *given,
                    units[cuts[i] : cuts[i + 1]],
                    lo,
                    hi,
                    *(x[i] for x in scratch),
                )  # fmt: skip
                for i in range(count)
            ]
        ]
    packers = min(threads, heads)
    packs = [
        partial(
            pack,
            k4,
            v4,
            kb,
            vb,
            biased,
            kp,
            vp,
            heads * i // packers,
            heads * (i + 1) // packers,
        )  # fmt: skip
        for i in range(packers)
    ]
    blocks = [
        partial(
            attend,
            q4,
            kp,
            vp,
            v4,
            qb,
            vb,
            biased,
            *given,
            units[cuts[i] : cuts[i + 1]],
            lo,
            hi,
            *(x[i] for x in scratch),
        )  # fmt: skip
        for i in range(count)
    ]
    return [packs, blocks]


def _scratch(
    count: int, rows: int, d: int, chunk: int, panels: int, columns: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`count` calls' `qs`, `s` and `acc` (`attend`; `columns` v's panels'),
    one under another."""
    return (
        np.empty((count, rows, d), np.float32),
        np.empty((count, rows, min(chunk, panels * NR)), np.float32),
        np.empty((count, rows, columns), np.float32),
    )
