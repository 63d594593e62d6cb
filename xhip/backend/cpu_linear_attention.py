"""The CPU runtime's `hip.linear_attention`: ONNX LinearAttention's
recurrence, as onnx's reference states it.

`CpuLinearAttention` is mixed into `CpuRuntime` (cpu.py). The state is
float32 (float64 for float64 operands); each token is one step of
whole-array numpy over the batch and the heads: the recurrence is sequential
in time and nothing else.
"""

from __future__ import annotations

import numpy as np

from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA, OptDA
from xhip.dialects.hip.linear_attention import LinearAttentionAttributes


def heads(x: np.ndarray, count: int, compute: type[np.floating]) -> np.ndarray:
    """(B, T, H * D) as (B, H, T, D) in the compute type."""
    b, t, hd = x.shape
    return x.reshape(b, t, count, hd // count).transpose(0, 2, 1, 3).astype(compute)


class CpuLinearAttention(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` method of LinearAttention."""

    def linear_attention(
        self,
        query: DA,
        key: DA,
        value: DA,
        past: OptDA,
        decay: OptDA,
        beta: OptDA,
        out: DA,
        present: DA,
        attrs: LinearAttentionAttributes,
    ) -> None:
        """Per step: S = exp(g) S; v = beta (v - S^T k); S += k v^T;
        o = scale q^T S, query head h on KV head h // group."""
        dst, state_out = self.array(out), self.array(present)
        compute = np.float64 if dst.dtype == np.float64 else np.float32
        hq, hkv = attrs.q_num_heads, attrs.kv_num_heads
        q = heads(self.array(query), hq, compute)
        k = heads(self.array(key), hkv, compute)
        v = heads(self.array(value), hkv, compute)
        b, _, t, dk = q.shape
        dv = v.shape[3]
        group = hq // hkv
        # (B, Hkv, group, T, dk): query heads grouped under their KV head.
        qg = q.reshape(b, hkv, group, t, dk)
        g = None if decay is None else self.array(decay)
        gate = None if g is None else np.exp(heads(g, hkv, compute))
        r = None if beta is None else self.array(beta)
        rate = None if r is None else heads(r, r.shape[2], compute)
        state = (
            np.zeros((b, hkv, dk, dv), compute)
            if past is None
            else self.array(past).astype(compute)
        )
        result = np.empty((b, hkv, group, t, dv), compute)
        for i in range(t):
            if gate is not None:
                state = state * gate[:, :, i, :, None]
            write = v[:, :, i]
            if rate is not None:
                retrieved = np.einsum("bhdm,bhd->bhm", state, k[:, :, i])
                write = rate[:, :, i] * (write - retrieved)
            state = state + k[:, :, i, :, None] * write[:, :, None, :]
            result[:, :, :, i] = np.einsum("bhgd,bhdm->bhgm", qg[:, :, :, i], state)
        result *= compute(attrs.scale)
        dst[...] = result.reshape(b, hq, t, dv).transpose(0, 2, 1, 3).reshape(b, t, -1)
        state_out[...] = state
