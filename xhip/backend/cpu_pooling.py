"""The CPU runtime's pooling by numpy, and the windows' map.

`pool`: one `maximum`/`add` per kernel tap over the output positions whose
input lies inside the image (`window_slices`: whole strided planes); the
average's divisor is a separable product of per-dim counts. With MaxPool's
`Indices`, the input is copied once into a padded array (-inf outside),
viewed as windows (`sliding_window_view`, the strides and dilations as
steps), and the indices are an `argmax` over the flattened window, turned
back into input coordinates. `cpu_conv` binds the large 2-D max pools to
the numba kernels and the rest here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from xhip.dialects.hip import PoolAttributes, WindowAttributes


def window_slices(
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
    output positions whose input lies inside the image (`window_slices`): no
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
        slices = window_slices(tap, in_shape, out_shape, attrs)
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
