"""`ownership-based-buffer-deallocation`: free every buffer a function allocates.

Like MLIR's pass of the same name: each block owns the buffers allocated in it
(ownership is an `i1` value, constant here), and its terminator is preceded by
one `bufferization.dealloc` of everything the block owns, retaining what the
terminator passes on. Function arguments are listed with ownership `false`, as
the function-boundary ABI says; a returned buffer the function does not own is
cloned first. Later passes (`canonicalize`, `buffer-deallocation-simplification`,
`bufferization-lower-deallocations`) turn the deallocs into `memref.dealloc`s.

Supported: functions whose body is one block, with `scf.if`/`scf.for` nested in
it as long as they neither yield nor iterate on memrefs. Everything else fails
with a message naming the op. One walk over the IR: linear time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import bufferization as xbufferization
from xdsl.dialects import builtin, func, memref, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import PassFailedException

from xhip.analysis.liveness import is_memref
from xhip.dialects.bufferization import DeallocOp
from xhip.dialects.memref import ReallocOp
from xhip.transforms.canonicalization_patterns.bufferization import (
    allocates,
    bool_constant,
    constant_bool,
    frees,
)


@dataclass
class BlockOwnership:
    """What one block owns: buffers to free at its end, with their conditions."""

    block: Block
    indicators: dict[SSAValue, SSAValue | None] = field(default_factory=dict)
    """Ownership of each memref defined in the block; None means unknown."""
    to_free: list[SSAValue] = field(default_factory=list)
    allocated: list[bool] = field(default_factory=list)
    """Per `to_free` value, whether an op that `allocates` made it (asked once,
    as the walk meets the op)."""
    false_value: SSAValue | None = None

    def false(self) -> SSAValue:
        """A `false` at the start of the block, shared by what it does not own."""
        if self.false_value is None:
            constant = bool_constant(False)
            Rewriter.insert_op(constant, InsertPoint.at_start(self.block))
            self.false_value = constant.result
        return self.false_value

    def of(self, value: SSAValue) -> SSAValue | None:
        """Ownership of `value` here: buffers from enclosing blocks are never owned."""
        if value in self.indicators:
            return self.indicators[value]
        return self.false()

    def own(self, value: SSAValue, after: Operation, allocated: bool) -> None:
        constant = bool_constant(True)
        Rewriter.insert_op(constant, InsertPoint.after(after))
        self.indicators[value] = constant.result
        self.to_free.append(value)
        self.allocated.append(allocated)


def _fail(op: Operation, why: str) -> PassFailedException:
    return PassFailedException(
        f"ownership-based-buffer-deallocation: '{op.name}' {why}"
    )


class OwnershipBasedBufferDeallocation:
    """Inserts the deallocs of one function."""

    def run(self, function: func.FuncOp) -> None:
        if not function.body.blocks:
            return
        if len(function.body.blocks) > 1:
            raise _fail(
                function,
                f"@{function.sym_name.data} has more than one block; "
                "unstructured control flow is not supported",
            )
        self.deallocate(function.body.block, is_function_entry=True)

    def deallocate(self, block: Block, is_function_entry: bool) -> None:
        state = BlockOwnership(block)
        for arg in block.args:
            if not is_memref(arg):
                continue
            if not is_function_entry:
                owner = block.parent_op() or block.last_op
                assert owner is not None
                raise _fail(
                    owner,
                    "has a memref block argument; only function arguments are supported",
                )
            state.indicators[arg] = state.false()
            state.to_free.append(arg)
            state.allocated.append(False)
        for op in list(block.ops):
            if op is block.last_op and op.has_trait(IsTerminator):
                self.deallocate_at_terminator(op, state)
            else:
                self.visit(op, state)

    def visit(self, op: Operation, state: BlockOwnership) -> None:
        if isinstance(op, DeallocOp) or frees(op):
            hint = "; run expand-realloc first" if isinstance(op, ReallocOp) else ""
            raise _fail(op, f"frees a buffer; the input must not free buffers{hint}")
        if op.regions:
            self.visit_region_op(op)
        memref_results = [r for r in op.results if is_memref(r)]
        if not memref_results:
            return
        allocated = allocates(op)
        if allocated or isinstance(op, func.CallOp):
            # Callees hand over what they return (the function-boundary ABI).
            for result in memref_results:
                state.own(result, op, allocated)
            return
        if isinstance(op, memref.AllocaOp):
            for result in memref_results:
                state.indicators[result] = state.false()
            return
        # A view or unknown op: its results share its memref operands' ownership.
        owners = {state.of(o) for o in op.operands if is_memref(o)}
        if not owners:
            indicator: SSAValue | None = state.false()
        elif len(owners) == 1:
            indicator = owners.pop()
        else:
            indicator = None
        for result in memref_results:
            state.indicators[result] = indicator

    def visit_region_op(self, op: Operation) -> None:
        if not isinstance(op, scf.IfOp | scf.ForOp):
            raise _fail(op, "has regions; only scf.if and scf.for are supported")
        if any(is_memref(r) for r in op.results) or any(
            is_memref(o) for o in op.operands
        ):
            raise _fail(op, "yields or iterates on memrefs, which is not supported")
        for region in op.regions:
            for block in region.blocks:
                self.deallocate(block, is_function_entry=False)

    def deallocate_at_terminator(self, op: Operation, state: BlockOwnership) -> None:
        if isinstance(op, func.ReturnOp):
            for i, value in enumerate(op.operands):
                if is_memref(value):
                    op.operands[i] = self.guarantee_ownership(value, op, state)
        elif not isinstance(op, scf.YieldOp):
            raise _fail(op, "is a terminator this pass does not support")
        retained = [v for v in op.operands if is_memref(v)]
        if not state.to_free and not retained:
            return
        memrefs: list[SSAValue] = []
        for value, allocated in zip(state.to_free, state.allocated, strict=True):
            if not isinstance(value.type, MemRefType):
                raise _fail(op, "ends a block that owns an unranked memref")
            if allocated:
                # What canonicalize would make of MLIR's extract_strided_metadata.
                memrefs.append(value)
                continue
            metadata = memref.ExtractStridedMetaDataOp(value)
            metadata.base_buffer.name_hint = "base_buffer"
            Rewriter.insert_op(metadata, InsertPoint.before(op))
            memrefs.append(metadata.base_buffer)
        conditions: list[SSAValue] = []
        for value in state.to_free:
            condition = state.indicators[value]
            assert condition is not None
            conditions.append(condition)
        Rewriter.insert_op(
            DeallocOp(memrefs, conditions, retained),
            InsertPoint.before(op),
        )

    def guarantee_ownership(
        self, value: SSAValue, op: Operation, state: BlockOwnership
    ) -> SSAValue:
        """The function must own what it returns: clone what it does not."""
        indicator = state.of(value)
        if indicator is not None and constant_bool(indicator) is True:
            return value
        assert indicator is None or constant_bool(indicator) is False
        clone = xbufferization.CloneOp(value)
        Rewriter.insert_op(clone, InsertPoint.before(op))
        state.own(clone.output, clone, allocated=True)
        return clone.output


@dataclass(frozen=True)
class OwnershipBasedBufferDeallocationPass(ModulePass):
    """Insert `bufferization.dealloc`s with ownership conditions, like MLIR."""

    name = "ownership-based-buffer-deallocation"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        functions = [f for f in op.walk() if isinstance(f, func.FuncOp)]
        for function in functions:
            OwnershipBasedBufferDeallocation().run(function)
