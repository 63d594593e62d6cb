"""The launcher seam: the few device calls a GPU runtime makes.

`KernelRuntime` (gpu.py) decides everything a GPU runtime decides (grids,
blocks, shared-memory bytes, argument order, strides metadata, BLAS
transposes, leading dimensions, batch strides) and hands the result to a
`DeviceAPI`. The real ones are thin: CuPy's (cuda.py) and hip-python's
(hip.py). A stand-in on the CPU (`xhip.testing.emulator.device`) runs the
same calls with host memory, the kernel emulator and a numpy GEMM written
from cuBLAS's documentation, so the host code runs without a GPU.

Device memory is named by addresses (ints), as the libraries name it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

import numpy as np

KernelArg = tuple[Literal["ptr", "i32", "i64"], int]
"""One kernel argument: a device address or an integer of that width."""

T = TypeVar("T")

Op = Literal["N", "T"]
"""BLAS's `transa`/`transb`: the matrix as stored, or its transpose."""

GemmType = Literal["float16", "float32", "float64"]
"""The element type of a GEMM's A, B and C (numpy's name for it)."""

GEMM_COMPUTE: dict[GemmType, GemmType] = {
    "float16": "float32",
    "float32": "float32",
    "float64": "float64",
}
"""The type a GEMM of each element type multiplies, accumulates and scales
(alpha, beta) in."""


@dataclass(frozen=True, slots=True)
class StridedGemm:
    """cuBLAS's strided-batched GEMM on A, B, C of element type `dtype`: for
    i < batch_count, column-major C_i = alpha op(A_i) op(B_i) + beta C_i, with
    X_i = x + i * stride_x (elements), op(A_i) m x k, op(B_i) k x n, C_i m x n;
    C is not read when beta is 0. One value, so the call is spelled once.

    float32 is `cublasSgemmStridedBatched`, float64 `cublasDgemmStridedBatched`,
    float16 `cublasGemmStridedBatchedEx` with CUDA_R_16F A/B/C and
    CUBLAS_COMPUTE_32F: the half inputs multiplied and accumulated in float32,
    alpha and beta applied in float32, the result rounded to half
    (`GEMM_COMPUTE`)."""

    dtype: GemmType
    transa: Op
    transb: Op
    m: int
    n: int
    k: int
    alpha: float
    a: int
    lda: int
    stride_a: int
    b: int
    ldb: int
    stride_b: int
    beta: float
    c: int
    ldc: int
    stride_c: int
    batch_count: int


def kernel_arg_values(
    args: Sequence[KernelArg],
    i32: Callable[[int], T],
    ptr: Callable[[int], T],
    i64: Callable[[int], T],
) -> tuple[T, ...]:
    """`args` as the values a launch API takes: each made by the constructor
    of its kind (numpy scalars for CuPy, ctypes for hip-python)."""
    return tuple(
        (i32 if kind == "i32" else ptr if kind == "ptr" else i64)(v) for kind, v in args
    )


class DeviceAPI(Protocol):
    """What a GPU runtime asks of its device: memory, copies, kernels, one GEMM.

    Calls are ordered as issued (one stream); `synchronize` waits for them.

    A device may also offer what bound plans replay with (gpu_replay.py):
    `prepare_launch(kernel, grid, block, shared, args)` and
    `prepare_gemm(call)`, the call as a function of no arguments with its
    kernel and arguments resolved once; and device graphs: `begin_capture()`
    (launches, GEMMs and memsets are captured, not run, until) `end_capture()`
    returns a graph, `launch_graph(graph)` runs it again, `destroy_graph(graph)`
    frees it. Without them, bound calls replay through `launch` and
    `gemm_strided_batched`, one by one.
    """

    name: str
    """What the library is, for messages ("CuPy", "hip-python", ...)."""

    def malloc(self, nbytes: int) -> int:
        """The address of `nbytes` (> 0) bytes of device memory, 256-byte aligned."""
        ...

    def free(self, address: int) -> None: ...

    def copy_to_device(self, address: int, host: np.ndarray) -> None:
        """The bytes of the C-contiguous `host` array to `address`."""
        ...

    def copy_to_host(self, host: np.ndarray, address: int) -> None:
        """`host.nbytes` bytes from `address` into the C-contiguous `host` array."""
        ...

    def memset(self, address: int, value: int, nbytes: int) -> None: ...

    def load_kernels(self, source: str, names: Sequence[str]) -> None:
        """Compile `source` for the device and load the kernels `names` from it,
        next to those loaded before (a name loaded again is replaced)."""
        ...

    def launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> None:
        """Run `kernel` on a 1-D grid of 1-D blocks with `shared` dynamic shared
        bytes per block."""
        ...

    def synchronize(self) -> None: ...

    def gemm_strided_batched(self, call: StridedGemm) -> None:
        """Run `call` (cuBLAS's strided-batched GEMM, see `StridedGemm`)."""
        ...

    def close(self) -> None:
        """Release library handles (the memory is the runtime's to free)."""
        ...
