"""The numpy runtime: the default, and the reference the GPU runtimes are held to.

Every op writes straight into its destination view (`out=`), BLAS runs on the
strided views as they are, and the memory-bound ops (softmax, elementwise) are
split over a small thread pool: numpy releases the GIL inside its loops.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from xhip.backend.cpu_attention import CpuAttention
from xhip.backend.cpu_conv import CpuConvolutions
from xhip.backend.cpu_gather import CpuGathers
from xhip.backend.cpu_host import PARALLEL_MIN_ELEMENTS
from xhip.backend.cpu_image import CpuImage
from xhip.backend.cpu_movement import CpuMovement
from xhip.backend.cpu_reduce import CpuReductions
from xhip.backend.cpu_resize import CpuResize
from xhip.backend.cpu_scatter import CpuScatters
from xhip.backend.cpu_topk import CpuTopK
from xhip.backend.cpu_window import CpuWindows
from xhip.backend.elementwise import numpy_function
from xhip.backend.runtime import DA, OptDA
from xhip.dialects import hip
from xhip.dialects.hip import (
    AxisAttributes,
    ElementwiseAttributes,
    GemmAttributes,
    PermuteAttributes,
)

_ELEMENTWISE = {op.kind(): op for op in hip.ELEMENTWISE_OPS}


SOFTMAX_BLOCK_BYTES = 1 << 19
"""Rows per softmax block: the block stays in L2 across its passes."""
SUM_MIN, SUM_MAX = 1e-30, 1e30
"""Row sums of unshifted exp that need no max shift (see `_softmax_block`)."""


def _reshape(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """`x` with a new shape as a view, or None if that needs a copy."""
    try:
        return np.reshape(x, shape, copy=False)
    except ValueError:
        return None


def _copyto(src: np.ndarray, out: np.ndarray) -> None:
    np.copyto(out, src)


def _cast(src: np.ndarray, out: np.ndarray) -> None:
    """numpy's unsafe casting is C's: truncation toward zero; a NaN or an
    out-of-range value gives what the hardware gives, as in ONNX."""
    with np.errstate(invalid="ignore", over="ignore"):
        np.copyto(out, src, casting="unsafe")


def _same_view(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether `a` and `b` are the same elements in the same order."""
    return (
        a.ctypes.data == b.ctypes.data and a.shape == b.shape and a.strides == b.strides
    )


def _softmax_shifted(x: np.ndarray, out: np.ndarray) -> None:
    """Softmax over the last axis, shifted by the row max; `out` may be `x`."""
    peak = np.max(x, axis=-1, keepdims=True)
    np.subtract(x, peak, out=out)
    np.exp(out, out=out)
    total = np.sum(out, axis=-1, keepdims=True)
    np.reciprocal(total, out=total)
    np.multiply(out, total, out=out)


def _softmax_block(x: np.ndarray, out: np.ndarray, ones: np.ndarray) -> None:
    """Softmax of the rows of a 2-D block, `out` distinct from `x`.

    The max shift only guards exp against overflow and underflow, and costs two
    of the five passes. So exp runs unshifted and a row sum outside
    [SUM_MIN, SUM_MAX] (or NaN) sends the block down the shifted path. Inside
    that range no exp overflowed, and an entry that underflowed weighs under
    1e-8 of its row. The row sums are a BLAS gemv.
    """
    with np.errstate(over="ignore", under="ignore"):
        np.exp(x, out=out)
    total = np.matmul(out, ones)
    if not (SUM_MIN < total.min() and total.max() < SUM_MAX):
        _softmax_shifted(x, out)
        return
    # A division, not a reciprocal's product: unshifted, a one-entry row is
    # e / e, exactly 1, as in the shifted form ORT uses.
    np.divide(out, total[:, None], out=out)


class CpuRuntime(
    CpuAttention,
    CpuConvolutions,
    CpuWindows,
    CpuResize,
    CpuReductions,
    CpuGathers,
    CpuTopK,
    CpuMovement,
    CpuScatters,
    CpuImage,
):
    """numpy on the host; `threads` workers for the memory-bound ops. Each
    family of ops is a part (`cpu_*.py`), all standing on `CpuHost`
    (cpu_host.py)."""

    def matmul(self, a: DA, b: DA, out: DA) -> None:
        """numpy `matmul`, batched, with broadcasting of the batch dims."""
        x, w, o = self.array(a), self.array(b), self.array(out)
        if w.ndim == 2 and x.ndim > 2:
            # One big GEMM instead of one per batch entry, when no copy is needed.
            x2 = _reshape(x, (-1, x.shape[-1]))
            o2 = _reshape(o, (-1, o.shape[-1]))
            if x2 is not None and o2 is not None:
                x, o = x2, o2
        self._matmul(x, w, o)

    def gemm(self, a: DA, b: DA, c: OptDA, out: DA, attrs: GemmAttributes) -> None:
        """ONNX Gemm: alpha * op(A) @ op(B) + beta * C (C broadcast to (M, N))."""
        alpha, beta = attrs.alpha, attrs.beta
        x, w, o = self.array(a), self.array(b), self.array(out)
        bias = None if c is None or beta == 0.0 else self.array(c)
        if bias is not None and np.may_share_memory(bias, o):
            bias = bias.copy()
        self._matmul(x.T if attrs.trans_a else x, w.T if attrs.trans_b else w, o)
        if alpha != 1.0:
            np.multiply(o, np.float32(alpha).astype(o.dtype), out=o)
        if bias is not None:
            if beta != 1.0:
                bias = bias * np.asarray(beta, dtype=o.dtype)
            np.add(o, bias, out=o)

    def permute(self, src: DA, out: DA, attrs: PermuteAttributes) -> None:
        """out[i0, i1, ...] = src transposed by `perm` (out dim i is src dim perm[i])."""
        moved = self.array(src).transpose(attrs.perm)
        self._elementwise(_copyto, self.array(out), moved)

    def _formula(self, attrs: ElementwiseAttributes) -> Callable[..., Any]:
        op = _ELEMENTWISE[attrs.kind]
        fn = numpy_function(op.FORMULA, op.arity())
        return partial(fn, params=attrs.params) if attrs.params else fn

    def binary(self, a: DA, b: DA, out: DA, attrs: ElementwiseAttributes) -> None:
        """The binary elementwise hip op of this `kind` (its `FORMULA`), with
        numpy broadcasting; `params` are the values of the formula's `Param`s."""
        fn = self._formula(attrs)
        self._elementwise(fn, self.array(out), self.array(a), self.array(b))

    def unary(self, src: DA, out: DA, attrs: ElementwiseAttributes) -> None:
        """The unary elementwise hip op of this `kind` (its `FORMULA`),
        between same-shaped views."""
        self._elementwise(self._formula(attrs), self.array(out), self.array(src))

    def ternary(
        self, a: DA, b: DA, c: DA, out: DA, attrs: ElementwiseAttributes
    ) -> None:
        """The ternary elementwise hip op of this `kind` (`where`), the three
        broadcast as numpy does."""
        inputs = (self.array(a), self.array(b), self.array(c))
        self._elementwise(self._formula(attrs), self.array(out), *inputs)

    def from_elements(self, values: Sequence[int], out: DA) -> None:
        """The host ints `values` written into `out` (int or bool, at most 1-D,
        `len(values)` elements)."""
        target = self.array(out)
        target[...] = (
            np.array(values, dtype=np.int64).astype(target.dtype).reshape(target.shape)
        )

    def range(self, start: DA, delta: DA, out: DA) -> None:
        """ONNX Range: `out[i] = start + i * delta` in `out`'s type; `start` and
        `delta` are 0-D."""
        target = self.array(out)
        s, d = self.array(start).reshape(()), self.array(delta).reshape(())
        steps = np.arange(target.shape[0], dtype=target.dtype)
        np.add(s, steps * d, out=target, casting="unsafe")

    def copy(self, src: DA, out: DA) -> None:
        self._elementwise(_copyto, self.array(out), self.array(src))

    def cast(self, src: DA, out: DA) -> None:
        """Copy converting to `out`'s element type, as ONNX Cast (C's casts:
        float to integer truncates toward zero)."""
        self._elementwise(_cast, self.array(out), self.array(src))

    def softmax(self, src: DA, scale: OptDA, out: DA, attrs: AxisAttributes) -> None:
        """Softmax of `src` (times the scalar `scale`, if given) along `axis`.

        The scaled form (`hip-fuse-scaled-softmax`) runs `mul` + `softmax` in
        one sweep: each block is scaled into a scratch buffer that stays in
        cache, so the scores cross memory once less, with the same float32
        arithmetic as the two ops.
        """
        x, o = self.array(src), self.array(out)
        factor = None if scale is None else self.array(scale).reshape(())
        if x.size == 0:
            return
        if x.ndim == 0:
            o[...] = 1.0
            return
        axis = attrs.axis % x.ndim
        if x.dtype == np.float16:
            # In float32, rounded once, as ONNX Runtime and the GPU kernels do
            # (the scale's product keeps the Mul's own float16 rounding).
            scaled = x if factor is None else np.multiply(x, factor)
            wide = np.moveaxis(scaled.astype(np.float32), axis, -1)
            _softmax_shifted(wide, wide)
            np.copyto(o, np.moveaxis(wide, -1, axis))
            return
        if axis != x.ndim - 1:
            x, o = np.moveaxis(x, axis, -1), np.moveaxis(o, axis, -1)
        n = x.shape[-1]
        rows = math.prod(x.shape[:-1])
        x2 = _reshape(x, (rows, n))
        o2 = _reshape(o, (rows, n))
        same = x2 is not None and o2 is not None and _same_view(x2, o2)
        if x2 is None or o2 is None or (np.may_share_memory(x, o) and not same):
            if factor is not None:
                x = np.multiply(x, factor)
            _softmax_shifted(x, o)
            return
        if same and factor is None:
            _softmax_shifted(x, o)
            return
        src_rows, out_rows = x2, o2
        ones = np.ones(n, dtype=o.dtype)
        block = max(1, SOFTMAX_BLOCK_BYTES // (n * x.itemsize))
        threads = self.threads if rows * n >= PARALLEL_MIN_ELEMENTS else 1
        cuts = [rows * i // threads for i in range(threads + 1)]

        def task(lo: int, hi: int) -> Callable[[], None]:
            def run() -> None:
                scaling = (
                    None if factor is None else (factor, np.empty((block, n), x.dtype))
                )
                for start in range(lo, hi, block):
                    stop = min(start + block, hi)
                    rows_in = src_rows[start:stop]
                    if scaling is not None:
                        by, scratch = scaling
                        rows_in = np.multiply(rows_in, by, out=scratch[: stop - start])
                    _softmax_block(rows_in, out_rows[start:stop], ones)

            return run

        self._parallel([task(lo, hi) for lo, hi in zip(cuts, cuts[1:]) if hi > lo])
