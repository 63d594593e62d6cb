"""The CPU runtime's Gather, GatherElements and GatherND.

`CpuGathers` is mixed into `CpuRuntime` (cpu.py). Each op is one numpy
indexing call (`np.take`, `np.take_along_axis`, fancy indexing) written into
its destination view: no Python loop per element or row. numpy's indexing
counts negative indices from the end, as ONNX does, and raises IndexError on
an index out of range (ONNX Runtime fails too; the GPU kernels clamp).
"""

from __future__ import annotations

import math
from abc import ABC
from typing import TYPE_CHECKING

import numpy as np

from xhip.backend.runtime import DeviceArray, Runtime


class CpuGathers(Runtime, ABC):
    """Mixed into `CpuRuntime`: the `Runtime` methods of the gather family."""

    if TYPE_CHECKING:

        def array(self, value: DeviceArray) -> np.ndarray: ...

    def gather(
        self, data: DeviceArray, indices: DeviceArray, out: DeviceArray, axis: int
    ) -> None:
        o = self.array(out)
        if o.size:
            np.take(self.array(data), self.array(indices), axis=axis, out=o)

    def gather_elements(
        self, data: DeviceArray, indices: DeviceArray, out: DeviceArray, axis: int
    ) -> None:
        x, idx, o = self.array(data), self.array(indices), self.array(out)
        if not o.size:
            return
        # Off the axis the indices may be smaller than data: only that corner.
        corner = tuple(
            slice(None) if d == axis else slice(0, n) for d, n in enumerate(idx.shape)
        )
        o[...] = np.take_along_axis(x[corner], idx, axis)

    def gather_nd(
        self,
        data: DeviceArray,
        indices: DeviceArray,
        out: DeviceArray,
        batch_dims: int = 0,
    ) -> None:
        x, idx, o = self.array(data), self.array(indices), self.array(out)
        if not o.size:
            return
        b, k = batch_dims, idx.shape[-1]
        batch = math.prod(x.shape[:b])
        tuples = math.prod(idx.shape[b:-1])
        flat = x.reshape((batch, *x.shape[b:]))
        picks = idx.reshape((batch, tuples, k))
        rows = np.broadcast_to(np.arange(batch)[:, None], (batch, tuples))
        found = flat[(rows, *(picks[..., j] for j in range(k)))]
        o[...] = found.reshape(o.shape)
