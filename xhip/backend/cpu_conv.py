"""The CPU runtime's convolution and pooling.

`CpuConvolutions` is mixed into `CpuRuntime` (cpu.py). No Python loop runs
per pixel:

- `conv` (bound once, `bind_conv`: the copies and GEMMs over fixed views):
  im2col into the op's workspace (one image: `C * prod(k) * prod(o)`
  elements), one strided copy per kernel tap, then one batched GEMM over the
  groups (`np.matmul` with `out=`, BLAS per group) per image. A 1x1 kernel with
  unit strides and no pads (an empty workspace) is one `matmul` of the
  weights with the whole batch. 2-D float32 ops of `KERNEL_MIN_ELEMENTS` or
  more (or convolutions of `KERNEL_MIN_MACS` multiply-adds) take the numba kernels of `cpu_kernels_conv` (loaded then): im2col in
  one pass; a depthwise convolution directly (no column matrix); a 3x3
  unit-stride one as Winograd F(2x2, 3x3) in the same workspace
  (`_bind_winograd`); a column matrix of several L2-sized blocks per thread
  by blocks of output rows (`_bind_blocked`). A GEMM of many more positions
  than output channels is cut over the threads by positions (`_bind_gemm`).
  On AVX-512 (`wide_simd`) the GEMMs of one group are the tile kernel's
  (`cpu_kernels_convgemm`), each a kernel per thread: Winograd's chunks of
  64 tiles transformed, multiplied and transformed back in L2
  (`_bind_winograd_tiles`), or with few tiles and constant weights the
  tiles as the kernel's rows (`_bind_winograd_rows`); other convolutions'
  windows written into the tile kernel's panels and multiplied by the
  weights in place (`_bind_direct`; a large strided kernel, the stem's,
  reads them from the image split by stride phase), or few positions as
  its rows (`_bind_by_rows`). On numba's pool (`cpu_host.numba_pool`) each
  of these convolutions, and the large max pool, is one launch whose
  threads take its shares (`cpu_kernels_convgemm`'s `_pool` kernels), not
  a Python worker woken a share.
- `pool`: a large 2-D float32 max pool by the numba kernel, the planes cut
  over the threads; the rest by numpy (`cpu_pooling.pool`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from xhip.backend import cpu_host
from xhip.backend.cpu_host import (
    BLAS_PARALLEL_MIN_MACS,
    CpuHost,
    contiguous,
    nothing,
    run_all,
    wide_simd,
)
from xhip.backend.cpu_pooling import pool, window_slices
from xhip.backend.runtime import DA, InputError, OptDA
from xhip.dialects.hip import ConvAttributes, PoolAttributes, WindowAttributes
from xhip.dialects.hip.conv import window_too_large

PARALLEL_MIN_ELEMENTS = 1 << 16
"""A workspace smaller than this is filled on one thread (as `cpu.py`'s)."""

KERNEL_MIN_ELEMENTS = 1 << 14
"""The numba kernels (`cpu_kernels_conv`) run where an op writes at least
this many elements (its column matrix, or for a depthwise convolution and a
pool, its output times the kernel's taps): below it the numpy forms cost
little, and a small model never loads numba."""

KERNEL_MIN_MACS = 1 << 22
"""Where a convolution's column matrix is under `KERNEL_MIN_ELEMENTS` but its
multiply-adds an image reach this, it takes the tile kernel
(`_direct_fits`) all the same: many output channels over few positions.
ResNet's last downsample (1x1 of stride 2, 256 to 512 channels, 7x7
outputs: 12,544 column elements, 6.4 M multiply-adds) took 151-186 us by
numpy's im2col and BLAS against 120-126 by the tile kernel (two threads,
best and median of 40 alternating, load 0.4)."""

BLOCK_BYTES = 1 << 20
"""The column matrix's block per thread where a convolution runs by blocks
(`_bind_blocked`): about a core's L2."""

ROWS_MIN_DEPTH = 512
"""Fewest multiply-adds an output for `_rows_first`."""

_MR, _NR = 6, 64
"""The GEMM tile kernel's rows and columns (`cpu_kernels_attention`'s; not
imported here, where numba would load with it)."""

WINOGRAD_MIN_TILES = 32
"""A 3x3 convolution with fewer 2x2 output tiles per image (7x7 outputs: 16)
keeps im2col: its 16 GEMMs would be too thin, and the kernels' transform,
made each call, would cost about what the GEMMs save. The tile kernel's
Winograd fills a quarter of its 64-tile panel there: 512x7x7, one thread,
4.0 ms against 1.7-1.9 by `_bind_direct`; at 256x14x14 (49 tiles) 0.98-1.05
against 1.96."""

WINOGRAD_ROWS_BYTES = 1 << 21
"""Most bytes of an image's transformed tiles (16 * tiles * C floats) where
a 3x3 convolution runs as Winograd with the tiles as the tile kernel's
rows (`_bind_winograd_rows`): in L2 beside the weights' stream. One
thread, CPU time, best of 30 alternating with `_bind_winograd_tiles`, load
3.2-3.5: 256x14x14 1.12 ms against 1.19-1.21 (49 tiles: 54 rows against a
64-lane panel), 128x28x28 (1.6 MB) 1.02 against 1.11-1.16; 64x56x56 (3.2
MB, past L2) 1.49 against 1.29-1.31."""

SPLIT_MIN_TAPS = 25
"""Fewest taps of a strided kernel whose windows `_bind_direct` reads from
the image split by stride phase (`_splits`). One thread, CPU time, best of
30 alternating, load 3-4: the stem (3 to 64, 7x7/2 at 224) 1.64-1.67 ms
against 1.94-1.96; 3x3/2 (64 to 128 at 56; 256 to 512 at 14) 0.94, 0.89
against 0.86, 0.85 (the split's copy costs more than it saves)."""

COLUMN_SPLIT_RATIO = 4
"""A GEMM with at least this many times more positions than output rows is
cut over the threads by positions (`_bind_gemm`)."""


CHUNK_BYTES = 1 << 18
"""The column panels a chunk where a convolution runs as one numba kernel
(`_bind_direct`): with the weights' block, in a core's L2."""


def _uses_kernels(x: np.ndarray, kernel: Sequence[int], elements: int) -> bool:
    """Whether a 2-D float32 window op of this size runs the numba kernels."""
    return (
        x.dtype == np.float32 and len(kernel) == 2 and elements >= KERNEL_MIN_ELEMENTS
    )


def _winograd_fits(
    xs: np.ndarray,
    ws: np.ndarray,
    o: np.ndarray,
    work: np.ndarray,
    attrs: ConvAttributes,
) -> bool:
    """Whether a convolution runs as Winograd F(2x2, 3x3) (`_bind_winograd`):
    3x3, unit strides and dilations, one group, float32, at least
    `WINOGRAD_MIN_TILES` tiles, and its tiles and products fit in the
    workspace (16 * tiles * (C + M) elements of the im2col's C * 9 * Ho * Wo)."""
    if ws.shape[2:] != (3, 3) or attrs.group != 1 or xs.dtype != np.float32:
        return False
    if attrs.strides != (1, 1) or attrs.dilations != (1, 1):
        return False
    tiles = ((o.shape[2] + 1) // 2) * ((o.shape[3] + 1) // 2)
    need = 16 * tiles * (xs.shape[1] + ws.shape[0])
    return (
        tiles >= WINOGRAD_MIN_TILES
        and need <= work.size
        and _uses_kernels(xs, (3, 3), work.size)
    )


def _winograd_rows_fits(
    xs: np.ndarray, ws: np.ndarray, o: np.ndarray, attrs: ConvAttributes
) -> bool:
    """Whether a convolution runs as Winograd with the tiles as the tile
    kernel's rows (`_bind_winograd_rows`): 3x3, unit strides and
    dilations, one group, float32 on AVX-512 (`wide_simd`), constant
    weights (transformed once), large enough for the kernels, at least
    `WINOGRAD_MIN_TILES` tiles (at 7x7, 16 tiles, the transformed kernels,
    16.8 MB at 512 channels against 9.4, are read from memory for 18 rows:
    `_bind_by_rows` is as fast) and its transformed tiles within
    `WINOGRAD_ROWS_BYTES`."""
    if ws.shape[2:] != (3, 3) or attrs.group != 1 or ws.flags.writeable:
        return False
    if attrs.strides != (1, 1) or attrs.dilations != (1, 1):
        return False
    if not xs.dtype == ws.dtype == o.dtype == np.float32:
        return False
    tiles = ((o.shape[2] + 1) // 2) * ((o.shape[3] + 1) // 2)
    rows = -(-tiles // _MR) * _MR
    c = xs.shape[1]
    return (
        tiles >= WINOGRAD_MIN_TILES
        and 16 * rows * c * 4 <= WINOGRAD_ROWS_BYTES
        and _uses_kernels(xs, (3, 3), c * 9 * math.prod(o.shape[2:]))
        and wide_simd()
    )


def _direct_fits(
    xs: np.ndarray, ws: np.ndarray, o: np.ndarray, attrs: ConvAttributes
) -> bool:
    """Whether a convolution runs as one numba kernel (`_bind_direct`): 2-D,
    one group, float32, on AVX-512 (`wide_simd`: the micro-kernel's 24
    accumulators), large enough for the kernels: by its column matrix, or
    by its multiply-adds (`KERNEL_MIN_MACS`)."""
    kernel = ws.shape[2:]
    elements = xs.shape[1] * math.prod(kernel) * math.prod(o.shape[2:])
    return (
        attrs.group == 1
        and xs.dtype == ws.dtype == o.dtype == np.float32
        and (
            _uses_kernels(xs, kernel, elements)
            or _uses_kernels(xs, kernel, KERNEL_MIN_ELEMENTS)
            and elements * ws.shape[0] >= KERNEL_MIN_MACS
        )
        and wide_simd()
    )


def _splits(kernel: tuple[int, int], strides: tuple[int, int]) -> bool:
    """Whether `_bind_direct` first pads and splits the image by stride
    phase (`cpu_kernels_convgemm.split_image`), so that its windows are
    contiguous copies: a strided kernel of at least `SPLIT_MIN_TAPS`."""
    return strides[1] > 1 and kernel[0] * kernel[1] >= SPLIT_MIN_TAPS


def _rows_first(positions: int, channels: int, depth: int) -> bool:
    """Whether a convolution's GEMM takes the output positions as the tile
    kernel's rows (`_bind_by_rows`) rather than as its panels of 64
    (`_bind_direct`): where that wastes at least a fifth less of the
    kernel's work (14x14 outputs: 196 positions, 198 rows of tiles against
    4 panels of 64) and each output takes at least `ROWS_MIN_DEPTH`
    multiply-adds (moving the windows and the product costs the same
    either way). One thread, CPU time, warm / cold caches: 128x28x28 to 256,
    3x3 stride 2, 0.90 / 0.98 ms against 1.22 / 1.14; its 1x1 0.18 / 0.27
    against 0.16 / 0.23; at 7x7 (49 positions, 54 rows against a panel, an
    eighth less) the two tie on one thread (512 channels: 2.40 / 2.42
    against 2.32 / 2.39), but a single panel takes rows too: on two threads
    each would write all its windows for half the output channels (512 to
    512 at 7x7, best of 40-80 alternating, load 1.2-3.6: 0.88-1.94 ms
    against 1.25-2.11; one thread 1.54-1.93 against 1.75-1.98)."""
    as_panels = -(-positions // _NR) * _NR * (-(-channels // _MR) * _MR)
    as_rows = -(-positions // _MR) * _MR * (-(-channels // _NR) * _NR)
    fewer = as_rows * 5 <= as_panels * 4 or positions <= _NR < channels
    return fewer and depth >= ROWS_MIN_DEPTH


def _kernel_epilogue(
    shift: np.ndarray | None, relu: bool, calls: list[Callable[[], object]]
) -> tuple[np.ndarray, int]:
    """The tile kernels' bias operand (read-only, as they are compiled for;
    a zero where there is none) and their `epilogue`: whether they add it
    (`BIAS`) and clamp at zero (`RELU`)."""
    from xhip.backend import cpu_kernels_convgemm as k  # lazy: numba, large only

    bias = np.zeros(1, np.float32) if shift is None else contiguous(shift, calls)
    return k.readonly(bias), (shift is not None) * k.BIAS + relu * k.RELU


def _window_2d(
    attrs: WindowAttributes,
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Strides, dilations and begin pads of a 2-D window, as the numba
    kernels take them (the end pads follow from the output's shape)."""
    s, d, p = attrs.strides, attrs.dilations, attrs.pads
    return (s[0], s[1]), (d[0], d[1]), (p[0], p[1])


def bind_im2col(
    image: np.ndarray, col: np.ndarray, kernel: Sequence[int], window: WindowAttributes
) -> list[Callable[[], object]]:
    """The calls filling `col` (C, prod(kernel), o...) with the window
    elements of `image` (C, s...), 0 where a window reaches into the padding:
    one strided copy per tap."""
    calls: list[Callable[[], object]] = []
    if any(window.pads):
        calls.append(partial(col.fill, 0))
    in_shape, out_shape = image.shape[1:], col.shape[2:]
    for k, tap in enumerate(np.ndindex(*kernel)):
        slices = window_slices(tap, in_shape, out_shape, window)
        if slices is not None:
            dst, src = slices
            part = col[(slice(None), k, *dst)]
            calls.append(partial(np.copyto, part, image[(slice(None), *src)]))
    return calls


class CpuConvolutions(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` methods of convolution and pooling."""

    fuses_conv_relu = True

    def conv(
        self, x: DA, w: DA, bias: OptDA, out: DA, workspace: DA, attrs: ConvAttributes
    ) -> None:
        """ONNX Conv of x (N, C, s...) by w (M, C/group, k...), plus `bias` (M)
        if given, into out (N, M, o...). `pads` are the begins then the ends.
        `workspace` (1-D, from the memory plan) holds the im2col matrix of one
        image, `C * prod(k) * prod(o)` elements (or Winograd's tiles and
        products, or a block per thread), or is empty where that matrix is the
        image itself; besides it, only Winograd keeps buffers of its own (the
        transformed kernels, `16 * M * C` elements, and a padded plane per
        thread)."""
        self.bind_conv(x, w, bias, out, workspace, attrs)()

    def bind_conv(
        self, x: DA, w: DA, bias: OptDA, out: DA, workspace: DA, attrs: ConvAttributes
    ) -> Callable[[], object]:
        xs, ws, o, work = (self.array(v) for v in (x, w, out, workspace))
        n, c, group = *xs.shape[:2], attrs.group
        m, kernel, out_spatial = ws.shape[0], ws.shape[2:], o.shape[2:]
        positions = math.prod(out_spatial)
        if problem := window_too_large(xs.shape[2:], kernel, attrs):
            raise InputError(f"Conv: {problem}")
        if n == 0 or o.size == 0:
            return nothing
        calls: list[Callable[[], object]] = []
        shift = None if bias is None else self.array(bias)
        # A fused Relu's out (`hip-fuse-conv-relu`) may share memory with an
        # operand that the plan let die at the conv: written through a copy.
        operands = (xs, ws, work) if shift is None else (xs, ws, work, shift)
        apart = not attrs.relu or not any(np.may_share_memory(o, a) for a in operands)
        target = o if o.flags.c_contiguous and apart else np.empty_like(o)
        clamped = False  # the Relu done by the kernels
        if group == c > 1 and _uses_kernels(xs, kernel, o.size * math.prod(kernel)):
            calls.append(self._bind_depthwise(xs, ws, shift, target, attrs, calls))
            shift = None
        elif work.size == 0:  # the im2col matrix is the image itself
            weights = contiguous(ws, calls).reshape(group, m // group, -1)
            images = contiguous(xs, calls).reshape(n, group, c // group, positions)
            out_rows = target.reshape(n, group, m // group, positions)
            calls.append(self._bind_gemm(weights, images, out_rows))
        elif _winograd_rows_fits(xs, ws, o, attrs):
            calls.append(self._bind_winograd_rows(xs, ws, shift, target, attrs, calls))
            shift, clamped = None, True
        elif _winograd_fits(xs, ws, o, work, attrs) and wide_simd():
            calls.append(
                self._bind_winograd_tiles(xs, ws, shift, target, work, attrs, calls)
            )
            shift, clamped = None, True
        elif _winograd_fits(xs, ws, o, work, attrs):
            calls.append(self._bind_winograd(xs, ws, shift, target, work, attrs, calls))
            shift = None
        elif _direct_fits(xs, ws, o, attrs):
            depth = c // group * math.prod(kernel)
            by_rows = not ws.flags.writeable and _rows_first(positions, m, depth)
            bind = self._bind_by_rows if by_rows else self._bind_direct
            calls.append(bind(xs, ws, shift, target, attrs, calls))
            shift, clamped = None, True
        elif (rows := self._block_rows(xs, ws, o, work, group)) is not None:
            weights = contiguous(ws, calls).reshape(m, -1)
            calls += self._bind_blocked(
                xs, weights, shift, target, work, rows, kernel, attrs
            )
            shift = None
        else:
            weights = contiguous(ws, calls).reshape(group, m // group, -1)
            cols = work.reshape(group, -1, positions)
            col = work.reshape(c, math.prod(kernel), *out_spatial)
            fill = self._bind_im2col(xs, col, kernel, attrs, calls)
            for i in range(n):
                calls.append(fill(i))
                out_rows = target[i].reshape(group, m // group, positions)
                calls.append(self._bind_gemm(weights, cols, out_rows))
        if shift is not None:
            shape = (m, *(1 for _ in out_spatial))
            add = self._bind_elementwise(np.add, target, target, shift.reshape(shape))
            calls.append(add)
        if attrs.relu and not clamped:
            zero = np.zeros((), target.dtype)
            calls.append(self._bind_elementwise(np.maximum, target, target, zero))
        if target is not o:
            calls.append(partial(np.copyto, o, target))
        return partial(run_all, calls)

    def _bind_im2col(
        self,
        xs: np.ndarray,
        col: np.ndarray,
        kernel: Sequence[int],
        attrs: ConvAttributes,
        calls: list[Callable[[], object]],
    ) -> Callable[[int], Callable[[], object]]:
        """For each image i, the call filling `col` (C, prod(kernel), o...)
        with its column matrix: the channels cut over the threads (it is
        memory-bound copying), by the numba kernel where it applies."""
        c = xs.shape[1]
        pieces = self.threads if col.size >= PARALLEL_MIN_ELEMENTS else 1
        cuts = [c * t // pieces for t in range(pieces + 1)]
        spans = [(lo, hi) for lo, hi in zip(cuts, cuts[1:]) if hi > lo]
        if _uses_kernels(xs, kernel, col.size):
            from xhip.backend import cpu_kernels_conv as k  # lazy: numba, large only

            images = contiguous(xs, calls)
            rows = col.reshape(-1, *col.shape[2:])
            window = _window_2d(attrs)

            def fill_by_kernel(i: int) -> Callable[[], object]:
                return partial(
                    self._parallel,
                    [
                        partial(
                            k.im2col, images[i], rows, tuple(kernel), *window, 0, lo, hi
                        )
                        for lo, hi in spans
                    ],
                )

            return fill_by_kernel

        def fill(i: int) -> Callable[[], object]:
            return partial(
                self._parallel,
                [
                    partial(
                        run_all, bind_im2col(xs[i, lo:hi], col[lo:hi], kernel, attrs)
                    )
                    for lo, hi in spans
                ],
            )

        return fill

    def _block_rows(
        self,
        xs: np.ndarray,
        ws: np.ndarray,
        o: np.ndarray,
        work: np.ndarray,
        group: int,
    ) -> int | None:
        """Output rows per block where a 2-D convolution runs by blocks
        (`_bind_blocked`): one group, the numba im2col, and at least two
        blocks of `BLOCK_BYTES` of the column matrix per thread; else None."""
        kernel = ws.shape[2:]
        if group != 1 or not _uses_kernels(xs, kernel, work.size):
            return None
        ho = o.shape[2]
        rows = max(1, BLOCK_BYTES // (work.size // ho * xs.itemsize))
        return rows if ho >= 2 * self.threads * rows else None

    def _bind_blocked(
        self,
        xs: np.ndarray,
        weights: np.ndarray,
        shift: np.ndarray | None,
        target: np.ndarray,
        work: np.ndarray,
        rows: int,
        kernel: Sequence[int],
        attrs: ConvAttributes,
    ) -> list[Callable[[], object]]:
        """A convolution with a large column matrix by blocks of output rows,
        each block's columns (`rows` output rows) written by the numba im2col
        into its thread's part of the workspace, then its GEMM and its bias
        while they are in L2: the matrix never goes out to memory, and BLAS
        packs it from cache. Each thread takes a run of rows (a cut of the
        positions) for each image; the workspace holds one block per thread."""
        from xhip.backend import cpu_kernels_conv as k  # lazy: numba, large only

        self._hold_one_blas_thread()
        calls: list[Callable[[], object]] = []
        images = contiguous(xs, calls)
        m, taps = weights.shape[0], weights.shape[1]
        ho, wo = target.shape[2:]
        window, c = _window_2d(attrs), xs.shape[1]
        ksize = (kernel[0], kernel[1])
        block = taps * rows * wo
        cuts = [ho * t // self.threads for t in range(self.threads + 1)]
        for i in range(images.shape[0]):
            out = target[i].reshape(m, ho * wo)
            tasks: list[Callable[[], object]] = []
            for t, (lo, hi) in enumerate(zip(cuts, cuts[1:])):
                own = work[t * block : (t + 1) * block]
                steps: list[Callable[[], object]] = []
                for y in range(lo, hi, rows):
                    r = min(rows, hi - y)
                    col = own[: taps * r * wo].reshape(taps, r, wo)
                    part = out[:, y * wo : (y + r) * wo]
                    steps.append(
                        partial(k.im2col, images[i], col, ksize, *window, y, 0, c)
                    )
                    steps.append(
                        partial(np.matmul, weights, col.reshape(taps, -1), out=part)
                    )
                    if shift is not None:
                        steps.append(
                            partial(np.add, part, shift.reshape(m, 1), out=part)
                        )
                tasks.append(partial(run_all, steps))
            calls.append(partial(self._parallel, tasks))
        return calls

    def _bind_winograd(
        self,
        xs: np.ndarray,
        ws: np.ndarray,
        shift: np.ndarray | None,
        target: np.ndarray,
        work: np.ndarray,
        attrs: ConvAttributes,
        calls: list[Callable[[], object]],
    ) -> Callable[[], object]:
        """A 3x3 convolution of unit strides as Winograd F(2x2, 3x3)
        (`cpu_kernels_conv`): the kernels, each image's 4x4 tiles (2 apart)
        and the products transformed, and 16 GEMMs over the channels between,
        4 multiply-adds per output where im2col's GEMM does 9. The tiles and
        the products live in the workspace (channel-major, so that the 16
        elements of a tile are 16 nearby streams, not 16 a cache-aliasing
        stride apart); the transformed kernels (M * C * 16) in a buffer of
        the op's own, made once where the weights are read-only memory (the
        model's constants, used in place), else again each call (computed
        weights)."""
        from xhip.backend import cpu_kernels_conv as k  # lazy: numba, large only

        n, c = xs.shape[:2]
        m, (ho, wo) = ws.shape[0], target.shape[2:]
        tiles = ((ho + 1) // 2) * ((wo + 1) // 2)
        images, weights = contiguous(xs, calls), contiguous(ws, calls)
        kernels = np.empty((m, 16, c), np.float32)
        tiled = work[: c * 16 * tiles].reshape(c, 16, tiles)
        products = work[c * 16 * tiles : (c + m) * 16 * tiles].reshape(m, 16, tiles)
        bias = np.zeros(m, np.float32) if shift is None else contiguous(shift, calls)
        pads = (attrs.pads[0], attrs.pads[1])
        by_m, by_c = self._spans(m), self._spans(c)
        transform = partial(
            self._parallel,
            [partial(k.winograd_weights, weights, kernels, lo, hi) for lo, hi in by_m],
        )
        steps: list[Callable[[], object]] = []
        if ws.flags.writeable:
            steps.append(transform)
        else:  # read-only memory (the constants): the same bytes every call
            transform()
        planes = [
            np.empty((2 * ((ho + 1) // 2) + 2, 2 * ((wo + 1) // 2) + 2), np.float32)
            for _ in by_c
        ]
        gemm = self._bind_matmul(
            kernels.transpose(1, 0, 2),
            tiled.transpose(1, 0, 2),
            products.transpose(1, 0, 2),
        )
        for i in range(n):
            steps.append(
                partial(
                    self._parallel,
                    [
                        partial(k.winograd_input, images[i], tiled, pads, plane, lo, hi)
                        for plane, (lo, hi) in zip(planes, by_c)
                    ],
                )
            )
            steps.append(gemm)
            steps.append(
                partial(
                    self._parallel,
                    [
                        partial(k.winograd_output, products, bias, target[i], lo, hi)
                        for lo, hi in by_m
                    ],
                )
            )
        return partial(run_all, steps)

    def _bind_direct(
        self,
        xs: np.ndarray,
        ws: np.ndarray,
        shift: np.ndarray | None,
        target: np.ndarray,
        attrs: ConvAttributes,
        calls: list[Callable[[], object]],
    ) -> Callable[[], object]:
        """A convolution as one numba kernel per thread
        (`cpu_kernels_convgemm.conv`): chunks of `CHUNK_BYTES` of column
        panels written and multiplied by the weights (used in place, as
        ONNX lays them out) while in L2, the bias added to each. Threads take
        runs of positions, or where the panels are too few, of output
        channels (each then writes the same panels); each its own scratch."""
        from xhip.backend import cpu_kernels_convgemm as k  # lazy: numba, large only

        n, c = xs.shape[:2]
        m, (kh, kw) = ws.shape[0], ws.shape[2:]
        ho, wo = target.shape[2:]
        positions, taps = ho * wo, c * kh * kw
        images = k.readonly(contiguous(xs, calls))
        weights = k.readonly(contiguous(ws, calls).reshape(m, taps))
        bias, epilogue = _kernel_epilogue(shift, attrs.relu, calls)
        outs = target.reshape(n, m, positions)
        panels = -(-positions // k.NR)
        chunk = max(1, min(panels, CHUNK_BYTES // (taps * k.NR * 4)))
        big = n * m * taps * positions >= BLAS_PARALLEL_MIN_MACS
        pieces = self.threads if big else 1
        shares_a_thread = self._pooled() if big else 0
        if panels >= 2 * pieces:
            if shares_a_thread:  # at least 2 panels a share
                pieces = max(pieces, min(pieces * shares_a_thread, panels // 2))
            cuts = [panels * t // pieces * k.NR for t in range(pieces)] + [positions]
            shares = [(lo, hi, 0, m) for lo, hi in zip(cuts, cuts[1:]) if hi > lo]
        else:
            tiles = -(-m // k.MR)
            cuts = [tiles * t // pieces * k.MR for t in range(pieces)] + [m]
            shares = [
                (0, positions, lo, hi) for lo, hi in zip(cuts, cuts[1:]) if hi > lo
            ]
        (sh, sw), (dh, dw), (ph, pw) = window = _window_2d(attrs)
        steps: list[Callable[[], object]] = []
        split = 0
        if _splits((kh, kw), (sh, sw)):
            rows = (ho - 1) * sh + (kh - 1) * dh + 1
            split = ((wo - 1) * sw + (kw - 1) * dw) // sw + 1
            phases = np.zeros((n, c, rows, sw * split), np.float32)
            steps.append(partial(k.split_image, images, phases, (ph, pw), sw))
            images = k.readonly(phases)
        rest = ((kh, kw), *window, wo, split)
        chunks = [min(chunk, -(-(q1 - q0) // k.NR)) for q0, q1, _, _ in shares]
        if shares_a_thread and n * len(shares) > 1:
            team, state = self._team(n * len(shares))
            col = np.zeros((team, max(chunks), taps, k.NR), np.float32)
            ta = np.empty((team, k.MR, taps), np.float32)
            tc = np.empty((team, k.MR, k.NR), np.float32)
            at = np.array(shares, np.int64)
            head = (images, weights, bias, epilogue, outs)
            steps.append(partial(k.conv_pool, *head, *rest, at, col, ta, tc, state))
            return partial(run_all, steps)
        tasks: list[Callable[[], object]] = []
        for (q0, q1, r0, r1), chunk_panels in zip(shares, chunks):
            col = np.zeros((chunk_panels, taps, k.NR), np.float32)
            ta = np.empty((k.MR, taps), np.float32)
            tc = np.empty((k.MR, k.NR), np.float32)
            own = (q0, q1, r0, r1, col, ta, tc)
            convs = [
                partial(
                    k.conv, images[i], weights, bias, epilogue, outs[i], *rest, *own
                )
                for i in range(n)
            ]
            tasks.append(partial(run_all, convs))
        steps.append(partial(self._parallel, tasks))
        return partial(run_all, steps)

    def _bind_by_rows(
        self,
        xs: np.ndarray,
        ws: np.ndarray,
        shift: np.ndarray | None,
        target: np.ndarray,
        attrs: ConvAttributes,
        calls: list[Callable[[], object]],
    ) -> Callable[[], object]:
        """A convolution of few positions and constant weights as one numba
        kernel per thread (`cpu_kernels_convgemm.conv_rows`): the weights
        reordered tap-major and packed once into panels of 64 output
        channels, the threads taking runs of panels; each writes the windows
        as rows (its own copy) and streams its panels over them."""
        from xhip.backend import cpu_kernels_convgemm as k  # lazy: numba, large only
        from xhip.backend import cpu_kernels_gemm as g  # lazy: numba, large only

        n, c = xs.shape[:2]
        m, (kh, kw) = ws.shape[0], ws.shape[2:]
        ho, wo = target.shape[2:]
        positions, taps = ho * wo, c * kh * kw
        ordered = np.ascontiguousarray(ws.transpose(0, 2, 3, 1)).reshape(m, taps)
        packed = k.readonly(g.packed(ordered.T))
        images = k.readonly(contiguous(xs, calls))
        bias, epilogue = _kernel_epilogue(shift, attrs.relu, calls)
        outs = target.reshape(n, m, positions)
        (sh, sw), (dh, dw), (ph, pw) = _window_2d(attrs)
        spans = ((ho - 1) * sh + (kh - 1) * dh + 1, (wo - 1) * sw + (kw - 1) * dw + 1)
        rows = -(-positions // k.MR) * k.MR
        panels = packed.shape[0]
        big = n * m * taps * positions >= BLAS_PARALLEL_MIN_MACS
        pieces = min(self.threads if big else 1, panels)
        cuts = [panels * t // pieces for t in range(pieces + 1)]
        head = (packed, bias, epilogue)
        rest = ((kh, kw), (sh, sw), (dh, dw), (ph, pw), wo)
        if big and n * pieces > 1 and self._pooled():
            team, state = self._team(n * pieces)
            shares = np.array(list(zip(cuts, cuts[1:])), np.int64)
            padded = np.zeros((team, *spans, c), np.float32)
            col = np.zeros((team, rows, taps), np.float32)
            product = np.empty((team, rows, k.NR), np.float32)
            tail = (shares, col, product, state)
            return partial(k.conv_rows_pool, images, padded, *head, outs, *rest, *tail)
        tasks: list[Callable[[], object]] = []
        for p0, p1 in zip(cuts, cuts[1:]):
            padded = np.zeros((*spans, c), np.float32)
            col = np.zeros((rows, taps), np.float32)
            product = np.empty((rows, k.NR), np.float32)
            own = (p0, p1, col, product)
            convs = [
                partial(k.conv_rows, images[i], padded, *head, outs[i], *rest, *own)
                for i in range(n)
            ]
            tasks.append(partial(run_all, convs))
        return partial(self._parallel, tasks)

    def _bind_winograd_tiles(
        self,
        xs: np.ndarray,
        ws: np.ndarray,
        shift: np.ndarray | None,
        target: np.ndarray,
        work: np.ndarray,
        attrs: ConvAttributes,
        calls: list[Callable[[], object]],
    ) -> Callable[[], object]:
        """Winograd F(2x2, 3x3) as one numba kernel per thread
        (`cpu_kernels_convgemm.winograd`): chunks of `NR` output tiles, each
        transformed, multiplied by the transformed kernels (the tile
        kernel's GEMMs) and transformed back while in L2. The kernels
        transformed once where the weights are read-only memory (the
        model's constants), else at each call; padded to rows of whole
        tiles. Threads take runs of chunks, or where the chunks are too few,
        of output channels (each then transforms the same input). Each
        thread's scratch (a chunk's transformed input and products) lies in
        the workspace where it fits."""
        from xhip.backend import cpu_kernels_conv as k  # lazy: numba, large only
        from xhip.backend import cpu_kernels_convgemm as g  # lazy: numba, large only

        n, c = xs.shape[:2]
        m, (ho, wo) = ws.shape[0], target.shape[2:]
        tiles = ((ho + 1) // 2) * ((wo + 1) // 2)
        constant = not ws.flags.writeable
        images = g.readonly(contiguous(xs, calls))
        # Constants are transformed here, from their bytes now.
        weights = np.ascontiguousarray(ws) if constant else contiguous(ws, calls)
        rows = -(-m // g.MR) * g.MR
        kernels = np.zeros((16, rows, c), np.float32)
        by_element = kernels[:, :m].transpose(1, 0, 2)
        transform = partial(
            self._parallel,
            [
                partial(k.winograd_weights, weights, by_element, lo, hi)
                for lo, hi in self._spans(m)
            ],
        )
        steps: list[Callable[[], object]] = []
        if constant:  # read-only memory (the constants): the same bytes every call
            transform()
        else:
            steps.append(transform)
        bias, epilogue = _kernel_epilogue(shift, attrs.relu, calls)
        chunks = -(-tiles // g.NR)
        shares_a_thread = self._pooled()
        if chunks >= self.threads:
            pieces = min(chunks, self.threads * max(1, shares_a_thread))
            cuts = [chunks * t // pieces * g.NR for t in range(pieces)]
            shares = [(lo, hi, 0, rows) for lo, hi in zip(cuts, [*cuts[1:], tiles])]
        else:
            across = rows // g.MR
            cuts = [across * t // self.threads * g.MR for t in range(self.threads + 1)]
            shares = [(0, tiles, lo, hi) for lo, hi in zip(cuts, cuts[1:])]
        shares = [(a, b, lo, hi) for a, b, lo, hi in shares if a < b and lo < hi]
        block = c * g.NR + 16  # + 16: the 16 streams do not alias in L1
        width = 16 * g.NR + 16
        readonly_kernels = g.readonly(kernels)
        head = (readonly_kernels, bias, epilogue)
        pads = (attrs.pads[0], attrs.pads[1])
        if shares_a_thread and n * len(shares) > 1:
            team, state = self._team(n * len(shares))
            need = team * (16 * block + rows * width)
            own = work[:need] if work.size >= need else np.empty(need, np.float32)
            v = own[: team * 16 * block].reshape(team, 16 * block)
            products = own[team * 16 * block :].reshape(team, rows, width)
            at = np.array(shares, np.int64)
            tail = (pads, at, v, block, products, state)
            steps.append(partial(g.winograd_pool, images, *head, target, *tail))
            return partial(run_all, steps)
        scratch = 16 * block + rows * width
        pool = work if work.size >= scratch * len(shares) else None
        tasks: list[Callable[[], object]] = []
        for j, (t0, t1, r0, r1) in enumerate(shares):
            own = (
                np.empty(scratch, np.float32)
                if pool is None
                else pool[j * scratch : (j + 1) * scratch]
            )
            v = own[: 16 * block]
            products = own[16 * block :].reshape(rows, width)
            rest = (pads, t0, t1, r0, r1, v, block, products)
            convs = [
                partial(g.winograd, images[i], *head, target[i], *rest)
                for i in range(n)
            ]
            tasks.append(partial(run_all, convs))
        steps.append(partial(self._parallel, tasks))
        return partial(run_all, steps)

    def _bind_winograd_rows(
        self,
        xs: np.ndarray,
        ws: np.ndarray,
        shift: np.ndarray | None,
        target: np.ndarray,
        attrs: ConvAttributes,
        calls: list[Callable[[], object]],
    ) -> Callable[[], object]:
        """Winograd F(2x2, 3x3) of few tiles and constant weights as one
        numba kernel per thread (`cpu_kernels_convgemm.winograd_rows`): the
        kernels transformed once and packed per element in panels of 64
        output channels, the threads taking runs of panels; each transforms
        an image's tiles into its own rows once, then streams its panels
        over them."""
        from xhip.backend import cpu_kernels_conv as k  # lazy: numba, large only
        from xhip.backend import cpu_kernels_convgemm as g  # lazy: numba, large only

        n, c = xs.shape[:2]
        m, (ho, wo) = ws.shape[0], target.shape[2:]
        th, tw = (ho + 1) // 2, (wo + 1) // 2
        rows = -(-th * tw // g.MR) * g.MR
        panels = -(-m // g.NR)
        kernels = np.zeros((panels * g.NR, 16, c), np.float32)
        k.winograd_weights(np.ascontiguousarray(ws), kernels, 0, m)
        by_panel = kernels.reshape(panels, g.NR, 16, c).transpose(2, 0, 3, 1)
        packed = g.readonly(np.ascontiguousarray(by_panel))
        images = g.readonly(contiguous(xs, calls))
        bias, epilogue = _kernel_epilogue(shift, attrs.relu, calls)
        pads = (attrs.pads[0], attrs.pads[1])
        big = n * m * c * 9 * ho * wo >= BLAS_PARALLEL_MIN_MACS
        pieces = min(self.threads if big else 1, panels)
        shares_a_thread = self._pooled() if pieces > 1 else 0
        units = min(panels, pieces * max(1, shares_a_thread))
        cuts = [panels * t // units for t in range(units + 1)]
        spans = (2 * th + 2, 2 * tw + 2, c)
        head = (packed, bias, epilogue)
        if shares_a_thread and n * units > 1:
            team, state = self._team(n * units)
            shares = np.array(list(zip(cuts, cuts[1:])), np.int64)
            padded = np.zeros((team, *spans), np.float32)
            v = np.zeros((team, 16, rows * c + 16), np.float32)
            product = np.empty((team, 16, rows, g.NR), np.float32)
            tail = (pads, shares, v, product, state)
            return partial(g.winograd_rows_pool, images, padded, *head, target, *tail)
        tasks: list[Callable[[], object]] = []
        pieces_cuts = [panels * t // pieces for t in range(pieces + 1)]
        for p0, p1 in zip(pieces_cuts, pieces_cuts[1:]):
            padded = np.zeros(spans, np.float32)
            v = np.zeros((16, rows * c + 16), np.float32)
            product = np.empty((16, rows, g.NR), np.float32)
            own = (pads, p0, p1, True, v, product)
            convs = [
                partial(g.winograd_rows, images[i], padded, *head, target[i], *own)
                for i in range(n)
            ]
            tasks.append(partial(run_all, convs))
        return partial(self._parallel, tasks)

    def _pooled(self) -> int:
        """Shares a thread where a convolution's units (an image's share
        each) run as one launch on numba's pool (`cpu_host.numba_pool`):
        more than one, so that a thread the machine holds back takes fewer
        (`cpu_kernels_pool.SHARES`); 0 where they run on the Python
        threads (or on one, the caller)."""
        if self.threads == 1 or not cpu_host.numba_pool():
            return 0
        from xhip.backend.cpu_kernels_pool import SHARES  # lazy: numba

        return SHARES

    def _team(self, units: int) -> tuple[int, np.ndarray]:
        """The threads of a launch on numba's pool (one a unit at most) and
        its state (`cpu_kernels_pool.pool_state`)."""
        from xhip.backend.cpu_kernels_pool import (  # lazy: numba
            MAX_THREADS,
            WARM,
            pool_state,
        )

        threads = min(self.threads, units, MAX_THREADS)
        return threads, pool_state(threads, WARM)

    def _spans(self, count: int) -> list[tuple[int, int]]:
        """[lo, hi) of `count` items cut over the threads, none empty."""
        cuts = [count * t // self.threads for t in range(self.threads + 1)]
        return [(lo, hi) for lo, hi in zip(cuts, cuts[1:]) if hi > lo]

    def _bind_gemm(
        self, weights: np.ndarray, cols: np.ndarray, out: np.ndarray
    ) -> Callable[[], object]:
        """weights (g, m, K) @ cols (..., g, K, P) into out (..., g, m, P).

        `_bind_matmul` cuts the output's rows (m) over the threads; with one
        group and many more positions than rows (an early layer: 64 channels
        by 3136 positions), the positions are cut instead, each thread's share
        a batch of the product: thin row blocks make BLAS reread all of
        `cols` per thread."""
        g, rows, k = weights.shape
        p = cols.shape[-1]
        t = self.threads
        lead = out.shape[:-3]
        if (
            g != 1
            or t == 1
            or p < COLUMN_SPLIT_RATIO * rows
            or p % t
            or math.prod(lead) != 1
        ):
            return self._bind_matmul(weights, cols, out)
        b = cols.reshape(k, t, p // t).transpose(1, 0, 2)
        o = out.reshape(rows, t, p // t).transpose(1, 0, 2)
        return self._bind_matmul(weights.reshape(rows, k), b, o)

    def _bind_depthwise(
        self,
        xs: np.ndarray,
        ws: np.ndarray,
        shift: np.ndarray | None,
        target: np.ndarray,
        attrs: ConvAttributes,
        calls: list[Callable[[], object]],
    ) -> Callable[[], object]:
        """A depthwise convolution (one input channel per group) directly, by
        the numba kernel: no column matrix, the output channels cut over the
        threads; adds the bias too."""
        from xhip.backend import cpu_kernels_conv as k  # lazy: numba, large only

        n, m = target.shape[:2]
        images = contiguous(xs, calls)
        weights = contiguous(ws, calls).reshape(m, *ws.shape[2:])
        bias = np.zeros(m, np.float32) if shift is None else contiguous(shift, calls)
        window = _window_2d(attrs)
        pieces = (
            self.threads if target[0].size * ws[0].size >= PARALLEL_MIN_ELEMENTS else 1
        )
        cuts = [m * t // pieces for t in range(pieces + 1)]
        tasks = [
            partial(k.depthwise, images[i], weights, bias, target[i], *window, lo, hi)
            for i in range(n)
            for lo, hi in zip(cuts, cuts[1:])
            if hi > lo
        ]
        return partial(self._parallel, tasks)

    def pool(self, x: DA, out: DA, indices: OptDA, attrs: PoolAttributes) -> None:
        """Max (`kind` "max") or average pooling of x (N, C, s...) into out (N,
        C, o...): window `o * stride - pad_begin + tap * dilation` along each
        spatial dim, `kernel` None meaning all of x's spatial dims. Max skips
        the padding; average divides by the window's elements inside x, or with
        `count_include_pad` inside the padded x. `indices` (int64, max only):
        each maximum's flat index into x (first one on ties), its spatial dims
        column-major under `column_major`."""
        self.bind_pool(x, out, indices, attrs)()

    def bind_pool(
        self, x: DA, out: DA, indices: OptDA, attrs: PoolAttributes
    ) -> Callable[[], object]:
        xs, o = self.array(x), self.array(out)
        kernel = attrs.kernel
        if (
            indices is not None
            or attrs.kind != "max"
            or kernel is None
            or not _uses_kernels(xs, kernel, o.size * math.prod(kernel))
        ):
            target = None if indices is None else self.array(indices)
            return partial(pool, xs, o, target, attrs)
        from xhip.backend import cpu_kernels_conv as k  # lazy: numba, large only

        calls: list[Callable[[], object]] = []
        planes = contiguous(xs, calls).reshape(-1, *xs.shape[2:])
        target = o if o.flags.c_contiguous else np.empty_like(o)
        pooled = target.reshape(-1, *o.shape[2:])
        count, window = planes.shape[0], _window_2d(attrs)
        pieces = (
            self.threads if o.size * math.prod(kernel) >= PARALLEL_MIN_ELEMENTS else 1
        )
        shares_a_thread = self._pooled() if pieces > 1 else 0
        pieces = min(count, pieces * max(1, shares_a_thread))
        cuts = [count * t // pieces for t in range(pieces + 1)]
        spans = [(lo, hi) for lo, hi in zip(cuts, cuts[1:]) if hi > lo]
        taps = (kernel[0], kernel[1])
        if shares_a_thread and len(spans) > 1:
            from xhip.backend import cpu_kernels_convgemm as g  # lazy: numba

            team, state = self._team(len(spans))
            shares = np.array(spans, np.int64)
            launch = partial(
                g.max_pool_pool, g.readonly(planes), pooled, taps, *window, shares,
                team, state,
            )  # fmt: skip
            calls.append(launch)
        else:
            tasks = [
                partial(k.max_pool, planes, pooled, taps, *window, lo, hi)
                for lo, hi in spans
            ]
            calls.append(partial(self._parallel, tasks))
        if target is not o:
            calls.append(partial(np.copyto, o, target))
        return partial(run_all, calls)
