"""`buffer-results-to-out-params`: returned memrefs become caller-owned arguments.

Upstream's pass with `hoist-static-allocs hoist-dynamic-allocs add-result-attr
modify-public-functions`: each memref result becomes a trailing argument
marked `bufferize.result` (keeping the result's attributes), and the function
returns only its other results. The runtime then owns every output buffer.

What writes the returned buffer writes the argument instead:
- a returned `memref.alloc` (static or dynamic) is replaced by the argument;
- an alloc returned through `memref.cast`s is replaced by a cast of the
  argument back to the alloc's type, where that cast is valid;
- a returned `memref.collapse_shape`/`expand_shape` of an alloc: the alloc is
  replaced by the inverse view of the argument;
- anything else (a function argument, a global, an alloc returned twice) is
  copied into the argument before the return: `hip.copy` when the
  function has a `!hip.context`, `memref.copy` otherwise.

Calls to a rewritten function pass a fresh `memref.alloc` per out parameter;
that needs a static shape.

A result sized by a value read back (`hip.readback`: NonZero's count, a
shape that is data) stays a result: the caller cannot know its size before
the call. The function allocates it and lists it in `bufferize.returned`
(the numbers of the results that stay, among all of them), so the runtime
knows which outputs the call returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    MemRefType,
    NoneAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from xhip.dialects.constraints import AnyMemRefTypeConstr
from xhip.dialects.memref import CastOp
from xhip.transforms.one_shot_bufferize import copy_op

RESULT_ATTR = "bufferize.result"
RETURNED_ATTR = "bufferize.returned"


def sized_by_readback(value: SSAValue) -> bool:
    """Whether `value`'s size depends on a `hip.readback` (through the allocs,
    views, casts and index arithmetic that make it and its sizes). A walk
    with its own stack: a deep chain of layers must not exhaust Python's."""
    seen: set[SSAValue] = set()
    stack = [value]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        owner = current.owner
        if not isinstance(owner, Operation) or owner.regions:
            continue
        if owner.name == "hip.readback":
            return True
        stack.extend(owner.operands)
    return False


def _sorted_dict(entries: dict[str, Attribute]) -> DictionaryAttr:
    """MLIR keeps attribute dictionaries sorted by name."""
    return DictionaryAttr(dict(sorted(entries.items())))


def _alloc_behind_casts(value: SSAValue) -> tuple[xmemref.AllocOp, bool] | None:
    """The alloc `value` is, possibly through casts; and whether casts were seen."""
    through_cast = False
    while isinstance(value.owner, CastOp | xmemref.CastOp):
        value = value.owner.operands[0]
        through_cast = True
    if isinstance(value.owner, xmemref.AllocOp):
        return value.owner, through_cast
    return None


def _castable(source: MemRefType[Attribute], target: MemRefType[Attribute]) -> bool:
    """A `memref.cast` between these types is valid (same layout kind)."""
    return (
        source.get_element_type() == target.get_element_type()
        and len(source.get_shape()) == len(target.get_shape())
        and isinstance(source.layout, NoneAttr) == isinstance(target.layout, NoneAttr)
    )


def _write_into(
    value: SSAValue, out: SSAValue, function: func.FuncOp, rewriter: PatternRewriter
) -> None:
    """Make whatever produces `value` produce it in `out`, or copy it there."""
    found = _alloc_behind_casts(value)
    if found is not None and function.is_ancestor(found[0]):
        alloc, through_cast = found
        alloc_type = alloc.memref.type
        assert AnyMemRefTypeConstr.verifies(out.type)
        if not through_cast and alloc_type == out.type:
            rewriter.replace_all_uses_with(alloc.memref, out)
            rewriter.erase(alloc)
            return
        if _castable(out.type, alloc_type):
            cast = CastOp(out, alloc_type)
            rewriter.replace(alloc, cast)
            cast.results[0].name_hint = "cast"
            return
    if not _write_through_view(value, out, function, rewriter):
        rewriter.insert(copy_op(function, value, out))


def _write_through_view(
    value: SSAValue, out: SSAValue, function: func.FuncOp, rewriter: PatternRewriter
) -> bool:
    """A returned reshape view of an alloc: the alloc becomes the inverse view."""
    view = value.owner
    if not isinstance(view, xmemref.CollapseShapeOp | xmemref.ExpandShapeOp):
        return False
    alloc = view.src.owner
    if not isinstance(alloc, xmemref.AllocOp) or not function.is_ancestor(alloc):
        return False
    alloc_type = alloc.memref.type
    if not isinstance(alloc_type.layout, NoneAttr) or value.type != out.type:
        return False
    if isinstance(view, xmemref.CollapseShapeOp):
        inverse = xmemref.ExpandShapeOp.create(
            operands=[out, *alloc.dynamic_sizes],
            result_types=[alloc_type],
            properties={
                "reassociation": view.reassociation,
                "static_output_shape": DenseArrayBase.from_list(
                    i64, alloc_type.get_shape()
                ),
            },
        )
    else:
        inverse = xmemref.CollapseShapeOp.create(
            operands=[out],
            result_types=[alloc_type],
            properties={"reassociation": view.reassociation},
        )
    rewriter.replace(alloc, inverse)
    inverse.results[0].name_hint = (
        "expand_shape"
        if isinstance(inverse, xmemref.ExpandShapeOp)
        else "collapse_shape"
    )
    return True


OutParams = dict[str, list[tuple[int, MemRefType[Attribute]]]]
"""The results moved to arguments, per function name: (result index, type)."""


def _returned_values(
    op: func.FuncOp,
) -> tuple[list[SSAValue], bool, list[func.ReturnOp]]:
    """What the function's one return returns (empty if not one return),
    whether the function reads a value back: without a `hip.readback`, no
    result is `sized_by_readback`, which walks all that a result depends on
    (at 100 attention layers, the whole function); and its returns, in walk
    order, found by the same walk."""
    returns: list[func.ReturnOp] = []
    reads_back = False
    for o in op.walk():
        if isinstance(o, func.ReturnOp):
            returns.append(o)
        elif o.name == "hip.readback":
            reads_back = True
    returned = list(returns[0].arguments) if len(returns) == 1 else []
    return returned, reads_back, returns


class ResultsToOutParams(RewritePattern):
    """A function's memref results become trailing `bufferize.result` arguments."""

    def __init__(self, out_params: OutParams) -> None:
        self.out_params = out_params

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        outputs = op.function_type.outputs.data
        returned, reads_back, returns = _returned_values(op)
        moved = [
            (i, t)
            for i, t in enumerate(outputs)
            if AnyMemRefTypeConstr.verifies(t)
            and not (returned and reads_back and sized_by_readback(returned[i]))
        ]
        if not moved:
            return
        kept_results = [i for i in range(len(outputs)) if i not in dict(moved)]
        if any(AnyMemRefTypeConstr.verifies(outputs[i]) for i in kept_results):
            op.attributes[RETURNED_ATTR] = DenseArrayBase.from_list(i64, kept_results)
        self.out_params[op.sym_name.data] = moved
        inputs = list(op.function_type.inputs.data)
        res_attrs: list[Mapping[str, Attribute]] = (
            [d.data for d in op.res_attrs.data]
            if op.res_attrs is not None
            else [{} for _ in outputs]
        )
        arg_attrs = (
            list(op.arg_attrs.data)
            if op.arg_attrs is not None
            else [DictionaryAttr({}) for _ in inputs]
        )
        arg_attrs += [
            _sorted_dict({RESULT_ATTR: UnitAttr(), **res_attrs[i]}) for i, _ in moved
        ]
        kept = [i for i in range(len(outputs)) if i not in dict(moved)]
        if not op.is_declaration:
            self._rewrite_body(op, moved, returns, rewriter)
        op.function_type = FunctionType.from_lists(
            [*inputs, *(t for _, t in moved)], [outputs[i] for i in kept]
        )
        op.arg_attrs = ArrayAttr(arg_attrs)
        kept_attrs = [DictionaryAttr(res_attrs[i]) for i in kept]
        op.res_attrs = (
            ArrayAttr(kept_attrs) if any(a.data for a in kept_attrs) else None
        )
        rewriter.notify_op_modified(op)

    @staticmethod
    def _rewrite_body(
        op: func.FuncOp,
        moved: list[tuple[int, MemRefType[Attribute]]],
        returns: list[func.ReturnOp],
        rewriter: PatternRewriter,
    ) -> None:
        """`returns`: the function's, as `_returned_values` found them (the
        body has not changed since)."""
        block = op.body.block
        outs: list[SSAValue] = []
        for _, memref_type in moved:
            arg = rewriter.insert_block_argument(block, len(block.args), memref_type)
            arg.name_hint = f"arg{len(block.args) - 1}"
            outs.append(arg)
        moved_indices = {i for i, _ in moved}
        for ret in returns:
            rewriter.insertion_point = InsertPoint.before(ret)
            for (index, _), out in zip(moved, outs):
                _write_into(ret.arguments[index], out, op, rewriter)
            kept = [v for i, v in enumerate(ret.arguments) if i not in moved_indices]
            rewriter.replace(ret, func.ReturnOp(*kept))


class AllocateOutParamsAtCall(RewritePattern):
    """A call to a rewritten function allocates the out parameters itself."""

    def __init__(self, out_params: OutParams) -> None:
        self.out_params = out_params

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter) -> None:
        moved = self.out_params.get(op.callee.string_value())
        if not moved:
            return
        allocs: list[xmemref.AllocOp] = []
        for index, memref_type in moved:
            if not memref_type.has_static_shape() or not isinstance(
                memref_type.layout, NoneAttr
            ):
                raise PassFailedException(
                    f"buffer-results-to-out-params: call to @{op.callee.string_value()}"
                    f" cannot allocate result {index} of type {memref_type}: only "
                    "static shapes with the identity layout can be allocated"
                )
            allocs.append(xmemref.AllocOp([], [], memref_type))
        outs = {i: alloc.memref for (i, _), alloc in zip(moved, allocs)}
        kept = [r.type for i, r in enumerate(op.results) if i not in outs]
        call = func.CallOp(op.callee, [*op.arguments, *allocs], kept)
        results = iter(call.results)
        new_results = [
            outs[i] if i in outs else next(results) for i in range(len(op.results))
        ]
        rewriter.replace(op, [*allocs, call], new_results)


@dataclass(frozen=True)
class BufferResultsToOutParamsPass(ModulePass):
    name = "buffer-results-to-out-params"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        out_params: OutParams = {}
        PatternRewriteWalker(
            ResultsToOutParams(out_params), apply_recursively=False
        ).rewrite_module(op)
        PatternRewriteWalker(
            AllocateOutParamsAtCall(out_params), apply_recursively=False
        ).rewrite_module(op)
