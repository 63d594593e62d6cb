"""The numpy runtime: the default, and the reference the GPU runtimes are held to.

Every op writes straight into its destination view (`out=`), BLAS runs on the
strided views as they are, and the memory-bound ops (softmax, elementwise) are
split over a small thread pool: numpy releases the GIL inside its loops.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from xhip.backend.cpu_attention import CpuAttention
from xhip.backend.cpu_conv import CpuConvolutions
from xhip.backend.cpu_formula import bind_formula, quietly
from xhip.backend.cpu_fused import NUMBA_MIN_ELEMENTS, CpuFused
from xhip.backend.cpu_gather import CpuGathers
from xhip.backend.cpu_gqa import CpuGqa
from xhip.backend.cpu_host import PARALLEL_MIN_ELEMENTS, nothing, run_all
from xhip.backend.cpu_image import CpuImage
from xhip.backend.cpu_linalg import CpuLinalg
from xhip.backend.cpu_linear_attention import CpuLinearAttention
from xhip.backend.cpu_movement import CpuMovement
from xhip.backend.cpu_nbits import CpuNBits
from xhip.backend.cpu_quantize import CpuQuantize
from xhip.backend.cpu_reduce import CpuReductions
from xhip.backend.cpu_resize import CpuResize
from xhip.backend.cpu_sampling import CpuSampling
from xhip.backend.cpu_scatter import CpuScatters
from xhip.backend.cpu_select import CpuSelect
from xhip.backend.cpu_topk import CpuTopK
from xhip.backend.cpu_window import CpuWindows
from xhip.backend.runtime import DA, OptDA, concat_slot
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
SOFTMAX_NUMBA_MAX = 1 << 22
"""float32 softmaxes from `NUMBA_MIN_ELEMENTS` up to this size run as numba's
row kernel; above it numpy's blocks (AVX-512 exp, 16 lanes against the
loop's 8) measured as fast or faster (docs/benchmarks.md)."""


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


def _range(s: np.ndarray, steps: np.ndarray, d: np.ndarray, out: np.ndarray) -> None:
    np.add(s, steps * d, out=out, casting="unsafe")


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


def _softmax_scaled(x: np.ndarray, factor: np.ndarray, out: np.ndarray) -> None:
    """`_softmax_shifted` of `x * factor`, which may overlap `out`."""
    _softmax_shifted(np.multiply(x, factor), out)


def _softmax_half(
    x: np.ndarray, factor: np.ndarray | None, out: np.ndarray, axis: int
) -> None:
    """Softmax of float16 `x` (times `factor`) along `axis`: in float32,
    rounded once, as ONNX Runtime and the GPU kernels do (the scale's product
    keeps the Mul's own float16 rounding)."""
    scaled = x if factor is None else np.multiply(x, factor)
    wide = np.moveaxis(scaled.astype(np.float32), axis, -1)
    _softmax_shifted(wide, wide)
    np.copyto(out, np.moveaxis(wide, -1, axis))


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
    if not (SUM_MIN < np.minimum.reduce(total) and np.maximum.reduce(total) < SUM_MAX):
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
    CpuQuantize,
    CpuNBits,
    CpuFused,
    CpuSelect,
    CpuSampling,
    CpuGqa,
    CpuLinalg,
    CpuLinearAttention,
):
    """numpy on the host; `threads` workers for the memory-bound ops. Each
    family of ops is a part (`cpu_*.py`), all standing on `CpuHost`
    (cpu_host.py)."""

    # Each `bind_<op>` does an op's per-operand work once and returns the
    # call (`Runtime.bind_call`, for bound plans); the op itself is that call.

    def matmul(self, a: DA, b: DA, out: DA) -> None:
        """numpy `matmul`, batched, with broadcasting of the batch dims."""
        self.bind_matmul(a, b, out)()

    def bind_matmul(self, a: DA, b: DA, out: DA) -> Callable[[], object]:
        x, w, o = self.array(a), self.array(b), self.array(out)
        if w.ndim == 2 and x.ndim > 2:
            # One big GEMM instead of one per batch entry, when no copy is needed.
            x2 = _reshape(x, (-1, x.shape[-1]))
            o2 = _reshape(o, (-1, o.shape[-1]))
            if x2 is not None and o2 is not None:
                x, o = x2, o2
        return self._bind_matmul(x, w, o)

    def gemm(self, a: DA, b: DA, c: OptDA, out: DA, attrs: GemmAttributes) -> None:
        """ONNX Gemm: alpha * op(A) @ op(B) + beta * C (C broadcast to (M, N))."""
        self.bind_gemm(a, b, c, out, attrs)()

    def bind_gemm(
        self, a: DA, b: DA, c: OptDA, out: DA, attrs: GemmAttributes
    ) -> Callable[[], object]:
        alpha, beta = attrs.alpha, attrs.beta
        x, w, o = self.array(a), self.array(b), self.array(out)
        bias = None if c is None or beta == 0.0 else self.array(c)
        calls: list[Callable[[], object]] = []
        if bias is not None and np.may_share_memory(bias, o):
            kept = np.empty(bias.shape, bias.dtype)  # before the product is written
            calls.append(partial(np.copyto, kept, bias))
            bias = kept
        left, right = x.T if attrs.trans_a else x, w.T if attrs.trans_b else w
        if not calls and bias is not None and alpha == beta == 1.0:
            fused = self._bind_matmul_bias(left, right, o, bias)
            if fused is not None:  # a Linear layer: one pass, the bias fused
                return fused
        calls.append(self._bind_matmul(left, right, o))
        if alpha != 1.0:
            factor = np.float32(alpha).astype(o.dtype)
            calls.append(partial(np.multiply, o, factor, out=o))
        if bias is not None:
            if beta != 1.0:
                weight = np.asarray(beta, dtype=o.dtype)
                scaled = np.empty(bias.shape, np.result_type(bias, weight))
                calls.append(partial(np.multiply, bias, weight, out=scaled))
                bias = scaled
            calls.append(partial(np.add, o, bias, out=o))
        return calls[0] if len(calls) == 1 else partial(run_all, calls)

    def concat(self, inputs: Sequence[DA], out: DA, attrs: AxisAttributes) -> None:
        """ONNX Concat along `axis` (in `[0, rank)`): each input copied into its
        slice of `out`."""
        self.bind_concat(inputs, out, attrs)()

    def bind_concat(
        self, inputs: Sequence[DA], out: DA, attrs: AxisAttributes
    ) -> Callable[[], object]:
        o, lead = self.array(out), (slice(None),) * attrs.axis
        calls: list[Callable[[], object]] = []
        start = 0
        for src in inputs:
            if self.debug:  # as `Runtime.concat` checks its subviews
                concat_slot(src, out, start, attrs.axis, debug=True)
            stop = start + src.shape[attrs.axis]
            part = o[(*lead, slice(start, stop))]
            calls.append(self._bind_elementwise(_copyto, part, self.array(src)))
            start = stop
        return partial(run_all, calls)

    def permute(self, src: DA, out: DA, attrs: PermuteAttributes) -> None:
        """out[i0, i1, ...] = src transposed by `perm` (out dim i is src dim perm[i])."""
        self.bind_permute(src, out, attrs)()

    def bind_permute(
        self, src: DA, out: DA, attrs: PermuteAttributes
    ) -> Callable[[], object]:
        moved = self.array(src).transpose(attrs.perm)
        return self._bind_elementwise(_copyto, self.array(out), moved)

    def bind_transpose(
        self, src: DA, out: DA, dim0: int, dim1: int
    ) -> Callable[[], object]:
        perm = list(range(len(src.shape)))
        perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
        return self.bind_permute(src, out, PermuteAttributes(tuple(perm)))

    def _bind_formula(
        self, attrs: ElementwiseAttributes, out: DA, *inputs: DA
    ) -> Callable[[], object]:
        """The op's `FORMULA` bound to its operands (cpu_formula.py), per piece."""
        op = _ELEMENTWISE[attrs.kind]

        def bind(o: np.ndarray, *xs: np.ndarray) -> Callable[[], object]:
            return quietly(bind_formula(op.FORMULA, op.arity(), xs, o, attrs.params))

        arrays = [self.array(x) for x in inputs]
        loop = self._bind_numba_op(attrs.kind, attrs.params, arrays, self.array(out))
        return loop or self._bind_pieces(bind, self.array(out), *arrays)

    def binary(self, a: DA, b: DA, out: DA, attrs: ElementwiseAttributes) -> None:
        """The binary elementwise hip op of this `kind` (its `FORMULA`), with
        numpy broadcasting; `params` are the values of the formula's `Param`s."""
        self.bind_binary(a, b, out, attrs)()

    def bind_binary(
        self, a: DA, b: DA, out: DA, attrs: ElementwiseAttributes
    ) -> Callable[[], object]:
        return self._bind_formula(attrs, out, a, b)

    def unary(self, src: DA, out: DA, attrs: ElementwiseAttributes) -> None:
        """The unary elementwise hip op of this `kind` (its `FORMULA`),
        between same-shaped views."""
        self.bind_unary(src, out, attrs)()

    def bind_unary(
        self, src: DA, out: DA, attrs: ElementwiseAttributes
    ) -> Callable[[], object]:
        return self._bind_formula(attrs, out, src)

    def ternary(
        self, a: DA, b: DA, c: DA, out: DA, attrs: ElementwiseAttributes
    ) -> None:
        """The ternary elementwise hip op of this `kind` (`where`), the three
        broadcast as numpy does."""
        self.bind_ternary(a, b, c, out, attrs)()

    def bind_ternary(
        self, a: DA, b: DA, c: DA, out: DA, attrs: ElementwiseAttributes
    ) -> Callable[[], object]:
        return self._bind_formula(attrs, out, a, b, c)

    def from_elements(self, values: Sequence[int], out: DA) -> None:
        """The host ints `values` written into `out` (int or bool, at most 1-D,
        `len(values)` elements)."""
        self.bind_from_elements(values, out)()

    def bind_from_elements(
        self, values: Sequence[int], out: DA
    ) -> Callable[[], object]:
        target = self.array(out)
        held = np.array(values, dtype=np.int64).astype(target.dtype)
        return partial(np.copyto, target, held.reshape(target.shape))

    def range(self, start: DA, delta: DA, out: DA) -> None:
        """ONNX Range: `out[i] = start + i * delta` in `out`'s type; `start` and
        `delta` are 0-D."""
        self.bind_range(start, delta, out)()

    def bind_range(self, start: DA, delta: DA, out: DA) -> Callable[[], object]:
        target = self.array(out)
        s, d = self.array(start).reshape(()), self.array(delta).reshape(())
        steps = np.arange(target.shape[0], dtype=target.dtype)
        return partial(_range, s, steps, d, target)

    def copy(self, src: DA, out: DA) -> None:
        self.bind_copy(src, out)()

    def bind_copy(self, src: DA, out: DA) -> Callable[[], object]:
        return self._bind_elementwise(_copyto, self.array(out), self.array(src))

    def cast(self, src: DA, out: DA) -> None:
        """Copy converting to `out`'s element type, as ONNX Cast (C's casts:
        float to integer truncates toward zero)."""
        self.bind_cast(src, out)()

    def bind_cast(self, src: DA, out: DA) -> Callable[[], object]:
        return self._bind_elementwise(_cast, self.array(out), self.array(src))

    def softmax(self, src: DA, scale: OptDA, out: DA, attrs: AxisAttributes) -> None:
        """Softmax of `src` (times the scalar `scale`, if given) along `axis`.

        The scaled form (`hip-fuse-scaled-softmax`) runs `mul` + `softmax` in
        one sweep: each block is scaled into a scratch buffer that stays in
        cache, so the scores cross memory once less, with the same float32
        arithmetic as the two ops.
        """
        self.bind_softmax(src, scale, out, attrs)()

    def bind_softmax(
        self, src: DA, scale: OptDA, out: DA, attrs: AxisAttributes
    ) -> Callable[[], object]:
        x, o = self.array(src), self.array(out)
        factor = None if scale is None else self.array(scale).reshape(())
        if x.size == 0:
            return nothing
        if x.ndim == 0:
            return partial(np.copyto, o, 1.0)
        axis = attrs.axis % x.ndim
        if x.dtype == np.float16:
            return partial(_softmax_half, x, factor, o, axis)
        if axis != x.ndim - 1:
            x, o = np.moveaxis(x, axis, -1), np.moveaxis(o, axis, -1)
        n = x.shape[-1]
        rows = math.prod(x.shape[:-1])
        x2 = _reshape(x, (rows, n))
        o2 = _reshape(o, (rows, n))
        same = x2 is not None and o2 is not None and _same_view(x2, o2)
        if x2 is None or o2 is None or (np.may_share_memory(x, o) and not same):
            if factor is not None:
                return partial(_softmax_scaled, x, factor, o)
            return partial(_softmax_shifted, x, o)
        narrow = factor is None or factor.dtype == np.float32
        sized = NUMBA_MIN_ELEMENTS <= rows * n < SOFTMAX_NUMBA_MAX
        if x.dtype == np.float32 and narrow and sized:
            from xhip.backend import cpu_kernels_rows as k  # lazy: numba, large only

            one = np.ones(1, np.float32) if factor is None else factor.reshape(1)
            loops = k.split_rows(k.softmax_rows, rows, self.threads, x2, one, o2)
            return partial(self._parallel, loops)
        if same and factor is None:
            return partial(_softmax_shifted, x, o)
        src_rows, out_rows = x2, o2
        ones = np.ones(n, dtype=o.dtype)
        block = max(1, SOFTMAX_BLOCK_BYTES // (n * x.itemsize))
        threads = self.threads if rows * n >= PARALLEL_MIN_ELEMENTS else 1
        cuts = [rows * i // threads for i in range(threads + 1)]

        def task(lo: int, hi: int) -> Callable[[], None]:
            # Each task's blocks, and its scratch for the scaled rows.
            scratch = None if factor is None else np.empty((block, n), x.dtype)
            blocks = [
                (
                    src_rows[start : min(start + block, hi)],
                    out_rows[start : min(start + block, hi)],
                    None if scratch is None else scratch[: min(block, hi - start)],
                )
                for start in range(lo, hi, block)
            ]

            def run() -> None:
                for rows_in, rows_out, scaled in blocks:
                    if scaled is not None and factor is not None:
                        rows_in = np.multiply(rows_in, factor, out=scaled)
                    _softmax_block(rows_in, rows_out, ones)

            return run

        tasks = [task(lo, hi) for lo, hi in zip(cuts, cuts[1:]) if hi > lo]
        return tasks[0] if len(tasks) == 1 else partial(self._parallel, tasks)
