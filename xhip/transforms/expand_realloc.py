"""`expand-realloc`: `memref.realloc` as alloc, copy and (optionally) dealloc.

Exactly MLIR's expansion: the old buffer is kept when the new size is not larger
(a `memref.reinterpret_cast` of it to the new size), otherwise a new buffer is
allocated, the old contents copied into its front and the old buffer freed.

    %new = memref.realloc %old(%n) : memref<?xf32> to memref<?xf32>

becomes

    %c0 = arith.constant 0 : index
    %dim = memref.dim %old, %c0 : memref<?xf32>
    %grows = arith.cmpi ult, %dim, %n : index
    %new = scf.if %grows -> (memref<?xf32>) {
      %alloc = memref.alloc(%n) : memref<?xf32>
      %front = memref.subview %alloc[0] [%dim] [1] : ...
      memref.copy %old, %front : ...
      memref.dealloc %old : memref<?xf32>        // unless emit-deallocs=false
      scf.yield %alloc : memref<?xf32>
    } else {
      %view = memref.reinterpret_cast %old to offset: [0], sizes: [%n], strides: [1] : ...
      scf.yield %view : memref<?xf32>
    }
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    MemRefType,
    StridedLayoutAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from xhip.dialects.memref import ReallocOp


def _index(value: int) -> arith.ConstantOp:
    constant = arith.ConstantOp.from_int_and_width(value, IndexType())
    constant.result.name_hint = f"c{value}"
    return constant


@dataclass
class ExpandReallocOp(RewritePattern):
    """Replace one `memref.realloc` by its `scf.if` expansion."""

    emit_deallocs: bool = True

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReallocOp, rewriter: PatternRewriter) -> None:
        source_type, result_type = op.source.type, op.result.type
        assert isinstance(source_type, MemRefType)
        assert isinstance(result_type, MemRefType)
        if source_type.get_num_dims() != 1 or result_type.get_num_dims() != 1:
            raise PassFailedException(
                "expand-realloc: 'memref.realloc' of a buffer that is not 1-D"
            )
        new_ops: list[Operation] = []

        def size_of(value: int, dynamic: SSAValue | None) -> SSAValue:
            if dynamic is not None:
                return dynamic
            constant = _index(value)
            new_ops.append(constant)
            return constant.result

        old_static = source_type.get_shape()[0]
        if old_static == DYNAMIC_INDEX:
            zero = _index(0)
            dim = memref.DimOp(op.source, zero)
            dim.result.name_hint = "dim"
            new_ops += [zero, dim]
            old_size = dim.result
        else:
            old_size = size_of(old_static, None)
        new_static = result_type.get_shape()[0]
        new_size = size_of(new_static, op.dynamic_result_size)
        grows = arith.CmpiOp(old_size, new_size, "ult")
        new_ops.append(grows)

        alloc = memref.AllocOp(
            [op.dynamic_result_size] if op.dynamic_result_size else [],
            [],
            result_type,
            op.alignment,
        )
        alloc.memref.name_hint = "alloc"
        front_type = MemRefType(
            result_type.element_type,
            [old_static],
            StridedLayoutAttr([1], 0),
            result_type.memory_space,
        )
        front = memref.SubviewOp.get(
            alloc.memref,
            [0],
            [old_size if old_static == DYNAMIC_INDEX else old_static],
            [1],
            front_type,
        )
        front.result.name_hint = "subview"
        grow_ops: list[Operation] = [alloc, front, memref.CopyOp(op.source, front)]
        if self.emit_deallocs:
            grow_ops.append(memref.DeallocOp.get(op.source))
        grow_ops.append(scf.YieldOp(alloc.memref))

        view = memref.ReinterpretCastOp(
            op.source,
            [],
            [op.dynamic_result_size] if op.dynamic_result_size else [],
            [],
            [0],
            [new_static],
            [1],
            result_type,
        )
        view.result.name_hint = "reinterpret_cast"
        keep_ops: list[Operation] = [view, scf.YieldOp(view.result)]
        expansion = scf.IfOp(
            grows, [result_type], Region(Block(grow_ops)), Region(Block(keep_ops))
        )
        new_ops.append(expansion)
        rewriter.replace(op, new_ops, expansion.results)


@dataclass(frozen=True)
class ExpandReallocPass(ModulePass):
    """Expand every `memref.realloc`, like MLIR's pass of the same name."""

    name = "expand-realloc"

    emit_deallocs: bool = True

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(
            ExpandReallocOp(self.emit_deallocs), apply_recursively=False
        ).rewrite_module(op)
