"""The CPU runtime's slicing and broadcasting copies: `hip.slice`, `hip.tile`,
`hip.expand`.

`CpuMovement` is mixed into `CpuRuntime` (cpu.py). Each op is one strided
numpy copy into its destination view, cut over the thread pool like the
elementwise ops: the slice is a view of the source (negative steps too), the
expansion numpy's broadcasting, and the tiling a copy of the source,
broadcast over the repeats, into the output seen as (repeat, size) pairs of
dims (a view: splitting a dim needs no copy).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from xhip.backend import checks
from xhip.backend.cpu_host import CpuHost, nothing
from xhip.backend.runtime import DA
from xhip.dialects.hip import SliceAttributes


def _copy(src: np.ndarray, out: np.ndarray) -> None:
    np.copyto(out, src)


def slice_view(
    x: np.ndarray, starts: Sequence[int], steps: Sequence[int], shape: Sequence[int]
) -> np.ndarray:
    """The elements `x[start + i * step]` in each dim, `shape[d]` of them: a view."""
    index: list[slice] = []
    for start, step, n in zip(starts, steps, shape, strict=True):
        stop: int | None = start + n * step
        if stop is not None and stop < 0:
            stop = None  # a backwards slice down to element 0
        index.append(slice(start, stop, step))
    return x[tuple(index)]


def tile_views(x: np.ndarray, out: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`out` as (repeat, size) pairs of dims, and `x` as (1, size) pairs: a
    broadcast copy of the second into the first is Tile."""
    pairs: list[int] = []
    strides: list[int] = []
    for n, m, stride in zip(x.shape, out.shape, out.strides, strict=True):
        pairs += [m // n, n]
        strides += [stride * n, stride]
    split = np.lib.stride_tricks.as_strided(
        out, tuple(pairs), tuple(strides), writeable=True
    )
    source = x.reshape(tuple(d for n in x.shape for d in (1, n)))
    return source, split


class CpuMovement(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` methods of the copies. Each is
    its `bind_` form called once (bound plans replay that call)."""

    def slice(
        self, starts: Sequence[int], src: DA, out: DA, attrs: SliceAttributes
    ) -> None:
        """`hip.slice`: `out[i] = src[start + i * step]` in each dim. Each start
        is in `[0, size)` of its dim wherever `out` is not empty."""
        self.bind_slice(starts, src, out, attrs)()

    def bind_slice(
        self, starts: Sequence[int], src: DA, out: DA, attrs: SliceAttributes
    ) -> Callable[[], object]:
        checks.slice_within(src, starts, attrs.steps, out)
        o = self.array(out)
        if o.size == 0:
            return nothing
        part = slice_view(self.array(src), starts, attrs.steps, o.shape)
        return self._bind_elementwise(_copy, o, part)

    def tile(self, src: DA, out: DA) -> None:
        """ONNX Tile: `out[i] = src[i mod src.shape]` in each dim (each dim of
        `out` a multiple of `src`'s)."""
        self.bind_tile(src, out)()

    def bind_tile(self, src: DA, out: DA) -> Callable[[], object]:
        o = self.array(out)
        if o.size == 0:
            return nothing
        source, split = tile_views(self.array(src), o)
        return self._bind_elementwise(_copy, split, source)

    def expand(self, src: DA, out: DA) -> None:
        """ONNX Expand: `src` broadcast to `out`'s shape as numpy does."""
        self.bind_expand(src, out)()

    def bind_expand(self, src: DA, out: DA) -> Callable[[], object]:
        return self._bind_elementwise(_copy, self.array(out), self.array(src))

    def bitcast(self, src: DA, out: DA) -> None:
        """ONNX BitCast: `src`'s bytes as `out`'s element type (one width)."""
        o = self.array(out)
        np.copyto(o, self.array(src).view(o.dtype))
