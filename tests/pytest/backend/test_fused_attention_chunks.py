"""The CPU's blocked fused attention over several blocks of rows *and* several
chunks of keys (`KEY_CHUNK`): the exp @ [v | 1] of each chunk adds to the
others', and a row whose sum leaves range is shifted by its max over every
chunk. Against numpy float64 of the unfused chain. float32 runs through
the numba kernels (`cpu_kernels_attention`, chunks of their own), float64
through numpy's blocks, whose chunks these sizes are made for."""

from __future__ import annotations

import numpy as np
import pytest

from xhip.backend.cpu import CpuRuntime
from xhip.backend.cpu_attention import FUSED_BLOCK_BYTES, KEY_CHUNK
from xhip.dialects import hip


def _reference(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, mask: np.ndarray
) -> np.ndarray:
    s = q.astype(np.float64) @ k.astype(np.float64) * scale + mask
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True) @ v.astype(np.float64)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("scale", [0.25, 32.0])  # 32: sums overflow, the shifted path
def test_rows_and_keys_in_several_blocks_match_float64(
    threads: int, scale: float, dtype: type[np.floating]
) -> None:
    t = 2 * KEY_CHUNK + 37  # three uneven chunks
    chunk = -(-t // 3)
    s = FUSED_BLOCK_BYTES // (chunk * np.dtype(dtype).itemsize) + 50  # two blocks
    assert -(-t // KEY_CHUNK) == 3
    rng = np.random.default_rng(threads)
    # Small integers: the scores are exact in float32, so what is compared is
    # the softmax and the GEMMs, not the scores' rounding times the scale.
    q = rng.integers(-2, 3, (2, 2, s, 8)).astype(dtype)
    k = rng.integers(-2, 3, (2, 2, 8, t)).astype(dtype)
    v = rng.normal(0, 1, (2, 2, t, 5)).astype(dtype)
    mask = np.triu(np.full((s, t), -np.inf, dtype), t - s + 1)
    mask[: s // 2, -KEY_CHUNK:] += 3.0  # the rows' max in the last chunk
    want = _reference(q, k, v, scale, mask)
    cpu = CpuRuntime(threads=threads)
    try:
        out = cpu.upload(np.full((2, 2, s, 5), 7.0, dtype))
        cpu.fused_attention(
            cpu.upload(q),
            cpu.upload(k),
            cpu.upload(v),
            cpu.upload(np.asarray([scale], dtype)),
            cpu.upload(mask),
            None,
            out,
            hip.FusedAttentionAttributes(divide=False),
        )
        got = cpu.download(out)
    finally:
        cpu.close()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
