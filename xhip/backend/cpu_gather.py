"""The CPU runtime's Gather, GatherElements and GatherND.

`CpuGathers` is mixed into `CpuRuntime` (cpu.py). Each op is one numpy
indexing call (`np.take`, `np.take_along_axis`, fancy indexing) written into
its destination view: no Python loop per element or row. numpy's indexing
counts negative indices from the end, as ONNX does, and raises IndexError on
an index out of range (ONNX Runtime fails too; the GPU kernels clamp).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from xhip.backend import checks
from xhip.backend.cpu_host import CpuHost, contiguous, nothing, run_all
from xhip.backend.runtime import DA
from xhip.dialects import hip
from xhip.dialects.hip import AxisAttributes, GatherNDAttributes


def _assign(o: np.ndarray, fn: Callable[..., np.ndarray], *args: Any) -> None:
    o[...] = fn(*args)


def _gather_nd(
    o: np.ndarray, flat: np.ndarray, rows: np.ndarray, picks: np.ndarray
) -> None:
    k = picks.shape[-1]
    o[...] = flat[(rows, *(picks[..., j] for j in range(k)))].reshape(o.shape)


class CpuGathers(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` methods of the gather family.
    Each is its `bind_` form called once (bound plans replay that call)."""

    def gather(self, data: DA, indices: DA, out: DA, attrs: AxisAttributes) -> None:
        """ONNX Gather along `axis` (in `[0, rank)`): `out` (shape `data[:axis]
        + indices + data[axis+1:]`) takes, per index (int32 or int64, in `[-n,
        n)` with n = data's size along `axis`, a negative one counted from the
        end), its slice of `data`. Out of range: the CPU raises IndexError, the
        GPU kernels clamp into `[0, n)` (ONNX Runtime fails)."""
        self.bind_gather(data, indices, out, attrs)()

    def bind_gather(
        self, data: DA, indices: DA, out: DA, attrs: AxisAttributes
    ) -> Callable[[], object]:
        axis = attrs.axis
        o = self.array(out)
        checks.gathered_dims(hip.GatherOp, data, [data.shape[axis]], out)
        if not o.size:
            return nothing
        x, idx = self.array(data), self.array(indices)
        return partial(np.take, x, idx, axis=axis, out=o)

    def gather_elements(
        self, data: DA, indices: DA, out: DA, attrs: AxisAttributes
    ) -> None:
        """ONNX GatherElements: `out[i] = data[i with i[axis] = indices[i]]`;
        `indices` and `out` of one shape, of data's rank; indices as `gather`'s."""
        self.bind_gather_elements(data, indices, out, attrs)()

    def bind_gather_elements(
        self, data: DA, indices: DA, out: DA, attrs: AxisAttributes
    ) -> Callable[[], object]:
        axis = attrs.axis
        x, idx, o = self.array(data), self.array(indices), self.array(out)
        checks.gathered_dims(hip.GatherElementsOp, data, [data.shape[axis]], out)
        if not o.size:
            return nothing
        # Off the axis the indices may be smaller than data: only that corner.
        corner = tuple(
            slice(None) if d == axis else slice(0, n) for d, n in enumerate(idx.shape)
        )
        return partial(_assign, o, np.take_along_axis, x[corner], idx, axis)

    def gather_nd(
        self, data: DA, indices: DA, out: DA, attrs: GatherNDAttributes
    ) -> None:
        """ONNX GatherND: each index tuple (indices' last dim, k) picks the slice
        `data[b..., i0, .., ik-1]` after the `batch_dims` leading dims b the two
        share; `out` is `indices[:-1] + data[batch_dims + k:]`; each index as
        `gather`'s, against its own dim."""
        self.bind_gather_nd(data, indices, out, attrs)()

    def bind_gather_nd(
        self, data: DA, indices: DA, out: DA, attrs: GatherNDAttributes
    ) -> Callable[[], object]:
        x, idx, o = self.array(data), self.array(indices), self.array(out)
        b, k = attrs.batch_dims, idx.shape[-1]
        checks.gathered_dims(hip.GatherNDOp, data, x.shape[b : b + k], out)
        if not o.size:
            return nothing
        calls: list[Callable[[], object]] = []
        batch = math.prod(x.shape[:b])
        tuples = math.prod(idx.shape[b:-1])
        flat = contiguous(x, calls).reshape((batch, *x.shape[b:]))
        picks = contiguous(idx, calls).reshape((batch, tuples, k))
        rows = np.broadcast_to(np.arange(batch)[:, None], (batch, tuples))
        calls.append(partial(_gather_nd, o, flat, rows, picks))
        return calls[0] if len(calls) == 1 else partial(run_all, calls)
