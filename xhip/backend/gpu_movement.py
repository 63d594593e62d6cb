"""The GPU runtimes' slicing and broadcasting copies: `hip.slice`, `hip.tile`,
`hip.expand`.

`GpuMovement` is mixed into `gpu.KernelRuntime`; the kernel is
`xhip_tile_<bytes>` in `kernels/movement.h`, one per element size, so every
element type runs. Each op is one launch: output element i reads source
element `i mod src_shape` (per dim) at the source's strides. A slice is the
strided view of the source at its starts, its steps folded into the strides
(negative for a backwards step), read with `src_shape` the output's shape;
Expand right-aligns the source and reads its size-1 dims at index 0; Tile
reads the source's own shape.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from xhip.backend import checks
from xhip.backend.gpu_host import GpuHost
from xhip.backend.runtime import DA, DeviceArray, check_view
from xhip.dialects.hip import SliceAttributes

TILE_KERNELS = {size: f"xhip_tile_{size}" for size in (1, 2, 4, 8)}
"""The kernel of each element size in bytes."""


def tile_meta(
    out: DeviceArray, src_shape: Sequence[int], src_strides: Sequence[int]
) -> np.ndarray:
    """The kernel's `meta`: out's shape and strides, the source's shape and
    strides (all of out's rank)."""
    rows = [list(out.shape), list(out.strides), list(src_shape), list(src_strides)]
    return np.asarray([v for row in rows for v in row] or [0], np.int64)


def sliced(
    src: DeviceArray,
    starts: Sequence[int],
    steps: Sequence[int],
    shape: tuple[int, ...],
) -> DeviceArray:
    """The view of `src` holding `src[start + i * step]` per dim, of `shape`."""
    return src.subview(starts, shape, steps, shape)


class GpuMovement(GpuHost):
    """Mixed into `KernelRuntime`: the `Runtime` methods of the copies."""

    def _tile_copy(
        self,
        src: DeviceArray,
        out: DeviceArray,
        src_shape: Sequence[int],
        src_strides: Sequence[int],
    ) -> None:
        kernel = TILE_KERNELS.get(src.itemsize)
        if src.dtype != out.dtype or kernel is None:
            self.refuse(f"from {src.dtype} to {out.dtype}")
        meta = tile_meta(out, src_shape, src_strides)
        self._launch_strided(kernel, [], out, meta, [src])

    def slice(
        self, starts: Sequence[int], src: DA, out: DA, attrs: SliceAttributes
    ) -> None:
        if out.size == 0:
            return
        checks.slice_within(src, starts, attrs.steps, out)
        view = sliced(src, starts, attrs.steps, out.shape)
        if self.debug:
            check_view(view, "the sliced input")
        self._tile_copy(view, out, out.shape, view.strides)

    def tile(self, src: DA, out: DA) -> None:
        if out.size == 0:
            return
        self._tile_copy(src, out, src.shape, src.strides)

    def expand(self, src: DA, out: DA) -> None:
        lead = len(out.shape) - len(src.shape)
        shape = [1] * lead + list(src.shape)
        strides = [0] * lead + list(src.strides)
        self._tile_copy(src, out, shape, strides)

    def bitcast(self, src: DA, out: DA) -> None:
        """ONNX BitCast: a byte copy (`xhip_copy_<size>`) of `src` seen with
        `out`'s element type."""
        if src.itemsize != out.itemsize:
            self.refuse(f"from {src.dtype} to {out.dtype} (one width only)")
        if out.size:
            retyped = DeviceArray(
                src.buffer, src.offset, src.shape, src.strides, out.dtype, src.base
            )
            self.copy(retyped, out)
