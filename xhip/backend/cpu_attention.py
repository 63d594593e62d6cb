"""The CPU runtime's attention pieces: `hip.attention_softmax` and
`hip.rotary_embedding` (the matmuls around them are `matmul`).

`CpuAttention` is mixed into `CpuRuntime` (cpu.py). Whole-array numpy, no
Python loop per row. The attention softmax computes in its element type, as
ONNX's `softmax_precision` says by default, float16 in float32 when `wide`;
the rotary embedding computes float16 in float32 and rounds once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA, OptDA
from xhip.dialects.hip import AttentionAttributes, RotaryAttributes


def _work(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def attention_bias(
    shape: tuple[int, ...],
    dtype: np.dtype[Any],
    past: int,
    mask: np.ndarray | None,
    nonpad: np.ndarray | None,
    causal: bool,
    left_window: int,
    right_window: int,
) -> np.ndarray | None:
    """The additive bias of scores of `shape` (B, H, S, T), broadcastable to
    it; None where there is none."""
    _, _, s, t = shape
    bias: np.ndarray | None = None
    if mask is not None:
        given: np.ndarray = (
            np.where(mask, dtype.type(0), dtype.type(-np.inf))
            if mask.dtype == np.bool_
            else mask.astype(dtype)
        )
        pad = t - given.shape[-1]
        if pad > 0:
            widths = [(0, 0)] * (given.ndim - 1) + [(0, pad)]
            given = np.pad(given, widths, constant_values=-np.inf)
        bias = given
    windowed = left_window >= 0 or right_window >= 0
    if not (causal or windowed or nonpad is not None):
        return bias
    i = np.arange(s).reshape(s, 1)
    j = np.arange(t).reshape(1, t)
    lengths: Any = t
    offset: Any = past
    if nonpad is not None:
        lengths = nonpad.astype(np.int64).reshape(-1, 1, 1, 1)
        offset = lengths - s
    diff = i + offset - j  # query position minus key position
    allowed = np.ones(np.shape(diff), np.bool_)
    if causal:
        allowed &= diff >= 0
    if left_window >= 0:
        allowed &= diff <= left_window
    if right_window >= 0:
        allowed &= -diff <= right_window
    if nonpad is not None:
        allowed &= j < lengths
    frontier = np.where(allowed, dtype.type(0), dtype.type(-np.inf))
    return frontier if bias is None else bias + frontier


def _split_heads(a: np.ndarray, heads: int) -> np.ndarray:
    """(B, S, H * D) as a (B, S, H, D) view, whatever its strides."""
    b, n, hidden = a.shape
    s0, s1, s2 = a.strides
    size = hidden // heads
    return np.lib.stride_tricks.as_strided(
        a, (b, n, heads, size), (s0, s1, size * s2, s2)
    )


class CpuAttention(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` methods of attention."""

    def attention_softmax(
        self, past: int, scores: DA, mask: OptDA, nonpad: OptDA, out: DA,
        attrs: AttentionAttributes,
    ) -> None:  # fmt: skip
        """`hip.attention_softmax` of scores (B, H, S, T) into `out` (may be
        `scores` itself): `scale`, softcap, the bias (mask broadcast to (B, H,
        S, T'), keys from T' on masked; causal and window about i + offset,
        offset `past` or nonpad[b] - S; keys from nonpad[b] on masked), softmax
        over T with rows of all -inf bias zero; `stage` (`hip.ATTENTION_STAGES`)
        stops after that step. In `scores`' type; float16 in float32 if `wide`."""
        src, dst = self.array(scores), self.array(out)
        stage, softcap = attrs.stage, attrs.softcap
        work = _work(src.dtype) if attrs.wide else src.dtype
        with np.errstate(invalid="ignore", over="ignore"):
            x = src.astype(work) * work.type(attrs.scale)
            if softcap > 0 and stage != "scaled":
                cap = work.type(softcap)
                x = np.tanh(x / cap) * cap
            if stage in ("scaled", "softcapped"):
                dst[...] = x
                return
            bias = attention_bias(
                src.shape,
                work,
                past,
                None if mask is None else self.array(mask),
                None if nonpad is None else self.array(nonpad),
                attrs.causal,
                attrs.left_window,
                attrs.right_window,
            )
            if bias is not None:
                x = x + bias
            if stage == "biased":
                dst[...] = x
                return
            peak = np.max(x, axis=-1, keepdims=True)
            peak = np.where(np.isneginf(peak), work.type(0), peak)
            e = np.exp(x - peak)
            total = np.sum(e, axis=-1, keepdims=True)
            total = np.where(total == 0, work.type(1), total)
            p = e / total
            if bias is not None:
                dead = np.isneginf(np.max(bias, axis=-1, keepdims=True))
                p = np.where(dead, work.type(0), p)
            dst[...] = p

    def rotary_embedding(
        self, x: DA, cos: DA, sin: DA, position_ids: OptDA, out: DA,
        attrs: RotaryAttributes,
    ) -> None:  # fmt: skip
        """ONNX RotaryEmbedding: x (B, H, S, D), or (B, S, H * D) with
        `num_heads`; cos/sin (B, S, R / 2), or (P, R / 2) rows picked by the
        int64 position_ids (B, S); R = `rotary_dim`."""
        src, dst = self.array(x), self.array(out)
        c, s = self.array(cos), self.array(sin)
        if position_ids is not None:
            ids = self.array(position_ids)
            c, s = c[ids], s[ids]
        # Everything as (B, S, H, D) views.
        if src.ndim == 4:
            src4, dst4 = src.transpose(0, 2, 1, 3), dst.transpose(0, 2, 1, 3)
        else:
            heads = attrs.num_heads
            src4, dst4 = _split_heads(src, heads), _split_heads(dst, heads)
        work = _work(src.dtype)
        c = c.astype(work)[:, :, None, :]
        s = s.astype(work)[:, :, None, :]
        rotary_dim, interleaved = attrs.rotary_dim, attrs.interleaved
        part = src4[..., :rotary_dim].astype(work)
        if interleaved:
            x1, x2 = part[..., 0::2], part[..., 1::2]
        else:
            x1, x2 = part[..., : rotary_dim // 2], part[..., rotary_dim // 2 :]
        real = c * x1 - s * x2
        imag = s * x1 + c * x2
        if interleaved:
            rotated = np.stack((real, imag), axis=-1).reshape(part.shape)
        else:
            rotated = np.concatenate((real, imag), axis=-1)
        if dst4.shape[-1] > rotary_dim:
            dst4[..., rotary_dim:] = src4[..., rotary_dim:]
        dst4[..., :rotary_dim] = rotated
