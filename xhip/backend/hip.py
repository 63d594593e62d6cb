"""The HIP runtime: hip-python's device API (memory, hiprtc, hipBLASLt or
hipBLAS) under `KernelRuntime`.

Two package layouts are read: hip-python >= 10 (`rocm-bindings-hip` and
`rocm-bindings-libraries`, modules `rocm.bindings.hip`, `.hiprtc`,
`.hipblas`, `.hipblaslt`) and hip-python 6.x (`hip.hip`, `hip.hiprtc`,
`hip.hipblas`). Untested on hardware here (no AMD GPU): the host code above
the device calls runs on the CPU stand-in (docs/runtime.md, "The launcher
seam"), the calls themselves are checked against the bindings' signatures.
"""

from __future__ import annotations

import ctypes
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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

HIPRTC_OPTIONS = ("-std=c++14",)
"""What hiprtc compiles the kernel source with, besides --offload-arch (hiprtc
adds no denormal flag: subnormals are kept; test_kernel_compile.py too)."""

WORKSPACE = 32 << 20
"""Bytes of hipBLASLt workspace, allocated once per runtime."""


class HipError(RuntimeError):
    """A HIP, hiprtc, hipBLAS or hipBLASLt call failed."""


def _ok(status: Any) -> bool:
    return getattr(status, "value", status) == 0


def _check(result: Any) -> Any:
    """hip-python returns (status, *values): raise on a bad status, return values."""
    status, *values = result if isinstance(result, tuple) else (result,)
    if not _ok(status):
        raise HipError(f"HIP call failed: {getattr(status, 'name', status)}")
    if not values:
        return None
    return values[0] if len(values) == 1 else tuple(values)


@dataclass
class Bindings:
    """The hip-python modules the runtime calls; a BLAS module is None when
    its bindings are not installed."""

    hip: Any
    hiprtc: Any
    hipblas: Any
    hipblaslt: Any


def _optional(*modules: str) -> Any:
    """The first of `package.name` modules that imports, else None."""
    for name in modules:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def import_bindings() -> Bindings:
    """hip-python's modules, new layout first; `DeviceUnavailable` (one line)
    when HIP itself cannot be imported or loaded."""
    try:
        try:
            # lazy: hip-python loads only when the hip runtime is asked for
            from rocm.bindings import hip, hiprtc  # pyright: ignore
        except ImportError:
            # lazy: hip-python 6.x's layout
            from hip import hip, hiprtc  # pyright: ignore
    except ImportError as e:
        raise DeviceUnavailable(
            f"--device hip: hip-python is not installed ({e}); pip install 'xhip[hip]'"
        ) from None
    except OSError as e:  # libamdhip64.so and friends
        raise DeviceUnavailable(f"--device hip: {e}") from None
    return Bindings(
        hip,
        hiprtc,
        _optional("rocm.bindings.hipblas", "hip.hipblas"),
        _optional("rocm.bindings.hipblaslt", "hip.hipblaslt"),
    )


def _import_hip() -> Bindings:
    """The bindings, once a device is known to be there.

    BLAS is asked for last: on a machine without a GPU the message says so,
    not that a wheel is missing.
    """
    bindings = import_bindings()
    status, count = bindings.hip.hipGetDeviceCount()
    if not _ok(status) or count == 0:
        raise DeviceUnavailable(
            f"--device hip: no AMD GPU found ({getattr(status, 'name', status)})"
        )
    if bindings.hipblas is None:
        raise DeviceUnavailable(
            "--device hip: the hipBLAS bindings are not installed; "
            "pip install 'xhip[hip]' (rocm-bindings-libraries)"
        )
    return bindings


def _properties_6x(hip: Any) -> Any:
    """hip-python 6.x fills a struct it is given."""
    props = hip.hipDeviceProp_t()
    _check(hip.hipGetDeviceProperties(props, 0))
    return props


def _device_properties(hip: Any) -> Any:
    try:
        return _check(hip.hipGetDeviceProperties(deviceId=0))
    except TypeError:
        return _properties_6x(hip)


def _ex_types_6x(hipblas: Any) -> tuple[Any, Any]:
    """hipBLAS 6.x's `hipblasGemmStridedBatchedEx` names A/B/C's type and the
    compute type by `hipblasDatatype_t` (half, float); >= 10 by `hipDataType`
    and `hipblasComputeType_t`."""
    types = hipblas.hipblasDatatype_t
    return types.HIPBLAS_R_16F, types.HIPBLAS_R_32F


def _box(value: int, ctype: type[ctypes._SimpleCData]) -> tuple[Any, int]:
    """An attribute value in host memory for hipBLASLt's setters: (the ctypes
    object, to keep alive over the call, and its address)."""
    box = ctype(value)
    return box, ctypes.addressof(box)


class HipDevice:
    """`DeviceAPI` on hip-python: hipMalloc/hipMemcpy, hiprtc for the device's
    `gcnArchName`, hipModuleLaunchKernel, GEMM on hipBLASLt (a matmul
    descriptor, strided-batched column-major layouts, the heuristic's first
    algorithm; half with f32 compute, float, double) with hipBLAS's
    `hipblas{S,D}gemmStridedBatched` and `hipblasGemmStridedBatchedEx` (half,
    f32 compute) where hipBLASLt does not load or has no algorithm for a call.

    Bound plans are captured into hipGraphs on a stream of the device's own
    (blocking: ordered with the null stream, where the copies run); every
    launch, GEMM and memset goes to `_stream`, that stream while capturing,
    the null stream otherwise."""

    name = "hip-python"

    def __init__(self, bindings: Bindings):
        self.hip = bindings.hip
        self.hiprtc = bindings.hiprtc
        self.hipblas = bindings.hipblas
        self.hipblaslt = bindings.hipblaslt
        self._functions: dict[str, Any] = {}
        self._modules: list[Any] = []
        """Every loaded module, unloaded on close."""
        self._workspace = 0
        self._plans: dict[tuple[Any, ...], tuple[Any, ...] | None] = {}
        self._stream: Any = None
        """Where launches, GEMMs and memsets go: None (the null stream), or
        `_graph_stream` while it captures."""
        self._graph_stream: Any = None
        reasons: list[str] = []
        self._blas = self._handle(self.hipblas, "hipblasCreate", reasons)
        self._lt = self._handle(self.hipblaslt, "hipblasLtCreate", reasons)
        if self._blas is None and self._lt is None:
            raise DeviceUnavailable(
                f"--device hip: neither hipBLASLt nor hipBLAS loads ({'; '.join(reasons)})"
            )
        if self._lt is not None:
            self._workspace = self.malloc(WORKSPACE)

    @staticmethod
    def _handle(module: Any, create: str, reasons: list[str]) -> Any:
        """A BLAS handle, or None (with the reason) where the library is absent:
        the bindings import without it and fail to dlopen on first use."""
        if module is None:
            reasons.append(f"no {create.removesuffix('Create')} bindings")
            return None
        try:
            return _check(getattr(module, create)())
        except (RuntimeError, OSError) as e:
            reasons.append(str(e))
            return None

    # Memory.

    def malloc(self, nbytes: int) -> int:
        return int(_check(self.hip.hipMalloc(size=nbytes)))

    def free(self, address: int) -> None:
        _check(self.hip.hipFree(ptr=address))

    def copy_to_device(self, address: int, host: np.ndarray) -> None:
        kind = self.hip.hipMemcpyKind.hipMemcpyHostToDevice
        _check(
            self.hip.hipMemcpy(
                dst=address, src=host.ctypes.data, sizeBytes=host.nbytes, kind=kind
            )
        )

    def copy_to_host(self, host: np.ndarray, address: int) -> None:
        kind = self.hip.hipMemcpyKind.hipMemcpyDeviceToHost
        _check(
            self.hip.hipMemcpy(
                dst=host.ctypes.data, src=address, sizeBytes=host.nbytes, kind=kind
            )
        )

    def memset(self, address: int, value: int, nbytes: int) -> None:
        _check(
            self.hip.hipMemsetAsync(
                dst=address, value=value, sizeBytes=nbytes, stream=self._stream
            )
        )

    def synchronize(self) -> None:
        _check(self.hip.hipDeviceSynchronize())

    # Kernels.

    def load_kernels(self, source: str, names: Sequence[str]) -> None:
        hip, hiprtc = self.hip, self.hiprtc
        arch = _device_properties(hip).gcnArchName
        arch = arch.encode() if isinstance(arch, str) else bytes(arch)
        program = _check(
            hiprtc.hiprtcCreateProgram(
                src=source.encode(),
                name=b"xhip_kernels.hip",
                numHeaders=0,
                headers=[],
                includeNames=[],
            )
        )
        try:
            options = [b"--offload-arch=" + arch, *(o.encode() for o in HIPRTC_OPTIONS)]
            status = hiprtc.hiprtcCompileProgram(
                prog=program, numOptions=len(options), options=options
            )
            if not _ok(status[0]):
                size = _check(hiprtc.hiprtcGetProgramLogSize(prog=program))
                log = bytearray(size)
                hiprtc.hiprtcGetProgramLog(prog=program, log=log)
                raise HipError(f"hiprtc failed:\n{log.decode(errors='replace')}")
            code = bytearray(_check(hiprtc.hiprtcGetCodeSize(prog=program)))
            _check(hiprtc.hiprtcGetCode(prog=program, code=code))
        finally:
            hiprtc.hiprtcDestroyProgram(prog=program)
        module = _check(hip.hipModuleLoadData(image=code))
        self._modules.append(module)
        for n in names:
            self._functions[n] = _check(
                hip.hipModuleGetFunction(module=module, kname=n.encode())
            )

    def launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> None:
        self.prepare_launch(kernel, grid, block, shared, args)()

    def prepare_launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> Callable[[], object]:
        """The launch with its function and ctypes arguments resolved once."""
        values = kernel_arg_values(
            args, ctypes.c_int32, ctypes.c_void_p, ctypes.c_int64
        )
        function = self._functions[kernel]

        def run() -> None:
            _check(
                self.hip.hipModuleLaunchKernel(
                    f=function,
                    gridDimX=grid,
                    gridDimY=1,
                    gridDimZ=1,
                    blockDimX=block,
                    blockDimY=1,
                    blockDimZ=1,
                    sharedMemBytes=shared,
                    stream=self._stream,
                    kernelParams=None,
                    extra=values,
                )
            )

        return run

    # GEMM.

    def gemm_strided_batched(self, call: StridedGemm) -> None:
        self.prepare_gemm(call)()

    def prepare_gemm(self, call: StridedGemm) -> Callable[[], object]:
        """The GEMM with its plan and arguments resolved once; alpha and beta
        in host memory of its own (read at each call, so a capture holds
        their values)."""
        scalars = np.array([call.alpha, call.beta], GEMM_COMPUTE[call.dtype])
        plan = self._lt_plan(call) if self._lt is not None else None
        return lambda: self._gemm(call, scalars, plan)

    def _gemm(
        self, call: StridedGemm, scalars: np.ndarray, plan: tuple[Any, ...] | None
    ) -> None:
        dtype = call.dtype
        alpha_at = scalars.ctypes.data
        beta_at = alpha_at + scalars.itemsize
        if plan is not None:
            desc, a_layout, b_layout, c_layout, algo = plan
            _check(
                self.hipblaslt.hipblasLtMatmul(
                    handle=self._lt,
                    matmulDesc=desc,
                    alpha=alpha_at,
                    A=call.a,
                    Adesc=a_layout,
                    B=call.b,
                    Bdesc=b_layout,
                    beta=beta_at,
                    C=call.c,
                    Cdesc=c_layout,
                    D=call.c,
                    Ddesc=c_layout,
                    algo=int(algo),
                    workspace=self._workspace,
                    workspaceSizeInBytes=WORKSPACE,
                    stream=self._stream,
                )
            )
            return
        if self._blas is None:
            raise HipError(
                f"hipBLASLt has no algorithm for this {dtype} GEMM ({call.m} x "
                f"{call.n} x {call.k}, batch {call.batch_count}) and hipBLAS is "
                "not loaded"
            )
        hipblas = self.hipblas
        ops = hipblas.hipblasOperation_t
        op = {"N": ops.HIPBLAS_OP_N, "T": ops.HIPBLAS_OP_T}
        shared = dict(
            handle=self._blas,
            transA=op[call.transa],
            transB=op[call.transb],
            m=call.m,
            n=call.n,
            k=call.k,
            alpha=alpha_at,
            lda=call.lda,
            strideA=call.stride_a,
            ldb=call.ldb,
            strideB=call.stride_b,
            beta=beta_at,
            ldc=call.ldc,
            strideC=call.stride_c,
            batchCount=call.batch_count,
        )
        if dtype == "float32":
            _check(
                hipblas.hipblasSgemmStridedBatched(
                    **shared, AP=call.a, BP=call.b, CP=call.c
                )
            )
            return
        if dtype == "float64":
            _check(
                hipblas.hipblasDgemmStridedBatched(
                    **shared, AP=call.a, BP=call.b, CP=call.c
                )
            )
            return
        if hasattr(hipblas, "hipblasDatatype_t"):
            half, compute = _ex_types_6x(hipblas)
        else:
            half = self.hip.hipDataType.HIP_R_16F
            compute = hipblas.hipblasComputeType_t.HIPBLAS_COMPUTE_32F
        _check(
            hipblas.hipblasGemmStridedBatchedEx(
                **shared,
                A=call.a,
                aType=half,
                B=call.b,
                bType=half,
                C=call.c,
                cType=half,
                computeType=compute,
                algo=hipblas.hipblasGemmAlgo_t.HIPBLAS_GEMM_DEFAULT,
            )
        )

    def _lt_plan(self, call: StridedGemm) -> tuple[Any, ...] | None:
        """hipBLASLt's descriptors and algorithm for one GEMM type and shape,
        made once; None where the heuristic has no algorithm (hipBLAS then runs
        it). A, B, C are `dtype`; float16 computes and scales in float32."""
        dtype, transa, transb = call.dtype, call.transa, call.transb
        m, n, k, batch = call.m, call.n, call.k, call.batch_count
        lda, ldb, ldc = call.lda, call.ldb, call.ldc
        stride_a, stride_b, stride_c = call.stride_a, call.stride_b, call.stride_c
        key = (dtype, transa, transb, m, n, k, lda, stride_a, ldb, stride_b, ldc)
        key = (*key, stride_c, batch)
        if key in self._plans:
            return self._plans[key]
        hipblaslt, hipblas = self.hipblaslt, self.hipblas
        types = self.hip.hipDataType
        element = {"float16": types.HIP_R_16F, "float32": types.HIP_R_32F}.get(
            dtype, types.HIP_R_64F
        )
        computes = hipblas.hipblasComputeType_t
        if GEMM_COMPUTE[dtype] == "float64":
            compute, scale = computes.HIPBLAS_COMPUTE_64F, types.HIP_R_64F
        else:
            compute, scale = computes.HIPBLAS_COMPUTE_32F, types.HIP_R_32F
        desc_attr = hipblaslt.hipblasLtMatmulDescAttributes_t
        layout_attr = hipblaslt.hipblasLtMatrixLayoutAttribute_t
        ops = hipblas.hipblasOperation_t
        desc = _check(
            hipblaslt.hipblasLtMatmulDescCreate(computeType=compute, scaleType=scale)
        )
        for attr, op in (
            (desc_attr.HIPBLASLT_MATMUL_DESC_TRANSA, transa),
            (desc_attr.HIPBLASLT_MATMUL_DESC_TRANSB, transb),
        ):
            value = ops.HIPBLAS_OP_N if op == "N" else ops.HIPBLAS_OP_T
            box, address = _box(int(value), ctypes.c_int32)
            _check(
                hipblaslt.hipblasLtMatmulDescSetAttribute(
                    matmulDesc=desc, attr=attr, buf=address, sizeInBytes=4
                )
            )
        layouts = []
        for rows, cols, ld, stride in (
            (m if transa == "N" else k, k if transa == "N" else m, lda, stride_a),
            (k if transb == "N" else n, n if transb == "N" else k, ldb, stride_b),
            (m, n, ldc, stride_c),
        ):
            layout = _check(
                hipblaslt.hipblasLtMatrixLayoutCreate(
                    type=element, rows=rows, cols=cols, ld=ld
                )
            )
            for attr, value, ctype, size in (
                (
                    layout_attr.HIPBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                    batch,
                    ctypes.c_int32,
                    4,
                ),
                (
                    layout_attr.HIPBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                    stride,
                    ctypes.c_int64,
                    8,
                ),
            ):
                box, address = _box(value, ctype)
                _check(
                    hipblaslt.hipblasLtMatrixLayoutSetAttribute(
                        matLayout=layout, attr=attr, buf=address, sizeInBytes=size
                    )
                )
            layouts.append(layout)
        pref = _check(hipblaslt.hipblasLtMatmulPreferenceCreate())
        attr = hipblaslt.hipblasLtMatmulPreferenceAttributes_t.HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES
        box, address = _box(WORKSPACE, ctypes.c_uint64)
        _check(
            hipblaslt.hipblasLtMatmulPreferenceSetAttribute(
                pref=pref, attr=attr, buf=address, sizeInBytes=8
            )
        )
        result = hipblaslt.hipblasLtMatmulHeuristicResult_t()
        status, found = hipblaslt.hipblasLtMatmulAlgoGetHeuristic(
            handle=self._lt,
            matmulDesc=desc,
            Adesc=layouts[0],
            Bdesc=layouts[1],
            Cdesc=layouts[2],
            Ddesc=layouts[2],
            pref=pref,
            requestedAlgoCount=1,
            heuristicResultsArray=result,
        )
        _check(hipblaslt.hipblasLtMatmulPreferenceDestroy(pref=pref))
        plan: tuple[Any, ...] | None = None
        if _ok(status) and found > 0:
            # The algorithm is the result's first member: its address is the
            # result's, which stays alive with the plan.
            plan = (desc, *layouts, result)
        else:
            for layout in layouts:
                _check(hipblaslt.hipblasLtMatrixLayoutDestroy(matLayout=layout))
            _check(hipblaslt.hipblasLtMatmulDescDestroy(matmulDesc=desc))
        self._plans[key] = plan
        return plan

    # Graphs.

    def begin_capture(self) -> None:
        """Capture on the device's stream; hipBLAS's handle follows it."""
        hip = self.hip
        if self._graph_stream is None:
            self._graph_stream = _check(hip.hipStreamCreate())
        if self._blas is not None:
            _check(
                self.hipblas.hipblasSetStream(
                    handle=self._blas, streamId=self._graph_stream
                )
            )
        self._stream = self._graph_stream
        mode = hip.hipStreamCaptureMode.hipStreamCaptureModeRelaxed
        _check(hip.hipStreamBeginCapture(stream=self._stream, mode=mode))

    def end_capture(self) -> Any:
        """The captured graph, instantiated (a hipGraphExec_t)."""
        hip = self.hip
        try:
            graph = _check(hip.hipStreamEndCapture(stream=self._graph_stream))
        finally:
            self._stream = None
            if self._blas is not None:
                _check(self.hipblas.hipblasSetStream(handle=self._blas, streamId=None))
        try:
            return _check(hip.hipGraphInstantiateWithFlags(graph=graph, flags=0))
        finally:
            _check(hip.hipGraphDestroy(graph=graph))

    def launch_graph(self, graph: Any) -> None:
        _check(self.hip.hipGraphLaunch(graphExec=graph, stream=self._graph_stream))

    def destroy_graph(self, graph: Any) -> None:
        _check(self.hip.hipGraphExecDestroy(graphExec=graph))

    def close(self) -> None:
        hipblaslt = self.hipblaslt
        for plan in self._plans.values():
            if plan is not None:
                desc, *layouts, _ = plan
                for layout in layouts:
                    _check(hipblaslt.hipblasLtMatrixLayoutDestroy(matLayout=layout))
                _check(hipblaslt.hipblasLtMatmulDescDestroy(matmulDesc=desc))
        self._plans.clear()
        if self._lt is not None:
            self.free(self._workspace)
            _check(hipblaslt.hipblasLtDestroy(handle=self._lt))
            self._lt = None
        if self._blas is not None:
            _check(self.hipblas.hipblasDestroy(handle=self._blas))
            self._blas = None
        if self._graph_stream is not None:
            _check(self.hip.hipStreamDestroy(stream=self._graph_stream))
            self._graph_stream = None
        for module in self._modules:
            _check(self.hip.hipModuleUnload(module=module))
        self._modules.clear()
        self._functions.clear()


class HipRuntime(KernelRuntime):
    """AMD GPUs: kernels compiled for the device's gfx arch once per runtime."""

    name = "hip"

    @classmethod
    def open_device(cls) -> DeviceAPI:
        return HipDevice(_import_hip())
