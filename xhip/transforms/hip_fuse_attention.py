"""`hip-fuse-attention`: matmul, scale, mask, softmax, matmul become one op.

    hip.hipblaslt.matmul(%ctx) ins(%q, %kt : ...) outs(%s : memref<?x?x?xf32>)
    hip.miopen.mul(%ctx) ins(%s, %c : ..., memref<f32>) outs(%s2 : ...)
    hip.miopen.add(%ctx) ins(%s2, %mask : ...) outs(%s3 : ...)
    hip.miopen.softmax(%ctx) ins(%s3 : ...) outs(%p : ...)
    hip.hipblaslt.matmul(%ctx) ins(%p, %v : ...) outs(%o : ...)
->
    hip.fused_attention(%ctx) ins(%q, %kt, %v, %c, %mask : ...) outs(%o : ...)
        {scaling = "mul"}

The scores are S x T per head: at 4 x 2048 they cross memory four times,
64 MiB each way. Fused, the runtimes compute them a block of rows at a time
(the CPU) or one row at a time with an online softmax (the GPUs), and never
store them. The scale (`mul` or `div` by one element, or the softmax's own
scale), the mask `add` and the NaN guard torch's exports put after the
softmax (`where(isnan(p), fill, p)`) are each optional. ONNX's Attention
function guards the softmax by the mask instead, `where(max(mask) == -inf,
fill, p)` over the last axis: a fully masked row, the softmax's only all-NaN
rows while the scores are finite, so it fuses as the NaN guard (a row that
is not fully masked but has a NaN or infinite score gives fill @ v fused and
NaN unfused).

float16 fuses too: the runtimes compute the chain in float32 and round once,
at the end, as ONNX Runtime's CPU runs an float16 attention (its
InsertCastTransformer runs MatMul, Add and Softmax in float32 and drops the
Casts between them), not after each op.

It works on the final IR (memref mode), as `hip-fuse-elementwise` does, and
reasons about versions the same way: each value in between (the scores, the
scaled and masked scores, the softmax, the guard) must be read by the chain
alone, in no function argument, and overwritten, freed or never touched
after it. The fused op takes the last matmul's place and `outs`; ops in
between may stay (torch computes the mask there) as long as they write none
of the buffers the chain reads before the fused op reads them, and free none.
The runtimes copy an input that overlaps `outs` first.

It is not part of `onnx-to-hip` (whose output is the seed's): the backend
runs it before executing the IR, before `hip-fuse-scaled-softmax`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func, memref
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import SymbolTable, is_side_effect_free

from xhip.dialects import hip
from xhip.dialects import memref as xmemref
from xhip.dialects.constraints import AnyMemRefTypeConstr

ALIASES = (
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.CastOp,
    xmemref.CastOp,
    memref.ReinterpretCastOp,
    memref.SubviewOp,
)
"""Ops whose result names (part of) their source's buffer; a `memref.view` of
a pool is a buffer of its own (the memory plan's), as `hip-fuse-elementwise`
takes it."""
_FREES = (memref.DeallocOp, hip.FreeOp)
_TYPES = frozenset({"f16", "f32", "f64"})
"""Element types the fused kernels take (float16 computed in float32)."""


def alias_root(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, ALIASES):
        value = value.owner.operands[0]
    return value


@dataclass(frozen=True)
class _Access:
    """An op touching a buffer: reads it, writes it (any part), overwrites it
    whole (a DPS `outs` of exactly the buffer), frees it."""

    position: int
    reads: bool
    writes: bool
    kills: bool
    frees: bool


def _accesses(block: Block) -> dict[SSAValue, list[_Access]]:
    """Every access of each buffer of the block, in order; nested ops count
    at their top-level op's place, as reads and writes."""
    found: dict[SSAValue, list[_Access]] = defaultdict(list)
    for position, top in enumerate(block.ops):
        for op in top.walk():
            if isinstance(op, ALIASES):
                continue
            for value in set(op.operands):
                if not AnyMemRefTypeConstr.verifies(value.type):
                    continue
                if isinstance(op, _FREES):
                    access = _Access(position, False, False, False, True)
                elif isinstance(op, hip.HipDPSOp) and op is top:
                    out = value in op.outputs
                    kills = out and alias_root(value) is value
                    access = _Access(position, value in op.inputs, out, kills, False)
                else:
                    access = _Access(
                        position, True, not is_side_effect_free(op), False, False
                    )
                found[alias_root(value)].append(access)
    return found


def _is_scalar(value: SSAValue) -> bool:
    return all(d == 1 for d in hip.shape_of(value))


def _element(value: SSAValue) -> str:
    assert AnyMemRefTypeConstr.verifies(value.type)
    return str(value.type.get_element_type())


@dataclass
class _Chain:
    """The ops of one attention, first to last, and the fused op's operands."""

    ops: list[hip.HipDPSOp]
    reads: list[tuple[hip.HipDPSOp, SSAValue]]
    """Each outside operand with the chain op that reads it."""
    q: SSAValue
    k: SSAValue
    v: SSAValue
    out: SSAValue
    scale: SSAValue | None = None
    divide: bool = False
    mask: SSAValue | None = None
    fill: SSAValue | None = None


class BlockAccesses:
    """One block's ops, positions and buffer accesses."""

    def __init__(self, block: Block):
        self.ops = list(block.ops)
        self.position = {op: i for i, op in enumerate(self.ops)}
        self.accesses = _accesses(block)

    def writer(self, value: SSAValue, before: Operation) -> hip.HipDPSOp | None:
        """The op whose version of `value` `before` reads: the last write of
        its buffer before it, if that is a whole overwrite of `value`."""
        end = self.position[before]
        last = None
        for access in self.accesses[alias_root(value)]:
            if access.position >= end:
                break
            if access.writes or access.frees:
                last = access
        if last is None or not last.kills:
            return None
        op = self.ops[last.position]
        if not isinstance(op, hip.HipDPSOp) or value not in op.outputs:
            return None
        return op

    def readers(self, value: SSAValue, after: Operation) -> list[Operation]:
        """The ops that read the version `after` writes to `value`."""
        start = self.position[after]
        found: list[Operation] = []
        for access in self.accesses[alias_root(value)]:
            if access.position <= start:
                continue
            if access.reads:
                found.append(self.ops[access.position])
            if access.writes or access.frees:
                break
        return found

    def internal(
        self, value: SSAValue, writer: Operation, chain: Sequence[Operation]
    ) -> bool:
        """`writer`'s version of `value` is read by `chain` alone: its buffer
        is no argument, no global, named by `value` itself, and after the
        chain it is next overwritten whole, freed or never touched."""
        root = alias_root(value)
        if value is not root or isinstance(root, BlockArgument):
            return False
        if isinstance(root.owner, memref.GetGlobalOp):
            return False
        start = self.position[writer]
        end = self.position[chain[-1]]
        members = {self.position[op] for op in chain}
        for access in self.accesses[root]:
            if access.position <= start:
                continue
            if access.reads and (
                access.position > end or access.position not in members
            ):
                return False
            if access.position > end and (access.kills or access.frees):
                return True
            if access.writes and access.position not in members:
                return False
        return True

    def untouched(self, value: SSAValue, start: Operation, end: Operation) -> bool:
        """No op after `start` and before `end` writes or frees `value`'s buffer."""
        lo, hi = self.position[start], self.position[end]
        return not any(
            lo < a.position < hi and (a.writes or a.frees)
            for a in self.accesses[alias_root(value)]
        )


def _negative_infinity(blk: BlockAccesses, value: SSAValue, at: Operation) -> bool:
    """`value`, read at `at`, is one element, -inf: a constant global or a
    cast of one."""
    if not isinstance(value.owner, memref.GetGlobalOp):
        cast = blk.writer(value, at)
        if not isinstance(cast, hip.CastOp):
            return False
        value = cast.inputs[0]
    get = value.owner
    if not isinstance(get, memref.GetGlobalOp) or not _is_scalar(value):
        return False
    found = SymbolTable.lookup_symbol(get, get.name_)
    if not isinstance(found, memref.GlobalOp) or found.constant is None:
        return False
    init = found.initial_value
    if not isinstance(init, builtin.DenseIntOrFPElementsAttr):
        return False
    values = init.get_values()
    return len(values) == 1 and values[0] == float("-inf")


def _fully_masked(
    blk: BlockAccesses, cond: SSAValue, where: Operation, add: hip.AddOp, mask: SSAValue
) -> bool:
    """`cond` (read at `where`) is `max(mask, last axis, keepdims) == -inf`
    of the mask the mask `add` reads: true on the fully masked rows."""
    equal = blk.writer(cond, where)
    if not isinstance(equal, hip.EqualOp):
        return False
    for i in (0, 1):
        reduce = blk.writer(equal.inputs[i], equal)
        if (
            not isinstance(reduce, hip.ReduceMaxOp)
            or reduce.keepdims is None
            or reduce.inputs[0] is not mask
            or tuple(reduce.axes.get_values()) != (len(hip.shape_of(mask)) - 1,)
        ):
            continue
        first, last = sorted((reduce, add), key=lambda op: blk.position[op])
        if (
            all(alias_root(out) is not alias_root(mask) for out in first.outputs)
            and blk.untouched(mask, first, last)
            and _negative_infinity(blk, equal.inputs[1 - i], equal)
        ):
            return True
    return False


def _scores_side(blk: BlockAccesses, add: hip.AddOp) -> int | None:
    """Which operand of a mask `add` holds the scores: of the add's shape,
    written by the first matmul or the scale; the other one is the mask."""
    out = hip.shape_of(add.outputs[0])
    for i in (0, 1):
        scores, mask = add.inputs[i], add.inputs[1 - i]
        if hip.shape_of(scores) != out or len(hip.shape_of(mask)) > len(out):
            continue
        if isinstance(blk.writer(scores, add), hip.MatmulOp | hip.MulOp | hip.DivOp):
            return i
    return None


def _chain(blk: BlockAccesses, softmax: hip.SoftmaxOp) -> _Chain | None:
    """The attention around `softmax`, if it has the shape this pass fuses."""
    if softmax.is_tensor_mode:
        return None
    rank = len(hip.shape_of(softmax.inputs[0]))
    if softmax.axis is not None and softmax.axis.value.data != rank - 1:
        return None
    before: list[hip.HipDPSOp] = []
    reads: list[tuple[hip.HipDPSOp, SSAValue]] = []
    scale: SSAValue | None = None
    divide = False
    mask: SSAValue | None = None
    if len(softmax.inputs) == 2:
        scale = softmax.inputs[1]
        reads.append((softmax, scale))
    value = softmax.inputs[0]
    op = blk.writer(value, softmax)
    if isinstance(op, hip.AddOp) and mask is None and scale is None:
        side = _scores_side(blk, op)
        if side is None:
            return None
        mask = op.inputs[1 - side]
        reads.append((op, mask))
        before.append(op)
        value = op.inputs[side]
        op = blk.writer(value, op)
    if isinstance(op, hip.MulOp | hip.DivOp) and scale is None:
        sides = (0, 1) if isinstance(op, hip.MulOp) else (0,)
        side = next(
            (
                i
                for i in sides
                if _is_scalar(op.inputs[1 - i])
                and hip.shape_of(op.inputs[i]) == hip.shape_of(op.outputs[0])
            ),
            None,
        )
        if side is None:
            return None
        scale, divide = op.inputs[1 - side], isinstance(op, hip.DivOp)
        reads.append((op, scale))
        before.append(op)
        value = op.inputs[side]
        op = blk.writer(value, op)
    if not isinstance(op, hip.MatmulOp):
        return None
    first = op
    q, k = first.inputs
    reads += [(first, q), (first, k)]
    before.append(first)
    after: list[hip.HipDPSOp] = []
    fill: SSAValue | None = None
    p = softmax.outputs[0]
    readers = blk.readers(p, softmax)
    if len(readers) == 2 and isinstance(isnan := readers[0], hip.IsNaNOp):
        guard = readers[1]
        if (
            not isinstance(guard, hip.WhereOp)
            or isnan.inputs[0] is not p
            or blk.readers(isnan.outputs[0], isnan) != [guard]
            or guard.inputs[0] is not isnan.outputs[0]
            or guard.inputs[2] is not p
            or not _is_scalar(guard.inputs[1])
            or hip.shape_of(guard.outputs[0]) != hip.shape_of(p)
        ):
            return None
        fill = guard.inputs[1]
        reads.append((guard, fill))
        after += [isnan, guard]
        p = guard.outputs[0]
        readers = blk.readers(p, guard)
    elif (
        len(readers) == 1
        and isinstance(guard := readers[0], hip.WhereOp)
        and guard.inputs[2] is p
        and mask is not None
        and isinstance(add := before[0], hip.AddOp)
        and _is_scalar(guard.inputs[1])
        and hip.shape_of(guard.outputs[0]) == hip.shape_of(p)
        and _fully_masked(blk, guard.inputs[0], guard, add, mask)
    ):
        fill = guard.inputs[1]
        reads.append((guard, fill))
        after.append(guard)
        p = guard.outputs[0]
        readers = blk.readers(p, guard)
    reader = readers[0] if len(readers) == 1 else None
    if not isinstance(reader, hip.MatmulOp) or reader.inputs[0] is not p:
        return None
    v = reader.inputs[1]
    reads.append((reader, v))
    ops = [*reversed(before), softmax, *after, reader]
    out = reader.outputs[0]
    shapes = [hip.shape_of(x) for x in (q, k, v, out)]
    if len({len(s) for s in shapes}) != 1 or v is p:
        return None
    if any(_element(x) not in _TYPES for x in (q, k, v, out, *(x for _, x in reads))):
        return None
    if len({_element(x) for x in (q, k, v, out)}) != 1:
        return None
    return _Chain(ops, reads, q, k, v, out, scale, divide, mask, fill)


def _fusable(blk: BlockAccesses, chain: _Chain) -> bool:
    """The values in between are the chain's alone, and what it reads stays
    as it was until the fused op reads it at the last op's place."""
    ops, last = chain.ops, chain.ops[-1]
    for i, op in enumerate(ops[:-1]):
        if not blk.internal(op.outputs[0], op, ops[i + 1 :]):
            return False
    return all(blk.untouched(value, op, last) for op, value in chain.reads)


def fuse_block(block: Block) -> int:
    """Fuses the attentions of one block; the number of fused ops made."""
    blk = BlockAccesses(block)
    chains: list[_Chain] = []
    used: set[Operation] = set()
    for op in blk.ops:
        if not isinstance(op, hip.SoftmaxOp):
            continue
        chain = _chain(blk, op)
        if chain is None or used.intersection(chain.ops) or not _fusable(blk, chain):
            continue
        used.update(chain.ops)
        chains.append(chain)
    for chain in chains:
        last = chain.ops[-1]
        fused = hip.FusedAttentionOp.make(
            last.ctx,
            q=chain.q,
            k=chain.k,
            v=chain.v,
            scale=chain.scale,
            divide=chain.divide,
            mask=chain.mask,
            fill=chain.fill,
            out=chain.out,
        )
        Rewriter.replace_op(last, fused)
        for op in reversed(chain.ops[:-1]):
            results = [op.outputs[0]]
            Rewriter.erase_op(op)
            for value in results:
                source = value.owner
                if (
                    isinstance(source, Operation)
                    and not value.uses
                    and is_side_effect_free(source)
                ):
                    Rewriter.erase_op(source)
    return len(chains)


@dataclass(frozen=True)
class HipFuseAttentionPass(ModulePass):
    name = "hip-fuse-attention"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for function in op.walk():
            if isinstance(function, func.FuncOp):
                for block in function.body.blocks:
                    fuse_block(block)
