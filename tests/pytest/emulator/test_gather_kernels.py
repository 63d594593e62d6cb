"""The gather kernels of `kernels/gather.h` run by the emulator, at warp size
32 and 64 (threads in forward and reverse order), on grids of one thread,
smaller than the output and the runtime's: each element size, int32 and
int64 indices, negative and out-of-range (clamped) indices, strided views.
Then the GPU runtimes' `gather`, `gather_elements`, `gather_nd` (the
`GpuGathers` mixin) on the cases of `tests/pytest/backend/test_gather_models.py`
(references from the ONNX definitions), and its models against ONNX Runtime.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pytest

import xhip
from tests.pytest.backend.test_gather_models import (
    CASES,
    DIMS,
    MODELS,
    Case,
    check,
    expected,
    model_inputs,
    run_case,
)
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.gpu import KernelRuntime
from xhip.backend.gpu_gather import GATHER_KERNELS
from xhip.backend.runtime import NotImplementedOnDevice
from xhip.backend.session import CompiledModel
from xhip.dialects import hip
from xhip.testing.emulator import EmulatedDevice, EmulatedKernels, Guarded

pytestmark = pytest.mark.emulator

KERNELS = set(GATHER_KERNELS.values())
WARPS: tuple[tuple[int, Literal["forward", "reverse"]], ...] = (
    (32, "forward"),
    (64, "reverse"),
)
DTYPES = {1: np.uint8, 2: np.float16, 4: np.float32, 8: np.int64}


def _launches(n: int) -> list[tuple[int, int]]:
    """One thread, a grid smaller than the data, the runtime's shape."""
    return [(1, 1), (2, 32), (max(1, -(-n // 256)), 256)]


def _run(
    emulated: EmulatedKernels,
    size: int,
    data: np.ndarray,
    idx: np.ndarray,
    meta: list[int],
    rank: int,
    k: int,
    want: np.ndarray,
) -> None:
    meta_array = np.asarray(meta, np.int64)
    for grid, block in _launches(want.size):
        for warp, order in WARPS:
            out = Guarded(np.zeros(want.size, want.dtype))
            emulated.launch(
                f"xhip_gather_{size}",
                grid,
                block,
                0,
                [
                    ("ptr", out.address),
                    ("ptr", data.ctypes.data),
                    ("ptr", idx.ctypes.data),
                    ("i32", idx.itemsize),
                    ("i32", rank),
                    ("i32", k),
                    ("ptr", meta_array.ctypes.data),
                    ("i64", want.size),
                ],
                warp_size=warp,
                order=order,
            )
            out.check()
            np.testing.assert_array_equal(out.array.reshape(want.shape), want)


@pytest.mark.parametrize("size", sorted(DTYPES))
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_gather_along_an_axis_of_a_transposed_view(
    emulated: EmulatedKernels, size: int, index_dtype: type
) -> None:
    """Gather along axis 1 of data (4, 9, 3) stored transposed; indices (2, 5)
    with negatives and two out of range, which the kernel clamps."""
    rng = np.random.default_rng(size)
    dense = (rng.standard_normal((3, 9, 4)) * 50).astype(DTYPES[size])
    x = dense.T  # (4, 9, 3), strides reversed
    idx = np.array([[0, -1, 8, -9, 4], [12, -20, 3, 2, -5]], index_dtype)
    clamped = np.clip(np.where(idx < 0, idx + 9, idx), 0, 8)
    want = np.take(x, clamped, axis=1)  # (4, 2, 5, 3)
    xs = [s // x.itemsize for s in x.strides]
    ids = [s // idx.itemsize for s in idx.strides]
    out_shape = list(want.shape)
    out_strides = [int(np.prod(out_shape[d + 1 :])) for d in range(4)]
    meta = [
        *out_shape,
        *out_strides,
        *[xs[0], 0, 0, xs[2]],  # data strides per output dim
        *[0, ids[0], ids[1], 0],  # index strides per output dim
        9,  # the gathered dim's size
        xs[1],  # and stride
        0,  # the step within an index tuple (k = 1)
    ]
    _run(emulated, size, dense, idx, meta, 4, 1, want)


@pytest.mark.parametrize("size", sorted(DTYPES))
def test_index_tuples_with_a_batch_dim(emulated: EmulatedKernels, size: int) -> None:
    """GatherND with batch_dims 1: data (3, 4, 5, 2), indices (3, 6, 2) of
    (dim 1, dim 2) pairs, stored with the tuple dim outermost (step 18)."""
    rng = np.random.default_rng(10 + size)
    x = (rng.standard_normal((3, 4, 5, 2)) * 50).astype(DTYPES[size])
    tuples = np.stack([rng.integers(-4, 4, (3, 6)), rng.integers(-5, 5, (3, 6))])
    store = np.ascontiguousarray(tuples)  # (2, 3, 6)
    idx = np.moveaxis(store, 0, -1)  # (3, 6, 2), a view
    want = np.empty((3, 6, 2), x.dtype)
    for b in range(3):
        for m in range(6):
            want[b, m] = x[b, idx[b, m, 0], idx[b, m, 1]]
    xs = [s // x.itemsize for s in x.strides]
    ids = [s // idx.itemsize for s in idx.strides]
    meta = [
        *want.shape,
        *[12, 2, 1],
        *[xs[0], 0, xs[3]],
        *[ids[0], ids[1], 0],
        *[4, 5],
        *[xs[1], xs[2]],
        ids[2],
    ]
    _run(emulated, size, x, store, meta, 3, 2, want)


def test_a_scalar_output_and_an_empty_tuple(emulated: EmulatedKernels) -> None:
    """Rank 0 (a 0-D index into 1-D data) and k = 0 (GatherND's whole copies)."""
    x = np.arange(7, dtype=np.float32)
    idx = np.array(-2, np.int64)
    _run(emulated, 4, x, idx, [7, 1, 0], 0, 1, np.array(5, np.float32))
    none = np.zeros((3, 0), np.int64)
    want = np.broadcast_to(x, (3, 7)).copy()
    _run(emulated, 4, x, none, [3, 7, 7, 1, 0, 1, 0, 0, 0], 2, 0, want)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_gpu_runtime_matches_the_definition(make_gpu: MakeGpu, case: Case) -> None:
    gpu = make_gpu(debug=True)
    want = case.reference()
    got = run_case(gpu, case)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_one_launch_per_gather(gpu: KernelRuntime) -> None:
    device = gpu.device
    assert isinstance(device, EmulatedDevice)
    run_case(gpu, Case("gather", (7, 5), (3, 4), 0, index_dtype="int32"))
    assert device.launches.count("xhip_gather_4") == 1


def test_refusals(gpu: KernelRuntime) -> None:
    data = gpu.upload(np.zeros((3, 2), np.float32))
    out = gpu.empty((1, 2), np.dtype(np.float32))
    with pytest.raises(NotImplementedOnDevice, match="int16 indices"):
        gpu.gather(
            data, gpu.upload(np.array([1], np.int16)), out, hip.AxisAttributes(0)
        )
    empty = gpu.upload(np.zeros((0, 2), np.float32))
    with pytest.raises(IndexError, match="out of range"):
        gpu.gather(empty, gpu.upload(np.array([0])), out, hip.AxisAttributes(0))


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    model = MODELS[name]()
    ir = xhip.compile_to_ir(model)
    runtime = make_gpu(debug=True)
    compiled = CompiledModel(ir.module, ir.signature, ir.constants, runtime)
    for dims in DIMS:
        inputs = model_inputs(model, dims)
        check(compiled(inputs), expected(model, inputs))
