"""The CPU runtime's numba kernels of 2-D convolution and max pooling.

numpy's forms of im2col and pooling walk a small kernel tap by tap, each tap
a strided copy or `maximum` over the whole (channels, rows, columns) volume,
plus a pass to fill the padding: for a 3x3 kernel ten passes over the column
matrix, with inner loops as short as a row. `im2col`, `max_pool` and
`depthwise` make one pass: each output row is written once, its padding as
it goes, while the input rows it reads are in L1. The `winograd_*` kernels
are the three transforms of Winograd F(2x2, 3x3) (Lavin and Gray, "Fast
Algorithms for Convolutional Neural Networks", 2016), with the GEMMs between
them left to BLAS (`cpu_conv._bind_winograd`).

Each kernel takes a range `[lo, hi)` of planes (channels) so that the
runtime's threads each take their own (`nogil`). Arrays are C-contiguous
float32, which is one compiled signature per kernel (`cache=True`: the first
run in a new environment compiles, later processes load the cache). The
window of an output element along a dim is `o * stride - pad + tap *
dilation`, as ONNX's Conv and MaxPool.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

_U = np.uint64
"""Inner-loop indices are cast to it: numba wraps a negative signed index
around (a select per element), which keeps LLVM from vectorizing."""
_ZERO = np.float32(0.0)
_LOWEST = np.float32(-np.inf)


@njit(cache=True, nogil=True, inline="always")
def _inside(
    tap: int, stride: int, dilation: int, pad: int, size: int, count: int
) -> tuple[int, int]:
    """The outputs [first, last) of one tap along a dim whose input lies
    inside [0, size)."""
    offset = tap * dilation - pad
    first = max(0, (-offset + stride - 1) // stride)
    last = min(count, (size - 1 - offset) // stride + 1)
    return first, max(first, last)


@njit(cache=True, nogil=True)
def im2col(
    x: Any,
    col: Any,
    kernel: tuple[int, int],
    strides: tuple[int, int],
    dilations: tuple[int, int],
    pads: tuple[int, int],
    first_row: int,
    lo: int,
    hi: int,
) -> None:
    """Channels [lo, hi) of one image x (C, H, W) into col (C * kh * kw,
    rows, Wo), its output rows [first_row, first_row + rows): each window
    element, 0 where it lies in the padding."""
    kh, kw = kernel
    sh, sw = strides
    dh, dw = dilations
    ph, pw = pads
    h, w = x.shape[1], x.shape[2]
    rows, wo = col.shape[1], col.shape[2]
    end = first_row + rows
    for c in range(lo, hi):
        for i in range(kh):
            y0, y1 = _inside(i, sh, dh, ph, h, end)
            for j in range(kw):
                x0, x1 = _inside(j, sw, dw, pw, w, wo)
                offset = j * dw - pw
                r = (c * kh + i) * kw + j
                for oy in range(first_row, end):
                    dst = oy - first_row
                    if oy < y0 or oy >= y1:
                        for ox in range(wo):
                            col[r, dst, _U(ox)] = _ZERO
                        continue
                    iy = oy * sh - ph + i * dh
                    for ox in range(x0):
                        col[r, dst, _U(ox)] = _ZERO
                    # A constant stride in each loop: LLVM vectorizes those.
                    if sw == 1:
                        for ox in range(x0, x1):
                            col[r, dst, _U(ox)] = x[c, iy, _U(ox + offset)]
                    elif sw == 2:
                        for ox in range(x0, x1):
                            col[r, dst, _U(ox)] = x[c, iy, _U(2 * ox + offset)]
                    else:
                        for ox in range(x0, x1):
                            col[r, dst, _U(ox)] = x[c, iy, _U(ox * sw + offset)]
                    for ox in range(x1, wo):
                        col[r, dst, _U(ox)] = _ZERO


@njit(cache=True, nogil=True, inline="always")
def _taps(
    row: Any, out: Any, p: int, oy: int, lo: int, hi: int, kw: int, sw: int,
    dw: int, pw: int,
) -> None:  # fmt: skip
    """out[p, oy, lo:hi] = the maximum of it and each tap of `row` (the
    window rows' maximum) that lies inside it, tap by tap."""
    for j in range(kw):
        x0, x1 = _inside(j, sw, dw, pw, row.shape[0], out.shape[2])
        offset = j * dw - pw
        if sw == 2:  # MaxPool's usual stride, a constant
            for ox in range(max(x0, lo), min(x1, hi)):
                v, r = row[_U(2 * ox + offset)], out[p, oy, _U(ox)]
                out[p, oy, _U(ox)] = v if (v > r) | (v != v) else r
        else:
            for ox in range(max(x0, lo), min(x1, hi)):
                v, r = row[_U(ox * sw + offset)], out[p, oy, _U(ox)]
                out[p, oy, _U(ox)] = v if (v > r) | (v != v) else r


@njit(cache=True, nogil=True)
def max_pool(
    x: Any,
    out: Any,
    kernel: tuple[int, int],
    strides: tuple[int, int],
    dilations: tuple[int, int],
    pads: tuple[int, int],
    lo: int,
    hi: int,
) -> None:
    """Planes [lo, hi) of x (P, H, W) max-pooled into out (P, Ho, Wo); the
    padding is skipped (-inf where a window holds none of x), NaN wins as
    in `np.maximum`.

    Separable: for each output row, the maximum of its window's input rows
    first (whole rows: LLVM vectorizes it), then along that row; a 3-wide
    stride-2 window (ResNet's) reads its three taps in one loop where all
    lie inside, which vectorizes too. Tap by tap over the whole window, each
    of the kh * kw strided reads of an output stays scalar: ResNet-18's
    3x3 stride-2 pool of 64 x 112 x 112 took 1.30 ms of a thread, now 0.47
    (0.56 without the three-tap loop; best of 100, alternating)."""
    kh, kw = kernel
    sh, sw = strides
    dh, dw = dilations
    ph, pw = pads
    h, w = x.shape[1], x.shape[2]
    ho, wo = out.shape[1], out.shape[2]
    row = np.empty(w, x.dtype)
    # The outputs all three taps of a 3-wide stride-2 window find inside.
    first, last = _inside(0, 2, dw, pw, w, wo)
    for j in range(1, 3):
        x0, x1 = _inside(j, 2, dw, pw, w, wo)
        first, last = max(first, x0), min(last, x1)
    if sw != 2 or kw != 3 or first >= last:
        first, last = wo, wo
    o0, o1, o2 = -pw, dw - pw, 2 * dw - pw
    for p in range(lo, hi):
        for oy in range(ho):
            for ox in range(wo):
                out[p, oy, _U(ox)] = _LOWEST
            rows = 0
            for i in range(kh):
                iy = oy * sh - ph + i * dh
                if iy < 0 or iy >= h:
                    continue
                if rows == 0:
                    for c in range(w):
                        row[_U(c)] = x[p, iy, _U(c)]
                else:
                    for c in range(w):
                        v, r = x[p, iy, _U(c)], row[_U(c)]
                        row[_U(c)] = v if (v > r) | (v != v) else r
                rows += 1
            if rows == 0:
                continue
            for ox in range(first, last):
                a, b = row[_U(2 * ox + o0)], row[_U(2 * ox + o1)]
                c = row[_U(2 * ox + o2)]
                m = b if (b > a) | (b != b) else a
                out[p, oy, _U(ox)] = c if (c > m) | (c != c) else m
            _taps(row, out, p, oy, 0, first, kw, sw, dw, pw)
            _taps(row, out, p, oy, last, wo, kw, sw, dw, pw)


@njit(cache=True, nogil=True)
def depthwise(
    x: Any,
    w: Any,
    bias: Any,
    out: Any,
    strides: tuple[int, int],
    dilations: tuple[int, int],
    pads: tuple[int, int],
    lo: int,
    hi: int,
) -> None:
    """Output channels [lo, hi) of a depthwise convolution: x (C, H, W) by w
    (M, kh, kw), M a multiple of C (output channel m reads channel m // (M /
    C)), plus bias (M), into out (M, Ho, Wo). Accumulates in float32 from
    the bias, tap by tap in the kernel's order."""
    sh, sw = strides
    dh, dw = dilations
    ph, pw = pads
    kh, kw = w.shape[1], w.shape[2]
    h, width = x.shape[1], x.shape[2]
    ho, wo = out.shape[1], out.shape[2]
    per_channel = out.shape[0] // x.shape[0]
    for m in range(lo, hi):
        c = m // per_channel
        for oy in range(ho):
            for ox in range(wo):
                out[m, oy, _U(ox)] = bias[m]
            for i in range(kh):
                iy = oy * sh - ph + i * dh
                if iy < 0 or iy >= h:
                    continue
                for j in range(kw):
                    x0, x1 = _inside(j, sw, dw, pw, width, wo)
                    offset = j * dw - pw
                    tap = w[m, i, j]
                    if sw == 1:
                        for ox in range(x0, x1):
                            out[m, oy, _U(ox)] += tap * x[c, iy, _U(ox + offset)]
                    elif sw == 2:
                        for ox in range(x0, x1):
                            out[m, oy, _U(ox)] += tap * x[c, iy, _U(2 * ox + offset)]
                    else:
                        for ox in range(x0, x1):
                            out[m, oy, _U(ox)] += tap * x[c, iy, _U(ox * sw + offset)]


_HALF = np.float32(0.5)


@njit(cache=True, nogil=True)
def winograd_weights(w: Any, u: Any, lo: int, hi: int) -> None:
    """Output channels [lo, hi) of w (M, C, 3, 3) into u (M, 16, C): the
    Winograd F(2x2, 3x3) kernel transform G g G^T of each (m, c), its 4x4
    elements along u's middle axis."""
    channels = w.shape[1]
    for m in range(lo, hi):
        for c in range(channels):
            # G g: the rows g0, (g0 + g1 + g2) / 2, (g0 - g1 + g2) / 2, g2.
            g00, g01, g02 = w[m, c, 0, 0], w[m, c, 0, 1], w[m, c, 0, 2]
            g10, g11, g12 = w[m, c, 1, 0], w[m, c, 1, 1], w[m, c, 1, 2]
            g20, g21, g22 = w[m, c, 2, 0], w[m, c, 2, 1], w[m, c, 2, 2]
            rows = (
                (g00, g01, g02),
                (
                    _HALF * (g00 + g10 + g20),
                    _HALF * (g01 + g11 + g21),
                    _HALF * (g02 + g12 + g22),
                ),
                (
                    _HALF * (g00 - g10 + g20),
                    _HALF * (g01 - g11 + g21),
                    _HALF * (g02 - g12 + g22),
                ),
                (g20, g21, g22),
            )
            for i in range(4):  # ... G^T: the same along each row
                a, b, e = rows[i]
                u[m, 4 * i, _U(c)] = a
                u[m, 4 * i + 1, _U(c)] = _HALF * (a + b + e)
                u[m, 4 * i + 2, _U(c)] = _HALF * (a - b + e)
                u[m, 4 * i + 3, _U(c)] = e


@njit(cache=True, nogil=True)
def winograd_input(
    x: Any, v: Any, pads: tuple[int, int], plane: Any, lo: int, hi: int
) -> None:
    """Channels [lo, hi) of x (C, H, W) into v (C, 16, th * tw): the input
    transform B^T d B of each 4x4 tile d (tiles 2 apart, from -pads), each
    channel first copied into `plane` (2 * th + 2, 2 * tw + 2), zero around."""
    ph, pw = pads
    h, w = x.shape[1], x.shape[2]
    rows, cols = plane.shape
    th, tw = (rows - 2) // 2, (cols - 2) // 2
    for c in range(lo, hi):
        for y in range(rows):
            for z in range(cols):
                plane[y, _U(z)] = _ZERO
        for y in range(min(h, rows - ph)):
            for z in range(min(w, cols - pw)):
                plane[y + ph, _U(z + pw)] = x[c, y, _U(z)]
        for ty in range(th):
            y = 2 * ty
            for tx in range(tw):
                z = 2 * tx
                t = ty * tw + tx
                # B^T d: the rows d0 - d2, d1 + d2, d2 - d1, d1 - d3, per column.
                r00 = plane[y, _U(z)] - plane[y + 2, _U(z)]
                r01 = plane[y, _U(z + 1)] - plane[y + 2, _U(z + 1)]
                r02 = plane[y, _U(z + 2)] - plane[y + 2, _U(z + 2)]
                r03 = plane[y, _U(z + 3)] - plane[y + 2, _U(z + 3)]
                r10 = plane[y + 1, _U(z)] + plane[y + 2, _U(z)]
                r11 = plane[y + 1, _U(z + 1)] + plane[y + 2, _U(z + 1)]
                r12 = plane[y + 1, _U(z + 2)] + plane[y + 2, _U(z + 2)]
                r13 = plane[y + 1, _U(z + 3)] + plane[y + 2, _U(z + 3)]
                r20 = plane[y + 2, _U(z)] - plane[y + 1, _U(z)]
                r21 = plane[y + 2, _U(z + 1)] - plane[y + 1, _U(z + 1)]
                r22 = plane[y + 2, _U(z + 2)] - plane[y + 1, _U(z + 2)]
                r23 = plane[y + 2, _U(z + 3)] - plane[y + 1, _U(z + 3)]
                r30 = plane[y + 1, _U(z)] - plane[y + 3, _U(z)]
                r31 = plane[y + 1, _U(z + 1)] - plane[y + 3, _U(z + 1)]
                r32 = plane[y + 1, _U(z + 2)] - plane[y + 3, _U(z + 2)]
                r33 = plane[y + 1, _U(z + 3)] - plane[y + 3, _U(z + 3)]
                # ... B: the same along each row.
                v[c, 0, _U(t)] = r00 - r02
                v[c, 1, _U(t)] = r01 + r02
                v[c, 2, _U(t)] = r02 - r01
                v[c, 3, _U(t)] = r01 - r03
                v[c, 4, _U(t)] = r10 - r12
                v[c, 5, _U(t)] = r11 + r12
                v[c, 6, _U(t)] = r12 - r11
                v[c, 7, _U(t)] = r11 - r13
                v[c, 8, _U(t)] = r20 - r22
                v[c, 9, _U(t)] = r21 + r22
                v[c, 10, _U(t)] = r22 - r21
                v[c, 11, _U(t)] = r21 - r23
                v[c, 12, _U(t)] = r30 - r32
                v[c, 13, _U(t)] = r31 + r32
                v[c, 14, _U(t)] = r32 - r31
                v[c, 15, _U(t)] = r31 - r33


@njit(cache=True, nogil=True)
def winograd_output(p: Any, bias: Any, out: Any, lo: int, hi: int) -> None:
    """Output channels [lo, hi): each tile's products p (M, 16, th * tw)
    through A^T p A into its 2x2 outputs of out (M, Ho, Wo), plus bias (M);
    the last tiles' outputs past Ho or Wo are dropped."""
    ho, wo = out.shape[1], out.shape[2]
    th, tw = (ho + 1) // 2, (wo + 1) // 2
    for m in range(lo, hi):
        b = bias[m]
        for ty in range(th):
            y = 2 * ty
            for tx in range(tw):
                t = ty * tw + tx
                # A^T p: rows p0 + p1 + p2 and p1 - p2 - p3, per column.
                s0 = p[m, 0, _U(t)] + p[m, 4, _U(t)] + p[m, 8, _U(t)]
                s1 = p[m, 1, _U(t)] + p[m, 5, _U(t)] + p[m, 9, _U(t)]
                s2 = p[m, 2, _U(t)] + p[m, 6, _U(t)] + p[m, 10, _U(t)]
                s3 = p[m, 3, _U(t)] + p[m, 7, _U(t)] + p[m, 11, _U(t)]
                d0 = p[m, 4, _U(t)] - p[m, 8, _U(t)] - p[m, 12, _U(t)]
                d1 = p[m, 5, _U(t)] - p[m, 9, _U(t)] - p[m, 13, _U(t)]
                d2 = p[m, 6, _U(t)] - p[m, 10, _U(t)] - p[m, 14, _U(t)]
                d3 = p[m, 7, _U(t)] - p[m, 11, _U(t)] - p[m, 15, _U(t)]
                z = 2 * tx
                out[m, y, _U(z)] = s0 + s1 + s2 + b
                if z + 1 < wo:
                    out[m, y, _U(z + 1)] = s1 - s2 - s3 + b
                if y + 1 < ho:
                    out[m, y + 1, _U(z)] = d0 + d1 + d2 + b
                    if z + 1 < wo:
                        out[m, y + 1, _U(z + 1)] = d1 - d2 - d3 + b
