"""The GPU runtimes' scatters, Trilu, CumSum and OneHot.

`GpuScatters` is mixed into `gpu.KernelRuntime`; the kernels are in
`kernels/scatter.h`. Every element type of `elementwise.ELEMENT_TYPES`.

- `scatter_nd`, `scatter_elements`: `out` = data by the copy kernel, then
  one kernel. Reduction none: one thread per update element (ONNX leaves
  duplicate indices undefined). add/mul/max/min: deterministic, no atomics:
  one thread per set of destinations that updates can share (each element
  of a slice for ScatterND, each line along the axis for ScatterElements),
  applying them in order, so the result is the CPU's bit for bit on every
  type (atomics would make float sums depend on the schedule, and there are
  none for float16, int64 mul or NaN-keeping float max). The cost: a
  ScatterND of single elements with a reduction runs on one thread.
  Indices and updates that are not dense are copied dense first. An index
  outside its dim is skipped (the CPU raises).
- `trilu`, `one_hot`: one thread per output element, any strides.
- `cumsum`: one thread per line along the axis, summing (multiplying) in
  order.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from xhip.backend.device import KernelArg
from xhip.backend.elementwise import TYPE_CODES
from xhip.backend.gpu_host import GpuHost
from xhip.backend.runtime import DA, DeviceArray, check_call
from xhip.dialects.hip import (
    AxisAttributes,
    CumSumAttributes,
    ScatterAttributes,
    ScatterAxisAttributes,
    TriluAttributes,
)

SCATTER_CODES = {"none": 0, "add": 1, "mul": 2, "max": 3, "min": 4}
"""The `how` codes of the scatter kernels (the XHIP_SCATTER_* of scatter.h)."""


class GpuScatters(GpuHost):
    """Mixed into `KernelRuntime`: the `Runtime` methods of the scatter family."""

    def _scatter_type(self, value: DeviceArray) -> int:
        code = TYPE_CODES.get(value.dtype)
        if code is None:
            self.refuse(f"{value.dtype} operands")
        return code

    def _scatter_dense(
        self, value: DeviceArray, scratch: list[DeviceArray]
    ) -> DeviceArray:
        if value.is_contiguous():
            return value
        dense = self.empty(value.shape, value.dtype)
        self.copy(value, dense)
        scratch.append(dense)
        return dense

    def _scatter_run(
        self,
        kernel: str,
        data: DeviceArray,
        indices: DeviceArray,
        updates: DeviceArray,
        out: DeviceArray,
        reduction: str,
        launch: Callable[[int, int, DeviceArray, DeviceArray], None],
    ) -> None:
        code = self._scatter_type(out)
        if reduction not in SCATTER_CODES:
            self.refuse(f"reduction '{reduction}'")
        if indices.dtype not in (np.int32, np.int64):
            self.refuse(f"{indices.dtype} indices")
        if not (
            data.buffer is out.buffer
            and data.offset == out.offset
            and data.strides == out.strides
        ):
            self.copy(data, out)
        if out.size == 0 or updates.size == 0:
            return
        scratch: list[DeviceArray] = []
        dense_indices = self._scatter_dense(indices, scratch)
        dense_updates = self._scatter_dense(updates, scratch)
        if self.debug:
            check_call(kernel, (dense_indices, dense_updates), out, inplace_ok=False)
        launch(SCATTER_CODES[reduction], code, dense_indices, dense_updates)
        for value in scratch:
            self.free(value.buffer)

    def scatter_nd(
        self, data: DA, indices: DA, updates: DA, out: DA, attrs: ScatterAttributes
    ) -> None:
        reduction = attrs.reduction
        rank = len(out.shape)
        k = indices.shape[-1]
        m = math.prod(indices.shape[:-1])
        if indices.dtype != np.int64:
            self.refuse(f"{indices.dtype} indices")
        s = math.prod(out.shape[k:])

        def launch(how: int, code: int, idx: DeviceArray, upd: DeviceArray) -> None:
            serial = how != SCATTER_CODES["none"]
            meta = np.asarray([*out.shape, *out.strides] or [0], np.int64)
            args: list[KernelArg] = [
                ("i32", how),
                ("i32", code),
                ("i32", out.itemsize),
                ("ptr", self._address(out)),
                ("ptr", self._address(idx)),
                ("ptr", self._address(upd)),
                ("i32", rank),
                ("i32", k),
                ("ptr", self._device_meta(meta)),
                ("i64", m),
                ("i64", s),
                ("i32", 1 if serial else 0),
            ]
            total = s if serial else m * s
            self._launch_1d("xhip_scatter_nd", total, args)

        self._scatter_run(
            "xhip_scatter_nd", data, indices, updates, out, reduction, launch
        )

    def scatter_elements(
        self, data: DA, indices: DA, updates: DA, out: DA, attrs: ScatterAxisAttributes
    ) -> None:
        reduction, axis = attrs.reduction, attrs.axis
        shape = indices.shape
        n = shape[axis]
        inner = math.prod(shape[axis + 1 :])
        lines = indices.size // n if n else 0
        kept = [d for d in range(len(shape)) if d != axis]

        def launch(how: int, code: int, idx: DeviceArray, upd: DeviceArray) -> None:
            serial = how != SCATTER_CODES["none"]
            meta = np.asarray(
                [*(shape[d] for d in kept), *(out.strides[d] for d in kept)] or [0],
                np.int64,
            )
            args: list[KernelArg] = [
                ("i32", how),
                ("i32", code),
                ("i32", out.itemsize),
                ("i32", idx.itemsize),
                ("ptr", self._address(out)),
                ("ptr", self._address(idx)),
                ("ptr", self._address(upd)),
                ("i32", len(kept)),
                ("ptr", self._device_meta(meta)),
                ("i64", lines),
                ("i64", n),
                ("i64", inner),
                ("i64", out.shape[axis]),
                ("i64", out.strides[axis]),
                ("i32", 1 if serial else 0),
            ]
            total = lines if serial else lines * n
            self._launch_1d("xhip_scatter_elements", total, args)

        self._scatter_run(
            "xhip_scatter_elements", data, indices, updates, out, reduction, launch
        )

    def trilu(self, k: int, src: DA, out: DA, attrs: TriluAttributes) -> None:
        self._scatter_type(out)
        meta = np.asarray([*out.shape, *out.strides, *src.strides], np.int64)
        leading: list[KernelArg] = [
            ("i32", out.itemsize),
            ("i32", 1 if attrs.upper else 0),
            ("i64", k),
        ]
        self._launch_strided("xhip_trilu", leading, out, meta, [src])

    def cumsum(self, src: DA, out: DA, attrs: CumSumAttributes) -> None:
        axis = attrs.axis
        code = self._scatter_type(out)
        if out.size == 0:
            return
        if self.debug:
            check_call("xhip_cumsum", (src,), out, inplace_ok=False)
        kept = [d for d in range(len(out.shape)) if d != axis]
        n = out.shape[axis]
        lines = out.size // n
        rows = [
            [out.shape[d] for d in kept],
            [src.strides[d] for d in kept],
            [out.strides[d] for d in kept],
        ]
        meta = np.asarray([v for row in rows for v in row] or [0], np.int64)
        args: list[KernelArg] = [
            ("i32", code),
            ("i32", 1 if attrs.exclusive else 0),
            ("i32", 1 if attrs.reverse else 0),
            ("i32", 1 if attrs.product else 0),
            ("ptr", self._address(out)),
            ("ptr", self._address(src)),
            ("i32", len(kept)),
            ("ptr", self._device_meta(meta)),
            ("i64", lines),
            ("i64", n),
            ("i64", src.strides[axis]),
            ("i64", out.strides[axis]),
        ]
        self._launch_1d("xhip_cumsum", lines, args)

    def one_hot(self, indices: DA, values: DA, out: DA, attrs: AxisAttributes) -> None:
        axis = attrs.axis
        self._scatter_type(out)
        index_type = self._scatter_type(indices)
        if out.size == 0:
            return
        scratch: list[DeviceArray] = []
        dense = self._scatter_dense(indices, scratch)
        meta = np.asarray([*out.shape, *out.strides], np.int64)
        leading: list[KernelArg] = [("i32", index_type), ("i32", out.itemsize)]
        trailing: list[KernelArg] = [
            ("i64", out.shape[axis]),
            ("i64", math.prod(out.shape[axis + 1 :])),
            ("i64", values.strides[0]),
        ]
        self._launch_strided(
            "xhip_one_hot", leading, out, meta, [dense, values], trailing
        )
        for value in scratch:
            self.free(value.buffer)
