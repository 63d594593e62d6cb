"""The CPU runtime's TopK.

`CpuTopK` is mixed into `CpuRuntime` (cpu.py). One stable argsort along the
axis, whole-array, then the first `k` of each row: no Python loop per row.
The order is total: larger first (smaller first for `largest=False`), ties to
the lower index, NaN larger than any number (numpy's sort order), as the GPU
kernel (`kernels/topk.h`) has it.
"""

from __future__ import annotations

import numpy as np

from xhip.backend import checks
from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA
from xhip.dialects.hip import TopKAttributes


def topk_order(x: np.ndarray, axis: int, largest: bool) -> np.ndarray:
    """The positions along `axis` of `x`'s elements in TopK's order."""
    if not largest:
        return np.argsort(x, axis=axis, kind="stable")
    # Ascending over the reversed axis, read backwards: descending values,
    # and equal ones in ascending original index.
    n = x.shape[axis]
    ascending = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return (n - 1) - np.flip(ascending, axis)


class CpuTopK(CpuHost):
    """Mixed into `CpuRuntime`: `Runtime.topk`."""

    def topk(self, src: DA, values: DA, indices: DA, attrs: TopKAttributes) -> None:
        """`hip.topk`: the `k = values.shape[axis]` largest (or smallest)
        elements of `src` along `axis`, sorted, into `values`, and their
        positions along `axis` into the int64 `indices`; ties go to the lower
        index, NaN counts as larger than any number."""
        axis = attrs.axis
        x, v, i = self.array(src), self.array(values), self.array(indices)
        k = checks.topk(src, values, axis)
        if v.size == 0:
            return
        order = topk_order(x, axis, attrs.largest)
        first = np.take(order, np.arange(k), axis=axis)
        np.copyto(i, first, casting="unsafe")
        np.copyto(v, np.take_along_axis(x, first, axis=axis))
