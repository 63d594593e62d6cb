"""The shape-value ops on the GPU runtimes (emulated device): `hip.range`'s
kernels, `hip.from_elements` (a host write), `hip.readback` (a host read after
a sync) and `hip.fill` of any value, against numpy."""

from __future__ import annotations

import numpy as np
import pytest

from xhip.backend.gpu import RANGE_KERNELS, KernelRuntime
from xhip.dialects import hip

pytestmark = pytest.mark.emulator

KERNELS = set(RANGE_KERNELS.values())
"""The `__global__`s these tests launch (the registry test in `test_kernels.py`)."""


@pytest.mark.parametrize("dtype", list(RANGE_KERNELS), ids=str)
@pytest.mark.parametrize("n", [1, 7, 1000])
def test_range_kernel(gpu: KernelRuntime, dtype: np.dtype, n: int) -> None:
    start = np.array(3 if dtype.kind == "i" else 0.25, dtype)
    delta = np.array(-2 if dtype.kind == "i" else 0.5, dtype)
    out = gpu.empty((n,), dtype)
    gpu.range(gpu.upload(start), gpu.upload(delta), out)
    want = (start.astype(np.float64) + np.arange(n) * delta.astype(np.float64)).astype(
        dtype
    )
    np.testing.assert_array_equal(gpu.download(out), want)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.bool_], ids=str)
def test_from_elements_writes_the_host_values(gpu: KernelRuntime, dtype: type) -> None:
    out = gpu.empty((4,), np.dtype(dtype))
    gpu.from_elements((5, 0, 2, 9), out)
    np.testing.assert_array_equal(
        gpu.download(out), np.array([5, 0, 2, 9]).astype(dtype)
    )


def test_readback_reads_what_a_kernel_wrote(gpu: KernelRuntime) -> None:
    start, delta = gpu.upload(np.array(4, np.int64)), gpu.upload(np.array(3, np.int64))
    out = gpu.empty((3,), np.dtype(np.int64))
    gpu.range(start, delta, out)
    assert gpu.readback(out) == (4, 7, 10)


@pytest.mark.parametrize(
    "value,dtype", [(1, np.int64), (-3, np.int32), (0.5, np.float32), (1, np.bool_)]
)
def test_fill_with_any_value(gpu: KernelRuntime, value: float, dtype: type) -> None:
    out = gpu.empty((3, 5), np.dtype(dtype))
    gpu.fill(out, hip.FillAttributes(value))
    np.testing.assert_array_equal(gpu.download(out), np.full((3, 5), value, dtype))
