"""The CUDA runtime: CuPy's device API (memory, NVRTC, cuBLAS) under `KernelRuntime`."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from xhip.backend.device import (
    GEMM_COMPUTE,
    DeviceAPI,
    KernelArg,
    StridedGemm,
    kernel_arg_values,
)
from xhip.backend.gpu import KernelRuntime
from xhip.backend.runtime import DeviceUnavailable

NVRTC_OPTIONS = ("-std=c++14",)
"""What NVRTC compiles the kernel source with (test_kernel_compile.py too)."""

CUDA_R_16F = 2
"""`cudaDataType_t` of half (library_types.h)."""
CUBLAS_COMPUTE_32F = 68
"""`cublasComputeType_t`: float multiply-accumulate, float alpha and beta."""
CUBLAS_GEMM_DEFAULT = -1
"""`cublasGemmAlgo_t`: cuBLAS's heuristic picks the algorithm."""


def _import_cupy() -> Any:
    try:
        # lazy: CuPy and libcublas load only when the cuda runtime is asked for.
        import cupy  # pyright: ignore[reportMissingImports]
        from cupy.cuda import cublas  # pyright: ignore[reportMissingImports]  # noqa: F401
    except ImportError as e:
        what = (
            "cuBLAS cannot be loaded"
            if "cublas" in str(e).lower()
            else ("CuPy is not installed")
        )
        raise DeviceUnavailable(
            f"--device cuda: {what} ({e}); pip install 'xhip[cuda]'"
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
    current stream: `cublas{S,D}gemmStridedBatched` for float32 and float64,
    `cublasGemmStridedBatchedEx` (CUDA_R_16F, CUBLAS_COMPUTE_32F) for half.

    Bound plans are captured into CUDA graphs (`Stream.begin_capture`) on a
    stream of the device's own, blocking, so that work on the legacy default
    stream (the copies) stays ordered with the graphs' launches."""

    name = "CuPy"

    def __init__(self, cupy: Any):
        self.cupy = cupy
        self.cublas = cupy.cuda.cublas
        self._live: dict[int, Any] = {}
        """Pool allocations by address: dropping one gives it back to the pool."""
        self._kernels: dict[str, Any] = {}
        self._stream: Any = None
        """The capture and graph-launch stream, made on first capture."""
        self._blas_stream = 0
        """The cuBLAS handle's stream before a capture, set back after it."""

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
        """On the current stream (a capture holds it)."""
        stream = self.cupy.cuda.get_current_stream().ptr
        self.cupy.cuda.runtime.memsetAsync(address, value, nbytes, stream)

    def load_kernels(self, source: str, names: Sequence[str]) -> None:
        try:
            module = self.cupy.RawModule(code=source, options=NVRTC_OPTIONS)
            self._kernels.update({name: module.get_function(name) for name in names})
        except Exception as e:  # NVRTC's CompileException, CuPy's RuntimeError
            text = str(e).strip()
            if not re.search(
                r"cannot open source file|CUDA headers?|No such file", text
            ):
                raise
            first = text.splitlines()[0] if text else type(e).__name__
            raise DeviceUnavailable(
                f"--device cuda: NVRTC cannot find the CUDA headers ({first}); "
                "install them or set CUDA_PATH"
            ) from None

    def launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> None:
        self.prepare_launch(kernel, grid, block, shared, args)()

    def prepare_launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> Callable[[], object]:
        """`RawKernel.__call__` with its function and arguments resolved once;
        it launches on the current stream (a capture's, while capturing)."""
        values = kernel_arg_values(args, np.int32, np.uint64, np.int64)
        return partial(
            self._kernels[kernel], (grid,), (block,), values, shared_mem=shared
        )

    def synchronize(self) -> None:
        self.cupy.cuda.Device().synchronize()

    def gemm_strided_batched(self, call: StridedGemm) -> None:
        self.prepare_gemm(call)()

    def prepare_gemm(self, call: StridedGemm) -> Callable[[], object]:
        """The cuBLAS call with every argument resolved once; alpha and beta
        in host memory of its own (host pointer mode: read at each call, so a
        capture holds their values)."""
        blas = self.cublas
        handle = self.cupy.cuda.device.get_cublas_handle()
        op = {"N": blas.CUBLAS_OP_N, "T": blas.CUBLAS_OP_T}
        scalars = np.array([call.alpha, call.beta], GEMM_COMPUTE[call.dtype])
        alpha_at = scalars.ctypes.data
        beta_at = alpha_at + scalars.itemsize
        head = (handle, op[call.transa], op[call.transb], call.m, call.n, call.k)
        gemm: Callable[..., object]
        if call.dtype == "float16":
            gemm = blas.gemmStridedBatchedEx
            args: tuple[Any, ...] = (
                *head,
                alpha_at,
                *(call.a, CUDA_R_16F, call.lda, call.stride_a),
                *(call.b, CUDA_R_16F, call.ldb, call.stride_b),
                beta_at,
                *(call.c, CUDA_R_16F, call.ldc, call.stride_c),
                call.batch_count,
                CUBLAS_COMPUTE_32F,
                CUBLAS_GEMM_DEFAULT,
            )
        else:
            gemm = (
                blas.sgemmStridedBatched
                if call.dtype == "float32"
                else blas.dgemmStridedBatched
            )
            args = (
                *head,
                alpha_at,
                *(call.a, call.lda, call.stride_a, call.b, call.ldb, call.stride_b),
                beta_at,
                *(call.c, call.ldc, call.stride_c, call.batch_count),
            )
        host_mode = blas.CUBLAS_POINTER_MODE_HOST
        set_mode = blas.setPointerMode

        def run(scalars: np.ndarray = scalars) -> None:  # keeps alpha, beta alive
            set_mode(handle, host_mode)
            gemm(*args)

        return run

    # Graphs.

    def begin_capture(self) -> None:
        """Capture on the device's stream, cuBLAS included: CuPy refuses
        `setStream` on a capturing stream, so it is set first."""
        cuda = self.cupy.cuda
        if self._stream is None:
            self._stream = cuda.Stream()  # blocking: ordered with stream 0
        handle = cuda.device.get_cublas_handle()
        self._blas_stream = self.cublas.getStream(handle)
        self.cublas.setStream(handle, self._stream.ptr)
        self._stream.__enter__()
        self._stream.begin_capture()

    def end_capture(self) -> Any:
        """The captured `cupy.cuda.Graph` (instantiated; freed with it)."""
        try:
            return self._stream.end_capture()
        finally:
            self._stream.__exit__(None, None, None)
            handle = self.cupy.cuda.device.get_cublas_handle()
            self.cublas.setStream(handle, self._blas_stream)

    def launch_graph(self, graph: Any) -> None:
        graph.launch(stream=self._stream)

    def destroy_graph(self, graph: Any) -> None:
        """Nothing: CuPy destroys the graph when the object goes."""

    def close(self) -> None:
        self._kernels.clear()


class CudaRuntime(KernelRuntime):
    """NVIDIA GPUs through CuPy; kernels compiled once per runtime by NVRTC."""

    name = "cuda"

    @classmethod
    def open_device(cls) -> DeviceAPI:
        return CupyDevice(_import_cupy())
