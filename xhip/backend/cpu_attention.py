"""The CPU runtime's attention pieces: `hip.attention_softmax` and
`hip.rotary_embedding` (the matmuls around them are `matmul`).

`CpuAttention` is mixed into `CpuRuntime` (cpu.py). Whole-array numpy, no
Python loop per row. The attention softmax computes in its element type, as
ONNX's `softmax_precision` says by default, float16 in float32 when `wide`;
the rotary embedding and the fused attention compute float16 in float32
and round once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from xhip.backend.cpu_host import (
    PARALLEL_MIN_ELEMENTS,
    CpuHost,
    nothing,
    numba_pool,
    run_all,
    wide_simd,
)
from xhip.backend.runtime import DA, OptDA
from xhip.dialects.hip import (
    AttentionAttributes,
    FusedAttentionAttributes,
    RotaryAttributes,
)

FUSED_BLOCK_BYTES = 1 << 19
"""Scores per block of `hip.fused_attention`: query rows times a chunk of keys
that stays in L2 from its first GEMM through the exp to its second (measured
at 4 x 2048 on one thread: 128 KiB 97 ms, 512 KiB 71 ms, 1 MiB 69 ms with
whole rows, the GEMMs' M too small below)."""
KEY_CHUNK = 512
"""Most keys a block's scores take at once: with more, fewer rows fit in
`FUSED_BLOCK_BYTES`, and each GEMM packs its shared operand (k, [v | 1]) for
fewer rows (4 x 2048, one thread: whole rows, 64 at a time, 15 ms a head;
256 rows x 512 keys, 11-12 ms)."""
KERNEL_MIN_SCORES = 1 << 14
"""Fewest scores (query rows times keys, all heads) that the numba kernels
take, on one thread below `PARALLEL_MIN_ELEMENTS`: at 1 x 128 x 128 (the
seed's attention) 46 us against numpy's blocks' 56-60 (thread time)."""
SMALL_ROWS, SMALL_WIDE_ROWS, SMALL_HEAD_WORK = 4, 16, 3 << 17
"""Query rows a head, and S * T * (D + Dv) a head, that the small kernel
(`cpu_kernels_small_attention`, a row at a time) takes (`_small`): where it
was measured faster than numpy's blocks (one thread, thread time, best of
15, load 3.5 on 2 cores). Each row reads all of k and v, which numpy's
GEMMs share between rows: with AVX-512 (D 64, k the transposed view) one
row 0.06x numpy's time at 1 key, 0.15-0.35x at 128 to 2048; 16 rows 0.26x
at 16 keys, 0.87-0.88x at 512 x 4 heads and 2048 x 1; 48 x 48 0.62x, 32
rows x 128 keys x 4 heads (S * T * (D + Dv) 2 ** 19) 0.90x, 64 x 64 0.97x.
Without it (`NUMBA_CPU_NAME=generic`: numba's masked 16-lane vectors are
slow there) 4 rows x 128 keys 0.97x, 8 rows 1.44x: up to 4 rows."""
POOL_MIN_SCORES = 1 << 14
"""From this many scores the numba kernels run threaded on numba's pool
(`numba_pool`: one launch, where our Python threads' hand-off costs more
than the seed's 1 x 128 attention saves); with our threads from
`PARALLEL_MIN_ELEMENTS`. Measured with `cpu_host.POOL_GEMM_MIN_MACS`."""
SUM_MIN, SUM_MAX = 1e-20, 1e30
"""Row sums of unshifted exp that need no max shift: no term overflowed, and
what underflowed is below 2048 * 1.2e-38 / 1e-20 of the sum."""


def _small(out: tuple[int, ...], d: int, t: int) -> bool:
    """Whether `cpu_kernels_small_attention` takes a float32 fused attention
    of outputs `out` (..., S, Dv), D, over `t` keys: one thread, below
    `PARALLEL_MIN_ELEMENTS` scores; up to `SMALL_ROWS` query rows a head,
    and with AVX-512 (`wide_simd`) up to `SMALL_WIDE_ROWS` or
    `SMALL_HEAD_WORK` (as `SMALL_ROWS` says)."""
    s, dv = out[-2], out[-1]
    if math.prod(out[:-1]) * t >= PARALLEL_MIN_ELEMENTS:
        return False
    if s <= SMALL_ROWS:
        return True
    return wide_simd() and (s <= SMALL_WIDE_ROWS or s * t * (d + dv) <= SMALL_HEAD_WORK)


def _same_rows(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether `a` and `b` are the same elements, row for row."""
    return (
        a.shape == b.shape
        and a.ctypes.data == b.ctypes.data
        and all(x == y or n == 1 for x, y, n in zip(a.strides, b.strides, a.shape))
    )


def _work(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def attention_bias(
    shape: tuple[int, ...],
    dtype: np.dtype[Any],
    past: int,
    mask: np.ndarray | None,
    nonpad: np.ndarray | None,
    causal: bool,
    left_window: int,
    right_window: int,
) -> np.ndarray | None:
    """The additive bias of scores of `shape` (B, H, S, T), broadcastable to
    it; None where there is none."""
    _, _, s, t = shape
    bias: np.ndarray | None = None
    if mask is not None:
        given: np.ndarray = (
            np.where(mask, dtype.type(0), dtype.type(-np.inf))
            if mask.dtype == np.bool_
            else mask.astype(dtype)
        )
        pad = t - given.shape[-1]
        if pad > 0:
            widths = [(0, 0)] * (given.ndim - 1) + [(0, pad)]
            given = np.pad(given, widths, constant_values=-np.inf)
        bias = given
    windowed = left_window >= 0 or right_window >= 0
    if not (causal or windowed or nonpad is not None):
        return bias
    i = np.arange(s).reshape(s, 1)
    j = np.arange(t).reshape(1, t)
    lengths: Any = t
    offset: Any = past
    if nonpad is not None:
        lengths = nonpad.astype(np.int64).reshape(-1, 1, 1, 1)
        offset = lengths - s
    diff = i + offset - j  # query position minus key position
    allowed = np.ones(np.shape(diff), np.bool_)
    if causal:
        allowed &= diff >= 0
    if left_window >= 0:
        allowed &= diff <= left_window
    if right_window >= 0:
        allowed &= -diff <= right_window
    if nonpad is not None:
        allowed &= j < lengths
    frontier = np.where(allowed, dtype.type(0), dtype.type(-np.inf))
    return frontier if bias is None else bias + frontier


def _split_heads(a: np.ndarray, heads: int) -> np.ndarray:
    """(B, S, H * D) as a (B, S, H, D) view, whatever its strides."""
    b, n, hidden = a.shape
    s0, s1, s2 = a.strides
    size = hidden // heads
    return np.lib.stride_tricks.as_strided(
        a, (b, n, heads, size), (s0, s1, size * s2, s2)
    )


Unit = tuple[tuple[int, ...], int, int, int, int]
"""An index of the outer batch dims, a range of the last one (heads), a range
of query rows: one block, a batched GEMM over its heads."""


class _Attend:
    """One thread's share of a fused attention: its units and its scratch.

    Every operand has at least one batch dim. `v1` is v with a column of ones
    after its Dv (filled once per call), so the second GEMM gives each row's
    sum of exp beside its outputs. The keys go in chunks (`edges`): with the
    exp unshifted, a chunk's exp @ [v | 1] just adds to the others'. Each
    unit's views are made here, once: a call is its numpy calls alone (at
    1 x 128 the views cost as much as the arithmetic)."""

    def __init__(
        self,
        units: list[Unit],
        edges: list[tuple[int, int]],
        q: np.ndarray,
        k: np.ndarray,
        v1: np.ndarray,
        mask: np.ndarray | None,
        out: np.ndarray,
        factor: np.ndarray | None,
        divide: bool,
        fill: np.ndarray | None,
        shape: tuple[int, int],
    ):
        heads, rows = shape
        dtype = out.dtype
        width = v1.shape[-1] - 1
        scores = np.empty((heads, rows, max(b - a for a, b in edges)), dtype)
        queries = np.empty((heads, rows, q.shape[-1]), dtype)
        peaks = np.empty((2, heads, rows, 1), dtype)
        acc = np.empty((heads, rows, v1.shape[-1]), dtype)
        part = np.empty(acc.shape, dtype) if len(edges) > 1 else acc
        self.scale = None if factor is None else factor.reshape(())
        self.op = np.divide if divide else np.multiply
        self.fill = None if fill is None else fill.reshape(())
        self.blocks: list[_Block] = []
        for index, h0, h1, lo, hi in units:
            n, m = h1 - h0, hi - lo
            ks, vs = k[index][h0:h1], v1[index][h0:h1]
            masks = None if mask is None else mask[index][h0:h1, lo:hi]
            chunks = tuple(
                _Chunk(
                    ks[..., a:b],
                    vs[..., a:b, :],
                    None if masks is None else masks[..., a:b],
                    scores[:n, :m, : b - a],
                )
                for a, b in edges
            )
            self.blocks.append(
                _Block(
                    q[index][h0:h1, lo:hi],
                    None if factor is None else queries[:n, :m],
                    vs,
                    chunks,
                    peaks[0, :n, :m],
                    peaks[1, :n, :m],
                    acc[:n, :m, :width],
                    acc[:n, :m, width:],
                    acc[:n, :m],
                    part[:n, :m],
                    out[index][h0:h1, lo:hi],
                )
            )

    def _queries(self, block: _Block) -> np.ndarray:
        """The block's queries scaled (D values a row rather than T)."""
        if block.scaled is None or self.scale is None:
            return block.q
        return self.op(block.q, self.scale, out=block.scaled)

    @staticmethod
    def _scores(queries: np.ndarray, chunk: _Chunk) -> np.ndarray:
        """A chunk's scores: the queries times its keys (BLAS), plus the mask."""
        np.matmul(queries, chunk.k, out=chunk.scores)
        if chunk.mask is not None:
            np.add(chunk.scores, chunk.mask, out=chunk.scores)
        return chunk.scores

    def _exp_v(self, block: _Block, queries: np.ndarray, shift: bool) -> None:
        """exp(scores [- peak]) @ [v | 1] into `acc`, chunk by chunk."""
        for i, chunk in enumerate(block.chunks):
            scores = self._scores(queries, chunk)
            if shift:
                np.subtract(scores, block.peak, out=scores)
            np.exp(scores, out=scores)
            np.matmul(scores, chunk.v1, out=block.part if i else block.acc)
            if i:
                np.add(block.acc, block.part, out=block.acc)

    def __call__(self) -> None:
        """Per block: exp of the scores in place, unshifted while the row
        sums stay in [SUM_MIN, SUM_MAX] (else again, shifted by the row max),
        then exp @ [v | 1] and the outputs divided by the sums: two passes over
        the scores besides the GEMMs', the normalization on Dv values a row."""
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            for block in self.blocks:
                queries = self._queries(block)
                self._exp_v(block, queries, False)
                sums = block.sums
                # False for a NaN sum too: the shifted form then decides.
                low, high = np.minimum.reduce(sums, None), np.maximum.reduce(sums, None)
                if not (SUM_MIN <= low and high <= SUM_MAX):
                    for i, chunk in enumerate(block.chunks):
                        top = block.top if i else block.peak
                        np.max(self._scores(queries, chunk), -1, keepdims=True, out=top)
                        if i:
                            np.maximum(block.peak, top, out=block.peak)
                    self._exp_v(block, queries, True)
                np.divide(block.values, sums, out=block.out)
                if self.fill is not None:
                    self._fill(block)

    def _fill(self, block: _Block) -> None:
        """The softmax's all-NaN rows: `fill` @ v."""
        out = block.out
        dead = np.isnan(block.sums[..., 0])
        if dead.any():
            total = block.v1[..., :-1].sum(axis=-2, keepdims=True)
            out[dead] = (self.fill * np.broadcast_to(total, out.shape))[dead]


@dataclass(frozen=True)
class _Chunk:
    """A block's views of one chunk of keys: k, [v | 1], the mask, and the
    thread's scores scratch."""

    k: np.ndarray
    v1: np.ndarray
    mask: np.ndarray | None
    scores: np.ndarray


@dataclass(frozen=True)
class _Block:
    """One unit's views: its operands (`v1` over all keys), its chunks of
    keys, its part of the thread's scratch (`scaled` queries, row `peak` and
    a chunk's `top`, `acc` = [`values` | `sums`], a chunk's `part` of it) and
    of the output."""

    q: np.ndarray
    scaled: np.ndarray | None
    v1: np.ndarray
    chunks: tuple[_Chunk, ...]
    peak: np.ndarray
    top: np.ndarray
    values: np.ndarray
    sums: np.ndarray
    acc: np.ndarray
    part: np.ndarray
    out: np.ndarray


def _units(
    batch: tuple[int, ...], s: int, t: int, itemsize: int, threads: int
) -> tuple[list[Unit], list[tuple[int, int]]]:
    """The blocks and the chunks of keys. Chunks of even size, at most
    `KEY_CHUNK`, but one for one query row (decoding: there chunks only add
    calls, 3-6% slower at 1 x 32 heads x 4096 keys). `FUSED_BLOCK_BYTES` of
    scores a block: rows of one head, or whole heads (as many as fit) when a
    head's scores are smaller; at least `threads` blocks when there are that
    many heads."""
    count = 1 if s == 1 else max(1, -(-t // KEY_CHUNK))
    edges = [(t * i // count, t * (i + 1) // count) for i in range(count)]
    row_bytes = max(1, -(-t // count)) * itemsize
    heads = batch[-1]
    rows = max(1, min(s, FUSED_BLOCK_BYTES // row_bytes))
    group = 1
    if rows == s:
        group = max(1, min(heads, FUSED_BLOCK_BYTES // (s * row_bytes)))
        total = heads * math.prod(batch[:-1])
        group = min(group, -(-total // threads)) if total >= threads else group
    units: list[Unit] = [
        (index, h0, min(h0 + group, heads), lo, min(lo + rows, s))
        for index in np.ndindex(*batch[:-1])
        for h0 in range(0, heads, group)
        for lo in range(0, s, rows)
    ]
    return units, edges


class CpuAttention(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` methods of attention."""

    def attention_softmax(
        self, past: int, scores: DA, mask: OptDA, nonpad: OptDA, out: DA,
        attrs: AttentionAttributes,
    ) -> None:  # fmt: skip
        """`hip.attention_softmax` of scores (B, H, S, T) into `out` (may be
        `scores` itself): `scale`, softcap, the bias (mask broadcast to (B, H,
        S, T'), keys from T' on masked; causal and window about i + offset,
        offset `past` or nonpad[b] - S; keys from nonpad[b] on masked), softmax
        over T with rows of all -inf bias zero; `stage` (`hip.ATTENTION_STAGES`)
        stops after that step. In `scores`' type; float16 in float32 if `wide`."""
        src, dst = self.array(scores), self.array(out)
        stage, softcap = attrs.stage, attrs.softcap
        work = _work(src.dtype) if attrs.wide else src.dtype
        with np.errstate(invalid="ignore", over="ignore"):
            x = src.astype(work) * work.type(attrs.scale)
            if softcap > 0 and stage != "scaled":
                cap = work.type(softcap)
                x = np.tanh(x / cap) * cap
            if stage in ("scaled", "softcapped"):
                dst[...] = x
                return
            bias = attention_bias(
                src.shape,
                work,
                past,
                None if mask is None else self.array(mask),
                None if nonpad is None else self.array(nonpad),
                attrs.causal,
                attrs.left_window,
                attrs.right_window,
            )
            if bias is not None:
                x = x + bias
            if stage == "biased":
                dst[...] = x
                return
            peak = np.max(x, axis=-1, keepdims=True)
            peak = np.where(np.isneginf(peak), work.type(0), peak)
            e = np.exp(x - peak)
            total = np.sum(e, axis=-1, keepdims=True)
            total = np.where(total == 0, work.type(1), total)
            p = e / total
            if bias is not None:
                dead = np.isneginf(np.max(bias, axis=-1, keepdims=True))
                p = np.where(dead, work.type(0), p)
            dst[...] = p

    def fused_attention(
        self, q: DA, k: DA, v: DA, scale: OptDA, mask: OptDA, fill: OptDA,
        out: DA, attrs: FusedAttentionAttributes, q_bias: OptDA = None,
        k_bias: OptDA = None, v_bias: OptDA = None,
    ) -> None:  # fmt: skip
        """`hip.fused_attention`: softmax((q + q_bias) @ (k + k_bias) * scale
        + mask) @ (v + v_bias), blocked."""
        self.bind_fused_attention(
            q, k, v, scale, mask, fill, out, attrs, q_bias, k_bias, v_bias
        )()

    def bind_fused_attention(
        self, q: DA, k: DA, v: DA, scale: OptDA, mask: OptDA, fill: OptDA,
        out: DA, attrs: FusedAttentionAttributes, q_bias: OptDA = None,
        k_bias: OptDA = None, v_bias: OptDA = None,
    ) -> Callable[[], object]:  # fmt: skip
        """float32 from `KERNEL_MIN_SCORES` scores on, on a CPU with AVX-512
        (`wide_simd`): `cpu_kernels_attention`'s numba kernels, where they
        take the shapes (`_bind_kernels`). Else float32 with few query rows
        (`_small`: an LLM's decode step, the seed's 1 x 1) in one numba call
        (`_bind_small`). Else blocks of query rows by
        chunks of keys (`FUSED_BLOCK_BYTES` of scores each), so no S x T
        buffer; the blocks split over the threads (each with scratch of its
        own) once the scores reach `PARALLEL_MIN_ELEMENTS`; float16 computed
        in float32. An input that overlaps `out` is copied first, at every
        call; here a biased one is added to its bias into a buffer of its own
        (in the work type), at every call."""
        o: np.ndarray = self.array(out)
        if o.size == 0:
            return nothing
        scores = o.size // o.shape[-1] * self.array(k).shape[-1]
        big = scores >= PARALLEL_MIN_ELEMENTS
        if scores >= KERNEL_MIN_SCORES and _work(o.dtype) == np.float32 and wide_simd():
            biases = (q_bias, k_bias, v_bias)
            pooled = big or scores >= POOL_MIN_SCORES and numba_pool()
            kernels = self._bind_kernels(
                q, k, v, mask, scale, fill, o, attrs, biases, pooled
            )
            if kernels is not None:
                return kernels
        d, t = self.array(k).shape[-2:]
        if o.dtype == np.float32 and _small(o.shape, d, t):
            biases = (q_bias, k_bias, v_bias)
            small = self._bind_small(q, k, v, mask, scale, fill, o, attrs, biases)
            if small is not None:
                return small
        calls: list[Callable[[], object]] = []

        def apart(x: np.ndarray) -> np.ndarray:
            if not np.may_share_memory(x, o):
                return x
            kept = np.empty(x.shape, x.dtype)
            calls.append(partial(np.copyto, kept, x))
            return kept

        wide = _work(o.dtype)

        def widened(x: np.ndarray) -> np.ndarray:
            """float16 computed in float32, rounded once into `o` at the end."""
            if x.dtype == wide:
                return x
            kept = np.empty(x.shape, wide)
            calls.append(partial(np.copyto, kept, x))
            return kept

        def biased(x: DA, bias: OptDA) -> np.ndarray:
            if bias is None:
                return widened(apart(self.array(x)))
            xa, ba = self.array(x), self.array(bias)
            kept = np.empty(xa.shape, wide)
            calls.append(partial(np.add, xa, ba, out=kept, dtype=wide))
            return kept

        qa, ka, va = (biased(x, b) for x, b in ((q, q_bias), (k, k_bias), (v, v_bias)))
        ma = None if mask is None else widened(apart(self.array(mask)))
        result = o
        if o.dtype != wide:
            o = np.empty(result.shape, wide)
        if o.ndim == 2:  # one batch dim at least: (1, S, Dv)
            qa, ka, va, o = qa[None], ka[None], va[None], o[None]
        batch = o.shape[:-2]
        s, t = qa.shape[-2], ka.shape[-1]
        qb = np.broadcast_to(qa, batch + qa.shape[-2:])
        kb = np.broadcast_to(ka, batch + ka.shape[-2:])
        mb = None if ma is None else np.broadcast_to(ma, (*batch, s, t))
        factor = None if scale is None else widened(self.array(scale))
        filled = None if fill is None else widened(self.array(fill))
        self._hold_one_blas_thread()  # the blocks are ours to split
        t1, width = va.shape[-2], va.shape[-1]
        v1 = np.ones((*batch, t1, width + 1), o.dtype)
        calls.append(partial(np.copyto, v1[..., :width], va))
        units, edges = _units(batch, s, t, o.itemsize, self.threads)
        big = big and len(units) > 1
        threads = min(self.threads, len(units)) if big else 1
        cuts = [len(units) * i // threads for i in range(threads + 1)]
        shape = (max(u[2] - u[1] for u in units), max(u[4] - u[3] for u in units))
        tasks = [
            _Attend(
                units[a:b],
                edges,
                qb,
                kb,
                v1,
                mb,
                o,
                factor,
                attrs.divide,
                filled,
                shape,
            )
            for a, b in zip(cuts, cuts[1:])
        ]
        calls.append(tasks[0] if len(tasks) == 1 else partial(self._parallel, tasks))
        if result is not o:
            calls.append(partial(np.copyto, result, o.reshape(result.shape)))
        return calls[0] if len(calls) == 1 else partial(run_all, calls)

    def _bind_kernels(
        self, q: DA, k: DA, v: DA, mask: OptDA, scale: OptDA, fill: OptDA,
        o: np.ndarray, attrs: FusedAttentionAttributes,
        biases: tuple[OptDA, ...], big: bool,
    ) -> Callable[[], object] | None:  # fmt: skip
        """float32 (float16 in float32, rounded once) on
        `cpu_kernels_attention`'s numba kernels (faster GEMMs than numpy's
        BLAS at attention's sizes), the biases added as they read q, k, v;
        on the threads from `PARALLEL_MIN_ELEMENTS` on (numba's,
        `numba_pool`, or ours). None where they do not take it."""
        from xhip.backend import cpu_kernels_attention as attn  # lazy: numba

        calls: list[Callable[[], object]] = []

        def apart(x: DA) -> np.ndarray:
            """x in float32, copied at every call if it overlaps `o` or is not."""
            a = self.array(x)
            if a.dtype == np.float32 and not np.may_share_memory(a, o):
                return a
            kept = np.empty(a.shape, np.float32)
            calls.append(partial(np.copyto, kept, a))
            return kept

        wide = o if o.dtype == np.float32 else np.empty(o.shape, np.float32)
        qa, ka, va, oa = apart(q), apart(k), apart(v), wide
        if o.ndim == 2:  # one batch dim at least: (1, S, Dv)
            qa, ka, va, oa = qa[None], ka[None], va[None], wide[None]
        batch = oa.shape[:-2]
        s, t = qa.shape[-2], ka.shape[-1]
        ma = None if mask is None else apart(mask)
        threads = self.threads if big else 1
        qb, kb, vb = (np.broadcast_to(x, batch + x.shape[-2:]) for x in (qa, ka, va))
        bound = attn.bind(
            qb, kb, vb, None if ma is None else np.broadcast_to(ma, (*batch, s, t)),
            oa, None if scale is None else apart(scale), attrs.divide,
            None if fill is None else apart(fill), threads, SUM_MIN, SUM_MAX,
            pool=threads > 1 and numba_pool(),
            biases=tuple(None if b is None else apart(b) for b in biases),
        )  # fmt: skip
        if bound is None:
            return None
        calls += [
            phase[0] if len(phase) == 1 else partial(self._parallel, phase)
            for phase in bound
        ]
        if wide is not o:
            calls.append(partial(np.copyto, o, wide))
        return calls[0] if len(calls) == 1 else partial(run_all, calls)

    def _bind_small(
        self, q: DA, k: DA, v: DA, mask: OptDA, scale: OptDA, fill: OptDA,
        o: np.ndarray, attrs: FusedAttentionAttributes, biases: tuple[OptDA, ...],
    ) -> Callable[[], object] | None:  # fmt: skip
        """float32 in one numba call (`cpu_kernels_small_attention`), the
        biases added as it reads q, k, v; an input that overlaps `o` copied
        first, at every call, but q exactly where `o` is (each row read
        before its output is written). None where it does not take it."""
        from xhip.backend import cpu_kernels_small_attention as small  # lazy: numba

        calls: list[Callable[[], object]] = []

        def apart(x: DA) -> np.ndarray:
            a = self.array(x)
            if not np.may_share_memory(a, o) or x is q and _same_rows(a, o):
                return a
            kept = np.empty(a.shape, a.dtype)
            calls.append(partial(np.copyto, kept, a))
            return kept

        qa, ka, va = apart(q), apart(k), apart(v)
        batch = o.shape[:-2]
        s, t = qa.shape[-2], ka.shape[-1]
        qb, kb, vb = (np.broadcast_to(x, batch + x.shape[-2:]) for x in (qa, ka, va))
        bound = small.bind(
            qb, kb, vb, None if mask is None else np.broadcast_to(apart(mask), (*batch, s, t)),
            o, None if scale is None else apart(scale), attrs.divide,
            None if fill is None else apart(fill), SUM_MIN, SUM_MAX,
            tuple(None if b is None else apart(b) for b in biases),
        )  # fmt: skip
        if bound is None:
            return None
        calls.append(bound)
        return calls[0] if len(calls) == 1 else partial(run_all, calls)

    def rotary_embedding(
        self, x: DA, cos: DA, sin: DA, position_ids: OptDA, out: DA,
        attrs: RotaryAttributes,
    ) -> None:  # fmt: skip
        """ONNX RotaryEmbedding: x (B, H, S, D), or (B, S, H * D) with
        `num_heads`; cos/sin (B, S, R / 2), or (P, R / 2) rows picked by the
        int64 position_ids (B, S); R = `rotary_dim`."""
        src, dst = self.array(x), self.array(out)
        c, s = self.array(cos), self.array(sin)
        if position_ids is not None:
            ids = self.array(position_ids)
            c, s = c[ids], s[ids]
        # Everything as (B, S, H, D) views.
        if src.ndim == 4:
            src4, dst4 = src.transpose(0, 2, 1, 3), dst.transpose(0, 2, 1, 3)
        else:
            heads = attrs.num_heads
            src4, dst4 = _split_heads(src, heads), _split_heads(dst, heads)
        work = _work(src.dtype)
        c = c.astype(work)[:, :, None, :]
        s = s.astype(work)[:, :, None, :]
        rotary_dim, interleaved = attrs.rotary_dim, attrs.interleaved
        part = src4[..., :rotary_dim].astype(work)
        if interleaved:
            x1, x2 = part[..., 0::2], part[..., 1::2]
        else:
            x1, x2 = part[..., : rotary_dim // 2], part[..., rotary_dim // 2 :]
        real = c * x1 - s * x2
        imag = s * x1 + c * x2
        if interleaved:
            rotated = np.stack((real, imag), axis=-1).reshape(part.shape)
        else:
            rotated = np.concatenate((real, imag), axis=-1)
        if dst4.shape[-1] > rotary_dim:
            dst4[..., rotary_dim:] = src4[..., rotary_dim:]
        dst4[..., :rotary_dim] = rotated
