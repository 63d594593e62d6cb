"""Ops whose sizes are shape values: ConstantOfShape, Range; and where shape
values meet device memory (`hip.from_elements`, `hip.readback`).

`onnx-fold-shapes` has already made each shape value a constant or a
`tensor.from_elements` of index values; `shape_operand` reads them back, and
reads a value known only at run time (a shape given as a graph input, a Range
over data) with `hip.readback`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

from xdsl.dialects import arith, builtin, tensor
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    TensorType,
    f16,
    f32,
    f64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import Rewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index, IndexArith, index_values, named_dims
from xhip.transforms.onnx_to_hip.support import (
    ConversionState,
    OnnxPattern,
    Unsupported,
    constant_scalar,
    context_of,
    ranked,
)


def shape_operand(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    value: SSAValue,
    what: str,
) -> list[Index]:
    """The elements of a 0-D/1-D int operand: folded, or read back at run time."""
    elements = index_values(value)
    if elements is not None:
        return elements
    t = ranked(value, what)
    shape = t.get_shape()
    if len(shape) > 1 or any(s < 0 for s in shape):
        raise Unsupported(f"{what} must be a 0-D or 1-D tensor of static length")
    if not isinstance(t.get_element_type(), IntegerType):
        raise Unsupported(f"{what} must be an integer tensor, not {t}")
    count = shape[0] if shape else 1
    readback = hip.ReadbackOp(context_of(op), value, count)
    rewriter.insert(readback)
    return list(readback.values)


def empty(
    rewriter: PatternRewriter,
    result_type: TensorType[Attribute],
    sizes: list[Index],
    arith_: IndexArith,
) -> SSAValue:
    """`tensor.empty` of `result_type` with `sizes`; checks the static ones."""
    shape = result_type.get_shape()
    if len(sizes) != len(shape):
        raise Unsupported(
            f"the shape has {len(sizes)} elements, the result type {result_type} "
            f"rank {len(shape)}"
        )
    dynamic: list[SSAValue] = []
    for i, (static, size) in enumerate(zip(shape, sizes)):
        if static >= 0:
            if isinstance(size, int) and size != static:
                raise Unsupported(
                    f"dim {i} is {size}, the result type {result_type} says {static}"
                )
            continue
        dynamic.append(arith_.value(size))
    init = tensor.EmptyOp(dynamic, result_type)
    rewriter.insert(init)
    return init.tensor


class ConvertShape(OnnxPattern[onnx.ShapeOp]):
    """`onnx.Shape` that `onnx-fold-shapes` left (it folds every one it can
    see): the dims, written by the host."""

    def convert(self, op: onnx.ShapeOp, rewriter: PatternRewriter) -> None:
        rank = len(ranked(op.data, "the input").get_shape())
        start, end = (
            op.get_int("start"),
            (op.end.value.data if op.end is not None else rank),
        )
        start = min(max(start + rank if start < 0 else start, 0), rank)
        end = min(max(end + rank if end < 0 else end, 0), rank)
        arith_ = IndexArith(rewriter, op, self.state.folder)
        _write_from_host(
            self, op, rewriter, [arith_.dim(op.data, i) for i in range(start, end)]
        )


class ConvertSize(OnnxPattern[onnx.SizeOp]):
    """`onnx.Size` that `onnx-fold-shapes` left: the product of the dims."""

    def convert(self, op: onnx.SizeOp, rewriter: PatternRewriter) -> None:
        rank = len(ranked(op.data, "the input").get_shape())
        arith_ = IndexArith(rewriter, op, self.state.folder)
        size = arith_.product([arith_.dim(op.data, i) for i in range(rank)])
        _write_from_host(self, op, rewriter, [size])


def _write_from_host(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    values: list[Index],
) -> None:
    result_type = ranked(op.results[0], "the result")
    arith_ = IndexArith(rewriter, op, pattern.state.folder)
    init = tensor.EmptyOp([], result_type)
    rewriter.insert(init)
    new = hip.FromElementsOp.make(
        context_of(op), values=[arith_.value(v) for v in values], out=init.tensor
    )
    rewriter.replace(op, new)


class ConvertConstantOfShape(OnnxPattern[onnx.ConstantOfShapeOp]):
    """`onnx.ConstantOfShape` -> `hip.fill` of an init sized by the shape value."""

    def convert(self, op: onnx.ConstantOfShapeOp, rewriter: PatternRewriter) -> None:
        result_type = ranked(op.output, "the result")
        sizes = shape_operand(self, op, rewriter, op.input, "the shape operand")
        arith_ = IndexArith(rewriter, op, self.state.folder)
        init = empty(rewriter, result_type, sizes, arith_)
        value: int | float = 0.0
        attr = op.value
        if isinstance(attr, DenseIntOrFPElementsAttr):
            values = list(attr.get_values())  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]
            if len(values) != 1:  # pyright: ignore[reportUnknownArgumentType]
                raise Unsupported("'value' must have one element")
            value = values[0]  # pyright: ignore[reportUnknownVariableType]
        element = result_type.get_element_type()
        if isinstance(element, IntegerType):
            new = hip.FillOp.make(
                context_of(op),
                out=init,
                value=int(value),  # pyright: ignore[reportUnknownArgumentType]
                integer_type=cast(IntegerType, element),
            )
        else:
            new = hip.FillOp.make(
                context_of(op),
                out=init,
                value=float(value),  # pyright: ignore[reportUnknownArgumentType]
            )
        rewriter.replace(op, new)


class ConvertRange(OnnxPattern[onnx.RangeOp]):
    """`onnx.Range` -> `hip.range`, its length `max(ceil((limit - start) /
    delta), 0)`: index arithmetic on integer shape values, a number for float
    constants, else the three scalars read back."""

    def convert(self, op: onnx.RangeOp, rewriter: PatternRewriter) -> None:
        result_type = ranked(op.output, "the result")
        arith_ = IndexArith(rewriter, op, self.state.folder)
        element = result_type.get_element_type()
        length: Index
        wide: Attribute | None = None
        if isinstance(element, IntegerType):
            start, limit, delta = (
                shape_operand(self, op, rewriter, v, f"operand '{n}'")[0]
                for v, n in (
                    (op.start, "start"),
                    (op.limit, "limit"),
                    (op.delta, "delta"),
                )
            )
            if delta == 0:
                raise Unsupported("delta is 0")
            length = arith_.max(arith_.ceil_div(arith_.sub(limit, start), delta), 0)
        else:
            numbers = [constant_scalar(v) for v in (op.start, op.limit, op.delta)]
            if any(n is None for n in numbers):
                raise Unsupported("a float Range needs constant start, limit and delta")
            start_f, limit_f, delta_f = (float(n) for n in numbers if n is not None)
            if delta_f == 0:
                raise Unsupported("delta is 0")
            length = max(math.ceil((limit_f - start_f) / delta_f), 0)
            wide = _stash_element(op, element)
        ctx = context_of(op)
        if wide is None:
            init = empty(rewriter, result_type, [length], arith_)
            rewriter.replace(
                op, hip.RangeOp.make(ctx, start=op.start, delta=op.delta, out=init)
            )
            return
        start_w, delta_w = (
            _cast(rewriter, ctx, v, TensorType(wide, [])) for v in (op.start, op.delta)
        )
        init = empty(
            rewriter, TensorType(wide, result_type.get_shape()), [length], arith_
        )
        steps = hip.RangeOp.make(ctx, start=start_w, delta=delta_w, out=init)
        rewriter.insert(steps)
        init = empty(rewriter, result_type, [length], arith_)
        rewriter.replace(op, hip.CastOp.make(ctx, src=steps.results[0], out=init))


_STASH_TYPES: dict[int, Attribute] = {1: f32, 11: f64}
"""Range-27's `stash_type` (an ONNX type code): the precision of a float16
Range's computation."""


def _stash_element(op: onnx.RangeOp, element: Attribute) -> Attribute | None:
    """The wider element type a float16 Range computes in (Range-27: float32
    by default, as ONNX Runtime does), rounding once at the end; None for the
    other types, which `stash_type` does not affect."""
    if element != f16:
        return None
    stash = op.get_int("stash_type")
    wide = _STASH_TYPES.get(stash)
    if wide is None:
        raise Unsupported(f"stash_type {stash} (float or double only)")
    return wide


def _cast(
    rewriter: PatternRewriter, ctx: SSAValue, value: SSAValue, to: TensorType[Attribute]
) -> SSAValue:
    init = tensor.EmptyOp([], to)
    rewriter.insert(init)
    cast_ = hip.CastOp.make(ctx, src=value, out=init.tensor)
    rewriter.insert(cast_)
    return cast_.results[0]


def materialize_shape_values(
    module: builtin.ModuleOp,
    state: ConversionState,
    ops: Sequence[Operation] | None = None,
) -> None:
    """What is left of the folded shape values after conversion: dead ones
    go, and each one device code reads becomes a `hip.from_elements`. Every
    `tensor.dim` of a named input dim reads the first input of that name.

    `ops`: the module's ops in walk order, if the caller has walked it since
    the conversion (less any it erased): one walk for the pass's last steps.
    """
    if ops is None:
        ops = list(module.walk())
    sizes = state.sizes
    named = (
        sizes.named  # what the patterns used: no pattern changes arguments
        if sizes is not None and sizes.module is module
        else named_dims(module)
    )
    for op in ops:
        if isinstance(op, tensor.DimOp):
            index = index_values(op.index)
            if index is not None and isinstance(index[0], int):
                canonical = named.get((op.source, index[0]))
                if canonical is not None and canonical[0] is not op.source:
                    source, i = canonical
                    op.operands = [
                        source,
                        state.folder.index(PatternRewriter(op), op, i),
                    ]
    # The index constants made above are the only new ops: no shape value.
    shapes = [op for op in ops if isinstance(op, tensor.FromElementsOp)]
    for op in reversed(shapes):
        if not op.result.uses:
            _erase_with_dead_operands(op)
    for op in shapes:
        if not within(op, module):  # erased as a dead shape value's operand
            continue
        elements = index_values(op.result)
        if elements is None:
            continue
        rewriter = PatternRewriter(op)
        arith_ = IndexArith(rewriter, op, state.folder)
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        init = tensor.EmptyOp([], result_type)  # pyright: ignore[reportUnknownArgumentType]
        rewriter.insert(init)
        try:
            ctx = context_of(op)
        except Unsupported:
            continue
        new = hip.FromElementsOp.make(
            ctx, values=[arith_.value(e) for e in elements], out=init.tensor
        )
        rewriter.replace(op, new)


def within(op: Operation, top: Operation) -> bool:
    """Whether `op` is still in `top` (not erased, nor in an erased op)."""
    while op is not top:
        parent = op.parent_op()
        if parent is None:
            return False
        op = parent
    return True


def _erase_with_dead_operands(op: Operation) -> None:
    """`op`, and then each producer only it used (the index_casts)."""
    producers = [v.owner for v in op.operands]
    Rewriter.erase_op(op)
    for producer in producers:
        if (
            isinstance(producer, Operation)
            and producer.parent is not None
            and not producer.name.startswith("onnx.")
            and not isinstance(producer, hip.ReadbackOp | arith.ConstantOp)
            and all(not r.uses for r in producer.results)
        ):
            _erase_with_dead_operands(producer)
