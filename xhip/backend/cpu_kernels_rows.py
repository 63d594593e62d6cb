"""The CPU runtime's numba kernels: float32 `exp`, `erf` and `tanh`, and the row
kernels of softmax and layer/RMS norm.

One file, because numba's on-disk cache (`cache=True`, as
`cpu_nbits_kernels`) knows a function by its own file's time stamp only: a
kernel that inlines `exp32` lives in the file that defines it, so that it is
compiled again when `exp32` changes; the generated fused loops
(`cpu_kernels_fused`) carry this file's digest for the same reason.

numba has no vector math library here (no SVML): `math.exp` in a loop is a
scalar libm call per element, several times numpy's SIMD `exp`. `exp32` and
`erf32` are straight-line arithmetic (selects, no branches, one bit cast
through `_as_float32`) that LLVM vectorizes in the loops that inline them.
Neither makes a subnormal intermediate on the way to a normal result or to
0 (a microcode assist of about 100 cycles each).

- `exp32`: Cephes' `expf` (Cody-Waite reduction by ln 2, a degree-6
  polynomial), the power of two applied in two halves so that subnormal
  results come out too. At most 1 ulp from float64 (0.97 measured).
- `erf32`: ONNX Runtime's MLAS `erf` (Norbert Juffa's `erff`: minimax
  polynomials split at |x| = 0.921875, the large one through `exp`, |x|
  clamped at 3.925 where erf rounds to 1), with `exp32` for `expf`.
  0.99 ulp from float64 measured (every 13th float32 in [-6, 6]; 1.11
  before its FMAs, below; `tests/pytest/backend/test_cpu_kernels.py`
  asserts 1.5).
- `tanh32`: Cephes' `tanhf` (an odd polynomial below |x| = 0.625, else
  1 - 2 / (exp(2|x|) + 1) with `exp32`), with FMAs as `erf32`. 1.31 ulp
  from float64 measured (every 13th float32 in [-20, 20]; numpy's SIMD
  tanh 1.36; the test asserts 1.5).

`erf32` and `tanh32` take their polynomials' a * b + c as one FMA each
(`fma32`: `llvm.fma`, whatever the calling kernel's flags), as MLAS's
kernels do (`MlasMultiplyAddFloat32x4`): the fused GELU loop at 128 x 1024
about 110 us against 150 without, on one thread. numba inlines them
(`inline="always"`), as `exp32`, which stays uncontracted (contracted, it
is 1.003 ulp off, past its bound of 1). Left to LLVM's inliner, a kernel
compiled while they came from numba's disk cache (object code: nothing to
inline) called them once per element, unvectorized: GPT-2's fused
tanh-GELU at 512 x 128 took 430 us on two threads.

The row kernels run over rows `[lo, hi)` of a (rows, n) float32 view, so
the runtime's threads each take a range of rows (`nogil`), and make their
passes over one row while it is in L1: the data crosses memory once each
way, where the numpy forms make four to ten passes over a block. float32
math, as ONNX Runtime's MLAS kernels. Row sums and maxima are kept in
`LANES` independent lanes, added at the end: the loops vectorize with no
reassociation allowed to LLVM (numba's strict float semantics), and the
sums are pairwise-like in accuracy (each lane adds n / LANES terms).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

_F = np.float32


@intrinsic
def _as_float32(typingctx: Any, bits: Any) -> Any:
    """The float32 whose bits are the low 32 of the integer `bits` (a
    vectorizable bit cast)."""
    if not isinstance(bits, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        low = args[0]
        if bits.bitwidth > 32:  # pyright: ignore[reportAttributeAccessIssue]
            low = builder.trunc(low, ir.IntType(32))
        return builder.bitcast(low, ir.FloatType())

    return types.float32(bits), codegen


@intrinsic
def _fma32(typingctx: Any, a: Any, b: Any, c: Any) -> Any:
    """a * b + c in float32 with one rounding (`llvm.fma`), whatever the
    calling kernel's flags: the FMAs of MLAS's polynomials. LLVM vectorizes
    it."""
    if not all(x == types.float32 for x in (a, b, c)):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        f32 = ir.FloatType()
        fma = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(f32, [f32, f32, f32]), "llvm.fma.f32"
        )
        return builder.call(fma, args)

    return types.float32(types.float32, types.float32, types.float32), codegen


fma32 = cast(Callable[[Any, Any, Any], Any], _fma32)
"""`_fma32` as its callers call it."""

_LOG2E = _F(1.44269504088896341)
_LN2_HI = _F(0.693359375)
_LN2_LO = _F(-2.12194440e-4)
_EXP_P = tuple(
    _F(c)
    for c in (
        1.9875691500e-4,
        1.3981999507e-3,
        8.3334519073e-3,
        4.1665795894e-2,
        1.6666665459e-1,
        5.0000001201e-1,
    )
)
_EXP_MAX, _EXP_MIN = _F(89.0), _F(-104.0)
_HALF, _ONE, _ZERO = _F(0.5), _F(1.0), _F(0.0)


_WIDE_VECTORS = ('"min-legal-vector-width"="512"', '"prefer-vector-width"="512"')


@intrinsic
def wide_vectors(typingctx: Any) -> Any:
    """Nothing at run time: lets LLVM vectorize the calling kernel with
    512-bit vectors, which it avoids on CPUs it tunes for 256-bit ones
    (clang's marks of code with 512-bit intrinsics; `AttributeSet.add`
    knows no string attributes, hence set's own add). The same bits, faster:
    the fused GELU loop 167 us against 214 at 128 x 1024, softmax rows 184
    against 228 at 1024 x 256; a CPU without AVX-512 gets its widest."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        for attribute in _WIDE_VECTORS:
            set.add(builder.function.attributes, attribute)
        return context.get_dummy_value()

    return types.void(), codegen


@njit(cache=True, inline="always")
def exp32(x: Any) -> Any:
    """e ** x in float32: 0 below -104, inf above 88.72, NaN for NaN."""
    c = min(max(x, _EXP_MIN), _EXP_MAX)
    n = np.floor(c * _LOG2E + _HALF)
    r = c - n * _LN2_HI
    r = r - n * _LN2_LO
    p = _EXP_P[0]
    p = p * r + _EXP_P[1]
    p = p * r + _EXP_P[2]
    p = p * r + _EXP_P[3]
    p = p * r + _EXP_P[4]
    p = p * r + _EXP_P[5]
    p = p * (r * r) + r + _ONE
    k = np.int32(n)
    half = k >> 1
    p = p * _as_float32((half + 127) << 23)  # pyright: ignore[reportCallIssue]
    rest = _as_float32((k - half + 127) << 23)  # pyright: ignore[reportCallIssue]
    # 0 below the range (-inf from a mask) without a subnormal product:
    # those take a microcode assist, about 100 cycles each.
    p = p * (rest if x > _EXP_MIN else _ZERO)
    return p if x == x else x


_ERF_SPLIT = _F(0.921875)
_ERF_TOP = _F(3.925)
_ERF_SMALL = tuple(
    _F(c)
    for c in (
        -5.99104969e-4,
        4.99339588e-3,
        -2.67667342e-2,
        1.12818025e-1,
        -3.76124859e-1,
        1.28379151e-1,
    )
)
_ERF_BIG = tuple(
    _F(c)
    for c in (
        1.72948930e-5,
        -3.83208680e-4,
        3.88393435e-3,
        -2.42545605e-2,
        1.06777847e-1,
        6.34846687e-1,
        1.28717512e-1,
    )
)


@njit(cache=True, inline="always")
def erf32(a: Any) -> Any:
    """erf in float32 (MLAS's polynomials); both halves computed, one kept."""
    t = abs(a)
    s = a * a
    small = _ERF_SMALL[0]
    small = fma32(small, s, _ERF_SMALL[1])
    small = fma32(small, s, _ERF_SMALL[2])
    small = fma32(small, s, _ERF_SMALL[3])
    small = fma32(small, s, _ERF_SMALL[4])
    small = fma32(small, s, _ERF_SMALL[5])
    small = fma32(small, a, a)
    b = min(t, _ERF_TOP)  # erf is 1.0 in float32 past it: exp's input stays normal
    r = fma32(_ERF_BIG[0], b, _ERF_BIG[1])
    u = fma32(_ERF_BIG[2], b, _ERF_BIG[3])
    r = fma32(r, b * b, u)
    r = fma32(r, b, _ERF_BIG[4])
    r = fma32(r, b, _ERF_BIG[5])
    r = fma32(r, b, _ERF_BIG[6])
    r = fma32(r, b, b)
    big = _ONE - exp32(-r)
    big = big if a >= _ZERO else -big
    return big if t > _ERF_SPLIT else small


_TANH_SPLIT = _F(0.625)
_TANH_TOP = _F(88.0)
_TANH_P = tuple(
    _F(c)
    for c in (
        -5.70498872745e-3,
        2.06390887954e-2,
        -5.37397155531e-2,
        1.33314422036e-1,
        -3.33332819422e-1,
    )
)
_TWO = _F(2.0)


@njit(cache=True, inline="always")
def tanh32(x: Any) -> Any:
    """tanh in float32 (Cephes' `tanhf`): an odd polynomial below 0.625,
    1 - 2 / (exp(2|x|) + 1) above (`exp32`, its input at most 88, so no
    subnormal); both computed, one kept, the sign copied. libm's `tanhf`
    is a scalar call: 1 ms for 64 Ki elements against 39 us here."""
    a = abs(x)
    e = exp32(min(a + a, _TANH_TOP))
    big = _ONE - _TWO / (e + _ONE)
    z = x * x
    p = _TANH_P[0]
    p = fma32(p, z, _TANH_P[1])
    p = fma32(p, z, _TANH_P[2])
    p = fma32(p, z, _TANH_P[3])
    p = fma32(p, z, _TANH_P[4])
    small = fma32(p * z, a, a)
    r = small if a < _TANH_SPLIT else big
    r = np.copysign(r, x)
    return r if x == x else x


@njit(cache=True, inline="always")
def fmin(a: Any, b: Any) -> Any:
    """`np.minimum`: NaN if either is."""
    return a if a < b or a != a else b


@njit(cache=True, inline="always")
def fmax(a: Any, b: Any) -> Any:
    """`np.maximum`: NaN if either is."""
    return a if a > b or a != a else b


LANES = 16
_NEG = np.float32(-np.inf)
SUM_MIN, SUM_MAX = np.float32(1e-30), np.float32(1e30)
"""Row sums of unshifted exp that need no max shift: no term overflowed,
and one that underflowed weighs under 1e-8 of its row (`cpu.SUM_MIN`)."""


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _exp_sum(x: Any, i: int, f: Any, shift: Any, out: Any, r: int, lanes: Any) -> Any:
    """out[r] = exp(x[i] * f - shift), and the sum of the row."""
    n = x.shape[1]
    whole = n - n % LANES
    lanes[:] = _ZERO
    for j in range(0, whole, LANES):
        for k in range(LANES):
            e = exp32(x[i, j + k] * f - shift)
            out[r, j + k] = e
            lanes[k] += e
    total = _ZERO
    for j in range(whole, n):
        e = exp32(x[i, j] * f - shift)
        out[r, j] = e
        total += e
    for k in range(LANES):
        total += lanes[k]
    return total


@njit(cache=True, inline="always")
def _same(x: Any, out: Any) -> bool:
    """Whether the (rows, n) views `x` and `out` are one array.

    LLVM vectorizes a loop only after a run-time check that its loads and
    stores do not overlap; a kernel in place fails it and runs scalar
    (softmax 6x, norms 1.5x slower), so the kernels in place run their
    loops on `out` alone, or through a scratch row."""
    return x.ctypes.data == out.ctypes.data and x.strides == out.strides


@njit(cache=True, nogil=True, error_model="numpy")
def softmax_rows(lo: int, hi: int, x: Any, factor: Any, out: Any) -> None:
    """out[i] = softmax(x[i] * factor[0]) for rows i in [lo, hi); `out` may
    be `x`. As `cpu._softmax_block`: exp unshifted first, and only a row
    whose sum leaves [SUM_MIN, SUM_MAX] (or is NaN) again shifted by its
    max; each entry divided by the sum (a one-entry row is exactly 1). The
    max skips NaN, which reaches every entry through the sum: a row with a
    NaN, or of -inf, gives NaN, as the numpy form. In place, the exp goes
    to a scratch row first: the shifted pass reads the row again."""
    wide_vectors()  # pyright: ignore[reportCallIssue]
    if _same(x, out):
        _softmax(lo, hi, x, factor, np.empty((1, x.shape[1]), np.float32), 0, out)
    else:
        _softmax(lo, hi, x, factor, out, 1, out)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _softmax(
    lo: int, hi: int, x: Any, factor: Any, exps: Any, step: int, out: Any
) -> None:
    """`softmax_rows` with row i's exp in row `step * i` of `exps`."""
    n = x.shape[1]
    whole = n - n % LANES
    f = factor[0]
    lanes = np.empty(LANES, np.float32)
    for i in range(lo, hi):
        r = step * i
        total = _exp_sum(x, i, f, _ZERO, exps, r, lanes)
        if not (total > SUM_MIN and total < SUM_MAX):
            lanes[:] = _NEG
            for j in range(0, whole, LANES):
                for k in range(LANES):
                    v = x[i, j + k] * f
                    lanes[k] = v if v > lanes[k] else lanes[k]
            peak = _NEG
            for k in range(LANES):
                peak = lanes[k] if lanes[k] > peak else peak
            for j in range(whole, n):
                v = x[i, j] * f
                peak = v if v > peak else peak
            total = _exp_sum(x, i, f, peak, exps, r, lanes)
        for j in range(n):
            out[i, j] = exps[r, j] / total


@njit(cache=True, nogil=True, error_model="numpy", fastmath={"contract"})
def norm_rows(
    lo: int, hi: int, x: Any, scale: Any, bias: Any, epsilon: Any, centre: bool,
    out: Any, stats: bool, mean: Any, inv_std: Any,
) -> None:  # fmt: skip
    """Layer norm (`centre`) or RMS norm of rows [lo, hi) of `x`: (x - mean)
    / sqrt(var + epsilon) * scale + bias (scale and bias (n,) views, bias
    of size 1 when there is none: 0), the mean and 1 / sqrt(var + epsilon)
    of each row into `mean[i]`, `inv_std[i]` if `stats`. `out` may be `x`.
    Not `wide_vectors`: 512-bit vectors made it 7-19% slower. FMAs allowed
    (as MLAS's): 18 us against 21 at 128 x 256 on one thread, 143 against
    168 at 1024 x 256, the same error against float64."""
    if _same(x, out):
        _norm(lo, hi, out, scale, bias, epsilon, centre, out, stats, mean, inv_std)
    else:
        _norm(lo, hi, x, scale, bias, epsilon, centre, out, stats, mean, inv_std)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _norm(
    lo: int, hi: int, x: Any, scale: Any, bias: Any, epsilon: Any, centre: bool,
    out: Any, stats: bool, mean: Any, inv_std: Any,
) -> None:  # fmt: skip
    n = x.shape[1]
    whole = n - n % LANES
    count = np.float32(n)
    lanes = np.empty(LANES, np.float32)
    has_bias = bias.shape[0] == n
    for i in range(lo, hi):
        m = _ZERO
        if centre:
            lanes[:] = _ZERO
            for j in range(0, whole, LANES):
                for k in range(LANES):
                    lanes[k] += x[i, j + k]
            total = _ZERO
            for j in range(whole, n):
                total += x[i, j]
            for k in range(LANES):
                total += lanes[k]
            m = total / count
        lanes[:] = _ZERO
        for j in range(0, whole, LANES):
            for k in range(LANES):
                d = x[i, j + k] - m
                lanes[k] += d * d
        square = _ZERO
        for j in range(whole, n):
            d = x[i, j] - m
            square += d * d
        for k in range(LANES):
            square += lanes[k]
        inv = _ONE / np.sqrt(square / count + epsilon)
        if has_bias:
            for j in range(n):
                out[i, j] = (x[i, j] - m) * inv * scale[j] + bias[j]
        else:
            for j in range(n):
                out[i, j] = (x[i, j] - m) * inv * scale[j]
        if stats:
            mean[i] = m
            inv_std[i] = inv


def split_rows(
    kernel: Any, rows: int, threads: int, *args: Any
) -> list[Callable[[], object]]:
    """`kernel(lo, hi, *args)` for each thread's range of `rows`."""
    threads = max(1, min(threads, rows))
    cuts = [rows * t // threads for t in range(threads + 1)]
    return [partial(kernel, lo, hi, *args) for lo, hi in zip(cuts, cuts[1:])]
