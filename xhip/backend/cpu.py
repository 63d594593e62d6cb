"""The numpy runtime: the default, and the reference the GPU runtimes are held to.

Every op writes straight into its destination view (`out=`), BLAS runs on the
strided views as they are, and the memory-bound ops (softmax, elementwise) are
split over a small thread pool: numpy releases the GIL inside its loops.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from xhip.backend.runtime import BinaryKind, Buffer, DeviceArray, Runtime

_UFUNCS: dict[str, np.ufunc] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
}

PARALLEL_MIN_ELEMENTS = 1 << 16
"""Below this, a thread hand-off costs more than it saves."""

SOFTMAX_BLOCK_BYTES = 1 << 18
"""Rows per softmax block: the block stays in L2 across its four passes."""

ALIGNMENT = 256


def _reshape(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """`x` with a new shape as a view, or None if that needs a copy."""
    try:
        return np.reshape(x, shape, copy=False)
    except ValueError:
        return None


def _copyto(src: np.ndarray, out: np.ndarray) -> None:
    np.copyto(out, src)


def _softmax_rows(x: np.ndarray, out: np.ndarray) -> None:
    """Softmax over the last axis; `out` may be `x` itself."""
    peak = np.max(x, axis=-1, keepdims=True)
    np.subtract(x, peak, out=out)
    np.exp(out, out=out)
    total = np.sum(out, axis=-1, keepdims=True)
    np.reciprocal(total, out=total)
    np.multiply(out, total, out=out)


class CpuRuntime(Runtime):
    """numpy on the host; `threads` workers for the memory-bound ops."""

    name = "cpu"

    def __init__(self, debug: bool = False, threads: int | None = None):
        super().__init__(debug)
        self.threads = max(1, threads or min(os.cpu_count() or 1, 8))
        self._pool: ThreadPoolExecutor | None = None

    # Memory.

    def _allocate(self, nbytes: int) -> np.ndarray:
        raw = np.empty(nbytes + ALIGNMENT, dtype=np.uint8)
        start = -raw.ctypes.data % ALIGNMENT
        return raw[start : start + nbytes]

    def _release(self, handle: Any) -> None:
        """numpy memory goes back when the last view of it goes."""

    def fill_nan(self, buffer: Buffer) -> None:
        # All-ones bytes are a NaN in f16, f32 and f64 alike.
        buffer.handle.fill(0xFF)

    def array(self, value: DeviceArray) -> np.ndarray:
        """The numpy view of a DeviceArray (made once, then cached on it)."""
        native = value.native
        if native is None:
            item = value.dtype.itemsize
            native = np.ndarray(
                value.shape,
                value.dtype,
                value.buffer.handle,
                value.offset,
                tuple(s * item for s in value.strides),
            )
            value.native = native
        return native

    def upload(self, array: np.ndarray, copy: bool = False) -> DeviceArray:
        """Wraps a contiguous native-endian array in place; copies anything else."""
        if copy:
            value = self.empty(array.shape, array.dtype.newbyteorder("="))
            np.copyto(self.array(value), array)
            return value
        if not (array.flags.c_contiguous and array.dtype.isnative):
            array = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("="))
        flat = array.reshape(-1).view(np.uint8)
        value = DeviceArray.contiguous(
            Buffer(flat, flat.nbytes, owned=False), 0, array.shape, array.dtype
        )
        value.native = array
        return value

    def download(self, value: DeviceArray, out: np.ndarray | None = None) -> np.ndarray:
        src = self.array(value)
        if out is None:
            return src.copy()
        if not (
            out.__array_interface__["data"][0] == src.__array_interface__["data"][0]
            and out.strides == src.strides
        ):
            np.copyto(out, src)
        return out

    # Threads.

    def _parallel(self, tasks: Sequence[Callable[[], None]]) -> None:
        """Runs the tasks, the first one on this thread."""
        if len(tasks) == 1:
            tasks[0]()
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads, "xhip-cpu")
        futures: list[Future[None]] = [self._pool.submit(t) for t in tasks[1:]]
        tasks[0]()
        for future in futures:
            future.result()

    def _split(self, shape: tuple[int, ...]) -> list[tuple[slice, ...]]:
        """Index tuples that cut `shape` into one piece per thread (or one piece)."""
        whole = [tuple(slice(None) for _ in shape)]
        if self.threads == 1 or math.prod(shape) < PARALLEL_MIN_ELEMENTS:
            return whole
        for axis, size in enumerate(shape):
            if size >= self.threads:
                cuts = [size * i // self.threads for i in range(self.threads + 1)]
                head = (slice(None),) * axis
                return [(*head, slice(lo, hi)) for lo, hi in zip(cuts, cuts[1:])]
        return whole

    def _elementwise(
        self, fn: Callable[..., Any], out: np.ndarray, *inputs: np.ndarray
    ) -> None:
        pieces = self._split(out.shape)
        if len(pieces) == 1:
            fn(*inputs, out=out)
            return
        full = [np.broadcast_to(x, out.shape) for x in inputs]

        def task(index: tuple[slice, ...]) -> Callable[[], None]:
            return lambda: fn(*(x[index] for x in full), out=out[index])

        self._parallel([task(index) for index in pieces])

    # Compute.

    def matmul(self, a: DeviceArray, b: DeviceArray, out: DeviceArray) -> None:
        x, w, o = self.array(a), self.array(b), self.array(out)
        if w.ndim == 2 and x.ndim > 2:
            # One big GEMM instead of one per batch entry, when no copy is needed.
            x2 = _reshape(x, (-1, x.shape[-1]))
            o2 = _reshape(o, (-1, o.shape[-1]))
            if x2 is not None and o2 is not None:
                np.matmul(x2, w, out=o2)
                return
        np.matmul(x, w, out=o)

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
        x, w, o = self.array(a), self.array(b), self.array(out)
        bias = None if c is None or beta == 0.0 else self.array(c)
        if bias is not None and np.may_share_memory(bias, o):
            bias = bias.copy()
        np.matmul(x.T if trans_a else x, w.T if trans_b else w, out=o)
        if alpha != 1.0:
            np.multiply(o, np.float32(alpha).astype(o.dtype), out=o)
        if bias is not None:
            if beta != 1.0:
                bias = bias * np.asarray(beta, dtype=o.dtype)
            np.add(o, bias, out=o)

    def permute(self, src: DeviceArray, out: DeviceArray, perm: Sequence[int]) -> None:
        self._elementwise(_copyto, self.array(out), self.array(src).transpose(perm))

    def binary(
        self, kind: BinaryKind, a: DeviceArray, b: DeviceArray, out: DeviceArray
    ) -> None:
        self._elementwise(_UFUNCS[kind], self.array(out), self.array(a), self.array(b))

    def relu(self, src: DeviceArray, out: DeviceArray) -> None:
        o = self.array(out)
        self._elementwise(np.maximum, o, self.array(src), np.zeros((), o.dtype))

    def copy(self, src: DeviceArray, out: DeviceArray) -> None:
        self._elementwise(_copyto, self.array(out), self.array(src))

    def softmax(self, src: DeviceArray, out: DeviceArray, axis: int = -1) -> None:
        x, o = self.array(src), self.array(out)
        if x.ndim == 0:
            o[...] = 1.0
            return
        axis %= x.ndim
        if axis != x.ndim - 1:
            x, o = np.moveaxis(x, axis, -1), np.moveaxis(o, axis, -1)
        n = x.shape[-1]
        rows = math.prod(x.shape[:-1])
        x2 = _reshape(x, (rows, n))
        o2 = _reshape(o, (rows, n))
        if x2 is None or o2 is None or rows * n < PARALLEL_MIN_ELEMENTS or n == 0:
            _softmax_rows(x, o)
            return
        block = max(1, SOFTMAX_BLOCK_BYTES // (n * x.itemsize))
        cuts = [rows * i // self.threads for i in range(self.threads + 1)]

        def task(lo: int, hi: int) -> Callable[[], None]:
            def run() -> None:
                for start in range(lo, hi, block):
                    stop = min(start + block, hi)
                    _softmax_rows(x2[start:stop], o2[start:stop])

            return run

        self._parallel([task(lo, hi) for lo, hi in zip(cuts, cuts[1:]) if hi > lo])

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
