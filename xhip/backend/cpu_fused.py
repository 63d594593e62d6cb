"""The CPU runtime's `hip.fused_elementwise`: a fused group in cache-sized blocks.

`CpuFused` is mixed into `CpuRuntime` (cpu.py). The output is cut into blocks
of about `BLOCK_ELEMENTS`; for each block every step of the body runs its
op's formula (`cpu_formula.bind_formula`, the unfused op's own calls) into a
scratch buffer that stays in cache, the last one straight into the output's
block. So each input is read once and the output written once, and every step
computes and rounds as the unfused op did: fused and unfused agree bit for
bit. The blocks are shared out over the runtime's threads. All of it is bound
once (`bind_fused_elementwise`): a call is the list of numpy calls left.

From `NUMBA_MIN_ELEMENTS` on, a float group runs instead as one numba loop
(`cpu_kernels_fused`), its rows shared out over the threads (one launch on
numba's pool where it takes them: `CpuHost._kernel_threads`): + - * / still
round as numpy's, exp and erf are float32's within 1 and 0.99 ulp
(`cpu_kernels_rows`), not numpy's (float64 erf). A large lone op of
`EXACT_KINDS` (an Add, a Relu) takes the same loop where numba's pool would
run it, and gives numpy's bits (`_bind_numba_op`); a lone Where from
`SMALL_NUMBA_MIN_ELEMENTS` on, on any thread (`SLOW_SMALL`).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from xhip.backend.cpu_formula import Calls, bind_formula, quietly
from xhip.backend.cpu_host import PARALLEL_MIN_ELEMENTS, CpuHost
from xhip.backend.runtime import DA
from xhip.dialects.hip import FusedAttributes, Step
from xhip.dialects.hip.fused import KINDS

BLOCK_ELEMENTS = 1 << 15
"""Elements per block: a float32 block and a few scratch ones fit in L2."""
NUMBA_MIN_ELEMENTS = 1 << 16
"""From this size on a float group runs as one numba loop
(`cpu_kernels_fused`; also the thresholds of `cpu_kernels_rows`' softmax and
norms). Below it numpy, so small models never import numba: its import and
first dispatch cost about 0.3 s once per process on a quiet machine (1 s at
load 8), more than the loops save at small sizes."""

DTYPES: dict[str, np.dtype[Any]] = {
    name: np.dtype(t)
    for name, t in {
        "f16": np.float16,
        "f32": np.float32,
        "f64": np.float64,
        "i1": np.bool_,
        "i8": np.int8,
        "i16": np.int16,
        "i32": np.int32,
        "i64": np.int64,
        "ui8": np.uint8,
        "ui16": np.uint16,
        "ui32": np.uint32,
        "ui64": np.uint64,
    }.items()
}
"""A step's element type (as MLIR prints it) as a numpy dtype."""


def step_calls(step: Step, args: Sequence[np.ndarray], into: np.ndarray) -> Calls:
    """The calls of one step into `into`: its op's formula bound to `args`
    (cpu_formula.py), to run inside `quietly`."""
    if step.kind == "cast":  # C's conversions, as `hip.cast`
        return [partial(np.copyto, into, args[0], casting="unsafe")]
    if step.kind == "copy":
        return [partial(np.copyto, into, args[0])]
    op = KINDS[step.kind]
    return bind_formula(op.FORMULA, op.arity(), args, into, step.params)


def bind_block(
    steps: Sequence[Step],
    values: Sequence[np.ndarray],
    out: np.ndarray,
    scratch: Sequence[np.ndarray] | None,
) -> Calls:
    """The calls of every step over one block: each step but the last into
    its part of `scratch` (flat, one per step; None: new arrays), the last
    into `out`."""
    values = list(values)
    calls: Calls = []
    for k, step in enumerate(steps):
        args = [values[i] for i in step.args]
        if k == len(steps) - 1:
            into = out
        else:
            shape = np.broadcast_shapes(*(a.shape for a in args))
            dtype = DTYPES[step.type]
            into = (
                np.empty(shape, dtype)
                if scratch is None
                else scratch[k][: math.prod(shape)].reshape(shape)
            )
        calls += step_calls(step, args, into)
        values.append(into)
    return calls


def blocks(shape: tuple[int, ...], size: int) -> list[tuple[int | slice, ...]]:
    """Keys cutting an array of `shape` into blocks of at most about `size`
    elements: ints on the outer axes, a slice on one axis, whole trailing axes."""
    if not shape:
        return [()]
    axis = next(a for a in range(len(shape)) if math.prod(shape[a + 1 :]) <= size)
    rows = max(1, size // max(1, math.prod(shape[axis + 1 :])))
    cuts = [
        slice(lo, min(lo + rows, shape[axis])) for lo in range(0, shape[axis], rows)
    ]
    return [(*outer, cut) for outer in np.ndindex(*shape[:axis]) for cut in cuts]


def piece(x: np.ndarray, key: tuple[int | slice, ...], rank: int) -> np.ndarray:
    """The part of `x`, broadcast to an array of `rank` dims, that the block
    `key` of that array reads."""
    if not key:
        return x  # a 0-D array in one block
    lead = rank - x.ndim
    index: list[int | slice] = []
    for d, k in enumerate(key):
        own = d - lead
        if own < 0:
            continue
        if x.shape[own] == 1:
            index.append(0 if isinstance(k, int) else slice(0, 1))
        else:
            index.append(k)
    return x[tuple(index)]


EXACT_KINDS = frozenset(
    {"add", "sub", "mul", "div", "neg", "abs", "relu", "max", "min", "copy", "where"}
)
"""Kinds whose numba loop rounds as numpy does, bit for bit."""
SMALL_NUMBA_MIN_ELEMENTS = 1 << 14
"""From this size on, a float group of `EXACT_KINDS` alone runs as a numba
loop once numba is loaded anyway (by a large op of the same model, mostly):
a transformer's bias + residual at 128 x 256, 4 us against numpy's 17 on one
thread. The results are numpy's either way, so only the speed depends on
what the process loaded before."""

SLOW_ON_NUMPY = frozenset({"erf"})
"""Elementwise kinds whose numpy form is many passes (erf: Cephes in
float64 over masked parts): alone, a large one runs as a one-step loop."""
SLOW_SMALL = frozenset({"where"})
"""Exact kinds whose numpy form is slow even small: alone, one of
`SMALL_NUMBA_MIN_ELEMENTS` and more runs as a one-step loop once numba is
loaded, on the caller below `NUMBA_MIN_ELEMENTS` (np.where branches per
element: GPT-2's mask at 8 x 64, 32 Ki floats, 28 us against 3)."""


def _small_numba(steps: Sequence[Step], size: int) -> bool:
    """Whether a group below `NUMBA_MIN_ELEMENTS` runs as a numba loop
    (`SMALL_NUMBA_MIN_ELEMENTS`)."""
    return (
        size >= SMALL_NUMBA_MIN_ELEMENTS
        and "numba" in sys.modules
        and all(step.kind in EXACT_KINDS for step in steps)
    )


class CpuFused(CpuHost):
    def _bind_numba_op(
        self, kind: str, params: Sequence[float], arrays: Sequence[np.ndarray],
        target: np.ndarray,
    ) -> Callable[[], object] | None:  # fmt: skip
        """A large lone op as a one-step numba loop (`cpu_kernels_fused`):
        one of `SLOW_ON_NUMPY`, or of `EXACT_KINDS` (numpy's bits) where its
        threads are numba's pool (`_kernel_threads`: one launch, not a
        Python thread woken a share), or of `SLOW_SMALL` from its smaller
        size; None where numpy keeps it."""
        size = target.size
        slow = kind in SLOW_ON_NUMPY
        small = kind in SLOW_SMALL and _small_numba([], size)
        if not small and (
            not (slow or kind in EXACT_KINDS) or size < NUMBA_MIN_ELEMENTS
        ):
            return None
        dtype = next((n for n, d in DTYPES.items() if d == target.dtype), "")
        if dtype not in ("f32", "f64"):
            return None
        for x in arrays:
            same = x.ctypes.data == target.ctypes.data and x.strides == target.strides
            if np.may_share_memory(x, target) and not (
                same and x.shape == target.shape
            ):
                return None
        from xhip.backend import cpu_kernels_fused  # lazy: numba, large ops only

        threads, pool = self._kernel_threads(size)
        if not (slow or small) and not (pool and threads > 1):
            return None
        step = Step(kind, tuple(range(len(arrays))), tuple(params), dtype)
        loops = cpu_kernels_fused.bind_kernel([step], arrays, target, threads, pool)
        if loops is None:
            return None
        return loops[0] if len(loops) == 1 else partial(self._parallel, loops)

    def fused_elementwise(
        self, inputs: Sequence[DA], out: DA, attrs: FusedAttributes
    ) -> None:
        """The body's steps over `inputs` (broadcast to `out`), block by block."""
        self.bind_fused_elementwise(inputs, out, attrs)()

    def bind_fused_elementwise(
        self, inputs: Sequence[DA], out: DA, attrs: FusedAttributes
    ) -> Callable[[], object]:
        target = self.array(out)
        arrays = [self.array(x) for x in inputs]
        first: Calls = []
        for i, x in enumerate(arrays):
            same = (
                x.ctypes.data == target.ctypes.data
                and x.shape == target.shape
                and x.strides == target.strides
            )
            if not same and np.may_share_memory(x, target):
                arrays[i] = np.empty(x.shape, x.dtype)
                first.append(partial(np.copyto, arrays[i], x))  # before it is written
        steps = attrs.steps
        if target.size >= NUMBA_MIN_ELEMENTS or _small_numba(steps, target.size):
            from xhip.backend import cpu_kernels_fused  # lazy: numba, large groups only

            threads, pool = self._kernel_threads(target.size)
            loops = cpu_kernels_fused.bind_kernel(steps, arrays, target, threads, pool)
            if loops is not None:
                run = loops[0] if len(loops) == 1 else partial(self._parallel, loops)
                return quietly([*first, run]) if first else run
        if target.size <= BLOCK_ELEMENTS:  # one block: the whole arrays
            return quietly(first + bind_block(steps, arrays, target, None))
        rank = target.ndim
        keys = blocks(target.shape, BLOCK_ELEMENTS)
        threads = self.threads if target.size >= PARALLEL_MIN_ELEMENTS else 1
        threads = min(threads, len(keys))
        cuts = [len(keys) * t // threads for t in range(threads + 1)]
        tasks: Calls = []
        for lo, hi in zip(cuts, cuts[1:]):
            scratch = [np.empty(BLOCK_ELEMENTS, DTYPES[s.type]) for s in steps[:-1]]
            calls: Calls = []
            for key in keys[lo:hi]:
                pieces = [piece(x, key, rank) for x in arrays]
                calls += bind_block(
                    steps, pieces, target[key] if key else target, scratch
                )
            tasks.append(quietly(calls))
        run = partial(self._parallel, tasks)
        return quietly([*first, run]) if first else run
