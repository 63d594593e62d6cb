"""The CPU stand-in of the device API itself: its GEMMs (float16 with float32
compute, float32, float64) against a loop written from cuBLAS's definition, and
the calls it refuses as the libraries would."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from xhip.backend.device import GemmType, Op, StridedGemm
from xhip.backend.gpu import KERNEL_NAMES, kernel_source
from xhip.testing.emulator import (
    BlasError,
    DeviceError,
    EmulatedDevice,
    EmulatedKernels,
)

pytestmark = pytest.mark.emulator


@pytest.fixture
def device(emulated: EmulatedKernels) -> EmulatedDevice:
    d = EmulatedDevice(32, kernels=emulated)
    d.load_kernels(kernel_source(), KERNEL_NAMES)
    return d


def put(device: EmulatedDevice, x: np.ndarray, dtype: type = np.float32) -> int:
    x = np.ascontiguousarray(x, dtype)
    address = device.malloc(max(x.nbytes, 8))
    device.copy_to_device(address, x)
    return address


def get(
    device: EmulatedDevice, address: int, n: int, dtype: type = np.float32
) -> np.ndarray:
    host = np.empty(n, dtype)
    device.copy_to_host(host, address)
    return host


TOLERANCE = {"float16": 2e-3, "float32": 1e-6, "float64": 1e-12}
"""Relative and absolute error of each type's GEMM against the exact loop: one
rounding to the output type (and float32 accumulation for half)."""


@pytest.mark.parametrize("dtype", list(TOLERANCE))
@pytest.mark.parametrize("transa,transb", list(itertools.product("NT", repeat=2)))
def test_gemm_is_cublas_column_major_definition(
    device: EmulatedDevice, transa: Op, transb: Op, dtype: GemmType
) -> None:
    """C_i[r + c*ldc] = alpha sum_l op(A_i)[r, l] op(B_i)[l, c] + beta C_i[...],
    op(X)[r, l] = X[r + l*ld] for N and X[l + r*ld] for T: padded leading
    dims, a padded batch stride, element by element, for each element type
    (the inputs as stored in it, the sum in float64)."""
    m, n, k, batch = 3, 4, 5, 2
    lda = (m if transa == "N" else k) + 2
    ldb = (k if transb == "N" else n) + 1
    ldc, sa, sb, sc = m + 3, 40, 0, 30  # B broadcast over the batch
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(size) for size in (sa * batch, 40, sc * batch))
    t = np.dtype(dtype).type
    pa, pb, pc = put(device, a, t), put(device, b, t), put(device, c, t)
    device.gemm_strided_batched(
        StridedGemm(
            dtype, transa, transb, m, n, k, 0.5, pa, lda, sa, pb, ldb, sb, -2.0, pc,
            ldc, sc, batch,
        )
    )  # fmt: skip
    want = c.astype(t).astype(np.float64)
    a32, b32 = a.astype(t), b.astype(t)
    for i in range(batch):
        for r in range(m):
            for col in range(n):
                total = 0.0
                for j in range(k):
                    x = a32[i * sa + (r + j * lda if transa == "N" else j + r * lda)]
                    y = b32[
                        i * sb + (j + col * ldb if transb == "N" else col + j * ldb)
                    ]
                    total += float(x) * float(y)
                at = i * sc + r + col * ldc
                want[at] = 0.5 * total - 2.0 * want[at]
    got = get(device, pc, sc * batch, t)
    tol = TOLERANCE[dtype]
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    assert device.gemms[-1].dtype == dtype


@pytest.mark.parametrize("dtype", list(TOLERANCE))
def test_gemm_beta_zero_does_not_read_c(
    device: EmulatedDevice, dtype: GemmType
) -> None:
    t = np.dtype(dtype).type
    pa, pb = put(device, np.ones(6), t), put(device, np.ones(6), t)
    pc = put(device, np.full(4, np.nan), t)
    device.gemm_strided_batched(
        StridedGemm(dtype, "N", "N", 2, 2, 3, 1.0, pa, 2, 0, pb, 3, 0, 0.0, pc, 2, 0, 1)
    )
    np.testing.assert_array_equal(get(device, pc, 4, t), [3, 3, 3, 3])


def test_half_gemm_accumulates_in_float32_and_rounds_once(
    device: EmulatedDevice,
) -> None:
    """cublasGemmStridedBatchedEx with CUDA_R_16F and CUBLAS_COMPUTE_32F: a
    sum a half accumulator would lose (2048 + 1 + 1 is 2048 in half, step 2)
    and a result past half's range, both as float32 computes them."""
    a = np.array([2048, 1, 1, 60000], np.float16)  # A: 1 x 4 (ld 1)
    b = np.array([1, 1, 1, 0], np.float16)  # B: 4 x 1
    pa, pb = put(device, a, np.float16), put(device, b, np.float16)
    pc = put(device, np.array([0.5], np.float16), np.float16)
    device.gemm_strided_batched(
        StridedGemm(
            "float16", "N", "N", 1, 1, 4, 1.0, pa, 1, 0, pb, 4, 0, 0.0, pc, 1, 0, 1
        )
    )
    assert get(device, pc, 1, np.float16)[0] == 2050  # float32 2050.0, exact in half
    b2 = put(device, np.array([0, 0, 0, 2], np.float16), np.float16)
    device.gemm_strided_batched(
        StridedGemm(
            "float16", "N", "N", 1, 1, 4, 0.5, pa, 1, 0, b2, 4, 0, 1.0, pc, 1, 0, 1
        )
    )  # 0.5 * 120000 (fine in float32) + 2050 rounds to 62050 -> 62048 in half
    assert get(device, pc, 1, np.float16)[0] == np.float16(62050)


@pytest.mark.parametrize(
    "dtype,address,message",
    [
        ("int32", 0, "'int32' GEMM: not a type"),
        ("float16", 1, "A: .* is not float16-aligned"),
        ("float64", 4, "A: .* is not float64-aligned"),
    ],
)
def test_gemm_refuses_types_and_misaligned_addresses(
    device: EmulatedDevice, dtype: GemmType, address: int, message: str
) -> None:
    a, b, c = (put(device, np.ones(4), np.float64) for _ in range(3))
    error = BlasError if address == 0 else DeviceError
    with pytest.raises(error, match=message):
        device.gemm_strided_batched(
            StridedGemm(
                dtype, "N", "N", 1, 1, 1, 1.0, a + address, 1, 0, b, 1, 0, 0.0, c, 1,
                0, 1,
            )
        )  # fmt: skip


@pytest.mark.parametrize(
    "change,message",
    [
        ({"lda": 1}, "lda=1 < max"),
        ({"transa": "T", "lda": 2}, "lda=2 < max"),
        ({"ldb": 2}, "ldb=2 < max"),
        ({"ldc": 2}, "ldc=2 < max"),
        ({"m": -1}, "m=-1"),
        ({"batch_count": -1}, "batchCount=-1"),
        ({"transb": "C"}, "not N or T"),
        ({"k": 4, "ldb": 4}, "not inside one live device allocation"),
        ({"stride_c": 4}, "output matrices .* overlap"),
        ({"c": "a", "batch_count": 1}, "C overlaps A"),
    ],
)
def test_gemm_refuses(device: EmulatedDevice, change: dict, message: str) -> None:
    a, b, c = put(device, np.ones(9)), put(device, np.ones(9)), put(device, np.ones(18))
    args = dict(
        transa="N", transb="N", m=3, n=3, k=3, alpha=1.0, a=a, lda=3, stride_a=0,
        b=b, ldb=3, stride_b=0, beta=0.0, c=c, ldc=3, stride_c=9, batch_count=2,
    )  # fmt: skip
    args.update({k: (a if v == "a" else v) for k, v in change.items()})
    error = (
        BlasError
        if "max" in message or "=-1" in message or "N or T" in message
        else DeviceError
    )
    with pytest.raises(error, match=message):
        device.gemm_strided_batched(StridedGemm("float32", **args))  # type: ignore[arg-type]


def test_memory_errors(device: EmulatedDevice) -> None:
    address = device.malloc(16)
    assert address % 256 == 0
    with pytest.raises(DeviceError, match="not inside one live"):
        device.copy_to_device(address + 8, np.zeros(4, np.float32))
    device.free(address)
    with pytest.raises(DeviceError, match="freed twice"):
        device.free(address)
    with pytest.raises(DeviceError, match="not inside one live"):
        device.memset(address, 0, 4)


def test_launch_errors(device: EmulatedDevice) -> None:
    out = device.malloc(64)
    shape_and_strides = np.array([4, 1, 1], np.int64)
    meta = device.malloc(shape_and_strides.nbytes)
    device.copy_to_device(meta, shape_and_strides)
    args = [
        ("i32", 0),
        ("ptr", out),
        ("ptr", out),
        ("i32", 1),
        ("ptr", meta),
        ("i64", 4),
        ("ptr", 0),  # no formula parameters
    ]
    device.launch("xhip_unary_f32", 1, 256, 0, args)  # type: ignore[arg-type]
    with pytest.raises(DeviceError, match="no loaded module"):
        device.launch("xhip_nothing", 1, 256, 0, args)  # type: ignore[arg-type]
    with pytest.raises(DeviceError, match="invalid launch"):
        device.launch("xhip_unary_f32", 1, 2048, 0, args)  # type: ignore[arg-type]
    device.free(meta)
    with pytest.raises(DeviceError, match="argument 4"):
        device.launch("xhip_unary_f32", 1, 256, 0, args)  # type: ignore[arg-type]
    with pytest.raises(DeviceError, match="no kernel named"):
        device.load_kernels(kernel_source(), ["xhip_missing"])
