"""The CPU runtime's convolution and pooling.

`CpuConvolutions` is mixed into `CpuRuntime` (cpu.py). No Python loop runs
per pixel:

- `conv` (bound once, `bind_conv`: the copies and GEMMs over fixed views):
  im2col into the op's workspace (one image: `C * prod(k) * prod(o)`
  elements), one strided copy per kernel tap, then one batched GEMM over the
  groups (`np.matmul` with `out=`, BLAS per group) per image. A 1x1 kernel with
  unit strides and no pads (an empty workspace) is one `matmul` of the
  weights with the whole batch.
- `pool`: one `maximum`/`add` per kernel tap over the output positions whose
  input lies inside the image (whole strided planes); the average's divisor
  is a separable product of per-dim counts. With MaxPool's `Indices`, the
  input is copied once into a padded array (-inf outside), viewed as windows
  (`sliding_window_view`, the strides and dilations as steps), and the
  indices are an `argmax` over the flattened window, turned back into input
  coordinates.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from xhip.backend.cpu_host import CpuHost, contiguous, nothing, run_all
from xhip.backend.runtime import DA, OptDA
from xhip.dialects.hip import ConvAttributes, PoolAttributes, WindowAttributes

PARALLEL_MIN_ELEMENTS = 1 << 16
"""A workspace smaller than this is filled on one thread (as `cpu.py`'s)."""


def _tap_slices(
    tap: Sequence[int],
    in_shape: Sequence[int],
    out_shape: Sequence[int],
    window: WindowAttributes,
) -> tuple[tuple[slice, ...], tuple[slice, ...]] | None:
    """For one kernel tap: the output positions whose input lies inside the
    image, and those input elements (each as slices per spatial dim)."""
    dst: list[slice] = []
    src: list[slice] = []
    for d, t in enumerate(tap):
        s = window.strides[d]
        offset = t * window.dilations[d] - window.pads[d]  # input = o * s + offset
        lo = max(0, -(offset // s))
        hi = min(out_shape[d], (in_shape[d] - 1 - offset) // s + 1)
        if hi <= lo:
            return None
        dst.append(slice(lo, hi))
        src.append(slice(lo * s + offset, (hi - 1) * s + offset + 1, s))
    return tuple(dst), tuple(src)


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
        slices = _tap_slices(tap, in_shape, out_shape, window)
        if slices is not None:
            dst, src = slices
            part = col[(slice(None), k, *dst)]
            calls.append(partial(np.copyto, part, image[(slice(None), *src)]))
    return calls


def _window_counts(
    count: int,
    kernel: int,
    stride: int,
    dilation: int,
    lo: int,
    hi: int,
    pad: int,
) -> np.ndarray:
    """How many taps of each of `count` windows fall in [lo, hi) of the input."""
    starts = np.arange(count) * stride - pad
    taps = starts[:, None] + np.arange(kernel)[None, :] * dilation
    return np.count_nonzero((taps >= lo) & (taps < hi), axis=1)


def pool(
    x: np.ndarray, out: np.ndarray, indices: np.ndarray | None, attrs: PoolAttributes
) -> None:
    rank = x.ndim - 2
    spatial = tuple(range(2, 2 + rank))
    kernel, strides, dilations = attrs.kernel, attrs.strides, attrs.dilations
    pads = attrs.pads
    if out.size == 0:
        return
    if kernel is None and indices is None:  # a global pool
        if attrs.kind == "max":
            np.max(x, axis=spatial, keepdims=True, out=out)
        else:
            np.mean(x, axis=spatial, keepdims=True, out=out)
        return
    kernel = tuple(x.shape[2:]) if kernel is None else tuple(kernel)
    in_shape, out_shape = x.shape[2:], out.shape[2:]
    if indices is None:
        _pool_by_taps(x, out, kernel, attrs)
        return
    # MaxPool's Indices: the window view, padded with the lowest value.
    spans = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    lengths = [(o - 1) * s + span for o, s, span in zip(out_shape, strides, spans)]
    fill: Any = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    padded = np.full((*x.shape[:2], *lengths), fill, dtype=x.dtype)
    inner = tuple(
        slice(pads[d], min(pads[d] + in_shape[d], lengths[d])) for d in range(rank)
    )
    keep = tuple(slice(0, s.stop - s.start) for s in inner)
    padded[(slice(None), slice(None), *inner)] = x[(slice(None), slice(None), *keep)]
    windows = sliding_window_view(padded, spans, axis=spatial)
    steps = (
        slice(None),
        slice(None),
        *(slice(None, None, s) for s in strides),
        *(slice(None, None, d) for d in dilations),
    )
    windows = windows[steps]
    np.max(windows, axis=tuple(range(2 + rank, 2 + 2 * rank)), out=out)
    _argmax_indices(windows, indices, kernel, attrs, x.shape)


def _pool_by_taps(
    x: np.ndarray, out: np.ndarray, kernel: Sequence[int], attrs: PoolAttributes
) -> None:
    """Max or average pool as one `maximum`/`add` per kernel tap over the
    output positions whose input lies inside the image (`_tap_slices`): no
    padded copy, and whole strided planes per call, where a reduction over
    a window view walks each window's few elements."""
    rank, kind = len(kernel), attrs.kind
    strides, dilations, pads = attrs.strides, attrs.dilations, attrs.pads
    in_shape, out_shape = x.shape[2:], out.shape[2:]
    lead = (slice(None), slice(None))
    if kind == "max":
        acc = out
        acc.fill(-np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min)
        combine: Any = np.maximum
    else:
        acc = np.zeros(out.shape, np.float64 if x.dtype == np.float64 else np.float32)
        combine = np.add
    for tap in np.ndindex(*kernel):
        slices = _tap_slices(tap, in_shape, out_shape, attrs)
        if slices is not None:
            dst, src = slices
            view = acc[(*lead, *dst)]
            combine(view, x[(*lead, *src)], out=view)
    if kind == "max":
        return
    counts: Any = np.ones((), dtype=np.int64)
    for d in range(rank):
        lo, hi = (
            (-pads[d], in_shape[d] + pads[rank + d])
            if attrs.count_include_pad
            else (0, in_shape[d])
        )
        per_dim = _window_counts(
            out_shape[d], kernel[d], strides[d], dilations[d], lo, hi, pads[d]
        )
        counts = np.multiply.outer(counts, per_dim)
    with np.errstate(invalid="ignore", divide="ignore"):
        np.divide(acc, counts, out=out, casting="unsafe")


def _argmax_indices(
    windows: np.ndarray,
    indices: np.ndarray,
    kernel: Sequence[int],
    attrs: PoolAttributes,
    x_shape: Sequence[int],
) -> None:
    """Each window's first maximum as a flat index into x (N, C, s...)."""
    rank = len(kernel)
    strides, dilations, pads = attrs.strides, attrs.dilations, attrs.pads
    lead = windows.shape[: 2 + rank]
    flat = windows.reshape(*lead, -1)
    tap = np.argmax(flat, axis=-1)
    tap_coords = np.unravel_index(tap, tuple(kernel))
    in_shape = x_shape[2:]
    nc = np.arange(lead[0])[:, None] * lead[1] + np.arange(lead[1])[None, :]
    index = nc.reshape(lead[0], lead[1], *(1 for _ in range(rank))) * math.prod(
        in_shape
    )
    for d in range(rank):
        shape = [1] * (2 + rank)
        shape[2 + d] = lead[2 + d]
        start = (np.arange(lead[2 + d]) * strides[d] - pads[d]).reshape(shape)
        coord = start + tap_coords[d] * dilations[d]
        weight = (
            math.prod(in_shape[:d])
            if attrs.column_major
            else math.prod(in_shape[d + 1 :])
        )
        index = index + coord * weight
    np.copyto(indices, index, casting="unsafe")


class CpuConvolutions(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` methods of convolution and pooling."""

    def conv(
        self, x: DA, w: DA, bias: OptDA, out: DA, workspace: DA, attrs: ConvAttributes
    ) -> None:
        """ONNX Conv of x (N, C, s...) by w (M, C/group, k...), plus `bias` (M)
        if given, into out (N, M, o...). `pads` are the begins then the ends.
        `workspace` (1-D, from the memory plan) holds the im2col matrix of one
        image, `C * prod(k) * prod(o)` elements, or is empty where that matrix
        is the image itself; the runtime allocates nothing else for it."""
        self.bind_conv(x, w, bias, out, workspace, attrs)()

    def bind_conv(
        self, x: DA, w: DA, bias: OptDA, out: DA, workspace: DA, attrs: ConvAttributes
    ) -> Callable[[], object]:
        xs, ws, o, work = (self.array(v) for v in (x, w, out, workspace))
        n, c, group = *xs.shape[:2], attrs.group
        m, kernel, out_spatial = ws.shape[0], ws.shape[2:], o.shape[2:]
        positions = math.prod(out_spatial)
        if n == 0 or o.size == 0:
            return nothing
        calls: list[Callable[[], object]] = []
        weights = contiguous(ws, calls).reshape(group, m // group, -1)
        target = o if o.flags.c_contiguous else np.empty_like(o)
        if work.size == 0:  # the im2col matrix is the image itself
            images = contiguous(xs, calls).reshape(n, group, c // group, positions)
            out_rows = target.reshape(n, group, m // group, positions)
            calls.append(self._bind_matmul(weights, images, out_rows))
        else:
            col = work.reshape(c, math.prod(kernel), *out_spatial)
            cols = work.reshape(group, -1, positions)
            # im2col is memory-bound copying: the channels cut over the threads.
            pieces = self.threads if work.size >= PARALLEL_MIN_ELEMENTS else 1
            cuts = [c * t // pieces for t in range(pieces + 1)]
            for i in range(n):
                tasks = [
                    partial(
                        run_all, bind_im2col(xs[i, lo:hi], col[lo:hi], kernel, attrs)
                    )
                    for lo, hi in zip(cuts, cuts[1:])
                    if hi > lo
                ]
                calls.append(partial(self._parallel, tasks))
                out_rows = target[i].reshape(group, m // group, positions)
                calls.append(self._bind_matmul(weights, cols, out_rows))
        if bias is not None:
            shift = self.array(bias).reshape(m, *(1 for _ in out_spatial))
            calls.append(partial(np.add, target, shift, out=target))
        if target is not o:
            calls.append(partial(np.copyto, o, target))
        return partial(run_all, calls)

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
        target = None if indices is None else self.array(indices)
        return partial(pool, self.array(x), self.array(out), target, attrs)
