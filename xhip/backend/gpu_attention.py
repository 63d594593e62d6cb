"""The GPU runtimes' attention pieces: `hip.attention_softmax` and
`hip.rotary_embedding` (kernels in `kernels/attention.h`).

`GpuAttention` is mixed into `gpu.KernelRuntime`. The kernels are templates
with one instantiation per type of `gpu_host.FLOAT_TYPES` (float16, stored
as its 16 bits and computed in float; float32; float64, computed in double),
picked here by dtype; a float mask, the cos and sin caches are of the same
type (a bool mask and int64 lengths or positions beside them). Other element
types go through `Runtime.refuse` in one line.

- `attention_softmax`: one block per row of scores (B * H * S rows of T),
  scale, softcap, the bias (mask read through its broadcast strides, causal,
  window, nonpad) and the softmax in three passes over the row, each
  recomputing the biased scores. float16 rounds every step to float16 as
  the CPU's numpy does (ONNX's default `softmax_precision`), or under `wide`
  computes in float and rounds once; the other types round once. Scores
  that are not contiguous are first made dense with the copy kernel.
- `rotary_embedding`: one thread per output element, every operand read
  through its strides.
"""

from __future__ import annotations

import numpy as np

from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import FLOAT_TYPES, MAX_GRID, GpuHost, block_for
from xhip.backend.gpu_reduce import accumulator_bytes
from xhip.backend.runtime import DA, DeviceArray, OptDA, check_call
from xhip.dialects.hip import (
    AttentionAttributes,
    FusedAttentionAttributes,
    RotaryAttributes,
)

FUSED_TYPES = frozenset({"f16", "f32", "f64"})
"""The element types of `xhip_flash_attention_<type>` (float16 computed in
float and rounded once, as ONNX Runtime's CPU computes a float16 attention)."""
FUSED_BLOCK = 128
"""Keys per tile of the fused attention: one thread each."""


def fused_meta(
    q: DeviceArray, k: DeviceArray, v: DeviceArray, mask: DeviceArray | None,
    out: DeviceArray, q_bias: DeviceArray | None = None,
    k_bias: DeviceArray | None = None, v_bias: DeviceArray | None = None,
) -> np.ndarray:  # fmt: skip
    """`xhip_flash_attention`'s meta: B0, B1, S, T, D, Dv (batch dims padded
    to two from the left), then the (b0, b1, row, col) strides of q, k, v,
    mask, out, q_bias, k_bias, v_bias, 0 on a dim of size 1 (it broadcasts)
    and for an absent operand."""

    def strides(x: DeviceArray | None) -> list[int]:
        if x is None:
            return [0, 0, 0, 0]
        own = [0 if n == 1 else st for n, st in zip(x.shape, x.strides)]
        return [0] * (4 - len(own)) + own

    batch = [1] * (4 - len(out.shape)) + list(out.shape[:-2])
    sizes = [*batch, out.shape[-2], k.shape[-1], q.shape[-1], out.shape[-1]]
    return np.asarray(
        sizes
        + [
            st
            for x in (q, k, v, mask, out, q_bias, k_bias, v_bias)
            for st in strides(x)
        ],
        np.int64,
    )


STAGE_CODES = {"scaled": 0, "softcapped": 1, "biased": 2, "softmax": 3}
"""`stage` as `xhip_attention_softmax_<type>` takes it (hip.ATTENTION_STAGES)."""


def mask_strides(mask: DeviceArray, shape: tuple[int, ...]) -> list[int]:
    """The mask's strides for (b, h, i, j) of scores of `shape`: right-aligned,
    0 on the dims it lacks or broadcasts."""
    lead = len(shape) - len(mask.shape)
    strides = [0] * lead
    for size, stride in zip(mask.shape, mask.strides):
        strides.append(0 if size == 1 else stride)
    return strides


def _overlap(a_at: int, a: DeviceArray, b_at: int, b: DeviceArray) -> bool:
    """Whether the bytes two strided views span meet."""

    def end(at: int, x: DeviceArray) -> int:
        span = sum((n - 1) * abs(st) for n, st in zip(x.shape, x.strides))
        return at + (span + 1) * x.dtype.itemsize

    return a_at < end(b_at, b) and b_at < end(a_at, a)


class GpuAttention(GpuHost):
    """Mixed into `KernelRuntime`: the `Runtime` methods of attention."""

    def attention_softmax(
        self, past: int, scores: DA, mask: OptDA, nonpad: OptDA, out: DA,
        attrs: AttentionAttributes,
    ) -> None:  # fmt: skip
        floats = [scores, out]
        if mask is not None and mask.dtype != np.bool_:
            floats.append(mask)
        suffix = self._suffix(FLOAT_TYPES, *floats)
        kernel = f"xhip_attention_softmax_{suffix}"
        if out.size == 0:
            return
        b, h, s, t = scores.shape
        src = scores if scores.is_contiguous() else self._dense(scores)
        dst = out if out.is_contiguous() else self._dense(out, keep=False)
        if mask is not None:
            strides = mask_strides(mask, scores.shape)
            kind, mask_t = (1 if mask.dtype == np.bool_ else 2), mask.shape[-1]
        else:
            strides, kind, mask_t = [0, 0, 0, 0], 0, t
        meta = np.asarray([b, h, s, t, *strides, mask_t], np.int64)
        params = np.asarray([attrs.scale, attrs.softcap], np.float64)
        if self.debug:
            inputs = [v for v in (src, mask, nonpad) if v is not None]
            check_call(kernel, inputs, dst, inplace_ok=True)
        block = block_for(t)
        args: list[KernelArg] = [
            ("ptr", self._address(src)),
            ("ptr", self._address(dst)),
            ("ptr", 0 if mask is None else self._address(mask)),
            ("i32", kind),
            ("ptr", 0 if nonpad is None else self._address(nonpad)),
            ("ptr", self._device_meta(meta)),
            ("ptr", self._device_meta(params)),
            ("i64", past),
            ("i32", int(attrs.causal)),
            ("i64", attrs.left_window),
            ("i64", attrs.right_window),
            ("i32", STAGE_CODES[attrs.stage]),
            ("i32", int(suffix == "f16" and not attrs.wide)),
        ]
        grid = min(b * h * s, MAX_GRID)
        shared = 2 * accumulator_bytes(suffix) * block
        self.device.launch(kernel, grid, block, shared, args)
        if dst is not out:
            self.copy(dst, out)
            self.free(dst.buffer)
        if src is not scores:
            self.free(src.buffer)

    def fused_attention(
        self, q: DA, k: DA, v: DA, scale: OptDA, mask: OptDA, fill: OptDA,
        out: DA, attrs: FusedAttentionAttributes, q_bias: OptDA = None,
        k_bias: OptDA = None, v_bias: OptDA = None,
    ) -> None:  # fmt: skip
        """`hip.fused_attention`: one block per query row, an online softmax
        over tiles of `FUSED_BLOCK` keys (`kernels/attention.h`), q, k, v read
        with their biases (if any) added. An input overlapping `out` is copied
        first. Two batch dims at most."""
        suffix = self._suffix(FUSED_TYPES, q, k, v, out)
        kernel = f"xhip_flash_attention_{suffix}"
        if out.size == 0:
            return
        if len(out.shape) > 4:
            self.refuse(f"{len(out.shape)}-D attention (two batch dims at most)")
        kept: list[DeviceArray] = []

        def apart(x: DeviceArray) -> DeviceArray:
            if not _overlap(self._address(x), x, self._address(out), out):
                return x
            kept.append(self._dense(x))
            return kept[-1]

        qa, ka, va = (apart(x) for x in (q, k, v))
        m = None if mask is None else apart(mask)
        qb, kb, vb = (None if x is None else apart(x) for x in (q_bias, k_bias, v_bias))
        meta = fused_meta(qa, ka, va, m, out, qb, kb, vb)
        optional = (m, scale, fill, qb, kb, vb)
        if self.debug:
            inputs = [x for x in (qa, ka, va, *optional) if x is not None]
            check_call(kernel, inputs, out, inplace_ok=False)
        args: list[KernelArg] = [
            *(("ptr", self._address(x)) for x in (qa, ka, va)),
            *(("ptr", 0 if x is None else self._address(x)) for x in optional),
            ("ptr", self._address(out)),
            ("ptr", self._device_meta(meta)),
            ("i32", 0 if scale is None else 2 if attrs.divide else 1),
        ]
        rows = int(meta[0] * meta[1] * meta[2])
        shared = accumulator_bytes(suffix) * (3 * FUSED_BLOCK + int(meta[5]))
        self.device.launch(kernel, min(rows, MAX_GRID), FUSED_BLOCK, shared, args)
        for copy in kept:
            self.free(copy.buffer)

    def rotary_embedding(
        self, x: DA, cos: DA, sin: DA, position_ids: OptDA, out: DA,
        attrs: RotaryAttributes,
    ) -> None:  # fmt: skip
        suffix = self._suffix(FLOAT_TYPES, x, cos, sin, out)
        kernel = f"xhip_rotary_embedding_{suffix}"
        n = out.size
        if n == 0:
            return
        if len(x.shape) == 4:
            b, heads, s, d = x.shape
            order = (0, 2, 1, 3)
            xs = [x.strides[i] for i in order]
            ys = [out.strides[i] for i in order]
        else:
            b, s, hidden = x.shape
            heads = attrs.num_heads
            d = hidden // heads
            xs = [x.strides[0], x.strides[1], d * x.strides[2], x.strides[2]]
            ys = [out.strides[0], out.strides[1], d * out.strides[2], out.strides[2]]
        caches: list[int] = []
        for cache in (cos, sin):
            if position_ids is not None:  # (P, R / 2)
                caches += [cache.strides[0], 0, cache.strides[1]]
            else:  # (B, S, R / 2), B and S maybe broadcast
                caches += [
                    0 if cache.shape[i] == 1 else cache.strides[i] for i in (0, 1)
                ]
                caches.append(cache.strides[2])
        positions = [0, 0] if position_ids is None else list(position_ids.strides)
        meta = np.asarray([b, s, heads, d, *xs, *ys, *caches, *positions], np.int64)
        if self.debug:
            inputs = [v for v in (x, cos, sin, position_ids) if v is not None]
            check_call(kernel, inputs, out, inplace_ok=False)
        args: list[KernelArg] = [
            ("ptr", self._address(x)),
            ("ptr", self._address(cos)),
            ("ptr", self._address(sin)),
            ("ptr", 0 if position_ids is None else self._address(position_ids)),
            ("ptr", self._address(out)),
            ("ptr", self._device_meta(meta)),
            ("i64", n),
            ("i64", attrs.rotary_dim),
            ("i32", int(attrs.interleaved)),
        ]
        self._launch_1d(kernel, n, args)
