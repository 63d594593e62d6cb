"""The CPU runtime's GroupQueryAttention pieces: `hip.gqa_positions` and
`hip.kv_cache_update` (the attention around them is `cpu_attention.py`'s).

`CpuGqa` is mixed into `CpuRuntime` (cpu.py). Whole-array numpy: one
assignment per batch entry of the cache (the entries' past lengths differ),
none per row.
"""

from __future__ import annotations

import numpy as np

from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA, OptDA


class CpuGqa(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` methods of GroupQueryAttention."""

    def gqa_positions(
        self, first: int, seqlens: DA, positions: DA, lengths: DA
    ) -> None:
        """positions[b, s] = past_b + s, lengths[b] = past_b + S: past_b is 0
        on the `first` prompt, else seqlens[b] + 1 - S."""
        pos, length = self.array(positions), self.array(lengths)
        s = pos.shape[1]
        past = np.zeros(length.shape, np.int64)
        if not first:
            past = self.array(seqlens).astype(np.int64) + 1 - s
        pos[...] = past[:, None] + np.arange(s, dtype=np.int64)
        length[...] = past + s

    def kv_cache_update(self, new: DA, lengths: DA, past: OptDA, present: DA) -> None:
        """present[b] = past[b]'s first past_b rows, new[b] (S, H, D) as (H,
        S, D), zeros after; past_b = lengths[b] - S."""
        dst, src = self.array(present), self.array(new)
        old = None if past is None else self.array(past)
        s, t = src.shape[1], dst.shape[2]
        dst[...] = 0
        for b, length in enumerate(self.array(lengths).tolist()):
            start = int(length) - s
            if start < 0 or start + s > t:
                raise ValueError(
                    f"kv_cache_update: batch {b} puts {s} rows at {start}, outside "
                    f"a cache of {t}"
                )
            if old is not None:
                kept = min(start, old.shape[2])
                dst[b, :, :kept] = old[b, :, :kept]
            dst[b, :, start : start + s] = src[b].transpose(1, 0, 2)
