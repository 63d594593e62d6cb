"""The kernels of `kernels/image.h` run by the emulator against numpy, at warp
size 32 and 64 (threads in forward and reverse order): Pad in every mode and
element size (negative pads, pads past the input's length, strided inputs),
group normalization (per channel and per group; rows longer than the block,
more rows than the grid) and LRN (windows cut by the first and last channel);
then the float32 models of `tests/pytest/backend/test_image_models.py` on the
GPU runtimes in debug mode, against ONNX Runtime.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterator

import numpy as np
import pytest

import xhip
from tests.pytest.backend.test_image_models import MODELS, check, expected, inputs
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.gpu_image import PAD_CODES, PAD_KERNELS
from xhip.backend.gpu_reduce import block_for
from xhip.backend.session import CompiledModel
from xhip.testing.emulator import EmulatedKernels, Guarded

pytestmark = pytest.mark.emulator

KERNELS = {*PAD_KERNELS.values(), "xhip_group_norm_f32", "xhip_lrn_f32"}
WARPS = ((32, "forward"), (64, "reverse"))


def _launches(work: int, n: int) -> Iterator[tuple[int, int]]:
    """(grid, block): one thread; a grid and block smaller than the work (both
    strided loops); the runtime's choice."""
    yield 1, 1
    yield max(1, min(2, work)), 32
    yield max(1, min(work, 5)), block_for(n)


def _pad_reference(
    x: np.ndarray, pads: list[int], mode: str, value: object
) -> np.ndarray:
    """Crop by the negative pads, then numpy's pad by the positive ones."""
    rank = x.ndim
    crop = tuple(
        slice(max(-pads[d], 0), x.shape[d] - max(-pads[rank + d], 0))
        for d in range(rank)
    )
    widths = [(max(pads[d], 0), max(pads[rank + d], 0)) for d in range(rank)]
    if mode == "constant":
        return np.pad(x[crop], widths, mode="constant", constant_values=value)  # pyright: ignore[reportCallIssue, reportArgumentType]
    return np.pad(x[crop], widths, mode=mode)  # pyright: ignore[reportCallIssue, reportArgumentType]


PAD_CASES = [
    # shape, pads (begins, then ends), transposed input
    ((5,), [2, 3], False),
    ((1, 3, 4, 5), [0, 0, 1, 3, 0, 0, 2, 4], False),
    ((4, 6), [-1, 2, 3, -2], False),  # crop one side, pad the other
    ((3, 4), [7, 0, 0, 9], False),  # past the input's length: periodic
    ((6, 5), [1, 2, 2, 1], True),
    ((2, 3, 1), [0, 1, 2, 1, 0, 3], False),
]


@pytest.mark.parametrize("size", sorted(PAD_KERNELS))
@pytest.mark.parametrize("mode", sorted(PAD_CODES))
@pytest.mark.parametrize("shape,pads,transposed", PAD_CASES, ids=str)
def test_pad(
    emulated: EmulatedKernels,
    size: int,
    mode: str,
    shape: tuple[int, ...],
    pads: list[int],
    transposed: bool,
) -> None:
    rng = np.random.default_rng(zlib.crc32(f"{size} {mode} {shape} {pads}".encode()))
    dtype = np.dtype(f"u{size}")
    x = rng.integers(1, 200, shape).astype(dtype)
    if transposed:
        x = np.ascontiguousarray(x.T).T
    rank = x.ndim
    fill = np.asarray([77], dtype)
    want = _pad_reference(x, pads, mode, fill[0])
    kept = [
        x.shape[d] - max(-pads[d], 0) - max(-pads[rank + d], 0) for d in range(rank)
    ]
    meta = np.asarray(
        [
            *want.shape,
            *(math.prod(want.shape[d + 1 :]) for d in range(rank)),
            *(s // x.itemsize for s in x.strides),
            *kept,
            *(max(p, 0) for p in pads[:rank]),
            *(max(-p, 0) for p in pads[:rank]),
        ],
        np.int64,
    )
    for grid, block in _launches(want.size, want.size):
        for warp, order in WARPS:
            out = Guarded(np.zeros(want.shape, dtype))
            args = [
                ("i32", PAD_CODES[mode]),
                ("ptr", out.address),
                ("ptr", x.ctypes.data),
                ("i32", rank),
                ("ptr", meta.ctypes.data),
                ("i64", want.size),
                ("ptr", fill.ctypes.data),
            ]
            emulated.launch(
                PAD_KERNELS[size], grid, block, 0, args, warp_size=warp, order=order
            )
            out.check()
            np.testing.assert_array_equal(
                out.array, want, err_msg=f"grid {grid} block {block} warp {warp}"
            )


def test_pad_without_a_value_writes_zeros(emulated: EmulatedKernels) -> None:
    x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    meta = np.asarray([4, 4, 4, 1, 3, 1, 2, 3, 1, 0, 0, 0], np.int64)
    out = Guarded(np.full((4, 4), 5.0, np.float32))
    args = [("i32", PAD_CODES["constant"]), ("ptr", out.address)]
    args += [("ptr", x.ctypes.data), ("i32", 2), ("ptr", meta.ctypes.data)]
    args += [("i64", 16), ("ptr", 0)]
    emulated.launch("xhip_pad_4", 2, 8, 0, args, warp_size=32)
    out.check()
    np.testing.assert_array_equal(out.array, np.pad(x, ((1, 1), (0, 1))))


def _group_norm64(
    x: np.ndarray, groups: int, scale: np.ndarray, bias: np.ndarray, eps: float
) -> np.ndarray:
    n, c = x.shape[:2]
    w = x.astype(np.float64).reshape(n, groups, -1)
    mean = w.mean(axis=2, keepdims=True)
    var = w.var(axis=2, keepdims=True)
    y = ((w - mean) / np.sqrt(var + eps)).reshape(x.shape)
    spatial = (1,) * (x.ndim - 2)
    return y * scale.reshape(c, *spatial) + bias.reshape(c, *spatial)


GROUP_CASES = [
    # shape (N, C, spatial...), groups
    ((1, 1, 1), 1),
    ((2, 4, 3, 3), 2),
    ((3, 6, 5), 6),  # instance normalization
    ((1, 8, 300), 1),  # longer than the block
    ((70, 2, 3), 1),  # more rows than the grid
    ((2, 3), 3),  # no spatial dims
]


@pytest.mark.parametrize("per_group", [False, True], ids=["per-channel", "per-group"])
@pytest.mark.parametrize("shape,groups", GROUP_CASES, ids=str)
def test_group_norm(
    emulated: EmulatedKernels,
    per_group: bool,
    shape: tuple[int, ...],
    groups: int,
) -> None:
    rng = np.random.default_rng(zlib.crc32(f"{shape} {groups} {per_group}".encode()))
    x = rng.normal(3, 2, shape).astype(np.float32)
    n, c = shape[:2]
    count = groups if per_group else c
    scale = rng.normal(1, 0.5, count).astype(np.float32)
    bias = rng.normal(0, 1, count).astype(np.float32)
    eps = 1e-3
    full = (np.repeat(scale, c // groups), np.repeat(bias, c // groups))
    want = _group_norm64(x, groups, *(full if per_group else (scale, bias)), eps)
    spatial = math.prod(shape[2:])
    rows, length = n * groups, (c // groups) * spatial
    for grid, block in _launches(rows, length):
        for warp, order in WARPS:
            y = Guarded(np.full(shape, 9.0, np.float32))
            args = [
                ("ptr", x.ctypes.data),
                ("ptr", scale.ctypes.data),
                ("ptr", bias.ctypes.data),
                ("ptr", y.address),
                ("i64", rows),
                ("i64", groups),
                ("i64", c // groups),
                ("i64", spatial),
                ("i32", int(np.float32(eps).view(np.int32))),
                ("i32", int(per_group)),
            ]
            emulated.launch(
                "xhip_group_norm_f32",
                grid,
                block,
                16 * block,
                args,
                warp_size=warp,
                order=order,
            )
            y.check()
            np.testing.assert_allclose(
                y.array,
                want,
                rtol=1e-4,
                atol=1e-4,
                err_msg=f"grid {grid} block {block} warp {warp}",
            )


def _lrn64(
    x: np.ndarray, size: int, alpha: float, beta: float, bias: float
) -> np.ndarray:
    w = x.astype(np.float64)
    c = x.shape[1]
    total = np.zeros_like(w)
    for k in range(c):
        lo, hi = max(0, k - (size - 1) // 2), min(c, k + size // 2 + 1)
        total[:, k] = np.sum(w[:, lo:hi] ** 2, axis=1)
    return w / (bias + alpha / size * total) ** beta


LRN_CASES = [
    # shape, size
    ((1, 1, 1), 1),
    ((5, 5, 5, 5), 3),
    ((2, 7, 4), 4),  # even: one more channel after than before
    ((1, 3, 6), 9),  # wider than the channels
    ((3, 16), 5),  # no spatial dims
]


@pytest.mark.parametrize("shape,size", LRN_CASES, ids=str)
def test_lrn(emulated: EmulatedKernels, shape: tuple[int, ...], size: int) -> None:
    rng = np.random.default_rng(zlib.crc32(f"{shape} {size}".encode()))
    x = rng.normal(0, 3, shape).astype(np.float32)
    alpha, beta, bias = 0.02, 0.75, 1.5
    want = _lrn64(x, size, alpha, beta, bias)

    def bits(v: float) -> int:
        return int(np.float32(v).view(np.int32))

    for grid, block in _launches(x.size, x.size):
        for warp, order in WARPS:
            y = Guarded(np.full(shape, 9.0, np.float32))
            args = [
                ("ptr", x.ctypes.data),
                ("ptr", y.address),
                ("i64", x.size),
                ("i64", shape[1]),
                ("i64", math.prod(shape[2:])),
                ("i32", size),
                ("i32", bits(alpha / size)),
                ("i32", bits(beta)),
                ("i32", bits(bias)),
            ]
            emulated.launch(
                "xhip_lrn_f32", grid, block, 0, args, warp_size=warp, order=order
            )
            y.check()
            np.testing.assert_allclose(
                y.array,
                want,
                rtol=2e-5,
                atol=1e-6,
                err_msg=f"grid {grid} block {block} warp {warp}",
            )


@pytest.mark.parametrize("name", sorted(MODELS))
def test_image_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    model, runs = MODELS[name]
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, make_gpu(debug=True)
    )
    for sizes in runs:
        feeds = inputs(model, sizes)
        check(compiled(feeds), expected(model, feeds))
