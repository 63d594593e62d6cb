"""A CPU stand-in for `xhip.backend.device.DeviceAPI` (test-only).

The GPU runtimes' host code runs on it unchanged: device memory is host
memory (an address is a numpy buffer's address), copies and memsets are
byte copies, kernels run in the emulator (`EmulatedKernels`) and the one
GEMM is numpy written from cuBLAS's documentation of
`cublas{S,D}gemmStridedBatched` and `cublasGemmStridedBatchedEx` (half with
float32 compute), not from xhip's own GEMM planning, so a wrong transpose,
leading dimension or batch stride gives wrong numbers here too.

It refuses what the libraries refuse (cuBLAS's CUBLAS_STATUS_INVALID_VALUE
conditions) and, being a test tool, also what they would run with undefined
results: addresses outside a live allocation, a double free, output batches
that overlap each other or an input. A kernel stops with a `MemoryFault`
naming the kernel and the argument at a misaligned access or one outside the
allocations its pointer arguments point into (each allocation has guard
bytes on both sides, so a near miss lands in them), and float subnormals
behave as the runtime's compile options make them (`denormals`).

It models stream capture as CUDA and HIP graphs do it: between
`begin_capture` and `end_capture` launches, GEMMs and memsets are recorded,
not run, and a synchronous call (malloc, free, copies, synchronize) is
refused; `launch_graph` runs the recorded calls again, each checked as at
first.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Literal

import numpy as np
from numpy.lib.stride_tricks import as_strided

from xhip.backend.cuda import NVRTC_OPTIONS
from xhip.backend.device import GEMM_COMPUTE, KernelArg, StridedGemm
from xhip.backend.elementwise import TYPE_CODES
from xhip.backend.gpu import kernel_source
from xhip.backend.hip import HIPRTC_OPTIONS
from xhip.testing.emulator.build import (
    Denormals,
    DeviceMemory,
    EmulatedKernels,
    Order,
)

Runtime = Literal["cuda", "hip"]

CUPY_NVRTC_OPTIONS = ("-ftz=true",)
"""What CuPy's RawModule appends to the caller's NVRTC options, always
(cupy/cuda/compiler.py, `_compile_with_cache_cuda`): float32 subnormals
flushed to zero."""

COMPILE_OPTIONS: dict[Runtime, tuple[str, ...]] = {
    "cuda": (*NVRTC_OPTIONS, *CUPY_NVRTC_OPTIONS),
    "hip": HIPRTC_OPTIONS,
}
"""The options each runtime's kernels are compiled with (test_kernel_compile.py
compiles with these too)."""


_CLANG_FTZ = ("fgpu-flush-denormals-to-zero", "fcuda-flush-denormals-to-zero")


def flushes_denormals(options: Sequence[str]) -> bool:
    """Whether kernels compiled with `options` flush float32 subnormals: NVRTC's
    -ftz=true (the last -ftz wins; --use_fast_math implies it; the default is
    false), clang's -fgpu-flush-denormals-to-zero (hiprtc, hipcc: off by
    default on gfx9 and later, whose float32 denormals are full speed)."""
    flush = False
    for option in options:
        name, _, value = option.lstrip("-").partition("=")
        if name == "ftz":
            flush = value == "true"
        elif name in ("use_fast_math", *_CLANG_FTZ):
            flush = True
        elif name in tuple(f"fno-{n[1:]}" for n in _CLANG_FTZ):
            flush = False
    return flush


FLOAT64 = TYPE_CODES[np.dtype(np.float64)]


def denormals(
    kernel: str, params: Sequence[str], args: Sequence[KernelArg]
) -> Denormals:
    """How a launch of `kernel` treats subnormals under -ftz=true.

    NVRTC flushes the inputs and results of float32 operations, never
    float64's; the CPU's flags cover both types, so they are set per kernel.
    float64 kernels (`*_f64`, and the type-erased ones whose `type` is
    float64) keep subnormals; `xhip_cast` from float64 flushes results only
    (its one float operation, the conversion to float32, flushes its result;
    its double comparison, to bool, must not); the others compute in float or
    in integers and flush both. Their double operations (double parameters,
    widened floats) meet no double subnormal while those parameters are
    normal numbers, so this is exact for xhip's kernels.
    """
    values = {name: value for name, (_, value) in zip(params, args)}
    if kernel.endswith("_f64") or values.get("type") == FLOAT64:
        return "keep"
    if values.get("from") == FLOAT64:
        return "flush-results"
    return "flush"


@cache
def _module(source: str) -> EmulatedKernels:
    """`source` built and loaded once per process (each build is also cached
    on disk, `build.cache_dir`): every device of a test session shares it."""
    name = "xhip_kernels.h" if source == kernel_source() else "module.cu"
    return EmulatedKernels(source, name)


ALIGNMENT = 256
GUARD = 256
"""Guard bytes on each side of an allocation: a kernel's access there faults."""
INT_MAX = (1 << 31) - 1
MAX_BLOCK = 1024
"""Threads per block on NVIDIA and AMD GPUs alike."""


class DeviceError(RuntimeError):
    """A call the real library would refuse, or run with undefined results."""


class BlasError(DeviceError):
    """A GEMM the BLAS library refuses (CUBLAS_STATUS_INVALID_VALUE, or
    CUBLAS_STATUS_NOT_SUPPORTED for an element type it has no GEMM for)."""


@dataclass(frozen=True)
class EmulatedGraph:
    """A captured stream: its calls in order, each run again at every launch
    (as a CUDA graph replays its nodes with the arguments captured)."""

    calls: tuple[Callable[[], None], ...]


class EmulatedDevice:
    """`DeviceAPI` on the CPU: host memory, the kernel emulator, numpy GEMM.

    Fresh and freed memory is `fill` bytes, all ones by default (a float NaN,
    as debug mode poisons it), so a read of memory nobody wrote shows.
    `runtime` is the runtime whose compile options the kernels get (float32
    subnormals flushed for "cuda", kept for "hip" and None).
    """

    name = "CPU stand-in"

    def __init__(
        self,
        warp_size: int = 32,
        kernels: EmulatedKernels | None = None,
        order: Order = "forward",
        fill: int = 0xFF,
        runtime: Runtime | None = None,
    ):
        self.warp_size = warp_size
        self.fill = fill
        self.order: Order = order
        self.kernels = kernels
        """Prebuilt kernels to use when `load_kernels` gets their source."""
        self.flush_denormals = runtime is not None and flushes_denormals(
            COMPILE_OPTIONS[runtime]
        )
        self._loaded: dict[str, EmulatedKernels] = {}
        """Each loaded kernel's module."""
        self._starts: list[int] = []
        self._memory: dict[int, np.ndarray] = {}
        self._watched: np.ndarray | None = None
        """Every live allocation with its guard bytes ([lo, hi) rows, sorted);
        None when malloc or free changed them."""
        self.launches: list[str] = []
        self.gemms: list[StridedGemm] = []
        """Each GEMM as the runtime called it (tests read the marshalling)."""
        self.memsets: list[tuple[int, int, int]] = []
        """(address, value, bytes) of each memset."""
        self.closed = False
        self._capture: list[Callable[[], None]] | None = None
        """The calls captured so far while a capture is open."""
        self.graph_launches = 0
        """Graphs launched (a test reads that replay used them)."""

    @property
    def live_bytes(self) -> int:
        """Bytes allocated and not freed (a leak test reads it)."""
        return sum(v.nbytes for v in self._memory.values())

    # Memory.

    def malloc(self, nbytes: int) -> int:
        self._not_capturing("malloc")
        if nbytes <= 0:
            raise DeviceError(f"malloc of {nbytes} bytes")
        raw = np.empty(nbytes + 2 * GUARD + ALIGNMENT, np.uint8)
        start = GUARD + -(raw.ctypes.data + GUARD) % ALIGNMENT
        memory = raw[start : start + nbytes]
        memory.fill(self.fill)
        address = memory.ctypes.data
        self._memory[address] = memory
        bisect.insort(self._starts, address)
        self._watched = None
        return address

    def free(self, address: int) -> None:
        self._not_capturing("free")
        memory = self._memory.pop(address, None)
        if memory is None:
            raise DeviceError(
                f"free of {address:#x}: not an address malloc returned, or freed twice"
            )
        memory.fill(self.fill)
        del self._starts[bisect.bisect_left(self._starts, address)]
        self._watched = None

    def _bytes(self, address: int, nbytes: int, what: str) -> np.ndarray:
        """The bytes [address, address + nbytes) of one live allocation."""
        i = bisect.bisect_right(self._starts, address) - 1
        if i >= 0:
            start = self._starts[i]
            memory = self._memory[start]
            if address + nbytes <= start + memory.nbytes:
                return memory[address - start : address - start + nbytes]
        raise DeviceError(
            f"{what}: bytes [{address:#x}, {address + nbytes:#x}) are not inside "
            "one live device allocation"
        )

    def _device_memory(self, args: Sequence[KernelArg], kernel: str) -> DeviceMemory:
        """The bounds-check tables of a launch: every allocation with its guards,
        and the allocation each pointer argument points into."""
        extents: list[tuple[int, int] | None] = []
        for i, (kind, value) in enumerate(args):
            if kind == "ptr" and value != 0:
                self._bytes(value, 1, f"{kernel} argument {i}")  # live, or raise
                start = self._starts[bisect.bisect_right(self._starts, value) - 1]
                extents.append((start, start + self._memory[start].nbytes))
            else:
                extents.append(None)
        if self._watched is None:
            rows: list[tuple[int, int]] = []
            for memory in self._memory.values():
                raw = memory.base
                assert isinstance(raw, np.ndarray)
                rows.append((raw.ctypes.data, raw.ctypes.data + raw.nbytes))
            self._watched = np.array(sorted(rows), np.uint64).reshape(-1, 2)
        return DeviceMemory(self._watched, extents)

    def copy_to_device(self, address: int, host: np.ndarray) -> None:
        self._not_capturing("copy_to_device")
        if not host.flags.c_contiguous:
            raise DeviceError("copy_to_device of a non-contiguous host array")
        target = self._bytes(address, host.nbytes, "copy_to_device")
        target[:] = host.reshape(-1).view(np.uint8)

    def copy_to_host(self, host: np.ndarray, address: int) -> None:
        self._not_capturing("copy_to_host")
        if not host.flags.c_contiguous or not host.flags.writeable:
            raise DeviceError("copy_to_host into a non-contiguous or read-only array")
        source = self._bytes(address, host.nbytes, "copy_to_host")
        host.reshape(-1).view(np.uint8)[:] = source

    def memset(self, address: int, value: int, nbytes: int) -> None:
        if self._capture is not None:  # cudaMemsetAsync on the capturing stream
            self._capture.append(partial(self.memset, address, value, nbytes))
            return
        self._bytes(address, nbytes, "memset")[:] = value & 0xFF
        self.memsets.append((address, value, nbytes))

    def synchronize(self) -> None:
        """Every call completed before it returned."""
        self._not_capturing("synchronize")

    def close(self) -> None:
        self.closed = True

    # Kernels.

    def load_kernels(self, source: str, names: Sequence[str]) -> None:
        """Build `source` (the prebuilt `kernels` if it is theirs) and load
        `names` from it next to the kernels loaded before."""
        if self.kernels is not None and self.kernels.source == source:
            module = self.kernels
        else:
            module = _module(source)
            if self.kernels is None:
                self.kernels = module
        missing = set(names) - set(module.names)
        if missing:
            raise DeviceError(f"no kernel named {sorted(missing)} in the module")
        self._loaded.update(dict.fromkeys(names, module))

    def launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> None:
        module = self._loaded.get(kernel)
        if module is None:
            raise DeviceError(f"launch of {kernel!r}, which no loaded module has")
        if self._capture is not None:  # a kernel node: run at each graph launch
            self._capture.append(
                partial(self.launch, kernel, grid, block, shared, tuple(args))
            )
            return
        if not 1 <= grid <= INT_MAX or not 1 <= block <= MAX_BLOCK:
            raise DeviceError(f"{kernel}: invalid launch of {grid} x {block} threads")
        memory = self._device_memory(args, kernel)
        self.launches.append(kernel)
        params = module.kernels[kernel].params
        module.launch(
            kernel,
            grid,
            block,
            shared,
            args,
            warp_size=self.warp_size,
            order=self.order,
            denormals=denormals(kernel, params, args)
            if self.flush_denormals
            else "keep",
            memory=memory,
        )

    # BLAS.

    def _matrices(
        self,
        address: int,
        dtype: np.dtype,
        rows: int,
        cols: int,
        ld: int,
        stride: int,
        batch: int,
        what: str,
    ) -> np.ndarray:
        """Column-major `rows x cols` matrices X_i = x + i * stride (elements)
        as a (batch, rows, cols) view of device memory."""
        if rows == 0 or cols == 0:
            return np.zeros((batch, rows, cols), dtype)
        item = dtype.itemsize
        if address % item:
            raise DeviceError(f"{what}: {address:#x} is not {dtype}-aligned")
        if stride < 0:
            raise DeviceError(f"{what}: negative batch stride {stride}")
        last = (batch - 1) * stride + (cols - 1) * ld + rows - 1
        memory = self._bytes(address, (last + 1) * item, what).view(dtype)
        return as_strided(memory, (batch, rows, cols), (stride * item, item, ld * item))

    def gemm_strided_batched(self, call: StridedGemm) -> None:
        """cuBLAS's strided-batched GEMM: C_i = alpha op(A_i) op(B_i) + beta C_i.

        Accumulated as the library does (`GEMM_COMPUTE`): float32
        (cublasSgemmStridedBatched) by numpy's float32 matmul (BLAS sgemm),
        float64 (cublasDgemmStridedBatched) in float64, float16
        (cublasGemmStridedBatchedEx, CUBLAS_COMPUTE_32F) as documented: the
        half inputs converted to float32, multiplied and accumulated in
        float32, alpha and beta (floats) applied in float32 to the sum and to
        C converted to float32, the result rounded to half.
        """
        dtype, transa, transb = call.dtype, call.transa, call.transb
        m, n, k, batch_count = call.m, call.n, call.k, call.batch_count
        lda, ldb, ldc = call.lda, call.ldb, call.ldc
        stride_a, stride_b, stride_c = call.stride_a, call.stride_b, call.stride_c
        if dtype not in GEMM_COMPUTE:
            raise BlasError(
                f"{dtype!r} GEMM: not a type this call takes (CUBLAS_STATUS_NOT_SUPPORTED)"
            )
        if transa not in ("N", "T") or transb not in ("N", "T"):
            raise BlasError(f"transa={transa!r}, transb={transb!r}: not N or T")
        for label, value in (("m", m), ("n", n), ("k", k), ("batchCount", batch_count)):
            if not 0 <= value <= INT_MAX:
                raise BlasError(f"{label}={value} is negative or not an int")
        a_rows, a_cols = (m, k) if transa == "N" else (k, m)
        b_rows, b_cols = (k, n) if transb == "N" else (n, k)
        for label, ld, rows in (
            ("lda", lda, a_rows),
            ("ldb", ldb, b_rows),
            ("ldc", ldc, m),
        ):
            if not max(1, rows) <= ld <= INT_MAX:
                raise BlasError(f"{label}={ld} < max(1, {rows})")
        if self._capture is not None:  # cuBLAS captured on the stream
            self._capture.append(partial(self.gemm_strided_batched, call))
            return
        self.gemms.append(call)
        if m == 0 or n == 0 or batch_count == 0:
            return  # cuBLAS returns at once
        if batch_count > 1 and stride_c < ldc * (n - 1) + m:
            raise DeviceError(
                f"strideC={stride_c}: output matrices of {m} x {n} (ldc={ldc}) overlap"
            )
        element = np.dtype(dtype)
        xa = self._matrices(
            call.a, element, a_rows, a_cols, lda, stride_a, batch_count, "A"
        )
        xb = self._matrices(
            call.b, element, b_rows, b_cols, ldb, stride_b, batch_count, "B"
        )
        xc = self._matrices(call.c, element, m, n, ldc, stride_c, batch_count, "C")
        for name, x in (("A", xa), ("B", xb)):
            if x.size and np.shares_memory(x, xc):
                raise DeviceError(f"C overlaps {name}: the result would be undefined")
        op_a = xa if transa == "N" else xa.transpose(0, 2, 1)
        op_b = xb if transb == "N" else xb.transpose(0, 2, 1)
        compute = np.dtype(GEMM_COMPUTE[dtype])
        result = compute.type(call.alpha) * np.matmul(
            op_a.astype(compute), op_b.astype(compute)
        )
        if call.beta != 0.0:  # beta == 0: C is not read (it may hold NaN)
            result += compute.type(call.beta) * xc.astype(compute)
        xc[...] = result.astype(element)

    # Prepared calls and graphs (gpu_replay.py).

    def prepare_launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> Callable[[], None]:
        """The launch as a call without arguments (the emulator checks each
        run again: allocations may have changed since)."""
        return partial(self.launch, kernel, grid, block, shared, tuple(args))

    def prepare_gemm(self, call: StridedGemm) -> Callable[[], None]:
        return partial(self.gemm_strided_batched, call)

    def _not_capturing(self, what: str) -> None:
        """CUDA and HIP refuse a synchronous call, allocation or copy while a
        stream captures (cudaErrorStreamCaptureUnsupported)."""
        if self._capture is not None:
            raise DeviceError(f"{what} while a stream is capturing")

    def begin_capture(self) -> None:
        """Start capturing: launches, GEMMs and memsets are recorded, not run."""
        if self._capture is not None:
            raise DeviceError("begin_capture while a stream is capturing")
        self._capture = []

    def end_capture(self) -> EmulatedGraph:
        if self._capture is None:
            raise DeviceError("end_capture without begin_capture")
        graph = EmulatedGraph(tuple(self._capture))
        self._capture = None
        return graph

    def launch_graph(self, graph: EmulatedGraph) -> None:
        self._not_capturing("launch_graph")
        self.graph_launches += 1
        for call in graph.calls:
            call()

    def destroy_graph(self, graph: EmulatedGraph) -> None:
        """Nothing to release: the graph's calls are host closures."""
