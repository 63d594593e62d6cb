"""The recurrent-state ops of ai.onnx opset 27 that Gated DeltaNet and Mamba
layers use: `LinearAttention` (a state per KV head, updated token by token)
and `CausalConvWithState` (a depthwise causal conv carrying its last k - 1
inputs); `onnx_to_hip/linear_attention.py` converts them."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, StringAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_op_definition
class LinearAttentionOp(OnnxOp):
    """Opset 27: Q (B, T, Hq * dk), K (B, T, Hkv * dk), V (B, T, Hkv * dv),
    past_state (B, Hkv, dk, dv), decay (B, T, Hkv * dk or Hkv) for the gated
    rules, beta (B, T, Hkv or 1) for the delta ones; `chunk_size` is a tuning
    hint without effect on the outputs."""

    name = "onnx.LinearAttention"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "chunk_size": 64,
        "scale": 0.0,
        "update_rule": "gated_delta",
    }

    query = operand_def(AnyTensor)
    key = operand_def(AnyTensor)
    value = operand_def(AnyTensor)
    past_state = opt_operand_def(AnyTensor)
    decay = opt_operand_def(AnyTensor)
    beta = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    present_state = result_def(AnyTensor)
    chunk_size = opt_prop_def(IntegerAttr)
    kv_num_heads = opt_prop_def(IntegerAttr)
    q_num_heads = opt_prop_def(IntegerAttr)
    scale = opt_prop_def(FloatAttr[AnyFloat])
    update_rule = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def get_update_rule(self) -> str:
        rule = self.update_rule
        return rule.data if rule is not None else "gated_delta"


@irdl_op_definition
class CausalConvWithStateOp(OnnxOp):
    """Opset 27: input (B, C, L), weight (C, 1, k), bias (C), past_state
    (B, C, k - 1); output (B, C, L), present_state (B, C, k - 1), the last
    k - 1 steps of past_state (or zeros) followed by the input."""

    name = "onnx.CausalConvWithState"
    DEFAULTS: ClassVar[dict[str, object]] = {"activation": "none"}

    input = operand_def(AnyTensor)
    weight = operand_def(AnyTensor)
    bias = opt_operand_def(AnyTensor)
    past_state = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    present_state = result_def(AnyTensor)
    activation = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def get_activation(self) -> str:
        activation = self.activation
        return activation.data if activation is not None else "none"


OPS: tuple[type[Operation], ...] = (LinearAttentionOp, CausalConvWithStateOp)
"""This family's ops; a new op goes at the end."""

__all__ = ["CausalConvWithStateOp", "LinearAttentionOp"]
