"""The CPU runtime's reductions, normalizations, log-softmax, hardmax and fill.

`CpuReductions` is mixed into `CpuRuntime` (cpu.py). Every op is a few
whole-array numpy calls writing into its destination view: no Python loop
per row. float16 computes in float32 (as ONNX's `stash_type` 1 says for the
normalizations, and as the GPU libraries accumulate), then rounds once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from xhip.backend.cpu_host import CpuHost, nothing, run_all
from xhip.backend.runtime import DA, OptDA
from xhip.dialects.hip import (
    ArgReduceAttributes,
    AxisAttributes,
    FillAttributes,
    NormAttributes,
    ReduceAttributes,
)

NUMBA_MIN_ELEMENTS = 1 << 9
"""From this size on a float32 layer or RMS norm runs as numba's row kernel
(`cpu_kernels_rows.norm_rows`), below `cpu_fused.NUMBA_MIN_ELEMENTS`: one
kernel, compiled once into numba's disk cache, so it costs only numba's
import, and it beats numpy's dozen passes from here on (128 x 256: 24 us
against 52, 16 x 256: 2.6 against 11, 16 x 32: 1.0 against 7.7 on one
thread: the five norms of the GPT-2 fixture at 1 x 16 were a third of its
call)."""


def _work_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """What a reduction computes in: float32 for float16, else the type itself."""
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def _lowest(dtype: np.dtype[Any]) -> Any:
    if dtype.kind == "f":
        return -np.inf
    if dtype.kind == "b":
        return False
    return np.iinfo(dtype).min


def _highest(dtype: np.dtype[Any]) -> Any:
    if dtype.kind == "f":
        return np.inf
    if dtype.kind == "b":
        return True
    return np.iinfo(dtype).max


def _view(x: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray | None:
    """`x` with a new shape as a view, or None if that needs a copy."""
    if x is None:
        return None
    try:
        return np.reshape(x, shape, copy=False)
    except ValueError:
        return None


def _same_view(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether `a` and `b` are the same elements in the same order."""
    return (
        a.ctypes.data == b.ctypes.data and a.shape == b.shape and a.strides == b.strides
    )


def _quietly(calls: Sequence[Callable[[], object]]) -> None:
    with np.errstate(all="ignore"):
        for call in calls:
            call()


def _reduce_into(
    x: np.ndarray, kind: str, axes: tuple[int, ...], o: np.ndarray
) -> None:
    with np.errstate(over="ignore", invalid="ignore"):
        np.copyto(o, reduce_array(x, kind, axes), casting="unsafe")


_UFUNCS: dict[str, np.ufunc] = {
    "max": np.maximum,
    "min": np.minimum,
    "sum": np.add,
    "prod": np.multiply,
    "mean": np.add,
}
"""The kinds that are one ufunc's reduction (a mean then divides)."""


def reduce_array(x: np.ndarray, kind: str, axes: tuple[int, ...]) -> Any:
    """`kind` of `x` over `axes`, dims kept; in the work type (see module doc)."""
    work = _work_dtype(x.dtype)
    if x.dtype.kind in "iub" and kind in ("mean", "l2", "log_sum_exp"):
        work = np.dtype(np.float64)
    if kind == "max":
        return np.maximum.reduce(x, axis=axes, keepdims=True, initial=_lowest(x.dtype))
    if kind == "min":
        return np.minimum.reduce(x, axis=axes, keepdims=True, initial=_highest(x.dtype))
    if kind == "sum":
        return np.sum(x, axis=axes, keepdims=True, dtype=work)
    if kind == "prod":
        return np.prod(x, axis=axes, keepdims=True, dtype=work)
    if kind == "mean":
        with np.errstate(invalid="ignore", divide="ignore"):
            total = np.sum(x, axis=axes, keepdims=True, dtype=work)
            count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
            return np.divide(total, count) if count else total * np.nan
    if kind == "l1":
        return np.sum(np.abs(x.astype(work, copy=False)), axis=axes, keepdims=True)
    if kind in ("l2", "sum_square"):
        w = x.astype(work, copy=False)
        total = np.sum(w * w, axis=axes, keepdims=True)
        return np.sqrt(total) if kind == "l2" else total
    if kind == "log_sum_exp":
        w = x.astype(work, copy=False)
        peak = np.maximum.reduce(w, axis=axes, keepdims=True, initial=-np.inf)
        shift = np.where(np.isfinite(peak), peak, 0).astype(work)
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            total = np.sum(np.exp(w - shift), axis=axes, keepdims=True)
            return np.log(total) + shift
    raise ValueError(f"unknown reduction {kind!r}")


def arg_extreme(x: np.ndarray, axis: int, kind: str, select_last: bool) -> np.ndarray:
    """Where along `axis` ArgMax/ArgMin land, as in ONNX Runtime:
    a scan from the first element taking each one strictly better (or as good,
    with `select_last`). NaN compares false: a NaN is never taken, and a
    leading NaN is never left. numpy's argmax takes the first NaN instead."""
    n = x.shape[axis]
    if x.dtype.kind != "f" or not np.isnan(x).any():
        find = np.argmax if kind == "max" else np.argmin
        if select_last:
            return n - 1 - find(np.flip(x, axis), axis=axis, keepdims=True)
        return find(x, axis=axis, keepdims=True)
    best = (np.fmax if kind == "max" else np.fmin).reduce(x, axis=axis, keepdims=True)
    hit = x == best
    if select_last:
        index = n - 1 - np.argmax(np.flip(hit, axis), axis=axis, keepdims=True)
    else:
        index = np.argmax(hit, axis=axis, keepdims=True)
    leading_nan = np.isnan(np.take(x, [0], axis=axis))
    return np.where(leading_nan, 0, index)


class CpuReductions(CpuHost):
    """Mixed into `CpuRuntime`: the `Runtime` methods of the reduction family."""

    def reduce(self, src: DA, out: DA, attrs: ReduceAttributes) -> None:
        """The reduction `kind` (a `hip.ReduceOp.kind()`: sum, mean, max, min,
        prod, l1, l2, log_sum_exp, sum_square) of `src` over `axes` (sorted;
        none: the element function on each value, |x| for l1, x*x for sum_square). `out` has `src`'s rank (reduced dims of size 1) or
        drops the reduced dims. An empty reduction gives the kind's identity:
        0, 1 for prod, -inf for max and log_sum_exp, +inf for min, NaN for mean."""
        self.bind_reduce(src, out, attrs)()

    def bind_reduce(
        self, src: DA, out: DA, attrs: ReduceAttributes
    ) -> Callable[[], object]:
        axes, kind = attrs.axes, attrs.kind
        x, o = self.array(src), self.array(out)
        if o.ndim != x.ndim:
            o = np.expand_dims(o, axes)
        if o.size == 0:
            return nothing
        ufunc = _UFUNCS.get(kind)
        count = math.prod(x.shape[a] for a in axes)
        if ufunc is None or (kind == "mean" and x.dtype.kind in "iub") or not count:
            return partial(_reduce_into, x, kind, axes, o)
        # One ufunc reduction (`reduce_array`'s), into `o` when it is of the
        # result's type and apart from `x`, else into a buffer cast into it.
        keywords: dict[str, Any] = {"axis": axes, "keepdims": True}
        if kind in ("max", "min"):
            keywords["initial"] = (_lowest if kind == "max" else _highest)(x.dtype)
            result = x.dtype
        else:
            result = keywords["dtype"] = _work_dtype(x.dtype)
        into = o
        if o.dtype != result or np.may_share_memory(o, x):
            into = np.empty(o.shape, result)
        calls: list[Callable[[], object]] = [
            partial(ufunc.reduce, x, out=into, **keywords)
        ]
        if kind == "mean":
            calls.append(partial(np.divide, into, count, out=into))
        if into is not o:
            calls.append(partial(np.copyto, o, into, casting="unsafe"))
        return partial(_quietly, calls)

    def arg_reduce(self, src: DA, out: DA, attrs: ArgReduceAttributes) -> None:
        """`hip.argmax`/`hip.argmin` (`kind` max or min) along `axis` into the
        int64 `out` (with or without the reduced dim); ties go to the first
        index, or the last with `select_last`; NaN is the extreme."""
        axis = attrs.axis
        x, o = self.array(src), self.array(out)
        if o.ndim != x.ndim:
            o = np.expand_dims(o, axis)
        if o.size == 0:
            return
        n = x.shape[axis]
        if n == 0:
            o[...] = 0
            return
        o[...] = arg_extreme(x, axis, attrs.kind, attrs.select_last)

    def _bind_normalize(
        self,
        x: DA,
        scale: DA,
        bias: OptDA,
        out: DA,
        mean: OptDA,
        inv_std: OptDA,
        attrs: NormAttributes,
        centre: bool,
    ) -> Callable[[], object]:
        """Layer norm (`centre`) or RMS norm, bound: the normalized x
        times `scale` plus `bias`, in float32 at least (see module doc), each
        step a numpy call into a buffer made here. The statistics are
        `np.mean`'s: a sum, then a division by the count."""
        xs, o = self.array(x), self.array(out)
        if xs.size == 0:
            return nothing
        stat_arrays = [None if v is None else self.array(v) for v in (mean, inv_std)]
        rows = self._bind_norm_rows(xs, scale, bias, o, stat_arrays, attrs, centre)
        if rows is not None:
            return rows
        work = np.promote_types(_work_dtype(xs.dtype), np.float32)
        axes = tuple(range(attrs.axis, xs.ndim))
        n = math.prod(xs.shape[attrs.axis :])
        # `np.mean` divides by an intp, in float64 for a float32 sum; below
        # 2**24 a float32 division rounds the same (float64 has over 2p + 2
        # bits: its double rounding is exact), and costs a cast less.
        count = work.type(n) if n < 1 << 24 else np.intp(n)
        stats = xs.shape[: attrs.axis] + (1,) * len(axes)
        factors = [self.array(v) for v in (scale, bias) if v is not None]
        calls: list[Callable[[], object]] = []
        w = xs
        if xs.dtype != work:
            w = np.empty(xs.shape, work)
            calls.append(partial(np.copyto, w, xs))
        # The output holds the centred x when it is of the work type and
        # shares no bytes with the other operands (or is x, exactly).
        apart = not any(np.may_share_memory(o, v) for v in factors) and (
            not np.may_share_memory(o, xs) or _same_view(o, w)
        )
        d = o if o.dtype == work and apart else np.empty(xs.shape, work)
        m, var, inv = (np.empty(stats, work) for _ in range(3))
        square = np.empty(xs.shape, work)
        if centre:
            calls += [
                partial(np.add.reduce, w, axis=axes, out=m, keepdims=True),
                partial(np.true_divide, m, count, out=m, casting="unsafe"),
                partial(np.subtract, w, m, out=d),
            ]
        elif not _same_view(d, w):
            calls.append(partial(np.copyto, d, w))
        calls += [
            partial(np.square, d, out=square),
            partial(np.add.reduce, square, axis=axes, out=var, keepdims=True),
            partial(np.true_divide, var, count, out=var, casting="unsafe"),
            partial(np.add, var, np.asarray(attrs.epsilon, work), out=var),
            partial(np.sqrt, var, out=var),
            partial(np.true_divide, 1.0, var, out=inv),
            partial(np.multiply, d, inv, out=d),
            partial(np.multiply, d, factors[0], out=d),
        ]
        if len(factors) > 1:
            calls.append(partial(np.add, d, factors[1], out=d))
        if d is not o:
            calls.append(partial(np.copyto, o, d, casting="unsafe"))
        if mean is not None:
            calls.append(partial(np.copyto, self.array(mean), m, casting="unsafe"))
        if inv_std is not None:
            calls.append(partial(np.copyto, self.array(inv_std), inv, casting="unsafe"))
        return partial(run_all, calls)

    def _bind_norm_rows(
        self, xs: np.ndarray, scale: DA, bias: OptDA, o: np.ndarray,
        stats: Sequence[np.ndarray | None], attrs: NormAttributes, centre: bool,
    ) -> Callable[[], object] | None:  # fmt: skip
        """A float32 norm from `NUMBA_MIN_ELEMENTS` on as numba's
        one-pass row kernel (`cpu_kernels_rows.norm_rows`), its rows shared
        out over the threads (`_kernel_threads`: one launch on numba's pool,
        `cpu_kernels_pool.norm_pool`, or a call a thread); None where the
        operands are not (rows, n) views of float32."""
        n = math.prod(xs.shape[attrs.axis :])
        rows = xs.size // max(n, 1)
        arrays = [self.array(v) for v in (scale, bias) if v is not None]
        wanted = [v for v in stats if v is not None]
        if xs.size < NUMBA_MIN_ELEMENTS or n == 0:
            return None
        if any(v.dtype != np.float32 for v in (xs, o, *arrays, *wanted)):
            return None
        if any(np.may_share_memory(o, v) for v in arrays) or (
            np.may_share_memory(o, xs) and not _same_view(o, xs)
        ):
            return None
        tail = xs.shape[attrs.axis :]
        x2, o2 = _view(xs, (rows, n)), _view(o, (rows, n))
        factors = [_view(np.broadcast_to(v, tail), (n,)) for v in arrays]
        kept = [None if v is None else _view(v, (rows,)) for v in stats]
        missing = [v is None for v in (x2, o2, *factors)]
        if any(missing) or any(
            a is None and v is not None for a, v in zip(kept, stats)
        ):
            return None
        from xhip.backend import cpu_kernels_rows as k  # lazy: numba, 512 elements on

        unused = np.zeros(1, np.float32)
        size = rows if wanted else 1  # the one not wanted: scratch
        mean, inv = (np.empty(size, np.float32) if v is None else v for v in kept)
        bias_view = factors[1] if len(factors) > 1 else unused
        args = (
            x2, factors[0], bias_view, np.float32(attrs.epsilon), centre, o2,
            bool(wanted), mean, inv,
        )  # fmt: skip
        threads, pool = self._kernel_threads(xs.size)
        if pool and min(threads, rows) > 1:
            from xhip.backend import cpu_kernels_pool as p  # lazy: numba's pool

            return partial(
                p.norm_pool, p.shares(rows, threads), *args, p.state(threads)
            )
        loops = k.split_rows(k.norm_rows, rows, threads, *args)
        return loops[0] if len(loops) == 1 else partial(self._parallel, loops)

    def layer_norm(
        self, x: DA, scale: DA, bias: OptDA, out: DA, mean: OptDA, inv_std: OptDA,
        attrs: NormAttributes,
    ) -> None:  # fmt: skip
        """ONNX LayerNormalization over the dims from `axis` on; `scale` and
        `bias` broadcast to those dims; `mean`/`inv_std` (the normalized dims
        of size 1) written when given."""
        self.bind_layer_norm(x, scale, bias, out, mean, inv_std, attrs)()

    def bind_layer_norm(
        self, x: DA, scale: DA, bias: OptDA, out: DA, mean: OptDA, inv_std: OptDA,
        attrs: NormAttributes,
    ) -> Callable[[], object]:  # fmt: skip
        return self._bind_normalize(x, scale, bias, out, mean, inv_std, attrs, True)

    def rms_norm(self, x: DA, scale: DA, out: DA, attrs: NormAttributes) -> None:
        """ONNX RMSNormalization over the dims from `axis` on."""
        self.bind_rms_norm(x, scale, out, attrs)()

    def bind_rms_norm(
        self, x: DA, scale: DA, out: DA, attrs: NormAttributes
    ) -> Callable[[], object]:
        return self._bind_normalize(x, scale, None, out, None, None, attrs, False)

    def log_softmax(self, src: DA, out: DA, attrs: AxisAttributes) -> None:
        """Log of the softmax along `axis`, computed shifted by the max."""
        axis = attrs.axis
        x, o = self.array(src), self.array(out)
        if x.size == 0:
            return
        w = x.astype(_work_dtype(x.dtype), copy=False)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            d = w - np.max(w, axis=axis, keepdims=True)
            d -= np.log(np.sum(np.exp(d), axis=axis, keepdims=True))
        np.copyto(o, d, casting="unsafe")

    def hardmax(self, src: DA, out: DA, attrs: AxisAttributes) -> None:
        """1 at the first largest element along `axis`, 0 elsewhere."""
        axis = attrs.axis
        x, o = self.array(src), self.array(out)
        if x.size == 0:
            return
        # With NaN, ORT's one-hot depends on its SIMD lanes ([1, NaN, 2, 3]
        # gives 2); numpy's first NaN is onnx's reference (docs/fuzzing.md).
        index = np.argmax(x, axis=axis, keepdims=True)
        o[...] = 0
        np.put_along_axis(o, index, np.ones((), o.dtype), axis)

    def fill(self, out: DA, attrs: FillAttributes) -> None:
        """Every element of `out` set to `value` (converted to its dtype)."""
        self.array(out)[...] = attrs.value
