"""`hip-fold-attention-bias`: the Q, K, V projections' bias adds feeding a
`hip.fused_attention` become biases it adds as it reads q, k, v
(`xhip.transforms.hip_fold_attention`, docs/passes.md)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass

from xhip.transforms.hip_fold_attention import fold_bias, function_blocks


@dataclass(frozen=True)
class HipFoldAttentionBiasPass(ModulePass):
    name = "hip-fold-attention-bias"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for block in function_blocks(op):
            fold_bias(block)
