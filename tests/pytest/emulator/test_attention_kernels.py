"""The kernels of `kernels/attention.h` run by the emulator against the CPU
runtime's numpy (`cpu_attention.py`) in float64, at warp size 32 and 64
(threads in forward and reverse order): every stage, bool and float masks
(broadcast, shorter than the keys), causal with cached keys, windows, nonpad
lengths, softcap, a fully masked row, rows longer than the block and more
rows than the grid; rotary embeddings 3-D and 4-D, interleaved or not,
partial, with and without position ids, on strided inputs. Every case on
each element type of `gpu_reduce.FLOAT_TYPES` (one instantiation of the same
template each): the inputs are drawn in that type, the float64 result on
them is the reference, float16 within its rounding (it computes in float);
the attention softmax's `narrow` float16, which rounds every step, against
the CPU runtime's float16 numpy.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
import pytest

from xhip.backend.cpu import CpuRuntime
from xhip.backend.device import KernelArg
from xhip.backend.gpu_attention import (
    FUSED_BLOCK,
    FUSED_TYPES,
    STAGE_CODES,
    fused_meta,
    mask_strides,
)
from xhip.backend.gpu_reduce import FLOAT_TYPES, accumulator_bytes, block_for
from xhip.backend.runtime import DeviceArray
from xhip.dialects import hip
from xhip.testing.emulator import EmulatedKernels, Guarded
from xhip.testing.emulator.build import Order

pytestmark = pytest.mark.emulator

KERNELS = {
    *(f"xhip_attention_softmax_{t}" for t in FLOAT_TYPES),
    *(f"xhip_rotary_embedding_{t}" for t in FLOAT_TYPES),
    *(f"xhip_flash_attention_{t}" for t in FUSED_TYPES),
}
WARPS: tuple[tuple[int, Order], ...] = ((32, "forward"), (64, "reverse"))
SUFFIXES = sorted(FLOAT_TYPES)
VARIANTS = [*SUFFIXES, "f16-narrow"]
"""Kernel suffixes, and float16 rounding every step (not `wide`)."""
DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def _tolerance(suffix: str) -> float:
    """rtol = atol against float64 on the same inputs: float16's one
    rounding (computed in float), float32's math, float64's."""
    return {"f16": 2e-3, "f32": 3e-5, "f64": 1e-12}[suffix]


def _view(a: np.ndarray) -> DeviceArray:
    """`a` as a DeviceArray, strides in elements, for the stride helpers."""
    if a.flags.c_contiguous:
        return CpuRuntime().upload(a)
    # A strided view of `a`'s own memory: the meta is what the kernel reads by.
    strides = tuple(st // a.itemsize for st in a.strides)
    return CpuRuntime().upload(np.ascontiguousarray(a)).reinterpret(0, a.shape, strides)


def _launches(rows: int, n: int) -> list[tuple[int, int]]:
    return [(1, 1), (max(1, min(2, rows)), 32), (max(1, min(rows, 5)), block_for(n))]


ATTENTION_CASES: list[dict[str, Any]] = [
    {"shape": (1, 1, 1, 1)},
    {"shape": (2, 3, 5, 7), "mask": "bool2d"},
    {"shape": (2, 3, 5, 7), "mask": "float4d", "causal": True, "past": 2},
    {"shape": (1, 2, 4, 300), "softcap": 2.5, "causal": True, "past": 296},
    {"shape": (2, 2, 3, 9), "left": 1, "right": 0, "past": 6},
    {"shape": (2, 2, 3, 9), "nonpad": [5, 9], "causal": True, "mask": "bool1d"},
    {"shape": (1, 2, 3, 4), "mask": "deadrow"},
    {"shape": (3, 1, 13, 2)},  # more rows than a small grid
]


def _mask(
    kind: str | None, shape: tuple[int, ...], rng: np.random.Generator, dtype: Any
) -> Any:
    b, h, s, t = shape
    if kind == "bool2d":
        return rng.random((s, t - 2)) > 0.3  # two keys past the mask's end
    if kind == "bool1d":
        return rng.random((t,)) > 0.2
    if kind == "float4d":
        return rng.normal(0, 1, (b, 1, s, t)).astype(dtype)
    if kind == "deadrow":
        mask = np.ones((s, t), np.bool_)
        mask[1] = False
        return mask
    return None


def _wide(a: np.ndarray) -> np.ndarray:
    """A float array in float64 (exactly), anything else as it is."""
    return a.astype(np.float64) if a.dtype.kind == "f" else a


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("stage", sorted(STAGE_CODES, key=STAGE_CODES.__getitem__))
@pytest.mark.parametrize("case", ATTENTION_CASES, ids=lambda c: str(sorted(c.items())))
def test_attention_softmax(
    emulated: EmulatedKernels, case: dict[str, Any], stage: str, variant: str
) -> None:
    shape = case["shape"]
    suffix, _, mode = variant.partition("-")
    narrow = mode == "narrow"
    dtype = DTYPES[suffix]
    rng = np.random.default_rng(zlib.crc32(str(sorted(case.items())).encode()))
    x = rng.normal(0, 2, shape).astype(dtype)
    mask = _mask(case.get("mask"), shape, rng, dtype)
    nonpad = None if "nonpad" not in case else np.asarray(case["nonpad"], np.int64)
    attrs = {
        "scale": 0.7,
        "softcap": case.get("softcap", 0.0),
        "causal": case.get("causal", False),
        "left_window": case.get("left", -1),
        "right_window": case.get("right", -1),
        "stage": stage,
    }
    past = case.get("past", 0)
    cpu = CpuRuntime()
    # The reference: float64 on the same inputs; numpy's float16 if narrow.
    wide = (lambda a: a) if narrow else _wide
    result = cpu.upload(np.zeros(shape, dtype if narrow else np.float64))
    cpu.attention_softmax(
        past,
        cpu.upload(wide(x)),
        None if mask is None else cpu.upload(wide(mask)),
        None if nonpad is None else cpu.upload(nonpad),
        result,
        hip.AttentionAttributes(**attrs, wide=False),
    )
    want = cpu.download(result).astype(np.float64)
    b, h, s, t = shape
    if mask is not None:
        strides = mask_strides(_view(mask), shape)
        kind, mask_t = (1 if mask.dtype == np.bool_ else 2), mask.shape[-1]
    else:
        strides, kind, mask_t = [0, 0, 0, 0], 0, t
    meta = np.asarray([b, h, s, t, *strides, mask_t], np.int64)
    params = np.asarray([attrs["scale"], attrs["softcap"]], np.float64)
    rows = b * h * s
    tol = _tolerance(suffix)
    for grid, block in _launches(rows, t):
        for warp, order in WARPS:
            out = Guarded(np.full(shape, 7.0, dtype))
            args: list[KernelArg] = [
                ("ptr", x.ctypes.data),
                ("ptr", out.address),
                ("ptr", 0 if mask is None else mask.ctypes.data),
                ("i32", kind),
                ("ptr", 0 if nonpad is None else nonpad.ctypes.data),
                ("ptr", meta.ctypes.data),
                ("ptr", params.ctypes.data),
                ("i64", past),
                ("i32", int(attrs["causal"])),
                ("i64", attrs["left_window"]),
                ("i64", attrs["right_window"]),
                ("i32", STAGE_CODES[stage]),
                ("i32", int(narrow)),
            ]
            emulated.launch(
                f"xhip_attention_softmax_{suffix}",
                grid,
                block,
                2 * accumulator_bytes(suffix) * block,
                args,
                warp_size=warp,
                order=order,
            )
            out.check()
            where = f"grid {grid} block {block} warp {warp}"
            np.testing.assert_allclose(
                out.array.astype(np.float64), want, rtol=tol, atol=tol, err_msg=where
            )


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_attention_softmax_in_place(emulated: EmulatedKernels, suffix: str) -> None:
    """y may be x: each thread reads x[j] before it writes y[j]."""
    dtype = DTYPES[suffix]
    x = np.random.default_rng(3).normal(0, 1, (1, 2, 3, 37)).astype(dtype)
    wide = x.astype(np.float64)
    want = np.exp(wide - wide.max(-1, keepdims=True))
    want /= want.sum(-1, keepdims=True)
    meta = np.asarray([1, 2, 3, 37, 0, 0, 0, 0, 37], np.int64)
    params = np.asarray([1.0, 0.0], np.float64)
    buffer = x.copy()
    args: list[KernelArg] = [
        ("ptr", buffer.ctypes.data),
        ("ptr", buffer.ctypes.data),
        ("ptr", 0),
        ("i32", 0),
        ("ptr", 0),
        ("ptr", meta.ctypes.data),
        ("ptr", params.ctypes.data),
        ("i64", 0),
        ("i32", 0),
        ("i64", -1),
        ("i64", -1),
        ("i32", 3),
        ("i32", 0),
    ]
    shared = 2 * accumulator_bytes(suffix) * 16
    emulated.launch(
        f"xhip_attention_softmax_{suffix}", 2, 16, shared, args, warp_size=32
    )
    tol = _tolerance(suffix)
    np.testing.assert_allclose(buffer.astype(np.float64), want, rtol=tol, atol=tol)


ROTARY_CASES: list[dict[str, Any]] = [
    {"shape": (2, 3, 4, 8)},
    {"shape": (2, 3, 4, 8), "interleaved": True},
    {"shape": (1, 2, 5, 10), "rotary": 4, "positions": True},
    {"shape": (1, 2, 5, 10), "rotary": 6, "interleaved": True, "positions": True},
    {"shape": (2, 5, 12), "heads": 3},
    {"shape": (2, 5, 12), "heads": 2, "rotary": 4, "positions": True},
    {"shape": (2, 3, 4, 8), "strided": True},
]


@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("case", ROTARY_CASES, ids=lambda c: str(sorted(c.items())))
def test_rotary_embedding(
    emulated: EmulatedKernels, case: dict[str, Any], suffix: str
) -> None:
    shape = case["shape"]
    dtype = DTYPES[suffix]
    rng = np.random.default_rng(zlib.crc32(str(sorted(case.items())).encode()))
    x = rng.normal(0, 1, shape).astype(dtype)
    if case.get("strided"):
        x = np.ascontiguousarray(x.transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3)
    heads = case.get("heads", 0)
    if len(shape) == 4:
        b, h, s, d = shape
    else:
        b, s, hidden = shape
        h, d = heads, hidden // heads
    rotary = case.get("rotary", d)
    positions = None
    if case.get("positions"):
        positions = rng.integers(0, 7, (b, s)).astype(np.int64)
        cos = rng.normal(0, 1, (7, rotary // 2)).astype(dtype)
    else:
        cos = rng.normal(0, 1, (b, s, rotary // 2)).astype(dtype)
    sin = rng.normal(0, 1, cos.shape).astype(dtype)
    attrs = {
        "interleaved": case.get("interleaved", False),
        "rotary_dim": rotary,
        "num_heads": heads,
    }
    cpu = CpuRuntime()
    want = cpu.upload(np.zeros(shape, np.float64))
    cpu.rotary_embedding(
        cpu.upload(_wide(x)),
        cpu.upload(_wide(cos)),
        cpu.upload(_wide(sin)),
        None if positions is None else cpu.upload(positions),
        want,
        hip.RotaryAttributes(**attrs),
    )
    expected = cpu.download(want)
    item = x.itemsize
    if len(shape) == 4:
        order = (0, 2, 1, 3)
        xs = [x.strides[i] // item for i in order]
        ys = [np.zeros(shape, dtype).strides[i] // item for i in order]
    else:
        xs = [x.strides[0] // item, x.strides[1] // item, d, 1]
        ys = list(xs)
    caches: list[int] = []
    for cache in (cos, sin):
        strides = [v // item for v in cache.strides]
        caches += [strides[0], 0, strides[1]] if positions is not None else strides
    pos = [0, 0] if positions is None else [v // 8 for v in positions.strides]
    meta = np.asarray([b, s, h, d, *xs, *ys, *caches, *pos], np.int64)
    n = x.size
    tol = {"f16": 2e-3, "f32": 1e-6, "f64": 1e-12}[suffix]
    for grid, block in ((1, 1), (2, 32), (-(-n // 256), 256)):
        for warp, order_name in WARPS:
            out = Guarded(np.full(shape, 7.0, dtype))
            args: list[KernelArg] = [
                ("ptr", x.ctypes.data),
                ("ptr", cos.ctypes.data),
                ("ptr", sin.ctypes.data),
                ("ptr", 0 if positions is None else positions.ctypes.data),
                ("ptr", out.address),
                ("ptr", meta.ctypes.data),
                ("i64", n),
                ("i64", rotary),
                ("i32", int(attrs["interleaved"])),
            ]
            emulated.launch(
                f"xhip_rotary_embedding_{suffix}",
                grid,
                block,
                0,
                args,
                warp_size=warp,
                order=order_name,
            )
            out.check()
            np.testing.assert_allclose(
                out.array.astype(np.float64),
                expected,
                rtol=tol,
                atol=tol,
                err_msg=f"{grid}x{block}",
            )


FUSED_CASES: list[dict[str, Any]] = [
    {"q": (1, 1), "t": 1},
    {"q": (2, 5, 8), "t": 7, "scaling": 1},
    {"q": (2, 3, 4, 8), "t": 300, "scaling": 2, "mask": (2, 1, 4, 300)},
    {"q": (1, 2, 6, 4), "t": 6, "scaling": 1, "mask": "causal", "dv": 5},
    {"q": (2, 2, 3, 8), "t": 9, "mask": (2, 1, 1, 9), "fill": True, "dead": True},
    {"q": (2, 2, 3, 8), "t": 9, "mask": (2, 1, 1, 9), "dead": True},
    {"q": (1, 2, 3, 8), "t": 130, "fill": True, "kv_broadcast": True},
    {"q": (2, 3, 5, 4), "t": 150, "scaling": 1, "bias": True, "heads_last": True},
    {"q": (2, 2, 3, 8), "t": 9, "mask": (2, 1, 1, 9), "fill": True, "dead": True,
     "bias": True},
]  # fmt: skip


def _fused_reference(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, scaling: int, mask: np.ndarray | None,
    fill: float | None,
) -> np.ndarray:  # fmt: skip
    """The unfused chain in float64: matmul, scale, mask, softmax, guard, matmul."""
    with np.errstate(invalid="ignore"):
        s = _wide(q) @ _wide(k)
        s = s * 0.7 if scaling == 1 else s / 0.7 if scaling == 2 else s
        if mask is not None:
            s = s + _wide(mask)
        e = np.exp(s - s.max(-1, keepdims=True))
        p = e / e.sum(-1, keepdims=True)
        if fill is not None:
            p = np.where(np.isnan(p), fill, p)
        return p @ _wide(v)


@pytest.mark.parametrize("suffix", sorted(FUSED_TYPES))
@pytest.mark.parametrize("case", FUSED_CASES, ids=lambda c: str(sorted(c.items())))
def test_fused_attention(
    emulated: EmulatedKernels, case: dict[str, Any], suffix: str
) -> None:
    """Against float64 numpy of the unfused chain, at both warp sizes: tiles
    shorter than the block and several tiles (T = 130, 300), masks broadcast
    over heads and rows, a causal mask, Dv != D, rows that are all -inf with
    and without the NaN guard, keys and values broadcast over heads."""
    dtype = DTYPES[suffix]
    rng = np.random.default_rng(zlib.crc32(str(sorted(case.items())).encode()))
    *batch, s, d = case["q"]
    t, dv = case["t"], case.get("dv", d)
    q = rng.normal(0, 1, case["q"]).astype(dtype)
    kv_batch = [*batch[:-1], 1] if case.get("kv_broadcast") else batch
    k = np.ascontiguousarray(
        rng.normal(0, 1, (*kv_batch, t, d)).astype(dtype).swapaxes(-1, -2)
    )
    v = rng.normal(0, 1, (*kv_batch, t, dv)).astype(dtype)
    if case.get("heads_last"):  # (B, S, H, D) storage read as (B, H, S, D)
        q = np.ascontiguousarray(q.swapaxes(1, 2)).swapaxes(1, 2)
        k = np.ascontiguousarray(k.transpose(0, 3, 1, 2)).transpose(0, 2, 3, 1)
        v = np.ascontiguousarray(v.swapaxes(1, 2)).swapaxes(1, 2)
    biases: list[np.ndarray | None] = [None, None, None]
    if case.get("bias"):  # per head and feature, as a projection's bias
        h = batch[-1]
        shapes = ((1, h, 1, d), (1, h, d, 1), (1, h, 1, dv))
        biases = [rng.normal(0, 1, sh).astype(dtype) for sh in shapes]
    mask = None
    if case.get("mask") == "causal":
        mask = np.triu(np.full((s, t), -np.inf, dtype), 1)
    elif "mask" in case:
        mask = rng.normal(0, 1, case["mask"]).astype(dtype)
        if case.get("dead"):
            mask[0, ..., :] = -np.inf  # batch 0: every key masked
    fill = 0.25 if case.get("fill") else None
    scaling = case.get("scaling", 0)
    q_b, k_b, v_b = (
        x if b is None else _wide(x) + _wide(b) for x, b in zip((q, k, v), biases)
    )
    want = _fused_reference(q_b, k_b, v_b, scaling, mask, fill)
    out_shape = (*batch, s, dv)
    meta = fused_meta(
        _view(q),
        _view(k),
        _view(v),
        None if mask is None else _view(mask),
        _view(np.zeros(out_shape, dtype)),
        *(None if b is None else _view(b) for b in biases),
    )
    scale = np.asarray([0.7], dtype)
    filled = np.asarray([0.0 if fill is None else fill], dtype)
    rows = int(np.prod(out_shape[:-1]))
    tol = _tolerance(suffix)
    for grid, block in (
        (1, FUSED_BLOCK),
        (max(1, min(rows, 5)), FUSED_BLOCK),
        (rows, 32),
    ):
        for warp, order in WARPS:
            out = Guarded(np.full(out_shape, 7.0, dtype))
            args: list[KernelArg] = [
                ("ptr", q.ctypes.data),
                ("ptr", k.ctypes.data),
                ("ptr", v.ctypes.data),
                ("ptr", 0 if mask is None else mask.ctypes.data),
                ("ptr", scale.ctypes.data),
                ("ptr", 0 if fill is None else filled.ctypes.data),
                *(("ptr", 0 if b is None else b.ctypes.data) for b in biases),
                ("ptr", out.address),
                ("ptr", meta.ctypes.data),
                ("i32", scaling),
            ]
            emulated.launch(
                f"xhip_flash_attention_{suffix}",
                grid,
                block,
                accumulator_bytes(suffix) * (3 * block + dv),
                args,
                warp_size=warp,
                order=order,
            )
            out.check()
            where = f"grid {grid} block {block} warp {warp}"
            np.testing.assert_allclose(
                out.array.astype(np.float64), want, rtol=tol, atol=tol, err_msg=where
            )
