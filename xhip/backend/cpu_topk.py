"""The CPU runtime's TopK.

`CpuTopK` is mixed into `CpuRuntime` (cpu.py). One stable argsort along the
axis, whole-array, then the first `k` of each row: no Python loop per row.
The order is total: larger first (smaller first for `largest=False`), ties to
the lower index, NaN larger than any number (numpy's sort order), as the GPU
kernel (`kernels/topk.h`) has it.
"""

from __future__ import annotations

from abc import ABC
from typing import TYPE_CHECKING

import numpy as np

from xhip.backend.runtime import DeviceArray, Runtime


def topk_order(x: np.ndarray, axis: int, largest: bool) -> np.ndarray:
    """The positions along `axis` of `x`'s elements in TopK's order."""
    if not largest:
        return np.argsort(x, axis=axis, kind="stable")
    # Ascending over the reversed axis, read backwards: descending values,
    # and equal ones in ascending original index.
    n = x.shape[axis]
    ascending = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return (n - 1) - np.flip(ascending, axis)


class CpuTopK(Runtime, ABC):
    """Mixed into `CpuRuntime`: `Runtime.topk`."""

    if TYPE_CHECKING:

        def array(self, value: DeviceArray) -> np.ndarray: ...

    def topk(
        self,
        src: DeviceArray,
        values: DeviceArray,
        indices: DeviceArray,
        axis: int,
        largest: bool = True,
    ) -> None:
        x, v, i = self.array(src), self.array(values), self.array(indices)
        k = v.shape[axis]
        if k > x.shape[axis]:
            raise ValueError(
                f"hip.topk: k = {k} is larger than the {x.shape[axis]} elements "
                f"along axis {axis}"
            )
        if v.size == 0:
            return
        order = topk_order(x, axis, largest)
        first = np.take(order, np.arange(k), axis=axis)
        np.copyto(i, first, casting="unsafe")
        np.copyto(v, np.take_along_axis(x, first, axis=axis))
