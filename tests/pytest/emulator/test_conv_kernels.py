"""The kernels of `kernels/conv.h` run by the emulator against numpy float64
references, at warp size 32 and 64 (threads in forward and reverse order):
1-D, 2-D and 3-D windows, sizes 1, primes and odd spatial sizes, strides,
dilations, asymmetric pads, windows reaching past the end (ceil mode),
strided (transposed) inputs and outputs, grids smaller than the data.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered. The references are written from the ONNX definitions with
plain loops over the output positions, not from the runtime's code."""

from __future__ import annotations

import itertools
import math
import zlib

import numpy as np
import pytest

from xhip.backend.gpu_conv import POOL_MODES
from xhip.testing.emulator import EmulatedKernels, Guarded

pytestmark = pytest.mark.emulator

KERNELS = {"xhip_im2col_f32", "xhip_pool_f32"}
WARPS = ((32, "forward"), (64, "reverse"))

# in spatial shape, kernel, strides, dilations, pads (begins then ends), channels
WINDOWS = [
    ((1,), (1,), (1,), (1,), (0, 0), 1),
    ((7,), (3,), (2,), (1,), (1, 2), 3),
    ((13,), (2,), (3,), (2,), (0, 1), 2),
    ((5, 5), (3, 3), (1, 1), (1, 1), (1, 1, 1, 1), 2),
    ((7, 5), (3, 2), (2, 1), (1, 2), (1, 0, 2, 1), 3),
    ((11, 3), (1, 3), (3, 2), (1, 1), (0, 1, 0, 1), 1),
    ((3, 5, 4), (2, 3, 2), (1, 2, 1), (2, 1, 1), (1, 1, 0, 0, 1, 1), 2),
]


def _out_shape(
    in_shape: tuple[int, ...],
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
    pads: tuple[int, ...],
    extra: int = 0,
) -> tuple[int, ...]:
    r = len(in_shape)
    return tuple(
        (in_shape[d] + pads[d] + pads[r + d] - dilations[d] * (kernel[d] - 1) - 1)
        // strides[d]
        + 1
        + extra
        for d in range(r)
    )


def _positions(
    o: tuple[int, ...],
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
    pads: tuple[int, ...],
) -> list[tuple[int, ...]]:
    """The input coordinates of output `o`'s window, taps row-major."""
    return [
        tuple(o[d] * strides[d] - pads[d] + t[d] * dilations[d] for d in range(len(o)))
        for t in itertools.product(*(range(k) for k in kernel))
    ]


def _launches(n: int) -> list[tuple[int, int]]:
    """One thread, a grid smaller than the data, the runtime's shape."""
    return [(1, 1), (2, 32), (max(1, -(-n // 256)), 256)]


@pytest.mark.parametrize("window", WINDOWS, ids=lambda w: str(w).replace(" ", ""))
@pytest.mark.parametrize("transposed", [False, True])
def test_im2col(
    emulated: EmulatedKernels,
    window: tuple[tuple[int, ...], ...],
    transposed: bool,
) -> None:
    in_shape, kernel, strides, dilations, pads, channels = window
    assert isinstance(channels, int)
    rank = len(in_shape)
    rng = np.random.default_rng(zlib.crc32(str(window).encode()))
    x = rng.normal(size=(channels, *in_shape)).astype(np.float32)
    if transposed:
        x = np.ascontiguousarray(x.T).T
    out_shape = _out_shape(in_shape, kernel, strides, dilations, pads)
    taps = math.prod(kernel)
    want = np.zeros((channels, taps, *out_shape))
    for o in itertools.product(*(range(s) for s in out_shape)):
        for k, at in enumerate(_positions(o, kernel, strides, dilations, pads)):
            if all(0 <= a < s for a, s in zip(at, in_shape)):
                want[(slice(None), k, *o)] = x[(slice(None), *at)]
    item = x.itemsize
    meta = np.asarray(
        [channels, *in_shape, *out_shape, *kernel, *strides, *dilations]
        + [*pads[:rank], *(s // item for s in x.strides)],
        np.int64,
    )
    n = want.size
    for grid, block in _launches(n):
        for warp, order in WARPS:
            col = Guarded(np.full(n, np.nan, np.float32))
            emulated.launch(
                "xhip_im2col_f32",
                grid,
                block,
                0,
                [
                    ("ptr", x.ctypes.data),
                    ("ptr", col.address),
                    ("i32", rank),
                    ("ptr", meta.ctypes.data),
                    ("i64", n),
                ],
                warp_size=warp,
                order=order,
            )
            col.check()
            np.testing.assert_array_equal(
                col.array.reshape(want.shape), want.astype(np.float32)
            )


def _pool_reference(
    x: np.ndarray,
    mode: str,
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
    pads: tuple[int, ...],
    out_shape: tuple[int, ...],
    column_major: bool,
) -> tuple[np.ndarray, np.ndarray]:
    n, c, *in_shape = x.shape
    r = len(in_shape)
    y = np.zeros((n, c, *out_shape))
    idx = np.zeros((n, c, *out_shape), np.int64)
    for b, ch in itertools.product(range(n), range(c)):
        for o in itertools.product(*(range(s) for s in out_shape)):
            values, flats, padded = [], [], 0
            for at in _positions(o, kernel, strides, dilations, pads):
                if all(-pads[d] <= at[d] < in_shape[d] + pads[r + d] for d in range(r)):
                    padded += 1
                if not all(0 <= a < s for a, s in zip(at, in_shape)):
                    continue
                values.append(float(x[(b, ch, *at)]))
                order = range(r) if column_major else reversed(range(r))
                flat, weight = 0, 1
                for d in order:
                    flat += at[d] * weight
                    weight *= in_shape[d]
                flats.append((b * c + ch) * math.prod(in_shape) + flat)
            if mode == "max":
                best = int(np.argmax(values))
                y[(b, ch, *o)] = values[best]
                idx[(b, ch, *o)] = flats[best]
            else:
                count = padded if mode == "average_with_pad" else len(values)
                y[(b, ch, *o)] = sum(values) / count
    return y, idx


@pytest.mark.parametrize("window", WINDOWS, ids=lambda w: str(w).replace(" ", ""))
@pytest.mark.parametrize("mode", sorted(POOL_MODES))
@pytest.mark.parametrize("layout", ["dense", "transposed", "ceil"])
def test_pool(
    emulated: EmulatedKernels,
    window: tuple[tuple[int, ...], ...],
    mode: str,
    layout: str,
) -> None:
    in_shape, kernel, strides, dilations, pads, channels = window
    assert isinstance(channels, int)
    rank = len(in_shape)
    rng = np.random.default_rng(zlib.crc32(f"{window} {mode}".encode()))
    x = rng.normal(size=(2, channels, *in_shape)).astype(np.float32)
    x[(0, 0, *(0 for _ in in_shape))] = 3.0  # a tie with the next line
    x[(0, 0, *(min(1, s - 1) for s in in_shape))] = 3.0
    extra = 1 if layout == "ceil" and any(s > 1 for s in strides) else 0
    out_shape = _out_shape(in_shape, kernel, strides, dilations, pads, extra)
    if extra:  # the last window must still start inside the image or its pad
        out_shape = tuple(
            min(o, -(-(s + pads[d]) // strides[d]))
            for d, (o, s) in enumerate(zip(out_shape, in_shape))
        )
    column_major = layout == "transposed"
    if layout == "transposed":
        x = np.ascontiguousarray(x.T).T
    want, want_idx = _pool_reference(
        x, mode, kernel, strides, dilations, pads, out_shape, column_major
    )
    item = x.itemsize
    shape = (2, channels, *out_shape)
    for grid, block in _launches(want.size):
        for warp, order in WARPS:
            # A transposed layout writes through a transposed output view too.
            flip = layout == "transposed"
            y = Guarded(np.full(shape[::-1] if flip else shape, np.nan, np.float32))
            y_view = y.array.T if flip else y.array
            idx = Guarded(np.full(shape, -7, np.int64))
            meta = np.asarray(
                [2, channels, *in_shape, *out_shape, *kernel, *strides, *dilations]
                + [*pads, *(s // item for s in x.strides)]
                + [*(s // item for s in y_view.strides)]
                + [s // 8 for s in idx.array.strides],
                np.int64,
            )
            emulated.launch(
                "xhip_pool_f32",
                grid,
                block,
                0,
                [
                    ("ptr", x.ctypes.data),
                    ("ptr", y.address),
                    ("ptr", idx.address if mode == "max" else 0),
                    ("i32", POOL_MODES[mode]),
                    ("i32", int(column_major)),
                    ("i32", rank),
                    ("ptr", meta.ctypes.data),
                    ("i64", want.size),
                ],
                warp_size=warp,
                order=order,
            )
            y.check()
            idx.check()
            np.testing.assert_allclose(y_view, want, rtol=1e-6, atol=1e-6)
            if mode == "max":
                np.testing.assert_array_equal(idx.array, want_idx)
