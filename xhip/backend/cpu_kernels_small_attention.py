"""Small float32 fused attentions (`hip.fused_attention`) in one numba call.

Below `cpu_attention.KERNEL_MIN_SCORES`, and for the few query rows the
packed kernels (`cpu_kernels_attention`) decline (an LLM's decode step: one
row a head against t keys), numpy's blocks (`cpu_attention._Attend`) are
about ten numpy calls of a microsecond each, even for one score: the
seed's attention at 1 x 1 took 9.5 us there, 0.9 us here. `attend` is all
of it in one call, a query row at a time: the row's scores into a scratch
row, + mask, exp unshifted (`cpu_kernels_runs.exp_run`, the sum kept
beside), again shifted by the row's max where the sum leaves [low, high]
(as `_Attend`), then exp @ v, divided by the sum; a row whose sum is NaN
(all keys masked, a NaN or +inf score) gets `fill` * the sum of v when
there is a `fill`.

The row operations are LLVM IR on 16-lane vectors, as `cpu_kernels_runs`:
numba's loops vectorize only over "C" rows, and even there their vector
body needs a few vectors of work (interleaved), so rows of 8 to 64 floats
(GPT-2's heads, a few keys) ran scalar; here a row's tail is one masked
vector. `_gemv_run` is qs @ K (k (D, T) with rows along T) and p @ V: four
vectors of the result in registers through all the rows, stored once.
`_dots_run` is the scores against k the transposed view of (T, D) that
models give: four keys' dot products at a time, their lanes added
together. Anything else (k strided both ways, or a k bias that varies
along T) is packed (k + bias) into a (D, T) scratch once a head. A k bias
the same for every key (the projections') adds q . bias to each score of
the row; a v bias the same for every key goes to the outputs (P's rows sum
to 1), another in with v. Rows that are not contiguous are read a float
at a time.

`bind` writes the sizes, flags and every operand's address and strides
into one int64 array (the plan): numba's dispatch takes about 0.1 us an
array argument, 1.1 us for the eleven operands, 0.2 for the plan. One
thread: these are small. Cache: keyed on `cpu_kernels_rows` (`exp32`) and
`cpu_kernels_runs` (`exp_run`, `scale_run`), whose code the kernel compiles
in (`numba_cache.key_on`); compiled once, at import, for the plan, so a
process does not compile per shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.numpy_support import carray

from xhip.backend import cpu_kernels_rows, cpu_kernels_runs, numba_cache
from xhip.backend.cpu_kernels_rows import exp32, wide_vectors
from xhip.backend.cpu_kernels_runs import ADD_FIRST, ADD_LAST, LANE, exp_run, scale_run
from xhip.backend.cpu_kernels_runs import DIVIDE as DIVIDE_RUN

numba_cache.key_on(__file__, [cpu_kernels_rows.__file__, cpu_kernels_runs.__file__])

HAS_MASK, DIVIDE, HAS_FILL, Q_BIAS, K_BIAS, V_BIAS = 1, 2, 4, 8, 16, 32
"""`attend`'s flags."""
_T, _DV, _FLAGS, _FORM, _SCALE, _FILL, _SCRATCH, _OPERANDS = 4, 5, 6, 7, 8, 9, 10, 11
"""Where the plan has T, Dv, the flags, the scores' form, the addresses of
scale, fill and the scratch, and then the operands'."""
_ROWS, _COLS, _PACK = 0, 1, 2
"""The scores' forms (module doc)."""

_F = np.float32
_ZERO, _NEG = _F(0.0), _F(-np.inf)


def _splat(builder: Any, x: Any, lanes: int = LANE) -> Any:
    """A vector of `lanes` copies of x."""
    vec = ir.VectorType(x.type, lanes)
    undef = ir.Constant(vec, ir.Undefined)
    one = builder.insert_element(undef, x, ir.IntType(32)(0))
    zeros = ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes)
    return builder.shuffle_vector(one, undef, zeros)


class _Vectors:
    """Loads and stores of `LANE` floats at an address: whole, or the first
    `rem` lanes under a mask (the tail of a row: no scalar loop, which
    LLVM's vectorized loops leave for rows shorter than a few vectors)."""

    def __init__(self, builder: Any, rem: Any = None):
        self.builder = builder
        f32, i1 = ir.FloatType(), ir.IntType(1)
        self.vec = ir.VectorType(f32, LANE)
        self.vptr = self.vec.as_pointer()
        self.zero = ir.Constant(self.vec, [f32(0.0)] * LANE)
        self.mask: Any = None
        if rem is not None:
            lanes = ir.Constant(ir.VectorType(rem.type, LANE), list(range(LANE)))
            self.mask = builder.icmp_signed("<", lanes, _splat(builder, rem))
            masks = ir.VectorType(i1, LANE)
            module = builder.module
            self.masked_load = cgutils.get_or_insert_function(
                module,
                ir.FunctionType(self.vec, [self.vptr, ir.IntType(32), masks, self.vec]),
                "llvm.masked.load.v16f32.p0v16f32",
            )
            self.masked_store = cgutils.get_or_insert_function(
                module,
                ir.FunctionType(
                    ir.VoidType(), [self.vec, self.vptr, ir.IntType(32), masks]
                ),
                "llvm.masked.store.v16f32.p0v16f32",
            )

    def at(self, address: Any, index: Any) -> Any:
        """The vector pointer of float `index` from `address`."""
        builder = self.builder
        fptr = ir.FloatType().as_pointer()
        return builder.bitcast(
            builder.gep(builder.inttoptr(address, fptr), [index]), self.vptr
        )

    def load(self, pointer: Any) -> Any:
        if self.mask is None:
            return self.builder.load(pointer, align=4)
        four = ir.IntType(32)(4)
        return self.builder.call(
            self.masked_load, [pointer, four, self.mask, self.zero]
        )

    def store(self, x: Any, pointer: Any) -> None:
        if self.mask is None:
            self.builder.store(x, pointer, align=4)
        else:
            four = ir.IntType(32)(4)
            self.builder.call(self.masked_store, [x, pointer, four, self.mask])


def _fma(builder: Any, vec: Any) -> Any:
    return cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(vec, [vec] * 3), "llvm.fmuladd.v16f32"
    )


def _runs(builder: Any, n: Any, body: Any, first: Any = None) -> None:
    """body(vectors, index of the first float) for each whole vector of n
    floats (from float `first`), then for the tail under a mask."""
    intp = n.type
    first = intp(0) if first is None else first
    whole = builder.udiv(n, intp(LANE))
    with cgutils.for_range(builder, whole) as loop:
        at = builder.add(first, builder.mul(loop.index, intp(LANE)))
        body(_Vectors(builder), at)
    start = builder.mul(whole, intp(LANE))
    rem = builder.sub(n, start)
    with builder.if_then(builder.icmp_signed(">", rem, intp(0))):
        body(_Vectors(builder, rem), builder.add(first, start))


@intrinsic
def _gemv_run(
    typingctx: Any, dst: Any, n: Any, src: Any, step: Any, coefs: Any, count: Any,
    add: Any, start: Any,
) -> Any:  # fmt: skip
    """dst[j] = (dst[j] if `add` else `start`) + the sum over e < `count`
    of coefs[e] * row e [j] for j < n, row e the floats at src + e * step
    (bytes): float32 addresses; qs @ K for the scores, p @ V for the
    outputs. Four vectors of dst at a time, their sums in registers through
    all the rows (four FMA chains), stored once; then a vector at a time,
    its sum in four registers (rows e mod 4), the tail under a mask."""
    sig = types.void(
        types.intp, types.intp, types.intp, types.intp, types.intp, types.intp,
        types.boolean, types.float32,
    )  # fmt: skip

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pdst, n, psrc, step, pcoefs, count, add, first = args
        intp = n.type
        fptr = ir.FloatType().as_pointer()
        factors = builder.inttoptr(pcoefs, fptr)
        initial = _splat(builder, first)

        def term(v: _Vectors, column: Any, e: Any, slot: Any, offset: int) -> None:
            """slot += coefs[e] * the vector `offset` floats into row e."""
            fma = _fma(builder, v.vec)
            factor = _splat(builder, builder.load(builder.gep(factors, [e])))
            at = builder.add(
                builder.add(column, builder.mul(e, step)), intp(offset * 4)
            )
            row = builder.inttoptr(at, v.vptr)
            builder.store(
                builder.call(fma, [factor, v.load(row), builder.load(slot)]), slot
            )

        def sums(v: _Vectors, at: Any, count_: int) -> list[Any]:
            """`count_` registers: the first vector of dst (or `start`), then 0."""
            slots = [cgutils.alloca_once(builder, v.vec) for _ in range(count_)]
            for k, slot in enumerate(slots):
                to = v.at(pdst, builder.add(at, intp(k * LANE)))
                builder.store(builder.select(add, v.load(to), initial), slot)
            return slots

        def wide(v: _Vectors, at: Any) -> None:
            column = builder.add(psrc, builder.mul(at, intp(4)))
            slots = sums(v, at, 4)
            with cgutils.for_range(builder, count) as loop:
                for k, slot in enumerate(slots):
                    term(v, column, loop.index, slot, k * LANE)
            for k, slot in enumerate(slots):
                v.store(builder.load(slot), v.at(pdst, builder.add(at, intp(k * LANE))))

        def one(v: _Vectors, at: Any) -> None:
            column = builder.add(psrc, builder.mul(at, intp(4)))
            to = v.at(pdst, at)
            slots = [cgutils.alloca_once(builder, v.vec) for _ in range(4)]
            builder.store(builder.select(add, v.load(to), initial), slots[0])
            for slot in slots[1:]:
                builder.store(v.zero, slot)
            groups = builder.udiv(count, intp(4))
            with cgutils.for_range(builder, groups) as loop:
                e0 = builder.mul(loop.index, intp(4))
                for k, slot in enumerate(slots):
                    term(v, column, builder.add(e0, intp(k)), slot, 0)
            rest = builder.mul(groups, intp(4))
            with cgutils.for_range(builder, builder.sub(count, rest)) as loop:
                term(v, column, builder.add(rest, loop.index), slots[0], 0)
            a, b, c, d = (builder.load(slot) for slot in slots)
            v.store(builder.fadd(builder.fadd(a, b), builder.fadd(c, d)), to)

        block = 4 * LANE
        blocks = builder.udiv(n, intp(block))
        with cgutils.for_range(builder, blocks) as loop:
            wide(_Vectors(builder), builder.mul(loop.index, intp(block)))
        done = builder.mul(blocks, intp(block))
        _runs(builder, builder.sub(n, done), one, done)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _dots_run(
    typingctx: Any, dst: Any, t: Any, keys: Any, step: Any, q: Any, d: Any,
    start: Any,
) -> Any:  # fmt: skip
    """dst[j] = start + q . key j for j < t, key j the d floats at keys + j
    * step (bytes), q d floats: float32 addresses (k the transposed view of
    (T, D), the models' layout). Four keys at a time, a register of FMAs
    each (the tail of D under a mask), then their lanes added by halves,
    the four together (as BLAS's dot products reassociate)."""
    sig = types.void(
        types.intp, types.intp, types.intp, types.intp, types.intp, types.intp,
        types.float32,
    )  # fmt: skip

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pdst, t, pkeys, step, pq, d, first = args
        intp = t.type
        f32, i32 = ir.FloatType(), ir.IntType(32)
        vec = ir.VectorType(f32, LANE)
        out = builder.inttoptr(pdst, f32.as_pointer())

        def four(j: Any, tail: bool) -> None:
            """Keys j to j + 3 (the last key again past t, for `tail`)."""
            last = builder.sub(t, intp(1))
            rows = []
            for k in range(4):
                at = builder.add(j, intp(k))
                if tail:
                    at = builder.select(builder.icmp_signed("<", at, t), at, last)
                rows.append(builder.add(pkeys, builder.mul(at, step)))
            slots = [cgutils.alloca_once(builder, vec) for _ in range(4)]
            for slot in slots:
                builder.store(ir.Constant(vec, [f32(0.0)] * LANE), slot)

            def body(v: _Vectors, at: Any) -> None:
                fma = _fma(builder, vec)
                x = v.load(v.at(pq, at))
                for row, slot in zip(rows, slots):
                    y = v.load(v.at(row, at))
                    builder.store(builder.call(fma, [x, y, builder.load(slot)]), slot)

            _runs(builder, d, body)
            parts = [builder.load(slot) for slot in slots]

            # a, b -> lanes 0-7 a's halves added, 8-15 b's; then the four
            # keys in runs of 4, 2, 1.
            lo = list(range(8)) + list(range(16, 24))
            hi = list(range(8, 16)) + list(range(24, 32))

            def add(a: Any, b: Any, x: list[int], y: list[int]) -> Any:
                ix = ir.Constant(ir.VectorType(i32, len(x)), x)
                iy = ir.Constant(ir.VectorType(i32, len(y)), y)
                return builder.fadd(
                    builder.shuffle_vector(a, b, ix), builder.shuffle_vector(a, b, iy)
                )

            ab = add(parts[0], parts[1], lo, hi)
            cd = add(parts[2], parts[3], lo, hi)
            x4 = [i for i in range(32) if i % 8 < 4]
            y4 = [i + 4 for i in x4]
            r = add(ab, cd, x4, y4)  # 16 lanes: each key's 4 partial sums
            undef = ir.Constant(vec, ir.Undefined)
            r = add(
                r,
                undef,
                [i for i in range(16) if i % 4 < 2],
                [i for i in range(16) if i % 4 >= 2],
            )
            r = add(r, ir.Constant(r.type, ir.Undefined), [0, 2, 4, 6], [1, 3, 5, 7])
            r = builder.fadd(r, _splat(builder, first, 4))
            if not tail:
                to = builder.bitcast(builder.gep(out, [j]), r.type.as_pointer())
                builder.store(r, to, align=4)
                return
            for k in range(4):
                at = builder.add(j, intp(k))
                with builder.if_then(builder.icmp_signed("<", at, t)):
                    builder.store(
                        builder.extract_element(r, i32(k)), builder.gep(out, [at])
                    )

        groups = builder.udiv(t, intp(4))
        with cgutils.for_range(builder, groups) as loop:
            four(builder.mul(loop.index, intp(4)), False)
        done = builder.mul(groups, intp(4))
        with builder.if_then(builder.icmp_signed("<", done, t)):
            four(done, True)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _load(typingctx: Any, address: Any) -> Any:
    """The float32 at the integer `address`."""
    sig = types.float32(types.intp)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.load(builder.inttoptr(args[0], ir.FloatType().as_pointer()))

    return sig, codegen


@intrinsic
def _store(typingctx: Any, address: Any, x: Any) -> Any:
    """Stores the float32 x at the integer `address`."""
    sig = types.void(types.intp, types.float32)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        builder.store(args[1], builder.inttoptr(args[0], ir.FloatType().as_pointer()))
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _floats(typingctx: Any, address: Any) -> Any:
    """The float32 pointer at the integer `address` (for `carray` views)."""
    sig = types.CPointer(types.float32)(types.intp)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    return sig, codegen


@njit(cache=True, inline="always")
def _at(address: int, n: int) -> Any:
    """The n floats at `address` as a "C" view (scratch: no reference count)."""
    return carray(_floats(address), n)  # pyright: ignore[reportCallIssue]


Q, K, V, MASK, QB, KB, VB, OUT = (_OPERANDS + 5 * i for i in range(8))
"""Where each operand's address and four strides (bytes) are in the plan."""


@njit(cache=True, inline="always")
def _where(plan: Any, x: int, b: int, h: int, i: int) -> int:
    """The address of operand x's [b, h, i, 0]."""
    return plan[x] + b * plan[x + 1] + h * plan[x + 2] + i * plan[x + 3]


@njit(cache=True, inline="always")
def _get(plan: Any, x: int, b: int, h: int, i: int, j: int) -> Any:
    """Operand x's [b, h, i, j]."""
    return _load(_where(plan, x, b, h, i) + j * plan[x + 4])  # pyright: ignore[reportCallIssue]


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _scores(plan: Any, b: int, h: int, qs: Any, s: Any, kt: int, c: Any) -> None:
    """s = c + qs @ k[b, h] in the plan's form (k + its bias packed at `kt`
    for `_PACK`)."""
    d, t, form = qs.shape[0], s.shape[0], plan[_FORM]
    keys = _where(plan, K, b, h, 0)
    if form == _COLS:
        _dots_run(s.ctypes.data, t, keys, plan[K + 4], qs.ctypes.data, d, c)  # pyright: ignore[reportCallIssue]
    elif form == _ROWS:
        _gemv_run(s.ctypes.data, t, keys, plan[K + 3], qs.ctypes.data, d, False, c)  # pyright: ignore[reportCallIssue]
    else:
        _gemv_run(s.ctypes.data, t, kt, t * 4, qs.ctypes.data, d, False, c)  # pyright: ignore[reportCallIssue]


@njit(cache=True, nogil=True, error_model="numpy", fastmath={"contract"})
def _exp(plan: Any, s: Any, b: int, h: int, i: int, has_mask: bool, shift: Any) -> Any:
    """s = exp(s (+ mask[b, h, i]) - shift) in place; the sum. A mask row
    contiguous goes in with the exp (`exp_run`), another is added first."""
    t = s.shape[0]
    whole = t - t % LANE
    step = plan[MASK + 4]
    rows = step == 4 or t == 1
    line = _where(plan, MASK, b, h, i)
    if has_mask and not rows:
        for j in range(t):
            s[j] += _load(line + j * step)  # pyright: ignore[reportCallIssue]
    with_mask = has_mask and rows
    total = exp_run(s.ctypes.data, line, with_mask, whole, shift)  # pyright: ignore[reportCallIssue]
    for j in range(whole, t):
        x = s[j] + _load(line + j * step) if with_mask else s[j]  # pyright: ignore[reportCallIssue]
        e = exp32(x - shift)
        s[j] = e
        total += e
    return total


@njit(cache=True, nogil=True, error_model="numpy")
def _peak(plan: Any, s: Any, b: int, h: int, i: int, has_mask: bool) -> Any:
    """s += mask[b, h, i]; the max of s, NaN skipped (-inf for a row of
    -inf or NaN)."""
    peak = _NEG
    line, step = _where(plan, MASK, b, h, i), plan[MASK + 4]
    for j in range(s.shape[0]):
        x = s[j] + _load(line + j * step) if has_mask else s[j]  # pyright: ignore[reportCallIssue]
        s[j] = x
        peak = x if x > peak else peak
    return peak


@njit(cache=True, nogil=True, error_model="numpy")
def _fill(plan: Any, b: int, h: int, i: int, filler: Any, v_bias: bool) -> None:
    """out[b, h, i] = filler * the sum of v (+ its bias) over the keys: a
    row whose softmax is NaN (`fill`)."""
    t, dv = plan[_T], plan[_DV]
    for o in range(dv):
        column = _ZERO
        for j in range(t):
            column += _get(plan, V, b, h, j, o)
            if v_bias:
                column += _get(plan, VB, b, h, j, o)
        _store(_where(plan, OUT, b, h, i) + o * plan[OUT + 4], filler * column)  # pyright: ignore[reportCallIssue]


@njit(
    types.void(types.int64[::1], types.float32, types.float32),
    cache=True, nogil=True, error_model="numpy",
)  # fmt: skip
def attend(plan: Any, low: Any, high: Any) -> None:
    """softmax((q + qb) * scale (or / scale with `DIVIDE`) @ (k + kb) +
    mask) @ (v + vb) into out, as `bind`'s plan says: the sizes, the
    flags, the scores' form, the addresses of scale, fill and the scratch,
    and each operand's address and strides, every operand broadcast to
    (B, H, ...) (q (B, H, S, D), k (B, H, D, T), v (B, H, T, Dv), mask
    (B, H, S, T), each bias to its operand). One array, not one for each
    operand: numba's dispatch takes 0.1 us an array (1.1 us for the 11)."""
    wide_vectors()  # pyright: ignore[reportCallIssue]
    nb, nh, ns, d, t, dv = plan[0], plan[1], plan[2], plan[3], plan[4], plan[5]
    flags = plan[_FLAGS]
    f, filler = _load(plan[_SCALE]), _load(plan[_FILL])  # pyright: ignore[reportCallIssue]
    has_mask, divide = flags & HAS_MASK != 0, flags & DIVIDE != 0
    has_fill, q_bias = flags & HAS_FILL != 0, flags & Q_BIAS != 0
    k_bias, v_bias = flags & K_BIAS != 0, flags & V_BIAS != 0
    scratch = plan[_SCRATCH]
    qs = _at(scratch, d)
    s = _at(scratch + 4 * d, t)
    acc = _at(scratch + 4 * (d + t), dv)
    kt = scratch + 4 * (d + t + dv)  # D x T more for `_PACK`
    along = k_bias and plan[KB + 4] != 0 and t > 1  # k's bias varies along T
    late = v_bias and (plan[VB + 3] == 0 or t == 1)  # to the outputs
    # Rows a vector at a time (`scale_run`, `_gemv_run`): contiguous ones.
    q_rows = (plan[Q + 4] == 4 and (not q_bias or plan[QB + 4] == 4)) or d == 1
    q_mode = (ADD_FIRST if q_bias else 0) | (DIVIDE_RUN if divide else 0)
    v_rows = plan[V + 4] == 4 or dv == 1
    vb_rows = plan[VB + 4] == 4 or dv == 1
    out_rows = (plan[OUT + 4] == 4 and (not late or plan[VB + 4] == 4)) or dv == 1
    out_mode = DIVIDE_RUN | (ADD_LAST if late else 0)
    for b in range(nb):
        for h in range(nh):
            if plan[_FORM] == _PACK:
                packed = _at(kt, d * t)
                for e in range(d):  # kt's rows in turn: no stores a row apart
                    for j in range(t):
                        x = _get(plan, K, b, h, e, j)
                        packed[e * t + j] = (
                            x + _get(plan, KB, b, h, e, j) if along else x
                        )
            for i in range(ns):
                if q_rows:
                    scale_run(
                        _where(plan, Q, b, h, i), qs.ctypes.data, d, f, _ZERO,
                        _where(plan, QB, b, h, i), q_mode,
                    )  # fmt: skip  # pyright: ignore[reportCallIssue]
                else:
                    for e in range(d):
                        x = _get(plan, Q, b, h, i, e)
                        x = x + _get(plan, QB, b, h, i, e) if q_bias else x
                        qs[e] = x / f if divide else x * f
                c = _ZERO  # q . k's bias, the same for every key
                if k_bias and not along:
                    for e in range(d):
                        c += qs[e] * _get(plan, KB, b, h, e, 0)
                _scores(plan, b, h, qs, s, kt, c)
                total = _exp(plan, s, b, h, i, has_mask, _ZERO)
                if not (total >= low and total <= high):  # NaN too
                    # Again, shifted by the row's max (NaN skipped; -inf for
                    # a row of -inf, whose exp is then NaN: `fill`).
                    _scores(plan, b, h, qs, s, kt, c)
                    peak = _peak(plan, s, b, h, i, has_mask)
                    total = _exp(plan, s, b, h, i, False, peak)
                if has_fill and total != total:
                    _fill(plan, b, h, i, filler, v_bias)
                    continue
                for which, on, rows in (
                    (V, True, v_rows),
                    (VB, v_bias and not late, vb_rows),
                ):  # p @ v, then p @ v's bias added
                    if not on:
                        continue
                    add = which == VB
                    if rows:
                        _gemv_run(
                            acc.ctypes.data, dv, _where(plan, which, b, h, 0),
                            plan[which + 3], s.ctypes.data, t, add, _ZERO,
                        )  # fmt: skip  # pyright: ignore[reportCallIssue]
                        continue
                    if not add:
                        acc[:] = _ZERO
                    for j in range(t):
                        for o in range(dv):
                            acc[o] += s[j] * _get(plan, which, b, h, j, o)
                to = _where(plan, OUT, b, h, i)
                if out_rows:
                    scale_run(
                        acc.ctypes.data, to, dv, total, _ZERO,
                        _where(plan, VB, b, h, 0), out_mode,
                    )  # fmt: skip  # pyright: ignore[reportCallIssue]
                    continue
                for o in range(dv):
                    x = acc[o] / total
                    x = x + _get(plan, VB, b, h, 0, o) if late else x
                    _store(to + o * plan[OUT + 4], x)  # pyright: ignore[reportCallIssue]


_ZEROS, _ONES = np.zeros(1, np.float32), np.ones(1, np.float32)
"""What an absent operand reads (strides 0), an absent scale or fill."""


def _four(x: np.ndarray) -> np.ndarray | None:
    """`x` (..., m, n) as a view with exactly two batch dims; None where its
    batch dims do not merge without a copy."""
    if x.ndim <= 4:
        return x.reshape((1,) * (4 - x.ndim) + x.shape)
    try:
        return np.reshape(x, (-1, *x.shape[-3:]), copy=False)
    except ValueError:
        return None


def form(k: np.ndarray, kb: np.ndarray | None) -> int:
    """The scores' form for k (B, H, D, T) and its bias (broadcast to k, or
    None): module doc."""
    d, t = k.shape[-2:]
    if kb is not None and kb.strides[-1] != 0 and t > 1:
        return _PACK
    if k.strides[-1] == 4 or t == 1:
        return _ROWS
    if k.strides[-2] == 4 or d == 1:
        return _COLS
    return _PACK


def _address(x: np.ndarray) -> int:
    return int(x.__array_interface__["data"][0])


def bind(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
    out: np.ndarray, scale: np.ndarray | None, divide: bool,
    fill: np.ndarray | None, low: float, high: float,
    biases: tuple[np.ndarray | None, ...] = (None, None, None),
) -> Callable[[], None] | None:  # fmt: skip
    """One call of `attend` on float32 views: q, k, v broadcast to out's
    batch dims (..., S, D), (..., D, T), (..., T, Dv); the mask to (..., S,
    T); each bias broadcastable to its operand. None where `attend` does not
    take them (no keys, batch dims that do not merge into two without a
    copy). None of them may overlap `out`, but q exactly where out is (the
    same rows: each is read before its output is written). The call holds
    the views whose addresses its plan has."""
    t = k.shape[-1]
    if t == 0:
        return None
    full = [
        None if x is None else np.broadcast_to(x, of.shape)
        for x, of in zip(biases, (q, k, v))
    ]
    views = [_four(x) for x in (q, k, v, mask, *full, out) if x is not None]
    if any(x is None for x in views):
        return None
    q4, k4, v4 = (_four(x) for x in (q, k, v))
    assert q4 is not None and k4 is not None and v4 is not None
    d, dv = q4.shape[3], v4.shape[3]
    kb4 = None if full[1] is None else _four(full[1])
    how = form(k4, kb4)
    flags = sum(
        bit
        for bit, on in (
            (HAS_MASK, mask is not None),
            (DIVIDE, divide),
            (HAS_FILL, fill is not None),
            (Q_BIAS, biases[0] is not None),
            (K_BIAS, biases[1] is not None),
            (V_BIAS, biases[2] is not None),
        )
        if on
    )
    b, h, s = q4.shape[:3]
    scratch = np.empty(d + t + dv + (d * t if how == _PACK else 0), np.float32)
    plan = np.zeros(_OPERANDS + 5 * 8, np.int64)
    plan[:6] = b, h, s, d, t, dv
    plan[_FLAGS], plan[_FORM] = flags, how
    plan[_SCALE] = _address(_ONES if scale is None else scale)
    plan[_FILL] = _address(_ONES if fill is None else fill)
    plan[_SCRATCH] = _address(scratch)
    for at, x in zip((Q, K, V, MASK, QB, KB, VB, OUT), (q, k, v, mask, *full, out)):
        x4 = None if x is None else _four(x)
        if x4 is None:
            plan[at] = _address(_ZEROS)  # strides 0
        else:
            plan[at] = _address(x4)
            plan[at + 1 : at + 5] = x4.strides
    lo, hi = np.float32(low), np.float32(high)
    held = (views, scale, fill, scratch)

    def call(plan: np.ndarray = plan, held: object = held) -> None:
        attend(plan, lo, hi)

    return call
