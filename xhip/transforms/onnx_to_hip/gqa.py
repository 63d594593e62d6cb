"""GroupQueryAttention and `com.microsoft.RotaryEmbedding` -> hip ops in
tensor mode, as ORT's CPU EP computes them.

`onnx.GroupQueryAttention` (Q, K, V (B, S, H * D), or packed in `query` and
cut out with `hip.slice`):

    first = S == total_sequence_length (index arithmetic; read back if data)
    positions (B, S), lengths (B,) = `hip.gqa_positions`(seqlens_k): batch b
        had past_b = 0 keys (first prompt) or seqlens_k[b] + 1 - S before
    `do_rotary`: Q and K each a `hip.rotary_embedding` at those positions
    present_key/value (B, Hkv, max(total, P), D) = `hip.kv_cache_update`(K or
        V, lengths, past): past's first past_b rows, the new rows, zeros
    Y = `onnx.Attention`(Q (B, Hq, S, D), present_key, present_value,
        attention_bias, nonpad_kv_seqlen = lengths), causal, converted in
        place by its own pattern: query s of batch b sees the keys up to
        past_b + s, the last `local_window_size` of them (its own included)
    output = Y as (B, S, Hq * D)

`smooth_softmax` and `head_sink` add one logit to each softmax (0, or the
head's sink): there the scores go to `hip.attention_softmax`'s `biased`
stage, a column of the sink is concatenated, `hip.miopen.softmax` runs over
both and the column is cut off again (`_sink_attention`).

float16 as ORT's float16 kernel computes it: the rotary and the KV cache in
float16, then Q and the presents (and `attention_bias`, `head_sink`) cast to
float32, the attention in float32 and Y rounded to float16 once.

`com.microsoft.RotaryEmbedding` is one `hip.rotary_embedding` at
position_ids (B, S), or at first[0] + s for the (1,) form (a `hip.range`);
`scale` is accepted and unused, as ORT's CPU EP does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    f16,
    f32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index
from xhip.transforms.onnx_to_hip.attention import (
    ConvertAttention,
    Emitter,
    group_heads,
    ungroup_heads,
)
from xhip.transforms.onnx_to_hip.shapes import shape_operand
from xhip.transforms.onnx_to_hip.support import OnnxPattern, Unsupported, ranked


def _si64(value: int) -> IntegerAttr:
    return IntegerAttr(value, IntegerType(64, Signedness.SIGNED))


def _static(value: Index, what: str) -> int:
    if not isinstance(value, int):
        raise Unsupported(f"{what} must be static")
    return value


@dataclass(frozen=True)
class _Core:
    """The attention of a step: Q (B, Hq, S, D) over the present keys and
    values (B, Hkv, T, D); query s of batch b sees the keys up to
    lengths[b] - S + s (`causal`), `window` of them back (-1: all)."""

    q: SSAValue
    key: SSAValue
    value: SSAValue
    lengths: SSAValue
    bias: SSAValue | None
    scale: float
    softcap: float
    causal: int
    window: int


def _attention(op: onnx.GroupQueryAttentionOp, core: _Core) -> onnx.AttentionOp:
    """`core` as an `onnx.Attention` (Y (B, Hq, S, D)), named as `op`."""
    q_type = ranked(core.q, "query")
    name = op.attributes.get("onnx_node_name")
    bias = core.bias
    return onnx.AttentionOp.build(
        operands=[
            core.q,
            core.key,
            core.value,
            [bias] if bias is not None else [],
            [],
            [],
            [core.lengths],
        ],
        result_types=[q_type, [], [], []],
        properties={
            "is_causal": _si64(core.causal),
            "scale": FloatAttr(core.scale, f32),
            "softcap": FloatAttr(core.softcap, f32),
            "left_window_size": _si64(core.window),
        },
        attributes={"onnx_node_name": name} if name is not None else {},
    )


def _sink_attention(e: Emitter, core: _Core, sink: SSAValue | None) -> SSAValue:
    """`core` with one more logit in each softmax, `sink[h]` (0 without):
    the scores up to their bias (`hip.attention_softmax`'s `biased` stage),
    a column of the sink after them, a softmax, the column cut off again."""
    ix = e.ix
    element = ranked(core.q, "query").get_element_type()
    batch, heads, seq, head = e.sizes(core.q)
    kv_heads, total = e.sizes(core.key, (1, 2))
    groups = _static(heads, "heads") // _static(kv_heads, "KV heads")
    groups = groups if kv_heads != 1 else 1  # one KV head: the matmul broadcasts
    kt = e.emit(
        element,
        [batch, kv_heads, head, total],
        lambda out: hip.TransposeOp.make(
            e.ctx, src=core.key, out=out, dim0=ix.value(2), dim1=ix.value(3)
        ),
    )
    qg = group_heads(e, core.q, groups)
    scores = e.emit(
        element,
        [*e.sizes(qg, (0, 1, 2)), total],
        lambda out: hip.MatmulOp.make(e.ctx, a=qg, b=kt, out=out),
    )
    scores = ungroup_heads(e, scores, groups, seq)
    shape = [batch, heads, seq, total]
    biased = e.emit(
        element,
        shape,
        lambda out: hip.AttentionSoftmaxOp.make(
            e.ctx,
            scores=scores,
            mask=core.bias,
            nonpad=core.lengths,
            out=out,
            past=ix.value(0),
            scale=core.scale,
            softcap=core.softcap,
            is_causal=bool(core.causal),
            left_window=core.window,
            stage=hip.ATTENTION_STAGES.index("biased"),
        ),
    )
    column = [batch, heads, seq, 1]
    if sink is None:
        sinks = e.emit(
            element, column, lambda out: hip.FillOp.make(e.ctx, out=out, value=0.0)
        )
    else:
        per_head = e.expand(sink, [[0, 1, 2]], [heads, 1, 1])
        sinks = e.emit(
            element,
            column,
            lambda out: hip.ExpandOp.make(e.ctx, src=per_head, out=out),
        )
    wide = [batch, heads, seq, ix.add(total, 1)]
    joined = e.emit(
        element,
        wide,
        lambda out: hip.ConcatOp.make(e.ctx, inputs=[biased, sinks], out=out, axis=3),
    )
    soft = e.emit(
        element, wide, lambda out: hip.SoftmaxOp.make(e.ctx, src=joined, out=out)
    )
    probs = e.emit(
        element,
        shape,
        lambda out: hip.SliceOp.make(
            e.ctx,
            src=soft,
            out=out,
            starts=[ix.value(0)] * 4,
            steps=[1, 1, 1, 1],
        ),
    )
    grouped = group_heads(e, probs, groups)
    y = e.emit(
        element,
        [*e.sizes(grouped, (0, 1, 2)), head],
        lambda out: hip.MatmulOp.make(e.ctx, a=grouped, b=core.value, out=out),
    )
    return ungroup_heads(e, y, groups, seq)


class ConvertGroupQueryAttention(OnnxPattern[onnx.GroupQueryAttentionOp]):
    """`onnx.GroupQueryAttention` -> positions, rotary, KV cache, attention
    (module doc)."""

    def convert(
        self, op: onnx.GroupQueryAttentionOp, rewriter: PatternRewriter
    ) -> None:
        q_type = ranked(op.query, "query")
        element = q_type.get_element_type()
        if element not in (f32, f16):
            raise Unsupported(
                f"query has element type {element}; float32 or float16 is supported"
            )
        if len(q_type.get_shape()) != 3:
            raise Unsupported("query must be 3-D (batch, sequence, hidden)")
        heads, kv_heads = op.get_int("num_heads"), op.get_int("kv_num_heads")
        if heads < 1 or kv_heads < 1 or heads % kv_heads:
            raise Unsupported(
                f"num_heads {heads} must be a positive multiple of kv_num_heads "
                f"{kv_heads}"
            )
        if op.output_qk is not None or op.get_int("qk_output"):
            raise Unsupported("the output_qk output (qk_output) is not supported")
        if op.head_sink is not None:
            sink_type = ranked(op.head_sink, "head_sink")
            if sink_type.get_element_type() != element or sink_type.get_shape() not in (
                (heads,),
                (DYNAMIC_INDEX,),
            ):
                raise Unsupported(f"head_sink must be ({heads},) of query's type")
        if op.position_ids is not None:
            raise Unsupported("the position_ids input is not supported")
        if (op.key is None) != (op.value is None):
            raise Unsupported("key and value must be given together")
        if (op.past_key is None) != (op.past_value is None):
            raise Unsupported("past_key and past_value must be given together")
        seqlens = ranked(op.seqlens_k, "seqlens_k")
        if (
            seqlens.get_element_type() != IntegerType(32)
            or len(seqlens.get_shape()) != 1
        ):
            raise Unsupported("seqlens_k must be a 1-D int32 tensor")
        causal = op.get_int("causal")
        window = op.get_int("local_window_size")
        if causal not in (0, 1) or (not causal and window > 0):
            raise Unsupported("causal must be 0 or 1, and 1 with a local_window_size")

        e = Emitter(self, op, rewriter)
        ix = e.ix
        batch, seq, hidden = e.sizes(op.query)
        hidden = _static(hidden, "the hidden size of query")
        packed = op.key is None
        parts = heads + 2 * kv_heads if packed else heads
        if hidden % parts:
            raise Unsupported(f"query's hidden size {hidden} is not {parts} heads")
        head = hidden // parts
        if packed:
            q, k, v = (
                self._cut(e, op.query, start * head, count * head, element)
                for start, count in (
                    (0, heads),
                    (heads, kv_heads),
                    (heads + kv_heads, kv_heads),
                )
            )
        else:
            assert op.key is not None and op.value is not None
            q, k, v = op.query, op.key, op.value
            for name, value in (("key", k), ("value", v)):
                shape = ranked(value, name).get_shape()
                if len(shape) != 3 or shape[2] != kv_heads * head:
                    raise Unsupported(
                        f"{name} must be (batch, sequence, {kv_heads * head})"
                    )
                if ranked(value, name).get_element_type() != element:
                    raise Unsupported(f"{name} has another element type than query")

        total = shape_operand(
            self, op, rewriter, op.total_sequence_length, "total_sequence_length"
        )
        if len(total) != 1:
            raise Unsupported("total_sequence_length must have one element")
        first = ix.compare("eq", seq, total[0])
        positions = e.empty(i64, [batch, seq])
        lengths = e.empty(i64, [batch])
        steps = hip.GqaPositionsOp.make(
            e.ctx,
            seqlens=op.seqlens_k,
            positions=positions,
            lengths=lengths,
            first=ix.value(first),
        )
        rewriter.insert(steps)
        positions, lengths = steps.res

        if op.get_int("do_rotary"):
            q, k = (
                self._rotate(e, op, x, positions, n, head)
                for x, n in ((q, heads), (k, kv_heads))
            )

        present_len = total[0]
        pasts: list[SSAValue | None] = [op.past_key, op.past_value]
        if op.past_key is not None:
            for name, past in (
                ("past_key", op.past_key),
                ("past_value", op.past_value),
            ):
                assert past is not None
                shape = ranked(past, name).get_shape()
                if len(shape) != 4 or any(
                    shape[i] not in (n, DYNAMIC_INDEX)
                    for i, n in ((1, kv_heads), (3, head))
                ):
                    raise Unsupported(
                        f"{name} must be (batch, {kv_heads}, past, {head})"
                    )
            present_len = ix.max(present_len, ix.dim(op.past_key, 2))
        presents = [
            e.emit(
                element,
                [batch, kv_heads, present_len, head],
                lambda out, new=new, past=past: hip.KvCacheUpdateOp.make(
                    e.ctx,
                    new=e.expand(new, [[0], [1], [2, 3]], [batch, seq, kv_heads, head]),
                    lengths=lengths,
                    past=past,
                    present=out,
                ),
            )
            for new, past in zip((k, v), pasts, strict=True)
        ]

        q4 = e.permute(
            e.expand(q, [[0], [1], [2, 3]], [batch, seq, heads, head]), [0, 2, 1, 3]
        )
        sink = op.head_sink
        bias = op.attention_bias
        if element == f16:
            # ORT's float16 kernel: float32 from here on, rounded once.
            q4, *kv = (self._widen(e, x) for x in (q4, *presents))
            bias = None if bias is None else self._widen(e, bias)
            sink = None if sink is None else self._widen(e, sink)
        else:
            kv = presents
        core = _Core(
            q=q4,
            key=kv[0],
            value=kv[1],
            lengths=lengths,
            bias=bias,
            scale=FloatAttr(
                op.get_float("scale") or 1 / math.sqrt(head), f32
            ).value.data,
            softcap=op.get_float("softcap"),
            causal=causal,
            window=window - 1 if window > 0 else -1,
        )
        if op.get_int("smooth_softmax") == 1 or sink is not None:
            y4, attention = _sink_attention(e, core, sink), None
        else:
            attention = _attention(op, core)
            rewriter.insert(attention)
            y4 = attention.results[0]
        if element == f16:
            y4 = self._widen(e, y4, f16)
        y = e.collapse(e.permute(y4, [0, 2, 1, 3]), [[0], [1], [2, 3]])
        results = [e.cast_to(y, op.output)]
        for result, present in zip(
            (op.present_key, op.present_value), presents, strict=True
        ):
            if result is not None:
                results.append(e.cast_to(present, result))
        rewriter.replace(op, [], results)
        if attention is not None:
            ConvertAttention(self.state).convert(attention, PatternRewriter(attention))

    @staticmethod
    def _widen(e: Emitter, x: SSAValue, element: Attribute = f32) -> SSAValue:
        """`x` cast to `element` (float32 unless given)."""
        return e.emit(
            element, e.sizes(x), lambda out: hip.CastOp.make(e.ctx, src=x, out=out)
        )

    @staticmethod
    def _cut(
        e: Emitter, packed: SSAValue, start: int, size: int, element: Attribute
    ) -> SSAValue:
        """`packed[:, :, start:start + size]`."""
        batch, seq = e.sizes(packed, (0, 1))
        return e.emit(
            element,
            [batch, seq, size],
            lambda out: hip.SliceOp.make(
                e.ctx,
                src=packed,
                out=out,
                starts=[e.ix.value(0), e.ix.value(0), e.ix.value(start)],
                steps=[1, 1, 1],
            ),
        )

    @staticmethod
    def _rotate(
        e: Emitter,
        op: onnx.GroupQueryAttentionOp,
        x: SSAValue,
        positions: SSAValue,
        heads: int,
        head: int,
    ) -> SSAValue:
        """`x` (B, S, heads * head) rotated at `positions` (B, S)."""
        cos, sin = op.cos_cache, op.sin_cache
        if cos is None or sin is None:
            raise Unsupported("do_rotary needs cos_cache and sin_cache")
        element = ranked(x, "query").get_element_type()
        half = _rotary_half(cos, sin, element, 2)
        if 2 * half > head:
            raise Unsupported(f"cos_cache's {half} columns exceed half of head {head}")
        return e.emit(
            element,
            e.sizes(x),
            lambda out: hip.RotaryEmbeddingOp.make(
                e.ctx,
                x=x,
                cos=cos,
                sin=sin,
                position_ids=positions,
                out=out,
                interleaved=bool(op.get_int("rotary_interleaved")),
                rotary_dim=2 * half,
                num_heads=heads,
            ),
        )


def _rotary_half(cos: SSAValue, sin: SSAValue, element: Attribute, rank: int) -> int:
    """The caches' static last dim (R / 2), checked: `rank`-D, `element`."""
    caches = [ranked(c, "cos_cache or sin_cache") for c in (cos, sin)]
    half = caches[0].get_shape()[-1]
    if half == DYNAMIC_INDEX or any(
        len(c.get_shape()) != rank
        or c.get_shape()[-1] != half
        or c.get_element_type() != element
        for c in caches
    ):
        raise Unsupported(
            f"cos_cache and sin_cache must be {rank}-D of the input's element type, "
            f"with one static last dim"
        )
    return half


class ConvertMsRotaryEmbedding(OnnxPattern[onnx.MsRotaryEmbeddingOp]):
    """`com.microsoft.RotaryEmbedding` -> `hip.rotary_embedding`."""

    def convert(self, op: onnx.MsRotaryEmbeddingOp, rewriter: PatternRewriter) -> None:
        x_type = ranked(op.input, "the input")
        element = x_type.get_element_type()
        if not isinstance(element, AnyFloat):
            raise Unsupported(
                f"the input has element type {element}; a float is needed"
            )
        if op.get_int("is_packed_batching"):
            raise Unsupported("is_packed_batching is not supported")
        ids = ranked(op.position_ids, "position_ids")
        if (
            ids.get_element_type() != i64
            or ids.get_shape()
            not in (
                (1,),
                (DYNAMIC_INDEX,),
            )
            and len(ids.get_shape()) != 2
        ):
            raise Unsupported(
                "position_ids must be int64, (batch, sequence) or the first "
                "position (1,)"
            )
        half = _rotary_half(op.cos_cache, op.sin_cache, element, 2)
        shape = x_type.get_shape()
        heads = op.get_int("num_heads")
        rotary = op.get_int("rotary_embedding_dim") or 2 * half
        if rotary != 2 * half:
            raise Unsupported(
                f"rotary_embedding_dim {rotary} is not twice the caches' {half} columns"
            )
        if op.get_int("rotary_embedding_dim") and not heads:
            raise Unsupported("rotary_embedding_dim needs num_heads")
        if len(shape) == 3 and shape[2] != DYNAMIC_INDEX:
            heads = heads or shape[2] // rotary
            if shape[2] % heads or shape[2] // heads < rotary:
                raise Unsupported(
                    f"the hidden size {shape[2]} is not {heads} heads of at least "
                    f"{rotary}"
                )
        elif len(shape) == 4 and shape[3] != DYNAMIC_INDEX and shape[3] < rotary:
            raise Unsupported(f"the head size {shape[3]} is less than {rotary}")
        elif len(shape) not in (3, 4):
            raise Unsupported("the input must be 3-D or 4-D")
        e = Emitter(self, op, rewriter)
        positions = op.position_ids
        if len(ids.get_shape()) == 1:
            positions = self._from_first(
                e, positions, *e.sizes(op.input, (0, 1) if len(shape) == 3 else (0, 2))
            )
        x = op.input
        if len(shape) == 3 and not heads:
            # A hidden size known at run time, heads of the caches' 2 * half:
            # (B, S, H * R) seen as (B * S, H, 1, R), positions as (B * S, 1).
            x, positions = self._tokens_as_batch(e, x, positions, rotary)
        y = e.emit(
            element,
            e.sizes(x),
            lambda out: hip.RotaryEmbeddingOp.make(
                e.ctx,
                x=x,
                cos=op.cos_cache,
                sin=op.sin_cache,
                position_ids=positions,
                out=out,
                interleaved=bool(op.get_int("interleaved")),
                rotary_dim=rotary,
                num_heads=heads if len(shape) == 3 and heads else None,
            ),
        )
        if x is not op.input:
            flat = e.collapse(y, [[0], [1, 2, 3]])
            y = e.expand(flat, [[0, 1], [2]], e.sizes(op.input))
        rewriter.replace(op, [], [e.cast_to(y, op.output)])

    @staticmethod
    def _tokens_as_batch(
        e: Emitter, x: SSAValue, positions: SSAValue, head: int
    ) -> tuple[SSAValue, SSAValue]:
        """(B, S, H * D) as (B * S, H, 1, D), (B, S) positions as (B * S, 1):
        views, for the 4-D form when only D is known."""
        tokens = e.collapse(x, [[0, 1], [2]])
        count, hidden = e.sizes(tokens)
        heads = e.ix.trunc_div(hidden, head)
        x4 = e.expand(tokens, [[0], [1, 2, 3]], [count, heads, 1, head])
        flat = e.collapse(positions, [[0, 1]])
        return x4, e.expand(flat, [[0, 1]], [count, 1])

    def _from_first(
        self, e: Emitter, first: SSAValue, batch: Index, seq: Index
    ) -> SSAValue:
        """(B, S) positions first[0] + s: a `hip.range` of S, expanded."""
        one = self.state.folder.get(
            e.rewriter,
            e.op,
            DenseIntOrFPElementsAttr.from_list(TensorType(i64, []), [1]),
        )
        start = e.collapse(first, [])
        steps = e.emit(
            i64,
            [seq],
            lambda out: hip.RangeOp.make(e.ctx, start=start, delta=one, out=out),
        )
        row = e.expand(steps, [[0, 1]], [1, seq])
        return e.emit(
            i64,
            [batch, seq],
            lambda out: hip.ExpandOp.make(e.ctx, src=row, out=out),
        )
