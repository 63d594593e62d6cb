"""`convert-bufferization-to-memref`: the last bufferization ops become memref ops.

Like upstream MLIR's pass: a `bufferization.clone` is a fresh identity-layout
`memref.alloc` filled by `memref.copy` (and cast back to the clone's type), a
`bufferization.dealloc` is lowered as `bufferization-lower-deallocations` does, and
no other bufferization op may survive: the hip lowering after it knows only memrefs.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, bufferization, builtin, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from xhip.dialects.memref import CastOp, DimOp
from xhip.transforms.bufferization_lower_deallocations import LowerDeallocOp
from xhip.transforms.typed_patterns import TypedPatternApplier


def _fail(message: str) -> PassFailedException:
    return PassFailedException(f"convert-bufferization-to-memref: {message}")


def _identity_cast_compatible(target: MemRefType) -> bool:
    """Whether an identity-layout buffer of `target`'s shape may be cast to it."""
    if isinstance(target.layout, NoneAttr):
        return True
    strides, offset = target.get_strides(), target.get_offset()
    if strides is None:
        return False
    identity = MemRefType(target.element_type, target.get_shape()).get_strides()
    assert identity is not None
    return all(
        s is None or s == DYNAMIC_INDEX or s == i
        for s, i in zip(strides, identity, strict=True)
    ) and (offset is None or offset in (0, DYNAMIC_INDEX))


class CloneToAllocAndCopy(RewritePattern):
    """`bufferization.clone %m` -> `memref.alloc` sized like `%m` + `memref.copy`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: bufferization.CloneOp, rewriter: PatternRewriter
    ) -> None:
        clone_type = op.output.type
        if not isinstance(clone_type, MemRefType):
            raise _fail(f"cloning an unranked memref is not supported: {op}")
        if not _identity_cast_compatible(clone_type):
            raise _fail(f"an identity-layout buffer cannot be cast to {clone_type}")
        alloc_type = MemRefType(
            clone_type.element_type,
            clone_type.get_shape(),
            NoneAttr(),
            clone_type.memory_space,
        )
        new_ops: list[Operation] = []
        sizes: list[SSAValue] = []
        for i, extent in enumerate(clone_type.get_shape()):
            if extent == DYNAMIC_INDEX:
                index = arith.ConstantOp(IntegerAttr(i, IndexType()))
                index.result.name_hint = f"c{i}"
                dim = DimOp(op.input, index)
                dim.result.name_hint = "dim"
                new_ops += [index, dim]
                sizes.append(dim.result)
        alloc = memref.AllocOp(sizes, (), alloc_type)
        alloc.memref.name_hint = "alloc"
        new_ops.append(alloc)
        result: SSAValue = alloc.memref
        if alloc_type != clone_type:
            cast = CastOp.build(operands=[alloc.memref], result_types=[clone_type])
            cast.dest.name_hint = "cast"
            new_ops.append(cast)
            result = cast.dest
        new_ops.append(memref.CopyOp(op.input, result))
        rewriter.replace(op, new_ops, [result])


@dataclass(frozen=True)
class ConvertBufferizationToMemrefPass(ModulePass):
    """Lowers `bufferization.clone` and `bufferization.dealloc` to memref ops."""

    name = "convert-bufferization-to-memref"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(
            TypedPatternApplier(
                [CloneToAllocAndCopy(), LowerDeallocOp()], dce_enabled=False
            ),
            apply_recursively=False,
        ).rewrite_module(op)
        # Upstream makes the whole dialect illegal: nothing after us handles it.
        for inner in op.walk():
            if inner.dialect_name() == "bufferization":
                raise _fail(f"cannot lower '{inner.name}': {inner}")
