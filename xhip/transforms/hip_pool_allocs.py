"""`hip-pool-allocs`: one `memref<?xi8>` pool for all the buffers of a function.

Every local `memref.alloc` of a function's entry block becomes a `memref.view`
into a single pool allocated where the first of them was and freed where the
last of their deallocs was. A `MemoryPlan` (see `xhip.analysis.memory_plan`)
gives each buffer an offset, a multiple of `alignment`; offsets and the pool size
are computed at run time from the dynamic dims with plain `arith` index ops,
each distinct subexpression once. The function gets `hipdnn.buffer_offsets`:
each buffer's offset where it is a constant, -1 where it depends on the dims.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    i1,
    i8,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.utils.exceptions import PassFailedException

from xhip.analysis.liveness import BufferInfo, BufferLiveness
from xhip.analysis.memory_plan import (
    STRATEGIES,
    MemoryPlan,
    PoolBuffer,
    byte_size,
    has_identity_layout,
    plan_memory,
)
from xhip.analysis.size_expr import (
    Atom,
    AtomTable,
    CeilDivAtom,
    Monomial,
    Poly,
    ValueAtom,
)

BUFFER_OFFSETS_ATTR = "hipdnn.buffer_offsets"


class IndexExprEmitter:
    """Writes `Poly`s as `arith` index ops, each distinct subexpression once.

    A sum is built left to right over its terms (constant last), a product
    over its atoms, and every partial sum and product is remembered, so
    `a*1024 + b*256` and `a*1024 + b*512` share `a*1024`.
    """

    def __init__(self, builder: Builder):
        self.builder = builder
        self._polys: dict[Poly, SSAValue] = {}
        self._constants: dict[int, SSAValue] = {}
        self._atoms: dict[Atom, SSAValue] = {}

    def _insert(self, op: Operation) -> SSAValue:
        self.builder.insert(op)
        return op.results[0]

    def reuse_constants(self, ops: Iterable[Operation]) -> None:
        """Use these index constants (which must dominate) instead of new ones."""
        for op in ops:
            if (
                isinstance(op, arith.ConstantOp)
                and isinstance(op.value, IntegerAttr)
                and isinstance(op.result.type, IndexType)
            ):
                self._constants.setdefault(op.value.value.data, op.result)

    def constant(self, value: int) -> SSAValue:
        if value not in self._constants:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            op.result.name_hint = f"c{value}" if value >= 0 else f"c_{-value}"
            self._constants[value] = self._insert(op)
        return self._constants[value]

    def atom(self, atom: Atom) -> SSAValue:
        if atom not in self._atoms:
            if isinstance(atom, CeilDivAtom):
                numerator = self.value(atom.numerator + (atom.divisor - 1))
                divisor = self.constant(atom.divisor)
                self._atoms[atom] = self._insert(arith.DivUIOp(numerator, divisor))
            else:
                assert isinstance(atom, ValueAtom)
                self._atoms[atom] = atom.value
        return self._atoms[atom]

    def monomial(self, monomial: Monomial) -> SSAValue:
        key = Poly(((monomial, 1),))
        if key not in self._polys:
            if len(monomial) == 1:
                self._polys[key] = self.atom(monomial[0])
            else:
                self._polys[key] = self._insert(
                    arith.MuliOp(self.monomial(monomial[:-1]), self.atom(monomial[-1]))
                )
        return self._polys[key]

    def term(self, monomial: Monomial, coefficient: int) -> SSAValue:
        key = Poly(((monomial, coefficient),))
        if key not in self._polys:
            self._polys[key] = self._insert(
                arith.MuliOp(self.monomial(monomial), self.constant(coefficient))
            )
        return self._polys[key]

    def value(self, poly: Poly) -> SSAValue:
        if poly in self._polys:
            return self._polys[poly]
        if (constant := poly.constant) is not None:
            return self.constant(constant)
        partial = Poly()
        result: SSAValue | None = None
        for monomial, coefficient in poly.variable_terms:
            term = self.term(monomial, coefficient)
            partial = partial + Poly(((monomial, coefficient),))
            if result is None:
                result = term
            elif partial in self._polys:
                result = self._polys[partial]
            else:
                result = self._insert(arith.AddiOp(result, term))
                self._polys[partial] = result
        assert result is not None
        if poly.constant_term:
            result = self._insert(
                arith.AddiOp(result, self.constant(poly.constant_term))
            )
        self._polys[poly] = result
        return result


def _poolable(
    info: BufferInfo, alignment: int, pools: frozenset[Operation] = frozenset()
) -> bool:
    alloc = info.alloc
    if alloc is None or info.escapes or alloc.symbol_operands or alloc in pools:
        return False
    mtype = alloc.memref.type
    if not has_identity_layout(mtype):
        return False
    return alloc.alignment is None or alloc.alignment.value.data <= alignment


def _available_at(value: SSAValue, position: int, liveness: BufferLiveness) -> bool:
    """`value` is defined before the op at `position` of the block."""
    owner = value.owner
    if isinstance(owner, Block):
        return True
    top = liveness.top_level(owner)
    return top is None or liveness.index[top] < position


def _is_size_arithmetic(op: Operation, block: Block) -> bool:
    """An op of `block` that computes indices and nothing else, so it can move
    (the `i1` of a run-time broadcast's `select` included)."""
    return (
        op.parent_block() is block
        and not op.regions
        and all(isinstance(r.type, IndexType) or r.type == i1 for r in op.results)
        and is_side_effect_free(op)
    )


class SizeHoister:
    """Moves the index arithmetic that sizes the allocs before the first of them.

    A size computed after the first alloc (say from the dims of a reshaped
    buffer, once canonicalize has folded them to products and quotients of the
    arguments' dims) would keep its alloc out of the pool, which is created
    there. Side-effect-free index ops only read their operands, so moving them
    up, operands first, changes nothing else.
    """

    def __init__(self, liveness: BufferLiveness, first: Operation):
        self.liveness = liveness
        self.first = first
        self.position = liveness.index[first]
        self.moved: set[Operation] = set()

    def _ops_to_move(self, value: SSAValue, ops: list[Operation]) -> bool:
        """Append to `ops` what must move for `value` to be defined before `first`."""
        if _available_at(value, self.position, self.liveness):
            return True
        op = value.owner
        assert isinstance(op, Operation)
        if op in self.moved or op in ops:
            return True
        if not _is_size_arithmetic(op, self.liveness.block):
            return False
        if not all(self._ops_to_move(o, ops) for o in op.operands):
            return False
        ops.append(op)
        return True

    def hoist(self, sizes: Iterable[SSAValue]) -> None:
        """Define `sizes` before `first` if they can be; else leave the IR as is."""
        ops: list[Operation] = []
        if all(self._ops_to_move(v, ops) for v in sizes):
            for op in ops:
                op.detach()
                Rewriter.insert_op(op, InsertPoint.before(self.first))
            self.moved.update(ops)


def _poolable_allocs(
    liveness: BufferLiveness, alignment: int, pools: frozenset[Operation] = frozenset()
) -> list[BufferInfo]:
    return [i for i in liveness.allocs() if _poolable(i, alignment, pools)]


def hoist_sizes(
    liveness: BufferLiveness, alignment: int, pools: frozenset[Operation] = frozenset()
) -> bool:
    """Hoist what sizes the poolable allocs before the first; True if IR moved."""
    infos = _poolable_allocs(liveness, alignment, pools)
    if not infos:
        return False
    first = infos[0].alloc
    assert first is not None
    hoister = SizeHoister(liveness, first)
    for info in infos:
        assert info.alloc is not None
        hoister.hoist(info.alloc.dynamic_sizes)
    return bool(hoister.moved)


def collect_buffers(
    block: Block,
    liveness: BufferLiveness,
    table: AtomTable,
    alignment: int,
    pools: frozenset[Operation] = frozenset(),
) -> list[PoolBuffer]:
    """The allocs of `block` that can live in a pool created at the first one
    (none of the `pools` already made)."""
    infos = _poolable_allocs(liveness, alignment, pools)
    if not infos:
        return []
    position = infos[0].def_index
    buffers: list[PoolBuffer] = []
    for info in infos:
        alloc = info.alloc
        assert alloc is not None
        if not all(_available_at(v, position, liveness) for v in alloc.dynamic_sizes):
            continue
        size = byte_size(alloc.memref.type, alloc.dynamic_sizes, table)
        if size is not None:
            buffers.append(PoolBuffer(info.value, size, info.live_range))
    return buffers


def _pool_dealloc_point(
    buffers: list[PoolBuffer], liveness: BufferLiveness
) -> tuple[Operation, bool]:
    """The last dealloc or use of a pooled buffer; True if it is a dealloc."""
    points: list[tuple[int, bool]] = []
    for buffer in buffers:
        info = liveness.info(buffer.value)
        points += [(liveness.index[dealloc], True) for dealloc in info.deallocs]
        points.append((info.live_range[1], False))
    index, is_dealloc = max(points)
    return list(liveness.block.ops)[index], is_dealloc


def apply_plan(
    plan: MemoryPlan, liveness: BufferLiveness, function: func.FuncOp
) -> Operation:
    """Rewrite the allocs of `plan` into views of one pool; returns the pool's
    alloc (the caller sets `hipdnn.buffer_offsets`)."""
    allocs = [b.value.owner for b in plan.buffers]
    first = min(
        (a for a in allocs if isinstance(a, memref.AllocOp)),
        key=lambda a: liveness.index[a],
    )
    dealloc_at, is_dealloc = _pool_dealloc_point(list(plan.buffers), liveness)

    builder = Builder(InsertPoint.before(first))
    emitter = IndexExprEmitter(builder)
    emitter.reuse_constants(
        op for op in liveness.block.ops if liveness.index[op] < liveness.index[first]
    )
    size = emitter.value(plan.size)
    pool = memref.AllocOp([size], [], MemRefType(i8, [DYNAMIC_INDEX]))
    pool.memref.name_hint = "alloc"
    builder.insert(pool)
    offsets = [emitter.value(o) for o in plan.offsets]

    free = memref.DeallocOp.get(pool)
    Rewriter.insert_op(
        free,
        InsertPoint.before(dealloc_at) if is_dealloc else InsertPoint.after(dealloc_at),
    )
    for buffer, offset in zip(plan.buffers, offsets):
        alloc = buffer.value.owner
        assert isinstance(alloc, memref.AllocOp)
        for dealloc in liveness.info(buffer.value).deallocs:
            Rewriter.erase_op(dealloc)
        view = memref.ViewOp(pool, offset, alloc.dynamic_sizes, alloc.memref.type)
        view.result.name_hint = "view"
        Rewriter.replace_op(alloc, view)
    return pool


def pool_function(function: func.FuncOp, strategy: str, alignment: int) -> None:
    """One pool at the first alloc; then, in a function that reads values
    back (`hip.readback`), one more pool at the first alloc left out, as many
    times as that pools something: buffers sized by a value read back (a
    NonZero's count) cannot be in a pool made before the readback."""
    if not function.body.blocks:
        return
    block = function.body.blocks[0]
    reads_back = any(op.name == "hip.readback" for op in block.ops)
    pools: frozenset[Operation] = frozenset()
    offsets: list[int] = []
    while True:
        liveness = BufferLiveness(block)
        if hoist_sizes(liveness, alignment, pools):
            liveness = BufferLiveness(block)
        table = AtomTable()
        buffers = collect_buffers(block, liveness, table, alignment, pools)
        if not buffers:
            return
        plan = plan_memory(buffers, table, STRATEGIES[strategy], alignment)
        pools |= {apply_plan(plan, liveness, function)}
        offsets += plan.static_offsets()
        function.attributes[BUFFER_OFFSETS_ATTR] = ArrayAttr(
            [IntegerAttr(o, i64) for o in offsets]
        )
        if not reads_back:
            return


@dataclass(frozen=True)
class HipPoolAllocsPass(ModulePass):
    """Place all allocs of each function in one pool, 256-byte aligned."""

    name = "hip-pool-allocs"

    strategy: str = "bump"
    """How to pack buffers: `bump` (one slot each, the seed's) or `reuse`
    (buffers with disjoint lifetimes share a slot)."""

    alignment: int = 256
    """Byte alignment of every buffer in the pool."""

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if self.strategy not in STRATEGIES:
            raise PassFailedException(
                f"hip-pool-allocs: unknown strategy {self.strategy!r}; "
                f"expected one of {', '.join(STRATEGIES)}"
            )
        if self.alignment <= 0 or self.alignment & (self.alignment - 1):
            raise PassFailedException(
                f"hip-pool-allocs: alignment {self.alignment} is not a power of 2"
            )
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            pool_function(function, self.strategy, self.alignment)
