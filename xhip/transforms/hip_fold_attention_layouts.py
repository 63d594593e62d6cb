"""`hip-fold-attention-layouts`: the head transposes around a
`hip.fused_attention` become strided views it reads and writes through
(`xhip.transforms.hip_fold_attention`, docs/passes.md)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass

from xhip.transforms.hip_fold_attention import fold_layouts, function_blocks


@dataclass(frozen=True)
class HipFoldAttentionLayoutsPass(ModulePass):
    name = "hip-fold-attention-layouts"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for block in function_blocks(op):
            fold_layouts(block)
