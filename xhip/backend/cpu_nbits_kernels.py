"""numba kernels of MatMulNBits on the packed weights (`cpu_nbits.py`).

The weight is never dequantized as a whole: each (column, block) is unpacked
into a small per-thread buffer right before it is used. Unpacked values of a
block are kept in "plane order", `r * bytes + b` for the `r`-th value of byte
`b` (all low nibbles, then all high ones), so every loop runs over contiguous
bytes with one shift and vectorizes; each call first copies the rows of A
into that order (zero past k). Strict float semantics (`fastmath=False`): no
float sum is reassociated behind our back, so the float sums vectorize over
independent lanes written out here, one per element of a block. (Tiles of
output columns, summed side by side and sharing a tile's unpacking over
many rows, measured slower at 16-64 rows of a 2048 x 2048 weight.)

Threads: numba's own (`prange`, its OpenMP or workqueue layer), as many as
the runtime's `threads`. The workqueue layer aborts the process when two
threads launch parallel kernels at once, so `matmul_nbits` launches under one
lock. Compiled code is cached on disk (`cache=True`: numba's default place,
`__pycache__` beside this file, or its user-wide cache directory where that
is read-only; `NUMBA_CACHE_DIR` moves it).
"""

from __future__ import annotations

import threading

import numba
import numpy as np
from numba import njit, prange
from numba.core import config

_LAUNCH = threading.Lock()
_MAX_THREADS: int = config.NUMBA_NUM_THREADS  # pyright: ignore[reportAttributeAccessIssue]


@njit(cache=True, fastmath=False)
def _plane_rows(a: np.ndarray, k: int, block: int, per: int) -> np.ndarray:
    """The rows of `a` (m, k) in each block's plane order, zero past k."""
    rows = a.shape[0]
    blocks = -(-k // block)
    nbytes = block // per
    ap = np.zeros((rows, blocks * block), np.float32)
    for m in range(rows):
        for j in range(blocks):
            base = j * block
            for r in range(per):
                for b in range(nbytes):
                    i = base + b * per + r
                    if i < k:
                        ap[m, base + r * nbytes + b] = a[m, i]
    return ap


@njit(cache=True, fastmath=False)
def _quantized_rows(
    a: np.ndarray, k: int, block: int, per: int
) -> tuple[np.ndarray, np.ndarray]:
    """MLAS's `QuantizeARow_CompInt8` (see `cpu_nbits`): the int8
    values of `a` (m, k) per block, in plane order, and their f32 scales."""
    rows = a.shape[0]
    blocks = -(-k // block)
    nbytes = block // per
    aq = np.zeros((rows, blocks * block), np.int8)
    sa = np.empty((rows, blocks), np.float32)
    f127 = np.float32(127.0)
    for m in range(rows):
        for j in range(blocks):
            base = j * block
            end = min(base + block, k)
            amax = np.float32(0.0)
            for i in range(base, end):
                amax = max(amax, abs(a[m, i]))
            sa[m, j] = amax / f127
            inverse = f127 / amax if amax != 0 else np.float32(0.0)
            for r in range(per):
                for b in range(nbytes):
                    i = base + b * per + r
                    if i < k:
                        value = np.rint(a[m, i] * inverse)
                        aq[m, base + r * nbytes + b] = np.int8(value)
    return aq, sa


@njit(cache=True, fastmath=False, inline="always")
def _zeros(zp: np.ndarray, col: int, bits: int, zeros: np.ndarray) -> None:
    """zeros[j] = the zero point of block j of column `col`, unpacked from
    its u8 row (one pass per column: no division per block)."""
    per = 8 // bits
    blocks = zeros.shape[0]
    mask = np.uint32((1 << bits) - 1)
    for r in range(per):
        shift = np.uint32(r * bits)
        for b in range(zp.shape[1]):
            j = b * per + r
            if j < blocks:
                zeros[j] = (np.uint32(zp[col, b]) >> shift) & mask


@njit(cache=True, fastmath=False, inline="always")
def _column_zeros(
    zp_u8: np.ndarray,
    zp_f32: np.ndarray,
    packed: bool,
    col: int,
    bits: int,
    zeros: np.ndarray,
) -> None:
    """zeros (f32) = column `col`'s zero points, packed u8 or float."""
    if packed:
        _zeros(zp_u8, col, bits, zeros)
    else:
        zeros[:] = zp_f32[col]


@njit(cache=True, fastmath=False, inline="always")
def _unpack_f32(
    row: np.ndarray, bits: int, zero: np.float32, scale: np.float32, w: np.ndarray
) -> None:
    """w (plane order) = `(q - zero) * scale` in float32, as ORT dequantizes."""
    nbytes = row.shape[0]
    mask = np.uint32((1 << bits) - 1)
    for r in range(8 // bits):
        shift = np.uint32(r * bits)
        base = r * nbytes
        for b in range(nbytes):
            q = np.float32(np.int32((np.uint32(row[b]) >> shift) & mask))
            w[base + b] = (q - zero) * scale


@njit(cache=True, fastmath=False, inline="always")
def _dot_f32(
    row: np.ndarray,
    bits: int,
    zero: np.float32,
    scale: np.float32,
    x: np.ndarray,
    lanes: np.ndarray,
) -> None:
    """lanes += x * `(q - zero) * scale` (plane order): `_unpack_f32` fused
    with one row's product, for a single row."""
    nbytes = row.shape[0]
    mask = np.uint32((1 << bits) - 1)
    for r in range(8 // bits):
        shift = np.uint32(r * bits)
        base = r * nbytes
        for b in range(nbytes):
            q = np.float32(np.int32((np.uint32(row[b]) >> shift) & mask))
            lanes[base + b] += x[base + b] * ((q - zero) * scale)


@njit(cache=True, fastmath=False, inline="always")
def _unpack_i32(row: np.ndarray, bits: int, zero: int, w: np.ndarray) -> None:
    """w (plane order) = `q - zero`, exact integers."""
    nbytes = row.shape[0]
    mask = np.uint32((1 << bits) - 1)
    for r in range(8 // bits):
        shift = np.uint32(r * bits)
        base = r * nbytes
        for b in range(nbytes):
            w[base + b] = np.int32((np.uint32(row[b]) >> shift) & mask) - zero


@njit(cache=True, parallel=True, fastmath=False)
def matmul_f32(
    a: np.ndarray,
    weight: np.ndarray,
    scales: np.ndarray,
    zp_u8: np.ndarray,
    zp_f32: np.ndarray,
    packed_zero: bool,
    bias: np.ndarray,
    has_bias: bool,
    bits: int,
    k: int,
    chunks: int,
    out: np.ndarray,
) -> None:
    """out (m, n) = a (m, k) @ dequantized(weight)^T (+ bias), float32.

    Each thread takes runs of whole columns; a column's block is unpacked
    once for all rows, and each row's sum runs in one float32 lane per block
    element over the blocks, the lanes summed in float64 at the end."""
    n, blocks, nbytes = weight.shape
    per = 8 // bits
    block = nbytes * per
    rows = a.shape[0]
    ap = _plane_rows(a, k, block, per)
    parts = min(chunks, n)
    for t in prange(parts):
        lanes = np.empty((rows, block), np.float32)
        w = np.empty(block, np.float32)
        zeros = np.empty(blocks, np.float32)
        for col in range(n * t // parts, n * (t + 1) // parts):
            lanes[:] = 0
            _column_zeros(zp_u8, zp_f32, packed_zero, col, bits, zeros)
            for j in range(blocks):
                zero = zeros[j]
                base = j * block
                if rows == 1:
                    x = ap[0, base : base + block]
                    row = weight[col, j]
                    _dot_f32(row, bits, zero, scales[col, j], x, lanes[0])
                    continue
                _unpack_f32(weight[col, j], bits, zero, scales[col, j], w)
                for m in range(rows):
                    lane = lanes[m]
                    x = ap[m, base : base + block]
                    for i in range(block):
                        lane[i] += x[i] * w[i]
            for m in range(rows):
                total = 0.0
                for i in range(block):
                    total += lanes[m, i]
                y = np.float32(total)
                out[m, col] = y + bias[col] if has_bias else y


@njit(cache=True, parallel=True, fastmath=False)
def matmul_int8(
    a: np.ndarray,
    weight: np.ndarray,
    scales: np.ndarray,
    zp_u8: np.ndarray,
    bias: np.ndarray,
    has_bias: bool,
    bits: int,
    k: int,
    chunks: int,
    out: np.ndarray,
) -> None:
    """ORT's CompInt8 (accuracy level 4): each block of a row of `a`
    quantized to int8, its dot with `q - zero` in integers, the dots summed
    times `float32(scale_a * scale_b)` in float64, rounded once to float32
    (then + bias). Each thread takes runs of whole columns."""
    n, blocks, nbytes = weight.shape
    per = 8 // bits
    block = nbytes * per
    rows = a.shape[0]
    aq, sa = _quantized_rows(a, k, block, per)
    parts = min(chunks, n)
    for t in prange(parts):
        w = np.empty(block, np.int32)
        acc = np.empty(rows, np.float64)
        zeros = np.empty(blocks, np.int32)
        for col in range(n * t // parts, n * (t + 1) // parts):
            acc[:] = 0
            _zeros(zp_u8, col, bits, zeros)
            for j in range(blocks):
                zero = zeros[j]
                _unpack_i32(weight[col, j], bits, zero, w)
                sb = scales[col, j]
                base = j * block
                for m in range(rows):
                    x = aq[m, base : base + block]
                    dot = 0  # int64 lanes: numba widens int32 products
                    for i in range(block):
                        dot += np.int32(x[i]) * w[i]
                    acc[m] += np.float64(sa[m, j] * sb) * np.float64(dot)
            for m in range(rows):
                y = np.float32(acc[m])
                out[m, col] = y + bias[col] if has_bias else y


def matmul_nbits(
    threads: int,
    a: np.ndarray,
    weight: np.ndarray,
    scales: np.ndarray,
    zero: np.ndarray,
    bias: np.ndarray | None,
    bits: int,
    k: int,
    int8: bool,
    out: np.ndarray,
) -> None:
    """out (m, n) f32 C-contiguous = MatMulNBits of a (m, k) f32 C-contiguous,
    weight (n, blocks, bytes) u8, scales (n, blocks) f32, zero points packed
    u8 (n, bytes) or f32 (n, blocks)."""
    has_bias = bias is not None
    bias_ = bias if bias is not None else np.zeros(1, np.float32)
    threads = min(threads, _MAX_THREADS)
    chunks = 8 * threads  # a few per thread: a loaded core holds back less
    with _LAUNCH:
        numba.set_num_threads(threads)
        if int8:
            matmul_int8(a, weight, scales, zero, bias_, has_bias, bits, k, chunks, out)
        else:
            packed = zero.dtype == np.uint8
            zp_u8 = zero if packed else np.zeros((1, 1), np.uint8)
            zp_f32 = np.zeros((1, 1), np.float32) if packed else zero
            matmul_f32(
                a,
                weight,
                scales,
                zp_u8,
                zp_f32,
                packed,
                bias_,
                has_bias,
                bits,
                k,
                chunks,
                out,
            )
