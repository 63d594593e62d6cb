"""The GPU runtimes' reductions, normalizations, log-softmax, hardmax and fill.

`GpuReductions` is mixed into `gpu.KernelRuntime`; the kernels are in
`kernels/reduce.h`. float32 only, like the other kernels: other element
types go through `Runtime.not_implemented` in one line.

- `reduce`: one kernel for every kind and any set of axes on any strides:
  each block reduces one output position (grid-stride), its threads stride
  over the reduced elements, shared-memory tree at the end.
- `arg_reduce`: the same over one axis, (value, index) pairs.
- `layer_norm`, `rms_norm`: one block per row of the normalized dims; a
  non-contiguous input and a scale or bias that is broadcast are first made
  dense with the copy kernel.
- `log_softmax`, `hardmax`: one block per row; any other axis is moved last
  into scratch and back by the copy kernel, as `softmax` does.
- `fill`: a memset where every element has the same byte pattern (0, all
  ones, booleans), else a refusal.
"""

from __future__ import annotations

import math
from abc import ABC
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from xhip.backend.device import DeviceAPI, KernelArg
from xhip.backend.runtime import DeviceArray, Runtime

REDUCE_BLOCK = 256
"""Most threads per block (a power of two); fewer when there is less to reduce."""
MAX_GRID = 1 << 16

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
"""The `kind` codes of `xhip_reduce_f32` (the XHIP_REDUCE_* of reduce.h)."""

REDUCE_OP_NAMES = {
    "log_sum_exp": "hip.reduce_log_sum_exp",
    "sum_square": "hip.reduce_sum_square",
}


def reduce_op_name(kind: str) -> str:
    return REDUCE_OP_NAMES.get(kind, f"hip.miopen.reduce_{kind}")


def block_for(n: int) -> int:
    """The smallest power of two >= n, at most `REDUCE_BLOCK` (at least 1)."""
    return min(REDUCE_BLOCK, 1 << max(0, n - 1).bit_length())


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


class GpuReductions(Runtime, ABC):
    """Mixed into `KernelRuntime`: the `Runtime` methods of the reduction family."""

    if TYPE_CHECKING:
        device: DeviceAPI

        def _require_f32(self, op: str, *values: DeviceArray) -> None: ...
        def _address(self, value: DeviceArray) -> int: ...
        def _device_meta(self, meta: np.ndarray) -> int: ...
        def _constant_view(self, host: np.ndarray) -> DeviceArray: ...

    def reduce(
        self,
        src: DeviceArray,
        out: DeviceArray,
        kind: str,
        axes: Sequence[int],
    ) -> None:
        self._require_f32(reduce_op_name(kind), src, out)
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
        self.device.launch("xhip_reduce_f32", grid, block, 4 * block, args)

    def arg_reduce(
        self,
        src: DeviceArray,
        out: DeviceArray,
        kind: str,
        axis: int,
        select_last: bool = False,
    ) -> None:
        self._require_f32(f"hip.arg{kind}", src)
        if out.dtype != np.int64:
            self.not_implemented(f"hip.arg{kind}", f"{out.dtype} indices (int64 only)")
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
            ("i32", 1 if kind == "max" else 0),
            ("i32", 1 if select_last else 0),
            ("ptr", self._address(src)),
            ("ptr", self._address(full)),
            ("i32", len(kept)),
            ("ptr", self._device_meta(meta)),
            ("i64", full.size),
            ("i64", n),
            ("i64", src.strides[axis]),
        ]
        grid = min(full.size, MAX_GRID)
        self.device.launch("xhip_arg_reduce_f32", grid, block, 12 * block, args)

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

    def _norm(
        self,
        op: str,
        x: DeviceArray,
        scale: DeviceArray,
        bias: DeviceArray | None,
        out: DeviceArray,
        mean: DeviceArray | None,
        inv_std: DeviceArray | None,
        axis: int,
        epsilon: float,
        rms: bool,
    ) -> None:
        given = [v for v in (x, scale, bias, out, mean, inv_std) if v is not None]
        self._require_f32(op, *given)
        if x.size == 0:
            return
        inner = x.shape[axis:]
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
            if value is None or value.is_contiguous():
                stats.append(value)
            else:
                stats.append(self.empty(value.shape, value.dtype))

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
            ("i32", int(np.float32(epsilon).view(np.int32))),
            ("i32", 1 if rms else 0),
        ]
        grid = min(rows, MAX_GRID)
        self.device.launch("xhip_layer_norm_f32", grid, block, 4 * block, args)
        for made, wanted in ((target, out), *zip(stats, (mean, inv_std))):
            if made is not None and wanted is not None and made is not wanted:
                self.copy(made, wanted)
                scratch.append(made)
        for value in scratch:
            self.free(value.buffer)

    def layer_norm(
        self,
        x: DeviceArray,
        scale: DeviceArray,
        bias: DeviceArray | None,
        out: DeviceArray,
        mean: DeviceArray | None,
        inv_std: DeviceArray | None,
        axis: int,
        epsilon: float,
    ) -> None:
        self._norm(
            "hip.miopen.layer_norm",
            x,
            scale,
            bias,
            out,
            mean,
            inv_std,
            axis,
            epsilon,
            rms=False,
        )

    def rms_norm(
        self,
        x: DeviceArray,
        scale: DeviceArray,
        out: DeviceArray,
        axis: int,
        epsilon: float,
    ) -> None:
        self._norm(
            "hip.rms_norm", x, scale, None, out, None, None, axis, epsilon, rms=True
        )

    def _softmax_kind(
        self,
        op: str,
        hard: bool,
        src: DeviceArray,
        out: DeviceArray,
        axis: int,
    ) -> None:
        self._require_f32(op, src, out)
        if src.size == 0:
            return
        rank = len(src.shape)
        if axis == rank - 1 and src.is_contiguous() and out.is_contiguous():
            self._softmax_kind_rows(hard, src, out)
            return
        perm = [d for d in range(rank) if d != axis] + [axis]
        scratch = self.empty(tuple(src.shape[p] for p in perm), src.dtype)
        self.permute(src, scratch, perm)
        self._softmax_kind_rows(hard, scratch, scratch)
        self.permute(scratch, out, [perm.index(d) for d in range(rank)])
        self.free(scratch.buffer)

    def _softmax_kind_rows(
        self, hard: bool, src: DeviceArray, out: DeviceArray
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
        self.device.launch("xhip_softmax_kind_rows_f32", grid, block, 12 * block, args)

    def log_softmax(self, src: DeviceArray, out: DeviceArray, axis: int) -> None:
        self._softmax_kind("hip.miopen.log_softmax", False, src, out, axis)

    def hardmax(self, src: DeviceArray, out: DeviceArray, axis: int) -> None:
        self._softmax_kind("hip.hardmax", True, src, out, axis)

    def fill(self, out: DeviceArray, value: float) -> None:
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
