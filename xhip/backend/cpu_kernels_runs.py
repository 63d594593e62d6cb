"""Runs of float32 vectors as LLVM IR (numba intrinsics) for the fused
attention's kernels (`cpu_kernels_attention`): the exp of a row of scores
(`exp_run`, `vec_exp`), a row scaled with biases added (`scale_run`), and
k's transposed view packed (`gather_run`, `transpose16`). Written as IR so
that each step is one 16-lane vector: numba's loops kept sums in memory and
did not gather or shuffle. Their callers call
`cpu_kernels_rows.wide_vectors()`, or LLVM may split the 512-bit vectors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from xhip.backend.cpu_kernels_rows import (  # pyright: ignore[reportPrivateUsage]
    _EXP_MAX,
    _EXP_P,
    _LN2_HI,
    _LN2_LO,
    _LOG2E,
)

LANE = 16
"""Floats a vector (512 bits)."""
_F = np.float32


FLUSH = _F(-87.33)
"""Below this the attention's exp is 0 (`vec_exp`): what `exp32` would
give there are subnormals, under 1.2e-38, which leave the row sums (at least
`cpu_attention.SUM_MIN`, else the shifted pass) unchanged in float32."""


def vec_exp(builder: Any, x: Any) -> Any:
    """`cpu_kernels_rows.exp32` of a vector of `LANE` floats, as LLVM IR,
    but 0 below `FLUSH` rather than subnormal: one power of two, not two
    (21 vector operations rather than 28)."""
    vec = x.type
    f32, i32 = ir.FloatType(), ir.IntType(32)
    ivec = ir.VectorType(i32, LANE)
    fma = cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(vec, [vec] * 3), "llvm.fmuladd.v16f32"
    )
    floor = cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(vec, [vec]), "llvm.floor.v16f32"
    )

    def splat(c: Any) -> Any:
        return ir.Constant(vec, [f32(float(c))] * LANE)

    top = splat(_EXP_MAX)
    # NaN to `top` here, and back to NaN at the end; -inf and the flushed
    # go to 0 whatever the power of two makes of them.
    c = builder.select(builder.fcmp_ordered("<", x, top), x, top)
    n = builder.call(floor, [builder.call(fma, [c, splat(_LOG2E), splat(0.5)])])
    r = builder.call(fma, [n, splat(-_LN2_HI), c])
    r = builder.call(fma, [n, splat(-_LN2_LO), r])
    p = splat(_EXP_P[0])
    for a in _EXP_P[1:]:
        p = builder.call(fma, [p, r, splat(a)])
    p = builder.fadd(builder.call(fma, [p, builder.fmul(r, r), r]), splat(1.0))
    # n at most 128, whose bits are inf's: inf from 88.38 on rather than the
    # largest floats, a row sum over `cpu_attention.SUM_MAX` (the shifted
    # pass, whose exps are at most 1) either way.
    k = builder.fptosi(n, ivec)
    bias = ir.Constant(ivec, [i32(127)] * LANE)
    shift = ir.Constant(ivec, [i32(23)] * LANE)
    power = builder.bitcast(builder.shl(builder.add(k, bias), shift), vec)
    p = builder.fmul(p, power)
    p = builder.select(builder.fcmp_ordered(">", x, splat(FLUSH)), p, splat(0.0))
    return builder.select(builder.fcmp_ordered("==", x, x), p, x)


@intrinsic
def exp_run(
    typingctx: Any, row: Any, mask: Any, has_mask: Any, n: Any, shift: Any
) -> Any:
    """row[j] = exp(row[j] (+ mask[j]) - shift) for j < n (a multiple of
    `LANE`), float32 addresses; their sum, kept in `LANE` lanes (a
    register) and added up lane by lane at the end."""
    sig = types.float32(
        types.intp, types.intp, types.boolean, types.intp, types.float32
    )

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        prow, pmask, has, n, shift = args
        f32 = ir.FloatType()
        vec = ir.VectorType(f32, LANE)
        fptr, vptr = f32.as_pointer(), vec.as_pointer()
        prow, pmask = builder.inttoptr(prow, fptr), builder.inttoptr(pmask, fptr)
        intp = n.type
        total = cgutils.alloca_once(builder, vec)  # a register after SROA
        builder.store(ir.Constant(vec, [f32(0.0)] * LANE), total)
        undef = ir.Constant(vec, ir.Undefined)
        splat = ir.Constant(ir.VectorType(ir.IntType(32), LANE), [0] * LANE)
        sv = builder.shuffle_vector(
            builder.insert_element(undef, shift, ir.IntType(32)(0)), undef, splat
        )
        with cgutils.for_range(builder, builder.udiv(n, intp(LANE))) as loop:
            at = builder.mul(loop.index, intp(LANE))
            slot = builder.bitcast(builder.gep(prow, [at]), vptr)
            x = cgutils.alloca_once(builder, vec)
            builder.store(builder.load(slot, align=4), x)
            with builder.if_then(has):
                at_mask = builder.bitcast(builder.gep(pmask, [at]), vptr)
                m = builder.load(at_mask, align=4)
                builder.store(builder.fadd(builder.load(x), m), x)
            e = vec_exp(builder, builder.fsub(builder.load(x), sv))
            builder.store(e, slot, align=4)
            builder.store(builder.fadd(builder.load(total), e), total)
        acc = builder.load(total)
        result = builder.extract_element(acc, ir.IntType(32)(0))
        for lane in range(1, LANE):
            result = builder.fadd(
                result, builder.extract_element(acc, ir.IntType(32)(lane))
            )
        return result

    return sig, codegen


ADD_FIRST, ADD_LAST, DIVIDE = 1, 2, 4
"""`scale_run`'s modes: add[j] before the scaling (q's bias), after it
(v's at the outputs); divide by the factor rather than multiply."""


@intrinsic
def scale_run(
    typingctx: Any, src: Any, dst: Any, n: Any, factor: Any, plus: Any, add: Any,
    mode: Any,
) -> Any:  # fmt: skip
    """dst[j] = (src[j] (+ add[j])) * factor (or / factor) + plus (+ add[j])
    for j < n as `mode` says (`ADD_FIRST`, `ADD_LAST`, `DIVIDE`), float32
    addresses, `LANE` at a time, the rest one by one: a row of queries, of
    k or v packed (k's bias along D: `plus`), or of outputs."""
    sig = types.void(
        types.intp, types.intp, types.intp, types.float32, types.float32,
        types.intp, types.intp,
    )  # fmt: skip

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        psrc, pdst, n, factor, plus, padd, mode = args
        f32 = ir.FloatType()
        vec = ir.VectorType(f32, LANE)
        fptr, vptr = f32.as_pointer(), vec.as_pointer()
        psrc, pdst = builder.inttoptr(psrc, fptr), builder.inttoptr(pdst, fptr)
        padd = builder.inttoptr(padd, fptr)
        intp = n.type
        undef = ir.Constant(vec, ir.Undefined)
        splat = ir.Constant(ir.VectorType(ir.IntType(32), LANE), [0] * LANE)

        def spread(x: Any) -> Any:
            one = builder.insert_element(undef, x, ir.IntType(32)(0))
            return builder.shuffle_vector(one, undef, splat)

        def flag(bit: int) -> Any:
            return builder.icmp_unsigned("!=", builder.and_(mode, intp(bit)), intp(0))

        first, last, divide = flag(ADD_FIRST), flag(ADD_LAST), flag(DIVIDE)

        def store(at: Any, to: Any, x: Any, f: Any, p: Any) -> None:
            """The row's formula at `at` of x (a vector or a float) into `to`."""
            y = cgutils.alloca_once(builder, x.type)  # a register after SROA
            builder.store(x, y)

            def add() -> None:
                at_add = builder.bitcast(builder.gep(padd, [at]), x.type.as_pointer())
                a = builder.load(at_add, align=4)
                builder.store(builder.fadd(builder.load(y), a), y)

            with builder.if_then(first):
                add()
            with builder.if_else(divide) as (over, times):  # a branch: fdiv is slow
                with over:
                    builder.store(builder.fdiv(builder.load(y), f), y)
                with times:
                    builder.store(builder.fmul(builder.load(y), f), y)
            builder.store(builder.fadd(builder.load(y), p), y)
            with builder.if_then(last):
                add()
            builder.store(builder.load(y), to, align=4)

        whole = builder.udiv(n, intp(LANE))
        with cgutils.for_range(builder, whole) as loop:
            at = builder.mul(loop.index, intp(LANE))
            x = builder.load(builder.bitcast(builder.gep(psrc, [at]), vptr), align=4)
            to = builder.bitcast(builder.gep(pdst, [at]), vptr)
            store(at, to, x, spread(factor), spread(plus))
        start = builder.mul(whole, intp(LANE))
        with cgutils.for_range(builder, builder.sub(n, start)) as loop:
            at = builder.add(start, loop.index)
            x = builder.load(builder.gep(psrc, [at]))
            store(at, builder.gep(pdst, [at]), x, factor, plus)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def add_run(typingctx: Any, dst: Any, src: Any, n: Any) -> Any:
    """dst[j] += src[j] for j < n, float32 addresses, `LANE` at a time, the
    rest one by one: a GEMM's bias on a row of its outputs (numba's loop
    over a strided view stayed scalar, half the GEMM's time at k = 32)."""
    sig = types.void(types.intp, types.intp, types.intp)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pdst, psrc, n = args
        f32 = ir.FloatType()
        vec = ir.VectorType(f32, LANE)
        fptr, vptr = f32.as_pointer(), vec.as_pointer()
        pdst, psrc = builder.inttoptr(pdst, fptr), builder.inttoptr(psrc, fptr)
        intp = n.type
        whole = builder.udiv(n, intp(LANE))
        with cgutils.for_range(builder, whole) as loop:
            at = builder.mul(loop.index, intp(LANE))
            to = builder.bitcast(builder.gep(pdst, [at]), vptr)
            x = builder.load(builder.bitcast(builder.gep(psrc, [at]), vptr), align=4)
            builder.store(builder.fadd(builder.load(to, align=4), x), to, align=4)
        start = builder.mul(whole, intp(LANE))
        with cgutils.for_range(builder, builder.sub(n, start)) as loop:
            at = builder.add(start, loop.index)
            to = builder.gep(pdst, [at])
            builder.store(
                builder.fadd(builder.load(to), builder.load(builder.gep(psrc, [at]))),
                to,
            )
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def gather_run(typingctx: Any, src: Any, step: Any, dst: Any, n: Any, plus: Any) -> Any:
    """dst[j] = the float at src + j * step (bytes) + plus for j < n, float32
    addresses: `LANE` a gather, the rest one by one (a transposing copy,
    k's bias along D added)."""
    sig = types.void(types.intp, types.intp, types.intp, types.intp, types.float32)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        psrc, step, pdst, n, plus = args
        f32, i1, i32 = ir.FloatType(), ir.IntType(1), ir.IntType(32)
        vec = ir.VectorType(f32, LANE)
        fptr = f32.as_pointer()
        intp = n.type
        ivec = ir.VectorType(intp, LANE)
        pvec = ir.VectorType(fptr, LANE)
        gather = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(vec, [pvec, i32, ir.VectorType(i1, LANE), vec]),
            "llvm.masked.gather.v16f32.v16p0f32",
        )
        undef = ir.Constant(ivec, ir.Undefined)
        zeros = ir.Constant(ir.VectorType(i32, LANE), [0] * LANE)

        def splat(x: Any) -> Any:
            one = builder.insert_element(undef, x, i32(0))
            return builder.shuffle_vector(one, undef, zeros)

        lanes = builder.mul(ir.Constant(ivec, list(range(LANE))), splat(step))
        fundef = ir.Constant(vec, ir.Undefined)
        pv = builder.shuffle_vector(
            builder.insert_element(fundef, plus, i32(0)), fundef, zeros
        )
        every = ir.Constant(ir.VectorType(i1, LANE), [1] * LANE)
        out = builder.inttoptr(pdst, fptr)
        whole = builder.udiv(n, intp(LANE))
        with cgutils.for_range(builder, whole) as loop:
            at = builder.mul(loop.index, intp(LANE))
            first = builder.add(psrc, builder.mul(at, step))
            ptrs = builder.inttoptr(builder.add(splat(first), lanes), pvec)
            x = builder.call(gather, [ptrs, i32(4), every, ir.Constant(vec, None)])
            x = builder.fadd(x, pv)
            slot = builder.bitcast(builder.gep(out, [at]), vec.as_pointer())
            builder.store(x, slot, align=4)
        start = builder.mul(whole, intp(LANE))
        with cgutils.for_range(builder, builder.sub(n, start)) as loop:
            at = builder.add(start, loop.index)
            x = builder.load(
                builder.inttoptr(builder.add(psrc, builder.mul(at, step)), fptr)
            )
            builder.store(builder.fadd(x, plus), builder.gep(out, [at]))
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def transpose16(
    typingctx: Any, src: Any, step: Any, dst: Any, ld: Any, bias: Any, has: Any
) -> Any:
    """dst[i, j] = src[j, i] (+ bias[i] with `has`) for i, j < `LANE`:
    float32 addresses, `step` and `ld` the rows' strides in bytes. Sixteen
    rows loaded, transposed by four rounds of two-vector shuffles (lanes
    `b` apart swapped between rows `b` apart), stored: k's transposed view
    packed at 4 floats a cycle, where gathers do one every two."""
    sig = types.void(
        types.intp, types.intp, types.intp, types.intp, types.intp, types.boolean
    )

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        psrc, step, pdst, ld, pbias, has = args
        f32, i32 = ir.FloatType(), ir.IntType(32)
        vec = ir.VectorType(f32, LANE)
        vptr = vec.as_pointer()
        intp = step.type

        def at(base: Any, stride: Any, i: int) -> Any:
            address = builder.add(base, builder.mul(stride, intp(i)))
            return builder.inttoptr(address, vptr)

        slot = cgutils.alloca_once(builder, vec)  # a register after SROA
        builder.store(ir.Constant(vec, [f32(0.0)] * LANE), slot)
        with builder.if_then(has):
            builder.store(builder.load(builder.inttoptr(pbias, vptr), align=4), slot)
        plus = builder.load(slot)
        rows = [
            builder.fadd(builder.load(at(psrc, step, j), align=4), plus)
            for j in range(LANE)
        ]
        width = 1
        while width < LANE:
            for i in range(LANE):
                if i & width:
                    continue
                a, b = rows[i], rows[i + width]
                # Lane j of the pair: from a where j & width is clear, else
                # from b's lane j - width; and the other way round.
                low = [j if not j & width else LANE + j - width for j in range(LANE)]
                high = [j + width if not j & width else LANE + j for j in range(LANE)]
                rows[i] = builder.shuffle_vector(
                    a, b, ir.Constant(ir.VectorType(i32, LANE), low)
                )
                rows[i + width] = builder.shuffle_vector(
                    a, b, ir.Constant(ir.VectorType(i32, LANE), high)
                )
            width *= 2
        for i, row in enumerate(rows):
            builder.store(row, at(pdst, ld, i), align=4)
        return context.get_dummy_value()

    return sig, codegen
