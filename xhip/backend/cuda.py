"""The CUDA runtime: CuPy's device API (memory, NVRTC, cuBLAS) under `KernelRuntime`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from xhip.backend.device import DeviceAPI, KernelArg, Op
from xhip.backend.gpu import KernelRuntime
from xhip.backend.runtime import DeviceUnavailable

NVRTC_OPTIONS = ("-std=c++14",)
"""What NVRTC compiles the kernel source with (test_kernel_compile.py too)."""


def _import_cupy() -> Any:
    try:
        import cupy  # pyright: ignore[reportMissingImports]
    except ImportError as e:
        raise DeviceUnavailable(
            f"--device cuda: CuPy is not installed ({e}); pip install 'xhip[cuda]'"
        ) from None
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # CUDARuntimeError, missing libcudart, ...
        raise DeviceUnavailable(f"--device cuda: no usable CUDA device ({e})") from None
    if count == 0:
        raise DeviceUnavailable("--device cuda: no CUDA device found")
    return cupy


class CupyDevice:
    """`DeviceAPI` on CuPy: its memory pool, `cupy.cuda.runtime` copies,
    `RawModule` (NVRTC) kernels and cuBLAS with CuPy's handle, all on CuPy's
    current stream."""

    name = "CuPy"

    def __init__(self, cupy: Any):
        self.cupy = cupy
        from cupy.cuda import cublas  # pyright: ignore[reportMissingImports]

        self.cublas = cublas
        self._live: dict[int, Any] = {}
        """Pool allocations by address: dropping one gives it back to the pool."""
        self._kernels: dict[str, Any] = {}
        self._scalars = np.zeros(2, np.float32)
        """alpha, beta: host memory that cuBLAS reads in host pointer mode."""

    def malloc(self, nbytes: int) -> int:
        memory = self.cupy.cuda.alloc(nbytes)
        self._live[memory.ptr] = memory
        return int(memory.ptr)

    def free(self, address: int) -> None:
        del self._live[address]

    def copy_to_device(self, address: int, host: np.ndarray) -> None:
        runtime = self.cupy.cuda.runtime
        runtime.memcpy(
            address, host.ctypes.data, host.nbytes, runtime.memcpyHostToDevice
        )

    def copy_to_host(self, host: np.ndarray, address: int) -> None:
        runtime = self.cupy.cuda.runtime
        runtime.memcpy(
            host.ctypes.data, address, host.nbytes, runtime.memcpyDeviceToHost
        )

    def memset(self, address: int, value: int, nbytes: int) -> None:
        self.cupy.cuda.runtime.memset(address, value, nbytes)

    def load_kernels(self, source: str, names: Sequence[str]) -> None:
        module = self.cupy.RawModule(code=source, options=NVRTC_OPTIONS)
        self._kernels = {name: module.get_function(name) for name in names}

    def launch(
        self,
        kernel: str,
        grid: int,
        block: int,
        shared: int,
        args: Sequence[KernelArg],
    ) -> None:
        values = tuple(
            np.int32(v)
            if kind == "i32"
            else np.uint64(v)
            if kind == "ptr"
            else np.int64(v)
            for kind, v in args
        )
        self._kernels[kernel]((grid,), (block,), values, shared_mem=shared)

    def synchronize(self) -> None:
        self.cupy.cuda.Device().synchronize()

    def sgemm_strided_batched(
        self,
        transa: Op,
        transb: Op,
        m: int,
        n: int,
        k: int,
        alpha: float,
        a: int,
        lda: int,
        stride_a: int,
        b: int,
        ldb: int,
        stride_b: int,
        beta: float,
        c: int,
        ldc: int,
        stride_c: int,
        batch_count: int,
    ) -> None:
        blas = self.cublas
        handle = self.cupy.cuda.device.get_cublas_handle()
        op = {"N": blas.CUBLAS_OP_N, "T": blas.CUBLAS_OP_T}
        blas.setPointerMode(handle, blas.CUBLAS_POINTER_MODE_HOST)
        self._scalars[:] = alpha, beta
        scalars = self._scalars.ctypes.data
        blas.sgemmStridedBatched(
            handle,
            op[transa],
            op[transb],
            m,
            n,
            k,
            scalars,
            a,
            lda,
            stride_a,
            b,
            ldb,
            stride_b,
            scalars + 4,
            c,
            ldc,
            stride_c,
            batch_count,
        )

    def close(self) -> None:
        self._kernels.clear()


class CudaRuntime(KernelRuntime):
    """NVIDIA GPUs through CuPy; kernels compiled once per runtime by NVRTC."""

    name = "cuda"

    @classmethod
    def open_device(cls) -> DeviceAPI:
        return CupyDevice(_import_cupy())
