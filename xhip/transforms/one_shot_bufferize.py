"""`one-shot-bufferize`: tensors -> memrefs for the ops the pipeline produces.

Not upstream's general analysis: our tensor programs are DPS chains whose
inits are fresh `tensor.empty`s, so every hip op can write its init's buffer
in place unless someone else still reads it (then it gets a new buffer; hip
ops never read their `outs`, so no copy is needed).

Ops are rewritten in program order. Each pattern finds its operands' buffers
in a table from tensor to buffer (`Buffers`), or behind a
`bufferization.to_tensor` (which `convert-onnx-to-hip` uses for external
constants), and records its own results' buffers there; the tensor ops stay
until the walk ends and are erased then, users first. Wrapping each result in
a `bufferization.to_tensor` and replacing the op instead, as the pass did,
built and erased one op per result (1,600 at 100 attention layers) for the
same output; an op left unconverted still gets its wrappers, so an error
sees the same IR. As upstream's function-boundary bufferization
does, tensor arguments become memrefs with a fully dynamic strided layout and
results take the type of the buffer returned (the cast to the fully dynamic
layout that upstream materializes at the return is left dead).

Any op that still touches a tensor afterwards is reported by name.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain, count
from typing import TypeGuard, cast

from xdsl.context import Context
from xdsl.dialects import arith, bufferization, builtin, func, tensor
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    UnrankedMemRefType,
    i32,
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

from xhip.dialects import hip
from xhip.dialects.constraints import AnyMemRefTypeConstr, AnyTensorTypeConstr
from xhip.dialects.memref import CastOp, DimOp, GlobalOp
from xhip.transforms.hip_add_context_arg import context_arg, enclosing_function
from xhip.transforms.onnx_to_hip.constants import symbol_names
from xhip.transforms.typed_patterns import TypedPatternApplier

ALIGNMENT = 64
"""`alignment` of allocations and constant globals, as upstream's default."""

_ALIGNMENT_ATTR = IntegerAttr(ALIGNMENT, i64)


# The types are cached: building a MemRefType verifies it, which costs more
# than the rest of bufferizing an op.


@cache
def fully_dynamic_type(tensor_type: TensorType[Attribute]) -> MemRefType[Attribute]:
    """The function-boundary memref: any strides, any offset."""
    rank = len(tensor_type.get_shape())
    return MemRefType(
        tensor_type.get_element_type(),
        tensor_type.get_shape(),
        StridedLayoutAttr([None] * rank, None),
    )


@cache
def identity_type(tensor_type: TensorType[Attribute]) -> MemRefType[Attribute]:
    return MemRefType(tensor_type.get_element_type(), tensor_type.get_shape())


@cache
def _tensor_type_of(memref_type: Attribute) -> Attribute:
    """The type `bufferization.to_tensor` gives a tensor of this buffer."""
    memref = cast("MemRefType[Attribute] | UnrankedMemRefType[Attribute]", memref_type)
    return bufferization.TensorFromMemRefConstraint.memref_to_tensor(memref)


def _wrap(buffer: SSAValue | Operation) -> bufferization.ToTensorOp:
    """`bufferization.to_tensor` of `buffer`, its type from the cache."""
    value = SSAValue.get(buffer)
    return bufferization.ToTensorOp.create(
        operands=[value], result_types=[_tensor_type_of(value.type)]
    )


class Buffers:
    """The buffer of each converted tensor, and the tensor ops converted so
    far, which stay in place (their users still read their results) until
    `finish` erases them."""

    def __init__(self) -> None:
        self._buffer: dict[SSAValue, SSAValue] = {}
        self._converted: list[Operation] = []
        self._converted_ids: set[int] = set()

    def of(self, value: SSAValue) -> SSAValue | None:
        """The memref behind a tensor, once its producer is bufferized."""
        buffer = self._buffer.get(value)
        if buffer is not None:
            return buffer
        owner = value.owner
        if isinstance(owner, bufferization.ToTensorOp):
            return owner.memref
        return None

    def of_all(self, values: Sequence[SSAValue]) -> list[SSAValue] | None:
        buffers = [self.of(v) if type(v.type) is TensorType else v for v in values]
        if any(b is None for b in buffers):
            return None
        return [b for b in buffers if b is not None]

    def has_one_live_use(self, value: SSAValue) -> bool:
        """`value.has_one_use()` counting only ops not converted yet: what the
        value's wrapper would have had, converted users being gone."""
        converted = self._converted_ids
        live = 0
        for use in value.uses:
            if id(use.operation) not in converted:
                live += 1
                if live > 1:
                    return False
        return live == 1

    def convert(
        self,
        op: Operation,
        rewriter: PatternRewriter,
        new_ops: Sequence[Operation],
        buffers: Sequence[SSAValue],
    ) -> None:
        """`new_ops` go before `op`; `buffers` are its results' buffers."""
        rewriter.insert(list(new_ops))
        for result, buffer in zip(op.results, buffers, strict=True):
            self._buffer[result] = buffer
        self.retire(op)

    def retire(self, op: Operation) -> None:
        """Erase `op` in `finish`; until then it is no live user."""
        self._converted.append(op)
        self._converted_ids.add(id(op))

    def finish(self) -> None:
        """Erase the converted ops, users first. One whose results are still
        read (by an op no pattern converted) leaves wrappers of its buffers in
        its place, as replacing it with them would have."""
        for op in reversed(self._converted):
            # `first_use`, not `uses`: no use view built per result.
            if any(result.first_use is not None for result in op.results):
                wrappers = [_wrap(self._buffer[r]) for r in op.results]
                block = op.parent_block()
                assert block is not None
                block.insert_ops_before(wrappers, op)
                for result, wrapper in zip(op.results, wrappers):
                    result.replace_all_uses_with(wrapper.tensor)
            op.detach()
            op.erase()
        self._buffer.clear()
        self._converted.clear()
        self._converted_ids.clear()


class _BufferPattern(RewritePattern):
    """A pattern that reads and records buffers in the pass's `Buffers`."""

    def __init__(self, buffers: Buffers) -> None:
        self.buffers = buffers


class BufferizeFunctionArguments(RewritePattern):
    """Tensor arguments become memrefs with a fully dynamic layout."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        if op.is_declaration:
            return
        block = op.body.block
        for index, arg in enumerate(block.args):
            if not AnyTensorTypeConstr.verifies(arg.type):
                continue
            new_arg = rewriter.insert_block_argument(
                block, index, fully_dynamic_type(arg.type)
            )
            new_arg.name_hint = arg.name_hint
            wrapper = _wrap(new_arg)
            rewriter.insert(wrapper, InsertPoint.at_start(block))
            rewriter.replace_all_uses_with(arg, wrapper.tensor)
            rewriter.erase_block_argument(arg)
        op.function_type = FunctionType.from_lists(
            [a.type for a in block.args], op.function_type.outputs.data
        )


class BufferizeReturn(_BufferPattern):
    """`func.return` returns buffers; the function's result types follow.

    A result is always a buffer of the identity layout, which the caller can
    allocate: a view of an argument, or an argument itself, is first copied
    into a new allocation.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter) -> None:
        function = op.parent_op()
        if not any(isinstance(v.type, TensorType) for v in op.arguments):
            return
        if not isinstance(function, func.FuncOp):
            return
        buffers = self.buffers.of_all(op.arguments)
        if buffers is None:
            return
        results: list[SSAValue] = []
        for value, buffer in zip(op.arguments, buffers):
            if not AnyTensorTypeConstr.verifies(value.type):
                results.append(buffer)
                continue
            assert AnyMemRefTypeConstr.verifies(buffer.type)
            if not isinstance(buffer.type.layout, NoneAttr):
                copy = _fresh_buffer_like(buffer, rewriter)
                rewriter.insert(copy_op(function, buffer, copy))
                buffer = copy
            boundary = fully_dynamic_type(value.type)
            if buffer.type != boundary:
                cast = CastOp(buffer, boundary)
                cast.results[0].name_hint = "cast"
                rewriter.insert(cast)
            results.append(buffer)
        rewriter.replace(op, func.ReturnOp(*results))
        function.function_type = FunctionType.from_lists(
            function.function_type.inputs.data, [b.type for b in results]
        )


def copy_op(function: func.FuncOp, source: SSAValue, target: SSAValue) -> Operation:
    """`hip.copy` where the function has a context, else `memref.copy`."""
    ctx = context_arg(function)
    if ctx is not None:
        return hip.CopyOp(ctx, [source], [target])
    return xmemref.CopyOp(source, target)


_SEGMENT_SIZES: dict[int, DenseArrayBase[IntegerType]] = {}
"""`memref.alloc`'s `operandSegmentSizes` by number of sizes (no symbols)."""


def _alloc_op(sizes: Sequence[SSAValue], memref_type: Attribute) -> xmemref.AllocOp:
    """`memref.alloc {alignment = 64}` as `AllocOp(sizes, [], type, alignment)`
    makes it, without the builder's generic argument handling (800 at 100
    attention layers, where it was most of bufferizing a `tensor.empty`)."""
    segments = _SEGMENT_SIZES.get(len(sizes))
    if segments is None:
        segments = _SEGMENT_SIZES[len(sizes)] = DenseArrayBase.from_list(
            i32, (len(sizes), 0)
        )
    return xmemref.AllocOp.create(
        operands=sizes,
        result_types=[memref_type],
        properties={"alignment": _ALIGNMENT_ATTR, "operandSegmentSizes": segments},
    )


class BufferizeEmptyTensor(_BufferPattern):
    """`tensor.empty` -> `memref.alloc {alignment = 64}`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.EmptyOp, rewriter: PatternRewriter) -> None:
        alloc = _alloc_op(op.dynamic_sizes, identity_type(op.tensor.type))
        alloc.memref.name_hint = "alloc"
        self.buffers.convert(op, rewriter, [alloc], [alloc.memref])


_INDEX = IndexType()


def _dim_op(buffer: SSAValue, index: SSAValue) -> DimOp:
    """`memref.dim` as `DimOp(buffer, index)` makes it, without the builder's
    argument checks or a new `IndexType` (1,900 at 100 attention layers)."""
    return DimOp.create(operands=[buffer, index], result_types=[_INDEX])


class BufferizeDim(_BufferPattern):
    """`tensor.dim` -> `memref.dim` of the buffer.

    Its users read the new `memref.dim` at once (an index is no tensor); the
    `tensor.dim` waits for `finish` like the other converted ops, which
    erasing it through the rewriter (worklist and listeners) cost twice as
    much as building its replacement (1,900 at 100 attention layers).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.DimOp, rewriter: PatternRewriter) -> None:
        buffer = self.buffers.of(op.source)
        if buffer is None:
            return
        dim = _dim_op(buffer, op.index)
        dim.result.name_hint = "dim"
        rewriter.insert(dim)
        op.result.replace_all_uses_with(dim.result)
        self.buffers.retire(op)


def _constant_global_name(tensor_type: TensorType[Attribute]) -> str:
    """MLIR's name for a constant's global: `__constant_2x3xf32`."""
    shape = "x".join(str(d) for d in tensor_type.get_shape())
    return f"__constant_{shape}x{tensor_type.get_element_type()}"


def _is_constant_global(op: Operation) -> TypeGuard[GlobalOp]:
    return (
        isinstance(op, GlobalOp)
        and op.constant is not None
        and op.alignment == _ALIGNMENT_ATTR
    )


class ConstantGlobals:
    """A module's constant globals by value, and the symbol names it has.

    Both are collected once: searching the module for each constant would make
    the pass quadratic, and trying `_0`, `_1`, ... from the start each time cubic.
    """

    def __init__(self, module: builtin.ModuleOp) -> None:
        self.module = module
        self._by_value: dict[Attribute | None, GlobalOp] = {}
        for op in reversed(list(module.ops)):
            if _is_constant_global(op):
                self._by_value[op.initial_value] = op
        self._taken = symbol_names(module)
        self._candidates: dict[str, Iterator[str]] = {}

    def get(
        self, value: DenseIntOrFPElementsAttr, rewriter: PatternRewriter
    ) -> GlobalOp:
        """The constant global holding `value`: an existing one, else a new one."""
        if value in self._by_value:
            return self._by_value[value]
        assert AnyTensorTypeConstr.verifies(value.type)
        global_op = GlobalOp(
            self._fresh_name(value.type),
            identity_type(value.type),
            value,
            constant=True,
            alignment=ALIGNMENT,
        )
        rewriter.insert(global_op, InsertPoint.at_start(self.module.body.block))
        self._by_value[value] = global_op
        return global_op

    def _fresh_name(self, tensor_type: TensorType[Attribute]) -> str:
        """MLIR's name, else the first of `_0`, `_1`, ... no symbol has."""
        base = _constant_global_name(tensor_type)
        if base not in self._candidates:
            self._candidates[base] = chain([base], (f"{base}_{n}" for n in count()))
        name = next(n for n in self._candidates[base] if n not in self._taken)
        self._taken.add(name)
        return name


class BufferizeTensorConstant(_BufferPattern):
    """A tensor `arith.constant` -> a `memref.global` constant + `get_global`."""

    def __init__(self, buffers: Buffers, globals_: ConstantGlobals) -> None:
        super().__init__(buffers)
        self.globals = globals_

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.ConstantOp, rewriter: PatternRewriter
    ) -> None:
        value = op.value
        if not isinstance(value, DenseIntOrFPElementsAttr) or not isinstance(
            value.type, TensorType
        ):
            return
        global_op = self.globals.get(value, rewriter)
        get = xmemref.GetGlobalOp(global_op.sym_name.data, global_op.type)
        get.memref.name_hint = None  # MLIR does not name globals' results
        self.buffers.convert(op, rewriter, [get], [get.memref])


_VIEWS = (xmemref.CollapseShapeOp, xmemref.ExpandShapeOp, xmemref.CastOp)
"""The ops this pass makes that alias their source buffer."""


def _writable_in_place(init: SSAValue, buffer: SSAValue, buffers: Buffers) -> bool:
    """Whether an op may overwrite `init`'s buffer: an allocation that nothing
    else reads later, neither as this tensor nor through a view made earlier."""
    return (
        buffers.has_one_live_use(init)
        and isinstance(buffer.owner, xmemref.AllocOp)
        and not any(isinstance(use.operation, _VIEWS) for use in buffer.uses)
    )


class BufferizeHipOp(_BufferPattern):
    """A hip op in tensor mode -> memref mode, writing its init's buffer.

    The init's buffer is reused only if it is an allocation nobody else reads;
    otherwise the op gets a new allocation of the same sizes.
    """

    def matched_op_types(self) -> tuple[type[Operation], ...]:
        """For `TypedPatternApplier`: hip compute ops only."""
        return (hip.HipDPSOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, hip.HipDPSOp) or not op.is_tensor_mode:
            return
        inputs = self.buffers.of_all(op.inputs)
        outputs = self.buffers.of_all(op.outputs)
        if inputs is None or outputs is None:
            return
        new_outputs = [
            buffer
            if _writable_in_place(init, buffer, self.buffers)
            else _fresh_buffer_like(buffer, rewriter)
            for init, buffer in zip(op.outputs, outputs)
        ]
        new_op = memref_mode_op(op, inputs, new_outputs)
        self.buffers.convert(op, rewriter, [new_op], new_outputs)


def memref_mode_op(
    op: hip.HipDPSOp, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> hip.HipDPSOp:
    """`op` on buffers: what `type(op)(op.ctx, inputs, outputs, index_operands=...,
    properties=..., attributes=...)` builds, without the builder's generic
    argument handling (800 hip ops at 100 attention layers). The operand
    groups keep their sizes, so do the segment sizes; the builder puts them
    after the other properties."""
    segments = op.properties.get("operandSegmentSizes")
    properties = {k: v for k, v in op.properties.items() if k != "operandSegmentSizes"}
    ins, outs = len(op.inputs), len(op.outputs)
    if segments is None or len(inputs) != ins or len(outputs) != outs:
        return type(op)(
            op.ctx,
            inputs,
            outputs,
            index_operands=list(op.index_operands),
            properties=dict[str, Attribute | None](properties),
            attributes=dict(op.attributes),
        )
    properties["operandSegmentSizes"] = segments
    # The context and the index operands: the operands before the two groups,
    # without reading the groups again through their accessors.
    head = op.operands[: len(op.operands) - ins - outs]
    return type(op).create(
        operands=[*head, *inputs, *outputs],
        properties=properties,
        attributes=dict(op.attributes),
    )


def _fresh_buffer_like(buffer: SSAValue, rewriter: PatternRewriter) -> SSAValue:
    assert AnyMemRefTypeConstr.verifies(buffer.type)
    shape = buffer.type.get_shape()
    sizes: list[SSAValue] = []
    for i, size in enumerate(shape):
        if size != DYNAMIC_INDEX:
            continue
        index = arith.ConstantOp(IntegerAttr.from_index_int_value(i))
        index.result.name_hint = f"c{i}"
        dim = _dim_op(buffer, index.result)
        dim.result.name_hint = "dim"
        rewriter.insert([index, dim])
        sizes.append(dim.result)
    alloc = _alloc_op(sizes, MemRefType(buffer.type.get_element_type(), shape))
    alloc.memref.name_hint = "alloc"
    rewriter.insert(alloc)
    return alloc.memref


def _strides(
    memref_type: MemRefType[Attribute],
) -> tuple[list[int | None], int | None] | None:
    """Strides and offset of a strided layout; None for the identity layout."""
    layout = memref_type.layout
    if isinstance(layout, NoneAttr):
        return None
    assert isinstance(layout, StridedLayoutAttr)
    strides = [s.data if isinstance(s, IntAttr) else None for s in layout.strides.data]
    offset = layout.offset.data if isinstance(layout.offset, IntAttr) else None
    return strides, offset


def _groups(reassociation: ArrayAttr[ArrayAttr[IntegerAttr]]) -> list[list[int]]:
    return [[i.value.data for i in group.data] for group in reassociation.data]


def collapsed_type(
    source: MemRefType[Attribute], groups: list[list[int]], shape: tuple[int, ...]
) -> MemRefType[Attribute]:
    """A collapse keeps the innermost stride of each group."""
    strided = _strides(source)
    if strided is None:
        return MemRefType(source.get_element_type(), shape)
    strides, offset = strided
    return MemRefType(
        source.get_element_type(),
        shape,
        StridedLayoutAttr([strides[g[-1]] for g in groups], offset),
    )


def expanded_type(
    source: MemRefType[Attribute], groups: list[list[int]], shape: tuple[int, ...]
) -> MemRefType[Attribute]:
    """An expansion multiplies each group's stride by the sizes inside it."""
    strided = _strides(source)
    if strided is None:
        return MemRefType(source.get_element_type(), shape)
    strides, offset = strided
    result: list[int | None] = [None] * len(shape)
    for k, group in enumerate(groups):
        stride = strides[k]
        for j in reversed(group):
            result[j] = stride
            size = shape[j]
            stride = None if stride is None or size == DYNAMIC_INDEX else stride * size
    return MemRefType(
        source.get_element_type(), shape, StridedLayoutAttr(result, offset)
    )


class BufferizeCollapseShape(_BufferPattern):
    """`tensor.collapse_shape` -> `memref.collapse_shape`, a view."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.CollapseShapeOp, rewriter: PatternRewriter
    ) -> None:
        buffer = self.buffers.of(op.src)
        if buffer is None:
            return
        assert AnyMemRefTypeConstr.verifies(buffer.type)
        result_type = collapsed_type(
            buffer.type, _groups(op.reassociation), op.result.type.get_shape()
        )
        view = xmemref.CollapseShapeOp.create(
            operands=[buffer],
            result_types=[result_type],
            properties={"reassociation": op.reassociation},
        )
        view.results[0].name_hint = "collapse_shape"
        self.buffers.convert(op, rewriter, [view], view.results)


class BufferizeExpandShape(_BufferPattern):
    """`tensor.expand_shape` -> `memref.expand_shape`, a view."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.ExpandShapeOp, rewriter: PatternRewriter
    ) -> None:
        buffer = self.buffers.of(op.src)
        if buffer is None:
            return
        assert AnyMemRefTypeConstr.verifies(buffer.type)
        result_type = expanded_type(
            buffer.type, _groups(op.reassociation), op.result.type.get_shape()
        )
        view = xmemref.ExpandShapeOp.create(
            operands=[buffer, *op.dynamic_output_shape],
            result_types=[result_type],
            properties={
                "reassociation": op.reassociation,
                "static_output_shape": DenseArrayBase.from_list(
                    i64, op.static_output_shape.get_values()
                ),
            },
        )
        view.results[0].name_hint = "expand_shape"
        self.buffers.convert(op, rewriter, [view], view.results)


class BufferizeTensorCast(_BufferPattern):
    """`tensor.cast` -> `memref.cast`, keeping the source's layout."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.CastOp, rewriter: PatternRewriter) -> None:
        buffer = self.buffers.of(op.source)
        if buffer is None or not AnyTensorTypeConstr.verifies(op.dest.type):
            return
        assert AnyMemRefTypeConstr.verifies(buffer.type)
        result_type = MemRefType(
            buffer.type.get_element_type(),
            op.dest.type.get_shape(),
            buffer.type.layout,
        )
        cast = CastOp(buffer, result_type)
        cast.results[0].name_hint = "cast"
        self.buffers.convert(op, rewriter, [cast], cast.results)


class BufferizeReadback(_BufferPattern):
    """`hip.readback` reads the buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hip.ReadbackOp, rewriter: PatternRewriter) -> None:
        buffer = self.buffers.of(op.source)
        if buffer is None:
            return
        new = hip.ReadbackOp(op.ctx, buffer, len(op.values))
        rewriter.replace(op, new)


def _touches_tensors(op: Operation) -> bool:
    # `type(...) is`: TensorType has no subclasses, and `isinstance` of an
    # xDSL ABC runs Python; this looks at every value of the module.
    # Loops, not a generator over a new tuple: 4,400 ops at 100 layers.
    for value in op.operands:
        if type(value.type) is TensorType:
            return True
    for value in op.results:
        if type(value.type) is TensorType:
            return True
    return isinstance(op, func.FuncOp) and any(
        isinstance(t, TensorType)
        for t in (*op.function_type.inputs, *op.function_type.outputs)
    )


_KNOWN_OPS = (
    func.FuncOp,
    func.ReturnOp,
    arith.ConstantOp,
    tensor.EmptyOp,
    tensor.DimOp,
    tensor.CollapseShapeOp,
    tensor.ExpandShapeOp,
    tensor.CastOp,
    hip.HipDPSOp,
    hip.ReadbackOp,
)
"""Ops the patterns convert; others that use tensors are what the error names."""


def _describe(op: Operation) -> str:
    function = enclosing_function(op)
    where = f" in @{function.sym_name.data}" if function is not None else ""
    return f"{op.name}{where}"


def _erase_dead_wrappers(module: builtin.ModuleOp) -> list[Operation]:
    """Erase the wrappers no one reads; the module's other ops, in walk order
    (erasing them takes no other op away)."""
    ops = list(module.walk())
    erased: set[int] = set()
    for op in reversed(ops):
        if isinstance(op, bufferization.ToTensorOp) and op.tensor.first_use is None:
            op.detach()
            op.erase()
            erased.add(id(op))
    return [op for op in ops if id(op) not in erased] if erased else ops


@dataclass(frozen=True)
class OneShotBufferizePass(ModulePass):
    name = "one-shot-bufferize"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        buffers = Buffers()
        PatternRewriteWalker(
            TypedPatternApplier(
                [
                    BufferizeFunctionArguments(),
                    BufferizeTensorConstant(buffers, ConstantGlobals(op)),
                    BufferizeEmptyTensor(buffers),
                    BufferizeDim(buffers),
                    BufferizeReadback(buffers),
                    BufferizeHipOp(buffers),
                    BufferizeCollapseShape(buffers),
                    BufferizeExpandShape(buffers),
                    BufferizeTensorCast(buffers),
                    BufferizeReturn(buffers),
                ]
            ),
            apply_recursively=False,
        ).rewrite_module(op)
        buffers.finish()
        leftovers = [
            o
            for o in _erase_dead_wrappers(op)
            if _touches_tensors(o) and not isinstance(o, bufferization.ToTensorOp)
        ]
        unknown = [o for o in leftovers if not isinstance(o, _KNOWN_OPS)] or leftovers
        if unknown:
            names = ", ".join(_describe(o) for o in unknown)
            raise PassFailedException(
                f"one-shot-bufferize: cannot bufferize {len(unknown)} op(s) that "
                f"use tensors: {names}"
            )
