"""`hip-lower-allocs`: host allocations become device allocations on the context.

After pooling, every `memref.alloc`/`memref.dealloc` left in a function is device
memory; the runtime hands it out through the function's `!hip.context`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func, memref
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from xhip.dialects import hip
from xhip.transforms.typed_patterns import TypedPatternApplier

HIP_ALLOC_ALIGNMENT = 256
"""hipMalloc returns memory aligned to at least this many bytes."""


def context_of(op: Operation) -> SSAValue:
    """The `!hip.context` argument of the function that holds `op`."""
    function = op.parent_op()
    while function is not None and not isinstance(function, func.FuncOp):
        function = function.parent_op()
    if function is None:
        raise PassFailedException(
            f"hip-lower-allocs: '{op.name}' is not inside a func.func"
        )
    for arg in function.args:
        if isinstance(arg.type, hip.ContextType):
            return arg
    raise PassFailedException(
        f"hip-lower-allocs: function @{function.sym_name.data} has a '{op.name}' "
        "but no !hip.context argument to allocate on (run hip-add-context-arg first)"
    )


class LowerAllocToHipAlloc(RewritePattern):
    """`memref.alloc(%n) : T` -> `hip.alloc(%ctx, %n) : T`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.AllocOp, rewriter: PatternRewriter) -> None:
        if op.symbol_operands:
            raise PassFailedException(
                f"hip-lower-allocs: cannot lower an alloc with layout symbols: {op}"
            )
        if op.alignment is not None and op.alignment.value.data > HIP_ALLOC_ALIGNMENT:
            raise PassFailedException(
                f"hip-lower-allocs: alignment {op.alignment.value.data} exceeds the "
                f"{HIP_ALLOC_ALIGNMENT} bytes hip.alloc guarantees: {op}"
            )
        result_type = op.memref.type
        assert isinstance(result_type, MemRefType)
        rewriter.replace(op, hip.AllocOp(context_of(op), op.dynamic_sizes, result_type))


class LowerDeallocToHipFree(RewritePattern):
    """`memref.dealloc %m` -> `hip.free(%ctx, %m)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.DeallocOp, rewriter: PatternRewriter
    ) -> None:
        if not isinstance(op.memref.type, MemRefType):
            raise PassFailedException(
                f"hip-lower-allocs: cannot free an unranked memref: {op}"
            )
        rewriter.replace(op, hip.FreeOp(context_of(op), op.memref))


@dataclass(frozen=True)
class HipLowerAllocsPass(ModulePass):
    """Lowers `memref.alloc`/`memref.dealloc` to `hip.alloc`/`hip.free`."""

    name = "hip-lower-allocs"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(
            TypedPatternApplier(
                [LowerAllocToHipAlloc(), LowerDeallocToHipFree()], dce_enabled=False
            ),
            apply_recursively=False,
        ).rewrite_module(op)
