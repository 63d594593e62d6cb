"""The CPU runtime's transposed convolution and Lp pooling.

`CpuWindows` is mixed into `CpuRuntime` (cpu.py). No Python loop runs per
pixel:

- `conv_transpose`: per image, one batched GEMM over the groups (`np.matmul`
  with `out=` into the op's workspace) gives the column matrix
  `col (M, prod(k), s...) = w^T (M/g * K, C/g) @ x (C/g, s...)` per group,
  then col2im: one strided add per kernel tap into y. A 1x1 kernel with unit
  strides and no pads (an empty workspace) is one `matmul` into y.
- `lp_pool`: `|x|^p` copied once into a zero-padded array,
  `sliding_window_view` with the strides and dilations as steps, one `sum`
  over the window axes, then the `1/p` power.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from xhip.backend.cpu_host import CpuHost
from xhip.backend.cpu_pooling import window_slices
from xhip.backend.runtime import DA, OptDA
from xhip.dialects.hip import ConvAttributes, LpPoolAttributes, WindowAttributes


def tap_slices(
    tap: Sequence[int],
    y_shape: Sequence[int],
    x_shape: Sequence[int],
    window: WindowAttributes,
) -> tuple[tuple[slice, ...], tuple[slice, ...]] | None:
    """For one kernel tap: the input positions `i` whose output `i * s - pad +
    t * dil` lies inside y, and those output elements (slices per dim): the
    convolution's map (`cpu_pooling.window_slices`) with y as its input."""
    return window_slices(tap, y_shape, x_shape, window)


def lp_pool(x: np.ndarray, out: np.ndarray, attrs: LpPoolAttributes) -> None:
    rank, kernel, p = x.ndim - 2, attrs.kernel, attrs.p
    strides, dilations, pads = attrs.strides, attrs.dilations, attrs.pads
    if out.size == 0:
        return
    spatial = tuple(range(2, 2 + rank))
    in_shape, out_shape = x.shape[2:], out.shape[2:]
    spans = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    lengths = [(o - 1) * s + span for o, s, span in zip(out_shape, strides, spans)]
    work = np.float64 if x.dtype == np.float64 else np.float32
    padded = np.zeros((*x.shape[:2], *lengths), dtype=work)
    inner = tuple(
        slice(pads[d], min(pads[d] + in_shape[d], lengths[d])) for d in range(rank)
    )
    keep = tuple(slice(0, s.stop - s.start) for s in inner)
    part = np.abs(x[(slice(None), slice(None), *keep)]).astype(work)
    padded[(slice(None), slice(None), *inner)] = part if p == 1 else part**p
    windows = sliding_window_view(padded, spans, axis=spatial)
    steps = (
        slice(None),
        slice(None),
        *(slice(None, None, s) for s in strides),
        *(slice(None, None, d) for d in dilations),
    )
    total = np.sum(windows[steps], axis=tuple(range(2 + rank, 2 + 2 * rank)))
    if p == 2:
        np.sqrt(total, out=total)
    elif p != 1:
        np.power(total, 1.0 / p, out=total)
    np.copyto(out, total, casting="unsafe")


class CpuWindows(CpuHost):
    """Mixed into `CpuRuntime`: ConvTranspose and LpPool."""

    def conv_transpose(
        self, x: DA, w: DA, bias: OptDA, out: DA, workspace: DA, attrs: ConvAttributes
    ) -> None:
        """ONNX ConvTranspose of x (N, C, s...) by w (C, M/group, k...), plus
        `bias` (M) if given, into out (N, M, o...): input `i` adds `x[i] * w[t]`
        at output `i * stride - pad_begin + t * dilation`, out's size deciding
        the end (output padding). `workspace` (1-D, from the memory plan) holds
        one image's column matrix, `M * prod(k) * prod(s)` elements, or is
        empty where the GEMM writes out itself."""
        xs, ws, o, work = (self.array(v) for v in (x, w, out, workspace))
        n, c, group = *xs.shape[:2], attrs.group
        m, kernel, in_spatial = o.shape[1], ws.shape[2:], xs.shape[2:]
        positions, taps = math.prod(in_spatial), math.prod(kernel)
        if o.size == 0:
            return
        # (G, M/G * K, C/G): each group's weights, transposed.
        weights = ws.reshape(group, c // group, (m // group) * taps).transpose(0, 2, 1)
        target = o if o.flags.c_contiguous else np.empty_like(o)
        if work.size == 0:  # y is the column matrix itself
            images = xs.reshape(n, group, c // group, positions)
            out_rows = target.reshape(n, group, m // group, positions)
            np.matmul(weights, images, out=out_rows)
        else:
            target.fill(0)
            col = work.reshape(group, (m // group) * taps, positions)
            taps_view = work.reshape(m, taps, *in_spatial)
            slices = [
                tap_slices(tap, o.shape[2:], in_spatial, attrs)
                for tap in np.ndindex(*kernel)
            ]
            for i in range(n):
                image_rows = xs[i].reshape(group, c // group, positions)
                np.matmul(weights, image_rows, out=col)
                image = target[i]
                for k, found in enumerate(slices):
                    if found is not None:
                        src, dst = found
                        image[(slice(None), *dst)] += taps_view[(slice(None), k, *src)]
        if bias is not None:
            target += self.array(bias).reshape(m, *(1 for _ in in_spatial))
        if target is not o:
            np.copyto(o, target)

    def lp_pool(self, x: DA, out: DA, attrs: LpPoolAttributes) -> None:
        """ONNX LpPool of x (N, C, s...) into out (N, C, o...): `(sum |x|^p)^(1/p)`
        over each window's elements inside x (windows as in `pool`)."""
        lp_pool(self.array(x), self.array(out), attrs)
