"""`xhip_topk_f32` (kernels/topk.h) run by the emulator against a reference
sorted in Python, at warp size 32 and 64 (threads in forward and reverse
order): rows sorted in shared memory (lengths 1, primes, a power of two,
`SORT_MAX`) and rows too long for it (selection passes), k from 1 to n,
largest and smallest, ties and NaN, inner, outer and middle axes, strided
inputs, more rows than the grid; and `hip.topk` through the GPU runtimes
against the CPU runtime.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest

from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.cpu import CpuRuntime
from xhip.backend.gpu_reduce import block_for
from xhip.backend.gpu_topk import SORT_MAX, sort_size
from xhip.dialects import hip
from xhip.testing.emulator import EmulatedKernels, Guarded
from xhip.testing.emulator.build import Order

pytestmark = pytest.mark.emulator

KERNELS = {"xhip_topk_f32"}
WARPS: tuple[tuple[int, Order], ...] = ((32, "forward"), (64, "reverse"))


def _key(value: float, index: int, largest: bool) -> tuple[int, float, int]:
    """TopK's order: NaN above every number, ties to the lower index."""
    nan = math.isnan(value)
    if largest:
        return (0 if nan else 1, 0.0 if nan else -value, index)
    return (1 if nan else 0, 0.0 if nan else value, index)


def reference(
    x: np.ndarray, k: int, axis: int, largest: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Values and indices, one row at a time in Python (a test may loop)."""
    moved = np.moveaxis(x, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    picked = [
        sorted(range(len(row)), key=lambda j, r=row: _key(float(r[j]), j, largest))[:k]
        for row in rows
    ]
    idx = np.asarray(picked, np.int64).reshape(*moved.shape[:-1], k)
    values = np.take_along_axis(moved, idx, axis=-1)
    return np.moveaxis(values, -1, axis), np.moveaxis(idx, -1, axis)


def _data(shape: tuple[int, ...], ties: bool, nan: bool, seed: str) -> np.ndarray:
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    if ties:
        x = rng.integers(-3, 4, shape).astype(np.float32)
    else:
        x = rng.normal(0, 2, shape).astype(np.float32)
    if nan and x.size > 4:
        x.flat[rng.choice(x.size, max(1, x.size // 7), replace=False)] = np.nan
    return x


CASES = [
    # shape, axis, k, ties, nan, transposed input
    ((1,), 0, 1, False, False, False),
    ((5,), 0, 5, True, False, False),
    ((7, 13), 1, 4, True, True, False),  # inner
    ((13, 7), 0, 13, False, True, False),  # outer, all of it
    ((4, 11, 3), 1, 2, True, False, False),  # middle
    ((6, 64), 1, 64, True, True, True),  # a power of two, strided
    ((70, 3), 1, 2, False, False, False),  # more rows than the grid below
    ((2, SORT_MAX), 1, 9, True, True, False),  # the longest sorted row
    ((2, SORT_MAX + 3), 1, 5, True, True, False),  # selection passes
    ((SORT_MAX + 1, 2), 0, 3, False, True, True),  # selection, strided
]


@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
@pytest.mark.parametrize(
    "shape,axis,k,ties,nan,transposed", CASES, ids=lambda v: str(v).replace(" ", "")
)
def test_topk_kernel(
    emulated: EmulatedKernels,
    largest: bool,
    shape: tuple[int, ...],
    axis: int,
    k: int,
    ties: bool,
    nan: bool,
    transposed: bool,
) -> None:
    x = _data(shape, ties, nan, f"{shape} {axis} {k}")
    if transposed:
        x = np.ascontiguousarray(x.T).T
    want_values, want_indices = reference(x, k, axis, largest)
    n = x.shape[axis]
    kept = [d for d in range(x.ndim) if d != axis]
    item = x.itemsize
    out_shape = want_values.shape
    dense = [math.prod(out_shape[d + 1 :]) for d in range(x.ndim)]
    meta = np.asarray(
        [
            *(x.shape[d] for d in kept),
            *(x.strides[d] // item for d in kept),
            *(dense[d] for d in kept),
            *(dense[d] for d in kept),
        ]
        or [0],
        np.int64,
    )
    rows = want_values.size // k
    padded = sort_size(n)
    launches = [(1, 1), (min(rows, 2), 32)]
    launches.append((min(rows, 5), block_for(max(1, padded // 2) if padded else n)))
    for grid, block in launches:
        shared = 12 * (padded or block)
        for warp, order in WARPS:
            values = Guarded(np.full(out_shape, 7.0, np.float32))
            indices = Guarded(np.full(out_shape, -5, np.int64))
            args = [
                ("i32", 1 if largest else 0),
                ("ptr", x.ctypes.data),
                ("ptr", values.address),
                ("ptr", indices.address),
                ("i32", len(kept)),
                ("ptr", meta.ctypes.data),
                ("i64", rows),
                ("i64", n),
                ("i64", k),
                ("i64", x.strides[axis] // item),
                ("i64", dense[axis]),
                ("i64", dense[axis]),
                ("i64", padded),
            ]
            emulated.launch(
                "xhip_topk_f32", grid, block, shared, args, warp_size=warp, order=order
            )
            values.check()
            indices.check()
            where = f"grid {grid} block {block} warp {warp}"
            np.testing.assert_array_equal(indices.array, want_indices, err_msg=where)
            np.testing.assert_array_equal(values.array, want_values, err_msg=where)


@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_topk_on_gpu_runtimes(make_gpu: MakeGpu, largest: bool, axis: int) -> None:
    """`Runtime.topk` of the GPU runtimes, into strided views of both outputs,
    equals the CPU runtime's, ties and NaN included."""
    gpu, cpu = make_gpu(debug=True), CpuRuntime()
    x = _data((3, 9, 5), True, True, f"runtime {axis}")
    k = min(4, x.shape[axis])
    shape = tuple(k if d == axis else n for d, n in enumerate(x.shape))
    results: list[tuple[np.ndarray, np.ndarray]] = []
    for runtime in (gpu, cpu):
        src = runtime.upload(x)
        # Outputs stored transposed: `outs` are views with strides of their own.
        flipped = shape[::-1]
        values = runtime.empty(flipped, np.dtype(np.float32))
        indices = runtime.empty(flipped, np.dtype(np.int64))
        rev = list(reversed(range(len(shape))))
        v_view, i_view = (
            type(v)(
                v.buffer, v.offset, shape, tuple(v.strides[p] for p in rev), v.dtype
            )
            for v in (values, indices)
        )
        runtime.topk(src, v_view, i_view, hip.TopKAttributes(axis, largest))
        results.append(
            (runtime.download(values).T.copy(), runtime.download(indices).T.copy())
        )
    want = reference(x, k, axis, largest)
    for got in results:
        np.testing.assert_array_equal(got[1], want[1])
        np.testing.assert_array_equal(got[0], want[0])
    cpu.close()


def test_topk_refuses_other_types_on_gpu(make_gpu: MakeGpu) -> None:
    gpu = make_gpu()
    x = gpu.upload(np.arange(6, dtype=np.int64).reshape(2, 3))
    values = gpu.empty((2, 2), np.dtype(np.int64))
    indices = gpu.empty((2, 2), np.dtype(np.int64))
    with pytest.raises(NotImplementedError, match="int64 operands.*float32 only"):
        gpu.topk(x, values, indices, hip.TopKAttributes(1, True))
