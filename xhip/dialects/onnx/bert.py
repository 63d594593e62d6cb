"""ONNX Runtime's BERT ops (`com.microsoft`, version 1), as its transformers
optimizer fuses them: `MultiHeadAttention`, `Attention` (the QKV projection
inside) and `EmbedLayerNormalization`; `onnx_to_hip/bert.py` converts them.

Their attribute defaults are ORT's (`docs/ContribOperators.md`); where ORT
has none, a value that means "absent": `num_heads` 0 (refused), `scale` 0
(1/sqrt(head size), as ORT reads 0), `qkv_hidden_sizes` [0, 0, 0] (three
equal parts). The inputs
of ORT's buffer sharing and beam search (`past_sequence_length`,
`cache_indirection`) are declared so that a node giving them imports and the
conversion refuses it in one line.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, ArrayAttr, FloatAttr, IntegerAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor
from xhip.dialects.onnx.contrib import ContribOp


@irdl_op_definition
class MultiHeadAttentionOp(ContribOp):
    """Self or cross attention of `num_heads` heads, the projections' bias
    inside: Q (B, S, D), K and V (B, L, D) or (B, N, L, H), or packed (QKV in
    a (B, L, N, 3, H) query, KV in a (B, L, N, 2, H) key); a key padding mask,
    an attention bias, a past and present KV cache."""

    name = "onnx.MultiHeadAttention"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "num_heads": 0,
        "scale": 0.0,
        "unidirectional": 0,
        "mask_filter_value": -10000.0,
    }

    query = operand_def(AnyTensor)
    key = opt_operand_def(AnyTensor)
    value = opt_operand_def(AnyTensor)
    bias = opt_operand_def(AnyTensor)
    key_padding_mask = opt_operand_def(AnyTensor)
    attention_bias = opt_operand_def(AnyTensor)
    past_key = opt_operand_def(AnyTensor)
    past_value = opt_operand_def(AnyTensor)
    past_sequence_length = opt_operand_def(AnyTensor)
    cache_indirection = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    present_key = opt_result_def(AnyTensor)
    present_value = opt_result_def(AnyTensor)
    qk = opt_result_def(AnyTensor)
    num_heads = opt_prop_def(IntegerAttr)
    unidirectional = opt_prop_def(IntegerAttr)
    scale = opt_prop_def(FloatAttr[AnyFloat])
    mask_filter_value = opt_prop_def(FloatAttr[AnyFloat])
    traits = traits_def(NoMemoryEffect())
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
    )


@irdl_op_definition
class MsAttentionOp(ContribOp):
    """`com.microsoft.Attention`: `input @ weights + bias` cut into Q, K, V
    (`qkv_hidden_sizes`, or three equal parts), attention of `num_heads`
    heads with a mask index, an attention bias, and `past`/`present` stacked
    (2, B, N, T, H). ai.onnx has an op of the same type (`onnx.Attention`),
    so the importer maps this one by hand and `DOMAINS` is empty."""

    name = "onnx.MsAttention"
    DOMAINS: ClassVar[tuple[str, ...]] = ()
    DEFAULTS: ClassVar[dict[str, object]] = {
        "num_heads": 0,
        "scale": 0.0,
        "qkv_hidden_sizes": [0, 0, 0],
        "unidirectional": 0,
        "mask_filter_value": -10000.0,
        "do_rotary": 0,
        "past_present_share_buffer": 0,
        "rotary_embedding_dim": 0,
    }

    input = operand_def(AnyTensor)
    weights = operand_def(AnyTensor)
    bias = opt_operand_def(AnyTensor)
    mask_index = opt_operand_def(AnyTensor)
    past = opt_operand_def(AnyTensor)
    attention_bias = opt_operand_def(AnyTensor)
    past_sequence_length = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    present = opt_result_def(AnyTensor)
    num_heads = opt_prop_def(IntegerAttr)
    unidirectional = opt_prop_def(IntegerAttr)
    scale = opt_prop_def(FloatAttr[AnyFloat])
    mask_filter_value = opt_prop_def(FloatAttr[AnyFloat])
    qkv_hidden_sizes = opt_prop_def(ArrayAttr[IntegerAttr])
    do_rotary = opt_prop_def(IntegerAttr)
    past_present_share_buffer = opt_prop_def(IntegerAttr)
    rotary_embedding_dim = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
    )


@irdl_op_definition
class EmbedLayerNormalizationOp(ContribOp):
    """BERT's embeddings: word (+ position, at `position_ids` or 0..S-1)
    (+ segment) rows added, then LayerNormalization over the hidden axis;
    `mask_index` counts each row's ones in `mask`, `embedding_sum` is the sum
    before the normalization."""

    name = "onnx.EmbedLayerNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {"epsilon": 1e-12, "mask_index_type": 1}

    input_ids = operand_def(AnyTensor)
    segment_ids = opt_operand_def(AnyTensor)
    word_embedding = operand_def(AnyTensor)
    position_embedding = operand_def(AnyTensor)
    segment_embedding = opt_operand_def(AnyTensor)
    gamma = operand_def(AnyTensor)
    beta = operand_def(AnyTensor)
    mask = opt_operand_def(AnyTensor)
    position_ids = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    mask_index = opt_result_def(AnyTensor)
    embedding_sum = opt_result_def(AnyTensor)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    mask_index_type = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
    )


OPS: tuple[type[Operation], ...] = (
    MultiHeadAttentionOp,
    MsAttentionOp,
    EmbedLayerNormalizationOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = ["EmbedLayerNormalizationOp", "MsAttentionOp", "MultiHeadAttentionOp"]
