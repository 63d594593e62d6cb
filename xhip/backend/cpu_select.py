"""The CPU runtime's data-sized ops: NonZero's count and indices, Unique,
NonMaxSuppression (`hip.count_nonzero`, `hip.nonzero`, `hip.unique_count`,
`hip.unique`, `hip.nms_count`, `hip.nms`).

`CpuSelect` is mixed into `CpuRuntime` (cpu.py). Each count op computes what
its writing op will write and keeps its size: the conversion reads the count
back and sizes the writing op's outputs with it. Unique is numpy's
(`np.unique` along the axis, reordered by first occurrence for
`sorted=0`); NonMaxSuppression follows ONNX Runtime's selection exactly, in
float32, vectorised over the candidates of a class (one Python step per box
kept).
"""

from __future__ import annotations

import numpy as np

from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA, OptDA
from xhip.dialects.hip import NmsAttributes, UniqueAttributes


def nonzero_rows(x: np.ndarray) -> np.ndarray:
    """ONNX NonZero: `[max(rank, 1), n]` int64 indices, row-major order."""
    return np.asarray(np.nonzero(x.reshape(1) if x.ndim == 0 else x), np.int64)


def unique_parts(
    x: np.ndarray, axis: int, sorted_: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """ONNX Unique along `axis`: (y, indices, inverse_indices, counts).

    Sorted ascending (slices lexicographically), or by first occurrence."""
    y, indices, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True, axis=axis
    )
    inverse = inverse.reshape(-1)
    if not sorted_:
        order = np.argsort(indices, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        y, indices, counts = np.take(y, order, axis=axis), indices[order], counts[order]
        inverse = rank[inverse]
    as64 = np.int64
    return (
        y,
        indices.astype(as64, copy=False),
        inverse.astype(as64, copy=False),
        counts.astype(as64, copy=False),
    )


def _corners(boxes: np.ndarray, center: bool) -> np.ndarray:
    """`[..., 4]` boxes as (x_min, y_min, x_max, y_max), float32, as ONNX
    Runtime computes them."""
    b = boxes.astype(np.float32, copy=False)
    if center:
        half_w, half_h = b[..., 2] / np.float32(2), b[..., 3] / np.float32(2)
        x, y = b[..., 0], b[..., 1]
        return np.stack([x - half_w, y - half_h, x + half_w, y + half_h], -1)
    return np.stack(
        [
            np.minimum(b[..., 1], b[..., 3]),
            np.minimum(b[..., 0], b[..., 2]),
            np.maximum(b[..., 1], b[..., 3]),
            np.maximum(b[..., 0], b[..., 2]),
        ],
        -1,
    )


def _suppressed(kept: np.ndarray, rest: np.ndarray, iou: np.float32) -> np.ndarray:
    """Which `rest` boxes (corners) the `kept` one suppresses: IoU above
    `iou`, with ONNX Runtime's early outs (no overlap, an empty box)."""
    ix0 = np.maximum(kept[0], rest[:, 0])
    iy0 = np.maximum(kept[1], rest[:, 1])
    ix1 = np.minimum(kept[2], rest[:, 2])
    iy1 = np.minimum(kept[3], rest[:, 3])
    inter = (ix1 - ix0) * (iy1 - iy0)
    area = (kept[2] - kept[0]) * (kept[3] - kept[1])
    areas = (rest[:, 2] - rest[:, 0]) * (rest[:, 3] - rest[:, 1])
    union = area + areas - inter
    with np.errstate(all="ignore"):
        ratio = inter / union
    valid = (ix1 > ix0) & (iy1 > iy0) & (inter > 0)
    valid &= (area > 0) & (areas > 0) & (union > 0)
    return valid & (ratio > iou)


def nms_select(
    boxes: np.ndarray,
    scores: np.ndarray,
    max_out: int,
    iou: float,
    score: float | None,
    center: bool,
) -> np.ndarray:
    """ONNX Runtime's NonMaxSuppression: `[n, 3]` int64 (batch, class, box)."""
    rows: list[tuple[int, int, int]] = []
    if max_out <= 0:
        return np.zeros((0, 3), np.int64)
    corners = _corners(boxes, center)
    threshold = np.float32(iou)
    n_batches, n_classes, _ = scores.shape
    for b in range(n_batches):
        for c in range(n_classes):
            s = scores[b, c].astype(np.float32, copy=False)
            candidates = (
                np.arange(s.size) if score is None else np.flatnonzero(s > score)
            )
            # Descending score, ties to the lower box index.
            order = candidates[np.lexsort((candidates, -s[candidates]))]
            kept = 0
            while order.size and kept < max_out:
                top, order = order[0], order[1:]
                rows.append((b, c, int(top)))
                kept += 1
                hit = _suppressed(corners[b, top], corners[b, order], threshold)
                order = order[~hit]
    return np.asarray(rows, np.int64).reshape(-1, 3)


class CpuSelect(CpuHost):
    """Mixed into `CpuRuntime`: the data-sized ops."""

    def _store_count(self, count: DA, n: int) -> None:
        self.array(count)[...] = n

    def count_nonzero(self, src: DA, count: DA) -> None:
        """`hip.count_nonzero`: how many elements of `src` are not zero."""
        self._store_count(count, int(np.count_nonzero(self.array(src))))

    def nonzero(self, src: DA, out: DA) -> None:
        """`hip.nonzero`: the indices of `src`'s non-zero elements."""
        rows = nonzero_rows(self.array(src))
        _fits("nonzero", rows.shape, out.shape)
        self.array(out)[...] = rows

    def unique_count(self, src: DA, count: DA, attrs: UniqueAttributes) -> None:
        """`hip.unique_count`: how many distinct slices along the axis."""
        x = self.array(src)
        n = np.unique(x, axis=attrs.axis).shape[attrs.axis] if x.size else 0
        self._store_count(count, n)

    def unique(
        self,
        src: DA,
        y: DA,
        indices: DA,
        inverse: DA,
        counts: DA,
        attrs: UniqueAttributes,
    ) -> None:
        """`hip.unique`: ONNX Unique along the axis, all four outputs."""
        parts = unique_parts(self.array(src), attrs.axis, attrs.sorted)
        for part, value in zip(parts, (y, indices, inverse, counts)):
            _fits("unique", part.shape, value.shape)
            self.array(value)[...] = part

    def _nms(
        self,
        boxes: DA,
        scores: DA,
        max_out: OptDA,
        iou: OptDA,
        score: OptDA,
        center: bool,
    ) -> np.ndarray:
        def scalar(value: OptDA) -> float | None:
            return None if value is None else self.array(value).reshape(-1)[0].item()

        limit, overlap, floor = scalar(max_out), scalar(iou), scalar(score)
        return nms_select(
            self.array(boxes),
            self.array(scores),
            int(limit or 0),
            float(overlap or 0.0),
            floor,
            center,
        )

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
        """`hip.nms_count`: how many boxes `hip.nms` selects."""
        rows = self._nms(boxes, scores, max_out, iou, score, attrs.center_point_box)
        self._store_count(count, rows.shape[0])

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
        """`hip.nms`: the selected (batch, class, box) rows."""
        rows = self._nms(boxes, scores, max_out, iou, score, attrs.center_point_box)
        _fits("nms", rows.shape, out.shape)
        self.array(out)[...] = rows


def _fits(what: str, shape: tuple[int, ...], out: tuple[int, ...]) -> None:
    if tuple(shape) != tuple(out):
        raise ValueError(
            f"{what}: the result has shape {tuple(shape)} but its buffer "
            f"{tuple(out)} (sized by the count read back)"
        )
