"""The kernels of `kernels/reduce.h` run by the emulator against numpy float64,
at warp size 32 and 64 (threads in forward and reverse order): sizes 0, 1,
primes, non-multiples of the block, more outputs than the grid, reductions
over inner, outer and middle axes, strided (transposed) inputs. float32 on
every case; each other element type (one instantiation of the same template)
on a few of them: float16 against the float64 result rounded once (it
accumulates in float), integers exactly.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from xhip.backend.cpu_reduce import arg_extreme
from xhip.backend.device import KernelArg
from xhip.backend.elementwise import ELEMENT_TYPES
from xhip.backend.gpu_reduce import (
    ARG_TYPES,
    FLOAT_TYPES,
    REDUCE_CODES,
    REDUCE_TYPES,
    accumulator_bytes,
    block_for,
    compute_dtype,
)
from xhip.testing.emulator import EmulatedKernels, Guarded
from xhip.testing.emulator.build import Order

pytestmark = pytest.mark.emulator

DTYPES = {t.name: t.dtype for t in ELEMENT_TYPES}
"""Kernel suffix -> numpy dtype."""
OTHER_FLOATS = sorted(FLOAT_TYPES - {"f32"})

KERNELS = {
    *(f"xhip_reduce_{t}" for t in REDUCE_TYPES),
    *(f"xhip_arg_reduce_{t}" for t in ARG_TYPES),
    *(f"xhip_layer_norm_{t}" for t in FLOAT_TYPES),
    *(f"xhip_softmax_kind_rows_{t}" for t in FLOAT_TYPES),
    *(f"xhip_softmax_rows_{t}" for t in OTHER_FLOATS),
}
WARPS: tuple[tuple[int, Order], ...] = ((32, "forward"), (64, "reverse"))


def _tolerance(suffix: str) -> float:
    """rtol = atol of a float kernel's result against float64: float16's
    rounding, float32's accumulation, float64's."""
    return {"f16": 2e-3, "f32": 3e-5, "f64": 1e-12}[suffix]


def _launches(outputs: int, n: int) -> Iterator[tuple[int, int]]:
    """(grid, block): one thread; a grid smaller than the outputs and a block
    smaller than the reduction (both strided loops); the runtime's choice."""
    yield 1, 1
    yield max(1, min(2, outputs)), 32
    yield max(1, min(outputs, 5)), block_for(n)


def _reference(x: np.ndarray, kind: str, axes: tuple[int, ...]) -> np.ndarray:
    w = x.astype(np.float64)
    with np.errstate(all="ignore"):
        if kind == "sum":
            return w.sum(axis=axes)
        if kind == "mean":
            return w.sum(axis=axes) / math.prod(x.shape[a] for a in axes)
        if kind == "max":
            return np.maximum.reduce(w, axis=axes, initial=-np.inf)
        if kind == "min":
            return np.minimum.reduce(w, axis=axes, initial=np.inf)
        if kind == "prod":
            return w.prod(axis=axes)
        if kind == "l1":
            return np.abs(w).sum(axis=axes)
        if kind == "l2":
            return np.sqrt((w * w).sum(axis=axes))
        if kind == "sum_square":
            return (w * w).sum(axis=axes)
        if kind == "log_sum_exp":
            return np.log(np.exp(w).sum(axis=axes))
    raise AssertionError(kind)


REDUCE_CASES = [
    # shape, reduced axes, transposed input
    ((0,), (0,), False),
    ((1,), (0,), False),
    ((1009,), (0,), False),
    ((7, 13), (1,), False),  # inner
    ((13, 7), (0,), False),  # outer
    ((5, 11, 3), (1,), False),  # middle
    ((5, 11, 3), (0, 2), False),  # outer and inner
    ((3, 4, 5), (0, 1, 2), False),
    ((37, 3), (1,), True),  # more outputs than the grid, strided
    ((2, 0, 3), (1,), False),  # empty reductions: the identity
    ((0, 4), (1,), False),  # no outputs
    ((4, 6), (), False),  # nothing reduced: a copy
]


def _reduce_input(
    suffix: str, kind: str, shape: tuple[int, ...], seed: str
) -> np.ndarray:
    """Random data of the type: small integers (no overflow but where the
    type wraps, as numpy's does), floats in float64 rounded to the type."""
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    dtype = DTYPES[suffix]
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    if dtype.kind in "iu":
        low = 0 if dtype.kind == "u" else -3
        if kind == "prod":
            return rng.choice(
                [1, 1, 2] if dtype.kind == "u" else [1, -1, 2], shape
            ).astype(dtype)
        return rng.integers(low, 4, shape).astype(dtype)
    if kind == "prod":
        return rng.uniform(0.5, 1.5, shape).astype(dtype)
    return rng.normal(0, 2, shape).astype(dtype)


def _integer_reference(x: np.ndarray, kind: str, axes: tuple[int, ...]) -> np.ndarray:
    """The integer kernels: wrapping in the type itself, as numpy's; mean, L2
    and log-sum-exp in float64, truncated."""
    t = x.dtype
    if t.kind == "b":
        op = np.logical_or if kind == "max" else np.logical_and
        return op.reduce(x, axis=axes, initial=kind == "min").astype(t)
    if kind in ("mean", "l2", "log_sum_exp"):
        w = x.astype(np.float64)
        if kind == "log_sum_exp":
            peak = w.max(axis=axes, keepdims=True)
            got = np.log(np.exp(w - peak).sum(axis=axes)) + peak.reshape(
                np.sum(w, axis=axes).shape
            )
        else:
            got = _reference(x, kind, axes)
        return np.trunc(got).astype(t)
    if kind == "max":
        return np.maximum.reduce(x, axis=axes, initial=np.iinfo(t).min)
    if kind == "min":
        return np.minimum.reduce(x, axis=axes, initial=np.iinfo(t).max)
    if kind == "l1":
        return np.abs(x).sum(axis=axes, dtype=t)
    if kind == "sum_square":
        return (x * x).sum(axis=axes, dtype=t)
    if kind == "prod":
        return x.prod(axis=axes, dtype=t)
    return x.sum(axis=axes, dtype=t)


def _run_reduce(
    emulated: EmulatedKernels,
    suffix: str,
    kind: str,
    shape: tuple[int, ...],
    axes: tuple[int, ...],
    transposed: bool,
) -> None:
    x = _reduce_input(suffix, kind, shape, f"{kind} {shape} {axes}")
    if transposed:
        x = np.ascontiguousarray(x.T).T
    kept = [d for d in range(x.ndim) if d not in axes]
    red = [d for d in range(x.ndim) if d in axes]
    exact = x.dtype.kind in "iub"
    want = _integer_reference(x, kind, axes) if exact else _reference(x, kind, axes)
    outputs = want.size
    n = math.prod(x.shape[d] for d in red)
    item = x.itemsize
    meta = np.asarray(
        [
            *(x.shape[d] for d in kept),
            *(x.strides[d] // item for d in kept),
            *(math.prod(want.shape[i + 1 :]) for i in range(len(kept))),
            *(x.shape[d] for d in red),
            *(x.strides[d] // item for d in red),
        ]
        or [0],
        np.int64,
    )
    for grid, block in _launches(outputs, n):
        for warp, order in WARPS:
            out = Guarded(np.full(want.shape, 7, x.dtype))
            args: list[KernelArg] = [
                ("i32", REDUCE_CODES[kind]),
                ("ptr", x.ctypes.data),
                ("ptr", out.address),
                ("i32", len(kept)),
                ("i32", len(red)),
                ("ptr", meta.ctypes.data),
                ("i64", outputs),
                ("i64", n),
            ]
            if outputs == 0:
                continue
            emulated.launch(
                f"xhip_reduce_{suffix}",
                grid,
                block,
                accumulator_bytes(suffix) * block,
                args,
                warp_size=warp,
                order=order,
            )
            out.check()
            where = f"{suffix} {kind} grid {grid} block {block} warp {warp}"
            if exact:
                np.testing.assert_array_equal(out.array, want, err_msg=where)
            else:
                tol = _tolerance(suffix)
                np.testing.assert_allclose(
                    out.array.astype(np.float64),
                    want,
                    rtol=tol,
                    atol=tol,
                    err_msg=where,
                )


@pytest.mark.parametrize("kind", sorted(REDUCE_CODES))
@pytest.mark.parametrize(
    "shape,axes,transposed", REDUCE_CASES, ids=lambda v: str(v).replace(" ", "")
)
def test_reduce(
    emulated: EmulatedKernels,
    kind: str,
    shape: tuple[int, ...],
    axes: tuple[int, ...],
    transposed: bool,
) -> None:
    _run_reduce(emulated, "f32", kind, shape, axes, transposed)


TYPED_REDUCE_CASES = [
    ((5, 11, 3), (0, 2), False),
    ((37, 3), (1,), True),
    ((3, 4, 5), (0, 1, 2), False),
    ((2, 0, 3), (1,), False),
]


def _typed_reduce_params() -> list[Any]:
    """Every instantiation but float32's with each case; bool: max and min. An
    empty integer mean or log-sum-exp (NaN, -inf to an integer) is undefined,
    so left out."""
    return [
        pytest.param(suffix, kind, shape, axes, transposed, id=f"{suffix}-{kind}-{i}")
        for suffix in sorted(REDUCE_TYPES - {"f32"})
        for kind in sorted(REDUCE_CODES)
        if suffix != "i1" or kind in ("max", "min")
        for i, (shape, axes, transposed) in enumerate(TYPED_REDUCE_CASES)
        if not (0 in shape and suffix[0] in "iu" and kind in ("mean", "log_sum_exp"))
    ]


@pytest.mark.parametrize("suffix,kind,shape,axes,transposed", _typed_reduce_params())
def test_reduce_types(
    emulated: EmulatedKernels,
    suffix: str,
    kind: str,
    shape: tuple[int, ...],
    axes: tuple[int, ...],
    transposed: bool,
) -> None:
    """Each other element type, against numpy (`_reference`, `_integer_reference`)."""
    _run_reduce(emulated, suffix, kind, shape, axes, transposed)


def test_reduce_special_values(emulated: EmulatedKernels) -> None:
    """NaN propagates through max and min; log-sum-exp of -inf rows is -inf,
    of a row with +inf is +inf; large values do not overflow its shift."""
    x = np.array(
        [[1, np.nan, 3], [-np.inf, -np.inf, -np.inf], [1, np.inf, 2], [500, 501, 499]],
        np.float32,
    )
    meta = np.asarray([4, 3, 1, 3, 1], np.int64)
    with np.errstate(all="ignore"):
        wants = {
            "max": np.max(x, axis=1),
            "min": np.min(x, axis=1),
            "log_sum_exp": np.array(
                [np.nan, -np.inf, np.inf, 501 + np.log1p(np.exp(-1) + np.exp(-2))]
            ),
        }
    for kind, want in wants.items():
        for warp, order in WARPS:
            out = Guarded(np.zeros(4, np.float32))
            args: list[KernelArg] = [
                ("i32", REDUCE_CODES[kind]),
                ("ptr", x.ctypes.data),
                ("ptr", out.address),
                ("i32", 1),
                ("i32", 1),
                ("ptr", meta.ctypes.data),
                ("i64", 4),
                ("i64", 3),
            ]
            emulated.launch(
                "xhip_reduce_f32", 2, 4, 16, args, warp_size=warp, order=order
            )
            out.check()
            np.testing.assert_allclose(out.array, want, rtol=1e-6, err_msg=kind)


ARG_CASES = [
    # shape, axis
    ((1,), 0),
    ((1009,), 0),
    ((6, 37), 1),
    ((37, 6), 0),
    ((3, 33, 5), 1),
    ((70, 2), 1),  # more outputs than the grid
]


def _arg_params() -> list[tuple[str, tuple[int, ...], int]]:
    """float32 on every case, the other types on three."""
    cases = [("f32", shape, axis) for shape, axis in ARG_CASES]
    for suffix in sorted(ARG_TYPES - {"f32"}):
        cases += [(suffix, shape, axis) for shape, axis in ARG_CASES[2:5]]
    return cases


@pytest.mark.parametrize("find_max", [1, 0], ids=["argmax", "argmin"])
@pytest.mark.parametrize("last", [0, 1], ids=["first", "last"])
@pytest.mark.parametrize("suffix,shape,axis", _arg_params(), ids=str)
def test_arg_reduce(
    emulated: EmulatedKernels,
    find_max: int,
    last: int,
    suffix: str,
    shape: tuple[int, ...],
    axis: int,
) -> None:
    """Ties (few distinct values) go to the first or last index; NaN as ONNX
    Runtime scans it (`cpu_reduce.arg_extreme`, checked against ORT in
    test_fuzz.py): never taken, unless it is the first element."""
    rng = np.random.default_rng(zlib.crc32(f"{shape} {axis}".encode()))
    dtype = DTYPES[suffix]
    low = 0 if dtype.kind == "u" else -3
    x = rng.integers(low, 4, shape).astype(dtype)
    if x.size > 10 and dtype.kind == "f":
        x.flat[x.size // 2] = np.nan
        x.flat[0] = np.nan  # a leading NaN, in one row
    kind = "max" if find_max else "min"
    want = arg_extreme(x, axis, kind, bool(last)).squeeze(axis)
    kept = [d for d in range(x.ndim) if d != axis]
    item = x.itemsize
    meta = np.asarray(
        [
            *(x.shape[d] for d in kept),
            *(x.strides[d] // item for d in kept),
            *(math.prod(want.shape[i + 1 :]) for i in range(len(kept))),
        ]
        or [0],
        np.int64,
    )
    n = x.shape[axis]
    for grid, block in _launches(want.size, n):
        for warp, order in WARPS:
            out = Guarded(np.full(want.shape, -5, np.int64))
            args: list[KernelArg] = [
                ("i32", find_max),
                ("i32", last),
                ("ptr", x.ctypes.data),
                ("ptr", out.address),
                ("i32", len(kept)),
                ("ptr", meta.ctypes.data),
                ("i64", want.size),
                ("i64", n),
                ("i64", x.strides[axis] // item),
            ]
            emulated.launch(
                f"xhip_arg_reduce_{suffix}",
                grid,
                block,
                (8 + accumulator_bytes(suffix)) * block,
                args,
                warp_size=warp,
                order=order,
            )
            out.check()
            np.testing.assert_array_equal(
                out.array, want, err_msg=f"grid {grid} block {block} warp {warp}"
            )


def _layer_norm64(
    x: np.ndarray, scale: np.ndarray, bias: np.ndarray | None, eps: float, rms: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    w = x.astype(np.float64)
    mean = np.zeros((w.shape[0], 1)) if rms else w.mean(axis=1, keepdims=True)
    var = ((w - mean) ** 2).mean(axis=1, keepdims=True)
    inv = 1 / np.sqrt(var + eps)
    y = (w - mean) * inv * scale
    return (y if bias is None else y + bias), mean[:, 0], inv[:, 0]


NORM_CASES = [(1, 1), (3, 7), (2, 256), (5, 257), (70, 13), (2, 1009)]


def _norm_params() -> list[tuple[str, int, int]]:
    """float32 on every case, float16 and float64 on three."""
    cases = [("f32", rows, n) for rows, n in NORM_CASES]
    for suffix in OTHER_FLOATS:
        cases += [(suffix, rows, n) for rows, n in NORM_CASES[1::2]]
    return cases


def _eps_bits(eps: float) -> int:
    return int(np.float64(eps).view(np.int64))


@pytest.mark.parametrize("rms", [0, 1], ids=["layer", "rms"])
@pytest.mark.parametrize("with_bias", [True, False], ids=["bias", "no-bias"])
@pytest.mark.parametrize("suffix,rows,n", _norm_params())
def test_layer_norm(
    emulated: EmulatedKernels,
    rms: int,
    with_bias: bool,
    suffix: str,
    rows: int,
    n: int,
) -> None:
    """Mean and inv_std come in the compute type (float for float16)."""
    dtype, work = DTYPES[suffix], compute_dtype(suffix)
    rng = np.random.default_rng(rows * 100 + n)
    x = (rng.normal(3, 2, (rows, n))).astype(dtype)
    scale = rng.normal(1, 0.5, n).astype(dtype)
    bias = rng.normal(0, 1, n).astype(dtype) if with_bias and not rms else None
    eps = 1e-3
    want, mean, inv = _layer_norm64(x, scale, bias, eps, bool(rms))
    tol = {"f16": 3e-3, "f32": 1e-4, "f64": 1e-12}[suffix]
    for grid, block in _launches(rows, n):
        for warp, order in WARPS:
            y = Guarded(np.full((rows, n), 9.0, dtype))
            m = Guarded(np.full(rows, 9.0, work))
            s = Guarded(np.full(rows, 9.0, work))
            args: list[KernelArg] = [
                ("ptr", x.ctypes.data),
                ("ptr", scale.ctypes.data),
                ("ptr", 0 if bias is None else bias.ctypes.data),
                ("ptr", y.address),
                ("ptr", m.address),
                ("ptr", s.address),
                ("i64", rows),
                ("i64", n),
                ("i64", _eps_bits(eps)),
                ("i32", rms),
            ]
            emulated.launch(
                f"xhip_layer_norm_{suffix}",
                grid,
                block,
                accumulator_bytes(suffix) * block,
                args,
                warp_size=warp,
                order=order,
            )
            for g in (y, m, s):
                g.check()
            where = f"grid {grid} block {block} warp {warp}"
            np.testing.assert_allclose(
                y.array.astype(np.float64), want, rtol=tol, atol=tol, err_msg=where
            )
            stat = min(tol, 1e-5)
            np.testing.assert_allclose(
                m.array, mean, rtol=stat, atol=stat, err_msg=where
            )
            np.testing.assert_allclose(s.array, inv, rtol=tol, err_msg=where)


def test_layer_norm_without_statistics(emulated: EmulatedKernels) -> None:
    """Null mean and inv_std pointers: nothing but y is written."""
    x = np.random.default_rng(1).normal(size=(4, 9)).astype(np.float32)
    scale = np.ones(9, np.float32)
    want, _, _ = _layer_norm64(x, scale, None, 1e-5, False)
    y = Guarded(np.zeros((4, 9), np.float32))
    args: list[KernelArg] = [
        ("ptr", x.ctypes.data),
        ("ptr", scale.ctypes.data),
        ("ptr", 0),
        ("ptr", y.address),
        ("ptr", 0),
        ("ptr", 0),
        ("i64", 4),
        ("i64", 9),
        ("i64", _eps_bits(1e-5)),
        ("i32", 0),
    ]
    emulated.launch("xhip_layer_norm_f32", 3, 16, 64, args, warp_size=64)
    y.check()
    np.testing.assert_allclose(y.array, want, rtol=1e-4, atol=1e-5)


def _log_softmax64(x: np.ndarray) -> np.ndarray:
    w = x.astype(np.float64)
    d = w - w.max(axis=1, keepdims=True)
    return d - np.log(np.exp(d).sum(axis=1, keepdims=True))


def _hardmax(x: np.ndarray) -> np.ndarray:
    out = np.zeros_like(x)
    np.put_along_axis(out, np.argmax(x, axis=1)[:, None], 1.0, axis=1)
    return out


ROW_CASES = [(1, 1), (3, 5), (4, 257), (70, 13), (2, 1009)]


def _row_params(types: list[str]) -> list[tuple[str, int, int]]:
    """float32 on every case (where it is among `types`), the others on three."""
    cases = [("f32", rows, n) for rows, n in ROW_CASES] if "f32" in types else []
    for suffix in sorted(set(types) - {"f32"}):
        cases += [(suffix, rows, n) for rows, n in ROW_CASES[1:4]]
    return cases


@pytest.mark.parametrize("hard", [0, 1], ids=["log_softmax", "hardmax"])
@pytest.mark.parametrize("suffix,rows,n", _row_params(sorted(FLOAT_TYPES)))
def test_softmax_kind_rows(
    emulated: EmulatedKernels, hard: int, suffix: str, rows: int, n: int
) -> None:
    dtype = DTYPES[suffix]
    rng = np.random.default_rng(rows * 10 + n)
    x = rng.integers(-4, 5, (rows, n)).astype(dtype) * 7  # ties for hardmax
    if n > 3:
        x[0, :2] = -np.inf
        x[-1, -1] = 80.0
    want = _hardmax(x) if hard else _log_softmax64(x)
    tol = {"f16": 2e-3, "f32": 2e-5, "f64": 1e-12}[suffix]
    for grid, block in _launches(rows, n):
        for warp, order in WARPS:
            out = Guarded(np.full((rows, n), 3.0, dtype))
            args: list[KernelArg] = [
                ("i32", hard),
                ("ptr", x.ctypes.data),
                ("ptr", out.address),
                ("i64", rows),
                ("i64", n),
            ]
            emulated.launch(
                f"xhip_softmax_kind_rows_{suffix}",
                grid,
                block,
                (8 + accumulator_bytes(suffix)) * block,
                args,
                warp_size=warp,
                order=order,
            )
            out.check()
            np.testing.assert_allclose(
                out.array.astype(np.float64),
                want,
                rtol=tol,
                atol=tol,
                err_msg=f"grid {grid} block {block} warp {warp}",
            )


def test_softmax_kind_rows_in_place(emulated: EmulatedKernels) -> None:
    """The runtime runs it in place on its scratch."""
    x = np.random.default_rng(3).normal(size=(5, 70)).astype(np.float32)
    want = _log_softmax64(x)
    buffer = Guarded(x)
    args: list[KernelArg] = [
        ("i32", 0),
        ("ptr", buffer.address),
        ("ptr", buffer.address),
        ("i64", 5),
        ("i64", 70),
    ]
    emulated.launch("xhip_softmax_kind_rows_f32", 2, 64, 12 * 64, args, warp_size=32)
    buffer.check()
    np.testing.assert_allclose(buffer.array, want, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("suffix", ["f32", "f64"])
def test_log_softmax_rows_far_from_zero(emulated: EmulatedKernels, suffix: str) -> None:
    """Rows near -11220 (integer-valued, as a cast MatMulInteger gives: fuzz
    seed 226395): the result is (x - max) - log(sum), exact to the type's
    precision, where x - (max + log(sum)) loses the ulps of 11220."""
    dtype = DTYPES[suffix]
    rng = np.random.default_rng(226395)
    x = (rng.integers(-3, 4, (6, 37)) - 11220).astype(dtype)
    x[1] = -19380.0  # a row of ties: log(1/37) each
    want = _log_softmax64(x)
    out = Guarded(np.full(x.shape, 3.0, dtype))
    args: list[KernelArg] = [
        ("i32", 0),
        ("ptr", x.ctypes.data),
        ("ptr", out.address),
        ("i64", 6),
        ("i64", 37),
    ]
    block = 64
    emulated.launch(
        f"xhip_softmax_kind_rows_{suffix}",
        3,
        block,
        (8 + accumulator_bytes(suffix)) * block,
        args,
        warp_size=32,
    )
    out.check()
    tol = {"f32": 2e-6, "f64": 1e-14}[suffix]
    np.testing.assert_allclose(out.array, want, rtol=tol, atol=tol)


def _softmax64(x: np.ndarray, scale: float) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        z = x.astype(np.float64) * scale
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("scale", [None, 0.125, -2.0])
@pytest.mark.parametrize("suffix,rows,n", _row_params(OTHER_FLOATS))
def test_softmax_rows(
    emulated: EmulatedKernels, scale: float | None, suffix: str, rows: int, n: int
) -> None:
    """gpu.py's softmax on float16 and float64 (float32's kernel is
    xhip_kernels.h's, tested in test_kernels.py), scaled by a one-element
    operand of the same type; in place too (the runtime's scratch)."""
    dtype = DTYPES[suffix]
    rng = np.random.default_rng(rows * 1000 + n)
    x = (rng.standard_normal((rows, n)) * 4).astype(dtype)
    if n > 3:
        x[0, :2] = -np.inf  # masked entries
        x[-1, -1] = 10.0  # a dominant one
    factor = np.array([scale if scale is not None else 1.0], dtype)
    want = _softmax64(x, float(factor[0]))
    tol = {"f16": 2e-3, "f64": 1e-12}[suffix]
    for grid, block in _launches(rows, n):
        for warp, order in WARPS:
            for in_place in (False, True):
                out = Guarded(x.copy() if in_place else np.full((rows, n), 3.0, dtype))
                args: list[KernelArg] = [
                    ("ptr", out.address if in_place else x.ctypes.data),
                    ("ptr", out.address),
                    ("ptr", 0 if scale is None else factor.ctypes.data),
                    ("i64", rows),
                    ("i64", n),
                ]
                emulated.launch(
                    f"xhip_softmax_rows_{suffix}",
                    grid,
                    block,
                    accumulator_bytes(suffix) * block,
                    args,
                    warp_size=warp,
                    order=order,
                )
                out.check()
                np.testing.assert_allclose(
                    out.array.astype(np.float64),
                    want,
                    rtol=tol,
                    atol=tol,
                    err_msg=f"grid {grid} block {block} warp {warp}",
                )
