"""A stage in numbers: ops per dialect, allocations, and the pool size as a
formula in the model's dim names (and its value for given dims)."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp

from xhip.explore.formula import FormulaError
from xhip.explore.memory import ALLOC_OPS, FREE_OPS, MemoryPlan, StageView
from xhip.explore.placed import human_bytes


@dataclass
class StageSummary:
    index: int
    name: str
    ops_by_dialect: Counter[str]
    ops: Counter[str]
    allocations: int
    """Allocation ops (`memref.alloc`, `memref.alloca`, `hip.alloc`)."""
    deallocations: int
    pool_formula: str | None = None
    """Pool bytes as a formula in the dim names; None before pooling."""
    dims: dict[str, int] = field(default_factory=dict[str, int])
    pool_bytes: int | None = None
    """The pool size for `dims`, when they were given."""
    peak_bytes: int | None = None
    """Bytes live at the worst step for `dims` (the least any pool needs)."""

    @property
    def title(self) -> str:
        return f"{self.index}. {self.name}"

    @property
    def dialects(self) -> str:
        return ", ".join(f"{d} {n}" for d, n in sorted(self.ops_by_dialect.items()))

    def __str__(self) -> str:
        lines = [
            self.title,
            f"  ops: {sum(self.ops.values())} ({self.dialects})",
            f"  allocations: {self.allocations}, deallocations: {self.deallocations}",
        ]
        if self.pool_formula is not None:
            lines.append(f"  pool bytes = {self.pool_formula}")
        if self.pool_bytes is not None:
            dims = ", ".join(f"{k}={v}" for k, v in self.dims.items())
            lines.append(
                f"  for {dims}: pool {self.pool_bytes} bytes "
                f"({human_bytes(self.pool_bytes)}), peak live "
                f"{human_bytes(self.peak_bytes or 0)}"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return SummaryTable([self])._repr_html_()


def op_counts(module: ModuleOp) -> Counter[str]:
    """How many of each op the module holds (the module itself not counted)."""
    return Counter(op.name for op in module.walk() if op is not module)


def summarize(stage: StageView, dims: Mapping[str, int] | None = None) -> StageSummary:
    ops = op_counts(stage.module)
    by_dialect: Counter[str] = Counter()
    for name, count in ops.items():
        by_dialect[name.split(".")[0]] += count
    allocs = sum(ops[op.name] for op in ALLOC_OPS)
    frees = sum(ops[op.name] for op in FREE_OPS)
    summary = StageSummary(stage.index, stage.name, by_dialect, ops, allocs, frees)
    try:
        plan = MemoryPlan.of(stage)
    except ValueError:
        return summary
    summary.pool_formula = plan.pool_formula
    if dims:
        summary.dims = dict(dims)
        try:
            placed = plan.evaluate(dims)
        except FormulaError:
            return summary
        summary.pool_bytes = placed.pool_bytes
        summary.peak_bytes = placed.peak_bytes
    return summary


class SummaryTable:
    """Summaries of several stages, one row each (HTML in a notebook)."""

    def __init__(self, rows: Sequence[StageSummary]):
        self.rows = list(rows)

    def _cells(self, row: StageSummary) -> list[str]:
        return [
            str(row.index),
            row.name,
            str(sum(row.ops.values())),
            row.dialects,
            str(row.allocations),
            str(row.deallocations),
            row.pool_formula or "",
            "" if row.pool_bytes is None else human_bytes(row.pool_bytes),
        ]

    HEADER = ("#", "pass", "ops", "by dialect", "allocs", "frees", "pool bytes", "pool")

    def __repr__(self) -> str:
        return str(self)

    def __str__(self) -> str:
        table = [list(self.HEADER), *(self._cells(r) for r in self.rows)]
        widths = [max(len(row[i]) for row in table) for i in range(len(self.HEADER))]
        return "\n".join(
            "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
            for row in table
        )

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.HEADER)
        body = "".join(
            "<tr>"
            + "".join(
                f"<td style='text-align:left'>{html.escape(c)}</td>"
                for c in self._cells(r)
            )
            + "</tr>"
            for r in self.rows
        )
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
