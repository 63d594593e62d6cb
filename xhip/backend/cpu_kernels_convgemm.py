"""2-D float32 convolutions as numba kernels on the GEMM tile kernel
(`cpu_kernels_attention._tile`, 6 x 64 outputs in 24 registers; issue 25).

numpy's path writes the whole column matrix (C * kh * kw, positions) out to
memory, then OpenBLAS packs it again for its GEMM (95-136 GFLOP/s a core).
Each kernel here runs one thread's share of a convolution in chunks that
stay in L2, writing its operands straight into the layouts `_tile` reads
(156-195 GFLOP/s):

- `conv`: the windows of a chunk of output positions as panels of `NR`
  positions (K x NR each: `_tile`'s B), the weights as ONNX stores them
  (the A, rows of K: nothing to pack, constant or not), the bias added to
  the chunk. The output (M, positions) is NCHW as it is. Each `k` block
  (`KC` at most) of a panel stays in L1 while every tile of rows sweeps it;
  tiles off the edge (the last panel's positions past the chunk, rows
  under `MR`) run whole through the task's scratch, as
  `cpu_kernels_gemm.gemm`'s.
- `conv_rows`: few positions, as `_tile`'s rows, by the weights packed in
  panels of 64 output channels.
- `winograd_rows`: few tiles (ResNet's 14x14 and 28x28 stages), as
  `_tile`'s rows, by the transformed kernels packed in panels of 64 output
  channels.
- `winograd`: Winograd F(2x2, 3x3) by chunks of `NR` tiles, the three
  steps of each chunk while in L2.

Each adds the bias as it stores its outputs and, for a Relu fused into the
conv (`hip-fuse-conv-relu`), clamps them at zero: the `epilogue` bits
`BIAS` and `RELU`.

Where the weights' panels stream from memory past the rows (`conv_rows`,
`winograd_rows`: each block of a panel serves a few tiles of rows only),
each tile of rows first asks for its part of the next block
(`_prefetch`), so that the stream overlaps the multiply-adds: one thread,
512 to 512 at 7x7 by rows 1.53-1.57 ms against 1.79-1.93, 256 to 256 at
14x14 by Winograd rows 0.86 against 0.93-1.04 (load 5-6).

On several threads, each has a `_pool` form: the shares of every image of
a convolution in one launch on numba's threads (`cpu_host.numba_pool`),
each thread taking the next (`take`) with its own scratch, as
`cpu_kernels_gemm.gemm_pool`; elsewhere a call a share on the runtime's
Python threads. `max_pool_pool` is `cpu_kernels_conv.max_pool`'s (here,
where the pool's helpers are loaded anyway).

Cache: keyed on this file, `cpu_kernels_attention` (`_tile`, `take`,
`team`, `review`), `cpu_kernels_conv` (`max_pool`), `cpu_kernels_gemm`
(`KC`) and `cpu_kernels_rows` (`wide_vectors`), whose code the kernels
compile in (`numba_cache.key_on`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from xhip.backend import (
    cpu_kernels_attention,
    cpu_kernels_conv,
    cpu_kernels_gemm,
    cpu_kernels_pool,
    cpu_kernels_rows,
    numba_cache,
)
from xhip.backend.cpu_kernels_attention import (  # pyright: ignore[reportPrivateUsage]
    MR,
    NR,
    _tile,
)
from xhip.backend.cpu_kernels_attention import readonly as readonly
from xhip.backend.cpu_kernels_conv import max_pool
from xhip.backend.cpu_kernels_gemm import KC
from xhip.backend.cpu_kernels_pool import review, take, team
from xhip.backend.cpu_kernels_rows import wide_vectors

numba_cache.key_on(
    __file__,
    [
        cpu_kernels_attention.__file__,
        cpu_kernels_conv.__file__,
        cpu_kernels_gemm.__file__,
        cpu_kernels_pool.__file__,
        cpu_kernels_rows.__file__,
    ],
)


@intrinsic
def _prefetch(typingctx: Any, address: Any) -> Any:
    """Asks for the cache line at `address` (an intp) to be loaded into L1
    ahead of its use (`llvm.prefetch`: a hint, never a fault)."""
    sig = types.void(types.intp)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        byte = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, hint, "llvm.prefetch.p0")
        # read, the most locality, the data cache
        builder.call(fn, [builder.inttoptr(args[0], byte), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


_U = np.uint64
"""Inner-loop indices are cast to it: numba wraps a negative signed index
around (a select per element), which keeps LLVM from vectorizing."""
_ZERO = np.float32(0.0)
_NEG = np.float32(-np.inf)

BIAS, RELU = 1, 2
"""The bits of a kernel's `epilogue`: add `bias` (per output channel); clamp
each output below at 0, a Relu after the convolution (`ConvAttributes.relu`)."""


@njit(cache=True, nogil=True, inline="always")
def _floor(epilogue: int) -> Any:
    """The least output: 0 with `RELU`, else -inf (none)."""
    return _ZERO if epilogue & RELU else _NEG


@njit(cache=True, nogil=True, inline="always")
def _clamp(value: Any, floor: Any) -> Any:
    """`value`, or `floor` where it is less: NaN stays NaN, as ONNX's Relu
    (`np.maximum`)."""
    return floor if value < floor else value


_X3 = types.Array(types.float32, 3, "C", readonly=True)
_W2 = types.Array(types.float32, 2, "C", readonly=True)
_B1 = types.Array(types.float32, 1, "C", readonly=True)
_O2, _C3, _C2 = types.float32[:, ::1], types.float32[:, :, ::1], types.float32[:, ::1]
_PAIR = types.UniTuple(types.intp, 2)
_V1W = types.float32[::1]
_X4 = types.Array(types.float32, 4, "C", readonly=True)
_O3, _C4 = types.float32[:, :, ::1], types.float32[:, :, :, ::1]
_SHARES, _STATE = types.int64[:, ::1], types.int64[::1]


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


@njit(cache=True, nogil=True, inline="always")
def _even(k: int) -> int:
    """k's blocks: at most `KC`, as even as can be (k = 147: 74 and 73, not
    128 and a thin 19 that loads and stores the tiles for little)."""
    return -(-k // -(-k // KC))


@njit(cache=True, nogil=True, inline="always")
def _panels(
    x: Any,
    col: Any,
    kernel: tuple[int, int],
    strides: tuple[int, int],
    dilations: tuple[int, int],
    pads: tuple[int, int],
    wo: int,
    q0: int,
    q1: int,
) -> None:
    """Output positions [q0, q1) (Wo = `wo` a row) of image x (C, H, W) into
    col (panels, C * kh * kw, NR): position q0 + s * NR + l's window at
    col[s, :, l], 0 where it lies in the padding. Lanes past q1 are left as
    they are. Each output row's run of a panel is one vectorized copy per
    tap, its padding zeroed beside."""
    kh, kw = kernel
    sh, sw = strides
    dh, dw = dilations
    ph, pw = pads
    channels, h, w = x.shape
    for s in range((q1 - q0 + NR - 1) // NR):
        a = q0 + s * NR
        b = min(a + NR, q1)
        oy = a // wo
        while oy * wo < b:
            ox0 = max(a, oy * wo) - oy * wo
            ox1 = min(b, (oy + 1) * wo) - oy * wo
            base = oy * wo - a  # the lane of ox is base + ox
            for i in range(kh):
                iy = oy * sh - ph + i * dh
                for j in range(kw):
                    x0, x1 = _inside(j, sw, dw, pw, w, wo)
                    x0 = min(max(x0, ox0), ox1)
                    x1 = min(max(x1, x0), ox1)
                    if iy < 0 or iy >= h:
                        x0, x1 = ox1, ox1
                    offset = j * dw - pw
                    for c in range(channels):
                        r = (c * kh + i) * kw + j
                        for ox in range(ox0, x0):
                            col[s, r, _U(base + ox)] = _ZERO
                        if sw == 1:
                            for ox in range(x0, x1):
                                col[s, r, _U(base + ox)] = x[c, iy, _U(ox + offset)]
                        elif sw == 2:
                            for ox in range(x0, x1):
                                col[s, r, _U(base + ox)] = x[c, iy, _U(2 * ox + offset)]
                        else:
                            for ox in range(x0, x1):
                                col[s, r, _U(base + ox)] = x[
                                    c, iy, _U(ox * sw + offset)
                                ]
                        for ox in range(x1, ox1):
                            col[s, r, _U(base + ox)] = _ZERO
            oy += 1


@njit(cache=True, nogil=True, inline="always")
def _split_panels(
    x: Any,
    col: Any,
    kernel: tuple[int, int],
    strides: tuple[int, int],
    dilations: tuple[int, int],
    split: int,
    wo: int,
    q0: int,
    q1: int,
) -> None:
    """`_panels` from x (C, Hp, phases * `split`), the image padded and
    split by stride phase (`split_image`): tap (i, j) of output (oy, ox)
    at x[c, oy * sh + i * dh, (j * dw) % sw * split + ox + (j * dw) // sw],
    so that each output row's run of a tap is one contiguous copy, with
    nothing to test or zero."""
    kh, kw = kernel
    sh, sw = strides
    dh, dw = dilations
    channels = x.shape[0]
    for s in range((q1 - q0 + NR - 1) // NR):
        a = q0 + s * NR
        b = min(a + NR, q1)
        oy = a // wo
        while oy * wo < b:
            ox0 = max(a, oy * wo) - oy * wo
            ox1 = min(b, (oy + 1) * wo) - oy * wo
            base = oy * wo - a  # the lane of ox is base + ox
            for c in range(channels):
                for i in range(kh):
                    iy = oy * sh + i * dh
                    for j in range(kw):
                        r = (c * kh + i) * kw + j
                        at = (j * dw) % sw * split + (j * dw) // sw
                        for ox in range(ox0, ox1):
                            col[s, r, _U(base + ox)] = x[c, iy, _U(at + ox)]
            oy += 1


@njit(
    types.void(_X4, types.float32[:, :, :, ::1], _PAIR, types.intp),
    cache=True, nogil=True, error_model="numpy",
)  # fmt: skip
def split_image(x: Any, out: Any, pads: tuple[int, int], stride: int) -> None:
    """Each image of x (N, C, H, W) padded by `pads` (top, left) and split
    by the column's phase under `stride` into out (N, C, Hp, stride * Wq):
    padded column z at out[..., z % stride * Wq + z // stride]. Writes the
    image's elements only: the border stays zero from out's allocation."""
    ph, pw = pads
    h, w = x.shape[2], x.shape[3]
    rows, split = out.shape[2], out.shape[3] // stride
    end = min(w, split * stride - pw)  # the columns that land in out
    for n in range(x.shape[0]):
        for c in range(x.shape[1]):
            for y in range(min(h, rows - ph)):
                src, dst = x[n, c, y], out[n, c, y + ph]
                for phase in range(stride):
                    first = (phase - pw) % stride  # z + pw = phase (mod stride)
                    at = phase * split + (first + pw) // stride
                    for u in range((end - first + stride - 1) // stride):
                        dst[_U(at + u)] = src[_U(first + u * stride)]


@njit(
    types.void(
        _X3, _W2, _B1, types.intp, _O2, _PAIR, _PAIR, _PAIR, _PAIR, types.intp,
        types.intp, types.intp, types.intp, types.intp, types.intp, _C3, _C2, _C2,
    ),
    cache=True, nogil=True, error_model="numpy",
)  # fmt: skip
def conv(
    x: Any, w: Any, bias: Any, epilogue: int, out: Any, kernel: tuple[int, int],
    strides: tuple[int, int], dilations: tuple[int, int], pads: tuple[int, int],
    wo: int, split: int, q0: int, q1: int, r0: int, r1: int, col: Any, ta: Any,
    tc: Any,
) -> None:  # fmt: skip
    """out[r0:r1, q0:q1] = w[r0:r1] @ the windows of output positions [q0,
    q1) of image x (C, H, W) (+ bias[r0:r1] per row): w (M, C * kh * kw),
    out (M, Ho * Wo), Wo = `wo`. With `split`, x is the image padded and
    split by stride phase (`split_image`, phases `split` floats long).
    Scratch: `col` (panels a chunk, K, NR), its lanes past the last position
    zero or finite; `ta` (MR, K), `tc` (MR, NR)."""
    wide_vectors()  # pyright: ignore[reportCallIssue]
    k = w.shape[1]
    ldw, ldo = w.strides[0] // 4, out.strides[0] // 4
    full = r0 + (r1 - r0) // MR * MR  # rows of whole tiles
    rest = r1 - full
    if rest:  # the last rows, padded to a tile, once
        ta[:] = _ZERO
        for i in range(rest):
            for j in range(k):
                ta[i, j] = w[full + i, j]
    step = col.strides[0]
    base_w, base_col, base_o = w.ctypes.data, col.ctypes.data, out.ctypes.data
    chunk = col.shape[0] * NR
    depth = _even(k)
    for a in range(q0, q1, chunk):
        b = min(a + chunk, q1)
        if split:
            _split_panels(x, col, kernel, strides, dilations, split, wo, a, b)
        else:
            _panels(x, col, kernel, strides, dilations, pads, wo, a, b)
        whole = (b - a) // NR  # panels whose NR positions all lie in [a, b)
        for k0 in range(0, k, depth):
            kc = min(depth, k - k0)
            for s in range(whole):
                panel = base_col + s * step + k0 * NR * 4
                for r in range(r0, full, MR):
                    pw = base_w + (r * ldw + k0) * 4
                    po = base_o + (r * ldo + a + s * NR) * 4
                    _tile(pw, ldw, panel, po, ldo, kc, k0 > 0)  # pyright: ignore[reportCallIssue]
        # The tiles off the edge, whole k at once, through `tc`.
        panels = (b - a + NR - 1) // NR
        for s in range(panels):
            panel = base_col + s * step
            p = a + s * NR
            width = min(NR, b - p)
            if s >= whole:
                for r in range(r0, full, MR):
                    pw = base_w + r * ldw * 4
                    _tile(pw, ldw, panel, tc.ctypes.data, NR, k, False)  # pyright: ignore[reportCallIssue]
                    for i in range(MR):
                        for j in range(width):
                            out[r + i, p + j] = tc[i, j]
            if rest:
                _tile(ta.ctypes.data, k, panel, tc.ctypes.data, NR, k, False)  # pyright: ignore[reportCallIssue]
                for i in range(rest):
                    for j in range(width):
                        out[full + i, p + j] = tc[i, j]
        if epilogue:
            floor = _floor(epilogue)
            for r in range(r0, r1):
                value = bias[r] if epilogue & BIAS else _ZERO
                for q in range(a, b):
                    out[r, _U(q)] = _clamp(out[r, _U(q)] + value, floor)


@njit(cache=True, nogil=True, inline="always")
def _at(x: Any, c: int, y: int, z: int, edge: bool) -> Any:
    """x[c, y, z], 0 outside the image when `edge` (a tile on the border)."""
    if edge and (y < 0 or y >= x.shape[1] or z < 0 or z >= x.shape[2]):
        return _ZERO
    return x[c, y, _U(z)]


@njit(
    types.void(
        _X3, _X3, _B1, types.intp, _C3, _PAIR, types.intp, types.intp,
        types.intp, types.intp, _V1W, types.intp, _O2,
    ),
    cache=True, nogil=True, error_model="numpy",
)  # fmt: skip
def winograd(
    x: Any, u: Any, bias: Any, epilogue: int, out: Any, pads: tuple[int, int],
    t0: int, t1: int, r0: int, r1: int, v: Any, block: int, p: Any,
) -> None:  # fmt: skip
    """Winograd F(2x2, 3x3) of image x (C, H, W) into out[r0:r1] (M, Ho,
    Wo), for output tiles [t0, t1) (2x2 each, th * tw of them, row-major):
    chunks of `NR` tiles, each through the three steps while in L2.

    1. The input transform B^T d B of each 4x4 tile d (2 apart, from -pads):
       element e of lane l at v[e * block + c * NR + l] (a (C, NR) panel of
       B per e; `block` C * NR and a little, so that the 16 streams do not
       alias in L1), lanes past the chunk zeroed.
    2. The 16 GEMMs by the tile kernel: p[:, e * NR:][:NR] = u[e] @ panel
       e. u (16, Mp, C): the transformed kernels
       (`cpu_kernels_conv.winograd_weights`), element-major (each GEMM's
       weights one run of memory), Mp the rows rounded up to `MR`, zero
       past M.
    3. The output transform A^T p A of each tile into its 2x2 outputs, plus
       the bias; those past Ho or Wo are dropped. Per output channel, first
       over the chunk's `NR` lanes into a scratch, whose streams are a
       constant apart (LLVM vectorizes that; not the outputs, 2 apart),
       then moved into place: 64x56x56 to 64, one thread, 0.15-0.16 ms
       against 0.20 a tile at a time.

    r0 and r1 are multiples of `MR` (r1 may pass M: those rows are zero).
    The arithmetic is `cpu_kernels_conv`'s `winograd_input` and
    `winograd_output`'s."""
    wide_vectors()  # pyright: ignore[reportCallIssue]
    channels, h, w = x.shape
    m, ho, wo = out.shape
    tw = (wo + 1) // 2
    ph, pw = pads
    ldu, ldp = u.strides[1] // 4, p.strides[0] // 4
    base_u, base_v, base_p = u.ctypes.data, v.ctypes.data, p.ctypes.data
    depth = _even(channels)
    o = np.empty(4 * NR, np.float32)
    for a in range(t0, t1, NR):
        b = min(a + NR, t1)
        for c in range(channels):
            ty, tx = a // tw, a % tw
            for t in range(a, b):
                y, z = 2 * ty - ph, 2 * tx - pw
                edge = y < 0 or z < 0 or y + 4 > h or z + 4 > w
                d00, d01 = _at(x, c, y, z, edge), _at(x, c, y, z + 1, edge)
                d02, d03 = _at(x, c, y, z + 2, edge), _at(x, c, y, z + 3, edge)
                d10, d11 = _at(x, c, y + 1, z, edge), _at(x, c, y + 1, z + 1, edge)
                d12 = _at(x, c, y + 1, z + 2, edge)
                d13 = _at(x, c, y + 1, z + 3, edge)
                d20, d21 = _at(x, c, y + 2, z, edge), _at(x, c, y + 2, z + 1, edge)
                d22 = _at(x, c, y + 2, z + 2, edge)
                d23 = _at(x, c, y + 2, z + 3, edge)
                d30, d31 = _at(x, c, y + 3, z, edge), _at(x, c, y + 3, z + 1, edge)
                d32 = _at(x, c, y + 3, z + 2, edge)
                d33 = _at(x, c, y + 3, z + 3, edge)
                # B^T d: the rows d0 - d2, d1 + d2, d2 - d1, d1 - d3.
                r00, r01, r02, r03 = d00 - d20, d01 - d21, d02 - d22, d03 - d23
                r10, r11, r12, r13 = d10 + d20, d11 + d21, d12 + d22, d13 + d23
                r20, r21, r22, r23 = d20 - d10, d21 - d11, d22 - d12, d23 - d13
                r30, r31, r32, r33 = d10 - d30, d11 - d31, d12 - d32, d13 - d33
                at = c * NR + t - a
                # ... B: the same along each row.
                v[_U(at)] = r00 - r02
                v[_U(at + block)] = r01 + r02
                v[_U(at + 2 * block)] = r02 - r01
                v[_U(at + 3 * block)] = r01 - r03
                v[_U(at + 4 * block)] = r10 - r12
                v[_U(at + 5 * block)] = r11 + r12
                v[_U(at + 6 * block)] = r12 - r11
                v[_U(at + 7 * block)] = r11 - r13
                v[_U(at + 8 * block)] = r20 - r22
                v[_U(at + 9 * block)] = r21 + r22
                v[_U(at + 10 * block)] = r22 - r21
                v[_U(at + 11 * block)] = r21 - r23
                v[_U(at + 12 * block)] = r30 - r32
                v[_U(at + 13 * block)] = r31 + r32
                v[_U(at + 14 * block)] = r32 - r31
                v[_U(at + 15 * block)] = r31 - r33
                tx += 1
                if tx == tw:
                    ty, tx = ty + 1, 0
            for e in range(16):
                for lane in range(b - a, NR):
                    v[_U(e * block + c * NR + lane)] = _ZERO
        for e in range(16):
            for k0 in range(0, channels, depth):
                kc = min(depth, channels - k0)
                panel = base_v + (e * block + k0 * NR) * 4
                for r in range(r0, r1, MR):
                    pu = base_u + ((e * u.shape[1] + r) * ldu + k0) * 4
                    pp = base_p + (r * ldp + e * NR) * 4
                    _tile(pu, ldu, panel, pp, ldp, kc, k0 > 0)  # pyright: ignore[reportCallIssue]
        floor = _floor(epilogue)
        for r in range(r0, min(r1, m)):
            shift = bias[r] if epilogue & BIAS else _ZERO
            # A^T p A of the chunk's lanes into o: top-left, top-right,
            # bottom-left, bottom-right outputs, NR apart.
            for lane in range(NR):
                q0, q1 = p[r, _U(lane)], p[r, _U(NR + lane)]
                q2, q3 = p[r, _U(2 * NR + lane)], p[r, _U(3 * NR + lane)]
                q4, q5 = p[r, _U(4 * NR + lane)], p[r, _U(5 * NR + lane)]
                q6, q7 = p[r, _U(6 * NR + lane)], p[r, _U(7 * NR + lane)]
                q8, q9 = p[r, _U(8 * NR + lane)], p[r, _U(9 * NR + lane)]
                q10, q11 = p[r, _U(10 * NR + lane)], p[r, _U(11 * NR + lane)]
                q12, q13 = p[r, _U(12 * NR + lane)], p[r, _U(13 * NR + lane)]
                q14, q15 = p[r, _U(14 * NR + lane)], p[r, _U(15 * NR + lane)]
                # A^T p: rows p0 + p1 + p2 and p1 - p2 - p3, per column.
                s0, s1 = q0 + q4 + q8, q1 + q5 + q9
                s2, s3 = q2 + q6 + q10, q3 + q7 + q11
                e0, e1 = q4 - q8 - q12, q5 - q9 - q13
                e2, e3 = q6 - q10 - q14, q7 - q11 - q15
                o[_U(lane)] = _clamp(s0 + s1 + s2 + shift, floor)
                o[_U(NR + lane)] = _clamp(s1 - s2 - s3 + shift, floor)
                o[_U(2 * NR + lane)] = _clamp(e0 + e1 + e2 + shift, floor)
                o[_U(3 * NR + lane)] = _clamp(e1 - e2 - e3 + shift, floor)
            # ... then each tile's 2x2 into out, those past Ho or Wo dropped.
            ty, tx = a // tw, a % tw
            for t in range(a, b):
                lane = t - a
                y, z = 2 * ty, 2 * tx
                out[r, y, _U(z)] = o[_U(lane)]
                if z + 1 < wo:
                    out[r, y, _U(z + 1)] = o[_U(NR + lane)]
                if y + 1 < ho:
                    out[r, y + 1, _U(z)] = o[_U(2 * NR + lane)]
                    if z + 1 < wo:
                        out[r, y + 1, _U(z + 1)] = o[_U(3 * NR + lane)]
                tx += 1
                if tx == tw:
                    ty, tx = ty + 1, 0


@njit(
    types.void(
        _X3, _C3, _X3, _B1, types.intp, _O2, _PAIR, _PAIR, _PAIR, _PAIR,
        types.intp, types.intp, types.intp, _C2, _C2,
    ),
    cache=True, nogil=True, error_model="numpy",
)  # fmt: skip
def conv_rows(
    x: Any, padded: Any, wp: Any, bias: Any, epilogue: int, out: Any,
    kernel: tuple[int, int], strides: tuple[int, int], dilations: tuple[int, int],
    pads: tuple[int, int], wo: int, p0: int, p1: int, col: Any, product: Any,
) -> None:  # fmt: skip
    """out[p0 * NR:p1 * NR] (M, Ho * Wo) = the convolution of image x (C, H,
    W) by the weights of panels [p0, p1) of wp (M / NR, kh * kw * C, NR:
    the weights tap-major, packed), plus bias, with the output positions as
    the tile kernel's rows: few positions (7x7: 49, 9 tiles of 6 rows, where
    as panels of 64 they waste 15 of each). Each panel of 64 output channels
    streams once, k block by k block, over the rows of windows in L2.

    Scratch: `padded` (rows, columns, C), x moved channels-last at (ph, pw)
    in a border of zeros that stays from its allocation (each window's tap a
    run of C floats); `col` (positions rounded up to `MR`, kh * kw * C), the
    windows as rows (those past the positions zero from allocation);
    `product` (as many rows, NR), a panel's product, moved into out."""
    wide_vectors()  # pyright: ignore[reportCallIssue]
    kh, kw = kernel
    sh, sw = strides
    dh, dw = dilations
    ph, pw = pads
    channels, h, w = x.shape
    rows, columns = padded.shape[0], padded.shape[1]
    for y in range(min(h, rows - ph)):
        for z in range(min(w, columns - pw)):
            for c in range(channels):
                padded[y + ph, z + pw, _U(c)] = x[c, y, z]
    positions = out.shape[1]
    for q in range(positions):
        oy, ox = q // wo, q % wo
        for i in range(kh):
            for j in range(kw):
                at = (i * kw + j) * channels
                y, z = oy * sh + i * dh, ox * sw + j * dw
                for c in range(channels):
                    col[q, _U(at + c)] = padded[y, z, _U(c)]
    k = col.shape[1]
    depth = _even(k)
    m = out.shape[0]
    base_col, base_w, base_p = col.ctypes.data, wp.ctypes.data, product.ctypes.data
    tiles = col.shape[0] // MR
    lines = depth * NR * 4 // 64  # of a block of a panel
    share = -(-lines // tiles)
    for p in range(p0, p1):
        for k0 in range(0, k, depth):
            kc = min(depth, k - k0)
            panel = base_w + (p * wp.strides[0] // 4 + k0 * NR) * 4
            ahead = panel + kc * NR * 4  # the next block (the weights' stream)
            for i in range(tiles):
                for line in range(i * share, min(lines, (i + 1) * share)):
                    _prefetch(ahead + line * 64)  # pyright: ignore[reportCallIssue]
                pa = base_col + (i * MR * k + k0) * 4
                _tile(pa, k, panel, base_p + i * MR * NR * 4, NR, kc, k0 > 0)  # pyright: ignore[reportCallIssue]
        floor = _floor(epilogue)
        for j in range(min(NR, m - p * NR)):
            shift = bias[p * NR + j] if epilogue & BIAS else _ZERO
            for q in range(positions):
                out[p * NR + j, _U(q)] = _clamp(product[q, j] + shift, floor)


_PLUS, _MINUS = np.float32(1.0), np.float32(-1.0)


@njit(cache=True, nogil=True, inline="always")
def _pair(out: Any, a: Any, b: Any, sign: Any) -> None:
    """out = a + sign * b (sign 1 or -1: exactly a + b or a - b) over runs
    of floats: one store and two loads a loop, so that LLVM vectorizes it
    (with 16 stores to a run-time stride apart it needs too many memory
    checks, and leaves the loop scalar)."""
    for c in range(out.shape[0]):
        out[_U(c)] = a[_U(c)] + sign * b[_U(c)]


@njit(
    types.void(
        _X3, _C3, _X4, _B1, types.intp, _O3, _PAIR, types.intp, types.intp,
        types.boolean, _C2, _C3,
    ),
    cache=True, nogil=True, error_model="numpy",
)  # fmt: skip
def winograd_rows(
    x: Any, padded: Any, wp: Any, bias: Any, epilogue: int, out: Any,
    pads: tuple[int, int], p0: int, p1: int, transform: bool, v: Any, product: Any,
) -> None:  # fmt: skip
    """Winograd F(2x2, 3x3) of image x (C, H, W) into the output channels of
    panels [p0, p1) of out (M, Ho, Wo), with the tiles as the tile kernel's
    rows and the output channels as its panels of `NR`: few tiles (14x14
    outputs: 49, 9 tiles of 6 rows, where as a panel of 64 lanes they
    waste 15; 7x7: 16 in 18 rows, not 64).

    1. With `transform`: x moved channels-last into `padded` (2 * th + 2,
       2 * tw + 2, C) at (ph, pw) in a border of zeros that stays from its
       allocation, then each 4x4 tile d's B^T d B into v (16, rows, C):
       element e of tile t at v[e, t], a run of C floats (rows past the
       tiles zero from allocation); each sum or difference one loop over
       such a run (`_pair`: 128x28x28, one thread, 0.10 ms against
       0.15-0.19 a float at a time). Without, v holds this image's
       already.
    2. Per panel p, the 16 GEMMs by the tile kernel: product[e] (rows, NR)
       = v[e] @ wp[e, p]; wp (16, panels, C, NR): the transformed kernels
       (`cpu_kernels_conv.winograd_weights`) of each element packed in
       panels of `NR` output channels, zero past M.
    3. A^T p A of each tile into its 2x2 outputs, plus the bias; those past
       Ho or Wo are dropped.

    The arithmetic is `winograd`'s."""
    wide_vectors()  # pyright: ignore[reportCallIssue]
    channels, h, w = x.shape
    m, ho, wo = out.shape
    tw = (wo + 1) // 2
    tiles = ((ho + 1) // 2) * tw
    rows = product.shape[1]
    if transform:
        ph, pw = pads
        for y in range(min(h, padded.shape[0] - ph)):
            for z in range(min(w, padded.shape[1] - pw)):
                for c in range(channels):
                    padded[y + ph, z + pw, _U(c)] = x[c, y, z]
        r = np.empty((16, channels), np.float32)
        for t in range(tiles):
            y, z = 2 * (t // tw), 2 * (t % tw)
            at = t * channels
            # B^T d, column j: the rows d0 - d2, d1 + d2, d2 - d1, d1 - d3
            # into r[4 * k + j] (k the row of B^T) ...
            for j in range(4):
                d0, d1 = padded[y, z + j], padded[y + 1, z + j]
                d2, d3 = padded[y + 2, z + j], padded[y + 3, z + j]
                _pair(r[j], d0, d2, _MINUS)
                _pair(r[4 + j], d1, d2, _PLUS)
                _pair(r[8 + j], d2, d1, _MINUS)
                _pair(r[12 + j], d1, d3, _MINUS)
            # ... B: the same along each row k, into v[4 * k + l].
            for k in range(4):
                r0, r1, r2, r3 = r[4 * k], r[4 * k + 1], r[4 * k + 2], r[4 * k + 3]
                _pair(v[4 * k, at : at + channels], r0, r2, _MINUS)
                _pair(v[4 * k + 1, at : at + channels], r1, r2, _PLUS)
                _pair(v[4 * k + 2, at : at + channels], r2, r1, _MINUS)
                _pair(v[4 * k + 3, at : at + channels], r1, r3, _MINUS)
    depth = _even(channels)
    base_v, base_w, base_p = v.ctypes.data, wp.ctypes.data, product.ctypes.data
    ldw_e, ldw_p = wp.strides[0] // 4, wp.strides[1] // 4
    ldv = v.strides[0] // 4
    tiles_of_rows = rows // MR
    lines = depth * NR * 4 // 64  # of a block of a panel
    share = -(-lines // tiles_of_rows)
    for p in range(p0, p1):
        for e in range(16):
            for k0 in range(0, channels, depth):
                kc = min(depth, channels - k0)
                panel = base_w + (e * ldw_e + p * ldw_p + k0 * NR) * 4
                # The next block of the weights' stream, asked for ahead.
                if k0 + kc < channels:
                    ahead = panel + kc * NR * 4
                elif e < 15:
                    ahead = base_w + ((e + 1) * ldw_e + p * ldw_p) * 4
                else:
                    ahead = base_w + (p + 1) * ldw_p * 4
                for i in range(tiles_of_rows):
                    for line in range(i * share, min(lines, (i + 1) * share)):
                        _prefetch(ahead + line * 64)  # pyright: ignore[reportCallIssue]
                    pa = base_v + (e * ldv + i * MR * channels + k0) * 4
                    pc = base_p + (e * rows + i * MR) * NR * 4
                    _tile(pa, channels, panel, pc, NR, kc, k0 > 0)  # pyright: ignore[reportCallIssue]
        lanes = min(NR, m - p * NR)
        floor = _floor(epilogue)
        for t in range(tiles):
            y, z = 2 * (t // tw), 2 * (t % tw)
            for j in range(lanes):
                r = p * NR + j
                shift = bias[r] if epilogue & BIAS else _ZERO
                # A^T p: rows p0 + p1 + p2 and p1 - p2 - p3, per column.
                q0, q1 = product[0, t, _U(j)], product[1, t, _U(j)]
                q2, q3 = product[2, t, _U(j)], product[3, t, _U(j)]
                q4, q5 = product[4, t, _U(j)], product[5, t, _U(j)]
                q6, q7 = product[6, t, _U(j)], product[7, t, _U(j)]
                q8, q9 = product[8, t, _U(j)], product[9, t, _U(j)]
                q10, q11 = product[10, t, _U(j)], product[11, t, _U(j)]
                q12, q13 = product[12, t, _U(j)], product[13, t, _U(j)]
                q14, q15 = product[14, t, _U(j)], product[15, t, _U(j)]
                s0, s1 = q0 + q4 + q8, q1 + q5 + q9
                s2, s3 = q2 + q6 + q10, q3 + q7 + q11
                e0, e1 = q4 - q8 - q12, q5 - q9 - q13
                e2, e3 = q6 - q10 - q14, q7 - q11 - q15
                out[r, y, _U(z)] = _clamp(s0 + s1 + s2 + shift, floor)
                if z + 1 < wo:
                    out[r, y, _U(z + 1)] = _clamp(s1 - s2 - s3 + shift, floor)
                if y + 1 < ho:
                    out[r, y + 1, _U(z)] = _clamp(e0 + e1 + e2 + shift, floor)
                    if z + 1 < wo:
                        out[r, y + 1, _U(z + 1)] = _clamp(e1 - e2 - e3 + shift, floor)


@njit(
    types.void(
        _X4, _W2, _B1, types.intp, _O3, _PAIR, _PAIR, _PAIR, _PAIR, types.intp,
        types.intp, _SHARES, _C4, _C3, _C3, _STATE,
    ),
    cache=True, nogil=True, error_model="numpy", parallel=True,
)  # fmt: skip
def conv_pool(
    x: Any, w: Any, bias: Any, epilogue: int, out: Any, kernel: tuple[int, int],
    strides: tuple[int, int], dilations: tuple[int, int], pads: tuple[int, int],
    wo: int, split: int, shares: Any, col: Any, ta: Any, tc: Any, state: Any,
) -> None:  # fmt: skip
    """`conv` of the shares (q0, q1, r0, r1) of each image of x (N, C, H,
    W) into out (N, M, Ho * Wo), one launch on numba's threads: unit u is
    image u // len(shares)'s share u % len(shares); `col[j]`, `ta[j]`,
    `tc[j]` the scratch of thread j (`team`, `review`)."""
    threads = team(state, col.shape[0])  # pyright: ignore[reportCallIssue]
    count = shares.shape[0]
    units = x.shape[0] * count
    for j in prange(threads):
        u = take(state, 0)  # pyright: ignore[reportCallIssue]
        while u < units:
            n, i = u // count, u % count
            conv(
                x[n], w, bias, epilogue, out[n], kernel, strides, dilations, pads,
                wo, split, shares[i, 0], shares[i, 1], shares[i, 2], shares[i, 3],
                col[j], ta[j], tc[j],
            )  # fmt: skip
            state[4 + j] += 1
            u = take(state, 0)  # pyright: ignore[reportCallIssue]
    review(state, threads)  # pyright: ignore[reportCallIssue]


@njit(
    types.void(
        _X4, _C4, _X3, _B1, types.intp, _O3, _PAIR, _PAIR, _PAIR, _PAIR,
        types.intp, _SHARES, _C3, _C3, _STATE,
    ),
    cache=True, nogil=True, error_model="numpy", parallel=True,
)  # fmt: skip
def conv_rows_pool(
    x: Any, padded: Any, wp: Any, bias: Any, epilogue: int, out: Any,
    kernel: tuple[int, int], strides: tuple[int, int], dilations: tuple[int, int],
    pads: tuple[int, int], wo: int, shares: Any, col: Any, product: Any,
    state: Any,
) -> None:  # fmt: skip
    """`conv_rows` of the shares (p0, p1) of each image, one launch on
    numba's threads, as `conv_pool`; `padded[j]`, `col[j]`, `product[j]`
    thread j's scratch."""
    threads = team(state, col.shape[0])  # pyright: ignore[reportCallIssue]
    count = shares.shape[0]
    units = x.shape[0] * count
    for j in prange(threads):
        u = take(state, 0)  # pyright: ignore[reportCallIssue]
        while u < units:
            n, i = u // count, u % count
            conv_rows(
                x[n], padded[j], wp, bias, epilogue, out[n], kernel, strides,
                dilations, pads, wo, shares[i, 0], shares[i, 1], col[j], product[j],
            )  # fmt: skip
            state[4 + j] += 1
            u = take(state, 0)  # pyright: ignore[reportCallIssue]
    review(state, threads)  # pyright: ignore[reportCallIssue]


@njit(
    types.void(
        _X4, _X3, _B1, types.intp, _C4, _PAIR, _SHARES, _C2, types.intp, _C3,
        _STATE,
    ),
    cache=True, nogil=True, error_model="numpy", parallel=True,
)  # fmt: skip
def winograd_pool(
    x: Any, u: Any, bias: Any, epilogue: int, out: Any, pads: tuple[int, int],
    shares: Any, v: Any, block: int, p: Any, state: Any,
) -> None:  # fmt: skip
    """`winograd` of the shares (t0, t1, r0, r1) of each image of x into
    out (N, M, Ho, Wo), one launch on numba's threads, as `conv_pool`;
    `v[j]`, `p[j]` thread j's scratch."""
    threads = team(state, v.shape[0])  # pyright: ignore[reportCallIssue]
    count = shares.shape[0]
    units = x.shape[0] * count
    for j in prange(threads):
        t = take(state, 0)  # pyright: ignore[reportCallIssue]
        while t < units:
            n, i = t // count, t % count
            winograd(
                x[n], u, bias, epilogue, out[n], pads, shares[i, 0], shares[i, 1],
                shares[i, 2], shares[i, 3], v[j], block, p[j],
            )  # fmt: skip
            state[4 + j] += 1
            t = take(state, 0)  # pyright: ignore[reportCallIssue]
    review(state, threads)  # pyright: ignore[reportCallIssue]


@njit(
    types.void(
        _X4, _C4, _X4, _B1, types.intp, _C4, _PAIR, _SHARES, _C3, _C4, _STATE,
    ),
    cache=True, nogil=True, error_model="numpy", parallel=True,
)  # fmt: skip
def winograd_rows_pool(
    x: Any, padded: Any, wp: Any, bias: Any, epilogue: int, out: Any,
    pads: tuple[int, int], shares: Any, v: Any, product: Any, state: Any,
) -> None:  # fmt: skip
    """`winograd_rows` of the shares (p0, p1) of each image of x into out
    (N, M, Ho, Wo), one launch on numba's threads, as `conv_pool`;
    `padded[j]`, `v[j]`, `product[j]` thread j's scratch. A thread
    transforms an image's tiles once, at its first share of it (the units
    run image by image)."""
    threads = team(state, v.shape[0])  # pyright: ignore[reportCallIssue]
    count = shares.shape[0]
    units = x.shape[0] * count
    for j in prange(threads):
        held = -1
        u = take(state, 0)  # pyright: ignore[reportCallIssue]
        while u < units:
            n, i = u // count, u % count
            winograd_rows(
                x[n], padded[j], wp, bias, epilogue, out[n], pads, shares[i, 0],
                shares[i, 1], n != held, v[j], product[j],
            )  # fmt: skip
            held = n
            state[4 + j] += 1
            u = take(state, 0)  # pyright: ignore[reportCallIssue]
    review(state, threads)  # pyright: ignore[reportCallIssue]


@njit(
    types.void(_X3, _C3, _PAIR, _PAIR, _PAIR, _PAIR, _SHARES, types.intp, _STATE),
    cache=True, nogil=True, parallel=True,
)  # fmt: skip
def max_pool_pool(
    x: Any, out: Any, kernel: tuple[int, int], strides: tuple[int, int],
    dilations: tuple[int, int], pads: tuple[int, int], shares: Any, threads: int,
    state: Any,
) -> None:  # fmt: skip
    """`cpu_kernels_conv.max_pool` of the runs of planes (lo, hi) in
    `shares`, one launch on at most `threads` of numba's, as `conv_pool`."""
    team_size = team(state, threads)  # pyright: ignore[reportCallIssue]
    for j in prange(team_size):
        i = take(state, 0)  # pyright: ignore[reportCallIssue]
        while i < shares.shape[0]:
            lo, hi = shares[i, 0], shares[i, 1]
            max_pool(x, out, kernel, strides, dilations, pads, lo, hi)
            state[4 + j] += 1
            i = take(state, 0)  # pyright: ignore[reportCallIssue]
    review(state, team_size)  # pyright: ignore[reportCallIssue]
