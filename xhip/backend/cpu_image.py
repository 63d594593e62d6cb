"""The CPU runtime's Pad, group (and instance) normalization and LRN.

`CpuImage` is mixed into `CpuRuntime` (cpu.py). Whole-array numpy calls
writing into the destination view, no Python loop per element or row:

- `pad`: constant mode fills the padding and copies the (cropped) input into
  its window; the other modes gather through one index array per dim
  (`pad_indices`), which the GPU kernel computes the same way.
- `group_norm`: the input viewed as (N, groups, rest), statistics over the
  last axis, float16 in float32, one cast at the end.
- `lrn`: the window sums of squares are differences of a float64 running sum
  along the channels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from xhip.backend import checks
from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA, OptDA
from xhip.dialects.hip import GroupNormAttributes, LrnAttributes, PadAttributes


def _work_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """float32 for float16 (and anything narrower), else the type itself."""
    return np.promote_types(dtype, np.float32)


def pad_indices(size: int, begin: int, end: int, mode: str) -> np.ndarray:
    """For each output position along one dim, the input position it reads:
    the input is first cropped by the negative pads, then extended by the
    positive ones; -1 where the constant mode writes its value."""
    lo = max(-begin, 0)
    kept = size - lo - max(-end, 0)
    j = np.arange(size + begin + end, dtype=np.int64) - max(begin, 0)
    if mode == "constant":
        return np.where((j >= 0) & (j < kept), j + lo, -1)
    if kept <= 0:
        raise ValueError(f"{mode} padding of an empty dim")
    if mode == "edge":
        j = np.clip(j, 0, kept - 1)
    elif mode == "wrap":
        j = np.mod(j, kept)
    elif mode == "reflect":
        if kept == 1:
            j = np.zeros_like(j)
        else:
            period = 2 * (kept - 1)
            j = np.mod(j, period)
            j = np.where(j >= kept, period - j, j)
    else:
        raise ValueError(f"unknown pad mode {mode!r}")
    return j + lo


class CpuImage(CpuHost):
    """Mixed into `CpuRuntime`: Pad, group normalization and LRN."""

    def pad(
        self, pads: Sequence[int], x: DA, value: OptDA, out: DA, attrs: PadAttributes
    ) -> None:
        """ONNX Pad of x into out: `pads` all begins then all ends, one pair per
        dim (negative: crop, which comes first); `mode` (`hip.PAD_MODES`)
        constant (the one-element `value`, 0 if None), reflect, edge or wrap,
        each of the latter extending the cropped input periodically."""
        mode = attrs.mode
        xs, o = self.array(x), self.array(out)
        checks.pad(x, out, pads, mode)
        if o.size == 0:
            return
        rank = xs.ndim
        if mode == "constant":
            fill = self.array(value).reshape(()) if value is not None else 0
            inner_out: list[slice] = []
            inner_in: list[slice] = []
            for d in range(rank):
                begin, end = pads[d], pads[rank + d]
                lo, hi = max(-begin, 0), xs.shape[d] - max(-end, 0)
                start = max(begin, 0)
                inner_in.append(slice(lo, max(hi, lo)))
                inner_out.append(slice(start, start + max(hi - lo, 0)))
            window = o[tuple(inner_out)]
            if window.size != o.size:
                o[...] = fill
            np.copyto(window, xs[tuple(inner_in)])
            return
        index = [
            pad_indices(xs.shape[d], pads[d], pads[rank + d], mode) for d in range(rank)
        ]
        np.copyto(o, xs[np.ix_(*index)])

    def group_norm(
        self, x: DA, scale: DA, bias: DA, out: DA, attrs: GroupNormAttributes
    ) -> None:
        """ONNX GroupNormalization (InstanceNormalization when `num_groups` is
        None: one group per channel) of x (N, C, ...): each group of C /
        num_groups channels of each image normalized, then times `scale` plus
        `bias`, (C) or, under `per_group`, (num_groups)."""
        xs = self.array(x)
        if xs.size == 0:
            return
        n, c = xs.shape[:2]
        groups = c if attrs.num_groups is None else attrs.num_groups
        work = _work_dtype(xs.dtype)
        w = xs.astype(work).reshape(n, groups, -1)
        mean = np.mean(w, axis=2, keepdims=True)
        np.subtract(w, mean, out=w)
        var = np.mean(np.square(w), axis=2, keepdims=True)
        np.multiply(w, 1.0 / np.sqrt(var + np.asarray(attrs.epsilon, work)), out=w)
        s = self.array(scale).astype(work)
        b = self.array(bias).astype(work)
        if attrs.per_group:
            s, b = np.repeat(s, c // groups), np.repeat(b, c // groups)
        y = w.reshape(xs.shape)
        spatial = (1,) * (xs.ndim - 2)
        np.multiply(y, s.reshape(c, *spatial), out=y)
        np.add(y, b.reshape(c, *spatial), out=y)
        np.copyto(self.array(out), y, casting="unsafe")

    def lrn(self, src: DA, out: DA, attrs: LrnAttributes) -> None:
        """ONNX LRN across the channels (dim 1) of src (N, C, ...)."""
        size = attrs.size
        xs = self.array(src)
        if xs.size == 0:
            return
        work = _work_dtype(xs.dtype)
        w = xs.astype(work)
        c = xs.shape[1]
        before, after = (size - 1) // 2, size // 2
        squares = np.square(w, dtype=np.float64)
        running = np.zeros((xs.shape[0], c + 1, *xs.shape[2:]), np.float64)
        np.cumsum(squares, axis=1, out=running[:, 1:])
        channel = np.arange(c)
        hi = np.minimum(channel + after + 1, c)
        lo = np.maximum(channel - before, 0)
        sums = (running[:, hi] - running[:, lo]).astype(work)
        denominator = np.power(
            np.asarray(attrs.bias, work) + np.asarray(attrs.alpha / size, work) * sums,
            np.asarray(attrs.beta, work),
        )
        np.copyto(self.array(out), w / denominator, casting="unsafe")
