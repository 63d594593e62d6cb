"""`hip-fuse-elementwise`: connected elementwise ops become one `hip.fused_elementwise`.

    hip.miopen.div(%ctx) ins(%h, %c : memref<?x64xf32>, memref<f32>) outs(%t : ...)
    hip.miopen.erf(%ctx) ins(%t : ...) outs(%u : ...)
->
    hip.fused_elementwise(%ctx) ins(%h, %c : ...) outs(%u : ...)
        {body = "div(x0, x1) : f32; erf(s0) : f32"}

An erf-GELU is eight ops, each a launch and a round trip of the whole
activation through memory; fused, it is one of each. The group's body is its
ops' formulas composed (`xhip/dialects/hip/fused.py`), so the values in between
are never stored.

It works on the final IR (memref mode), where one buffer holds several values
in turn (the memory plan reuses it), so it reasons about *versions*: the
value an op writes lives until the next write of the same buffer. An op joins
the group of the op whose version it reads when that version is
unobservable: read only by the group, in no function argument, and
overwritten (or never touched again) after the group. A group is a run of
consecutive elementwise ops (`hip.cast`, `hip.copy` and the `FORMULA` ops;
only views, constants, allocations and frees in between), so no other op
writes memory while its inputs wait to be read at its last op's place. It
ends in one op, whose `outs` the fused op writes; the runtime copies an
input that overlaps that `outs` other than as the very same view.

It is not part of `onnx-to-hip` (whose output is the seed's): the backend
runs it before executing the IR, after `hip-fuse-scaled-softmax`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func, memref
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import is_side_effect_free

from xhip.dialects import hip
from xhip.dialects import memref as xmemref
from xhip.dialects.constraints import AnyMemRefTypeConstr

FUSABLE = (hip.ElementwiseOp, hip.CastOp, hip.CopyOp)
"""The ops a group is made of."""
_ALIASES = (
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.CastOp,
    xmemref.CastOp,
    memref.ReinterpretCastOp,
    memref.SubviewOp,
)
"""Ops whose result is another name for (part of) their source's buffer; a
`memref.view` of a pool is a buffer of its own (the memory plan's)."""
_FREES = (memref.DeallocOp, hip.FreeOp)
_TYPES = frozenset(
    {"f16", "f32", "f64", "i1", "i8", "i16", "i32", "i64"}
    | {"ui8", "ui16", "ui32", "ui64"}
)
"""Element types the runtimes' fused kernels take."""


def buffer_root(value: SSAValue) -> SSAValue:
    """The buffer a memref value names: followed through alias ops."""
    while isinstance(value.owner, _ALIASES):
        value = value.owner.operands[0]
    return value


def _fusable(op: Operation) -> bool:
    if not isinstance(op, FUSABLE) or op.is_tensor_mode:
        return False
    for value in (*op.inputs, op.outputs[0]):
        if not AnyMemRefTypeConstr.verifies(value.type):
            return False
        if str(value.type.get_element_type()) not in _TYPES:
            return False
    return True


def writes_no_memory(op: Operation) -> bool:
    """An op a run of elementwise ops may step over: it writes no memory."""
    if op.regions:
        return False
    if isinstance(op, (*_FREES, memref.AllocOp, hip.AllocOp, *_ALIASES)):
        return True
    return not isinstance(op, hip.HipDPSOp) and is_side_effect_free(op)


@dataclass(frozen=True)
class Access:
    """An op touching a buffer: whether it reads it, overwrites it whole (a
    DPS `outs` of exactly the buffer) or frees it."""

    position: int
    reads: bool
    kills: bool
    frees: bool = False


def buffer_accesses(block: Block) -> dict[SSAValue, list[Access]]:
    """Every access of each buffer in the block, in order (nested ops count at
    their top-level op's place, as reads)."""
    found: dict[SSAValue, list[Access]] = defaultdict(list)
    for position, top in enumerate(block.ops):
        for op in top.walk():
            if isinstance(op, _ALIASES):
                continue
            for value in set(op.operands):
                if not AnyMemRefTypeConstr.verifies(value.type):
                    continue
                if isinstance(op, _FREES):
                    access = Access(position, reads=False, kills=False, frees=True)
                elif isinstance(op, hip.HipDPSOp) and op is top:
                    reads = value in op.inputs or value not in op.outputs
                    kills = value in op.outputs and buffer_root(value) is value
                    access = Access(position, reads, kills)
                else:
                    access = Access(position, reads=True, kills=False)
                found[buffer_root(value)].append(access)
    return found


def _runs(block: Block) -> list[list[tuple[int, Operation]]]:
    """Maximal runs of fusable ops with only neutral ops in between."""
    runs: list[list[tuple[int, Operation]]] = [[]]
    for position, op in enumerate(block.ops):
        if _fusable(op):
            runs[-1].append((position, op))
        elif not writes_no_memory(op) and runs[-1]:
            runs.append([])
    return [run for run in runs if len(run) > 1]


class _Groups:
    """Union-find over the ops of one run."""

    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        self.parent[self.find(a)] = self.find(b)


def _internal(
    run: list[tuple[int, Operation]],
    k: int,
    readers: list[int],
    accesses: dict[SSAValue, list[Access]],
) -> bool:
    """Whether the version run[k] writes is read by `readers` (run indexes)
    alone: its buffer is no argument, and after the run it is next overwritten,
    freed, or never touched."""
    op = run[k][1]
    assert isinstance(op, hip.HipDPSOp)
    value = op.outputs[0]
    root = buffer_root(value)
    if not readers or isinstance(root, BlockArgument) or value is not root:
        return False
    if isinstance(root.owner, memref.GetGlobalOp):
        return False
    start, end = run[k][0], run[-1][0]
    reading = {run[r][0] for r in readers}
    for access in accesses[root]:
        if access.position <= start:
            continue
        if access.reads and (access.position > end or access.position not in reading):
            return False  # read by an op outside the group
        if access.kills or access.frees:
            return True  # the version ends
    return True


def _steps(
    members: list[Operation],
) -> tuple[list[SSAValue], list[hip.Step]]:
    """The group's outside operands and its body (`hip.Step`s)."""
    inputs: list[SSAValue] = []
    steps: list[hip.Step] = []
    current: dict[SSAValue, int] = {}
    """Each buffer's version the group wrote last: its step."""
    pending: list[tuple[list[int | SSAValue], hip.HipDPSOp]] = []
    for op in members:
        assert isinstance(op, hip.HipDPSOp)
        refs: list[int | SSAValue] = []
        for value in op.inputs:
            if value in current:
                refs.append(current[value])
            else:
                if value not in inputs:
                    inputs.append(value)
                refs.append(value)
        pending.append((refs, op))
        current[op.outputs[0]] = len(pending) - 1
    n = len(inputs)
    for refs, op in pending:
        args = tuple(r + n if isinstance(r, int) else inputs.index(r) for r in refs)
        out_type = op.outputs[0].type
        assert AnyMemRefTypeConstr.verifies(out_type)
        element = str(out_type.get_element_type())
        if isinstance(op, hip.ElementwiseOp):
            step = hip.Step(op.kind(), args, op.formula_params(), element)
        else:
            step = hip.Step(
                "cast" if isinstance(op, hip.CastOp) else "copy", args, (), element
            )
        steps.append(step)
    return inputs, steps


def _fuse_run(
    run: list[tuple[int, Operation]], accesses: dict[SSAValue, list[Access]]
) -> list[list[Operation]]:
    """The groups (two ops or more) of one run that may fuse."""
    groups = _Groups(len(run))
    readers_of: dict[int, list[int]] = defaultdict(list)
    writer: dict[SSAValue, int] = {}
    for i, (_, op) in enumerate(run):
        assert isinstance(op, hip.HipDPSOp)
        for value in set(op.inputs):
            if value in writer:
                readers_of[writer[value]].append(i)
        for value in op.inputs:  # a read of an alias of a run's version: no
            root = buffer_root(value)
            if root is not value and root in writer:
                readers_of[writer[root]].append(-1)
        writer[op.outputs[0]] = i
    internal: set[int] = set()
    for k, readers in readers_of.items():
        if -1 in readers or not _internal(run, k, readers, accesses):
            continue
        internal.add(k)
        for r in readers:
            groups.union(k, r)
    members: dict[int, list[int]] = defaultdict(list)
    for i in range(len(run)):
        members[groups.find(i)].append(i)
    found: list[list[Operation]] = []
    for group in members.values():
        if len(group) < 2 or group != list(range(group[0], group[-1] + 1)):
            continue  # alone, or interleaved with another op of the run
        if any(i not in internal for i in group[:-1]):
            continue  # a second result
        found.append([run[i][1] for i in group])
    return found


def _freed_inside(
    group: list[Operation], inputs: list[SSAValue], block_ops: list[Operation]
) -> bool:
    """Whether a free between the group's first and last op frees an input."""
    start, end = block_ops.index(group[0]), block_ops.index(group[-1])
    roots = {buffer_root(v) for v in inputs}
    return any(
        isinstance(op, _FREES) and buffer_root(op.operands[-1]) in roots
        for op in block_ops[start:end]
    )


def fuse_block(block: Block) -> int:
    """Fuses the groups of one block; the number of fused ops made."""
    accesses = buffer_accesses(block)
    block_ops = list(block.ops)
    made = 0
    for run in _runs(block):
        for group in _fuse_run(run, accesses):
            inputs, steps = _steps(group)
            if _freed_inside(group, inputs, block_ops):
                continue
            last = group[-1]
            assert isinstance(last, hip.HipDPSOp)
            fused = hip.FusedElementwiseOp.make(
                last.ctx, inputs=inputs, out=last.outputs[0], steps=steps
            )
            Rewriter.replace_op(last, fused)
            for op in group[:-1]:
                Rewriter.erase_op(op)
            made += 1
    return made


@dataclass(frozen=True)
class HipFuseElementwisePass(ModulePass):
    name = "hip-fuse-elementwise"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for function in op.walk():
            if isinstance(function, func.FuncOp):
                for block in function.body.blocks:
                    fuse_block(block)
