"""The memory plan of a pooled stage (pass 16 on): which bytes of the pool each
buffer takes, from which op to which.

The pool is a 1-D `i8` allocation and each buffer a `memref.view` into it.
`MemoryPlan` reads the offsets and sizes as formulas in the dim names
(`FormulaReader`); `MemoryPlan.evaluate` gets the bytes for given dims from
`xhip.analysis.pool_layout`, which runs the IR's own index arithmetic, as a
`PlacedPlan` (`xhip.explore.placed`) that can draw itself.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerType, MemRefType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xhip.analysis.liveness import BufferLiveness
from xhip.analysis.memory_plan import element_bytes
from xhip.analysis.pool_layout import evaluate_pool
from xhip.analysis.size_expr import Poly
from xhip.dialects import hip
from xhip.explore.formula import DimNames, FormulaError, FormulaReader
from xhip.explore.placed import PlacedBuffer, PlacedPlan


class StageView(Protocol):
    """What plans and summaries read of a stage: `xhip.explore.stages.Stage` is
    one. A protocol, so that this module needs nothing of `stages` (which
    imports it to offer `Stage.memory_plan()` and `Stage.summary()`)."""

    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def module(self) -> ModuleOp: ...
    @property
    def function(self) -> func.FuncOp: ...
    @property
    def ssa_names(self) -> Mapping[SSAValue, str]: ...
    @property
    def dim_names(self) -> DimNames: ...


ALLOC_OPS = (memref.AllocOp, memref.AllocaOp, hip.AllocOp)
FREE_OPS = (memref.DeallocOp, hip.FreeOp)


def is_pool(value: SSAValue) -> bool:
    """A 1-D `i8` buffer from an allocation op that views are taken of."""
    typ = value.type
    return (
        isinstance(value.owner, ALLOC_OPS)
        and isinstance(typ, MemRefType)
        and len(typ.get_shape()) == 1
        and isinstance(element := typ.get_element_type(), IntegerType)
        and element.width.data == 8
        and any(isinstance(use.operation, memref.ViewOp) for use in value.uses)
    )


@dataclass(frozen=True)
class Buffer:
    """One view into the pool: bytes `[offset, offset + size)` live from step
    `first` to step `last` (steps are the ops that use pool buffers)."""

    name: str
    offset: Poly
    size: Poly
    first: int
    last: int


class MemoryPlan:
    """Symbolic plan of a stage's pool: formulas for the pool size and for
    each buffer's offset and size."""

    def __init__(
        self,
        stage: StageView,
        reader: FormulaReader,
        pool_size: Poly,
        buffers: Sequence[Buffer],
        positions: Sequence[int],
        unpooled: Sequence[tuple[str, Poly]] = (),
    ):
        self.unpooled = list(unpooled)
        """Allocations left outside the pool: name and byte size."""
        self.stage = stage
        self.title = stage.title
        self.reader = reader
        self.pool_size = pool_size
        self.buffers = list(buffers)
        self.positions = list(positions)
        """Index in the entry block of the op of each step: the `hip` library
        calls and any other op that uses a pool buffer."""
        ops = list(_entry_block(stage.function).ops)
        self.steps = [_label(ops[p]) for p in self.positions]

    @classmethod
    def of(cls, stage: StageView) -> MemoryPlan:
        """The plan of `stage`; a ValueError if it has no single pool."""
        block = _entry_block(stage.function)
        reader = FormulaReader(stage.function, stage.dim_names, stage.ssa_names)
        pools = [r for op in block.ops for r in op.results if is_pool(r)]
        if len(pools) != 1:
            raise ValueError(
                f"{stage.title}: expected one pool (a 1-D i8 alloc that views are "
                f"taken of), found {len(pools)}"
            )
        pool = pools[0]
        owner = pool.owner
        assert isinstance(owner, ALLOC_OPS) and isinstance(pool.type, MemRefType)
        if owner.dynamic_sizes:
            pool_size = reader.read(owner.dynamic_sizes[0])
        else:
            pool_size = Poly.const(pool.type.get_shape()[0])
        liveness = BufferLiveness(block)
        views = [op for op in block.ops if isinstance(op, memref.ViewOp)]
        views = [v for v in views if v.source is pool]
        uses = {v: liveness.value_uses(v.result) or [liveness.index[v]] for v in views}
        # Steps: the library calls and other ops that read or write a pool
        # buffer; `memref.dim`s and aliasing ops are not steps of their own.
        ops = list(block.ops)
        positions = sorted(
            {p for found in uses.values() for p in found if _is_step(ops[p])}
            | {i for i, op in enumerate(ops) if isinstance(op, hip.COMPUTE_OPS)}
        )
        buffers = [
            Buffer(
                stage.ssa_names.get(v.result, v.result.name_hint or "view"),
                reader.read(v.byte_shift),
                _view_bytes(v, reader),
                *_step_range(positions, uses[v][0], uses[v][-1]),
            )
            for v in views
        ]
        unpooled = [
            (
                stage.ssa_names.get(r, r.name_hint or "alloc"),
                _bytes(r.type, op.dynamic_sizes, reader),
            )
            for op in block.ops
            if isinstance(op, ALLOC_OPS)
            for r in op.results
            if r is not pool
        ]
        return cls(stage, reader, pool_size, buffers, positions, unpooled)

    def formula(self, poly: Poly) -> str:
        return self.reader.render(poly)

    @property
    def pool_formula(self) -> str:
        return self.formula(self.pool_size)

    def evaluate(self, dims: Mapping[str, int]) -> PlacedPlan:
        """Offsets and sizes in bytes for concrete dims (e.g. batch=2, seq=128),
        from the IR's own arithmetic (`xhip.analysis.pool_layout`)."""
        function = self.stage.function
        layout = evaluate_pool(
            function, _arg_shapes(function, self.stage.dim_names, dims)
        )
        placed = [
            PlacedBuffer(
                b.name,
                v.offset,
                v.size,
                *_step_range(self.positions, v.first_use, v.last_use),
            )
            for b, v in zip(self.buffers, layout.views, strict=True)
        ]
        return PlacedPlan(
            self.title,
            dict(dims),
            layout.size,
            self.pool_formula,
            placed,
            self.steps,
            layout.problems(),
            self._unpooled_bytes(dims),
        )

    def _unpooled_bytes(self, dims: Mapping[str, int]) -> list[tuple[str, int | None]]:
        placed: list[tuple[str, int | None]] = []
        for name, size in self.unpooled:
            try:
                placed.append((name, self.reader.evaluate(size, dims)))
            except FormulaError:
                placed.append((name, None))
        return placed

    def evaluate_formulas(self, dims: Mapping[str, int]) -> PlacedPlan:
        """The same numbers from this plan's formulas: a check on both readings."""
        ev = self.reader.evaluate
        placed = [
            PlacedBuffer(b.name, ev(b.offset, dims), ev(b.size, dims), b.first, b.last)
            for b in self.buffers
        ]
        pool = ev(self.pool_size, dims)
        return PlacedPlan(
            self.title,
            dict(dims),
            pool,
            self.pool_formula,
            placed,
            self.steps,
            unpooled=self._unpooled_bytes(dims),
        )

    def __repr__(self) -> str:
        return f"<MemoryPlan {self.title}: pool = {self.pool_formula} bytes>"

    def __str__(self) -> str:
        lines = [f"{self.title}: pool = {self.pool_formula} bytes"]
        for b in self.buffers:
            lines.append(
                f"  %{b.name}: offset {self.formula(b.offset)}, "
                f"{self.formula(b.size)} bytes, steps {b.first}..{b.last}"
            )
        for name, size in self.unpooled:
            lines.append(f"  outside the pool: %{name}, {self.formula(size)} bytes")
        return "\n".join(lines)


def _arg_shapes(
    function: func.FuncOp, names: DimNames, dims: Mapping[str, int]
) -> dict[int, tuple[int, ...]]:
    """Shapes of the memref arguments whose dims are static or named in `dims`.

    Not `pool_layout.shapes_from_dim_params`: the final stage has lost its
    `onnx.dim_params`, so the names come from the stages before it."""
    shapes: dict[int, tuple[int, ...]] = {}
    for index, arg in enumerate(function.args):
        if not isinstance(arg.type, MemRefType):
            continue
        shape: list[int] = []
        for axis, size in enumerate(arg.type.get_shape()):
            name = names.get(index, {}).get(axis)
            if size != DYNAMIC_INDEX:
                shape.append(size)
            elif name is not None and name in dims:
                shape.append(dims[name])
            else:
                break
        else:
            shapes[index] = tuple(shape)
    return shapes


def _view_bytes(view: memref.ViewOp, reader: FormulaReader) -> Poly:
    return _bytes(view.result.type, view.sizes, reader)


def _bytes(typ: Attribute, sizes: Sequence[SSAValue], reader: FormulaReader) -> Poly:
    """Bytes of a contiguous memref of `typ` with these dynamic sizes."""
    assert isinstance(typ, MemRefType)
    element = element_bytes(typ.get_element_type())
    if element is None:
        raise FormulaError(f"no byte size for {typ.get_element_type()}")
    size = Poly.const(element)
    dynamic = iter(sizes)
    for dim in typ.get_shape():
        size = size * (reader.read(next(dynamic)) if dim == DYNAMIC_INDEX else dim)
    return size


_NOT_STEPS = (
    memref.DimOp,
    memref.CastOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.SubviewOp,
    memref.ReinterpretCastOp,
    memref.ViewOp,
    memref.ExtractStridedMetaDataOp,
)


def _is_step(op: Operation) -> bool:
    return not isinstance(op, _NOT_STEPS)


def _step_range(positions: Sequence[int], first: int, last: int) -> tuple[int, int]:
    """The steps from op index `first` to `last`, kept non-empty."""
    start = bisect.bisect_left(positions, first)
    end = bisect.bisect_right(positions, last) - 1
    start = min(start, len(positions) - 1)
    return start, max(start, end)


def _entry_block(function: func.FuncOp) -> Block:
    block = function.body.blocks.first
    if block is None:
        raise ValueError(f"@{function.sym_name.data} has no body")
    return block


def _label(op: Operation) -> str:
    name = op.name.removeprefix("hip.")
    for prefix in ("hipblaslt.", "miopen."):
        name = name.removeprefix(prefix)
    return name


__all__ = [
    "Buffer",
    "MemoryPlan",
    "StageView",
    "is_pool",
]
