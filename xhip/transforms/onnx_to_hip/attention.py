"""Attention and RotaryEmbedding (opset 23; Attention's opset 24 and 25 inputs
and attributes too) -> hip ops in tensor mode.

`onnx.Attention` becomes a composition, each piece a library call or one
pass over the scores:

    3-D Q, K, V: view (B, L, H * D) as (B, L, H, D), `hip.permute` to (B, H, L, D)
    past_key/past_value: `hip.concat` along the sequence (present_key/value)
    K^T: `hip.transpose` of dims 2 and 3
    scores = `hip.hipblaslt.matmul`(Q, K^T), with grouped heads (GQA, Hq = G *
        Hkv) Q seen as (B, Hkv, G * S, D): the matmul's batch is the KV heads,
        no K or V is repeated
    P = `hip.attention_softmax`(scores[, mask][, nonpad]): scale, softcap, the
        mask, causal and window bias, softmax, zero rows where all is masked;
        `hip.miopen.softmax` with the scale where there is none of these
    Y = `hip.hipblaslt.matmul`(P, V), 3-D: `hip.permute` and a view back

`qk_matmul_output` is P for mode 3 and another `hip.attention_softmax` that
stops at its mode's stage for modes 0 to 2. float16 follows the spec's
roundings: Q and K are each scaled by sqrt(scale) in float16 (`hip.miopen.mul`)
and the softmax computes in float16, or in float32 (`wide`) where
`softmax_precision` asks for float or double; float32 and float64 compute in
themselves (a float64 `softmax_precision` on float32 stays float32).

`onnx.RotaryEmbedding` is one `hip.rotary_embedding`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    f16,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index, IndexArith
from xhip.transforms.onnx_to_hip.support import (
    OnnxPattern,
    Unsupported,
    context_of,
    ranked,
)

SOFTMAX_PRECISIONS = {1: "float", 10: "float16", 11: "double", 16: "bfloat16"}
"""The `softmax_precision` values ONNX allows (TensorProto element types)."""


class Emitter:
    """Builds the pieces of one conversion at the rewriter's insertion point."""

    def __init__(
        self,
        pattern: OnnxPattern[Any],
        op: Operation,
        rewriter: PatternRewriter,
    ) -> None:
        self.op = op
        self.rewriter = rewriter
        self.state = pattern.state
        self.ctx = context_of(op)
        self.ix = IndexArith(rewriter, op, pattern.state.folder)

    def sizes(self, value: SSAValue, dims: Sequence[int] | None = None) -> list[Index]:
        """`value`'s sizes (of `dims`, default all): ints where static."""
        rank = len(ranked(value, "an operand").get_shape())
        return [self.ix.dim(value, d) for d in (range(rank) if dims is None else dims)]

    def empty(self, element: Attribute, sizes: Sequence[Index]) -> SSAValue:
        shape = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
        dynamic = [s for s in sizes if isinstance(s, SSAValue)]
        empty = tensor.EmptyOp(dynamic, TensorType(element, shape))
        self.rewriter.insert(empty)
        return empty.tensor

    def emit(
        self,
        element: Attribute,
        sizes: Sequence[Index],
        build: Callable[[SSAValue], hip.HipDPSOp],
    ) -> SSAValue:
        """The result of the hip op `build(init)`, init a fresh one of `sizes`
        (made before whatever `build` inserts)."""
        new = build(self.empty(element, sizes))
        self.rewriter.insert(new)
        return new.res[0]

    def expand(
        self, value: SSAValue, groups: list[list[int]], sizes: Sequence[Index]
    ) -> SSAValue:
        """`value` viewed with some dims split: `sizes` are the new dims'."""
        element = ranked(value, "an operand").get_element_type()
        shape = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
        new = tensor.ExpandShapeOp(
            value,
            [s for s in sizes if isinstance(s, SSAValue)],
            _groups(groups),
            DenseArrayBase.from_list(i64, shape),
            TensorType(element, shape),
        )
        self.rewriter.insert(new)
        return new.result

    def collapse(self, value: SSAValue, groups: list[list[int]]) -> SSAValue:
        """`value` viewed with each group of dims as one."""
        value_type = ranked(value, "an operand")
        old = value_type.get_shape()
        shape = [
            DYNAMIC_INDEX
            if any(old[d] == DYNAMIC_INDEX for d in g)
            else math.prod(old[d] for d in g)
            for g in groups
        ]
        new = tensor.CollapseShapeOp.create(
            operands=[value],
            result_types=[TensorType(value_type.get_element_type(), shape)],
            properties={"reassociation": _groups(groups)},
        )
        self.rewriter.insert(new)
        return new.results[0]

    def permute(self, value: SSAValue, perm: list[int]) -> SSAValue:
        sizes = self.sizes(value)
        element = ranked(value, "an operand").get_element_type()
        return self.emit(
            element,
            [sizes[p] for p in perm],
            lambda out: hip.PermuteOp.make(self.ctx, src=value, out=out, perm=perm),
        )

    def cast_to(self, value: SSAValue, result: SSAValue) -> SSAValue:
        """`value` with the type the op's `result` declares."""
        if value.type == result.type:
            return value
        cast = tensor.CastOp(value, ranked(result, "a result"))
        self.rewriter.insert(cast)
        return cast.dest


def _groups(groups: list[list[int]]) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _static(value: Index, what: str) -> int:
    if not isinstance(value, int):
        raise Unsupported(f"{what} must be static")
    return value


class ConvertAttention(OnnxPattern[onnx.AttentionOp]):
    """`onnx.Attention` -> matmuls around `hip.attention_softmax` (module doc)."""

    def convert(self, op: onnx.AttentionOp, rewriter: PatternRewriter) -> None:
        q_type = ranked(op.Q, "Q")
        element = q_type.get_element_type()
        if not isinstance(element, AnyFloat):
            raise Unsupported(f"Q has element type {element}; a float is needed")
        for name, value in (("K", op.K), ("V", op.V)):
            if ranked(value, name).get_element_type() != element:
                raise Unsupported(f"{name} has another element type than Q")
        rank = len(q_type.get_shape())
        if rank not in (3, 4) or any(
            len(ranked(v, "K or V").get_shape()) != rank for v in (op.K, op.V)
        ):
            raise Unsupported("Q, K and V must all be 3-D or all 4-D")
        if (op.past_key is None) != (op.past_value is None):
            raise Unsupported("past_key and past_value must be given together")
        if op.nonpad_kv_seqlen is not None and op.past_key is not None:
            raise Unsupported("nonpad_kv_seqlen cannot be combined with past_key")
        precision = op.properties.get("softmax_precision")
        if isinstance(precision, IntegerAttr) and (
            precision.value.data not in SOFTMAX_PRECISIONS
        ):
            raise Unsupported(
                f"softmax_precision {precision.value.data} is not a float"
            )
        mode = op.get_int("qk_matmul_output_mode")
        if op.qk_matmul_output is not None and not 0 <= mode < len(
            hip.ATTENTION_STAGES
        ):
            raise Unsupported(f"qk_matmul_output_mode {mode} is not 0 to 3")
        mask = op.attn_mask
        if mask is not None:
            mask_type = ranked(mask, "attn_mask")
            if mask_type.get_element_type() not in (IntegerType(1), element):
                raise Unsupported(
                    f"attn_mask has element type {mask_type.get_element_type()}; "
                    f"bool or Q's {element} is supported"
                )
            if not 1 <= len(mask_type.get_shape()) <= 4:
                raise Unsupported("attn_mask must have rank 1 to 4")
        nonpad = op.nonpad_kv_seqlen
        if nonpad is not None:
            nonpad_type = ranked(nonpad, "nonpad_kv_seqlen")
            if nonpad_type.get_element_type() != IntegerType(64) or (
                len(nonpad_type.get_shape()) != 1
            ):
                raise Unsupported("nonpad_kv_seqlen must be a 1-D int64 tensor")

        e = Emitter(self, op, rewriter)
        if rank == 3:
            q_heads, kv_heads = (
                _positive(op, "q_num_heads"),
                _positive(op, "kv_num_heads"),
            )
            q, k, v = (
                self._heads(e, value, heads)
                for value, heads in (
                    (op.Q, q_heads),
                    (op.K, kv_heads),
                    (op.V, kv_heads),
                )
            )
        else:
            q, k, v = op.Q, op.K, op.V
        hq, head = e.sizes(q, (1, 3))
        hkv = e.ix.dim(k, 1)

        present_k, present_v, past = k, v, 0
        if op.past_key is not None and op.past_value is not None:
            for name, value in (
                ("past_key", op.past_key),
                ("past_value", op.past_value),
            ):
                past_type = ranked(value, name)
                if len(past_type.get_shape()) != 4 or (
                    past_type.get_element_type() != element
                ):
                    raise Unsupported(f"{name} must be 4-D, of Q's element type")
            past = e.ix.dim(op.past_key, 2)
            present_k = self._concat(e, op.past_key, past, k, element)
            present_v = self._concat(
                e, op.past_value, e.ix.dim(op.past_value, 2), v, element
            )

        groups = 1
        if isinstance(hq, int) and isinstance(hkv, int):
            if hkv < 1 or hq % hkv:
                raise Unsupported(f"{hq} query heads do not group over {hkv} KV heads")
            groups = hq // hkv if hkv > 1 else 1  # one KV head: the matmul broadcasts
        elif isinstance(hq, int) != isinstance(hkv, int) and hkv != 1:
            # Both dynamic: taken as equal (the matmul refuses unequal batches).
            raise Unsupported("grouped query and KV head counts must be static")

        if isinstance(op.properties.get("scale"), FloatAttr):
            scale = op.get_float("scale")
        else:
            scale = 1.0 / math.sqrt(
                _static(head, "the head size (for the default scale)")
            )

        kt_sizes = e.sizes(present_k, (0, 1, 3, 2))
        total = kt_sizes[3]
        kt = e.emit(
            element,
            kt_sizes,
            lambda out: hip.TransposeOp.make(
                e.ctx, src=present_k, out=out, dim0=e.ix.value(2), dim1=e.ix.value(3)
            ),
        )
        narrow = element == f16
        if narrow:
            # float16 as the spec's pattern rounds it: Q and K each times
            # sqrt(scale) in float16, the softmax in float16 unless
            # softmax_precision asks for more.
            root = self._scalar(e, element, math.sqrt(scale))
            q_in, kt_in = q, kt
            q = e.emit(
                element,
                e.sizes(q),
                lambda out: hip.MulOp.make(e.ctx, q_in, root, out=out),
            )
            kt = e.emit(
                element,
                kt_sizes,
                lambda out: hip.MulOp.make(e.ctx, kt_in, root, out=out),
            )
            scale = 1.0
        wide = (
            narrow
            and isinstance(precision, IntegerAttr)
            and (precision.value.data in (1, 11))
        )
        batch, seq = e.sizes(q, (0, 2))
        qg = group_heads(e, q, groups)
        score_sizes = [*e.sizes(qg, (0, 1, 2)), total]
        scores = e.emit(
            element,
            score_sizes,
            lambda out: hip.MatmulOp.make(e.ctx, a=qg, b=kt, out=out),
        )
        scores = ungroup_heads(e, scores, groups, seq)

        softcap = op.get_float("softcap")
        left = op.get_int("left_window_size")
        right = op.get_int("right_window_size")
        causal = bool(op.get_int("is_causal"))
        extras = [x for x in (mask, nonpad) if x is not None]
        plain = (
            not extras
            and not causal
            and softcap <= 0
            and left < 0
            and right < 0
            and not narrow
        )
        all_sizes = [batch, hq, seq, total]

        def middle(stage: int) -> SSAValue:
            return e.emit(
                element,
                all_sizes,
                lambda out: hip.AttentionSoftmaxOp.make(
                    e.ctx,
                    scores=scores,
                    mask=mask,
                    nonpad=nonpad,
                    out=out,
                    past=e.ix.value(past),
                    scale=scale,
                    softcap=softcap,
                    is_causal=causal,
                    left_window=left,
                    right_window=right,
                    wide=wide,
                    stage=stage,
                ),
            )

        if plain:
            factor = self._scalar(e, element, scale)
            probs = e.emit(
                element,
                all_sizes,
                lambda out: hip.SoftmaxOp.make(
                    e.ctx, src=scores, scale=factor, out=out
                ),
            )
        else:
            probs = middle(len(hip.ATTENTION_STAGES) - 1)

        grouped = group_heads(e, probs, groups)
        out = e.emit(
            element,
            [*e.sizes(grouped, (0, 1, 2)), e.ix.dim(present_v, 3)],
            lambda out: hip.MatmulOp.make(e.ctx, a=grouped, b=present_v, out=out),
        )
        y = ungroup_heads(e, out, groups, seq)
        if rank == 3:
            y = e.collapse(e.permute(y, [0, 2, 1, 3]), [[0], [1], [2, 3]])

        results = [e.cast_to(y, op.Y)]
        if op.present_key is not None:
            results.append(e.cast_to(present_k, op.present_key))
        if op.present_value is not None:
            results.append(e.cast_to(present_v, op.present_value))
        if op.qk_matmul_output is not None:
            qk = probs if mode == len(hip.ATTENTION_STAGES) - 1 else middle(mode)
            results.append(e.cast_to(qk, op.qk_matmul_output))
        rewriter.replace(op, [], results)

    def _scalar(self, e: Emitter, element: AnyFloat, value: float) -> SSAValue:
        return self.state.folder.get(
            e.rewriter,
            e.op,
            DenseIntOrFPElementsAttr.from_list(TensorType(element, []), [value]),
        )

    @staticmethod
    def _heads(e: Emitter, value: SSAValue, heads: int) -> SSAValue:
        """(B, L, H * D) -> (B, H, L, D): a view, then a permute."""
        batch, length, hidden = e.sizes(value)
        hidden = _static(hidden, "the hidden size of a 3-D Q, K or V")
        if hidden % heads:
            raise Unsupported(
                f"hidden size {hidden} is not a multiple of {heads} heads"
            )
        split = e.expand(
            value, [[0], [1], [2, 3]], [batch, length, heads, hidden // heads]
        )
        return e.permute(split, [0, 2, 1, 3])

    @staticmethod
    def _concat(
        e: Emitter, past: SSAValue, cached: Index, new: SSAValue, element: Attribute
    ) -> SSAValue:
        sizes = e.sizes(new)
        sizes[2] = e.ix.add(cached, sizes[2])
        return e.emit(
            element,
            sizes,
            lambda out: hip.ConcatOp.make(e.ctx, inputs=[past, new], out=out, axis=2),
        )


def group_heads(e: Emitter, value: SSAValue, groups: int) -> SSAValue:
    """(B, Hq, S, X) -> (B, Hkv, G * S, X), Hq = Hkv * G: views."""
    if groups == 1:
        return value
    batch, heads, seq, last = e.sizes(value)
    split = e.expand(
        value,
        [[0], [1, 2], [3], [4]],
        [batch, _static(heads, "heads") // groups, groups, seq, last],
    )
    return e.collapse(split, [[0], [1], [2, 3], [4]])


def ungroup_heads(e: Emitter, value: SSAValue, groups: int, seq: Index) -> SSAValue:
    """(B, Hkv, G * S, X) -> (B, Hq, S, X): views."""
    if groups == 1:
        return value
    batch, heads, last = e.sizes(value, (0, 1, 3))
    split = e.expand(value, [[0], [1], [2, 3], [4]], [batch, heads, groups, seq, last])
    return e.collapse(split, [[0], [1, 2], [3], [4]])


def _positive(op: onnx.OnnxOp, name: str) -> int:
    attr = op.properties.get(name)
    if not isinstance(attr, IntegerAttr) or attr.value.data < 1:
        raise Unsupported(f"3-D Q, K and V need a positive {name}")
    return attr.value.data


class ConvertRotaryEmbedding(OnnxPattern[onnx.RotaryEmbeddingOp]):
    """`onnx.RotaryEmbedding` -> `hip.rotary_embedding`."""

    def convert(self, op: onnx.RotaryEmbeddingOp, rewriter: PatternRewriter) -> None:
        x_type = ranked(op.X, "the input")
        element = x_type.get_element_type()
        if not isinstance(element, AnyFloat):
            raise Unsupported(
                f"the input has element type {element}; a float is needed"
            )
        for name, value in (("cos_cache", op.cos_cache), ("sin_cache", op.sin_cache)):
            if ranked(value, name).get_element_type() != element:
                raise Unsupported(f"{name} has another element type than the input")
        shape = x_type.get_shape()
        heads = op.get_int("num_heads")
        if len(shape) == 4:
            head = shape[3]
        elif len(shape) == 3:
            if heads < 1:
                raise Unsupported("a 3-D input needs a positive num_heads")
            if shape[2] != DYNAMIC_INDEX and shape[2] % heads:
                raise Unsupported(
                    f"the hidden size {shape[2]} is not a multiple of {heads} heads"
                )
            head = DYNAMIC_INDEX if shape[2] == DYNAMIC_INDEX else shape[2] // heads
        else:
            raise Unsupported("the input must be 3-D or 4-D")
        rotary = op.get_int("rotary_embedding_dim") or head
        if rotary == DYNAMIC_INDEX:  # the head size, half of it the caches' width
            half = ranked(op.cos_cache, "cos_cache").get_shape()[-1]
            if half == DYNAMIC_INDEX:
                raise Unsupported(
                    "the head size or the caches' last dim must be static (for "
                    "rotary_embedding_dim)"
                )
            rotary = 2 * half
        if rotary % 2 or rotary < 2 or (head != DYNAMIC_INDEX and rotary > head):
            raise Unsupported(
                f"rotary_embedding_dim {rotary} must be even and at most the head "
                f"size {head}"
            )
        want = 3
        if op.position_ids is not None:
            ids = ranked(op.position_ids, "position_ids")
            if ids.get_element_type() != IntegerType(64) or len(ids.get_shape()) != 2:
                raise Unsupported("position_ids must be a 2-D int64 tensor")
            want = 2
        for name, value in (("cos_cache", op.cos_cache), ("sin_cache", op.sin_cache)):
            cache = ranked(value, name).get_shape()
            if len(cache) != want or cache[-1] not in (DYNAMIC_INDEX, rotary // 2):
                raise Unsupported(
                    f"{name} must be {want}-D with last dim {rotary // 2}, got "
                    f"{list(cache)}"
                )
        e = Emitter(self, op, rewriter)
        y = e.emit(
            element,
            e.sizes(op.X),
            lambda out: hip.RotaryEmbeddingOp.make(
                e.ctx,
                x=op.X,
                cos=op.cos_cache,
                sin=op.sin_cache,
                position_ids=op.position_ids,
                out=out,
                interleaved=bool(op.get_int("interleaved")),
                rotary_dim=rotary,
                num_heads=heads if len(shape) == 3 else None,
            ),
        )
        rewriter.replace(op, [], [e.cast_to(y, op.Y)])
