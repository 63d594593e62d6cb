"""numba's pool for the row kernels and the fused loops (issue 25).

Where `cpu_host.numba_pool` holds, a threaded norm runs as one `prange`
launch of `norm_pool` rather than a Python thread woken a share (tens to
hundreds of us each, while numba's OpenMP threads fall asleep between the
GEMMs' launches): each of numba's threads takes the next share of rows
(`take`) until none is left, so that a core the machine holds back does
fewer of them, and `team` and `review` send a step whose thread comes late
to the caller alone a while. The fused elementwise loops have the same
launch in their generated source (`cpu_kernels_fused.source`), made by
`shares` and `state` here.

The launch's parts (`SPIN`, `use_threads`, `take`, `team`, `review`,
`pool_state` and their constants) live here, for every pool kernel (the
attention's, the GEMMs', the convolutions'): this module compiles nothing
until a launch, where `cpu_kernels_attention` compiles a dozen kernels at
import (15 s with an empty cache, 0.3 s from it), which a model of norms
and elementwise steps alone should not pay.

Cache: keyed on this file and `cpu_kernels_rows` (`norm_rows`), whose code
the kernels compile in (`numba_cache.key_on`).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from llvmlite import ir
from numba import config, njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.ufunc.parallel import _launch_threads  # pyright: ignore[reportPrivateUsage]

from xhip.backend import cpu_kernels_rows, numba_cache
from xhip.backend.cpu_kernels_rows import norm_rows

numba_cache.key_on(__file__, [cpu_kernels_rows.__file__])

SPIN = 3000
"""GNU OpenMP's spin count (`GOMP_SPINCOUNT`) for numba's pool, unless the
environment sets one or `OMP_WAIT_POLICY`: how long a thread spins, at a
barrier or waiting for the next launch, before it sleeps. Its default
(300,000) holds a core for milliseconds, which on a busy machine starves
the very thread the spinner waits for: 8 x 512 at load 4, median 38 ms a
call against 3.0 best; 3000 still bridges the steps of a plan (8 x 128:
0.44 ms against 0.42), and `OMP_WAIT_POLICY=passive` (no spin) costs every
launch a wake-up (8 x 128 0.66 ms). Read once, when numba first loads its
OpenMP layer (`use_threads`): set here, before the parallel kernels load."""
if "OMP_WAIT_POLICY" not in os.environ:
    os.environ.setdefault("GOMP_SPINCOUNT", str(SPIN))

MAX_THREADS: int = config.NUMBA_NUM_THREADS  # pyright: ignore[reportAttributeAccessIssue]
"""The most threads a parallel kernel may ask numba for."""
SHARES = 4
"""Shares a thread: more balance on a busy machine."""
LATE, ALONE = 2, 32
"""A pool call whose threads did not all take a share (one came late: the
machine busy) `LATE` calls running, and the next `ALONE` calls of that step
run on the caller alone: a launch waits for every thread of its team to
join, so where the cores are taken a late thread costs more than it saves
(8 x 128's GEMMs 77-86 us on two threads against 22-25, and 45 alone, at
load 5). Then two threads again, to see."""
WARM = 4
"""A step's first calls whose late threads `review` does not count: the
first launch creates numba's threads, the next wake them from their sleep
through the compiling. Counted, at load 3.2-3.6 they sent every step of a
fresh process to the caller alone for its first 34 calls: all that a
15-call benchmark times."""


@intrinsic
def use_threads(typingctx: Any, n: Any) -> Any:
    """`numba.set_num_threads(n)` in a parallel kernel, n in [1,
    `MAX_THREADS`] (unchecked), by the threading layer's symbol: numba's
    own jitted form calls through a ctypes pointer, which keeps a kernel out
    of the disk cache."""
    _launch_threads()  # the layer's symbols, for the linker

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i32]), "set_num_threads"
        )
        builder.call(fn, [builder.trunc(args[0], i32)])
        return context.get_dummy_value()

    return types.void(types.intp), codegen


@intrinsic
def take(typingctx: Any, counter: Any, i: Any) -> Any:
    """counter[i] += 1, atomically; its value before: the next share for
    the thread that asks."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array = context.make_array(signature.args[0])(context, builder, args[0])
        at = builder.gep(array.data, [args[1]])
        one = ir.Constant(ir.IntType(64), 1)
        return builder.atomic_rmw("add", at, one, "monotonic")

    return types.int64(types.int64[::1], types.intp), codegen


@njit(cache=True, nogil=True, inline="always")
def team(state: Any, threads: int) -> int:
    """The threads of this call of a step (`state`: `pool_state`), its
    shares' counts cleared: one while the step runs alone."""
    state[0], state[1] = 0, 0
    if state[2] > 0:
        state[2] -= 1
        threads = 1
    for j in range(threads):  # a loop: a slice would be a parallel loop
        state[4 + j] = 0
    use_threads(threads)  # pyright: ignore[reportCallIssue]
    return threads


@njit(cache=True, nogil=True, inline="always")
def review(state: Any, threads: int) -> None:
    """After a call: a thread that took no share counts towards running
    alone (`LATE`, `ALONE`), but for the step's first calls (`WARM`)."""
    if state[2] < 0:
        state[2] += 1
        return
    if threads > 1:
        for j in range(threads):
            if state[4 + j] == 0:
                state[3] += 1
                if state[3] >= LATE:
                    state[2], state[3] = ALONE, 0
                return
        state[3] = 0


def pool_state(threads: int, warm: int = 0) -> np.ndarray:
    """A step's pool state: two share counters (`take`), calls left alone
    (below zero: calls of `warm` still to come), late calls running, and
    the shares each thread took."""
    state = np.zeros(4 + threads, np.int64)
    state[2] = -warm
    return state


def shares(rows: int, threads: int) -> np.ndarray:
    """Cut points of `rows` into `SHARES` shares a thread (at most one a row)."""
    count = max(1, min(rows, threads * SHARES))
    return np.array([rows * i // count for i in range(count + 1)], np.int64)


def state(threads: int) -> np.ndarray:
    """A bound step's pool state for at most `MAX_THREADS`, its first calls
    `WARM`."""
    return pool_state(min(threads, MAX_THREADS), WARM)


@njit(cache=True, nogil=True, error_model="numpy", parallel=True)
def norm_pool(
    cuts: Any, x: Any, scale: Any, bias: Any, epsilon: Any, centre: bool,
    out: Any, stats: bool, mean: Any, inv_std: Any, state: Any,
) -> None:  # fmt: skip
    """`norm_rows` of rows [cuts[i], cuts[i + 1]) for each share i on
    numba's threads, one launch a step (see module doc)."""
    threads = team(state, state.shape[0] - 4)  # pyright: ignore[reportCallIssue]
    for t in prange(threads):
        i = take(state, 0)  # pyright: ignore[reportCallIssue]
        while i < cuts.shape[0] - 1:
            norm_rows(
                cuts[i], cuts[i + 1], x, scale, bias, epsilon, centre, out, stats,
                mean, inv_std,
            )  # fmt: skip
            state[4 + t] += 1
            i = take(state, 0)  # pyright: ignore[reportCallIssue]
    review(state, threads)  # pyright: ignore[reportCallIssue]
