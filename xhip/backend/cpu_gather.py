"""The CPU runtime's Gather, GatherElements and GatherND.

`CpuGathers` is mixed into `CpuRuntime` (cpu.py). Each op is one numpy
indexing call (`np.take`, `np.take_along_axis`, fancy indexing) written into
its destination view: no Python loop per element or row. numpy's indexing
counts negative indices from the end, as ONNX does, and raises IndexError on
an index out of range (ONNX Runtime fails too; the GPU kernels clamp).
"""

from __future__ import annotations

import math

import numpy as np

from xhip.backend import checks
from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA
from xhip.dialects import hip
from xhip.dialects.hip import AxisAttributes, GatherNDAttributes


class CpuGathers(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` methods of the gather family."""

    def gather(self, data: DA, indices: DA, out: DA, attrs: AxisAttributes) -> None:
        """ONNX Gather along `axis` (in `[0, rank)`): `out` (shape `data[:axis]
        + indices + data[axis+1:]`) takes, per index (int32 or int64, in `[-n,
        n)` with n = data's size along `axis`, a negative one counted from the
        end), its slice of `data`. Out of range: the CPU raises IndexError, the
        GPU kernels clamp into `[0, n)` (ONNX Runtime fails)."""
        axis = attrs.axis
        o = self.array(out)
        checks.gathered_dims(hip.GatherOp, data, [data.shape[axis]], out)
        if o.size:
            np.take(self.array(data), self.array(indices), axis=axis, out=o)

    def gather_elements(
        self, data: DA, indices: DA, out: DA, attrs: AxisAttributes
    ) -> None:
        """ONNX GatherElements: `out[i] = data[i with i[axis] = indices[i]]`;
        `indices` and `out` of one shape, of data's rank; indices as `gather`'s."""
        axis = attrs.axis
        x, idx, o = self.array(data), self.array(indices), self.array(out)
        checks.gathered_dims(hip.GatherElementsOp, data, [data.shape[axis]], out)
        if not o.size:
            return
        # Off the axis the indices may be smaller than data: only that corner.
        corner = tuple(
            slice(None) if d == axis else slice(0, n) for d, n in enumerate(idx.shape)
        )
        o[...] = np.take_along_axis(x[corner], idx, axis)

    def gather_nd(
        self, data: DA, indices: DA, out: DA, attrs: GatherNDAttributes
    ) -> None:
        """ONNX GatherND: each index tuple (indices' last dim, k) picks the slice
        `data[b..., i0, .., ik-1]` after the `batch_dims` leading dims b the two
        share; `out` is `indices[:-1] + data[batch_dims + k:]`; each index as
        `gather`'s, against its own dim."""
        x, idx, o = self.array(data), self.array(indices), self.array(out)
        b, k = attrs.batch_dims, idx.shape[-1]
        checks.gathered_dims(hip.GatherNDOp, data, x.shape[b : b + k], out)
        if not o.size:
            return
        batch = math.prod(x.shape[:b])
        tuples = math.prod(idx.shape[b:-1])
        flat = x.reshape((batch, *x.shape[b:]))
        picks = idx.reshape((batch, tuples, k))
        rows = np.broadcast_to(np.arange(batch)[:, None], (batch, tuples))
        found = flat[(rows, *(picks[..., j] for j in range(k)))]
        o[...] = found.reshape(o.shape)
