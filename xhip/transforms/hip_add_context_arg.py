"""`hip-add-context-arg`: every function with a body takes a `!hip.context` first.

The hip ops of the later passes need a device context, and the runtime hands
one to the entry point; making it argument 0 of every defined function (and
passing it along at calls between them) keeps the ABI `(%ctx, %inputs...)`.
Argument attributes stay aligned with their arguments. Functions that already
take a context first are left alone, so the pass is idempotent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType
from xdsl.ir import BlockArgument, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import SymbolTable

from xhip.dialects.hip import ContextType


def takes_context(op: func.FuncOp) -> bool:
    """Whether `op`'s first argument is a `!hip.context`."""
    inputs = op.function_type.inputs.data
    return bool(inputs) and isinstance(inputs[0], ContextType)


def enclosing_function(op: Operation) -> func.FuncOp | None:
    """The function whose body holds `op`, at any depth."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


def context_arg(function: func.FuncOp) -> BlockArgument | None:
    """The context later passes hand to hip ops: argument 0, where this pass puts it."""
    if function.is_declaration or not takes_context(function):
        return None
    return function.body.block.args[0]


def _renumber_arg_names(op: func.FuncOp) -> None:
    """Name arguments `%argN` by position, as MLIR prints them, unless named."""
    for index, arg in enumerate(op.body.block.args):
        if arg.name_hint is None or re.fullmatch(r"arg\d+", arg.name_hint):
            arg.name_hint = f"arg{index}"


class AddContextArgument(RewritePattern):
    """Prepend `%ctx: !hip.context` to a defined function lacking one."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        if op.is_declaration or takes_context(op):
            return
        rewriter.insert_block_argument(op.body.block, 0, ContextType())
        _renumber_arg_names(op)
        if op.arg_attrs is not None:
            op.arg_attrs = ArrayAttr([DictionaryAttr({}), *op.arg_attrs.data])
        function_type = op.function_type
        op.function_type = FunctionType.from_lists(
            [ContextType(), *function_type.inputs.data], function_type.outputs.data
        )
        rewriter.notify_op_modified(op)


class PassContextToCallee(RewritePattern):
    """A call to a function that takes a context passes the caller's."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter) -> None:
        callee = SymbolTable.lookup_symbol(op, op.callee)
        caller = enclosing_function(op)
        ctx = context_arg(caller) if caller is not None else None
        if (
            ctx is None
            or not isinstance(callee, func.FuncOp)
            or not takes_context(callee)
            or (op.arguments and isinstance(op.arguments[0].type, ContextType))
        ):
            return
        rewriter.replace(
            op, func.CallOp(op.callee, [ctx, *op.arguments], op.result_types)
        )


@dataclass(frozen=True)
class HipAddContextArgPass(ModulePass):
    name = "hip-add-context-arg"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(
            AddContextArgument(), apply_recursively=False
        ).rewrite_module(op)
        PatternRewriteWalker(
            PassContextToCallee(), apply_recursively=False
        ).rewrite_module(op)
