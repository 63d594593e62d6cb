"""The GPU runtimes' reductions, normalizations, log-softmax, hardmax and fill.

`GpuReductions` is mixed into `gpu.KernelRuntime`; the kernels are in
`kernels/reduce.h`, templates with one instantiation per element type (the
suffix of `elementwise.TYPE_OF`, picked here by dtype). float16 is stored
as its 16 bits and accumulates in float, float32 in float, float64 in
double; integers in their own type, but mean, L2 and log-sum-exp in double.
Other element types go through `Runtime.refuse` in one line.

- `reduce`: one kernel for every kind and any set of axes on any strides:
  each block reduces one output position (grid-stride), its threads stride
  over the reduced elements, shared-memory tree at the end. `REDUCE_TYPES`:
  float16/32/64, int8/32/64, uint8/32/64, and bool for max and min.
- `arg_reduce`: the same over one axis, (value, index) pairs; `ARG_TYPES`.
- `layer_norm`, `rms_norm`: one block per row of the normalized dims; a
  non-contiguous input and a scale or bias that is broadcast are first made
  dense with the copy kernel. `FLOAT_TYPES`; Mean and InvStdDev are computed
  in float (float64: double) and cast when their type is another.
- `log_softmax`, `hardmax`: one block per row; any other axis is moved last
  into scratch and back by the copy kernel, as `softmax` does. `FLOAT_TYPES`.
- `fill`: a memset where every element has the same byte pattern (0, all
  ones, booleans), else a refusal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import (
    FLOAT_TYPES,
    MAX_GRID,
    GpuHost,
    block_for,
)
from xhip.backend.runtime import DA, DeviceArray, OptDA
from xhip.dialects.hip import (
    ArgReduceAttributes,
    AxisAttributes,
    FillAttributes,
    NormAttributes,
    PermuteAttributes,
    ReduceAttributes,
)

REDUCE_CODES = {
    "sum": 0,
    "mean": 1,
    "max": 2,
    "min": 3,
    "prod": 4,
    "l1": 5,
    "l2": 6,
    "log_sum_exp": 7,
    "sum_square": 8,
}
"""The `kind` codes of `xhip_reduce_<type>` (the XHIP_REDUCE_* of reduce.h)."""

ARG_TYPES = FLOAT_TYPES | {"i8", "i32", "i64", "u8", "u32", "u64"}
"""The suffixes of `xhip_arg_reduce_<type>`."""
REDUCE_TYPES = ARG_TYPES | {"i1"}
"""The suffixes of `xhip_reduce_<type>` (bool: max and min only)."""


def accumulator_bytes(suffix: str) -> int:
    """The bytes of one accumulator of a kernel on `suffix`: float for
    float16 and float32, double or the integer itself (at most 8) else."""
    return 4 if suffix in ("f16", "f32") else 8


def compute_dtype(suffix: str) -> np.dtype[Any]:
    """What the float kernels compute in, and write Mean and InvStdDev in."""
    return np.dtype(np.float64 if suffix == "f64" else np.float32)


def _keepdims(out: DeviceArray, rank: int, axes: Sequence[int]) -> DeviceArray:
    """`out` with the reduced dims as size 1 (a view), if it dropped them."""
    if len(out.shape) == rank:
        return out
    shape = list(out.shape)
    strides = list(out.strides)
    for a in sorted(axes):
        shape.insert(a, 1)
        strides.insert(a, 0)
    return DeviceArray(
        out.buffer, out.offset, tuple(shape), tuple(strides), out.dtype, out.base
    )


class GpuReductions(GpuHost):
    """Mixed into `KernelRuntime`: the `Runtime` methods of the reduction family."""

    def reduce(self, src: DA, out: DA, attrs: ReduceAttributes) -> None:
        kind, axes = attrs.kind, attrs.axes
        suffix = self._suffix(REDUCE_TYPES, src, out)
        if suffix == "i1" and kind not in ("max", "min"):
            self.refuse("bool operands (max, min only)")
        rank = len(src.shape)
        full = _keepdims(out, rank, axes)
        if full.size == 0:
            return
        kept = [d for d in range(rank) if d not in axes]
        red = [d for d in range(rank) if d in axes]
        n = math.prod(src.shape[d] for d in red)
        rows = [
            [src.shape[d] for d in kept],
            [src.strides[d] for d in kept],
            [full.strides[d] for d in kept],
            [src.shape[d] for d in red],
            [src.strides[d] for d in red],
        ]
        meta = np.asarray([v for row in rows for v in row] or [0], np.int64)
        outputs = full.size
        block = block_for(n)
        args: list[KernelArg] = [
            ("i32", REDUCE_CODES[kind]),
            ("ptr", self._address(src)),
            ("ptr", self._address(full)),
            ("i32", len(kept)),
            ("i32", len(red)),
            ("ptr", self._device_meta(meta)),
            ("i64", outputs),
            ("i64", n),
        ]
        grid = min(outputs, MAX_GRID)
        shared = accumulator_bytes(suffix) * block
        self.device.launch(f"xhip_reduce_{suffix}", grid, block, shared, args)

    def arg_reduce(self, src: DA, out: DA, attrs: ArgReduceAttributes) -> None:
        axis = attrs.axis
        suffix = self._suffix(ARG_TYPES, src)
        if out.dtype != np.int64:
            self.refuse(f"{out.dtype} indices (int64 only)")
        rank = len(src.shape)
        full = _keepdims(out, rank, (axis,))
        if full.size == 0:
            return
        kept = [d for d in range(rank) if d != axis]
        rows = [
            [src.shape[d] for d in kept],
            [src.strides[d] for d in kept],
            [full.strides[d] for d in kept],
        ]
        meta = np.asarray([v for row in rows for v in row] or [0], np.int64)
        n = src.shape[axis]
        block = block_for(n)
        args: list[KernelArg] = [
            ("i32", 1 if attrs.kind == "max" else 0),
            ("i32", 1 if attrs.select_last else 0),
            ("ptr", self._address(src)),
            ("ptr", self._address(full)),
            ("i32", len(kept)),
            ("ptr", self._device_meta(meta)),
            ("i64", full.size),
            ("i64", n),
            ("i64", src.strides[axis]),
        ]
        grid = min(full.size, MAX_GRID)
        shared = (8 + accumulator_bytes(suffix)) * block
        self.device.launch(f"xhip_arg_reduce_{suffix}", grid, block, shared, args)

    def _dense_rows(
        self, value: DeviceArray, shape: tuple[int, ...]
    ) -> tuple[DeviceArray, bool]:
        """`value` broadcast to `shape` as a dense array; True if it is scratch."""
        if value.shape == shape and value.is_contiguous():
            return value, False
        lead = len(shape) - len(value.shape)
        strides = [0] * lead + [
            0 if n == 1 else s for n, s in zip(value.shape, value.strides)
        ]
        view = DeviceArray(
            value.buffer, value.offset, shape, tuple(strides), value.dtype, value.base
        )
        dense = self.empty(shape, value.dtype)
        self.copy(view, dense)
        return dense, True

    def _norm(self, rms: bool, values: Sequence[OptDA], attrs: NormAttributes) -> None:
        """LayerNorm, or RMSNorm (`rms`), of the values (x, scale, bias, out,
        mean, inv_std)."""
        x, scale, bias, out, mean, inv_std = values
        assert x is not None and scale is not None and out is not None
        given = [v for v in (x, scale, bias, out) if v is not None]
        suffix = self._suffix(FLOAT_TYPES, *given)
        work = compute_dtype(suffix)
        for value in (mean, inv_std):
            if value is not None and value.dtype.kind != "f":
                self.refuse(f"{value.dtype} statistics (float only)")
        if x.size == 0:
            return
        inner = x.shape[attrs.axis :]
        n = math.prod(inner)
        rows = x.size // n
        scratch: list[DeviceArray] = []
        xs, made = self._dense_rows(x, x.shape)
        if made:
            scratch.append(xs)
        params: list[DeviceArray | None] = []
        for value in (scale, bias):
            if value is None:
                params.append(None)
                continue
            dense, made = self._dense_rows(value, inner)
            params.append(dense)
            if made:
                scratch.append(dense)
        target = out if out.is_contiguous() else self.empty(out.shape, out.dtype)
        stats: list[DeviceArray | None] = []
        for value in (mean, inv_std):
            if value is None or (value.is_contiguous() and value.dtype == work):
                stats.append(value)
            else:  # written in the compute type, then cast
                stats.append(self.empty(value.shape, work))

        def address(value: DeviceArray | None) -> int:
            return 0 if value is None else self._address(value)

        block = block_for(n)
        args: list[KernelArg] = [
            ("ptr", self._address(xs)),
            ("ptr", address(params[0])),
            ("ptr", address(params[1])),
            ("ptr", self._address(target)),
            ("ptr", address(stats[0])),
            ("ptr", address(stats[1])),
            ("i64", rows),
            ("i64", n),
            ("i64", int(np.float64(attrs.epsilon).view(np.int64))),
            ("i32", 1 if rms else 0),
        ]
        grid = min(rows, MAX_GRID)
        shared = accumulator_bytes(suffix) * block
        self.device.launch(f"xhip_layer_norm_{suffix}", grid, block, shared, args)
        for made, wanted in ((target, out), *zip(stats, (mean, inv_std))):
            if made is not None and wanted is not None and made is not wanted:
                self.cast(made, wanted)
                scratch.append(made)
        for value in scratch:
            self.free(value.buffer)

    def layer_norm(
        self, x: DA, scale: DA, bias: OptDA, out: DA, mean: OptDA, inv_std: OptDA,
        attrs: NormAttributes,
    ) -> None:  # fmt: skip
        self._norm(False, (x, scale, bias, out, mean, inv_std), attrs)

    def rms_norm(self, x: DA, scale: DA, out: DA, attrs: NormAttributes) -> None:
        self._norm(True, (x, scale, None, out, None, None), attrs)

    def _softmax_kind(
        self,
        hard: bool,
        src: DeviceArray,
        out: DeviceArray,
        axis: int,
    ) -> None:
        suffix = self._suffix(FLOAT_TYPES, src, out)
        if src.size == 0:
            return
        rank = len(src.shape)
        if axis == rank - 1 and src.is_contiguous() and out.is_contiguous():
            self._softmax_kind_rows(suffix, hard, src, out)
            return
        perm = [d for d in range(rank) if d != axis] + [axis]
        scratch = self.empty(tuple(src.shape[p] for p in perm), src.dtype)
        self.permute(src, scratch, PermuteAttributes(tuple(perm)))
        self._softmax_kind_rows(suffix, hard, scratch, scratch)
        back = tuple(perm.index(d) for d in range(rank))
        self.permute(scratch, out, PermuteAttributes(back))
        self.free(scratch.buffer)

    def _softmax_kind_rows(
        self, suffix: str, hard: bool, src: DeviceArray, out: DeviceArray
    ) -> None:
        n = src.shape[-1]
        rows = src.size // n
        block = block_for(n)
        args: list[KernelArg] = [
            ("i32", 1 if hard else 0),
            ("ptr", self._address(src)),
            ("ptr", self._address(out)),
            ("i64", rows),
            ("i64", n),
        ]
        grid = min(rows, MAX_GRID)
        shared = (8 + accumulator_bytes(suffix)) * block
        kernel = f"xhip_softmax_kind_rows_{suffix}"
        self.device.launch(kernel, grid, block, shared, args)

    def log_softmax(self, src: DA, out: DA, attrs: AxisAttributes) -> None:
        self._softmax_kind(False, src, out, attrs.axis)

    def hardmax(self, src: DA, out: DA, attrs: AxisAttributes) -> None:
        self._softmax_kind(True, src, out, attrs.axis)

    def fill(self, out: DA, attrs: FillAttributes) -> None:
        value = attrs.value
        if out.size == 0:
            return
        pattern = np.asarray(value).astype(out.dtype).reshape(1).view(np.uint8)
        if not out.is_contiguous() or len(set(pattern.tolist())) != 1:
            # Not one repeated byte: a copy from the value, broadcast (stride 0).
            one = self._constant_view(np.asarray(value).astype(out.dtype).reshape(1))
            rank = len(out.shape)
            self.copy(
                DeviceArray(one.buffer, 0, out.shape, (0,) * rank, out.dtype), out
            )
            return
        self.device.memset(self._address(out), int(pattern[0]), out.size * out.itemsize)
