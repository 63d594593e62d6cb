"""ONNX Runtime's BERT ops -> hip ops in tensor mode, as ORT's CPU EP
computes them.

`onnx.MultiHeadAttention` and `onnx.MsAttention` (`com.microsoft.Attention`)
each become Q, K, V (B, N, L, H) and one `onnx.Attention` over them, converted
in place by its own pattern (`attention.py`):

    MultiHeadAttention: Q (B, S, D) and K, V (B, L, D) each plus its third of
        `bias`, split into heads and permuted; K, V (B, N, L, H) as given
        (the bias only on Q, as ORT); QKV packed in query (B, L, N, 3, H) or
        KV in key (B, L, N, 2, H) cut out with `hip.slice` (ORT's CPU EP
        refuses the packed forms; they are its CUDA EP's)
    Attention: `input @ weights + bias` (B, S, Dq + Dk + Dv) cut by
        `qkv_hidden_sizes`; `past` (2, B, N, P, H) cut into past_key/value,
        `present` the two present halves stacked
    mask: the key padding mask / mask index as ORT's `PrepareMask` makes it,
        an additive float bias (B, 1, S or 1, T): 0 where a key is seen,
        `mask_filter_value` where not, from raw 0/1 masks (B, T) and (B, S, T)
        (`hip.miopen.greater`, `hip.miopen.where`) or key counts (B,) and end
        and start positions (2B,) (a `hip.range` compared with them); plus
        `attention_bias`; `unidirectional` is Attention's `is_causal` about
        the past (ORT: the lowest float there, so exp gives 0 as for -inf)

`onnx.EmbedLayerNormalization`: `hip.gather` of the word, position (at
position_ids, or a `hip.range` of S) and segment rows, added, then
`hip.miopen.layer_norm`; `mask_index` counts each row's ones in `mask`
(`hip.miopen.equal`, `hip.cast`, `hip.miopen.reduce_sum`), zeros without one.

float16: ORT's CPU EP has no float16 kernel for these three and runs its
float32 one between casts; so does xhip (`widen.py`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    f32,
    i32,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index
from xhip.transforms.onnx_to_hip.attention import (
    ConvertAttention,
    Emitter,
)
from xhip.transforms.onnx_to_hip.support import OnnxPattern, Unsupported, ranked
from xhip.transforms.onnx_to_hip.widen import convert_widened


def _si64(value: int) -> IntegerAttr:
    return IntegerAttr(value, IntegerType(64, Signedness.SIGNED))


def _static(value: Index, what: str) -> int:
    if not isinstance(value, int):
        raise Unsupported(f"{what} must be static")
    return value


def _constant(e: Emitter, element: Attribute, value: float) -> SSAValue:
    """A 0-D constant: int32 for `i32`, else float32 (the only float these
    conversions take)."""
    if element == i32:
        dense = DenseIntOrFPElementsAttr.from_list(TensorType(i32, []), [int(value)])
    else:
        dense = DenseIntOrFPElementsAttr.from_list(TensorType(f32, []), [value])
    return e.state.folder.get(e.rewriter, e.op, dense)


def _cut(e: Emitter, x: SSAValue, axis: int, start: Index, size: Index) -> SSAValue:
    """`x[..., start:start + size, ...]` along `axis`."""
    sizes = e.sizes(x)
    sizes[axis] = size
    starts = [e.ix.value(start if d == axis else 0) for d in range(len(sizes))]
    return e.emit(
        ranked(x, "an operand").get_element_type(),
        sizes,
        lambda out: hip.SliceOp.make(
            e.ctx, src=x, out=out, starts=starts, steps=[1] * len(sizes)
        ),
    )


def _binary(
    e: Emitter,
    op_type: type[hip.ElementwiseOp],
    lhs: SSAValue,
    rhs: SSAValue,
    sizes: Sequence[Index],
    element: Attribute,
) -> SSAValue:
    """`lhs <op> rhs`, numpy-broadcast to `sizes`."""
    return e.emit(element, sizes, lambda out: op_type.make(e.ctx, lhs, rhs, out=out))


def _heads(e: Emitter, x: SSAValue, heads: int) -> SSAValue:
    """(B, L, N * H) -> (B, N, L, H)."""
    batch, length, hidden = e.sizes(x)
    hidden = _static(hidden, "the hidden size of Q, K or V")
    if hidden % heads:
        raise Unsupported(f"hidden size {hidden} is not a multiple of {heads} heads")
    split = e.expand(x, [[0], [1], [2, 3]], [batch, length, heads, hidden // heads])
    return e.permute(split, [0, 2, 1, 3])


def _biased(e: Emitter, x: SSAValue, bias: SSAValue | None, start: int) -> SSAValue:
    """`x + bias[start:start + x's last dim]` (x as is without a bias)."""
    if bias is None:
        return x
    sizes = e.sizes(x)
    part = _cut(e, bias, 0, start, sizes[-1])
    element = ranked(x, "an operand").get_element_type()
    return _binary(e, hip.AddOp, x, part, sizes, element)


def _mask_bias(
    e: Emitter,
    mask: SSAValue,
    element: Attribute,
    batch: Index,
    seq: Index,
    total: Index,
    filter_value: float,
    starts: bool,
) -> SSAValue:
    """ORT's key padding mask as an additive bias (B, 1, S or 1, T'): 0 where
    a key is seen, `filter_value` where not. Forms: (B, T') and (B, S, T')
    raw 0/1, (B,) key counts, and (2B,) end then start positions (`starts`:
    Attention's mask index)."""
    mask_type = ranked(mask, "the mask")
    if mask_type.get_element_type() != i32:
        raise Unsupported("the key padding mask / mask index must be int32")
    shape = mask_type.get_shape()
    rank = len(shape)
    zero, filler = _constant(e, element, 0.0), _constant(e, element, filter_value)
    if rank in (2, 3):
        sizes = e.sizes(mask)
        seen = _binary(
            e, hip.GreaterOp, mask, _constant(e, i32, 0), sizes, IntegerType(1)
        )
        bias = e.emit(
            element,
            sizes,
            lambda out: hip.WhereOp.make(e.ctx, seen, zero, filler, out=out),
        )
        if rank == 2:
            return e.expand(bias, [[0], [1, 2, 3]], [sizes[0], 1, 1, sizes[1]])
        return e.expand(bias, [[0, 1], [2], [3]], [sizes[0], 1, *sizes[1:]])
    if rank != 1:
        raise Unsupported(
            "the key padding mask / mask index must be (B,), (2B,), (B, T) or (B, S, T)"
        )
    two = starts and (
        shape[0] != DYNAMIC_INDEX and isinstance(batch, int) and shape[0] == 2 * batch
    )
    if starts and shape[0] != DYNAMIC_INDEX and not isinstance(batch, int):
        raise Unsupported(
            "a mask index of static length needs a static batch: (B,) or (2B,)"
        )
    if shape[0] != DYNAMIC_INDEX and isinstance(batch, int) and not two:
        if shape[0] != batch:
            raise Unsupported(
                f"a 1-D mask must have {batch} (or {2 * batch}) elements, not "
                f"{shape[0]}"
            )
    del seq
    keys = e.emit(
        i32,
        [total],
        lambda out: hip.RangeOp.make(
            e.ctx, start=_constant(e, i32, 0), delta=_constant(e, i32, 1), out=out
        ),
    )
    flags = [batch, total]
    ends = e.expand(_cut(e, mask, 0, 0, batch) if two else mask, [[0, 1]], [batch, 1])
    seen = _binary(e, hip.LessOp, keys, ends, flags, IntegerType(1))
    if two:
        begins = e.expand(_cut(e, mask, 0, batch, batch), [[0, 1]], [batch, 1])
        after = _binary(e, hip.GreaterOrEqualOp, keys, begins, flags, IntegerType(1))
        seen = _binary(e, hip.AndOp, seen, after, flags, IntegerType(1))
    bias = e.emit(
        element,
        flags,
        lambda out: hip.WhereOp.make(e.ctx, seen, zero, filler, out=out),
    )
    return e.expand(bias, [[0], [1, 2, 3]], [batch, 1, 1, total])


def _total_bias(
    e: Emitter,
    mask: SSAValue | None,
    attention_bias: SSAValue | None,
    element: Attribute,
    sizes: tuple[Index, Index, Index, Index],
    filter_value: float,
    starts: bool,
) -> SSAValue | None:
    """The mask's bias plus `attention_bias` (B or 1, N or 1, S, T)."""
    batch, _, seq, total = sizes
    if attention_bias is not None:
        bias_type = ranked(attention_bias, "attention_bias")
        if bias_type.get_element_type() != element or len(bias_type.get_shape()) != 4:
            raise Unsupported("attention_bias must be 4-D, of the query's type")
    if mask is None:
        return attention_bias
    bias = _mask_bias(e, mask, element, batch, seq, total, filter_value, starts)
    if attention_bias is None:
        return bias
    heads = e.ix.dim(attention_bias, 1)
    both = [batch, heads, seq, total]
    return _binary(e, hip.AddOp, bias, attention_bias, both, element)


def _attend(
    pattern: OnnxPattern[onnx.MultiHeadAttentionOp] | OnnxPattern[onnx.MsAttentionOp],
    e: Emitter,
    qkv: tuple[SSAValue, SSAValue, SSAValue],
    pasts: tuple[SSAValue, SSAValue] | None,
    bias: SSAValue | None,
    scale: float,
    causal: bool,
) -> tuple[SSAValue, SSAValue, SSAValue, onnx.AttentionOp]:
    """Y (B, S, N * Hv), present key and value (B, N, T, H) of an
    `onnx.Attention` on 4-D Q, K, V, and that op, for `_finish` to convert
    once its results are used."""
    q, k, v = qkv
    q_type = ranked(q, "query")
    element = q_type.get_element_type()
    batch, heads, seq = e.sizes(q, (0, 1, 2))
    total = e.ix.dim(k, 2)
    if pasts is not None:
        total = e.ix.add(e.ix.dim(pasts[0], 2), total)
    v_head = e.ix.dim(v, 3)
    y_type = TensorType(
        element,
        [
            s if isinstance(s, int) else DYNAMIC_INDEX
            for s in (batch, heads, seq, v_head)
        ],
    )
    present = [
        TensorType(
            element,
            [
                s if isinstance(s, int) else DYNAMIC_INDEX
                for s in (batch, heads, total, e.ix.dim(x, 3))
            ],
        )
        for x in (k, v)
    ]
    name = e.op.attributes.get("onnx_node_name")
    attention = onnx.AttentionOp.build(
        operands=[
            q,
            k,
            v,
            [bias] if bias is not None else [],
            [pasts[0]] if pasts is not None else [],
            [pasts[1]] if pasts is not None else [],
            [],
        ],
        result_types=[y_type, [present[0]], [present[1]], []],
        properties={
            "is_causal": _si64(int(causal)),
            "scale": FloatAttr(scale, f32),
        },
        attributes={"onnx_node_name": name} if name is not None else {},
    )
    e.rewriter.insert(attention)
    y4, present_k, present_v = attention.results[:3]
    y = e.collapse(e.permute(y4, [0, 2, 1, 3]), [[0], [1], [2, 3]])
    return y, present_k, present_v, attention


def _finish(
    pattern: OnnxPattern[onnx.MultiHeadAttentionOp] | OnnxPattern[onnx.MsAttentionOp],
    attention: onnx.AttentionOp,
) -> None:
    """The `onnx.Attention` converted in place, once its results are used."""
    ConvertAttention(pattern.state).convert(attention, PatternRewriter(attention))


def _scale(op: onnx.OnnxOp, head: Index) -> float:
    """`scale`, or 1/sqrt(head) where it is absent or 0 (ORT's default)."""
    scale = op.get_float("scale") if "scale" in op.properties else 0.0
    if scale:
        return scale
    return FloatAttr(
        1 / math.sqrt(_static(head, "the head size (for the default scale)")), f32
    ).value.data


def _check_float(value: SSAValue, name: str) -> Attribute:
    element = ranked(value, name).get_element_type()
    if element != f32:
        raise Unsupported(
            f"{name} has element type {element}; float32 or float16 is supported"
        )
    return element


class ConvertMultiHeadAttention(OnnxPattern[onnx.MultiHeadAttentionOp]):
    """`com.microsoft.MultiHeadAttention` -> Q, K, V and `onnx.Attention`
    (module doc)."""

    def convert(self, op: onnx.MultiHeadAttentionOp, rewriter: PatternRewriter) -> None:
        if convert_widened(self, op, rewriter):
            return
        element = _check_float(op.query, "query")
        heads = op.get_int("num_heads")
        if heads < 1:
            raise Unsupported("num_heads must be positive")
        for name, value in (
            ("past_sequence_length", op.past_sequence_length),
            ("cache_indirection", op.cache_indirection),
            ("qk", op.qk),
        ):
            if value is not None:
                raise Unsupported(
                    f"{name} (buffer sharing, beam search) is not supported"
                )
        if (op.past_key is None) != (op.past_value is None):
            raise Unsupported("past_key and past_value must be given together")
        for name, value in (
            ("key", op.key),
            ("value", op.value),
            ("bias", op.bias),
            ("past_key", op.past_key),
            ("past_value", op.past_value),
        ):
            if value is not None and _check_float(value, name) != element:
                raise Unsupported(f"{name} has another element type than query")
        e = Emitter(self, op, rewriter)
        q_rank = len(ranked(op.query, "query").get_shape())
        k_rank = 0 if op.key is None else len(ranked(op.key, "key").get_shape())
        bias = op.bias
        if q_rank == 5:
            if op.key is not None or op.value is not None:
                raise Unsupported("a packed QKV query takes no key or value")
            q, k, v = self._unpack(e, op.query, 3, bias, 0)
        elif q_rank != 3:
            raise Unsupported("query must be (B, S, D) or packed QKV (B, L, N, 3, H)")
        else:
            q = _heads(e, _biased(e, op.query, bias, 0), heads)
            hidden = _static(e.ix.dim(op.query, 2), "query's hidden size")
            if k_rank == 5:
                if op.value is not None:
                    raise Unsupported("a packed KV key takes no value")
                assert op.key is not None
                k, v = self._unpack(e, op.key, 2, bias, hidden)
            elif k_rank == 3 and op.value is not None:
                assert op.key is not None
                if len(ranked(op.value, "value").get_shape()) != 3:
                    raise Unsupported("a 3-D key needs a 3-D value")
                k = _heads(e, _biased(e, op.key, bias, hidden), heads)
                v = _heads(e, _biased(e, op.value, bias, 2 * hidden), heads)
            elif k_rank == 4 and op.value is not None:
                assert op.key is not None
                if len(ranked(op.value, "value").get_shape()) != 4:
                    raise Unsupported("a 4-D key needs a 4-D value")
                k, v = op.key, op.value
            else:
                raise Unsupported(
                    "key and value must be (B, L, D), (B, N, L, H), or a packed KV "
                    "key (B, L, N, 2, H) alone"
                )
        causal = bool(op.get_int("unidirectional"))
        kv_len, q_len = e.ix.dim(k, 2), e.ix.dim(q, 2)
        if causal and isinstance(kv_len, int) and isinstance(q_len, int):
            if kv_len != q_len:
                raise Unsupported(
                    f"unidirectional with {kv_len} keys for {q_len} queries: ORT's "
                    f"CPU EP leaves the last query row unmasked there"
                )
        pasts = None
        if op.past_key is not None and op.past_value is not None:
            if k_rank == 4:
                raise Unsupported("past_key with a 4-D key (cross attention)")
            pasts = (op.past_key, op.past_value)
        batch, seq, head = e.sizes(q, (0, 2, 3))
        total = e.ix.dim(k, 2)
        if pasts is not None:
            total = e.ix.add(e.ix.dim(pasts[0], 2), total)
        attn_bias = _total_bias(
            e,
            op.key_padding_mask,
            op.attention_bias,
            element,
            (batch, heads, seq, total),
            op.get_float("mask_filter_value"),
            starts=False,
        )
        y, present_k, present_v, attention = _attend(
            self,
            e,
            (q, k, v),
            pasts,
            attn_bias,
            _scale(op, head),
            causal,
        )
        results = [e.cast_to(y, op.output)]
        for result, present in (
            (op.present_key, present_k),
            (op.present_value, present_v),
        ):
            if result is not None:
                results.append(e.cast_to(present, result))
        rewriter.replace(op, [], results)
        _finish(self, attention)

    @staticmethod
    def _unpack(
        e: Emitter, packed: SSAValue, parts: int, bias: SSAValue | None, start: int
    ) -> list[SSAValue]:
        """(B, L, N, parts, H) -> `parts` of (B, N, L, H), each plus its slice
        of `bias` (N * H from `start`, one after the other)."""
        shape = ranked(packed, "a packed input").get_shape()
        if shape[3] not in (parts, DYNAMIC_INDEX):
            raise Unsupported(f"a packed input must be (B, L, N, {parts}, H)")
        batch, length, heads, _, head = e.sizes(packed)
        heads = _static(heads, "the heads of a packed input")
        head = _static(head, "the head size of a packed input")
        element = ranked(packed, "a packed input").get_element_type()
        out: list[SSAValue] = []
        for i in range(parts):
            one = e.collapse(_cut(e, packed, 3, i, 1), [[0], [1], [2, 3], [4]])
            if bias is not None:
                part = _cut(e, bias, 0, start + i * heads * head, heads * head)
                part = e.expand(part, [[0, 1]], [heads, head])
                one = _binary(
                    e, hip.AddOp, one, part, [batch, length, heads, head], element
                )
            out.append(e.permute(one, [0, 2, 1, 3]))
        return out


class ConvertMsAttention(OnnxPattern[onnx.MsAttentionOp]):
    """`com.microsoft.Attention` -> the QKV projection, Q, K, V and
    `onnx.Attention` (module doc)."""

    def convert(self, op: onnx.MsAttentionOp, rewriter: PatternRewriter) -> None:
        if convert_widened(self, op, rewriter):
            return
        element = _check_float(op.input, "input")
        heads = op.get_int("num_heads")
        if heads < 1:
            raise Unsupported("num_heads must be positive")
        for name in ("do_rotary", "past_present_share_buffer"):
            if op.get_int(name):
                raise Unsupported(f"{name} is not supported")
        if op.past_sequence_length is not None:
            raise Unsupported("past_sequence_length (buffer sharing) is not supported")
        if len(ranked(op.input, "input").get_shape()) != 3:
            raise Unsupported("input must be (batch, sequence, hidden)")
        w_shape = ranked(op.weights, "weights").get_shape()
        if _check_float(op.weights, "weights") != element or len(w_shape) != 2:
            raise Unsupported("weights must be 2-D, of input's type")
        columns = w_shape[1]
        if columns == DYNAMIC_INDEX:
            raise Unsupported("the weights' columns must be static")
        sizes = op.get_ints("qkv_hidden_sizes") or [0, 0, 0]
        if not any(sizes):  # the attribute's stand-in for "absent"
            sizes = [columns // 3] * 3
        if (
            len(sizes) != 3
            or sum(sizes) != columns
            or any(s < 1 or s % heads for s in sizes)
            or sizes[0] != sizes[1]
        ):
            raise Unsupported(
                f"qkv_hidden_sizes {sizes} must be three multiples of {heads} "
                f"heads, Q's and K's equal, summing to the weights' {columns} "
                f"columns"
            )
        e = Emitter(self, op, rewriter)
        batch, seq = e.sizes(op.input, (0, 1))
        projected = e.emit(
            element,
            [batch, seq, columns],
            lambda out: hip.MatmulOp.make(e.ctx, a=op.input, b=op.weights, out=out),
        )
        if op.bias is not None:
            if _check_float(op.bias, "bias") != element:
                raise Unsupported("bias has another element type than input")
            projected = _binary(
                e, hip.AddOp, projected, op.bias, [batch, seq, columns], element
            )
        starts = [0, sizes[0], sizes[0] + sizes[1]]
        q, k, v = (
            _heads(e, _cut(e, projected, 2, start, size), heads)
            for start, size in zip(starts, sizes, strict=True)
        )
        pasts = None
        if op.past is not None:
            past_shape = ranked(op.past, "past").get_shape()
            if (
                _check_float(op.past, "past") != element
                or len(past_shape) != 5
                or sizes[0] != sizes[2]
            ):
                raise Unsupported(
                    "past must be (2, B, N, P, H) of input's type, with Q, K and V "
                    "of one hidden size"
                )
            past_k, past_v = (
                e.collapse(_cut(e, op.past, 0, i, 1), [[0, 1], [2], [3], [4]])
                for i in (0, 1)
            )
            pasts = (past_k, past_v)
        head = sizes[0] // heads
        total = seq if pasts is None else e.ix.add(e.ix.dim(pasts[0], 2), seq)
        attn_bias = _total_bias(
            e,
            op.mask_index,
            op.attention_bias,
            element,
            (batch, heads, seq, total),
            op.get_float("mask_filter_value"),
            starts=True,
        )
        y, present_k, present_v, attention = _attend(
            self,
            e,
            (q, k, v),
            pasts,
            attn_bias,
            _scale(op, head),
            bool(op.get_int("unidirectional")),
        )
        results = [e.cast_to(y, op.output)]
        if op.present is not None:
            halves = [
                e.expand(x, [[0, 1], [2], [3], [4]], [1, *e.sizes(x)])
                for x in (present_k, present_v)
            ]
            stacked = e.emit(
                element,
                [2, *e.sizes(present_k)],
                lambda out: hip.ConcatOp.make(e.ctx, inputs=halves, out=out, axis=0),
            )
            results.append(e.cast_to(stacked, op.present))
        rewriter.replace(op, [], results)
        _finish(self, attention)


class ConvertEmbedLayerNormalization(OnnxPattern[onnx.EmbedLayerNormalizationOp]):
    """`com.microsoft.EmbedLayerNormalization` -> gathers, adds, a layer norm
    and the mask's counts (module doc)."""

    def convert(
        self, op: onnx.EmbedLayerNormalizationOp, rewriter: PatternRewriter
    ) -> None:
        if convert_widened(self, op, rewriter):
            return
        element = _check_float(op.word_embedding, "word_embedding")
        for name, value in (
            ("position_embedding", op.position_embedding),
            ("segment_embedding", op.segment_embedding),
            ("gamma", op.gamma),
            ("beta", op.beta),
        ):
            if value is not None and _check_float(value, name) != element:
                raise Unsupported(
                    f"{name} has another element type than word_embedding"
                )
        for name, value in (
            ("input_ids", op.input_ids),
            ("segment_ids", op.segment_ids),
            ("mask", op.mask),
            ("position_ids", op.position_ids),
        ):
            if value is not None:
                ids = ranked(value, name)
                if ids.get_element_type() != i32 or len(ids.get_shape()) != 2:
                    raise Unsupported(f"{name} must be a 2-D int32 tensor")
        if (op.segment_ids is None) != (op.segment_embedding is None):
            raise Unsupported("segment_ids and segment_embedding go together")
        e = Emitter(self, op, rewriter)
        batch, seq = e.sizes(op.input_ids)
        hidden = e.ix.dim(op.word_embedding, 1)
        full = [batch, seq, hidden]

        def rows(table: SSAValue, ids: SSAValue) -> SSAValue:
            return e.emit(
                element,
                [*e.sizes(ids), e.ix.dim(table, 1)],
                lambda out: hip.GatherOp.make(
                    e.ctx, data=table, indices=ids, out=out, axis=0
                ),
            )

        if op.position_ids is not None:
            position_ids = op.position_ids
        else:
            steps = e.emit(
                i32,
                [seq],
                lambda out: hip.RangeOp.make(
                    e.ctx,
                    start=_constant(e, i32, 0),
                    delta=_constant(e, i32, 1),
                    out=out,
                ),
            )
            position_ids = e.expand(steps, [[0, 1]], [1, seq])
        total = _binary(
            e,
            hip.AddOp,
            rows(op.word_embedding, op.input_ids),
            rows(op.position_embedding, position_ids),
            full,
            element,
        )
        if op.segment_ids is not None and op.segment_embedding is not None:
            segments = rows(op.segment_embedding, op.segment_ids)
            total = _binary(e, hip.AddOp, total, segments, full, element)
        epsilon = FloatAttr(op.get_float("epsilon"), f32).value.data
        normed = e.emit(
            element,
            full,
            lambda out: hip.LayerNormOp.make(
                e.ctx,
                x=total,
                scale=op.gamma,
                bias=op.beta,
                out=out,
                axis=2,
                epsilon=epsilon,
            ),
        )
        results = [e.cast_to(normed, op.output)]
        if op.mask_index is not None:
            results.append(e.cast_to(self._counts(e, op.mask, batch), op.mask_index))
        if op.embedding_sum is not None:
            results.append(e.cast_to(total, op.embedding_sum))
        rewriter.replace(op, [], results)

    @staticmethod
    def _counts(e: Emitter, mask: SSAValue | None, batch: Index) -> SSAValue:
        """Each row's count of ones in `mask` (B,), int32; zeros without one."""
        if mask is None:
            return e.emit(
                i32,
                [batch],
                lambda out: hip.FillOp.make(e.ctx, out=out, value=0, integer_type=i32),
            )
        sizes = e.sizes(mask)
        ones = _binary(
            e, hip.EqualOp, mask, _constant(e, i32, 1), sizes, IntegerType(1)
        )
        flags = e.emit(
            i32, sizes, lambda out: hip.CastOp.make(e.ctx, src=ones, out=out)
        )
        return e.emit(
            i32,
            [batch],
            lambda out: hip.ReduceSumOp.make(e.ctx, src=flags, out=out, axes=[1]),
        )


__all__ = [
    "ConvertEmbedLayerNormalization",
    "ConvertMsAttention",
    "ConvertMultiHeadAttention",
]
