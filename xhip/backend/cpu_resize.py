"""ONNX Resize: the taps and weights of each dim, and the CPU runtime's resize.

Resize is separable: along each dim, output position `o` maps back to an
input coordinate (`coordinate_mode`), and the result is a weighted sum of
`n` input positions near it (1 for nearest, 2 for linear, 4 for cubic, more
for an antialiased downscale). `resize_taps` computes, for one dim, the
`(out, n)` indices (clamped into the input, as ONNX's edge padding) and
weights, with numpy over all output positions at once; it follows onnx's
reference implementation (`onnx/reference/ops/op_resize.py`) step by step.
The GPU runtimes upload the same tables (gpu_resize.py).

`CpuResize.resize` applies the dims one after the other: `np.take` of the
taps and a sum weighted along the new axis (in float64, as the reference;
nearest is a plain gather in the input's type); a dim whose size and scale
stay (and, under tf_crop_and_resize, whose roi is [0, 1]) is left as it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from xhip.backend import checks
from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA
from xhip.dialects.hip import ResizeAttributes


@dataclass(frozen=True)
class Taps:
    """One dim's interpolation: out[o] = sum_t weight[o, t] * in[index[o, t]],
    or the extrapolation value where `outside[o]` (tf_crop_and_resize)."""

    index: np.ndarray
    weight: np.ndarray
    outside: np.ndarray | None


def _source(
    coordinate_mode: str,
    out_size: int,
    in_size: int,
    scale: float,
    roi: tuple[float, float],
) -> np.ndarray:
    """The input coordinate of each output position."""
    y = np.arange(out_size, dtype=np.float64)
    # The spec's `length_resized`: the output size (onnx's reference takes
    # `scale * in`, the same number wherever that is whole; ONNX Runtime and
    # the spec take the size).
    width = float(out_size)
    if coordinate_mode == "align_corners":
        if width == 1:
            return np.zeros(out_size)
        return y * (in_size - 1) / (width - 1)
    if coordinate_mode == "asymmetric":
        return y / scale
    if coordinate_mode == "tf_crop_and_resize":
        # In float32, in ONNX Runtime's order (onnx's reference also computes
        # in the roi's float32): a float32 roi of 0.3 times 5 is 1.5, a tie of
        # the nearest modes, where float64 gives 1.50000006.
        f = np.float32
        start, end, length = f(roi[0]), f(roi[1]), f(in_size - 1)
        if width == 1:
            return np.full(out_size, f(0.5) * (start + end) * length, np.float64)
        x = start * length + y.astype(f) * (end - start) * length / f(width - 1)
        return x.astype(np.float64)
    if coordinate_mode == "pytorch_half_pixel":
        if width == 1:
            return np.full(out_size, -0.5)
        return (y + 0.5) / scale - 0.5
    if coordinate_mode == "half_pixel":
        return (y + 0.5) / scale - 0.5
    if coordinate_mode == "half_pixel_symmetric":
        adjustment = out_size / (scale * in_size)
        offset = in_size / 2 * (1 - adjustment)
        return offset + (y + 0.5) / scale - 0.5
    raise ValueError(f"unknown coordinate_transformation_mode {coordinate_mode!r}")


def _cubic(x: np.ndarray, a: float) -> np.ndarray:
    """The cubic convolution kernel of parameter `a` at |x|."""
    x = np.abs(x)
    inner = ((a + 2) * x - (a + 3)) * x * x + 1
    outer = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x <= 1, inner, np.where(x < 2, outer, 0.0))


def _coefficients(
    ratio: np.ndarray,
    mode: str,
    nearest_mode: str,
    a: float,
    antialias: bool,
    scale: float,
) -> np.ndarray:
    """(out, n) weights for each position's ratio in (0, 1]."""
    r = ratio[:, None]
    if mode == "nearest":
        whole = ratio == 1.0
        if nearest_mode == "round_prefer_floor":
            upper = ratio > 0.5
        elif nearest_mode == "round_prefer_ceil":
            upper = ratio >= 0.5
        elif nearest_mode == "floor":
            upper = np.zeros_like(whole)
        elif nearest_mode == "ceil":
            upper = np.ones_like(whole)
        else:
            raise ValueError(f"unknown nearest_mode {nearest_mode!r}")
        upper = upper | whole
        return np.stack([~upper, upper], axis=1).astype(np.float64)
    if mode == "linear" and not antialias:
        return np.concatenate([1 - r, r], axis=1)
    if mode == "cubic" and not antialias:
        return _cubic(np.arange(-1, 3)[None, :] - r, a)
    s = min(scale, 1.0)
    if mode == "linear":
        start = math.floor(-1 / s) + 1
        taps = np.arange(start, start + 2 - 2 * start)
        weights = np.clip(1 - np.abs((taps[None, :] - r) * s), 0, 1)
    elif mode == "cubic":
        start = math.floor(-2 / s) + 1
        taps = np.arange(start, 2 - start)
        weights = _cubic(s * (taps[None, :] - r), a)
    else:
        raise ValueError(f"unknown mode {mode!r}")
    return weights / weights.sum(axis=1, keepdims=True)


def resize_taps(
    in_size: int,
    out_size: int,
    scale: float | None,
    roi: tuple[float, float],
    mode: str,
    coordinate_mode: str,
    nearest_mode: str,
    cubic_coeff_a: float,
    exclude_outside: bool,
    antialias: bool,
) -> Taps:
    """One dim's taps: `scale` None means out / in (the sizes were given)."""
    if scale is None:
        scale = out_size / in_size if in_size else 1.0
    x = _source(coordinate_mode, out_size, in_size, scale, roi)
    base = np.floor(x)
    ratio = np.where(x == base, 1.0, x - base)
    coeffs = _coefficients(ratio, mode, nearest_mode, cubic_coeff_a, antialias, scale)
    n = coeffs.shape[1]
    # onnx's reference takes the n positions nearest to x (ties to the smaller)
    # in the input edge-padded by ceil(n / 2).
    pad = -(-n // 2)
    padded = x + pad
    p = np.floor(padded).astype(np.int64)
    frac = padded - p
    if n % 2 == 0:
        shift = np.where(frac == 0, -(n // 2), -(n // 2) + 1)
    else:
        shift = np.where(frac <= 0.5, -((n - 1) // 2), -((n - 1) // 2) + 1)
    index = (p + shift)[:, None] + np.arange(n)[None, :] - pad
    if exclude_outside:
        coeffs = np.where((index < 0) | (index >= in_size), 0.0, coeffs)
        total = coeffs.sum(axis=1, keepdims=True)
        coeffs = coeffs / np.where(total == 0, 1.0, total)
    index = np.clip(index, 0, max(in_size - 1, 0))
    if mode == "nearest":  # one tap: the one weighted 1
        pick = coeffs[:, 1] > 0.5
        index = np.where(pick, index[:, 1], index[:, 0])[:, None]
        coeffs = np.ones((out_size, 1))
    outside = None
    if coordinate_mode == "tf_crop_and_resize":
        outside = (x < 0) | (x > in_size - 1)
    return Taps(index, coeffs, outside)


def is_identity(
    in_size: int,
    out_size: int,
    scale: float | None,
    roi: tuple[float, float],
    coordinate_mode: str,
) -> bool:
    """Whether the dim stays as it is (the reference skips it)."""
    if out_size != in_size or (scale is not None and not math.isclose(scale, 1.0)):
        return False
    if coordinate_mode != "tf_crop_and_resize":
        return True
    return math.isclose(roi[0], 0.0) and math.isclose(roi[1], 1.0)


def dim_taps(
    in_shape: Sequence[int], out_shape: Sequence[int], attrs: ResizeAttributes
) -> list[Taps | None]:
    """Each dim's taps, None for a dim that stays."""
    rank, scales, roi = len(in_shape), attrs.scales, attrs.roi
    coordinate_mode = attrs.coordinate_mode
    result: list[Taps | None] = []
    for d in range(rank):
        scale = None if scales is None else scales[d]
        pair = (0.0, 1.0) if roi is None else (roi[d], roi[rank + d])
        if is_identity(in_shape[d], out_shape[d], scale, pair, coordinate_mode):
            result.append(None)
            continue
        result.append(
            resize_taps(
                in_shape[d],
                out_shape[d],
                scale,
                pair,
                attrs.mode,
                coordinate_mode,
                attrs.nearest_mode,
                attrs.cubic_coeff_a,
                attrs.exclude_outside,
                attrs.antialias,
            )
        )
    return result


def resize(x: np.ndarray, out: np.ndarray, attrs: ResizeAttributes) -> None:
    if out.size == 0:
        return
    taps = dim_taps(x.shape, out.shape, attrs)
    result = x if attrs.mode == "nearest" else x.astype(np.float64)
    outside: np.ndarray | None = None
    for d, tap in enumerate(taps):
        if tap is None:
            continue
        gathered = np.take(result, tap.index, axis=d)  # (..., out, n, ...)
        if tap.index.shape[1] == 1:
            result = gathered.reshape(
                *gathered.shape[: d + 1], *gathered.shape[d + 2 :]
            )
        else:
            shape = (1,) * d + tap.weight.shape + (1,) * (x.ndim - d - 1)
            result = (gathered * tap.weight.reshape(shape)).sum(axis=d + 1)
        if tap.outside is not None and tap.outside.any():
            mask = tap.outside.reshape((1,) * d + (-1,) + (1,) * (x.ndim - d - 1))
            outside = mask if outside is None else outside | mask
    if outside is not None:
        result = np.where(outside, attrs.extrapolation_value, result)
    np.copyto(out, np.broadcast_to(result, out.shape), casting="unsafe")


class CpuResize(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` method of Resize."""

    def resize(self, x: DA, out: DA, attrs: ResizeAttributes) -> None:
        """ONNX Resize of x into out (same rank): `scales` per dim (None: out /
        in), `roi` (begins, then ends) for tf_crop_and_resize; the taps and
        weights of each dim are `resize_taps` (cpu_resize.py)."""
        checks.resize(x, out)
        resize(self.array(x), self.array(out), attrs)
