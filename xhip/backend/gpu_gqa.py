"""The GPU runtimes' GroupQueryAttention pieces: `hip.gqa_positions` and
`hip.kv_cache_update` (kernels in `kernels/gqa.h`).

`GpuGqa` is mixed into `gpu.KernelRuntime`. Both kernels are one thread per
output element and read every operand through its strides; the cache kernel
copies values as stored, one instantiation per type of
`gpu_host.FLOAT_TYPES`.
"""

from __future__ import annotations

import numpy as np

from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import FLOAT_TYPES, GpuHost
from xhip.backend.runtime import DA, OptDA, check_call


class GpuGqa(GpuHost):
    """Mixed into `KernelRuntime`: the `Runtime` methods of GroupQueryAttention."""

    def gqa_positions(
        self, first: int, seqlens: DA, positions: DA, lengths: DA
    ) -> None:
        if seqlens.dtype != np.int32:
            self.refuse(f"seqlens of {seqlens.dtype} (int32 only)")
        b, s = positions.shape
        if b * s == 0:
            return
        meta = np.asarray(
            [b, s, seqlens.strides[0], *positions.strides, lengths.strides[0]],
            np.int64,
        )
        if self.debug:
            check_call("xhip_gqa_positions", [seqlens], positions, inplace_ok=False)
        args: list[KernelArg] = [
            ("ptr", self._address(seqlens)),
            ("ptr", self._address(positions)),
            ("ptr", self._address(lengths)),
            ("ptr", self._device_meta(meta)),
            ("i32", int(bool(first))),
        ]
        self._launch_1d("xhip_gqa_positions", b * s, args)

    def kv_cache_update(self, new: DA, lengths: DA, past: OptDA, present: DA) -> None:
        floats = [new, present] if past is None else [new, past, present]
        suffix = self._suffix(FLOAT_TYPES, *floats)
        kernel = f"xhip_kv_cache_update_{suffix}"
        n = present.size
        if n == 0:
            return
        b, h, t, d = present.shape
        s = new.shape[1]
        past_len = 0 if past is None else past.shape[2]
        past_strides = [0, 0, 0, 0] if past is None else list(past.strides)
        meta = np.asarray(
            [
                b, h, t, d, s, past_len,
                *new.strides, lengths.strides[0], *past_strides, *present.strides,
            ],
            np.int64,
        )  # fmt: skip
        if self.debug:
            inputs = [v for v in (new, lengths, past) if v is not None]
            check_call(kernel, inputs, present, inplace_ok=False)
        args: list[KernelArg] = [
            ("ptr", self._address(new)),
            ("ptr", self._address(lengths)),
            ("ptr", 0 if past is None else self._address(past)),
            ("ptr", self._address(present)),
            ("ptr", self._device_meta(meta)),
            ("i64", n),
        ]
        self._launch_1d(kernel, n, args)
