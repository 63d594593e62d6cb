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

import itertools
import math
import mmap
import os
import queue
import threading
from abc import ABC
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from functools import cache, partial
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from xhip.backend.runtime import Buffer, DeviceArray, Runtime

PARALLEL_MIN_ELEMENTS = 1 << 16
"""Below this, a thread hand-off costs more than it saves. On numba's pool
too (`CpuHost._kernel_threads`), though a launch there costs 1-1.5 us where
the worker spins: in a 12-layer stack at 1 x 128 (load 6-7) its 32 Ki norms
and residual adds ran 4-10% and 10-20% slower on two threads than alone,
its 128 Ki GELU groups 20-27% faster; at 4 x 128 the 128 Ki residual adds
30-37% and norms 5-8% faster (docs/benchmarks.md, "Every threaded step on
one pool")."""

ALIGNMENT = 256
CACHE_LIMIT_BYTES = 1 << 30
CACHE_SLACK_BYTES = 1 << 20


BLAS_PARALLEL_MIN_MACS = 1 << 22
"""Below this many multiply-adds a GEMM runs on one thread: handing a small GEMM
to a second thread costs more than it saves, and on a loaded machine the
hand-off can wait a whole scheduler time slice."""

SMALL_GEMM_ROWS = 128
SMALL_GEMM_MACS = 1_000_000
"""numpy's OpenBLAS runs a product of at most about a million multiply-adds
with its small-matrix kernel, which packs nothing: tall rows times a narrow
weight (K x N up to `SMALL_GEMM_MACS / SMALL_GEMM_ROWS`, as 64 x 64) run
about 1.3x faster as a batch of 128-row products than as one tall GEMM
(measured 57 -> 74-86 GMAC/s at 1024-8192 rows; from 64 x 256 on the tall
GEMM wins)."""

PACKED_CACHE_BYTES = 1 << 30
"""The most bytes of packed constant weights a runtime keeps for later binds."""

POOL_GEMM_MIN_MACS = 1 << 19
"""From this many multiply-adds a GEMM that the numba kernels take runs
threaded on numba's pool (`numba_pool`: one launch, 1-1.5 us, where a
hand-off to our Python threads costs tens): the seed's projections at 1 x
128 (128 x 64 x 64, 3 x 0.5 Mi, one launch once merged) on a 2-core Zen 4,
whose cores give half a Xeon's float32 multiply-adds a cycle. The seed at 1
x 128, best of 1000 calls, alternating fresh processes: 86 us with its GEMMs
and attention on one thread, 65-78 with both on the pool (ORT 61-63)."""

KERNEL_GEMM_MACS = 1 << 16
KERNEL_GEMM_ROWS = 4
"""Fewest multiply-adds and rows of a GEMM by a constant weight that the
numba kernels take (`cpu_kernels_gemm`). One thread, against OpenBLAS: 1 x
768 x 768 0.74x (its GEMV), 4 x 768 x 768 2.9x, 12 x 768 x 768 2.2x, 16 x
32 x 32 0.71x, 6 x 64 x 64 1.1x, 128 x 128 x 128 1.36x. Their panels are
64 columns wide: n of 48 ran 0.79x, 65 0.69x, 32 0.62x (1024 x 256 x n),
so at most an eighth of the panels' columns may be padding."""


@cache
def wide_simd() -> bool:
    """Whether numba compiles for a CPU with AVX-512F (its own settings
    first): the numba kernels' 24 vector accumulators fit in registers only
    there. Elsewhere OpenBLAS is faster (at 1 x 2048 on one thread with
    NUMBA_CPU_NAME=generic: 56 ms against numpy's 12)."""
    features = os.environ.get("NUMBA_CPU_FEATURES")
    if features is not None:
        return "+avx512f" in features.split(",")
    if os.environ.get("NUMBA_CPU_NAME", "host") != "host":
        return False
    from llvmlite import binding  # lazy: numba's LLVM, asked once

    return bool(binding.get_host_cpu_features().get("avx512f", False))


POOL_SETTING = "XHIP_CPU_POOL"
"""The environment variable that sets where the numba kernels' shares run:
`python` holds them to the runtime's Python threads (`_Workers`) even where
numba's pool would take them (`numba_pool`)."""


_PID = os.getpid()
"""The process that imported this module (`numba_pool`)."""


def numba_pool() -> bool:
    """Whether the numba kernels' shares of a step run as one launch on
    numba's own threads (a `prange` over them) rather than as a Python call
    each on `_Workers`: where numba's layer is OpenMP or TBB, whose workers
    spin a while between launches (about 2 us a launch of two threads,
    against 50-100 us to wake a sleeping Python thread and wait for it).
    numba's `workqueue` layer sleeps (50-130 us a launch) and aborts when
    two threads launch at once: there, with `POOL_SETTING` = python, and in
    a forked child (GNU OpenMP aborts one whose parent ran it), the Python
    threads."""
    return _numba_pool(os.getpid())


@cache
def _numba_pool(pid: int) -> bool:
    """`numba_pool`, asked once a process."""
    if pid != _PID or os.environ.get(POOL_SETTING, "").strip().lower() == "python":
        return False
    # lazy: numba (0.2 s), asked only by a runtime with numba kernels and threads
    from numba.np.ufunc import parallel

    # lazy: sets numba's spin (`SPIN`) before its pool loads, whoever asks first
    from xhip.backend import cpu_kernels_pool  # noqa: F401

    parallel._launch_threads()  # pyright: ignore[reportPrivateUsage]
    return parallel.threading_layer() in ("omp", "tbb")


def _immutable(x: np.ndarray) -> bool:
    """Whether `x` views a bytes object or a mapped file (the constants
    blob): bytes that stay as they are while `x` lives. A read-only view of
    a writable array (a caller's input) is packed at each bind instead."""
    owner: object = x
    while isinstance(owner, np.ndarray) and owner.base is not None:
        owner = owner.base
    if isinstance(owner, memoryview):
        owner = owner.obj
    return isinstance(owner, (bytes, mmap.mmap))


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


class _Share:
    """One `_parallel` call's pieces, each taken by whichever thread is free
    first, the caller included; the caller waits only for pieces another
    thread took. A worker that wakes late (a loaded machine) finds nothing
    left and costs nothing: the caller has done its pieces meanwhile.

    Handing out a piece (`next` on a list iterator) and counting one done
    (`next` on an `itertools.count`) are single C calls, atomic under the GIL.
    """

    __slots__ = ("_pieces", "_finished", "_total", "_done", "_error")

    def __init__(self, tasks: Sequence[Callable[[], object]]):
        self._pieces: Iterator[Callable[[], object]] = iter(tasks)
        self._finished = itertools.count(1)
        self._total = len(tasks)
        self._done = threading.Lock()
        """Held until the last piece is done; whoever finishes it releases it."""
        self._done.acquire()
        self._error: BaseException | None = None

    def run(self) -> None:
        """Takes and runs pieces until none is left."""
        for task in self._pieces:
            try:
                task()
            except BaseException as error:  # raised in the caller, by `wait`
                self._error = self._error or error
            if next(self._finished) == self._total:
                self._done.release()

    def wait(self) -> None:
        """The caller's part: pieces until none is left, then the others' end."""
        self.run()
        self._done.acquire()
        if self._error is not None:
            raise self._error


class _Workers:
    """Threads that each run the `_Share.run` handed to them; no futures, so a
    hand-off is one queue put and the wake-up of a waiting thread."""

    def __init__(self, count: int):
        self._queue: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._work, name=f"xhip-cpu-{i}", daemon=True)
            for i in range(count)
        ]
        for thread in self._threads:
            thread.start()

    def _work(self) -> None:
        while (run := self._queue.get()) is not None:
            run()

    def share(self, tasks: Sequence[Callable[[], object]]) -> None:
        """Runs the tasks on the caller and up to `count` woken threads."""
        share = _Share(tasks)
        for _ in range(min(len(self._threads), len(tasks) - 1)):
            self._queue.put(share.run)
        share.wait()

    def close(self) -> None:
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join()


class CpuHost(Runtime, ABC):
    """numpy on the host; `threads` workers for the memory-bound ops."""

    name = "cpu"

    def __init__(self, *, debug: bool = False, threads: int | None = None):
        super().__init__(debug)
        self.threads = max(1, threads or min(os.cpu_count() or 1, 8))
        self._pool: _Workers | None = None
        self._cache: list[np.ndarray] = []
        """Freed blocks, oldest first, for reuse by later allocations."""
        self._cached_bytes = 0
        self._holds_blas = False
        self._packed: OrderedDict[tuple[Any, ...], tuple[np.ndarray, np.ndarray]]
        self._packed = OrderedDict()
        """Weights packed for the numba GEMMs whose bytes nobody can change
        (`_immutable`: the model's constants), by address, shape and strides,
        each beside the weight it holds alive (so that its address is not
        reused): every bound plan of a model shares them. At most
        `PACKED_CACHE_BYTES`, least recently bound out first (a bound plan
        keeps its own reference: a model released by a specializer's cache
        no longer holds its weights here forever)."""

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
        """Runs the tasks over this thread and the workers, each task taken by
        the first thread free (`_Share`); none for an empty array."""
        if len(tasks) <= 1:
            for task in tasks:
                task()
            return
        if self._pool is None:
            self._pool = _Workers(self.threads - 1)
        self._pool.share(tasks)

    def _kernel_threads(self, size: int) -> tuple[int, bool]:
        """The threads a numba row or elementwise kernel's step of `size`
        elements runs on (from `PARALLEL_MIN_ELEMENTS` on, else the
        caller's alone), and whether as one launch on numba's pool
        (`numba_pool`) rather than a call a share on `_Workers`."""
        if self.threads == 1 or size < PARALLEL_MIN_ELEMENTS:
            return 1, False
        return self.threads, numba_pool()

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
        self._hold_one_blas_thread()
        big = o.size * x.shape[-1] >= BLAS_PARALLEL_MIN_MACS
        if x.ndim == 2 and w.ndim == 2:
            pieces = self.threads if big else 1
            kernel = self._bind_kernel_gemm(x, w, o, None, pieces)
            return kernel or self._bind_rows(x, w, o, pieces)
        split = None
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

    def _bind_matmul_bias(
        self, x: np.ndarray, w: np.ndarray, o: np.ndarray, bias: np.ndarray
    ) -> Callable[[], object] | None:
        """`x @ w + bias` (a row of n) in one pass, the bias added by the numba
        GEMM as it writes each block (`_bind_kernel_gemm`); None where that
        kernel does not take the product."""
        n = o.shape[-1]
        if (
            x.ndim != 2
            or w.ndim != 2
            or bias.dtype != np.float32
            or bias.shape not in ((n,), (1, n))
            or not bias.flags.c_contiguous  # read at each call, never copied
        ):
            return None
        self._hold_one_blas_thread()
        big = o.size * x.shape[-1] >= BLAS_PARALLEL_MIN_MACS
        pieces = self.threads if big else 1
        return self._bind_kernel_gemm(x, w, o, bias.reshape(-1), pieces)

    def _bind_kernel_gemm(
        self,
        x: np.ndarray,
        w: np.ndarray,
        o: np.ndarray,
        bias: np.ndarray | None,
        pieces: int,
    ) -> Callable[[], object] | None:
        """A 2-D `x @ w (+ bias)` by the numba kernels (`cpu_kernels_gemm`),
        w packed here, once: where w is a constant (read-only memory: the
        same bytes every call), all float32, on AVX-512 (`wide_simd`), the
        product big enough (`KERNEL_GEMM_MACS`, `KERNEL_GEMM_ROWS`), x's and
        o's columns of unit stride, little padding in the panels. None where
        not: OpenBLAS's."""
        (rows, k), n = x.shape, w.shape[1]
        f4 = np.dtype(np.float32)
        if (
            w.flags.writeable
            or not x.dtype == w.dtype == o.dtype == f4
            or rows < KERNEL_GEMM_ROWS
            or rows * n * k < KERNEL_GEMM_MACS
            or n % 64 % 16 and n * 8 < -(-n // 64) * 64 * 7  # padding: at most 1/8
            # of the panels, but for a last panel of 16, 32 or 48 (a narrow tile)
            or x.strides[1] != 4
            or o.strides[1] != 4
            or x.strides[0] % 4
            or o.strides[0] % 4
            or not wide_simd()
        ):
            return None
        from xhip.backend import cpu_kernels_gemm as g  # lazy: numba, large only

        key = (w.__array_interface__["data"][0], w.shape, w.strides)
        if key in self._packed:
            wp = self._packed[key][1]
            self._packed.move_to_end(key)
        else:
            wp = g.packed(w)
            if _immutable(w):
                self._packed[key] = (w, wp)
                held = sum(packed.nbytes for _, packed in self._packed.values())
                while held > PACKED_CACHE_BYTES and len(self._packed) > 1:
                    held -= self._packed.popitem(last=False)[1][1].nbytes
        if pieces == 1 and rows * n * k >= POOL_GEMM_MIN_MACS and numba_pool():
            pieces = self.threads
        # Short and wide: the panels cut, as `_bind_rows` cuts the columns.
        by_columns = 1 < pieces and rows < SMALL_GEMM_ROWS * pieces <= n
        pool = pieces > 1 and numba_pool()
        calls = g.bind(x, wp, n, o, bias, pieces, by_columns, pool)
        return calls[0] if len(calls) == 1 else partial(self._parallel, calls)

    def _bind_rows(
        self, x: np.ndarray, w: np.ndarray, o: np.ndarray, pieces: int
    ) -> Callable[[], object]:
        """A 2-D `x @ w` into `o`, its rows cut into `pieces` (at most one a
        row), each a batch of `SMALL_GEMM_ROWS`-row products where the weight
        is narrow enough for OpenBLAS's small-matrix kernel. Short and wide
        (pieces of rows under `SMALL_GEMM_ROWS`, of columns not): its columns
        cut instead, in multiples of 16 (128 x 256 @ 256 x 1024: 72 GMAC/s a
        half of the columns, 65 a half of the rows)."""
        (rows, k), n = x.shape, w.shape[1]
        if 1 < pieces and rows < SMALL_GEMM_ROWS * pieces <= n:
            edges = [n * i // pieces // 16 * 16 for i in range(pieces)] + [n]
            columns = [
                partial(np.matmul, x, w[:, lo:hi], out=o[:, lo:hi])
                for lo, hi in zip(edges, edges[1:])
                if hi > lo
            ]
            return partial(self._parallel, columns)
        group = 1
        if (
            k * n * SMALL_GEMM_ROWS <= SMALL_GEMM_MACS
            and rows >= 2 * SMALL_GEMM_ROWS
            and x.flags.c_contiguous
            and o.flags.c_contiguous
        ):
            group = SMALL_GEMM_ROWS
        units = rows // group
        pieces = max(1, min(pieces, units))
        cuts = [units * i // pieces * group for i in range(pieces)] + [rows]

        def task(lo: int, hi: int) -> Callable[[], object]:
            whole = lo + (hi - lo) // group * group
            if group == 1 or whole == lo:
                return partial(np.matmul, x[lo:hi], w, out=o[lo:hi])
            count = (whole - lo) // group  # not -1: k or n may be 0
            batched = partial(
                np.matmul,
                x[lo:whole].reshape(count, group, k),
                w,
                out=o[lo:whole].reshape(count, group, n),
            )
            if whole == hi:
                return batched
            rest = partial(np.matmul, x[whole:hi], w, out=o[whole:hi])
            return partial(run_all, [batched, rest])

        tasks = [task(lo, hi) for lo, hi in zip(cuts, cuts[1:])]
        return tasks[0] if len(tasks) == 1 else partial(self._parallel, tasks)

    def _hold_one_blas_thread(self) -> None:
        """BLAS at one thread while this runtime is open: the GEMMs of every
        op (matmul, conv, fused attention) run on our threads, cut by us."""
        if not self._holds_blas:
            _ONE_BLAS_THREAD.acquire()
            self._holds_blas = True

    def after_fork(self) -> None:
        """The parent's Python workers do not exist in a forked child: its
        threaded steps would run on the caller alone, queueing shares no
        thread takes. A new pool is started at the next threaded step."""
        self._pool = None

    def close(self) -> None:
        self._packed.clear()
        if self._holds_blas:
            _ONE_BLAS_THREAD.release()
            self._holds_blas = False
        if self._pool is not None:
            self._pool.close()
            self._pool = None
