"""The emulator is as strict as a GPU: a misaligned or out-of-bounds access
stops the kernel with an error naming the kernel and the argument, and float32
subnormals flush to zero where the runtime compiles with -ftz=true (CUDA) and
not where it does not (HIP), float64's never. Each test plants the fault."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from xhip.backend.device import KernelArg
from xhip.backend.elementwise import TYPE_CODES
from xhip.backend.gpu import kernel_source
from xhip.testing.emulator import (
    EmulatedDevice,
    EmulatedKernels,
    MemoryFault,
    kernel_names,
)
from xhip.testing.emulator.device import COMPILE_OPTIONS, Runtime, flushes_denormals

pytestmark = pytest.mark.emulator

PLANTED = r"""
extern "C" __global__ void halve_f32(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 0.5f;
}
extern "C" __global__ void halve_f64(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 0.5;
}
// Reads one element past its thread's: the last thread reads past the end.
extern "C" __global__ void shift_f32(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i + 1];
}
// Writes y[n - 1 - i] with i from 0 to n: the last thread writes before y.
extern "C" __global__ void reverse_f32(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) y[n - 1 - i] = i < n ? x[i] : 0.0f;
}
// Floats at a byte offset of a byte buffer: misaligned unless offset % 4 == 0.
extern "C" __global__ void floats_at(const unsigned char* bytes, float* y, int offset) {
  y[threadIdx.x] = *(const float*)(bytes + offset + 4 * threadIdx.x);
}
"""
NAMES = kernel_names(PLANTED)
TINY32 = np.finfo(np.float32).tiny
TINY64 = np.finfo(np.float64).tiny


@pytest.fixture(scope="module")
def planted() -> EmulatedKernels:
    return EmulatedKernels(PLANTED, "planted.cu")


@pytest.fixture(params=["cuda", "hip"])
def device(
    request: pytest.FixtureRequest, planted: EmulatedKernels
) -> Iterator[EmulatedDevice]:
    d = EmulatedDevice(32, kernels=planted, runtime=request.param)
    d.load_kernels(PLANTED, NAMES)
    yield d
    d.close()


def put(device: EmulatedDevice, x: np.ndarray) -> int:
    address = device.malloc(x.nbytes)
    device.copy_to_device(address, np.ascontiguousarray(x))
    return address


def get(device: EmulatedDevice, address: int, n: int, dtype: type) -> np.ndarray:
    out = np.empty(n, dtype)
    device.copy_to_host(out, address)
    return out


def ftz32(x: np.ndarray) -> np.ndarray:
    """float32 with its subnormals flushed to (signed) zero, as -ftz=true does."""
    return np.where(np.abs(x) < TINY32, np.copysign(np.float32(0), x), x).astype(
        np.float32
    )


# Misaligned and out-of-bounds accesses.


def test_a_misaligned_pointer_argument_is_refused_at_launch(
    device: EmulatedDevice,
) -> None:
    x, y = device.malloc(64), device.malloc(64)
    with pytest.raises(
        MemoryFault, match=r"halve_f32 argument 0 \(x\).*4-byte aligned"
    ):
        device.launch("halve_f32", 1, 32, 0, [("ptr", x + 2), ("ptr", y), ("i32", 4)])


def test_a_misaligned_load_names_the_kernel_and_argument(
    device: EmulatedDevice,
) -> None:
    data, y = put(device, np.arange(32, dtype=np.uint8)), device.malloc(16)
    device.launch("floats_at", 1, 4, 0, [("ptr", data), ("ptr", y), ("i32", 4)])
    np.testing.assert_array_equal(
        get(device, y, 4, np.float32), np.arange(4, 20, dtype=np.uint8).view(np.float32)
    )
    with pytest.raises(
        MemoryFault,
        match=r"floats_at: .*misaligned load of 'const float'.*argument 0 \(bytes\)",
    ) as caught:
        device.launch("floats_at", 1, 4, 0, [("ptr", data), ("ptr", y), ("i32", 1)])
    assert caught.value.address == data + 1


def test_a_load_past_the_end_names_the_kernel_and_argument(
    device: EmulatedDevice,
) -> None:
    x, y = put(device, np.ones(8, np.float32)), device.malloc(32)
    device.launch("shift_f32", 1, 32, 0, [("ptr", x), ("ptr", y), ("i32", 7)])
    with pytest.raises(
        MemoryFault,
        match=r"shift_f32: .*thread \(7,0,0\): out-of-bounds load of 4 bytes"
        r".*argument 0 \(x\).*0 bytes past its end",
    ):
        device.launch("shift_f32", 1, 32, 0, [("ptr", x), ("ptr", y), ("i32", 8)])


def test_a_store_before_the_start_names_the_kernel_and_argument(
    device: EmulatedDevice,
) -> None:
    x, y = put(device, np.ones(8, np.float32)), device.malloc(32)
    with pytest.raises(
        MemoryFault,
        match=r"reverse_f32: .*out-of-bounds store of 4 bytes.*argument 1 \(y\)"
        r".*4 bytes before its start",
    ):
        device.launch("reverse_f32", 1, 32, 0, [("ptr", x), ("ptr", y), ("i32", 8)])


def test_a_real_kernel_given_too_many_elements_faults(
    emulated: EmulatedKernels,
) -> None:
    """xhip_cast told n = 9 over 8-element buffers reads past the source."""
    device = EmulatedDevice(32, kernels=emulated, runtime="cuda")
    device.load_kernels(kernel_source(), ["xhip_cast"])
    src = put(device, np.arange(8, dtype=np.float32))
    out = device.malloc(8 * 8)
    meta = put(device, np.array([9, 1, 1], np.int64))
    code = TYPE_CODES[np.dtype(np.float32)], TYPE_CODES[np.dtype(np.float64)]
    args: list[KernelArg] = [("i32", code[0]), ("i32", code[1]), ("ptr", out), ("ptr", src), ("i32", 1), ("ptr", meta), ("i64", 9)]  # fmt: skip
    with pytest.raises(MemoryFault, match=r"xhip_cast: .*out-of-bounds load.*argument 3 \(src\)"):  # fmt: skip
        device.launch("xhip_cast", 1, 32, 0, args)


# Subnormals.


def test_the_runtimes_compile_options_decide_the_flush() -> None:
    assert flushes_denormals(COMPILE_OPTIONS["cuda"])  # CuPy's -ftz=true
    assert not flushes_denormals(COMPILE_OPTIONS["hip"])
    assert not flushes_denormals(("-ftz=true", "-ftz=false"))


def test_float32_subnormals_flush_under_ftz_only(device: EmulatedDevice) -> None:
    x = np.array([TINY32, TINY32 / 64, -TINY32 / 2, 1.0, 3 * TINY32], np.float32)
    y = device.malloc(x.nbytes)
    device.launch("halve_f32", 1, 32, 0, [("ptr", put(device, x)), ("ptr", y), ("i32", x.size)])  # fmt: skip
    got = get(device, y, x.size, np.float32)
    ieee = x * np.float32(0.5)
    assert (ieee[:3] != 0).all()  # subnormal results, or of subnormal inputs
    want = ftz32(ftz32(x) * np.float32(0.5)) if device.flush_denormals else ieee
    np.testing.assert_array_equal(got, want)
    # The CPU's flags are restored: numpy keeps its subnormals.
    assert np.float32(TINY32) * np.float32(0.5) != 0


def test_a_test_that_needs_ieee_float32_subnormals_fails_on_cuda(
    planted: EmulatedKernels,
) -> None:
    """The planted difference: what passes without -ftz fails with it."""
    x = np.array([TINY32 * 1.5], np.float32)
    results = {}
    for runtime in ("hip", "cuda"):
        device = EmulatedDevice(32, kernels=planted, runtime=runtime)
        device.load_kernels(PLANTED, NAMES)
        y = device.malloc(4)
        device.launch("halve_f32", 1, 32, 0, [("ptr", put(device, x)), ("ptr", y), ("i32", 1)])  # fmt: skip
        results[runtime] = get(device, y, 1, np.float32)
    np.testing.assert_array_equal(results["hip"], x * np.float32(0.5))
    with pytest.raises(AssertionError):
        np.testing.assert_array_equal(results["cuda"], x * np.float32(0.5))
    np.testing.assert_array_equal(results["cuda"], [0.0])


def test_float64_subnormals_are_kept_under_ftz(device: EmulatedDevice) -> None:
    x = np.array([TINY64, TINY64 / 2**20, 1.0], np.float64)
    y = device.malloc(x.nbytes)
    device.launch("halve_f64", 1, 32, 0, [("ptr", put(device, x)), ("ptr", y), ("i32", 3)])  # fmt: skip
    np.testing.assert_array_equal(get(device, y, 3, np.float64), x * 0.5)


@pytest.mark.parametrize("runtime", ["cuda", "hip"])
def test_xhip_cast_flushes_as_nvrtc_does(
    emulated: EmulatedKernels, runtime: Runtime
) -> None:
    """NVRTC's -ftz=true flushes float32 inputs of the widening conversion and
    results of the narrowing one (cvt.ftz.f64.f32, cvt.rn.ftz.f32.f64), and
    compares float64 without flushing (setp.f64)."""
    device = EmulatedDevice(32, kernels=emulated, runtime=runtime)
    device.load_kernels(kernel_source(), ["xhip_cast"])
    ftz = device.flush_denormals

    def cast(x: np.ndarray, to: type) -> np.ndarray:
        out = device.malloc(x.size * np.dtype(to).itemsize)
        meta = put(device, np.array([x.size, 1, 1], np.int64))
        codes = TYPE_CODES[x.dtype], TYPE_CODES[np.dtype(to)]
        device.launch("xhip_cast", 1, 32, 0, [("i32", codes[0]), ("i32", codes[1]), ("ptr", out), ("ptr", put(device, x)), ("i32", 1), ("ptr", meta), ("i64", x.size)])  # fmt: skip
        return get(device, out, x.size, to)

    small32 = np.array([TINY32 / 8, 1.5], np.float32)
    want = [0.0, 1.5] if ftz else small32.astype(np.float64)
    np.testing.assert_array_equal(cast(small32, np.float64), want)
    small64 = np.array([float(TINY32) / 8, TINY64 / 8], np.float64)
    want32 = [0.0, 0.0] if ftz else small64.astype(np.float32)
    np.testing.assert_array_equal(cast(small64, np.float32), want32)
    np.testing.assert_array_equal(cast(small64, np.bool_), [True, True])
