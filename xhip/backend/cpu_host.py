"""What every part of the CPU runtime stands on: memory, numpy views, threads.

`CpuHost` is the base of each family of ops (`cpu_*.py`) and so of
`cpu.CpuRuntime`, which is made of them: a family calls `array`,
`_bind_elementwise`, `_bind_matmul` and `_parallel` as its own methods,
declared once, here.

Each op is bound (`bind_<op>`, `Runtime.bind_call`): its views, splits and
buffers made once, it returns the numpy calls left, which a bound plan
replays; the op itself calls its bound form once, so both run the same code.
"""

from __future__ import annotations

import math
import os
import threading
from abc import ABC
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from xhip.backend.runtime import Buffer, DeviceArray, Runtime

PARALLEL_MIN_ELEMENTS = 1 << 16
"""Below this, a thread hand-off costs more than it saves."""

ALIGNMENT = 256
CACHE_LIMIT_BYTES = 1 << 30
CACHE_SLACK_BYTES = 1 << 20


BLAS_PARALLEL_MIN_MACS = 1 << 22
"""Below this many multiply-adds a GEMM runs on one thread: handing a small GEMM
to a second thread costs more than it saves, and on a loaded machine the
hand-off can wait a whole scheduler time slice."""


def nothing() -> None:
    """The call of an op with nothing to do (an empty output)."""


def run_all(calls: Sequence[Callable[[], object]]) -> None:
    """The calls in order: the bound form of an op of several numpy calls."""
    for call in calls:
        call()


def contiguous(x: np.ndarray, calls: list[Callable[[], object]]) -> np.ndarray:
    """`x`, or where it is strided a buffer that `calls` gets a copy into:
    reshaping it then makes a view. A bound call must read the operand's
    bytes of each call, never a copy a reshape made once."""
    if x.flags.c_contiguous:
        return x
    kept = np.empty(x.shape, x.dtype)
    calls.append(partial(np.copyto, kept, x))
    return kept


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


class CpuHost(Runtime, ABC):
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
        if native is None and 0 in value.shape:
            # No bytes to view: numpy refuses a view whose offset lies at or
            # past the end of a buffer (a concat's empty slice at its end).
            native = value.native = np.empty(value.shape, value.dtype)
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

    def write(self, value: DeviceArray, array: np.ndarray) -> None:
        np.copyto(self.array(value), array)

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

    def _bind_elementwise(
        self, fn: Callable[..., Any], out: np.ndarray, *inputs: np.ndarray
    ) -> Callable[[], object]:
        """`fn(*inputs, out=out)` as a call without arguments, cut along one
        axis of `out` over the threads (`_bind_pieces`). Inputs are cut only
        where they have the axis; elsewhere they broadcast as they are, which
        keeps numpy on its fast scalar loops."""
        return self._bind_pieces(lambda o, *xs: partial(fn, *xs, out=o), out, *inputs)

    def _bind_pieces(
        self,
        bind: Callable[..., Callable[[], object]],
        out: np.ndarray,
        *inputs: np.ndarray,
    ) -> Callable[[], object]:
        """`bind(out, *inputs)`'s call, or with `out` cut along one axis over
        the threads, each piece's own call (`bind` of the pieces)."""
        split = self._split(out.shape)
        if split is None:
            return bind(out, *inputs)
        axis, cuts = split

        def piece(x: np.ndarray, lo: int, hi: int) -> np.ndarray:
            own = axis - (out.ndim - x.ndim)
            if own < 0 or x.shape[own] == 1:
                return x
            return x[(slice(None),) * own + (slice(lo, hi),)]

        tasks = [
            bind(piece(out, lo, hi), *(piece(x, lo, hi) for x in inputs))
            for lo, hi in zip(cuts, cuts[1:])
        ]
        return partial(self._parallel, tasks)

    def _matmul(self, x: np.ndarray, w: np.ndarray, o: np.ndarray) -> None:
        """BLAS on one thread; big products cut over our own thread pool.

        OpenBLAS's own threads spin while they wait, which starves our pool on
        a small machine, and it hands small GEMMs to a second thread at a loss.
        """
        self._bind_matmul(x, w, o)()

    def _bind_matmul(
        self, x: np.ndarray, w: np.ndarray, o: np.ndarray
    ) -> Callable[[], object]:
        """`_matmul` as a call without arguments, cut once (bound plans)."""
        if not self._holds_blas:
            _ONE_BLAS_THREAD.acquire()
            self._holds_blas = True
        split = None
        big = o.size * x.shape[-1] >= BLAS_PARALLEL_MIN_MACS
        if big and x.ndim >= 2 and w.ndim >= 2:
            # `big` already weighed the work: cut the rows however few they are.
            split = self._cut(o.shape[:-1])
        if split is None:
            return partial(np.matmul, x, w, out=o)
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
            return partial(
                np.matmul,
                piece(x, lo, hi, True),
                piece(w, lo, hi, False),
                out=o[(slice(None),) * axis + (slice(lo, hi),)],
            )

        tasks = [task(lo, hi) for lo, hi in zip(cuts, cuts[1:])]
        return partial(self._parallel, tasks)

    def close(self) -> None:
        if self._holds_blas:
            _ONE_BLAS_THREAD.release()
            self._holds_blas = False
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
