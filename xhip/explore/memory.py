"""The memory plan of a pooled stage (pass 16 on): which bytes of the pool each
buffer takes, from which op to which, and a picture of it.

The pool is a 1-D `i8` allocation and each buffer a `memref.view` into it.
`MemoryPlan` reads the offsets and sizes as formulas in the dim names
(`FormulaReader`); `MemoryPlan.evaluate` gets the bytes for given dims from
`xhip.analysis.pool_layout`, which runs the IR's own index arithmetic.
"""

from __future__ import annotations

import bisect
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerType, MemRefType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xhip.analysis.liveness import BufferLiveness
from xhip.analysis.memory_plan import element_bytes
from xhip.analysis.pool_layout import evaluate_pool
from xhip.analysis.size_expr import Poly
from xhip.dialects import hip
from xhip.explore.formula import DimNames, FormulaError, FormulaReader
from xhip.explore.stages import Stage

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

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


@dataclass(frozen=True)
class PlacedBuffer:
    name: str
    offset: int
    size: int
    first: int
    last: int

    @property
    def end(self) -> int:
        return self.offset + self.size


class MemoryPlan:
    """Symbolic plan of a stage's pool: formulas for the pool size and for
    each buffer's offset and size."""

    def __init__(
        self,
        stage: Stage,
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
    def of(cls, stage: Stage) -> MemoryPlan:
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

    def shapes(self, dims: Mapping[str, int]) -> dict[int, tuple[int, ...]]:
        """Argument shapes (by index) for named dims, where all their dims are known."""
        return arg_shapes(self.stage.function, self.stage.dim_names, dims)

    def evaluate(self, dims: Mapping[str, int]) -> PlacedPlan:
        """Offsets and sizes in bytes for concrete dims (e.g. batch=2, seq=128),
        from the IR's own arithmetic (`xhip.analysis.pool_layout`)."""
        layout = evaluate_pool(self.stage.function, self.shapes(dims))
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


def arg_shapes(
    function: func.FuncOp, names: DimNames, dims: Mapping[str, int]
) -> dict[int, tuple[int, ...]]:
    """Shapes of the memref arguments whose dims are static or named in `dims`."""
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


class PlacedPlan:
    """A memory plan for concrete dims; `figure()` draws it."""

    def __init__(
        self,
        title: str,
        dims: dict[str, int],
        pool_bytes: int,
        pool_formula: str,
        buffers: Sequence[PlacedBuffer],
        steps: Sequence[str],
        problems: Sequence[str] = (),
        unpooled: Sequence[tuple[str, int | None]] = (),
    ):
        self.unpooled = list(unpooled)
        """Allocations outside the pool and their bytes (None: not computable)."""
        self.problems = list(problems)
        """What `xhip.analysis.pool_layout` finds wrong with the layout."""
        self.title = title
        self.dims = dims
        self.pool_bytes = pool_bytes
        self.pool_formula = pool_formula
        self.buffers = list(buffers)
        self.steps = list(steps)

    @property
    def live_bytes(self) -> list[int]:
        """Bytes of the buffers live at each step."""
        return [
            sum(b.size for b in self.buffers if b.first <= step <= b.last)
            for step in range(len(self.steps))
        ]

    @property
    def peak_bytes(self) -> int:
        return max(self.live_bytes, default=0)

    @property
    def peak_step(self) -> int:
        live = self.live_bytes
        return live.index(max(live)) if live else 0

    def sharing(self) -> list[tuple[str, str]]:
        """Pairs of buffers that use the same bytes at different times."""
        return [
            (a.name, b.name)
            for i, a in enumerate(self.buffers)
            for b in self.buffers[i + 1 :]
            if _overlap(a.offset, a.end, b.offset, b.end)
        ]

    def conflicts(self) -> list[tuple[str, str]]:
        """Pairs that use the same bytes at the same time: a wrong plan."""
        by_name = {b.name: b for b in self.buffers}
        return [
            (x, y)
            for x, y in self.sharing()
            if _overlap(
                by_name[x].first,
                by_name[x].last + 1,
                by_name[y].first,
                by_name[y].last + 1,
            )
        ]

    def out_of_pool(self) -> list[str]:
        return [b.name for b in self.buffers if b.offset < 0 or b.end > self.pool_bytes]

    @property
    def unpooled_bytes(self) -> int | None:
        """Bytes allocated outside the pool (None if some size is unknown)."""
        sizes = [size for _, size in self.unpooled]
        return None if None in sizes else sum(s or 0 for s in sizes)

    def describe(self) -> str:
        dims = ", ".join(f"{k}={v}" for k, v in self.dims.items())
        step = self.steps[self.peak_step] if self.steps else "-"
        text = (
            f"{self.title} ({dims}): pool {human_bytes(self.pool_bytes)} "
            f"= {self.pool_formula}; peak live {human_bytes(self.peak_bytes)} "
            f"at step {self.peak_step} ({step})"
        )
        if self.unpooled:
            total = self.unpooled_bytes
            size = "?" if total is None else human_bytes(total)
            text += f"; {len(self.unpooled)} buffers ({size}) outside the pool"
        return text

    def __repr__(self) -> str:
        return f"<PlacedPlan {self.describe()}>"

    def __str__(self) -> str:
        rows = [self.describe()]
        for b in self.buffers:
            rows.append(
                f"  %{b.name:<10} [{b.offset:>10}, {b.end:>10})  "
                f"{human_bytes(b.size):>10}  steps {b.first}..{b.last}"
            )
        for name, size in self.unpooled:
            shown = "?" if size is None else human_bytes(size)
            rows.append(f"  %{name:<10} outside the pool  {shown:>10}")
        return "\n".join(rows)

    def figure(self, width: float | None = None, height: float = 5.0) -> Figure:
        from matplotlib.figure import Figure

        width = width or max(9.0, 0.45 * len(self.steps))
        fig = Figure(figsize=(width, height), layout="constrained")
        self.draw(fig.add_subplot())
        return fig

    def draw(self, ax: Axes) -> None:
        """Each buffer a box (steps across, pool bytes up), the pool size and
        the peak of live bytes as lines."""
        from matplotlib.patches import Rectangle
        from matplotlib.ticker import FuncFormatter, MultipleLocator

        colors = [
            "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
            "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
        ]  # fmt: skip
        for i, b in enumerate(self.buffers):
            ax.add_patch(
                Rectangle(
                    (b.first - 0.42, b.offset),
                    b.last - b.first + 0.84,
                    b.size,
                    facecolor=colors[i % len(colors)],
                    edgecolor="black",
                    linewidth=0.8,
                    alpha=0.75,
                )
            )
            ax.text(
                (b.first + b.last) / 2,
                b.offset + b.size / 2,
                f"%{b.name}\n{human_bytes(b.size)}",
                ha="center",
                va="center",
                fontsize=8,
                bbox={
                    "facecolor": "white",
                    "alpha": 0.6,
                    "edgecolor": "none",
                    "pad": 1,
                },
            )
        n = len(self.steps)
        ax.axhline(self.pool_bytes, color="black", linewidth=1.5)
        ax.annotate(
            f"pool size {human_bytes(self.pool_bytes)}",
            (n - 0.5, self.pool_bytes),
            xytext=(-4, 4),
            textcoords="offset points",
            ha="right",
            fontsize=9,
        )
        peak = self.peak_bytes
        ax.axhline(peak, color="#d62728", linestyle="--", linewidth=1.2)
        ax.annotate(
            f"peak live {human_bytes(peak)} (step {self.peak_step})",
            (-0.5, peak),
            xytext=(4, 4),
            textcoords="offset points",
            color="#d62728",
            fontsize=9,
        )
        ax.set_xlim(-0.5, n - 0.5)
        ax.set_ylim(0, max(self.pool_bytes, peak) * 1.08 or 1)
        if n <= 12:
            labels = [f"{i}\n{s}" for i, s in enumerate(self.steps)]
            ax.set_xticks(range(n), labels, fontsize=8)
        else:
            labels = [f"{s} {i}" for i, s in enumerate(self.steps)]
            ax.set_xticks(range(n), labels, fontsize=8, rotation=60, ha="right")
        top = max(self.pool_bytes, peak, 1)
        ax.yaxis.set_major_locator(
            MultipleLocator(2 ** max(0, math.ceil(math.log2(top / 8))))
        )
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: human_bytes(int(y))))
        ax.set_xlabel("op (step)")
        ax.set_ylabel("byte offset in the pool")
        dims = ", ".join(f"{k}={v}" for k, v in self.dims.items())
        ratio = self.pool_bytes / peak if peak else float("nan")
        title = (
            f"{self.title}, {dims}: pool {human_bytes(self.pool_bytes)}, "
            f"{ratio:.2g}x the peak of live bytes"
        )
        if self.unpooled:
            total = self.unpooled_bytes
            size = "?" if total is None else human_bytes(total)
            title += f"\n+ {len(self.unpooled)} buffers outside the pool ({size})"
        ax.set_title(title, fontsize=10)

    def save(self, path: str, dpi: int = 120) -> None:
        self.figure().savefig(path, dpi=dpi)

    def _repr_png_(self) -> bytes:
        stream = io.BytesIO()
        self.figure().savefig(stream, format="png", dpi=100)
        return stream.getvalue()


def human_bytes(n: int) -> str:
    """`524288` -> `512 KiB`."""
    if abs(n) < 1024:
        return f"{n} B"
    size = float(n)
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        size /= 1024
        if abs(size) < 1024 or unit == "TiB":
            break
    return f"{size:.3g} {unit}"


def _overlap(a0: int, a1: int, b0: int, b1: int) -> bool:
    return a0 < b1 and b0 < a1


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
    "PlacedBuffer",
    "PlacedPlan",
    "arg_shapes",
    "human_bytes",
    "is_pool",
]
