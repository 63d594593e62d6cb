"""The GPU runtimes' NonZero: `xhip_nonzero_<type>` of `kernels/select.h`.

`GpuSelect` is mixed into `gpu.KernelRuntime`. One kernel counts
(`hip.count_nonzero`, into the 0-D count the conversion reads back) or
writes the indices (`hip.nonzero`, into the `[rank, n]` output that count
sized), on any strides of the input, every element type of the kernels
(float16 as its bits, bool as bytes). One block: the indices come out in
row-major order from a prefix sum of the threads' counts.

NonMaxSuppression: `xhip_nms_f32`, one block walking the batches and
classes in turn, its threads finding each best candidate and removing what
it suppresses together (float32 boxes and scores; strided ones are copied
dense first). Unique is CPU-only (`gpu.CPU_ONLY`).
"""

from __future__ import annotations

import numpy as np

from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import BLOCK, GpuHost, block_for, type_suffix
from xhip.backend.runtime import DA, OptDA, contiguous_strides
from xhip.dialects.hip import NmsAttributes

_STORAGE = {"f16": "u16", "i1": "u8"}
"""Types whose zero test runs on their storage type's kernel."""


class GpuSelect(GpuHost):
    """Mixed into `KernelRuntime`: `Runtime.count_nonzero`, `Runtime.nonzero`."""

    def _nonzero(self, src: DA, count: DA | None, out: DA | None) -> None:
        suffix = type_suffix(src.dtype)
        if suffix is None:
            self.refuse(f"{src.dtype} input")
        for value in (count, out):
            if value is not None and value.dtype != np.int64:
                self.refuse(f"{value.dtype} output (int64 only)")
        shape, strides = (src.shape, src.strides) if src.shape else ((1,), (0,))
        meta = np.asarray([*shape, *strides], np.int64)
        n = src.size
        block = block_for(max(n, 1)) if n < BLOCK else BLOCK
        row, col = (0, 0) if out is None else out.strides
        args: list[KernelArg] = [
            ("ptr", self._address(src)),
            ("i32", int(suffix == "f16")),
            ("i32", len(shape)),
            ("ptr", self._device_meta(meta)),
            ("i64", n),
            ("ptr", 0 if count is None else self._address(count)),
            ("ptr", 0 if out is None else self._address(out)),
            ("i64", row),
            ("i64", col),
        ]
        kernel = f"xhip_nonzero_{_STORAGE.get(suffix, suffix)}"
        self.device.launch(kernel, 1, block, 8 * block, args)

    def count_nonzero(self, src: DA, count: DA) -> None:
        self._nonzero(src, count, None)

    def nonzero(self, src: DA, out: DA) -> None:
        rank = max(len(src.shape), 1)
        if out.shape[0] != rank:
            self.refuse(f"output of shape {out.shape} for a rank {rank} input")
        if out.size:
            self._nonzero(src, None, out)

    def _nms(
        self,
        boxes: DA,
        scores: DA,
        max_out: OptDA,
        iou: OptDA,
        score: OptDA,
        count: DA | None,
        out: DA | None,
        attrs: NmsAttributes,
    ) -> None:
        self._require_f32(boxes, scores, *(v for v in (iou, score) if v is not None))
        if max_out is not None and max_out.dtype != np.int64:
            self.refuse(f"{max_out.dtype} max_output_boxes_per_class (int64 only)")
        scratch: list[DA] = []
        dense: list[DA] = []
        for value in (boxes, scores):
            if value.strides != contiguous_strides(value.shape):
                value = self._dense(value)
                scratch.append(value)
            dense.append(value)
        batches, classes, n = scores.shape
        removed = self.empty((max(n, 1),), np.dtype(np.uint8))
        block = block_for(max(n, 1))
        row, col = (0, 0) if out is None else out.strides

        def address(value: OptDA) -> int:
            return 0 if value is None else self._address(value)

        args: list[KernelArg] = [
            ("ptr", self._address(dense[0])),
            ("ptr", self._address(dense[1])),
            ("ptr", address(max_out)),
            ("ptr", address(iou)),
            ("ptr", address(score)),
            ("i32", int(attrs.center_point_box)),
            ("i64", batches),
            ("i64", classes),
            ("i64", n),
            ("ptr", self._address(removed)),
            ("ptr", address(count)),
            ("ptr", address(out)),
            ("i64", row),
            ("i64", col),
        ]
        self.device.launch("xhip_nms_f32", 1, block, 12 * block, args)
        for value in (*scratch, removed):
            self.free(value.buffer)

    def nms_count(
        self,
        boxes: DA,
        scores: DA,
        max_out: OptDA,
        iou: OptDA,
        score: OptDA,
        count: DA,
        attrs: NmsAttributes,
    ) -> None:
        self._nms(boxes, scores, max_out, iou, score, count, None, attrs)

    def nms(
        self,
        boxes: DA,
        scores: DA,
        max_out: OptDA,
        iou: OptDA,
        score: OptDA,
        out: DA,
        attrs: NmsAttributes,
    ) -> None:
        if out.size:
            self._nms(boxes, scores, max_out, iou, score, None, out, attrs)
