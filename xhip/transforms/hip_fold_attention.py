"""What `hip-fold-attention-layouts` and `hip-fold-attention-bias` do: the
copies and bias adds around a `hip.fused_attention` become how it reads its
operands.

A transformer's attention splits heads with copies and adds the projections'
biases with elementwise ops, each a device call and a pass over memory:

    hip.hipblaslt.matmul(%ctx) ins(%x, %wq : ...) outs(%y : memref<?x?x512xf32>)
    hip.miopen.add(%ctx) ins(%y, %bq : ..., memref<512xf32>) outs(%z : ...)
    %e = memref.expand_shape %z [[0], [1], [2, 3]] ... into memref<?x?x8x64xf32>
    hip.transpose(%ctx, %c1, %c2) ins(%e : ...) outs(%qt : memref<?x8x?x64xf32>)
    hip.fused_attention(%ctx) ins(%qt, %kt, %vt, %c : ...) outs(%o : ...)
    hip.transpose(%ctx, %c1, %c2) ins(%o : ...) outs(%r : memref<?x?x8x64xf32>)

The flash kernel and the CPU's blocked attention read every operand through
its strides, so:

- `hip-fold-attention-layouts`: a `hip.transpose` or `hip.permute` whose
  result only the attention reads becomes a `memref.reinterpret_cast` of its
  source (the permuted sizes and strides), read in place; one that only
  permutes the attention's result becomes the attention writing its target
  through the inverse permutation.
- `hip-fold-attention-bias`: a `hip.miopen.add` of a bias along the last
  dim, whose result only the attention (directly or through one of those
  copies) reads, goes: the attention reads the add's other operand and adds
  the bias (`q_bias`, `k_bias`, `v_bias`, a broadcast view of it) as it
  reads. The other operand is read where it is (if nothing writes it before
  the reader) or its writer writes the add's buffer instead (if nothing else
  touches that buffer in between). The bias is then read at the attention:
  nothing may write it in between (a pool view may hold the next bias).
  float32 and float64 only: the fused op
  adds in the work type, which for float16 would skip the add's rounding.

Both work on the final IR, after `hip-fuse-attention`, and reason about
buffer versions as it does (`BlockAccesses`): a fold happens only where the
value in between is read by the attention alone and what is read later is
not written in between, so it holds for any memory plan the IR carries. A
folded-away copy or add is erased; its buffer's views stay (a pool view may
serve later ops).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, builtin, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xhip.dialects import hip
from xhip.dialects import memref as xmemref
from xhip.dialects.constraints import AnyMemRefTypeConstr
from xhip.transforms.hip_fuse_attention import BlockAccesses, alias_root

_COPIES = (hip.TransposeOp, hip.PermuteOp)
_ROLES = ("q", "k", "v")
_BIAS_TYPES = frozenset({"f32", "f64"})

Index = SSAValue | int
"""A size or stride: known at compile time, or an index value."""


def _permutation(op: Operation) -> tuple[int, ...] | None:
    """The copy's permutation (out dim i is in dim p[i]), if it is a memref
    `hip.transpose` of constant dims or a `hip.permute`."""
    if not isinstance(op, _COPIES) or op.is_tensor_mode:
        return None
    if isinstance(op, hip.PermuteOp):
        return op.permutation()
    dims: list[int] = []
    for value in (op.dim0, op.dim1):
        const = value.owner
        if not isinstance(const, arith.ConstantOp) or not isinstance(
            const.value, IntegerAttr
        ):
            return None
        dims.append(const.value.value.data)
    perm = list(range(len(hip.shape_of(op.inputs[0]))))
    a, b = dims
    if not (0 <= a < len(perm) and 0 <= b < len(perm)):
        return None
    perm[a], perm[b] = perm[b], perm[a]
    return tuple(perm)


def _dense(value: SSAValue) -> bool:
    """A memref with the identity layout: row-major from offset 0."""
    typ = value.type
    return isinstance(typ, MemRefType) and isinstance(typ.layout, NoneAttr)


class _Emitter:
    """Index ops inserted before one op."""

    def __init__(self, before: Operation):
        self.before = before

    def emit(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(self.before))
        return op.results[0]

    def sizes(self, value: SSAValue) -> list[Index]:
        """`value`'s sizes: the index values its view or reshape was made
        with where it has them (no op per call), else `memref.dim`s."""
        shape = hip.shape_of(value)
        owner = value.owner
        given: Sequence[SSAValue] | None = None
        if isinstance(owner, memref.ViewOp):
            given = owner.sizes
        elif isinstance(owner, memref.ExpandShapeOp):
            given = owner.output_shape
        if given is not None and len(given) == shape.count(DYNAMIC_INDEX):
            dynamic = iter(given)
            return [next(dynamic) if n == DYNAMIC_INDEX else n for n in shape]
        out: list[Index] = []
        for i, n in enumerate(shape):
            if n != DYNAMIC_INDEX:
                out.append(n)
                continue
            at = self.emit(arith.ConstantOp(IntegerAttr(i, IndexType())))
            out.append(self.emit(xmemref.DimOp(value, at)))
        return out

    def times(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if a == 1 or b == 1:
            return b if a == 1 else a
        sa = a if isinstance(a, SSAValue) else self.constant(a)
        sb = b if isinstance(b, SSAValue) else self.constant(b)
        return self.emit(arith.MuliOp(sa, sb))

    def constant(self, n: int) -> SSAValue:
        return self.emit(arith.ConstantOp(IntegerAttr(n, IndexType())))

    def row_major(self, sizes: Sequence[Index]) -> list[Index]:
        strides: list[Index] = [1] * len(sizes)
        for i in range(len(sizes) - 2, -1, -1):
            strides[i] = self.times(strides[i + 1], sizes[i + 1])
        return strides

    def view(
        self, source: SSAValue, sizes: Sequence[Index], strides: Sequence[Index]
    ) -> SSAValue:
        """`memref.reinterpret_cast` of `source` (offset 0) to these."""
        typ = source.type
        assert AnyMemRefTypeConstr.verifies(typ)
        layout = StridedLayoutAttr(
            [s if isinstance(s, int) else None for s in strides], 0
        )
        result: Attribute = MemRefType(
            typ.get_element_type(),
            [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes],
            layout,
        )
        return self.emit(
            memref.ReinterpretCastOp.from_dynamic(source, [0], sizes, strides, result)
        )


def _remake(op: hip.FusedAttentionOp, **changes: SSAValue) -> hip.FusedAttentionOp:
    """`op` with some roles' operands changed (or biases added)."""
    roles = {k: v for k, v in op.bound_roles().items() if isinstance(v, SSAValue)}
    roles.update(changes)
    out = roles.pop("out")
    new = hip.FusedAttentionOp.make(
        op.ctx,
        divide=op.runtime_attributes().divide,
        out=out,
        **roles,  # pyright: ignore[reportArgumentType]
    )
    Rewriter.replace_op(op, new)
    return new


def _operand_index(op: Operation, value: SSAValue) -> int | None:
    found = [i for i, x in enumerate(op.operands) if x is value]
    return found[0] if len(found) == 1 else None


def _set_operand(op: Operation, value: SSAValue, new: SSAValue) -> None:
    operands = list(op.operands)
    index = _operand_index(op, value)
    assert index is not None
    operands[index] = new
    op.operands = operands


def _defined_before(value: SSAValue, blk: BlockAccesses, at: Operation) -> bool:
    """`value` is available at `at`: a block argument, defined outside the
    block, or by an op before `at`."""
    owner = value.owner
    if isinstance(owner, Block) or isinstance(value, BlockArgument):
        return True
    return owner not in blk.position or blk.position[owner] < blk.position[at]


def _hoist(value: SSAValue, blk: BlockAccesses, at: Operation) -> bool:
    """Make `value` available at `at`, moving its defining view (or alloc)
    up if its operands are; false if it cannot."""
    if _defined_before(value, blk, at):
        return True
    owner = value.owner
    assert isinstance(owner, Operation)
    if not isinstance(owner, memref.ViewOp | memref.AllocOp) or not all(
        _defined_before(x, blk, at) for x in owner.operands
    ):
        return False
    owner.detach()
    Rewriter.insert_op(owner, InsertPoint.before(at))
    return True


def _quiet(
    blk: BlockAccesses, value: SSAValue, start: Operation, end: Operation
) -> bool:
    """Nothing strictly between `start` and `end` touches `value`'s buffer."""
    lo, hi = blk.position[start], blk.position[end]
    return not any(lo < a.position < hi for a in blk.accesses[alias_root(value)])


Folded = hip.FusedAttentionOp | None
"""The attention that replaced the given one, or None: nothing changed."""


def _read_by_attention(
    blk: BlockAccesses, x: SSAValue, copy: Operation, att: hip.FusedAttentionOp
) -> bool:
    """The version `copy` writes to `x` is the attention's alone: read by it
    only and dead after (`internal`), or overwritten whole by the attention
    itself (it computes in place of q)."""
    if blk.internal(x, copy, [att]):
        return True
    return (
        att.outputs[0] is x
        and x is alias_root(x)
        and not isinstance(x, BlockArgument)
        and blk.readers(x, copy) == [att]
    )


def _fold_output(blk: BlockAccesses, att: hip.FusedAttentionOp) -> Folded:
    out = att.outputs[0]
    readers = blk.readers(out, att)
    if len(readers) != 1:
        return None
    copy = readers[0]
    perm = _permutation(copy)
    if perm is None or not isinstance(copy, _COPIES) or copy.inputs[0] is not out:
        return None
    target = copy.outputs[0]
    if (
        not _dense(target)
        or not blk.internal(out, att, [copy])
        or not _quiet(blk, target, att, copy)
        or any(alias_root(x) is alias_root(target) for x in att.inputs)
        or not _hoist(target, blk, att)
    ):
        return None
    emit = _Emitter(att)
    sizes = emit.sizes(target)
    strides = emit.row_major(sizes)
    inverse = [perm.index(j) for j in range(len(perm))]
    view = emit.view(target, [sizes[i] for i in inverse], [strides[i] for i in inverse])
    Rewriter.erase_op(copy)
    return _remake(att, out=view)


def _fold_input(blk: BlockAccesses, att: hip.FusedAttentionOp, role: str) -> Folded:
    x = att.bound_roles()[role]
    assert isinstance(x, SSAValue)
    copy = blk.writer(x, att)
    if copy is None or list(att.inputs).count(x) != 1:
        return None
    perm = _permutation(copy)
    if perm is None:
        return None
    src = copy.inputs[0]
    if (
        not _dense(src)
        or not _read_by_attention(blk, x, copy, att)
        or not blk.untouched(src, copy, att)
    ):
        return None
    emit = _Emitter(att)
    sizes = emit.sizes(src)
    strides = emit.row_major(sizes)
    view = emit.view(src, [sizes[p] for p in perm], [strides[p] for p in perm])
    Rewriter.erase_op(copy)
    return _remake(att, **{role: view})


def fold_layouts(block: Block) -> int:
    """Folds the copies around the block's attentions, the output's first
    (the attention may write in place of q); how many went."""
    folded = 0
    for att in [op for op in block.ops if isinstance(op, hip.FusedAttentionOp)]:
        if (new := _fold_output(BlockAccesses(block), att)) is not None:
            folded, att = folded + 1, new
        for role in _ROLES:
            if (new := _fold_input(BlockAccesses(block), att, role)) is not None:
                folded, att = folded + 1, new
    return folded


@dataclass
class _Reader:
    """Where a role's value comes from: `reader` (the attention or a copy
    feeding it) reads `chain`'s last result, which views the add's `out`."""

    reader: Operation
    value: SSAValue
    perm: tuple[int, ...]
    chain: list[memref.ExpandShapeOp]


def _reader(blk: BlockAccesses, att: hip.FusedAttentionOp, role: str) -> _Reader | None:
    x = att.bound_roles()[role]
    assert isinstance(x, SSAValue)
    if list(att.inputs).count(x) != 1:
        return None
    rank = len(hip.shape_of(x))
    reader: Operation = att
    value, perm = x, tuple(range(rank))
    copy = blk.writer(x, att)
    if copy is not None and (p := _permutation(copy)) is not None:
        if not _read_by_attention(blk, x, copy, att):
            return None
        reader, value, perm = copy, copy.inputs[0], p
    chain: list[memref.ExpandShapeOp] = []
    root = value
    while isinstance(root.owner, memref.ExpandShapeOp):
        chain.append(root.owner)
        root = root.owner.src
    if len(chain) > 1 or root is not alias_root(root) or not _dense(root):
        return None
    return _Reader(reader, value, perm, list(reversed(chain)))


def _bias_layout(bias_width: int, found: _Reader) -> tuple[list[int], list[int]] | None:
    """The sizes and strides that view a bias of the last dim (`bias_width`
    values) broadcast over the reader's operand, permuted as the attention
    reads it; None if the last dim's split is not static."""
    shape = hip.shape_of(found.value)
    if found.chain:
        groups = found.chain[0].reassociation.data
        last = [g.value.data for g in groups[-1].data]
    else:
        last = [len(shape) - 1]
    inner = [shape[k] for k in last]
    if DYNAMIC_INDEX in inner or prod(inner) != bias_width:
        return None
    sizes = [1] * len(shape)
    strides = [0] * len(shape)
    for k in last:
        sizes[k] = shape[k]
        strides[k] = prod(shape[j] for j in last if j > k)
    return [sizes[p] for p in found.perm], [strides[p] for p in found.perm]


def _bias_add(z: SSAValue, add: hip.AddOp) -> tuple[SSAValue, SSAValue] | None:
    """(the operand, the bias) of `add`, which writes `z`: a bias of the last
    dim, read whole from offset 0, in float32 or float64."""
    shape = hip.shape_of(z)
    width = shape[-1]
    if width == DYNAMIC_INDEX or add.outputs[0] is not z:
        return None
    typ = z.type
    if not AnyMemRefTypeConstr.verifies(typ) or (
        str(typ.get_element_type()) not in _BIAS_TYPES
    ):
        return None
    for side in (0, 1):
        y, bias = add.inputs[side], add.inputs[1 - side]
        b_shape = hip.shape_of(bias)
        if (
            y.type == z.type
            and b_shape[-1:] == (width,)
            and all(n == 1 for n in b_shape[:-1])
            and len(b_shape) <= len(shape)
            and _dense(bias)
        ):
            return y, bias
    return None


def _fold_bias(blk: BlockAccesses, att: hip.FusedAttentionOp, role: str) -> Folded:
    if f"{role}_bias" not in att.absent_roles():
        return None
    found = _reader(blk, att, role)
    if found is None:
        return None
    z = alias_root(found.value)
    add = blk.writer(z, found.reader)
    pair = None if not isinstance(add, hip.AddOp) else _bias_add(z, add)
    if add is None or pair is None:
        return None
    y, bias = pair
    layout = _bias_layout(hip.shape_of(z)[-1], found)
    if (
        layout is None
        or blk.readers(z, add) != [found.reader]
        or not blk.internal(z, add, [found.reader])
        # The attention reads the bias later than the add did: the version the
        # add read must still be there (a pool view may hold the next bias).
        or not blk.untouched(bias, add, att)
        # Nor may the fold change it: no part of the operand's or sum's buffer.
        or any(alias_root(bias) is b for b in (alias_root(y), z))
    ):
        return None
    if y is alias_root(y) and blk.untouched(y, add, found.reader):
        # Read the operand where it is, through the reader's view chain.
        value = y
        mapper = {z: y}
        for op in found.chain:
            clone = op.clone(value_mapper=mapper)
            Rewriter.insert_op(clone, InsertPoint.before(found.reader))
            value = clone.results[0]
        _set_operand(found.reader, found.value, value)
        for op in reversed(found.chain):  # the views of the add's result
            if not op.result.uses:
                Rewriter.erase_op(op)
    else:
        # Have the operand's writer write the add's buffer instead.
        writer = blk.writer(y, add)
        if (
            writer is None
            or _operand_index(writer, y) is None
            or not blk.internal(y, writer, [add])
            or not _quiet(blk, z, writer, add)
            or any(alias_root(x) is z for x in writer.operands)
            or not _hoist(z, blk, writer)
        ):
            return None
        _set_operand(writer, y, z)
    Rewriter.erase_op(add)
    view = _Emitter(att).view(bias, *layout)
    return _remake(att, **{f"{role}_bias": view})


def fold_bias(block: Block) -> int:
    """Folds the bias adds feeding the block's attentions; how many went."""
    folded = 0
    for att in [op for op in block.ops if isinstance(op, hip.FusedAttentionOp)]:
        for role in _ROLES:
            if (new := _fold_bias(BlockAccesses(block), att, role)) is not None:
                folded, att = folded + 1, new
    return folded


def function_blocks(module: builtin.ModuleOp) -> list[Block]:
    """The blocks of the module's functions, where the folds apply."""
    return [
        block
        for function in module.walk()
        if isinstance(function, func.FuncOp)
        for block in function.body.blocks
    ]
