"""The kernel of `kernels/linear_attention.h` run by the emulator against
the spec's recurrence in float64, at warp size 32 and 64: every update rule,
per-head and per-key decay, per-head and shared beta, GQA and MQA, with and
without a past state, query read through non-contiguous strides, each float
type. `KERNELS` is what this module tests; `test_kernels.py`'s registry test
counts it as covered."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import FLOAT_TYPES
from xhip.testing.emulator import EmulatedKernels, Guarded

pytestmark = pytest.mark.emulator

KERNELS = {f"xhip_linear_attention_{t}" for t in FLOAT_TYPES}
WARPS = (32, 64)
DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
LAUNCHES = ((1, 1), (3, 32))
"""(grid, block): one thread for every column, and more threads than columns."""

CASES = [
    # rule, hq, hkv, decay per key, beta shared, past
    ("linear", 2, 2, False, False, False),
    ("gated", 2, 1, True, False, True),
    ("gated", 4, 2, False, False, False),
    ("delta", 2, 2, False, True, True),
    ("gated_delta", 4, 2, True, False, True),
    ("gated_delta", 3, 1, False, False, False),
]


def _reference(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    past: np.ndarray | None,
    decay: np.ndarray | None,
    beta: np.ndarray | None,
    hq: int,
    hkv: int,
    scale: float,
) -> tuple[np.ndarray, np.ndarray]:
    """The spec's recurrence in float64, one (batch, KV head) at a time."""
    b, t, _ = q.shape
    dk, dv = q.shape[2] // hq, v.shape[2] // hkv
    group = hq // hkv
    out = np.zeros((b, t, hq * dv))
    state = np.zeros((b, hkv, dk, dv)) if past is None else past.astype(np.float64)
    for n in range(b):
        for h in range(hkv):
            s = state[n, h].copy()
            for i in range(t):
                kt = k[n, i, h * dk : (h + 1) * dk].astype(np.float64)
                vt = v[n, i, h * dv : (h + 1) * dv].astype(np.float64)
                if decay is not None:
                    g = (
                        decay[n, i, h]
                        if decay.shape[2] == hkv
                        else decay[n, i, h * dk : (h + 1) * dk]
                    )
                    s = s * np.exp(np.asarray(g, np.float64)).reshape(-1, 1)
                if beta is not None:
                    rate = float(beta[n, i, 0 if beta.shape[2] == 1 else h])
                    vt = rate * (vt - s.T @ kt)
                s = s + np.outer(kt, vt)
                for j in range(group):
                    head = h * group + j
                    qt = q[n, i, head * dk : (head + 1) * dk].astype(np.float64)
                    out[n, i, head * dv : (head + 1) * dv] = scale * (qt @ s)
            state[n, h] = s
    return out, state


@pytest.mark.parametrize("suffix", sorted(KERNELS))
@pytest.mark.parametrize("case", CASES)
def test_linear_attention(
    emulated: EmulatedKernels, suffix: str, case: tuple[object, ...]
) -> None:
    rule, hq, hkv, per_key, shared, with_past = case
    assert isinstance(hq, int) and isinstance(hkv, int) and isinstance(rule, str)
    dtype = DTYPES[suffix.rsplit("_", 1)[1]]
    rng = np.random.default_rng(7)
    b, t, dk, dv = 2, 3, 4, 5
    wide = rng.standard_normal((b, t, 2 * hq * dk)).astype(dtype)
    q = wide[:, :, ::2]  # strides (.., .., 2)
    k = rng.standard_normal((b, t, hkv * dk)).astype(dtype) * 0.5
    v = rng.standard_normal((b, t, hkv * dv)).astype(dtype)
    gated, delta = rule in ("gated", "gated_delta"), rule in ("delta", "gated_delta")
    decay = beta = past = None
    if gated:
        width = hkv * dk if per_key else hkv
        decay = (-np.abs(rng.standard_normal((b, t, width))) * 0.2).astype(dtype)
    if delta:
        beta = rng.random((b, t, 1 if shared else hkv)).astype(dtype)
    if with_past:
        past = (rng.standard_normal((b, hkv, dk, dv)) * 0.1).astype(dtype)
    scale = 1.0 / np.sqrt(dk)
    want_out, want_state = _reference(q, k, v, past, decay, beta, hq, hkv, scale)

    def strides(x: np.ndarray | None, rank: int) -> list[int]:
        return [0] * rank if x is None else [s // x.itemsize for s in x.strides]

    meta = np.asarray(
        [
            b, t, hq, hkv, dk, dv,
            0 if decay is None else decay.shape[2],
            0 if beta is None else beta.shape[2],
            *strides(q, 3), *strides(k, 3), *strides(v, 3), *strides(decay, 3),
            *strides(beta, 3), t * hq * dv, hq * dv, 1,
            *strides(past, 4), hkv * dk * dv, dk * dv, dv, 1,
        ],
        np.int64,
    )  # fmt: skip
    (scale_bits,) = struct.unpack("<q", struct.pack("<d", scale))
    tol = {np.float16: 2e-2, np.float32: 1e-5, np.float64: 1e-12}[dtype]
    for grid, block in LAUNCHES:
        for warp in WARPS:
            out = Guarded(np.full((b, t, hq * dv), 7, dtype))
            state = Guarded(np.full((b, hkv, dk, dv), 7, dtype))
            args: list[KernelArg] = [
                *(
                    ("ptr", 0 if x is None else x.ctypes.data)
                    for x in (q, k, v, past, decay, beta)
                ),
                ("ptr", out.address),
                ("ptr", state.address),
                ("ptr", meta.ctypes.data),
                ("i64", scale_bits),
            ]
            emulated.launch(suffix, grid, block, 0, args, warp_size=warp)
            out.check()
            state.check()
            np.testing.assert_allclose(out.array, want_out, rtol=tol, atol=tol)
            np.testing.assert_allclose(state.array, want_state, rtol=tol, atol=tol)
