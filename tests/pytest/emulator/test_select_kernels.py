"""`xhip_nonzero_<type>` and `xhip_nms_f32` (kernels/select.h) run by the
emulator against numpy's `nonzero` and a greedy NonMaxSuppression written
from ONNX Runtime's description (one candidate at a time, in Python), at warp size 32 and 64 (threads in forward and reverse order):
counting alone and writing the indices alone, every storage type (float16 as
its bits: -0 is zero; bool as bytes), sizes 0, 1, primes and more elements
than threads, 0-D to 4-D, strided inputs; and `hip.count_nonzero` /
`hip.nonzero` through the GPU runtimes against numpy, into a strided output.
NonMaxSuppression: both box formats, ties, thresholds absent or present,
several batches and classes, more boxes than threads.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.device import KernelArg
from xhip.testing.emulator import EmulatedKernels, Guarded
from xhip.testing.emulator.build import Order

pytestmark = pytest.mark.emulator

STORAGE = {
    "f32": np.float32,
    "f64": np.float64,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "u8": np.uint8,
    "u16": np.uint16,
    "u32": np.uint32,
    "u64": np.uint64,
}
KERNELS = {f"xhip_nonzero_{suffix}" for suffix in STORAGE} | {"xhip_nms_f32"}
WARPS: tuple[tuple[int, Order], ...] = ((32, "forward"), (64, "reverse"))


def _data(shape: tuple[int, ...], dtype: type, seed: str) -> np.ndarray:
    """About half zeros; floats with -0.0 and NaN among them."""
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    x = rng.integers(0, 3, shape) * rng.integers(0, 2, shape)
    array = np.asarray(x).astype(dtype)
    if np.dtype(dtype).kind == "f" and array.size > 3:
        array.flat[0] = -0.0
        array.flat[1] = np.nan
    return array


def _rows(x: np.ndarray) -> np.ndarray:
    """ONNX NonZero: `[max(rank, 1), n]`, row-major order."""
    return np.asarray(np.nonzero(x.reshape(1) if x.ndim == 0 else x), np.int64)


SHAPES = [(), (0,), (1,), (7,), (3, 5), (2, 3, 4), (2, 1, 3, 5), (601,)]


def _launch(
    emulated: EmulatedKernels,
    kernel: str,
    x: np.ndarray,
    half: bool,
    block: int,
    warp: int,
    order: Order,
    want: np.ndarray,
) -> None:
    shape, strides = (x.shape, x.strides) if x.ndim else ((1,), (0,))
    meta = np.asarray([*shape, *(s // x.itemsize for s in strides)], np.int64)
    count = Guarded(np.full((), -7, np.int64))
    emulated.launch(
        kernel,
        1,
        block,
        8 * block,
        [
            ("ptr", x.ctypes.data),
            ("i32", int(half)),
            ("i32", len(shape)),
            ("ptr", meta.ctypes.data),
            ("i64", x.size),
            ("ptr", count.address),
            ("ptr", 0),
            ("i64", 0),
            ("i64", 0),
        ],
        warp_size=warp,
        order=order,
    )
    count.check()
    assert int(count.array) == want.shape[1]
    out = Guarded(np.full(want.shape, -5, np.int64))
    emulated.launch(
        kernel,
        1,
        block,
        8 * block,
        [
            ("ptr", x.ctypes.data),
            ("i32", int(half)),
            ("i32", len(shape)),
            ("ptr", meta.ctypes.data),
            ("i64", x.size),
            ("ptr", 0),
            ("ptr", out.address),
            ("i64", want.shape[1]),
            ("i64", 1),
        ],
        warp_size=warp,
        order=order,
    )
    out.check()
    np.testing.assert_array_equal(out.array, want)


@pytest.mark.parametrize("suffix", sorted(STORAGE))
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_nonzero_kernel(
    emulated: EmulatedKernels, suffix: str, shape: tuple[int, ...]
) -> None:
    x = _data(shape, STORAGE[suffix], f"{suffix} {shape}")
    want = _rows(x)
    for block in (1, 32, 256):
        for warp, order in WARPS:
            _launch(
                emulated, f"xhip_nonzero_{suffix}", x, False, block, warp, order, want
            )


@pytest.mark.parametrize("transposed", [False, True])
def test_nonzero_kernel_float16_bits_and_bool_strided(
    emulated: EmulatedKernels, transposed: bool
) -> None:
    """float16 on the u16 kernel with `half` (-0.0 is zero, NaN is not), bool
    on the u8 kernel; strided (transposed) inputs."""
    half = _data((5, 9), np.float16, "half")
    flags = _data((9, 5), np.bool_, "bool")
    if transposed:
        half, flags = half.T, flags.T
    for block in (32, 64):
        for warp, order in WARPS:
            bits = half.view(np.uint16)
            _launch(
                emulated,
                "xhip_nonzero_u16",
                bits,
                True,
                block,
                warp,
                order,
                _rows(half),
            )
            raw = flags.view(np.uint8)
            _launch(
                emulated,
                "xhip_nonzero_u8",
                raw,
                False,
                block,
                warp,
                order,
                _rows(flags),
            )


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.bool_, np.int64])
def test_nonzero_on_gpu_runtimes(make_gpu: MakeGpu, dtype: type) -> None:
    """`Runtime.count_nonzero` then `Runtime.nonzero` of the GPU runtimes, on a
    transposed input into a transposed (strided) output, equal numpy's."""
    gpu = make_gpu(debug=True)
    x = _data((4, 6, 3), dtype, f"runtime {np.dtype(dtype)}").transpose(2, 0, 1)
    want = _rows(x)
    src = gpu.upload(np.ascontiguousarray(x))
    count = gpu.empty((), np.dtype(np.int64))
    gpu.count_nonzero(src, count)
    assert int(gpu.download(count)) == want.shape[1]
    flipped = gpu.empty(want.shape[::-1], np.dtype(np.int64))
    view = type(flipped)(
        flipped.buffer, flipped.offset, want.shape, flipped.strides[::-1], flipped.dtype
    )
    gpu.nonzero(src, view)
    np.testing.assert_array_equal(gpu.download(flipped).T, want)


def _corners(box: np.ndarray, center: bool) -> tuple[np.float32, ...]:
    b = [np.float32(v) for v in box]
    if center:
        hw, hh = b[2] / np.float32(2), b[3] / np.float32(2)
        return (b[0] - hw, b[1] - hh, b[0] + hw, b[1] + hh)
    return (min(b[1], b[3]), min(b[0], b[2]), max(b[1], b[3]), max(b[0], b[2]))


def _suppresses(a: np.ndarray, b: np.ndarray, center: bool, iou: float) -> bool:
    """ONNX Runtime's SuppressByIOU, in float32, one pair at a time."""
    a0, a1, a2, a3 = _corners(a, center)
    b0, b1, b2, b3 = _corners(b, center)
    ix0, iy0, ix1, iy1 = max(a0, b0), max(a1, b1), min(a2, b2), min(a3, b3)
    if not (ix1 > ix0 and iy1 > iy0):
        return False
    inter = (ix1 - ix0) * (iy1 - iy0)
    area_a, area_b = (a2 - a0) * (a3 - a1), (b2 - b0) * (b3 - b1)
    union = area_a + area_b - inter
    if not (inter > 0 and area_a > 0 and area_b > 0 and union > 0):
        return False
    return bool(inter / union > np.float32(iou))


def nms_reference(
    boxes: np.ndarray,
    scores: np.ndarray,
    max_out: int,
    iou: float,
    score: float | None,
    center: bool,
) -> np.ndarray:
    """Per batch and class: candidates by descending score (ties to the lower
    index), each kept unless a kept one suppresses it, at most max_out."""
    rows: list[tuple[int, int, int]] = []
    for b in range(scores.shape[0]):
        for c in range(scores.shape[1]):
            s = scores[b, c]
            order = sorted(
                (i for i in range(s.size) if score is None or s[i] > score),
                key=lambda i: (-s[i], i),
            )
            kept: list[int] = []
            for i in order:
                if len(kept) == max_out:
                    break
                if not any(
                    _suppresses(boxes[b, k], boxes[b, i], center, iou) for k in kept
                ):
                    kept.append(i)
            rows += [(b, c, k) for k in kept]
    return np.asarray(rows, np.int64).reshape(-1, 3)


def _nms_case(
    batches: int, classes: int, n: int, center: bool, seed: str
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    corner = rng.uniform(0, 6, (batches, n, 2))
    size = rng.uniform(0.2, 3, (batches, n, 2))
    if center:
        boxes = np.concatenate([corner + size / 2, size], -1)
    else:  # corners in either order (flipped coordinates)
        boxes = np.concatenate([corner + size, corner], -1)
        boxes[:, ::2] = np.concatenate([corner, corner + size], -1)[:, ::2]
    scores = rng.integers(0, 6, (batches, classes, n)) / 6  # ties
    if n > 3:
        boxes[:, 2] = boxes[:, 1]  # identical boxes
    return boxes.astype(np.float32), scores.astype(np.float32)


NMS_CASES = [
    # batches, classes, n, max_out, iou, score threshold
    (1, 1, 1, 1, 0.5, None),
    (1, 1, 6, 3, 0.5, 0.0),
    (2, 3, 9, 9, 0.3, 0.4),
    (1, 2, 40, 100, 0.0, None),
    (1, 1, 300, 7, 0.6, 0.2),  # more boxes than threads
    (2, 1, 5, 0, 0.5, None),  # nothing kept
]


@pytest.mark.parametrize("center", [False, True], ids=["corners", "center"])
@pytest.mark.parametrize("case", NMS_CASES, ids=str)
def test_nms_kernel(
    emulated: EmulatedKernels,
    center: bool,
    case: tuple[int, int, int, int, float, float | None],
) -> None:
    batches, classes, n, max_out, iou, score = case
    boxes, scores = _nms_case(batches, classes, n, center, str(case))
    want = nms_reference(boxes, scores, max_out, iou, score, center)
    limit = np.array([max_out], np.int64)
    overlap = np.array([iou], np.float32)
    floor = np.array([0.0 if score is None else score], np.float32)
    for block in (1, 32, 256):
        for warp, order in WARPS:
            removed = Guarded(np.zeros(max(n, 1), np.uint8))
            count = Guarded(np.full((), -3, np.int64))
            out = Guarded(np.full((max(want.shape[0], 1), 3), -5, np.int64))
            for counting in (True, False):
                emulated.launch(
                    "xhip_nms_f32",
                    1,
                    block,
                    12 * block,
                    [
                        ("ptr", boxes.ctypes.data),
                        ("ptr", scores.ctypes.data),
                        ("ptr", limit.ctypes.data),
                        ("ptr", overlap.ctypes.data),
                        ("ptr", 0 if score is None else floor.ctypes.data),
                        ("i32", int(center)),
                        ("i64", batches),
                        ("i64", classes),
                        ("i64", n),
                        ("ptr", removed.address),
                        ("ptr", count.address if counting else 0),
                        ("ptr", 0 if counting else out.address),
                        ("i64", 3),
                        ("i64", 1),
                    ],
                    warp_size=warp,
                    order=order,
                )
            removed.check()
            count.check()
            out.check()
            assert int(count.array) == want.shape[0]
            np.testing.assert_array_equal(out.array[: want.shape[0]], want)


def test_nms_kernel_without_max_out_keeps_nothing(emulated: EmulatedKernels) -> None:
    """A null max_output_boxes_per_class is 0, as in ONNX Runtime."""
    boxes, scores = _nms_case(1, 1, 4, False, "null")
    count = Guarded(np.full((), -3, np.int64))
    removed = Guarded(np.zeros(4, np.uint8))
    args: list[KernelArg] = [
        ("ptr", boxes.ctypes.data),
        ("ptr", scores.ctypes.data),
        ("ptr", 0),
        ("ptr", 0),
        ("ptr", 0),
        ("i32", 0),
        ("i64", 1),
        ("i64", 1),
        ("i64", 4),
        ("ptr", removed.address),
        ("ptr", count.address),
        ("ptr", 0),
        ("i64", 0),
        ("i64", 0),
    ]
    emulated.launch("xhip_nms_f32", 1, 4, 48, args)
    count.check()
    assert int(count.array) == 0
