"""The numpy runtime: the default, and the reference the GPU runtimes are held to.

Every op writes straight into its destination view (`out=`), BLAS runs on the
strided views as they are, and the memory-bound ops (softmax, elementwise) are
split over a small thread pool: numpy releases the GIL inside its loops.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from xhip.backend.cpu_attention import CpuAttention
from xhip.backend.cpu_conv import CpuConvolutions
from xhip.backend.cpu_gather import CpuGathers
from xhip.backend.cpu_image import CpuImage
from xhip.backend.cpu_movement import CpuMovement
from xhip.backend.cpu_reduce import CpuReductions
from xhip.backend.cpu_resize import CpuResize
from xhip.backend.cpu_scatter import CpuScatters
from xhip.backend.cpu_topk import CpuTopK
from xhip.backend.cpu_window import CpuWindows
from xhip.backend.elementwise import numpy_function
from xhip.backend.runtime import Buffer, DeviceArray, Runtime
from xhip.dialects import hip

_ELEMENTWISE = {op.kind(): op for op in hip.ELEMENTWISE_OPS}


PARALLEL_MIN_ELEMENTS = 1 << 16
"""Below this, a thread hand-off costs more than it saves."""

SOFTMAX_BLOCK_BYTES = 1 << 19
"""Rows per softmax block: the block stays in L2 across its passes."""
SUM_MIN, SUM_MAX = 1e-30, 1e30
"""Row sums of unshifted exp that need no max shift (see `_softmax_block`)."""

ALIGNMENT = 256
CACHE_LIMIT_BYTES = 1 << 30
CACHE_SLACK_BYTES = 1 << 20


BLAS_PARALLEL_MIN_MACS = 1 << 22
"""Below this many multiply-adds a GEMM runs on one thread: handing a small GEMM
to a second thread costs more than it saves, and on a loaded machine the
hand-off can wait a whole scheduler time slice."""


class _OneBlasThread:
    """Holds BLAS at one thread while any CpuRuntime that ran a GEMM is open.

    The limit is process-wide, so it is counted: the first holder sets it
    (threadpoolctl finds every loaded BLAS) and the last to let go restores the
    thread counts it found.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holders = 0
        self._limiter: Any = None

    def acquire(self) -> None:
        with self._lock:
            if self._holders == 0:
                self._limiter = ThreadpoolController().limit(limits=1, user_api="blas")
            self._holders += 1

    def release(self) -> None:
        with self._lock:
            self._holders -= 1
            if self._holders == 0:
                self._limiter.restore_original_limits()
                self._limiter = None


_ONE_BLAS_THREAD = _OneBlasThread()


def _reshape(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """`x` with a new shape as a view, or None if that needs a copy."""
    try:
        return np.reshape(x, shape, copy=False)
    except ValueError:
        return None


def _copyto(src: np.ndarray, out: np.ndarray) -> None:
    np.copyto(out, src)


def _cast(src: np.ndarray, out: np.ndarray) -> None:
    """numpy's unsafe casting is C's: truncation toward zero; a NaN or an
    out-of-range value gives what the hardware gives, as in ONNX."""
    with np.errstate(invalid="ignore", over="ignore"):
        np.copyto(out, src, casting="unsafe")


def _same_view(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether `a` and `b` are the same elements in the same order."""
    return (
        a.ctypes.data == b.ctypes.data and a.shape == b.shape and a.strides == b.strides
    )


def _softmax_shifted(x: np.ndarray, out: np.ndarray) -> None:
    """Softmax over the last axis, shifted by the row max; `out` may be `x`."""
    peak = np.max(x, axis=-1, keepdims=True)
    np.subtract(x, peak, out=out)
    np.exp(out, out=out)
    total = np.sum(out, axis=-1, keepdims=True)
    np.reciprocal(total, out=total)
    np.multiply(out, total, out=out)


def _softmax_block(x: np.ndarray, out: np.ndarray, ones: np.ndarray) -> None:
    """Softmax of the rows of a 2-D block, `out` distinct from `x`.

    The max shift only guards exp against overflow and underflow, and costs two
    of the five passes. So exp runs unshifted and a row sum outside
    [SUM_MIN, SUM_MAX] (or NaN) sends the block down the shifted path. Inside
    that range no exp overflowed, and an entry that underflowed weighs under
    1e-8 of its row. The row sums are a BLAS gemv.
    """
    with np.errstate(over="ignore", under="ignore"):
        np.exp(x, out=out)
    total = np.matmul(out, ones)
    if not (SUM_MIN < total.min() and total.max() < SUM_MAX):
        _softmax_shifted(x, out)
        return
    # A division, not a reciprocal's product: unshifted, a one-entry row is
    # e / e, exactly 1, as in the shifted form ORT uses.
    np.divide(out, total[:, None], out=out)


class CpuRuntime(
    CpuAttention,
    CpuConvolutions,
    CpuWindows,
    CpuResize,
    CpuReductions,
    CpuGathers,
    CpuTopK,
    CpuMovement,
    CpuScatters,
    CpuImage,
    Runtime,
):
    """numpy on the host; `threads` workers for the memory-bound ops."""

    name = "cpu"

    def __init__(self, debug: bool = False, threads: int | None = None):
        super().__init__(debug)
        self.threads = max(1, threads or min(os.cpu_count() or 1, 8))
        self._pool: ThreadPoolExecutor | None = None
        self._cache: list[np.ndarray] = []
        """Freed blocks, oldest first, for reuse by later allocations."""
        self._cached_bytes = 0
        self._holds_blas = False

    # Memory.

    def _allocate(self, nbytes: int) -> np.ndarray:
        """A cached block when one fits (fresh pages fault on first touch), else new."""
        best: int | None = None
        for i, raw in enumerate(self._cache):
            capacity = raw.nbytes - ALIGNMENT
            if nbytes <= capacity <= 2 * nbytes + CACHE_SLACK_BYTES and (
                best is None or capacity < self._cache[best].nbytes
            ):
                best = i
        if best is None:
            raw = np.empty(nbytes + ALIGNMENT, dtype=np.uint8)
        else:
            raw = self._cache.pop(best)
            self._cached_bytes -= raw.nbytes
        start = -raw.ctypes.data % ALIGNMENT
        return raw[start : start + nbytes]

    def _release(self, handle: Any) -> None:
        raw: np.ndarray = handle.base
        self._cache.append(raw)
        self._cached_bytes += raw.nbytes
        while self._cached_bytes > CACHE_LIMIT_BYTES:
            self._cached_bytes -= self._cache.pop(0).nbytes

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

    def _parallel(self, tasks: Sequence[Callable[[], object]]) -> None:
        """Runs the tasks, the first one on this thread (none for an empty array)."""
        if len(tasks) <= 1:
            for task in tasks:
                task()
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads, "xhip-cpu")
        futures: list[Future[object]] = [self._pool.submit(t) for t in tasks[1:]]
        tasks[0]()
        for future in futures:
            future.result()

    def _split(self, shape: tuple[int, ...]) -> tuple[int, list[int]] | None:
        """An axis of `shape` and cut points on it, one piece per thread.

        None when the array is too small to be worth it.
        """
        if math.prod(shape) < PARALLEL_MIN_ELEMENTS:
            return None
        return self._cut(shape)

    def _cut(self, shape: tuple[int, ...]) -> tuple[int, list[int]] | None:
        """The first axis of `shape` with a piece for every thread, and its cuts."""
        if self.threads == 1:
            return None
        for axis, size in enumerate(shape):
            if size >= self.threads:
                return axis, [size * i // self.threads for i in range(self.threads + 1)]
        return None

    def _elementwise(
        self, fn: Callable[..., Any], out: np.ndarray, *inputs: np.ndarray
    ) -> None:
        """`fn(*inputs, out=out)`, cut along one axis of `out` over the threads.

        Inputs are cut only where they have the axis; elsewhere they broadcast
        as they are, which keeps numpy on its fast scalar loops.
        """
        split = self._split(out.shape)
        if split is None:
            fn(*inputs, out=out)
            return
        axis, cuts = split

        def piece(x: np.ndarray, lo: int, hi: int) -> np.ndarray:
            own = axis - (out.ndim - x.ndim)
            if own < 0 or x.shape[own] == 1:
                return x
            return x[(slice(None),) * own + (slice(lo, hi),)]

        def task(lo: int, hi: int) -> Callable[[], None]:
            return lambda: fn(
                *(piece(x, lo, hi) for x in inputs), out=piece(out, lo, hi)
            )

        self._parallel([task(lo, hi) for lo, hi in zip(cuts, cuts[1:])])

    # Compute.

    def matmul(self, a: DeviceArray, b: DeviceArray, out: DeviceArray) -> None:
        x, w, o = self.array(a), self.array(b), self.array(out)
        if w.ndim == 2 and x.ndim > 2:
            # One big GEMM instead of one per batch entry, when no copy is needed.
            x2 = _reshape(x, (-1, x.shape[-1]))
            o2 = _reshape(o, (-1, o.shape[-1]))
            if x2 is not None and o2 is not None:
                x, o = x2, o2
        self._matmul(x, w, o)

    def _matmul(self, x: np.ndarray, w: np.ndarray, o: np.ndarray) -> None:
        """BLAS on one thread; big products cut over our own thread pool.

        OpenBLAS's own threads spin while they wait, which starves our pool on
        a small machine, and it hands small GEMMs to a second thread at a loss.
        """
        if not self._holds_blas:
            _ONE_BLAS_THREAD.acquire()
            self._holds_blas = True
        split = None
        big = o.size * x.shape[-1] >= BLAS_PARALLEL_MIN_MACS
        if big and x.ndim >= 2 and w.ndim >= 2:
            # `big` already weighed the work: cut the rows however few they are.
            split = self._cut(o.shape[:-1])
        if split is None:
            np.matmul(x, w, out=o)
            return
        axis, cuts = split
        m_axis = axis == o.ndim - 2

        def piece(v: np.ndarray, lo: int, hi: int, is_a: bool) -> np.ndarray:
            if m_axis:
                return v[..., lo:hi, :] if is_a else v
            own = axis - (o.ndim - v.ndim)
            if own < 0 or v.shape[own] == 1:
                return v
            return v[(slice(None),) * own + (slice(lo, hi),)]

        def task(lo: int, hi: int) -> Callable[[], object]:
            return lambda: np.matmul(
                piece(x, lo, hi, True),
                piece(w, lo, hi, False),
                out=o[(slice(None),) * axis + (slice(lo, hi),)],
            )

        self._parallel([task(lo, hi) for lo, hi in zip(cuts, cuts[1:])])

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
        self._matmul(x.T if trans_a else x, w.T if trans_b else w, o)
        if alpha != 1.0:
            np.multiply(o, np.float32(alpha).astype(o.dtype), out=o)
        if bias is not None:
            if beta != 1.0:
                bias = bias * np.asarray(beta, dtype=o.dtype)
            np.add(o, bias, out=o)

    def permute(self, src: DeviceArray, out: DeviceArray, perm: Sequence[int]) -> None:
        self._elementwise(_copyto, self.array(out), self.array(src).transpose(perm))

    def _formula(self, kind: str, params: Sequence[float]) -> Callable[..., Any]:
        op = _ELEMENTWISE[kind]
        fn = numpy_function(op.FORMULA, op.arity())
        return partial(fn, params=tuple(params)) if params else fn

    def binary(
        self,
        kind: str,
        a: DeviceArray,
        b: DeviceArray,
        out: DeviceArray,
        params: Sequence[float] = (),
    ) -> None:
        fn = self._formula(kind, params)
        self._elementwise(fn, self.array(out), self.array(a), self.array(b))

    def unary(
        self,
        kind: str,
        src: DeviceArray,
        out: DeviceArray,
        params: Sequence[float] = (),
    ) -> None:
        self._elementwise(self._formula(kind, params), self.array(out), self.array(src))

    def ternary(
        self,
        kind: str,
        a: DeviceArray,
        b: DeviceArray,
        c: DeviceArray,
        out: DeviceArray,
        params: Sequence[float] = (),
    ) -> None:
        inputs = (self.array(a), self.array(b), self.array(c))
        self._elementwise(self._formula(kind, params), self.array(out), *inputs)

    def from_elements(self, *args: Any) -> None:
        *values, out = args
        target = self.array(out)
        target[...] = (
            np.array(values, dtype=np.int64).astype(target.dtype).reshape(target.shape)
        )

    def range(self, start: DeviceArray, delta: DeviceArray, out: DeviceArray) -> None:
        target = self.array(out)
        s, d = self.array(start).reshape(()), self.array(delta).reshape(())
        steps = np.arange(target.shape[0], dtype=target.dtype)
        np.add(s, steps * d, out=target, casting="unsafe")

    def copy(self, src: DeviceArray, out: DeviceArray) -> None:
        self._elementwise(_copyto, self.array(out), self.array(src))

    def cast(self, src: DeviceArray, out: DeviceArray) -> None:
        self._elementwise(_cast, self.array(out), self.array(src))

    def softmax(
        self,
        src: DeviceArray,
        out: DeviceArray,
        axis: int = -1,
        scale: DeviceArray | None = None,
    ) -> None:
        """Softmax of `src` (times the scalar `scale`, if given) along `axis`.

        The scaled form (`hip-fuse-scaled-softmax`) runs `mul` + `softmax` in
        one sweep: each block is scaled into a scratch buffer that stays in
        cache, so the scores cross memory once less, with the same float32
        arithmetic as the two ops.
        """
        x, o = self.array(src), self.array(out)
        factor = None if scale is None else self.array(scale).reshape(())
        if x.size == 0:
            return
        if x.ndim == 0:
            o[...] = 1.0
            return
        axis %= x.ndim
        if x.dtype == np.float16:
            # In float32, rounded once, as ONNX Runtime and the GPU kernels do
            # (the scale's product keeps the Mul's own float16 rounding).
            scaled = x if factor is None else np.multiply(x, factor)
            wide = np.moveaxis(scaled.astype(np.float32), axis, -1)
            _softmax_shifted(wide, wide)
            np.copyto(o, np.moveaxis(wide, -1, axis))
            return
        if axis != x.ndim - 1:
            x, o = np.moveaxis(x, axis, -1), np.moveaxis(o, axis, -1)
        n = x.shape[-1]
        rows = math.prod(x.shape[:-1])
        x2 = _reshape(x, (rows, n))
        o2 = _reshape(o, (rows, n))
        same = x2 is not None and o2 is not None and _same_view(x2, o2)
        if x2 is None or o2 is None or (np.may_share_memory(x, o) and not same):
            if factor is not None:
                x = np.multiply(x, factor)
            _softmax_shifted(x, o)
            return
        if same and factor is None:
            _softmax_shifted(x, o)
            return
        src_rows, out_rows = x2, o2
        ones = np.ones(n, dtype=o.dtype)
        block = max(1, SOFTMAX_BLOCK_BYTES // (n * x.itemsize))
        threads = self.threads if rows * n >= PARALLEL_MIN_ELEMENTS else 1
        cuts = [rows * i // threads for i in range(threads + 1)]

        def task(lo: int, hi: int) -> Callable[[], None]:
            def run() -> None:
                scaling = (
                    None if factor is None else (factor, np.empty((block, n), x.dtype))
                )
                for start in range(lo, hi, block):
                    stop = min(start + block, hi)
                    rows_in = src_rows[start:stop]
                    if scaling is not None:
                        by, scratch = scaling
                        rows_in = np.multiply(rows_in, by, out=scratch[: stop - start])
                    _softmax_block(rows_in, out_rows[start:stop], ones)

            return run

        self._parallel([task(lo, hi) for lo, hi in zip(cuts, cuts[1:]) if hi > lo])

    def close(self) -> None:
        if self._holds_blas:
            _ONE_BLAS_THREAD.release()
            self._holds_blas = False
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
