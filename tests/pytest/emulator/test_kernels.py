"""Every kernel of `kernel_source()` run by the emulator against numpy (float64
references), at warp size 32 and 64, on sizes 0, 1, primes and grids too
small to cover the data (grid-stride loops), with broadcast (stride 0),
transposed, sliced and reversed strides."""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import pytest

from xhip.backend.gpu import kernel_source
from xhip.testing.emulator import EmulatedKernels, Guarded, kernel_names

pytestmark = pytest.mark.emulator

WARPS = (32, 64)
COVERED: set[str] = set()
"""Kernels with an emulated test here; every `__global__` of the source must be in it."""


def covers(*names: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def register(test: Callable[..., None]) -> Callable[..., None]:
        COVERED.update(names)
        return test

    return register


def test_every_kernel_has_an_emulated_test() -> None:
    names = set(kernel_names(kernel_source()))
    assert names, "no __global__ kernel found in kernel_source()"
    assert names - COVERED == set(), "kernels without an emulated test"


# Elementwise kernels.


@dataclass(frozen=True)
class Op:
    kernel: str
    kind: str
    code: int
    arity: int
    dtype: np.dtype


DTYPES = {"f32": np.dtype(np.float32), "f64": np.dtype(np.float64)}


def elementwise_ops() -> list[Op]:
    """Every (kernel, op code) the elementwise kernels run, for each element
    type the source has a kernel for: the one place that knows where the codes
    live (today `xhip.backend.gpu`'s tables)."""
    from xhip.backend import gpu

    tables = [
        ("xhip_binary_", 2, gpu.BINARY_CODES),
        ("xhip_unary_", 1, {"copy": gpu.COPY_CODE, **gpu.UNARY_CODES}),
    ]
    names = kernel_names(kernel_source())
    ops = []
    for prefix, arity, codes in tables:
        for name in names:
            m = re.fullmatch(re.escape(prefix) + r"(\w+)", name)
            if m:
                assert m.group(1) in DTYPES, f"{name}: an element type this test lacks"
                for kind, code in codes.items():
                    ops.append(Op(name, kind, code, arity, DTYPES[m.group(1)]))
    return ops


REFERENCE: dict[str, Callable[..., np.ndarray]] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "pow": np.power,
    "copy": lambda x: x.copy(),
    "relu": lambda x: np.where((x > 0) | np.isnan(x), x, 0.0),
    "exp": np.exp,
    "neg": np.negative,
    "sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "sqrt": np.sqrt,
    "tanh": np.tanh,
    "abs": np.abs,
}
"""numpy's meaning of each op, run in float64."""
EXACT = {"add", "sub", "mul", "div", "copy", "relu", "neg", "sqrt", "abs"}
"""Correctly rounded in float32, so equal to the float64 result rounded."""


def _values(rng: np.random.Generator, n: int, kind: str, operand: int) -> np.ndarray:
    x = rng.standard_normal(n) * 3
    if kind == "pow":
        x = rng.uniform(0.1, 3, n) if operand == 0 else rng.integers(-3, 4, n) * 0.5
        if operand == 0 and n > 4:
            x[: n // 4] *= -1  # negative bases: NaN for half-integer exponents
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e-30, 89.0, -104.0]
    if kind != "pow":
        count = min(n, len(specials), max(1, n // 5))
        x[rng.choice(n, count, replace=False)] = rng.choice(specials, count)
    return x


@dataclass(frozen=True)
class Layout:
    """A shape and, for each operand and the output, how its view is made."""

    name: str
    shape: tuple[int, ...]
    views: tuple[str, ...]
    """Per operand (inputs, then the output): contiguous, transposed, broadcast
    (size-1 dims of a smaller array at stride 0), sliced (every other element)
    or reversed (negative strides)."""


LAYOUTS = [
    Layout("empty", (0,), ("c", "c", "c")),
    Layout("one", (1,), ("c", "c", "c")),
    Layout("prime", (1009,), ("c", "c", "c")),
    Layout("scalar", (), ("c", "c", "c")),
    Layout("empty-2d", (3, 0), ("c", "b", "c")),
    Layout("broadcast", (37, 41), ("b0", "b1", "c")),
    Layout("transposed-in", (29, 31), ("t", "c", "c")),
    Layout("transposed-out", (29, 31), ("c", "t", "t")),
    Layout("sliced-reversed", (7, 5, 3), ("s", "r", "c")),
    Layout("rank-4", (2, 3, 5, 7), ("t", "b1", "s")),
]


def _view(base: np.ndarray, how: str) -> np.ndarray:
    """`base`'s values, laid out as `how` says (the same shape)."""
    if how == "c" or base.ndim == 0:
        return base.copy()
    if how == "t":
        return np.ascontiguousarray(base.T).T
    if how == "s":
        wide = np.empty(base.shape[:-1] + (2 * base.shape[-1],), base.dtype)
        wide[..., ::2] = base
        return wide[..., ::2]
    if how == "r":
        return np.ascontiguousarray(base[..., ::-1])[..., ::-1]
    if how in ("b", "b0", "b1"):
        # The smaller array numpy would broadcast: dim 0 (b0) or the last (b1) of size 1.
        axis = 0 if how in ("b", "b0") else base.ndim - 1
        small = np.take(base, [0] if base.shape[axis] else [], axis=axis)
        if small.size == 0 and base.size:
            return base.copy()
        return np.broadcast_to(small, base.shape)
    raise AssertionError(how)


def _strides(view: np.ndarray) -> list[int]:
    return [s // view.itemsize for s in view.strides]


def _launches(n: int) -> Iterator[tuple[int, int]]:
    """(grid, block): one thread; a grid smaller than the data (grid-stride
    loops); the runtime's 256-thread blocks; a full 1024-thread block."""
    yield 1, 1
    yield 2, 32
    yield max(1, min(3, -(-n // 256))), 256
    yield 1, 1024


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.name)
@pytest.mark.parametrize(
    "op", elementwise_ops(), ids=lambda op: f"{op.kernel}-{op.kind}"
)
@covers("xhip_binary_f32", "xhip_unary_f32")
def test_elementwise(emulated: EmulatedKernels, op: Op, layout: Layout) -> None:
    if op.kind not in REFERENCE:
        pytest.fail(
            f"no numpy reference for elementwise op {op.kind!r}: add it to REFERENCE"
        )
    rng = np.random.default_rng(zlib.crc32(f"{op.kind} {layout.name}".encode()))
    shape, n = layout.shape, math.prod(layout.shape)
    inputs = []
    for i in range(op.arity):
        base = _values(rng, n, op.kind, i).reshape(shape).astype(op.dtype)
        inputs.append(_view(base, layout.views[i]))
    # Broadcast operands: the reference sees exactly the values the kernel reads.
    with np.errstate(all="ignore"):
        want = REFERENCE[op.kind](*(x.astype(np.float64) for x in inputs)).astype(
            op.dtype
        )
    how = layout.views[-1]
    for grid, block in _launches(n):
        for warp in WARPS:
            storage = Guarded(
                np.full(shape[::-1] if how == "t" else shape, 7, op.dtype)
            )
            out = storage.array.T if how == "t" else storage.array
            rank = len(shape)
            meta = np.array(
                [*shape, *_strides(out), *(s for x in inputs for s in _strides(x))]
                or [0],
                np.int64,
            )
            args = [
                ("i32", op.code),
                ("ptr", out.ctypes.data),
                *(("ptr", x.ctypes.data) for x in inputs),
                ("i32", rank),
                ("ptr", meta.ctypes.data),
                ("i64", n),
            ]
            emulated.launch(op.kernel, grid, block, 0, args, warp_size=warp)
            storage.check()
            where = f"{op.kind} {layout.name} grid {grid} block {block} warp {warp}"
            if op.kind in EXACT:
                np.testing.assert_array_equal(out, want, err_msg=where)
            else:
                np.testing.assert_allclose(
                    out, want, rtol=2e-6, atol=1e-37, equal_nan=True, err_msg=where
                )


# Softmax.


def _softmax64(x: np.ndarray, scale: float) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        z = x.astype(np.float64) * scale
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


SOFTMAX_CASES = [
    # rows, n, grid, block
    (1, 1, 1, 1),
    (1, 2, 1, 2),
    (3, 5, 1, 32),
    (7, 31, 2, 32),
    (5, 256, 5, 256),
    (4, 257, 4, 256),
    (23, 1000, 3, 256),
    (2, 1009, 1, 1024),
    (101, 13, 4, 64),
]


@pytest.mark.parametrize("scale", [None, 0.125, -2.0])
@pytest.mark.parametrize("rows,n,grid,block", SOFTMAX_CASES)
@covers("xhip_softmax_rows_f32")
def test_softmax_rows(
    emulated: EmulatedKernels,
    rows: int,
    n: int,
    grid: int,
    block: int,
    scale: float | None,
) -> None:
    rng = np.random.default_rng(rows * 1000 + n)
    x = (rng.standard_normal((rows, n)) * 4).astype(np.float32)
    if n > 3:
        x[0, :2] = -np.inf  # masked entries
        x[-1, -1] = 60.0  # a dominant one
    factor = np.array([scale if scale is not None else 1.0], np.float32)
    want = _softmax64(x, float(factor[0]))
    for warp, order in ((32, "forward"), (64, "reverse")):
        out = Guarded(np.full((rows, n), 3.0, np.float32))
        args = [
            ("ptr", x.ctypes.data),
            ("ptr", out.address),
            ("ptr", 0 if scale is None else factor.ctypes.data),
            ("i64", rows),
            ("i64", n),
        ]
        emulated.launch(
            "xhip_softmax_rows_f32",
            grid,
            block,
            4 * block,
            args,
            warp_size=warp,
            order=order,
        )
        out.check()
        np.testing.assert_allclose(out.array, want, rtol=2e-5, atol=1e-7)


def test_softmax_rows_in_place_and_degenerate(emulated: EmulatedKernels) -> None:
    """In place (the runtime's scratch), a row of -inf only (NaN, as numpy),
    and no rows or empty rows writing nothing."""
    x = np.random.default_rng(5).standard_normal((6, 70)).astype(np.float32)
    x[2] = -np.inf
    want = _softmax64(x, 1.0)
    buffer = Guarded(x)
    args = [("ptr", buffer.address)] * 2 + [("ptr", 0), ("i64", 6), ("i64", 70)]
    emulated.launch("xhip_softmax_rows_f32", 2, 64, 256, args)
    buffer.check()
    np.testing.assert_allclose(buffer.array, want, rtol=2e-5, atol=1e-7)
    assert np.isnan(buffer.array[2]).all()
    for rows, n in ((0, 5), (3, 0)):
        untouched = Guarded(np.zeros(1, np.float32))
        args = [("ptr", untouched.address)] * 2 + [
            ("ptr", 0),
            ("i64", rows),
            ("i64", n),
        ]
        emulated.launch("xhip_softmax_rows_f32", 1, 32, 128, args)
        untouched.check()
        assert untouched.array[0] == 0


def test_softmax_rows_needs_its_shared_memory(emulated: EmulatedKernels) -> None:
    """The documented contract: blockDim.x floats of dynamic shared memory."""
    from xhip.testing.emulator import EmulatorError

    x = np.ones((1, 8), np.float32)
    args = [("ptr", x.ctypes.data)] * 2 + [("ptr", 0), ("i64", 1), ("i64", 8)]
    with pytest.raises(EmulatorError, match="wrote past the 124 bytes"):
        emulated.launch("xhip_softmax_rows_f32", 1, 32, 124, args)
