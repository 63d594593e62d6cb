"""`xhip_det` (kernels/linalg.h) run by the emulator against numpy's
float64 determinant, at warp size 32 and 64: 0x0 to 5x5 matrices, batches
of any rank, pivoting (a zero on the diagonal), singular matrices, strided
(transposed) inputs, more matrices than threads; and `hip.det` through the
GPU runtimes against the CPU runtime, float16/32/64.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.cpu import CpuRuntime
from xhip.backend.device import KernelArg
from xhip.backend.elementwise import TYPE_CODES
from xhip.testing.emulator import EmulatedKernels, Guarded
from xhip.testing.emulator.build import Order

pytestmark = pytest.mark.emulator

KERNELS = {"xhip_det"}
WARPS: tuple[tuple[int, Order], ...] = ((32, "forward"), (64, "reverse"))


def _matrices(shape: tuple[int, ...], dtype: type, seed: str) -> np.ndarray:
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    x = rng.normal(0, 1, shape)
    if shape[-1] >= 2 and x.size:
        flat = x.reshape(-1, *shape[-2:])
        flat[0, 0, 0] = 0.0  # the first pivot is a row swap
        if len(flat) > 1:
            flat[1, :, 0] = flat[1, :, 1]  # singular: two equal columns
    return x.astype(dtype)


CASES = [
    ((0, 0), False),
    ((1, 1), False),
    ((2, 2), False),
    ((3, 3, 3), True),
    ((2, 3, 4, 4), False),
    ((70, 5, 5), True),  # more matrices than the threads below
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "shape,transposed", CASES, ids=lambda v: str(v).replace(" ", "")
)
def test_det_kernel(
    emulated: EmulatedKernels,
    dtype: type,
    shape: tuple[int, ...],
    transposed: bool,
) -> None:
    x = _matrices(shape, dtype, f"{shape} {dtype}")
    if transposed:
        x = np.swapaxes(np.ascontiguousarray(np.swapaxes(x, -1, -2)), -1, -2)
    want = np.linalg.det(x.astype(np.float64))
    n, batch = shape[-1], len(shape) - 2
    item = x.itemsize
    out_shape = shape[:-2]
    count = int(np.prod(out_shape, dtype=np.int64))
    dense = [int(np.prod(out_shape[d + 1 :], dtype=np.int64)) for d in range(batch)]
    meta = np.asarray(
        [*out_shape, *(s // item for s in x.strides[:batch]), *dense] or [0], np.int64
    )
    wide = dtype == np.float64
    for grid, block in ((1, 1), (2, 32)):
        for warp, order in WARPS:
            out = Guarded(np.full(out_shape, 7.0, dtype))
            work = np.zeros(max(1, count * n * n), np.float64 if wide else np.float32)
            args: list[KernelArg] = [
                ("i32", TYPE_CODES[np.dtype(dtype)]),
                ("i32", 1 if wide else 0),
                ("ptr", out.address),
                ("ptr", x.ctypes.data),
                ("ptr", work.ctypes.data),
                ("i32", batch),
                ("ptr", meta.ctypes.data),
                ("i64", count),
                ("i64", n),
                ("i64", x.strides[-2] // item),
                ("i64", x.strides[-1] // item),
            ]
            emulated.launch(
                "xhip_det", grid, block, 0, args, warp_size=warp, order=order
            )
            out.check()
            rtol = 1e-12 if wide else 1e-5
            np.testing.assert_allclose(
                out.array, want, rtol=rtol, atol=rtol, err_msg=f"{grid} {block} {warp}"
            )


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_det_on_gpu_runtimes(make_gpu: MakeGpu, dtype: type) -> None:
    """`Runtime.det` of the GPU runtimes equals numpy's, as the CPU runtime's
    does, on a transposed (strided) batch."""
    gpu, cpu = make_gpu(debug=True), CpuRuntime()
    x = _matrices((4, 3, 3), dtype, f"runtime {dtype}")
    want = np.linalg.det(x.astype(np.float64))
    for runtime in (gpu, cpu):
        src = runtime.upload(np.ascontiguousarray(np.swapaxes(x, 1, 2)))
        view = type(src)(
            src.buffer, src.offset, x.shape, (9, 1, 3), src.dtype, src.base
        )
        out = runtime.empty((4,), np.dtype(dtype))
        runtime.det(view, out)
        tol = {np.float16: 2e-3, np.float32: 1e-5, np.float64: 1e-12}[dtype]
        np.testing.assert_allclose(runtime.download(out), want, rtol=tol, atol=tol)
    cpu.close()


def test_det_refuses_integers_on_gpu(make_gpu: MakeGpu) -> None:
    gpu = make_gpu()
    x = gpu.upload(np.arange(8, dtype=np.int32).reshape(2, 2, 2))
    out = gpu.empty((2,), np.dtype(np.int32))
    with pytest.raises(NotImplementedError, match="int32 operands"):
        gpu.det(x, out)
