"""The kernels of `kernels/movement.h` (`xhip_tile_<bytes>`) run by the
emulator against numpy, at warp size 32 and 64 (threads in forward and
reverse order), for every element size: a slice with negative and positive
steps (a strided view of the source), an expansion both ways (size-1 dims
read at index 0, new leading dims), a tiling of a transposed source, into
contiguous and into transposed outputs; one thread, a grid-stride loop over a
small grid, and the runtime's own launch.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import zlib
from collections.abc import Callable

import numpy as np
import pytest

from xhip.backend.gpu import BLOCK, MAX_GRID
from xhip.backend.gpu_movement import TILE_KERNELS
from xhip.testing.emulator import EmulatedKernels, Guarded

pytestmark = pytest.mark.emulator

KERNELS = set(TILE_KERNELS.values())
WARPS = ((32, "forward"), (64, "reverse"))


def _strides(view: np.ndarray) -> list[int]:
    return [s // view.itemsize for s in view.strides]


def _slice_case(x: np.ndarray) -> tuple[np.ndarray, list[int], list[int], np.ndarray]:
    view = x[4::-2, 1:6:2]
    return view, list(view.shape), _strides(view), view


def _expand_case(x: np.ndarray) -> tuple[np.ndarray, list[int], list[int], np.ndarray]:
    src = x[:3, :1]  # (3, 1), strided
    out_shape = (2, 3, 4)
    strides = [0, *_strides(src)]
    return src, [1, *src.shape], strides, np.broadcast_to(src, out_shape)


def _tile_case(x: np.ndarray) -> tuple[np.ndarray, list[int], list[int], np.ndarray]:
    src = x[:2, :3].T  # (3, 2), transposed
    return src, list(src.shape), _strides(src), np.tile(src, (2, 3))


CASES: dict[
    str, Callable[[np.ndarray], tuple[np.ndarray, list[int], list[int], np.ndarray]]
] = {"slice": _slice_case, "expand": _expand_case, "tile": _tile_case}


@pytest.mark.parametrize("transposed_out", [False, True], ids=["dense", "transposed"])
@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("size", sorted(TILE_KERNELS))
def test_tile_kernel(
    emulated: EmulatedKernels, size: int, case: str, transposed_out: bool
) -> None:
    dtype = np.dtype(f"u{size}")
    rng = np.random.default_rng(zlib.crc32(f"{size} {case}".encode()))
    x = rng.integers(0, np.iinfo(dtype).max, (6, 7), dtype=dtype, endpoint=True)
    src, src_shape, src_strides, want = CASES[case](x)
    n = want.size
    grid = max(1, min(MAX_GRID, -(-n // BLOCK)))
    for blocks, threads in ((1, 1), (2, 32), (grid, BLOCK)):
        for warp, order in WARPS:
            shape = want.shape[::-1] if transposed_out else want.shape
            guarded = Guarded(np.zeros(shape, dtype))
            out = guarded.array.T if transposed_out else guarded.array
            meta = np.array(
                [*out.shape, *_strides(out), *src_shape, *src_strides], np.int64
            )
            args = [
                ("ptr", out.ctypes.data),
                ("ptr", src.ctypes.data),
                ("i32", out.ndim),
                ("ptr", meta.ctypes.data),
                ("i64", n),
            ]
            emulated.launch(
                TILE_KERNELS[size],
                blocks,
                threads,
                0,
                args,
                warp_size=warp,
                order=order,
            )
            guarded.check()
            where = f"{case} grid {blocks} block {threads} warp {warp}"
            np.testing.assert_array_equal(out, want, err_msg=where)
