"""The kernels of `kernels/gqa.h` run by the emulator against the CPU
runtime's numpy (`cpu_gqa.py`), at warp size 32 and 64: the positions of a
first prompt and of later steps (ragged per batch entry); the KV cache with
and without a past, the past longer than what is kept, the new rows read
through BSNH strides, zeros after them, on each element type (copied as
stored: exact). `KERNELS` is what this module tests; `test_kernels.py`'s
registry test counts it as covered."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from xhip.backend.cpu import CpuRuntime
from xhip.backend.device import KernelArg
from xhip.backend.gpu_reduce import FLOAT_TYPES
from xhip.testing.emulator import EmulatedKernels, Guarded

pytestmark = pytest.mark.emulator

KERNELS = {"xhip_gqa_positions", *(f"xhip_kv_cache_update_{t}" for t in FLOAT_TYPES)}
WARPS = (32, 64)
DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
LAUNCHES = ((1, 1), (2, 32), (7, 64))
"""(grid, block): one thread for all, fewer threads than elements, more."""


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("batch_seq", [(1, 1), (3, 4), (2, 9)])
def test_gqa_positions(
    emulated: EmulatedKernels, first: bool, batch_seq: tuple[int, int]
) -> None:
    b, s = batch_seq
    seqlens = np.arange(b, dtype=np.int32) * 3 + s + 2  # ragged, past >= 2
    cpu = CpuRuntime()
    want = [cpu.upload(np.zeros((b, s), np.int64)), cpu.upload(np.zeros(b, np.int64))]
    cpu.gqa_positions(int(first), cpu.upload(seqlens), *want)
    meta = np.asarray([b, s, 1, s, 1, 1], np.int64)
    for grid, block in LAUNCHES:
        for warp in WARPS:
            positions = Guarded(np.full((b, s), -7, np.int64))
            lengths = Guarded(np.full(b, -7, np.int64))
            args: list[KernelArg] = [
                ("ptr", seqlens.ctypes.data),
                ("ptr", positions.address),
                ("ptr", lengths.address),
                ("ptr", meta.ctypes.data),
                ("i32", int(first)),
            ]
            emulated.launch("xhip_gqa_positions", grid, block, 0, args, warp_size=warp)
            positions.check()
            lengths.check()
            np.testing.assert_array_equal(positions.array, cpu.download(want[0]))
            np.testing.assert_array_equal(lengths.array, cpu.download(want[1]))


CACHE_CASES: list[dict[str, Any]] = [
    {"b": 1, "h": 1, "s": 1, "d": 1, "t": 1, "past": None, "lengths": [1]},
    {"b": 2, "h": 3, "s": 4, "d": 5, "t": 6, "past": None, "lengths": [4, 4]},
    {"b": 2, "h": 2, "s": 1, "d": 8, "t": 9, "past": 8, "lengths": [9, 5]},
    {"b": 1, "h": 2, "s": 3, "d": 4, "t": 12, "past": 10, "lengths": [11]},
]
"""Prompts without a past (zeros after the new rows), a ragged decode step
(batch 1 keeps 4 of 8 cached rows), a chunk after 8 of 10 cached rows."""


@pytest.mark.parametrize("suffix", sorted(FLOAT_TYPES))
@pytest.mark.parametrize("case", CACHE_CASES, ids=lambda c: str(sorted(c.items())))
def test_kv_cache_update(
    emulated: EmulatedKernels, case: dict[str, Any], suffix: str
) -> None:
    b, h, s, d, t = (case[k] for k in ("b", "h", "s", "d", "t"))
    dtype = DTYPES[suffix]
    rng = np.random.default_rng(b * 1000 + t)
    # new (B, S, H, D) as a view of a (B, H, S, D) array: BSNH strides.
    new = np.ascontiguousarray(
        rng.standard_normal((b, h, s, d)).astype(dtype)
    ).transpose(0, 2, 1, 3)
    lengths = np.asarray(case["lengths"], np.int64)
    past = None
    if case["past"] is not None:
        past = rng.standard_normal((b, h, case["past"], d)).astype(dtype)
    cpu = CpuRuntime()
    want = cpu.upload(np.zeros((b, h, t, d), dtype))
    cpu.kv_cache_update(
        cpu.upload(new),
        cpu.upload(lengths),
        None if past is None else cpu.upload(past),
        want,
    )
    itemsize = new.itemsize
    new_strides = [n // itemsize for n in new.strides]
    past_strides = [0] * 4 if past is None else [n // itemsize for n in past.strides]
    present_strides = [h * t * d, t * d, d, 1]
    meta = np.asarray(
        [b, h, t, d, s, 0 if past is None else past.shape[2],
         *new_strides, 1, *past_strides, *present_strides],
        np.int64,
    )  # fmt: skip
    for grid, block in LAUNCHES:
        for warp in WARPS:
            out = Guarded(np.full((b, h, t, d), 7.0, dtype))
            args: list[KernelArg] = [
                ("ptr", new.ctypes.data),
                ("ptr", lengths.ctypes.data),
                ("ptr", 0 if past is None else past.ctypes.data),
                ("ptr", out.address),
                ("ptr", meta.ctypes.data),
                ("i64", out.array.size),
            ]
            emulated.launch(
                f"xhip_kv_cache_update_{suffix}", grid, block, 0, args, warp_size=warp
            )
            out.check()
            np.testing.assert_array_equal(out.array, cpu.download(want))
