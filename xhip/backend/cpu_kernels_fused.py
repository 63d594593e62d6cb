"""A fused elementwise group (`hip.fused_elementwise`) as one numba loop.

`cpu_fused` hands a large float group here: its steps become the body of one
loop over the output, written as Python source per group (`source`), so each
element is read once, computed in registers in the op's own precision
(float32 math for float32: `exp`, `erf` and `tanh` are `cpu_kernels_rows`'s,
within 1, 0.99 and 1.29 ulp of float64; +, -, *, / round as numpy's; a pow
by a one-element 2 or 3 is numpy's products, any other libm's `pow`), and
written once. The loop runs over rows `[lo, hi)` of the output seen as
(rows, cols), so the runtime's threads each take a range of rows (`nogil`);
where numba's pool takes the shares (`cpu_host.numba_pool`), `kernel_pool`
runs them all in one launch on its threads, each taking the next share
(`take`), as `cpu_kernels_pool.norm_pool`.

Each operand is read as what it is under broadcasting: a scalar (read once),
a row (`a[j]`: a bias over the last axis), a column (`a[i]`) or a full
(rows, cols) view; a full view that is the output itself (a group written in
place) is read through the output (`out[i, j]`): LLVM vectorizes a loop only
after a run-time check that its loads and stores do not overlap, and a loop
in place fails it and runs scalar, 8x slower. A bool input read only as a
`where`'s condition is read as a truth value. A group with another
primitive, dtype or broadcast stays on numpy (`bind_kernel` returns None).

On disk: the source goes into a file named by its hash under
`kernel_dir()` and numba caches its compiled code beside it (`cache=True`),
so a group is compiled once per machine, not once per process. The source
carries the digest of the files whose code it compiles in (`_MATH_DIGEST`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from functools import cache, partial
from pathlib import Path
from types import ModuleType

import numpy as np

from xhip.backend.cpu_kernels_pool import shares, state
from xhip.dialects.formula import Arg, Call, Const, Expr, Param
from xhip.dialects.hip import Step
from xhip.dialects.hip.fused import KINDS

_MATH_DIGEST = hashlib.sha1(
    b"".join(
        (Path(__file__).parent / name).read_bytes()
        for name in ("cpu_kernels_rows.py", "cpu_kernels_pool.py")
    )
).hexdigest()[:16]
"""Part of each loop's source, so its file (and numba's cache of it) is new
when `exp32` or `erf32` change, or the pool's `take`, `team` and `review`."""

FLOATS = {"f32": np.dtype(np.float32), "f64": np.dtype(np.float64)}

_SCALAR: dict[str, str] = {
    "add": "({0} + {1})",
    "sub": "({0} - {1})",
    "mul": "({0} * {1})",
    "div": "({0} / {1})",
    "neg": "(-{0})",
    "abs": "abs({0})",
    "sqrt": "math.sqrt({0})",
    "tanh": "math.tanh({0})",
    "log": "math.log({0})",
    "sin": "math.sin({0})",
    "cos": "math.cos({0})",
    "floor": "np.floor({0})",
    "ceil": "np.ceil({0})",
    "min": "fmin({0}, {1})",
    "max": "fmax({0}, {1})",
    "relu": "fmax({0}, ZERO)",
    "select": "({1} if {0} else {2})",
}
_WIDE = {"exp": "math.exp({0})", "erf": "math.erf({0})"}
_NARROW = {"exp": "exp32({0})", "erf": "erf32({0})", "tanh": "tanh32({0})"}
_POW = "({0} ** {1})"
"""x ** y: libm's `powf` (`pow`) a call per element; within an ulp of
`np.power`, not its bits (about 20% differ in the last bit at y = 2.5)."""
_POW_SMALL = "(({0} * {0}) if {1} == TWO else (({0} * {0}) * {0}))"
"""x ** y for a one-element y that is 2 or 3 (`source`'s fast loop): the
products `elementwise._power` (and ONNX Runtime) compute, the same bits."""


def kernel_dir() -> Path:
    """Where the groups' sources (and numba's cache of them) live:
    `$XHIP_KERNEL_CACHE`, else `$NUMBA_CACHE_DIR/xhip`, else a per-user
    folder under the system's temp folder."""
    env = os.environ.get("XHIP_KERNEL_CACHE")
    if env:
        return Path(env)
    numba_dir = os.environ.get("NUMBA_CACHE_DIR")
    if numba_dir:
        return Path(numba_dir) / "xhip"
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"xhip-kernels-{uid}"


def _expr(
    node: Expr, args: Sequence[str], params: Sequence[float], names: Sequence[str],
    table: dict[str, str], constants: list[float],
) -> str | None:  # fmt: skip
    """`node` as a scalar expression of `args`; None for a primitive with no
    scalar form here."""
    if isinstance(node, Arg):
        return args[node.index]
    if isinstance(node, Const | Param):
        value = (
            node.value if isinstance(node, Const) else params[names.index(node.name)]
        )
        constants.append(float(value))
        return f"K{len(constants) - 1}"
    assert isinstance(node, Call)
    form = table.get(node.fn)
    if form is None:
        return None
    parts = [_expr(a, args, params, names, table, constants) for a in node.args]
    if any(p is None for p in parts):
        return None
    return form.format(*parts)


def source(steps: Sequence[Step], kinds: Sequence[str], dtype: str) -> str | None:
    """The module of one group: `kernel(lo, hi, out, *inputs)` and its
    shares on numba's pool, `kernel_pool(cuts, state, out, *inputs)`; `kinds` says
    how each input is read (`s`calar, `r`ow, `c`olumn, `f`ull, `o`: the
    full view that `out` is); None if a step has no scalar form. A pow by
    a one-element input has two loops, `kernel` choosing at each call:
    where every such exponent is 2 or 3, products (`_POW_SMALL`: no libm
    call, so the loop vectorizes), else libm's `pow`."""
    table = _SCALAR | (_NARROW if dtype == "f32" else _WIDE) | {"pow": _POW}
    constants: list[float] = []
    n = len(kinds)
    values = [f"x{k}" for k in range(n)]
    body: list[str] = []
    small: list[str] = []
    """The body of the loop for exponents of 2 or 3 (only with such a pow)."""
    exponents: list[int] = []
    for k, step in enumerate(steps):
        args = [values[a] for a in step.args]
        if step.type != dtype:
            return None
        if step.kind == "copy":
            text = args[0]
        elif step.kind in KINDS:
            formula = KINDS[step.kind].FORMULA
            names = formula.params()
            text = _expr(formula, args, step.params, names, table, constants)
            if text is None:
                return None
        else:
            return None
        fast = text
        if step.kind == "pow" and step.args[1] < n and kinds[step.args[1]] == "s":
            fast = _POW_SMALL.format(*args)
            exponents.append(step.args[1])
        body.append(f"            s{k} = {text}")
        small.append(f"            s{k} = {fast}")
        values.append(f"s{k}")
    hoisted = [f"    x{k} = a{k}[0]" for k in range(n) if kinds[k] == "s"]
    reads = {"r": "a{k}[j]", "c": "a{k}[i]", "f": "a{k}[i, j]", "o": "out[i, j]"}
    loads = [
        f"            x{k} = " + reads[kinds[k]].format(k=k)
        for k in range(n)
        if kinds[k] != "s"
    ]
    scalar = "np.float32" if dtype == "f32" else "np.float64"
    inputs = ", ".join(f"a{k}" for k in range(n))

    def loop(name: str, lines: list[str]) -> list[str]:
        return [
            '@njit(cache=True, nogil=True, error_model="numpy")',
            f"def {name}(lo, hi, out, {inputs}):",
            "    wide_vectors()",
            "    cols = out.shape[1]",
            *hoisted,
            "    for i in range(lo, hi):",
            "        for j in range(cols):",
            *loads,
            *lines,
            f"            out[i, j] = s{len(steps) - 1}",
            "",
            "",
        ]

    if exponents:
        small_ones = " and ".join(
            f"(a{k}[0] == TWO or a{k}[0] == THREE)" for k in sorted(set(exponents))
        )
        loops = [
            *loop("rows", body),
            *loop("rows_small", small),
            '@njit(cache=True, nogil=True, error_model="numpy")',
            f"def kernel(lo, hi, out, {inputs}):",
            f"    if {small_ones}:",
            f"        rows_small(lo, hi, out, {inputs})",
            "    else:",
            f"        rows(lo, hi, out, {inputs})",
            "",
            "",
        ]
    else:
        loops = loop("kernel", body)
    lines = [
        "import math",
        "import numpy as np",
        "from numba import njit, prange",
        "from xhip.backend.cpu_kernels_pool import review, take, team",
        "from xhip.backend.cpu_kernels_rows import (",
        "    erf32, exp32, fmax, fmin, tanh32, wide_vectors,",
        ")",
        f"# {_MATH_DIGEST}: cpu_kernels_rows.py and cpu_kernels_pool.py",
        f"ZERO = {scalar}(0.0)",
        *([f"TWO = {scalar}(2.0)", f"THREE = {scalar}(3.0)"] if exponents else []),
        *(f"K{i} = {scalar}(float({str(c)!r}))" for i, c in enumerate(constants)),
        "",
        "",
        *loops,
        '@njit(cache=True, nogil=True, error_model="numpy", parallel=True)',
        f"def kernel_pool(cuts, state, out, {inputs}):",
        "    threads = team(state, state.shape[0] - 4)",
        "    for t in prange(threads):",
        "        i = take(state, 0)",
        "        while i < cuts.shape[0] - 1:",
        f"            kernel(cuts[i], cuts[i + 1], out, {inputs})",
        "            state[4 + t] += 1",
        "            i = take(state, 0)",
        "    review(state, threads)",
        "",
    ]
    return "\n".join(lines)


@cache
def kernel(text: str) -> ModuleType:
    """The module of a group's source (`kernel`, `kernel_pool`, compiled at
    their first calls), through its file."""
    digest = hashlib.sha1(text.encode()).hexdigest()[:20]
    folder = kernel_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"fused_{digest}.py"
    if not path.exists():  # written once; rewriting would void numba's cache
        partial_path = folder / f".fused_{digest}.{os.getpid()}.tmp"
        partial_path.write_text(text)
        os.replace(partial_path, path)
    spec = importlib.util.spec_from_file_location(f"xhip_fused_{digest}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # numba's cache finds its globals by name
    spec.loader.exec_module(module)
    return module


def _reshape(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    try:
        return np.reshape(x, shape, copy=False)
    except ValueError:
        return None


def _operand(
    x: np.ndarray, shape: tuple[int, ...], rows: int, cols: int
) -> tuple[str, np.ndarray] | None:
    """How `x`, broadcast to `shape`, is read over (rows, cols), and the view read."""
    if x.size == 1:
        return "s", x.reshape(1)
    wide = _reshape(np.broadcast_to(x, shape), (rows, cols))
    if wide is None:
        return None
    row_step, col_step = wide.strides
    if row_step == 0:
        return "r", wide[0]
    if col_step == 0:
        return "c", wide[:, 0]
    return "f", wide


def _condition(steps: Sequence[Step], k: int) -> bool:
    """Whether input `k` is read only as a `where`'s condition: a bool
    input may be, where the loop reads it as a truth value."""
    return all(
        k not in step.args or step.kind == "where" and k not in step.args[1:]
        for step in steps
    )


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether `a` and `b` are the same elements in the same order."""
    return (
        a.ctypes.data == b.ctypes.data and a.shape == b.shape and a.strides == b.strides
    )


def bind_kernel(
    steps: Sequence[Step],
    arrays: Sequence[np.ndarray],
    target: np.ndarray,
    threads: int,
    pool: bool = False,
) -> list[Callable[[], object]] | None:
    """One call per thread's rows of the group's loop over `target`, or with
    `pool` (and threads) one call of them all on numba's threads
    (`kernel_pool`); None where the group is not one for a numba loop (see
    module doc)."""
    dtype = next((name for name, d in FLOATS.items() if d == target.dtype), None)
    if dtype is None or target.ndim == 0:
        return None
    if not all(
        x.dtype == target.dtype or x.dtype == np.bool_ and _condition(steps, k)
        for k, x in enumerate(arrays)
    ):
        return None
    shape = target.shape
    cols = shape[-1]
    rows = math.prod(shape[:-1])
    if rows < threads:  # a long vector: rows of it, where all is contiguous
        if not target.flags.c_contiguous:
            return None
        cols = next((c for c in (4096, 1024, 256, 64) if target.size % c == 0), 0)
        if cols == 0:
            return None
        rows = target.size // cols
    out = _reshape(target, (rows, cols))
    if out is None:
        return None
    operands = [_operand(x, shape, rows, cols) for x in arrays]
    if any(o is None for o in operands):
        return None
    kinds = [o[0] for o in operands if o is not None]
    views = [o[1] for o in operands if o is not None]
    kinds = ["o" if k == "f" and _same(v, out) else k for k, v in zip(kinds, views)]
    text = source(steps, kinds, dtype)
    if text is None:
        return None
    try:
        module = kernel(text)
    except OSError:  # no writable cache folder: numpy's blocks, uncompiled
        return None
    threads = max(1, min(threads, rows))
    if pool and threads > 1:
        run = module.kernel_pool
        return [partial(run, shares(rows, threads), state(threads), out, *views)]
    cuts = [rows * t // threads for t in range(threads + 1)]
    run = module.kernel
    return [partial(run, lo, hi, out, *views) for lo, hi in zip(cuts, cuts[1:])]
