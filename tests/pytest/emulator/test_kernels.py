"""Every kernel of `kernel_source()` run by the emulator against numpy (float64
references), at warp size 32 and 64, on sizes 0, 1, primes and grids too
small to cover the data (grid-stride loops), with broadcast (stride 0),
transposed, sliced and reversed strides."""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import pytest

from tests.pytest.emulator.test_attention_kernels import KERNELS as ATTENTION_KERNELS
from tests.pytest.emulator.test_conv_kernels import KERNELS as CONV_KERNELS
from tests.pytest.emulator.test_gather_kernels import KERNELS as GATHER_KERNELS
from tests.pytest.emulator.test_gqa_kernels import KERNELS as GQA_KERNELS
from tests.pytest.emulator.test_image_kernels import KERNELS as IMAGE_KERNELS
from tests.pytest.emulator.test_linalg_kernels import KERNELS as LINALG_KERNELS
from tests.pytest.emulator.test_linear_attention_kernels import (
    KERNELS as LINEAR_ATTENTION_KERNELS,
)
from tests.pytest.emulator.test_movement_kernels import KERNELS as MOVEMENT_KERNELS
from tests.pytest.emulator.test_nbits_kernels import KERNELS as NBITS_KERNELS
from tests.pytest.emulator.test_quantize_kernels import KERNELS as QUANTIZE_KERNELS
from tests.pytest.emulator.test_reduce_kernels import KERNELS as REDUCE_KERNELS
from tests.pytest.emulator.test_resize_kernels import KERNELS as RESIZE_KERNELS
from tests.pytest.emulator.test_sampling_kernels import KERNELS as SAMPLING_KERNELS
from tests.pytest.emulator.test_scatter_kernels import KERNELS as SCATTER_KERNELS
from tests.pytest.emulator.test_select_kernels import KERNELS as SELECT_KERNELS
from tests.pytest.emulator.test_shape_kernels import KERNELS as SHAPE_KERNELS
from tests.pytest.emulator.test_topk_kernels import KERNELS as TOPK_KERNELS
from tests.pytest.emulator.test_window_kernels import KERNELS as WINDOW_KERNELS
from xhip.backend.elementwise import (
    CAST_KERNEL,
    COPY_KERNELS,
    ELEMENT_TYPES,
    KERNELS,
    TYPE_CODES,
    TYPE_OF,
)
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
    left = names - COVERED - REDUCE_KERNELS - CONV_KERNELS - TOPK_KERNELS
    left -= MOVEMENT_KERNELS
    left -= GATHER_KERNELS
    left -= IMAGE_KERNELS
    left -= SCATTER_KERNELS
    left -= ATTENTION_KERNELS
    left -= GQA_KERNELS
    left -= SHAPE_KERNELS
    left -= RESIZE_KERNELS
    left -= SAMPLING_KERNELS
    left -= WINDOW_KERNELS
    left -= QUANTIZE_KERNELS
    left -= SELECT_KERNELS
    left -= NBITS_KERNELS
    left -= LINALG_KERNELS
    left -= LINEAR_ATTENTION_KERNELS
    assert left == set(), "kernels without an emulated test"


# Elementwise kernels.


@dataclass(frozen=True)
class Op:
    kernel: str
    kind: str
    code: int
    arity: int
    dtype: np.dtype
    bools: tuple[bool, ...]
    """Per operand, whether the kernel reads it as a bool."""
    result_bool: bool
    params: tuple[str, ...]


def elementwise_ops() -> list[Op]:
    """Every (kernel, op code) of the generated elementwise kernels, each
    element type's own: the one place that knows where the codes live
    (`xhip.backend.elementwise`)."""
    from xhip.backend import elementwise

    ops = []
    for kernel in elementwise.KERNELS.values():
        t = kernel.type
        arity = len(kernel.signature.operands)
        bools = tuple(kernel.signature.operand_is_bool(i, t) for i in range(arity))
        for op in kernel.ops:
            ops.append(
                Op(
                    kernel.name,
                    op.kind(),
                    elementwise.codes(op)[op.kind()],
                    arity,
                    t.dtype,
                    bools,
                    kernel.signature.result or t.kind == "b",
                    op.FORMULA.params(),
                )
            )
    return ops


PARAM_VALUES = {
    "alpha": 0.75,
    "beta": 0.25,
    "gamma": 1.25,
    "divisor": 3.0,
    "detect_positive": 1.0,
    "detect_negative": 0.0,
    "lambd": 1.5,
    "bias": 0.5,
}
"""Values exact in float16 too, so the reference and the kernel agree on them."""

_erf64 = np.vectorize(math.erf, otypes=[np.float64])


def _softplus(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, x)


def _trunc_div(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind in "iu":
        return (np.sign(x) * np.sign(y) * (np.abs(x) // np.abs(y))).astype(x.dtype)
    return x / y


def _ipow(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.power(x, y) if x.dtype.kind == "f" else np.power(x, y.astype(x.dtype))


def _clamp(x: np.ndarray) -> np.ndarray:
    return np.clip(x, 0.0, 1.0)


def _bit_shift(x: np.ndarray, y: np.ndarray, left: bool) -> np.ndarray:
    """ONNX BitShift as its spec says: a shift out of [0, bits) gives 0 (to
    the right: -1 for a negative signed x); a signed left shift wraps."""
    bits = x.dtype.itemsize * 8
    inside = (y >= 0) & (y < bits)
    unsigned = np.dtype(f"u{x.dtype.itemsize}")
    by = np.where(inside, y, 0).astype(unsigned)
    if left:
        shifted = np.left_shift(x.astype(unsigned), by).astype(x.dtype)
        return np.where(inside, shifted, 0).astype(x.dtype)
    shifted = np.right_shift(x, by.astype(x.dtype))
    return np.where(inside, shifted, np.where(x < 0, -1, 0)).astype(x.dtype)


P = PARAM_VALUES
REFERENCE: dict[str, Callable[..., np.ndarray]] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": _trunc_div,
    "pow": _ipow,
    "relu": lambda x: np.where((x > 0) | np.isnan(x), x, x.dtype.type(0)),
    "exp": np.exp,
    "neg": np.negative,
    "sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "sqrt": np.sqrt,
    "tanh": np.tanh,
    "abs": np.abs,
    "gelu": lambda x: 0.5 * x * (1.0 + _erf64(x / math.sqrt(2.0))),
    "gelu_tanh": lambda x: (
        0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))
    ),
    "erf": _erf64,
    "softplus": _softplus,
    "softsign": lambda x: x / (1.0 + np.abs(x)),
    "elu": lambda x: np.where(x < 0, P["alpha"] * np.expm1(x), x),
    "selu": lambda x: P["gamma"] * np.where(x <= 0, P["alpha"] * np.expm1(x), x),
    "celu": lambda x: (
        np.maximum(x, 0) + np.minimum(0, P["alpha"] * np.expm1(x / P["alpha"]))
    ),
    "mish": lambda x: x * np.tanh(_softplus(x)),
    "leaky_relu": lambda x: np.where(x < 0, P["alpha"] * x, x),
    "hard_sigmoid": lambda x: _clamp(P["alpha"] * x + P["beta"]),
    "hard_swish": lambda x: x * _clamp(x / 6.0 + 0.5),
    "thresholded_relu": lambda x: np.where(x > P["alpha"], x, 0.0),
    "prelu": lambda x, y: np.where(x < 0, y * x, x),
    "log": np.log,
    "reciprocal": lambda x: 1.0 / x,
    "floor": np.floor,
    "ceil": np.ceil,
    "round": np.round,
    "sin": np.sin,
    "cos": np.cos,
    "sign": np.sign,
    "div_by": lambda x: x / P["divisor"],
    "max": np.maximum,
    "min": np.minimum,
    "mod": np.mod,
    "fmod": np.fmod,
    "equal": np.equal,
    "less": np.less,
    "less_or_equal": np.less_equal,
    "greater": np.greater,
    "greater_or_equal": np.greater_equal,
    "not": np.logical_not,
    "and": np.logical_and,
    "or": np.logical_or,
    "xor": np.logical_xor,
    "isnan": np.isnan,
    "isinf": lambda x: np.isposinf(x),  # detect_positive 1, detect_negative 0
    "where": lambda c, x, y: np.where(c, x, y),
    "tan": np.tan,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "asinh": np.arcsinh,
    "acosh": np.arccosh,
    "atanh": np.arctanh,
    "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor,
    "bitwise_not": np.invert,
    "bit_shift_left": lambda x, y: _bit_shift(x, y, left=True),
    "bit_shift_right": lambda x, y: _bit_shift(x, y, left=False),
    "shrink": lambda x: np.where(
        x < -P["lambd"], x + P["bias"], np.where(x > P["lambd"], x - P["bias"], 0.0)
    ),
    "swish": lambda x: x * (1.0 / (1.0 + np.exp(-P["alpha"] * x))),
}
"""numpy's meaning of each op (floats in float64), written here, not derived."""
EXACT = {
    *("add", "sub", "mul", "div", "relu", "neg", "sqrt", "abs", "floor", "ceil"),
    *("round", "sign", "max", "min", "mod", "fmod", "isnan", "isinf", "where"),
    *("equal", "less", "less_or_equal", "greater", "greater_or_equal", "not"),
    *("and", "or", "xor", "leaky_relu", "thresholded_relu", "prelu", "div_by"),
    "reciprocal",
    "shrink",
}
"""Correctly rounded (or exact), so equal to the float64 result rounded."""
SPECIALS_OK = {
    *EXACT,
    *("exp", "tanh", "sigmoid", "erf", "log", "sin", "cos", "pow"),
    *("tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh"),
}
"""Ops fed inf, NaN, -0 and huge values too; the composite activations get
ordinary numbers (their stable forms differ from the textbook ones at inf)."""


def _values(rng: np.random.Generator, n: int, op: Op, operand: int) -> np.ndarray:
    """Values of the operand's type (float64 for floats, rounded later)."""
    if op.bools[operand]:
        return rng.integers(0, 2, n).astype(bool)
    kind = op.dtype.kind
    if kind in "iu":
        info = np.iinfo(op.dtype)
        low, high = (0, 40) if kind == "u" else (-20, 21)
        if op.kind == "pow":
            low, high = (0, 4) if operand == 1 else (max(low, -3), 4)
        x = rng.integers(low, high, n)
        if op.kind in ("div", "mod", "fmod") and operand == 1:
            x[x == 0] = 3
        if op.kind.startswith("bitwise"):
            return rng.integers(info.min, info.max, n, op.dtype, endpoint=True)
        if op.kind.startswith("bit_shift") and operand == 1:
            x = rng.integers(-2 if kind == "i" else 0, info.bits + 3, n)
        return np.clip(x, info.min, info.max)
    x = rng.standard_normal(n) * 3
    if op.kind == "pow":
        x = rng.uniform(0.1, 3, n) if operand == 0 else rng.integers(-3, 4, n) * 0.5
        if operand == 0 and n > 4:
            x[: n // 4] *= -1  # negative bases: NaN for half-integer exponents
    if op.kind in ("asin", "acos", "atanh"):
        x = rng.uniform(-1.2, 1.2, n)  # mostly inside the domain, NaN outside
    if op.kind == "acosh":
        x = rng.uniform(0.8, 10.0, n)
    if op.kind in ("round",):
        x = np.round(x * 2) / 2  # halves: ties go to even
    if op.kind in ("mod", "fmod") and operand == 1:
        x[np.abs(x) < 0.1] = 0.5
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e-30, 89.0, -104.0]
    if op.kind in SPECIALS_OK and op.kind != "pow":
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
    Layout("empty", (0,), ("c", "c", "c", "c")),
    Layout("one", (1,), ("c", "c", "c", "c")),
    Layout("prime", (1009,), ("c", "c", "c", "c")),
    Layout("scalar", (), ("c", "c", "c", "c")),
    Layout("empty-2d", (3, 0), ("c", "b", "c", "c")),
    Layout("broadcast", (37, 41), ("b0", "b1", "c", "c")),
    Layout("transposed-in", (29, 31), ("t", "c", "b1", "c")),
    Layout("transposed-out", (29, 31), ("c", "t", "c", "t")),
    Layout("sliced-reversed", (7, 5, 3), ("s", "r", "b0", "c")),
    Layout("rank-4", (2, 3, 5, 7), ("t", "b1", "s", "s")),
]
"""Every layout for the float32 kernels; the other element types run the
ones in `TYPED_LAYOUTS` (the same code, instantiated per type), so the
emulator's time stays small."""
TYPED_LAYOUTS = {"prime", "broadcast", "sliced-reversed"}


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


def _launches(n: int, full: bool) -> Iterator[tuple[int, int]]:
    """(grid, block): one thread; a grid smaller than the data (grid-stride
    loops); the runtime's 256-thread blocks; a full 1024-thread block."""
    if full:
        yield 1, 1
    yield 2, 32
    yield max(1, min(3, -(-n // 256))), 256
    if full:
        yield 1, 1024


def _cases() -> Iterator[object]:
    for op in elementwise_ops():
        for layout in LAYOUTS:
            if op.dtype == np.float32 or layout.name in TYPED_LAYOUTS:
                yield pytest.param(
                    op, layout, id=f"{op.kernel}-{op.kind}-{layout.name}"
                )


def _tolerance(op: Op) -> dict[str, float]:
    if op.dtype == np.float16:
        return {"rtol": 2e-3, "atol": 1e-3}
    if op.dtype == np.float64:
        return {"rtol": 1e-12, "atol": 1e-14}
    return {"rtol": 1e-5, "atol": 1e-6}


@pytest.mark.parametrize(("op", "layout"), list(_cases()))
@covers(*(name for name in kernel_names(kernel_source()) if name in KERNELS))
def test_elementwise(emulated: EmulatedKernels, op: Op, layout: Layout) -> None:
    if op.kind not in REFERENCE:
        pytest.fail(
            f"no numpy reference for elementwise op {op.kind!r}: add it to REFERENCE"
        )
    rng = np.random.default_rng(
        zlib.crc32(f"{op.kernel} {op.kind} {layout.name}".encode())
    )
    shape, n = layout.shape, math.prod(layout.shape)
    inputs = []
    for i in range(op.arity):
        dtype = np.dtype(bool) if op.bools[i] else op.dtype
        base = _values(rng, n, op, i).reshape(shape)
        with np.errstate(all="ignore"):
            inputs.append(_view(base.astype(dtype), layout.views[i]))
    wide = [x.astype(np.float64) if x.dtype.kind == "f" else x for x in inputs]
    out_dtype = np.dtype(bool) if op.result_bool else op.dtype
    with np.errstate(all="ignore"):
        want = np.asarray(REFERENCE[op.kind](*wide)).astype(out_dtype)
    params = np.array([PARAM_VALUES[name] for name in op.params] or [0.0])
    how = layout.views[-1]
    full = op.dtype == np.float32
    for grid, block in _launches(n, full):
        for warp in WARPS:
            storage = Guarded(
                np.full(shape[::-1] if how == "t" else shape, 7, out_dtype)
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
                ("ptr", params.ctypes.data if op.params else 0),
            ]
            emulated.launch(op.kernel, grid, block, 0, args, warp_size=warp)
            storage.check()
            where = f"{op.kind} {layout.name} grid {grid} block {block} warp {warp}"
            if op.kind in EXACT or out_dtype.kind in "iub":
                np.testing.assert_array_equal(out, want, err_msg=where)
            else:
                np.testing.assert_allclose(
                    out, want, equal_nan=True, err_msg=where, **_tolerance(op)
                )


# Copies and casts.

DTYPES = [t.dtype for t in ELEMENT_TYPES]


@pytest.mark.parametrize("size", sorted(COPY_KERNELS))
@covers(*COPY_KERNELS.values())
def test_copy(emulated: EmulatedKernels, size: int) -> None:
    """Each element's bytes, whatever they mean (NaN payloads too), through
    transposed, broadcast and reversed views."""
    dtype = np.dtype(f"u{size}")
    rng = np.random.default_rng(size)
    src = rng.integers(0, np.iinfo(dtype).max, (5, 1, 7), dtype=dtype, endpoint=True)
    view = np.broadcast_to(src, (5, 3, 7))[:, :, ::-1].transpose(2, 0, 1)
    for warp in WARPS:
        out = Guarded(np.zeros(view.shape, dtype))
        meta = np.array([*view.shape, *_strides(out.array), *_strides(view)], np.int64)
        args = [
            ("ptr", out.address),
            ("ptr", view.ctypes.data),
            ("i32", view.ndim),
            ("ptr", meta.ctypes.data),
            ("i64", view.size),
        ]
        emulated.launch(COPY_KERNELS[size], 2, 32, 0, args, warp_size=warp)
        out.check()
        np.testing.assert_array_equal(out.array, view)


def _cast_values(src: np.dtype) -> np.ndarray:
    """Values every target type holds after C's conversion as numpy's unsafe
    cast does (no NaN to integers: implementation-defined)."""
    if src.kind == "b":
        return np.array([True, False, True, True, False])
    if src.kind == "f":
        return np.array([0.0, -0.0, 1.5, -2.5, 3.99, 100.25, -7.75, 0.1, 65.0])
    if src.kind == "u":
        return np.array([0, 1, 2, 7, 100, 127, 200, 255])
    return np.array([0, 1, -1, 2, -7, 100, -128, 127])


@pytest.mark.parametrize("target", DTYPES, ids=lambda d: TYPE_OF[d].name)
@pytest.mark.parametrize("source", DTYPES, ids=lambda d: TYPE_OF[d].name)
@covers(CAST_KERNEL)
def test_cast(emulated: EmulatedKernels, source: np.dtype, target: np.dtype) -> None:
    """Every pair of element types against numpy's unsafe cast, strided."""
    values = _cast_values(source).astype(source)
    if source.kind == "f" and target.kind == "u":
        values = np.abs(values)  # negative floats to unsigned: undefined in C
    src = np.ascontiguousarray(np.tile(values, 2)[::-1])[::-1]  # reversed view
    with np.errstate(all="ignore"):
        want = src.astype(target)
    for warp in WARPS:
        out = Guarded(np.zeros(src.shape, target))
        meta = np.array([*src.shape, *_strides(out.array), *_strides(src)], np.int64)
        args = [
            ("i32", TYPE_CODES[source]),
            ("i32", TYPE_CODES[target]),
            ("ptr", out.address),
            ("ptr", src.ctypes.data),
            ("i32", 1),
            ("ptr", meta.ctypes.data),
            ("i64", src.size),
        ]
        emulated.launch(CAST_KERNEL, 1, 64, 0, args, warp_size=warp)
        out.check()
        np.testing.assert_array_equal(out.array, want)


def test_float16_conversions_round_to_nearest_even(emulated: EmulatedKernels) -> None:
    """float32 -> float16 -> float32 through the kernels' own conversions:
    every float16 value (subnormals, inf, NaN) round-trips, and float32
    values between them round as numpy does (ties to even, overflow to inf)."""
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    rng = np.random.default_rng(16)
    between = np.concatenate(
        [
            rng.standard_normal(2000).astype(np.float32) * 1e-5,
            (rng.standard_normal(2000) * 3e4).astype(np.float32),
            np.array(
                [65504, 65519.99, 65520, 1e30, 2.0**-25, 2.0**-24 * 1.5], np.float32
            ),
        ]
    )
    codes = TYPE_CODES[np.dtype(np.float16)], TYPE_CODES[np.dtype(np.float32)]
    with np.errstate(over="ignore"):
        rounded = between.astype(np.float16)
    for src, want, (a, b) in (
        (every, every.astype(np.float32), codes),
        (between, rounded, codes[::-1]),
    ):
        out = np.zeros(src.shape, want.dtype)
        meta = np.array([src.size, 1, 1], np.int64)
        args = [
            ("i32", a), ("i32", b), ("ptr", out.ctypes.data), ("ptr", src.ctypes.data),
            ("i32", 1), ("ptr", meta.ctypes.data), ("i64", src.size),
        ]  # fmt: skip
        emulated.launch(CAST_KERNEL, 64, 256, 0, args)
        np.testing.assert_array_equal(out, want)


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
