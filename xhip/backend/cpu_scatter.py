"""The CPU runtime's scatters, Trilu, CumSum and OneHot.

`CpuScatters` is mixed into `CpuRuntime` (cpu.py). Whole-array numpy, no
Python loop per element or row:

- `scatter_nd`, `scatter_elements`: `out` = data, then one fancy-index
  assignment (reduction none) or one unbuffered `ufunc.at` (add, mul, max,
  min), which applies the updates one after the other in their C order, as
  ONNX's reference does, duplicates included. An index outside its dim
  (after negative ones are counted from the end) is an error.
- `trilu`: a mask of the last two dims (`np.triu`'s test), broadcast.
- `cumsum`: `np.cumsum` (`np.cumprod`) in the element type on flipped views (reverse),
  shifted by one (exclusive).
- `one_hot`: a comparison of the indices with `arange(depth)`, then a select.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA, DeviceArray
from xhip.dialects import hip
from xhip.dialects.hip import (
    AxisAttributes,
    CumSumAttributes,
    ScatterAttributes,
    ScatterAxisAttributes,
    TriluAttributes,
)

_AT = {
    "add": np.add,
    "mul": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
}


def _wrapped(index: np.ndarray, sizes: Any, what: str) -> np.ndarray:
    """`index` (int64) with negative entries counted from the end of `sizes`
    (broadcast against it); an error for any outside `[-size, size)`."""
    index = index.astype(np.int64, copy=False)
    bad = (index < -sizes) | (index >= sizes)
    if np.any(bad):
        first = index[bad].reshape(-1)[0]
        raise IndexError(f"{what}: index {int(first)} is out of range")
    return np.where(index < 0, index + sizes, index)


_NAN_SKIPPING = {"max": np.fmax, "min": np.fmin}


def _scatter(
    o: np.ndarray, where: tuple[Any, ...], u: np.ndarray, reduction: str
) -> None:
    if reduction == "none":
        o[where] = u
        return
    with np.errstate(over="ignore", invalid="ignore"):
        if (
            reduction in _NAN_SKIPPING
            and o.dtype.kind == "f"
            and (np.isnan(u).any() or np.isnan(o[where]).any())
        ):
            _scatter_extreme_with_nan(o, where, u, _NAN_SKIPPING[reduction])
        else:
            _AT[reduction].at(o, where, u)


def _scatter_extreme_with_nan(
    o: np.ndarray, where: tuple[Any, ...], u: np.ndarray, skipping: np.ufunc
) -> None:
    """ONNX Runtime's max (min) where a NaN takes part: each update in order
    makes the destination `d > u ? d : u` (`<`), so a NaN update makes it NaN
    and a NaN destination takes the next update (numpy's `maximum` would keep
    the NaN). A destination thus ends NaN where its last update is NaN, else
    `fmax` (`fmin`) of the updates after its last NaN one: of the data and
    all its updates where it has none."""
    work = np.ascontiguousarray(o)
    flat = work.reshape(-1)
    positions = np.arange(o.size).reshape(o.shape)[where]
    values = np.broadcast_to(u, positions.shape).reshape(-1)
    positions = positions.reshape(-1)
    nan = np.isnan(values)
    order = np.arange(values.size)
    last = np.full(o.size, -1)
    np.maximum.at(last, positions[nan], order[nan])
    flat[last >= 0] = np.nan
    kept = order > last[positions]
    skipping.at(flat, positions[kept], values[kept])
    if work is not o:
        np.copyto(o, work)


class CpuScatters(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` methods of the scatter family."""

    def _scatter_start(self, data: DeviceArray, out: DeviceArray) -> np.ndarray:
        d, o = self.array(data), self.array(out)
        if not (d.ctypes.data == o.ctypes.data and d.strides == o.strides):
            np.copyto(o, d)
        return o

    def scatter_nd(
        self, data: DA, indices: DA, updates: DA, out: DA, attrs: ScatterAttributes
    ) -> None:
        """ONNX ScatterND: `out` = `data`, then each update slice combined
        (`reduction` none, add, mul, max, min) into `out[tuple(indices[i])]`,
        in order; int64 indices, negative ones counted from the end."""
        reduction = attrs.reduction
        o = self._scatter_start(data, out)
        idx, u = self.array(indices), self.array(updates)
        k = idx.shape[-1]
        m = math.prod(idx.shape[:-1])
        if m == 0 or o.size == 0:
            return
        if k == 0:  # every update is the whole of data, in order
            slices = u.reshape(m, *o.shape)
            _scatter(o[None], (np.zeros(m, np.intp),), slices, reduction)
            return
        rows = idx.reshape(m, k)
        sizes = np.asarray(o.shape[:k], np.int64)
        rows = _wrapped(rows, sizes, hip.ScatterNDOp.name)
        slices = u.reshape(rows.shape[0], *o.shape[k:])
        _scatter(o, tuple(rows.T), slices, reduction)

    def scatter_elements(
        self, data: DA, indices: DA, updates: DA, out: DA, attrs: ScatterAxisAttributes
    ) -> None:
        """ONNX ScatterElements along `axis` (in `[0, rank)`): `out` = `data`,
        then `updates[p]` combined into `out` at `p` with its `axis`
        coordinate replaced by `indices[p]` (int32 or int64, negative ones
        counted from the end), in order."""
        reduction, axis = attrs.reduction, attrs.axis
        o = self._scatter_start(data, out)
        idx, u = self.array(indices), self.array(updates)
        if idx.size == 0:
            return
        where: list[Any] = list(np.ogrid[tuple(slice(0, n) for n in idx.shape)])
        where[axis] = _wrapped(idx, o.shape[axis], hip.ScatterElementsOp.name)
        _scatter(o, tuple(where), u, reduction)

    def trilu(self, k: int, src: DA, out: DA, attrs: TriluAttributes) -> None:
        """ONNX Trilu on the last two dims: `src` where `col - row >= k`
        (`upper`) or `<= k`, else 0."""
        x, o = self.array(src), self.array(out)
        rows, cols = x.shape[-2:]
        diagonal = np.arange(cols)[None, :] - np.arange(rows)[:, None]
        keep = diagonal >= k if attrs.upper else diagonal <= k
        np.copyto(o, np.where(keep, x, np.zeros((), x.dtype)))

    def cumsum(self, src: DA, out: DA, attrs: CumSumAttributes) -> None:
        """ONNX CumSum (CumProd under `product`) along `axis`, in `src`'s
        element type, in order."""
        axis = attrs.axis
        x, o = self.array(src), self.array(out)
        if o.size == 0:
            return
        if attrs.reverse:
            x, o = np.flip(x, axis), np.flip(o, axis)
        scan = np.cumprod if attrs.product else np.cumsum
        with np.errstate(over="ignore", invalid="ignore"):
            if not attrs.exclusive:
                scan(x, axis=axis, dtype=o.dtype, out=o)
                return
            n = x.shape[axis]
            head = [slice(None)] * x.ndim
            head[axis] = slice(0, 1)
            o[tuple(head)] = 1 if attrs.product else 0
            if n > 1:
                before, after = list(head), list(head)
                before[axis], after[axis] = slice(0, n - 1), slice(1, n)
                scan(x[tuple(before)], axis=axis, dtype=o.dtype, out=o[tuple(after)])

    def one_hot(self, indices: DA, values: DA, out: DA, attrs: AxisAttributes) -> None:
        """ONNX OneHot: `out` (depth = `out.shape[axis]`) is `values[1]` where
        the coordinate at `axis` equals the index (negative ones plus depth,
        float ones truncated), else `values[0]`."""
        axis = attrs.axis
        idx, v, o = self.array(indices), self.array(values), self.array(out)
        if o.size == 0:
            return
        depth = o.shape[axis]
        if idx.dtype.kind == "f":
            with np.errstate(invalid="ignore"):
                finite = np.clip(
                    np.where(np.isfinite(idx), idx, depth), -depth - 1, depth
                )
                idx = np.trunc(finite).astype(np.int64)
        else:
            idx = idx.astype(np.int64)
        idx = np.where(idx < 0, idx + depth, idx)
        shape = [1] * o.ndim
        shape[axis] = depth
        hot = np.expand_dims(idx, axis) == np.arange(depth).reshape(shape)
        np.copyto(o, np.where(hot, v[1], v[0]))
