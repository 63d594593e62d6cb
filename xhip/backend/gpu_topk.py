"""The GPU runtimes' TopK: `xhip_topk_f32` of `kernels/topk.h`.

`GpuTopK` is mixed into `gpu.KernelRuntime`. One block per row (the other
dims' positions), on any strides of the input and of both outputs, so no
axis is moved. A row of at most `SORT_MAX` elements is bitonic-sorted in
shared memory (its size padded to a power of two); a longer one takes `k`
selection passes over global memory. float32 values only, like the other
kernels; other element types are refused in one line.
"""

from __future__ import annotations

import numpy as np

from xhip.backend import checks
from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import MAX_GRID, GpuHost, block_for
from xhip.backend.runtime import DA
from xhip.dialects.hip import TopKAttributes

SORT_MAX = 2048
"""The longest row sorted in shared memory: 2048 * 12 bytes = 24 KiB."""


def sort_size(n: int) -> int:
    """The padded length of a row sorted in shared memory; 0: selection."""
    if n > SORT_MAX:
        return 0
    return 1 << max(0, n - 1).bit_length()


class GpuTopK(GpuHost):
    """Mixed into `KernelRuntime`: `Runtime.topk`."""

    def topk(self, src: DA, values: DA, indices: DA, attrs: TopKAttributes) -> None:
        axis = attrs.axis
        self._require_f32(src, values)
        if indices.dtype != np.int64:
            self.refuse(f"{indices.dtype} indices (int64 only)")
        n, k = src.shape[axis], checks.topk(src, values, axis)
        if values.size == 0:
            return
        kept = [d for d in range(len(src.shape)) if d != axis]
        rows = [
            [src.shape[d] for d in kept],
            *([value.strides[d] for d in kept] for value in (src, values, indices)),
        ]
        meta = np.asarray([v for row in rows for v in row] or [0], np.int64)
        count = values.size // k
        padded = sort_size(n)
        block = block_for(max(1, padded // 2) if padded else n)
        shared = 12 * (padded or block)
        args: list[KernelArg] = [
            ("i32", 1 if attrs.largest else 0),
            ("ptr", self._address(src)),
            ("ptr", self._address(values)),
            ("ptr", self._address(indices)),
            ("i32", len(kept)),
            ("ptr", self._device_meta(meta)),
            ("i64", count),
            ("i64", n),
            ("i64", k),
            ("i64", src.strides[axis]),
            ("i64", values.strides[axis]),
            ("i64", indices.strides[axis]),
            ("i64", padded),
        ]
        grid = min(count, MAX_GRID)
        self.device.launch("xhip_topk_f32", grid, block, shared, args)
