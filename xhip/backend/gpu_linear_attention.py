"""The GPU runtimes' `hip.linear_attention` (the kernel in
`kernels/linear_attention.h`).

`GpuLinearAttention` is mixed into `gpu.KernelRuntime`. One thread per state
column (batch, KV head, value dim) runs every step: the columns update
independently, so the recurrence needs no synchronization; the column stays
in registers (up to `MAX_DK` key dims), in float (double for float64).
"""

from __future__ import annotations

import struct

import numpy as np

from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import FLOAT_TYPES, GpuHost
from xhip.backend.runtime import DA, OptDA, check_call
from xhip.dialects.hip.linear_attention import LinearAttentionAttributes

MAX_DK = 256
"""The key dims a thread keeps in registers (`XHIP_LINEAR_ATTENTION_MAX_DK`)."""


def _strides3(value: OptDA) -> list[int]:
    return [0, 0, 0] if value is None else list(value.strides)


class GpuLinearAttention(GpuHost):
    """Mixed into `KernelRuntime`: the `Runtime` method of LinearAttention."""

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
        given = [v for v in (query, key, value, past, decay, beta) if v is not None]
        suffix = self._suffix(FLOAT_TYPES, *given, out, present)
        kernel = f"xhip_linear_attention_{suffix}"
        b, t, _ = query.shape
        hq, hkv = attrs.q_num_heads, attrs.kv_num_heads
        dk, dv = present.shape[2], present.shape[3]
        if dk > MAX_DK:
            self.refuse(f"a key head of {dk} dims (at most {MAX_DK})")
        n = b * hkv * dv
        if n == 0:
            return
        past_strides = [0, 0, 0, 0] if past is None else list(past.strides)
        meta = np.asarray(
            [
                b, t, hq, hkv, dk, dv,
                0 if decay is None else decay.shape[2],
                0 if beta is None else beta.shape[2],
                *query.strides, *key.strides, *value.strides,
                *_strides3(decay), *_strides3(beta), *out.strides,
                *past_strides, *present.strides,
            ],
            np.int64,
        )  # fmt: skip
        if self.debug:
            check_call(kernel, given, out, inplace_ok=False)
            check_call(kernel, given, present, inplace_ok=False)
        (scale_bits,) = struct.unpack("<q", struct.pack("<d", attrs.scale))
        args: list[KernelArg] = [
            *(
                ("ptr", 0 if v is None else self._address(v))
                for v in (query, key, value, past, decay, beta)
            ),
            ("ptr", self._address(out)),
            ("ptr", self._address(present)),
            ("ptr", self._device_meta(meta)),
            ("i64", scale_bits),
        ]
        self._launch_1d(kernel, n, args)
