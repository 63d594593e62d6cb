"""`hip-plan-memory`: re-place the views of a function's pool near the peak of
live bytes (opt-in; `onnx-to-hip` keeps the seed's plan).

Runs on a pooled function (after `hip-pool-allocs`, or on the final IR of
`onnx-to-hip`). The views' byte sizes and live ranges are evaluated with every
dynamic dim of the arguments set to `hint`; `greedy_by_size` places them, and
`orient` turns the placement into offsets that are index arithmetic of the
dims (sums and `arith.maxui`s), sound for every dim, and at the hint dims no
larger than the concrete placement. See docs/memory-planning.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntegerAttr,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.utils.exceptions import PassFailedException

from xhip.analysis.best_fit import (
    MaxPoly,
    Range,
    align,
    conflicts,
    greedy_by_size,
    orient,
)
from xhip.analysis.liveness import BufferLiveness
from xhip.analysis.memory_plan import byte_size
from xhip.analysis.pool_layout import PoolEvaluationError, evaluate_pool
from xhip.analysis.size_expr import AtomTable, Poly
from xhip.dialects import hip
from xhip.dialects.constraints import AnyMemRefTypeConstr
from xhip.transforms.hip_fold_attention_bias import HipFoldAttentionBiasPass
from xhip.transforms.hip_fold_attention_layouts import HipFoldAttentionLayoutsPass
from xhip.transforms.hip_fuse_attention import HipFuseAttentionPass
from xhip.transforms.hip_fuse_conv_relu import HipFuseConvReluPass
from xhip.transforms.hip_fuse_elementwise import HipFuseElementwisePass
from xhip.transforms.hip_fuse_scaled_softmax import HipFuseScaledSoftmaxPass
from xhip.transforms.hip_pool_allocs import BUFFER_OFFSETS_ATTR, IndexExprEmitter

GPU_FUSIONS: tuple[tuple[ModulePass, ...], ...] = (
    (HipFuseScaledSoftmaxPass(),),
    (HipFuseScaledSoftmaxPass(), HipFuseElementwisePass()),
    (HipFuseAttentionPass(), HipFuseScaledSoftmaxPass()),
    (HipFuseAttentionPass(), HipFuseScaledSoftmaxPass(), HipFuseElementwisePass()),
    (
        HipFuseAttentionPass(),
        HipFoldAttentionBiasPass(),
        HipFoldAttentionLayoutsPass(),
        HipFuseScaledSoftmaxPass(),
    ),
    (
        HipFuseAttentionPass(),
        HipFoldAttentionBiasPass(),
        HipFoldAttentionLayoutsPass(),
        HipFuseScaledSoftmaxPass(),
        HipFuseElementwisePass(),
    ),
)
"""What the GPU runtimes may run on the planned IR (`fuse_for_execution`)."""


def _with_conv_relu(passes: tuple[ModulePass, ...]) -> tuple[ModulePass, ...]:
    """`passes` with `hip-fuse-conv-relu` where the session runs it: after
    `hip-fuse-scaled-softmax`."""
    at = next(
        i for i, p in enumerate(passes) if isinstance(p, HipFuseScaledSoftmaxPass)
    )
    return (*passes[: at + 1], HipFuseConvReluPass(), *passes[at + 1 :])


FUSIONS: tuple[tuple[ModulePass, ...], ...] = (
    *GPU_FUSIONS,
    *(_with_conv_relu(passes) for passes in GPU_FUSIONS),
)
"""What the backend may run on the planned IR (`fuse_for_execution`): the GPU
runtimes' and, with `hip-fuse-conv-relu`, the CPU runtime's. A fused op reads
its group's inputs at its last op's place, which makes them live longer (a
conv with its Relu writes the Relu's out at its own place, earlier), so the
plan keeps apart buffers live together in any of these."""


def fusion_sets(block: Block) -> list[tuple[ModulePass, ...]]:
    """The sets of `FUSIONS` that may change this block, without the passes
    that have nothing to work on in it, each once: each set costs a copy of
    the module and its passes. The attention passes and
    `hip-fuse-scaled-softmax` start from a softmax or a fused attention,
    `hip-fuse-conv-relu` from a conv and a Relu (ResNet-18's tight plan 3
    sets; GPT-2's 6, as before the conv's 6 were added)."""
    kinds = {type(op) for op in block.walk()}
    idle: set[type[ModulePass]] = set()
    if hip.SoftmaxOp not in kinds and hip.FusedAttentionOp not in kinds:
        idle |= {
            HipFuseAttentionPass,
            HipFoldAttentionBiasPass,
            HipFoldAttentionLayoutsPass,
            HipFuseScaledSoftmaxPass,
        }
    if not {hip.ConvOp, hip.ReluOp} <= kinds:
        idle.add(HipFuseConvReluPass)
    sets: list[tuple[ModulePass, ...]] = []
    for passes in FUSIONS:
        kept = tuple(p for p in passes if type(p) not in idle)
        if kept and kept not in sets:
            sets.append(kept)
    return sets


def fused_ranges(
    module: builtin.ModuleOp, views: list[memref.ViewOp], passes: tuple[ModulePass, ...]
) -> list[Range | None]:
    """Each view's live range after `passes` (on a copy); None if it is gone."""
    mapper: dict[SSAValue, SSAValue] = {}
    copy = module.clone(value_mapper=mapper)
    for fusion in passes:
        fusion.apply(Context(), copy)
    ranges: list[Range | None] = []
    liveness: dict[Block, BufferLiveness] = {}
    for view in views:
        value = mapper[view.result]
        block = (
            value.owner.parent_block() if isinstance(value.owner, Operation) else None
        )
        if block is None or value.owner.parent is None:
            ranges.append(None)
            continue
        if block not in liveness:
            liveness[block] = BufferLiveness(block)
        uses = liveness[block].value_uses(value)
        ranges.append((uses[0], uses[-1]) if uses else None)
    return ranges


def hint_shapes(function: func.FuncOp, hint: int) -> dict[int, tuple[int, ...]]:
    """Every memref argument's shape with each dynamic dim set to `hint`."""
    return {
        i: tuple(hint if d == DYNAMIC_INDEX else d for d in arg.type.get_shape())
        for i, arg in enumerate(function.args)
        if AnyMemRefTypeConstr.verifies(arg.type)
    }


def _find_pool(block: Block) -> Operation | None:
    pools = [
        op
        for op in block.ops
        if isinstance(op, memref.AllocOp | hip.AllocOp)
        and AnyMemRefTypeConstr.verifies(op.results[0].type)
        and op.results[0].type.get_shape() == (DYNAMIC_INDEX,)
        and any(isinstance(u.operation, memref.ViewOp) for u in op.results[0].uses)
    ]
    return pools[0] if len(pools) == 1 else None


def _defined_before(
    value: SSAValue, position: int, index: dict[Operation, int]
) -> bool:
    """`value` is a block argument or the result of an op before `position`."""
    owner = value.owner
    return isinstance(owner, Block) or index.get(owner, position) < position


class _MaxEmitter:
    """Writes a `MaxPoly` as its polynomials and a chain of `arith.maxui`."""

    def __init__(self, emitter: IndexExprEmitter):
        self.emitter = emitter
        self._maxes: dict[MaxPoly, SSAValue] = {}

    def value(self, expr: MaxPoly) -> SSAValue:
        if not expr:
            return self.emitter.constant(0)
        if expr not in self._maxes:
            result = self.emitter.value(expr[0])
            for i in range(1, len(expr)):
                if expr[: i + 1] in self._maxes:
                    result = self._maxes[expr[: i + 1]]
                    continue
                op = arith.MaxUIOp(result, self.emitter.value(expr[i]))
                self.emitter.builder.insert(op)
                result = op.result
                self._maxes[expr[: i + 1]] = result
            self._maxes[expr] = result
        return self._maxes[expr]


def _erase_dead(values: list[SSAValue]) -> None:
    """Erase the index arithmetic that only computed the replaced values."""
    work = [v.owner for v in values if isinstance(v.owner, Operation)]
    while work:
        op = work.pop()
        if op.parent is None or any(r.uses for r in op.results):
            continue
        if op.regions or not is_side_effect_free(op):
            continue
        operands = [o.owner for o in op.operands if isinstance(o.owner, Operation)]
        Rewriter.erase_op(op)
        work.extend(operands)


def plan_function(
    module: builtin.ModuleOp, function: func.FuncOp, hint: int, alignment: int
) -> None:
    """Re-place the views of the function's one pool; no pool, no change."""
    if not function.body.blocks:
        return
    block = function.body.blocks[0]
    pool = _find_pool(block)
    if pool is None:
        return
    views = [
        op
        for op in block.ops
        if isinstance(op, memref.ViewOp) and op.source is pool.results[0]
    ]
    index = {op: i for i, op in enumerate(block.ops)}
    if not all(_defined_before(s, index[pool], index) for v in views for s in v.sizes):
        return
    try:
        layout = evaluate_pool(function, hint_shapes(function, hint))
    except PoolEvaluationError as e:
        raise PassFailedException(
            f"hip-plan-memory: {e} with every dynamic dim = {hint}"
        ) from None
    ranges = [(v.first_use, v.last_use) for v in layout.views]
    variants = [ranges, *(fused_ranges(module, views, f) for f in fusion_sets(block))]
    live_with = conflicts(variants)
    slot_bytes = [align(v.size, alignment) for v in layout.views]
    offsets = greedy_by_size(slot_bytes, ranges, live_with)
    table = AtomTable()
    slots: list[Poly] = []
    for view in views:
        size = byte_size(view.result.type, view.sizes, table)  # pyright: ignore[reportArgumentType]
        assert size is not None  # evaluate_pool sized it
        slots.append(table.align_up(size, alignment))
    symbolic, pool_size = orient(offsets, slots, live_with)

    emitter = IndexExprEmitter(Builder(InsertPoint.before(pool)))
    emitter.reuse_constants(op for op in block.ops if index[op] < index[pool])
    maxes = _MaxEmitter(emitter)
    old = [pool.operands[-1], *(v.byte_shift for v in views)]
    pool.operands[len(pool.operands) - 1] = maxes.value(pool_size)
    for view, offset in zip(views, symbolic):
        view.operands[1] = maxes.value(offset)
    _erase_dead(old)
    function.attributes[BUFFER_OFFSETS_ATTR] = ArrayAttr(
        [
            IntegerAttr(
                o[0].constant
                if len(o) == 1 and o[0].constant is not None
                else (0 if not o else -1),
                i64,
            )
            for o in symbolic
        ]
    )


@dataclass(frozen=True)
class HipPlanMemoryPass(ModulePass):
    """Place the views of each function's pool by size and lifetime."""

    name = "hip-plan-memory"

    hint: int = 128
    """The value of every dynamic dim the placement is made for (any dims run
    correctly; the pool is nearest the peak of live bytes near these)."""

    alignment: int = 256
    """Byte alignment of every view in the pool."""

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if self.hint <= 0:
            raise PassFailedException(
                f"hip-plan-memory: hint {self.hint} is not positive"
            )
        if self.alignment <= 0 or self.alignment & (self.alignment - 1):
            raise PassFailedException(
                f"hip-plan-memory: alignment {self.alignment} is not a power of 2"
            )
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            plan_function(op, function, self.hint, self.alignment)
