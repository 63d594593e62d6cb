"""The HIP runtime: hip-python for memory, hipBLAS for GEMM, hiprtc for xhip's kernels.

Untested on hardware here (no AMD GPU); the kernels and the GEMM planning it
relies on are shared with, and exercised by, the CUDA and CPU paths.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

import numpy as np

from xhip.backend.gpu import (
    KERNEL_NAMES,
    KernelArg,
    KernelRuntime,
    broadcast_strides,
    kernel_source,
    plan_gemm,
)
from xhip.backend.runtime import Buffer, DeviceArray, DeviceUnavailable, overlaps


class HipError(RuntimeError):
    """A HIP, hiprtc or hipBLAS call failed."""


def _check(result: Any) -> Any:
    """hip-python returns (status, *values): raise on a bad status, return values."""
    status, *values = result if isinstance(result, tuple) else (result,)
    if getattr(status, "value", status) != 0:
        raise HipError(f"HIP call failed: {status}")
    if not values:
        return None
    return values[0] if len(values) == 1 else tuple(values)


def _import_hip() -> tuple[Any, Any, Any]:
    """hip, hiprtc and hipblas, once a device is known to be there.

    hip-python exposes its bindings as attributes of the `hip` package, and
    hipBLAS's come in a wheel of their own, so they are asked for last: on a
    machine without a GPU the message says so, not that a wheel is missing.
    """
    try:
        from hip import hip, hiprtc  # pyright: ignore
    except ImportError as e:
        raise DeviceUnavailable(
            f"--device hip: hip-python is not installed ({e}); pip install 'xhip[hip]'"
        ) from None
    except OSError as e:  # libamdhip64.so and friends
        raise DeviceUnavailable(f"--device hip: {e}") from None
    status, count = hip.hipGetDeviceCount()
    if getattr(status, "value", status) != 0 or count == 0:
        raise DeviceUnavailable(
            f"--device hip: no AMD GPU found ({getattr(status, 'name', status)})"
        )
    try:
        from hip import hipblas  # pyright: ignore
    except ImportError as e:
        raise DeviceUnavailable(
            f"--device hip: hipBLAS bindings are not installed ({e})"
        ) from None
    return hip, hiprtc, hipblas


class HipRuntime(KernelRuntime):
    """AMD GPUs: kernels compiled for the device's gfx arch once per runtime."""

    name = "hip"

    def __init__(self, debug: bool = False):
        super().__init__(debug)
        self.hip, self.hiprtc, self.hipblas = _import_hip()
        self._functions = self._compile()
        self._blas = _check(self.hipblas.hipblasCreate())
        self._meta: dict[bytes, Buffer] = {}

    def _compile(self) -> dict[str, Any]:
        hip, hiprtc = self.hip, self.hiprtc
        props = hip.hipDeviceProp_t()
        _check(hip.hipGetDeviceProperties(props, 0))
        program = _check(
            hiprtc.hiprtcCreateProgram(
                kernel_source().encode(), b"xhip_kernels.hip", 0, [], []
            )
        )
        options = [b"--offload-arch=" + props.gcnArchName, b"-std=c++14"]
        status = hiprtc.hiprtcCompileProgram(program, len(options), options)
        if getattr(status[0], "value", status[0]) != 0:
            size = _check(hiprtc.hiprtcGetProgramLogSize(program))
            log = bytearray(size)
            hiprtc.hiprtcGetProgramLog(program, log)
            raise HipError(f"hiprtc failed:\n{log.decode(errors='replace')}")
        code = bytearray(_check(hiprtc.hiprtcGetCodeSize(program)))
        _check(hiprtc.hiprtcGetCode(program, code))
        module = _check(hip.hipModuleLoadData(code))
        return {
            n: _check(hip.hipModuleGetFunction(module, n.encode()))
            for n in KERNEL_NAMES
        }

    # Memory.

    def _allocate(self, nbytes: int) -> Any:
        return _check(self.hip.hipMalloc(max(nbytes, 1)))

    def _release(self, handle: Any) -> None:
        _check(self.hip.hipFree(handle))

    def fill_nan(self, buffer: Buffer) -> None:
        _check(self.hip.hipMemset(buffer.handle, 0xFF, buffer.nbytes))

    def _address(self, value: DeviceArray) -> int:
        return int(value.buffer.handle) + value.offset

    def _device_meta(self, meta: np.ndarray) -> Any:
        key = meta.tobytes()
        buffer = self._meta.get(key)
        if buffer is None:
            buffer = self._meta[key] = self._host_to_device(meta)
        return int(buffer.handle)

    def _host_to_device(self, array: np.ndarray) -> Buffer:
        array = np.ascontiguousarray(array)
        buffer = Buffer(self._allocate(array.nbytes), array.nbytes)
        kind = self.hip.hipMemcpyKind.hipMemcpyHostToDevice
        _check(self.hip.hipMemcpy(buffer.handle, array.ctypes.data, array.nbytes, kind))
        return buffer

    def upload(self, array: np.ndarray, copy: bool = False) -> DeviceArray:
        array = np.ascontiguousarray(array)
        return DeviceArray.contiguous(
            self._host_to_device(array), 0, array.shape, array.dtype
        )

    def download(self, value: DeviceArray, out: np.ndarray | None = None) -> np.ndarray:
        if not value.is_contiguous():
            dense = self.empty(value.shape, value.dtype)
            self.copy(value, dense)
            try:
                return self.download(dense, out)
            finally:
                self.free(dense.buffer)
        host = np.empty(value.shape, value.dtype)
        kind = self.hip.hipMemcpyKind.hipMemcpyDeviceToHost
        _check(
            self.hip.hipMemcpy(
                host.ctypes.data, self._address(value), host.nbytes, kind
            )
        )
        if out is None:
            return host
        np.copyto(out, host)
        return out

    def synchronize(self) -> None:
        _check(self.hip.hipDeviceSynchronize())

    def _launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> None:
        ctypes_args = tuple(
            ctypes.c_int32(v)
            if k == "i32"
            else ctypes.c_void_p(v)
            if k == "ptr"
            else ctypes.c_int64(v)
            for k, v in args
        )
        _check(
            self.hip.hipModuleLaunchKernel(
                self._functions[kernel],
                grid,
                1,
                1,
                block,
                1,
                1,
                sharedMemBytes=shared,
                stream=None,
                kernelParams=None,
                extra=ctypes_args,
            )
        )

    # GEMM.

    def _dense(self, value: DeviceArray) -> DeviceArray:
        dense = self.empty(value.shape, value.dtype)
        self.copy(value, dense)
        return dense

    def matmul(self, a: DeviceArray, b: DeviceArray, out: DeviceArray) -> None:
        """hipblasSgemmStridedBatched; operands BLAS cannot stride over are copied."""
        self._require_f32(a, b, out)
        if len(a.shape) == 1:
            a = insert_unit_dim(a, 0)
            out = insert_unit_dim(out, len(out.shape) - (len(b.shape) > 1))
        if len(b.shape) == 1:
            b = insert_unit_dim(b, 1)
            out = insert_unit_dim(out, len(out.shape))
        self._gemm(a, b, out, 1.0, 0.0)

    def _gemm(
        self,
        a: DeviceArray,
        b: DeviceArray,
        out: DeviceArray,
        alpha: float,
        beta: float,
    ) -> None:
        if out.size == 0:
            return  # nothing to write; BLAS may refuse a zero batch count
        scratch: list[DeviceArray] = []
        call = plan_gemm(a, b, out)
        if call is None:
            a, b = self._dense(a), self._dense(b)
            scratch += [a, b]
            target = out if out.is_contiguous() else self._dense(out)
            if target is not out:
                scratch.append(target)
            call = plan_gemm(a, b, target)
            assert call is not None
        else:
            target = out
        hb = self.hipblas
        op = {
            False: hb.hipblasOperation_t.HIPBLAS_OP_N,
            True: hb.hipblasOperation_t.HIPBLAS_OP_T,
        }
        alpha_c, beta_c = ctypes.c_float(alpha), ctypes.c_float(beta)
        _check(
            hb.hipblasSgemmStridedBatched(
                self._blas,
                op[call.trans_b],
                op[call.trans_a],
                call.n,
                call.m,
                call.k,
                ctypes.addressof(alpha_c),
                self._address(b),
                call.ldb,
                call.stride_b,
                self._address(a),
                call.lda,
                call.stride_a,
                ctypes.addressof(beta_c),
                self._address(target),
                call.ldc,
                call.stride_c,
                call.batch,
            )
        )
        if target is not out:
            self.copy(target, out)
        for s in scratch:
            self.free(s.buffer)

    def gemm(
        self,
        a: DeviceArray,
        b: DeviceArray,
        c: DeviceArray | None,
        out: DeviceArray,
        trans_a: bool = False,
        trans_b: bool = False,
        alpha: float = 1.0,
        beta: float = 1.0,
    ) -> None:
        self._require_f32(a, b, out)
        if trans_a:
            a = transposed(a)
        if trans_b:
            b = transposed(b)
        if c is None or beta == 0.0:
            self._gemm(a, b, out, alpha, 0.0)
            return
        bias = self._dense(c) if overlaps(c, out) else c
        self.copy(broadcast_view(bias, out.shape), out)
        self._gemm(a, b, out, alpha, beta)
        if bias is not c:
            self.free(bias.buffer)

    def close(self) -> None:
        for buffer in self._meta.values():
            self._release(buffer.handle)
        self._meta.clear()
        _check(self.hipblas.hipblasDestroy(self._blas))


def broadcast_view(value: DeviceArray, shape: tuple[int, ...]) -> DeviceArray:
    """`value` broadcast to `shape` with stride-0 dims (read-only use)."""
    strides = broadcast_strides(value, shape)
    return DeviceArray(
        value.buffer, value.offset, shape, tuple(strides), value.dtype, value.base
    )


def transposed(value: DeviceArray) -> DeviceArray:
    """The 2-D view with its dims swapped."""
    return DeviceArray(
        value.buffer,
        value.offset,
        value.shape[::-1],
        value.strides[::-1],
        value.dtype,
        value.base,
    )


def insert_unit_dim(value: DeviceArray, axis: int) -> DeviceArray:
    """The view with a size-1 dim inserted at `axis` (1-D matmul operands)."""
    shape = (*value.shape[:axis], 1, *value.shape[axis:])
    strides = (*value.strides[:axis], 1, *value.strides[axis:])
    return DeviceArray(
        value.buffer, value.offset, shape, strides, value.dtype, value.base
    )
