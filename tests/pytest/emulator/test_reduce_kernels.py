"""The kernels of `kernels/reduce.h` run by the emulator against numpy float64,
at warp size 32 and 64 (threads in forward and reverse order): sizes 0, 1,
primes, non-multiples of the block, more outputs than the grid, reductions
over inner, outer and middle axes, strided (transposed) inputs.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterator

import numpy as np
import pytest

from xhip.backend.gpu_reduce import REDUCE_CODES, block_for
from xhip.testing.emulator import EmulatedKernels, Guarded

pytestmark = pytest.mark.emulator

KERNELS = {
    "xhip_reduce_f32",
    "xhip_arg_reduce_f32",
    "xhip_layer_norm_f32",
    "xhip_softmax_kind_rows_f32",
}
WARPS = ((32, "forward"), (64, "reverse"))


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
    rng = np.random.default_rng(zlib.crc32(f"{kind} {shape} {axes}".encode()))
    base = rng.uniform(0.5, 1.5, shape) if kind == "prod" else rng.normal(0, 2, shape)
    x = base.astype(np.float32)
    if transposed:
        x = np.ascontiguousarray(x.T).T
    kept = [d for d in range(x.ndim) if d not in axes]
    red = [d for d in range(x.ndim) if d in axes]
    want = _reference(x, kind, axes)
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
            out = Guarded(np.full(want.shape, 7.0, np.float32))
            args = [
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
                "xhip_reduce_f32",
                grid,
                block,
                4 * block,
                args,
                warp_size=warp,
                order=order,
            )
            out.check()
            where = f"{kind} grid {grid} block {block} warp {warp}"
            np.testing.assert_allclose(
                out.array, want, rtol=3e-5, atol=3e-5, err_msg=where
            )


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
            args = [
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


@pytest.mark.parametrize("find_max", [1, 0], ids=["argmax", "argmin"])
@pytest.mark.parametrize("last", [0, 1], ids=["first", "last"])
@pytest.mark.parametrize("shape,axis", ARG_CASES, ids=str)
def test_arg_reduce(
    emulated: EmulatedKernels,
    find_max: int,
    last: int,
    shape: tuple[int, ...],
    axis: int,
) -> None:
    """Ties (few distinct values) go to the first or last index; NaN wins."""
    rng = np.random.default_rng(zlib.crc32(f"{shape} {axis}".encode()))
    x = rng.integers(-3, 4, shape).astype(np.float32)
    if x.size > 10:
        x.flat[x.size // 2] = np.nan
    find = np.argmax if find_max else np.argmin
    want = (
        x.shape[axis] - 1 - find(np.flip(x, axis), axis=axis)
        if last
        else find(x, axis=axis)
    )
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
            args = [
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
                "xhip_arg_reduce_f32",
                grid,
                block,
                12 * block,
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


@pytest.mark.parametrize("rms", [0, 1], ids=["layer", "rms"])
@pytest.mark.parametrize("with_bias", [True, False], ids=["bias", "no-bias"])
@pytest.mark.parametrize("rows,n", NORM_CASES)
def test_layer_norm(
    emulated: EmulatedKernels, rms: int, with_bias: bool, rows: int, n: int
) -> None:
    rng = np.random.default_rng(rows * 100 + n)
    x = (rng.normal(3, 2, (rows, n))).astype(np.float32)
    scale = rng.normal(1, 0.5, n).astype(np.float32)
    bias = rng.normal(0, 1, n).astype(np.float32) if with_bias and not rms else None
    eps = 1e-3
    want, mean, inv = _layer_norm64(x, scale, bias, eps, bool(rms))
    bits = int(np.float32(eps).view(np.int32))
    for grid, block in _launches(rows, n):
        for warp, order in WARPS:
            y = Guarded(np.full((rows, n), 9.0, np.float32))
            m = Guarded(np.full(rows, 9.0, np.float32))
            s = Guarded(np.full(rows, 9.0, np.float32))
            args = [
                ("ptr", x.ctypes.data),
                ("ptr", scale.ctypes.data),
                ("ptr", 0 if bias is None else bias.ctypes.data),
                ("ptr", y.address),
                ("ptr", m.address),
                ("ptr", s.address),
                ("i64", rows),
                ("i64", n),
                ("i32", bits),
                ("i32", rms),
            ]
            emulated.launch(
                "xhip_layer_norm_f32",
                grid,
                block,
                4 * block,
                args,
                warp_size=warp,
                order=order,
            )
            for g in (y, m, s):
                g.check()
            where = f"grid {grid} block {block} warp {warp}"
            np.testing.assert_allclose(
                y.array, want, rtol=1e-4, atol=1e-5, err_msg=where
            )
            np.testing.assert_allclose(
                m.array, mean, rtol=1e-5, atol=1e-5, err_msg=where
            )
            np.testing.assert_allclose(s.array, inv, rtol=1e-4, err_msg=where)


def test_layer_norm_without_statistics(emulated: EmulatedKernels) -> None:
    """Null mean and inv_std pointers: nothing but y is written."""
    x = np.random.default_rng(1).normal(size=(4, 9)).astype(np.float32)
    scale = np.ones(9, np.float32)
    want, _, _ = _layer_norm64(x, scale, None, 1e-5, False)
    y = Guarded(np.zeros((4, 9), np.float32))
    bits = int(np.float32(1e-5).view(np.int32))
    args = [("ptr", x.ctypes.data), ("ptr", scale.ctypes.data), ("ptr", 0)]
    args += [("ptr", y.address), ("ptr", 0), ("ptr", 0)]
    args += [("i64", 4), ("i64", 9), ("i32", bits), ("i32", 0)]
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


@pytest.mark.parametrize("hard", [0, 1], ids=["log_softmax", "hardmax"])
@pytest.mark.parametrize("rows,n", [(1, 1), (3, 5), (4, 257), (70, 13), (2, 1009)])
def test_softmax_kind_rows(
    emulated: EmulatedKernels, hard: int, rows: int, n: int
) -> None:
    rng = np.random.default_rng(rows * 10 + n)
    x = rng.integers(-4, 5, (rows, n)).astype(np.float32) * 7  # ties for hardmax
    if n > 3:
        x[0, :2] = -np.inf
        x[-1, -1] = 80.0
    want = _hardmax(x) if hard else _log_softmax64(x)
    for grid, block in _launches(rows, n):
        for warp, order in WARPS:
            out = Guarded(np.full((rows, n), 3.0, np.float32))
            args = [
                ("i32", hard),
                ("ptr", x.ctypes.data),
                ("ptr", out.address),
                ("i64", rows),
                ("i64", n),
            ]
            emulated.launch(
                "xhip_softmax_kind_rows_f32",
                grid,
                block,
                12 * block,
                args,
                warp_size=warp,
                order=order,
            )
            out.check()
            np.testing.assert_allclose(
                out.array,
                want,
                rtol=2e-5,
                atol=2e-5,
                err_msg=f"grid {grid} block {block} warp {warp}",
            )


def test_softmax_kind_rows_in_place(emulated: EmulatedKernels) -> None:
    """The runtime runs it in place on its scratch."""
    x = np.random.default_rng(3).normal(size=(5, 70)).astype(np.float32)
    want = _log_softmax64(x)
    buffer = Guarded(x)
    args = [("i32", 0), ("ptr", buffer.address), ("ptr", buffer.address)]
    args += [("i64", 5), ("i64", 70)]
    emulated.launch("xhip_softmax_kind_rows_f32", 2, 64, 12 * 64, args, warp_size=32)
    buffer.check()
    np.testing.assert_allclose(buffer.array, want, rtol=2e-5, atol=2e-5)
