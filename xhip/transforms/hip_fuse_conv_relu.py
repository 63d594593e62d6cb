"""`hip-fuse-conv-relu`: a Relu right after a convolution is written by it.

    hip.miopen.conv(%ctx) ins(%x, %w, %b : ...) outs(%t, %ws : ...) {...}
    hip.miopen.relu(%ctx) ins(%t : ...) outs(%u : ...)
->
    hip.miopen.conv(%ctx) ins(%x, %w, %b : ...) outs(%u, %ws : ...) {..., relu}

A CNN's Relu after each Conv is a pass of the whole activation through memory
(ResNet-18: 9 of them, 0.48 ms of a 22 ms run on two threads, timed call
by call); fused, the conv's kernels clamp each output as they add the bias.

It works on the final IR as `hip-fuse-elementwise` does, on versions of
buffers: the version the conv writes to `%t` must be read by the Relu alone
(then overwritten, freed or never touched), with only ops that write no
memory between the two, and `%u` defined before the conv (or by a view
between them, which moves up). The conv now writes `%u` before the Relu
would have, where the seed's memory plan may have put a conv operand that
dies at the conv (`hip-plan-memory` plans with this pass in mind); the CPU
runtime checks that overlap when it binds the call, and writes through a
copy if it finds it.

Not part of `onnx-to-hip` (whose output is the seed's): the backend runs it
before executing the IR, on runtimes that read `ConvAttributes.relu`
(`Runtime.fuses_conv_relu`), before `hip-fuse-elementwise`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func, memref
from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import is_side_effect_free

from xhip.dialects import hip
from xhip.transforms.hip_fuse_elementwise import (
    Access,
    buffer_accesses,
    buffer_root,
    writes_no_memory,
)


def _read_by_relu_alone(conv: int, relu: int, accesses: list[Access]) -> bool:
    """Whether the version the op at `conv` writes is read at `relu` alone:
    after it, the buffer is next overwritten, freed, or never touched."""
    for access in accesses:
        if access.position <= conv:
            continue
        if access.position == relu:
            if access.kills:  # a Relu in place
                return True
            continue
        if access.reads:
            return False
        if access.kills or access.frees:
            return True
    return True


def _relu_after(ops: list[Operation], at: int) -> int | None:
    """The position of the first op after `at` that writes memory, if it
    is a memref-mode Relu."""
    for position in range(at + 1, len(ops)):
        op = ops[position]
        if isinstance(op, hip.ReluOp):
            return None if op.is_tensor_mode else position
        if not writes_no_memory(op):
            return None
    return None


def _available(
    value: SSAValue, ops: list[Operation], at: int, end: int, moved: set[Operation]
) -> bool:
    """Whether `value` can be used at the op at `at` of this block: defined
    before it, or by a side-effect-free op before `end` (the Relu; the view
    the memory plan gives its out), which moves up to just before it, its
    operands first."""
    owner = value.owner
    if isinstance(value, BlockArgument) or owner in moved:
        return True
    assert isinstance(owner, Operation)
    if owner.parent_block() is not ops[at].parent_block():
        return True  # an enclosing region's: it dominates the block
    position = ops.index(owner)
    if position < at:
        return True
    if position >= end or owner.regions or not is_side_effect_free(owner):
        return False
    if not all(_available(v, ops, at, end, moved) for v in owner.operands):
        return False
    owner.detach()
    ops[at].parent_block().insert_op_before(owner, ops[at])  # pyright: ignore[reportOptionalMemberAccess]
    moved.add(owner)
    return True


def fuse_block(block: Block) -> int:
    """Fuses each Relu of the block into the conv before it; the count."""
    accesses = buffer_accesses(block)
    ops = list(block.ops)
    moved: set[Operation] = set()
    made = 0
    for at, conv in enumerate(ops):
        if (
            not isinstance(conv, hip.ConvOp)
            or conv.is_tensor_mode
            or conv.relu is not None
        ):
            continue
        position = _relu_after(ops, at)
        if position is None:
            continue
        relu = ops[position]
        assert isinstance(relu, hip.ReluOp)
        out, target = conv.outputs[0], relu.outputs[0]
        root = buffer_root(out)
        if (
            relu.inputs[0] is not out
            or target.type != out.type
            or root is not out
            or isinstance(out, BlockArgument)
            or isinstance(out.owner, memref.GetGlobalOp)
            or not _read_by_relu_alone(at, position, accesses[root])
            or not _available(target, ops, at, position, moved)
        ):
            continue
        operands = list(conv.operands)
        operands[len(operands) - len(conv.outputs)] = target
        conv.operands = operands
        conv.relu = UnitAttr()
        Rewriter.erase_op(relu)
        made += 1
    return made


@dataclass(frozen=True)
class HipFuseConvReluPass(ModulePass):
    name = "hip-fuse-conv-relu"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for function in op.walk():
            if isinstance(function, func.FuncOp):
                for block in function.body.blocks:
                    fuse_block(block)
