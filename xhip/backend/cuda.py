"""The CUDA runtime: CuPy for memory and cuBLAS GEMM, NVRTC for xhip's kernels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from xhip.backend.gpu import KERNEL_NAMES, KernelArg, KernelRuntime, kernel_source
from xhip.backend.runtime import Buffer, DeviceArray, DeviceUnavailable, overlaps


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


class CudaRuntime(KernelRuntime):
    """NVIDIA GPUs through CuPy; kernels compiled once per runtime by NVRTC."""

    name = "cuda"

    def __init__(self, debug: bool = False):
        super().__init__(debug)
        self.cupy = cp = _import_cupy()
        self._module = cp.RawModule(code=kernel_source(), options=("-std=c++14",))
        self._kernels = {name: self._module.get_function(name) for name in KERNEL_NAMES}
        self._meta: dict[bytes, Any] = {}

    def _allocate(self, nbytes: int) -> Any:
        return self.cupy.cuda.alloc(max(nbytes, 1))

    def _release(self, handle: Any) -> None:
        """CuPy's pool takes the memory back when the last reference goes."""

    def fill_nan(self, buffer: Buffer) -> None:
        buffer.handle.memset(0xFF, buffer.nbytes)

    def array(self, value: DeviceArray) -> Any:
        native = value.native
        if native is None:
            item = value.dtype.itemsize
            native = self.cupy.ndarray(
                value.shape,
                value.dtype,
                memptr=value.buffer.handle + value.offset,
                strides=tuple(s * item for s in value.strides),
            )
            value.native = native
        return native

    def _address(self, value: DeviceArray) -> int:
        return int(value.buffer.handle.ptr) + value.offset

    def _device_meta(self, meta: np.ndarray) -> Any:
        key = meta.tobytes()
        device = self._meta.get(key)
        if device is None:
            device = self._meta[key] = self.cupy.asarray(meta)
        return device.data.ptr

    def _launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> None:
        values = [
            np.int32(v)
            if kind == "i32"
            else np.uint64(v)
            if kind == "ptr"
            else np.int64(v)
            for kind, v in args
        ]
        self._kernels[kernel]((grid,), (block,), tuple(values), shared_mem=shared)

    def upload(self, array: np.ndarray, copy: bool = False) -> DeviceArray:
        array = np.ascontiguousarray(array)
        value = self.empty(array.shape, array.dtype)
        self.array(value).set(array)
        return value

    def download(self, value: DeviceArray, out: np.ndarray | None = None) -> np.ndarray:
        host = self.cupy.ascontiguousarray(self.array(value)).get()
        if out is None:
            return host
        np.copyto(out, host)
        return out

    def synchronize(self) -> None:
        self.cupy.cuda.Device().synchronize()

    def matmul(self, a: DeviceArray, b: DeviceArray, out: DeviceArray) -> None:
        self._require_f32(a, b, out)
        self.cupy.matmul(self.array(a), self.array(b), out=self.array(out))

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
        cp = self.cupy
        x, w, o = self.array(a), self.array(b), self.array(out)
        bias = None if c is None or beta == 0.0 else self.array(c)
        if bias is not None and overlaps(c, out):
            bias = bias.copy()
        cp.matmul(x.T if trans_a else x, w.T if trans_b else w, out=o)
        if alpha != 1.0:
            cp.multiply(o, np.float32(alpha), out=o)
        if bias is not None:
            cp.add(o, bias * np.float32(beta) if beta != 1.0 else bias, out=o)
