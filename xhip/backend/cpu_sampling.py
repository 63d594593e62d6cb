"""The CPU runtime's GridSample, Col2Im and DeformConv.

`CpuSampling` is mixed into `CpuRuntime` (cpu.py). No Python loop runs per
element:

- `grid_sample`: per spatial dim, the taps of every output point at once
  (`grid_taps`: indices and weights, as onnx's reference computes them,
  `onnx/reference/ops/op_grid_sample.py`); then one gather and
  multiply-add per combination of taps (1 for nearest, 2^r for linear, 4^r
  for cubic) over all outputs and channels.
- `col2im`: one strided add per kernel tap into a zero-padded image, then
  the pads cut off.
- `deform_conv`: the columns of every image at once, (N, C, K, P) for K
  kernel taps and P output points: per corner of the bilinear cell (2^r)
  one gather of x at the moved taps, weighted, zero outside; times the mask;
  then one batched GEMM over the groups.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA, OptDA
from xhip.dialects.hip import (
    Col2ImAttributes,
    DeformConvAttributes,
    GridSampleAttributes,
)

CUBIC_A = -0.75
"""Keys' cubic coefficient GridSample uses (PyTorch's)."""


def reflect(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """`x` reflected at the borders until inside [lo, hi]."""
    span = hi - lo
    if span <= 0:
        return np.full_like(x, lo)
    below, above = x < lo, x > hi
    dx = np.where(below, lo - x, x - hi)
    n = np.floor(dx / span)
    r = dx - n * span
    even = np.remainder(n, 2) == 0
    from_below = np.where(even, lo + r, hi - r)
    from_above = np.where(even, hi - r, lo + r)
    return np.where(below, from_below, np.where(above, from_above, x))


def _cubic(t: np.ndarray) -> np.ndarray:
    """Keys' weights of the taps at -1, 0, 1, 2 for offset `t` in [0, 1)."""
    a = CUBIC_A
    t = t[..., None]
    d = np.concatenate([t + 1, t, 1 - t, 2 - t], axis=-1)
    near = ((a + 2) * d - (a + 3)) * d * d + 1
    far = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return np.where(d <= 1, near, far)


def grid_taps(
    normalized: np.ndarray, size: int, attrs: GridSampleAttributes
) -> tuple[np.ndarray, np.ndarray]:
    """One dim's taps for every point: int64 indices in [0, size) and
    weights, each (..., taps); a zeros-padded tap outside has weight 0. A
    point outside is first clamped (border) or reflected into the input,
    except that cubic with border clamps each tap only, as ONNX Runtime and
    PyTorch do (onnx's reference clamps the point too)."""
    ac = attrs.align_corners
    if ac:
        x = (normalized + 1) / 2 * (size - 1)
        lo, hi = 0.0, size - 1.0
    else:
        x = ((normalized + 1) * size - 1) / 2
        lo, hi = -0.5, size - 0.5
    if attrs.mode == "nearest":
        x = np.rint(x)
    outside = (x < lo) | (x > hi)
    if attrs.padding_mode == "border" and attrs.mode != "cubic":
        x = np.where(outside, np.clip(x, 0, size - 1), x)
    elif attrs.padding_mode == "reflection":
        x = np.where(outside, reflect(x, lo, hi), x)
    if attrs.mode == "nearest":
        index = np.trunc(x)[..., None]
        weight = np.ones_like(index)
    else:
        base = np.floor(x)
        t = x - base
        if attrs.mode == "linear":
            index = np.stack([base, base + 1], axis=-1)
            weight = np.stack([1 - t, t], axis=-1)
        else:
            index = base[..., None] + np.arange(-1, 3, dtype=x.dtype)
            weight = _cubic(t).astype(x.dtype)
    if attrs.padding_mode == "zeros":
        weight = np.where((index >= 0) & (index < size), weight, 0)
    elif attrs.padding_mode == "border":
        index = np.clip(index, 0, size - 1)
    else:
        index = np.trunc(reflect(index, lo, hi))
    return np.clip(index, 0, size - 1).astype(np.int64), weight


def grid_sample(
    x: np.ndarray, grid: np.ndarray, out: np.ndarray, attrs: GridSampleAttributes
) -> None:
    if out.size == 0:
        return
    n, c = x.shape[:2]
    sizes = x.shape[2:]
    rank = len(sizes)
    work = np.float64 if x.dtype == np.float64 else np.float32
    points = grid.astype(work).reshape(n, -1, rank)  # (N, M, r)
    taps = [grid_taps(points[..., rank - 1 - d], sizes[d], attrs) for d in range(rank)]
    strides = [math.prod(sizes[d + 1 :]) for d in range(rank)]
    flat = x.reshape(n, c, -1)
    total = np.zeros((n, c, points.shape[1]), work)
    for combo in itertools.product(*(range(t[0].shape[-1]) for t in taps)):
        where = sum(t[0][..., k] * s for t, k, s in zip(taps, combo, strides))
        weight = math.prod(t[1][..., k] for t, k in zip(taps, combo))
        assert isinstance(where, np.ndarray) and isinstance(weight, np.ndarray)
        picked = np.take_along_axis(flat, where[:, None, :], axis=2)
        total += weight[:, None, :] * picked
    np.copyto(out, total.reshape(out.shape), casting="unsafe")


def col2im(x: np.ndarray, out: np.ndarray, attrs: Col2ImAttributes) -> None:
    if out.size == 0:
        return
    rank = len(attrs.block)
    n, c, image = out.shape[0], out.shape[1], out.shape[2:]
    pads, strides, dilations = attrs.pads, attrs.strides, attrs.dilations
    padded = [image[d] + pads[d] + pads[rank + d] for d in range(rank)]
    blocks = [
        (padded[d] - dilations[d] * (attrs.block[d] - 1) - 1) // strides[d] + 1
        for d in range(rank)
    ]
    cols = x.reshape(n, c, *attrs.block, *blocks)
    work = np.float64 if x.dtype == np.float64 else np.float32
    acc = np.zeros((n, c, *padded), work)
    for tap in itertools.product(*(range(k) for k in attrs.block)):
        window = tuple(
            slice(t * dl, t * dl + (b - 1) * s + 1, s)
            for t, dl, b, s in zip(tap, dilations, blocks, strides)
        )
        acc[(slice(None), slice(None), *window)] += cols[
            (slice(None), slice(None), *tap)
        ]
    inner = tuple(slice(pads[d], pads[d] + image[d]) for d in range(rank))
    np.copyto(out, acc[(slice(None), slice(None), *inner)], casting="unsafe")


def deform_columns(
    x: np.ndarray, offset: np.ndarray, mask: np.ndarray | None, a: DeformConvAttributes
) -> np.ndarray:
    """The sampled columns (N, C, K, P) in the work type: x at tap `k` of
    output `p` moved by its offset group's offset, bilinear, zero outside."""
    n, c, sizes = x.shape[0], x.shape[1], x.shape[2:]
    rank, g = len(sizes), a.offset_group
    out = offset.shape[2:]
    k_count, p_count = math.prod(a.kernel), math.prod(out)
    moves = offset.reshape(n, g, k_count, rank, p_count)
    taps = np.indices(a.kernel).reshape(rank, k_count, 1)
    points = np.indices(out).reshape(rank, 1, p_count)
    flat = x.reshape(n, g, c // g, -1)
    cols = np.zeros((n, g, c // g, k_count, p_count), moves.dtype)
    where = [
        points[d] * a.strides[d]
        - a.pads[d]
        + taps[d] * a.dilations[d]
        + moves[:, :, :, d]
        for d in range(rank)
    ]  # each (N, G, K, P)
    base = [np.floor(w) for w in where]
    for corner in itertools.product((0, 1), repeat=rank):
        index = np.zeros(base[0].shape, np.int64)
        weight = np.ones_like(base[0])
        for d, side in enumerate(corner):
            at = base[d] + side
            t = where[d] - base[d]
            weight = weight * np.where(
                (at >= 0) & (at < sizes[d]), t if side else 1 - t, 0
            )
            index = index * sizes[d] + np.clip(at, 0, sizes[d] - 1).astype(np.int64)
        picked = np.take_along_axis(flat, index.reshape(n, g, 1, -1), axis=3).reshape(
            cols.shape
        )
        cols += weight[:, :, None] * picked
    if mask is not None:
        cols *= mask.reshape(n, g, 1, k_count, p_count).astype(cols.dtype)
    return cols.reshape(n, c, k_count, p_count)


def deform_conv(
    x: np.ndarray,
    w: np.ndarray,
    offset: np.ndarray,
    bias: np.ndarray | None,
    mask: np.ndarray | None,
    out: np.ndarray,
    a: DeformConvAttributes,
) -> None:
    if out.size == 0:
        return
    work = np.float64 if x.dtype == np.float64 else np.float32
    cols = deform_columns(x.astype(work), offset.astype(work), mask, a)
    n, m, group = x.shape[0], w.shape[0], a.group
    cols = cols.reshape(n, group, -1, cols.shape[-1])
    weights = w.astype(work).reshape(group, m // group, -1)
    total = np.matmul(weights[None], cols).reshape(n, m, -1)
    if bias is not None:
        total += bias.astype(work)[None, :, None]
    np.copyto(out, total.reshape(out.shape), casting="unsafe")


class CpuSampling(CpuHost):
    """Mixed into `CpuRuntime`: GridSample, Col2Im and DeformConv."""

    def grid_sample(
        self, x: DA, grid: DA, out: DA, attrs: GridSampleAttributes
    ) -> None:
        """ONNX GridSample of x (N, C, s...) at grid (N, o..., r) into out (N, C, o...)."""
        grid_sample(self.array(x), self.array(grid), self.array(out), attrs)

    def col2im(self, x: DA, out: DA, attrs: Col2ImAttributes) -> None:
        """ONNX Col2Im of x (N, C * prod(block), L) into out (N, C, s...)."""
        col2im(self.array(x), self.array(out), attrs)

    def deform_conv(
        self,
        x: DA,
        w: DA,
        offset: DA,
        bias: OptDA,
        mask: OptDA,
        out: DA,
        attrs: DeformConvAttributes,
    ) -> None:
        """ONNX DeformConv of x (N, C, s...) by w (M, C/group, k...) into out
        (N, M, o...)."""
        deform_conv(
            self.array(x),
            self.array(w),
            self.array(offset),
            None if bias is None else self.array(bias),
            None if mask is None else self.array(mask),
            self.array(out),
            attrs,
        )
