"""Attention and rotary embeddings (`onnx_to_hip/attention.py` converts them)."""

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

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_op_definition
class AttentionOp(OnnxOp):
    """Opsets 23 to 25: scaled dot-product attention over 3-D (with
    `q_num_heads`/`kv_num_heads`) or 4-D Q, K, V; `nonpad_kv_seqlen` is
    opset 24's, the window sizes opset 25's."""

    name = "onnx.Attention"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "is_causal": 0,
        "qk_matmul_output_mode": 0,
        "softcap": 0.0,
        "left_window_size": -1,
        "right_window_size": -1,
    }

    Q = operand_def(AnyTensor)
    K = operand_def(AnyTensor)
    V = operand_def(AnyTensor)
    attn_mask = opt_operand_def(AnyTensor)
    past_key = opt_operand_def(AnyTensor)
    past_value = opt_operand_def(AnyTensor)
    nonpad_kv_seqlen = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    present_key = opt_result_def(AnyTensor)
    present_value = opt_result_def(AnyTensor)
    qk_matmul_output = opt_result_def(AnyTensor)
    is_causal = opt_prop_def(IntegerAttr)
    kv_num_heads = opt_prop_def(IntegerAttr)
    q_num_heads = opt_prop_def(IntegerAttr)
    qk_matmul_output_mode = opt_prop_def(IntegerAttr)
    scale = opt_prop_def(FloatAttr[AnyFloat])
    softcap = opt_prop_def(FloatAttr[AnyFloat])
    softmax_precision = opt_prop_def(IntegerAttr)
    left_window_size = opt_prop_def(IntegerAttr)
    right_window_size = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
    )


@irdl_op_definition
class RotaryEmbeddingOp(OnnxOp):
    """Opset 23: RoPE of a 4-D (batch, heads, seq, head) or 3-D (batch, seq,
    hidden, with `num_heads`) input; `position_ids` index 2-D caches."""

    name = "onnx.RotaryEmbedding"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "interleaved": 0,
        "rotary_embedding_dim": 0,
        "num_heads": 0,
    }

    X = operand_def(AnyTensor)
    cos_cache = operand_def(AnyTensor)
    sin_cache = operand_def(AnyTensor)
    position_ids = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    interleaved = opt_prop_def(IntegerAttr)
    rotary_embedding_dim = opt_prop_def(IntegerAttr)
    num_heads = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


OPS: tuple[type[Operation], ...] = (
    AttentionOp,
    RotaryEmbeddingOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "AttentionOp",
    "RotaryEmbeddingOp",
]
