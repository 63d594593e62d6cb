"""Canonicalizations of memref ops that xDSL does not have."""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xhip.dialects import hip


def constant_index(value: SSAValue) -> int | None:
    """The value of an `arith.constant` index, or None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def dynamic_size_operand(op: Operation, dim: int) -> SSAValue | None:
    """The size operand that gives dim `dim` of what an op made with its dynamic
    sizes (an alloc, a view, an `expand_shape`) returns."""
    if isinstance(op, memref.AllocOp | memref.AllocaOp | hip.AllocOp):
        sizes, result = op.dynamic_sizes, op.results[0]
    elif isinstance(op, memref.ViewOp):
        sizes, result = op.sizes, op.result
    elif isinstance(op, memref.ExpandShapeOp):
        sizes, result = op.output_shape, op.result
    else:
        return None
    assert isinstance(result.type, MemRefType)  # the constraint's own test
    shape = result.type.get_shape()  # pyright: ignore[reportUnknownMemberType]
    if not 0 <= dim < len(shape) or shape[dim] != DYNAMIC_INDEX:
        return None
    return sizes[shape[:dim].count(DYNAMIC_INDEX)]


class FoldIdentityCast(RewritePattern):
    """`memref.cast %x : T to T` is `%x`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CastOp, rewriter: PatternRewriter) -> None:
        if op.source.type == op.dest.type:
            rewriter.replace(op, [], [op.source])


class FoldCastOfCast(RewritePattern):
    """`cast(cast(%x))` casts `%x` directly."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CastOp, rewriter: PatternRewriter) -> None:
        inner = op.source.owner
        if isinstance(inner, memref.CastOp):
            # Not `get`: xDSL's builds xDSL's own class, not the registered
            # one (which prints `memref.cast %x : A to B`, as MLIR does).
            rewriter.replace(
                op,
                type(op).build(operands=[inner.source], result_types=[op.dest.type]),
            )


class FoldDimOfStaticDim(RewritePattern):
    """`memref.dim` of a static dimension is a constant."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter) -> None:
        index = constant_index(op.index)
        if index is None or not isinstance(op.source.type, MemRefType):
            return
        shape = op.source.type.get_shape()  # pyright: ignore[reportUnknownMemberType]
        if 0 <= index < len(shape) and shape[index] != DYNAMIC_INDEX:
            rewriter.replace(
                op, arith.ConstantOp.from_int_and_width(shape[index], op.result.type)
            )


class FoldDimOfAllocLike(RewritePattern):
    """`memref.dim` of an alloc, view or `expand_shape` is the size operand it was
    made with."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter) -> None:
        index = constant_index(op.index)
        if index is None or not isinstance(op.source.owner, Operation):
            return
        size = dynamic_size_operand(op.source.owner, index)
        if size is not None:
            rewriter.replace(op, [], [size])


class FoldDimOfCast(RewritePattern):
    """`memref.dim` of a cast asks the cast's source."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter) -> None:
        cast = op.source.owner
        if isinstance(cast, memref.CastOp) and isinstance(cast.source.type, MemRefType):
            rewriter.replace(op, type(op)(cast.source, op.index))


class FoldDimOfCollapseShape(RewritePattern):
    """`memref.dim` of a `collapse_shape` is the product of its group's source dims.

    Those dims fold in turn, so a size read from a reshaped buffer becomes one
    computed from the sizes the buffer was made with.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter) -> None:
        collapse = op.source.owner
        index = constant_index(op.index)
        if not isinstance(collapse, memref.CollapseShapeOp) or index is None:
            return
        groups = collapse.reassociation.data
        if not 0 <= index < len(groups) or not groups[index].data:
            return
        product: SSAValue | None = None
        for source_dim in groups[index]:
            position = rewriter.insert(
                arith.ConstantOp.from_int_and_width(source_dim.value.data, IndexType())
            )
            dim = rewriter.insert(type(op)(collapse.src, position.result)).result
            product = (
                dim
                if product is None
                else rewriter.insert(arith.MuliOp(product, dim)).result
            )
        rewriter.replace(op, [], [product])
