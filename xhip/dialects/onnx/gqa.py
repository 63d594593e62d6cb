"""ONNX Runtime's LLM attention ops (`com.microsoft`, version 1), as the model
builder of onnxruntime-genai writes them: `GroupQueryAttention` (a KV cache,
rotary inside) and `RotaryEmbedding`; `onnx_to_hip/gqa.py` converts them.

Their attribute defaults are ORT's (`docs/ContribOperators.md`); the inputs
ORT 1.32 added for quantized caches and Q/K norms are not declared, so the
importer refuses a node that gives them, naming the count it reads.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr
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
class GroupQueryAttentionOp(ContribOp):
    """Causal attention of `num_heads` query heads over `kv_num_heads` KV
    heads with a BNSH KV cache: `seqlens_k[b] + 1` keys after the step, a
    first prompt where the query is `total_sequence_length` long. Q, K, V
    (B, S, H * D), or packed in `query` without `key`/`value`."""

    name = "onnx.GroupQueryAttention"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "num_heads": 0,
        "kv_num_heads": 0,
        "scale": 0.0,
        "softcap": 0.0,
        "local_window_size": -1,
        "do_rotary": 0,
        "rotary_interleaved": 0,
        "smooth_softmax": 0,
        "causal": 1,
        "qk_output": 0,
    }

    query = operand_def(AnyTensor)
    key = opt_operand_def(AnyTensor)
    value = opt_operand_def(AnyTensor)
    past_key = opt_operand_def(AnyTensor)
    past_value = opt_operand_def(AnyTensor)
    seqlens_k = operand_def(AnyTensor)
    total_sequence_length = operand_def(AnyTensor)
    cos_cache = opt_operand_def(AnyTensor)
    sin_cache = opt_operand_def(AnyTensor)
    position_ids = opt_operand_def(AnyTensor)
    attention_bias = opt_operand_def(AnyTensor)
    head_sink = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    present_key = opt_result_def(AnyTensor)
    present_value = opt_result_def(AnyTensor)
    output_qk = opt_result_def(AnyTensor)
    num_heads = opt_prop_def(IntegerAttr)
    kv_num_heads = opt_prop_def(IntegerAttr)
    scale = opt_prop_def(FloatAttr[AnyFloat])
    softcap = opt_prop_def(FloatAttr[AnyFloat])
    local_window_size = opt_prop_def(IntegerAttr)
    do_rotary = opt_prop_def(IntegerAttr)
    rotary_interleaved = opt_prop_def(IntegerAttr)
    smooth_softmax = opt_prop_def(IntegerAttr)
    causal = opt_prop_def(IntegerAttr)
    qk_output = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
    )


@irdl_op_definition
class MsRotaryEmbeddingOp(ContribOp):
    """`com.microsoft.RotaryEmbedding`: RoPE of (B, S, H * D) or (B, H, S, D)
    at `position_ids` (B, S), or (1,) for positions from it on; caches
    (max_seq, R / 2). ai.onnx has an op of the same type (`onnx.RotaryEmbedding`,
    other operand order), so the importer maps this one by hand and `DOMAINS`
    is empty."""

    name = "onnx.MsRotaryEmbedding"
    DOMAINS: ClassVar[tuple[str, ...]] = ()
    DEFAULTS: ClassVar[dict[str, object]] = {
        "interleaved": 0,
        "num_heads": 0,
        "rotary_embedding_dim": 0,
        "is_packed_batching": 0,
        "scale": 1.0,
    }

    input = operand_def(AnyTensor)
    position_ids = operand_def(AnyTensor)
    cos_cache = operand_def(AnyTensor)
    sin_cache = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    interleaved = opt_prop_def(IntegerAttr)
    num_heads = opt_prop_def(IntegerAttr)
    rotary_embedding_dim = opt_prop_def(IntegerAttr)
    is_packed_batching = opt_prop_def(IntegerAttr)
    scale = opt_prop_def(FloatAttr[AnyFloat])
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (GroupQueryAttentionOp, MsRotaryEmbeddingOp)
"""This family's ops; a new op goes at the end."""

__all__ = ["GroupQueryAttentionOp", "MsRotaryEmbeddingOp"]
