"""A memory plan in bytes, for concrete dims: checks on it, text, and a picture.

`xhip.explore.memory.MemoryPlan.evaluate` makes one; it holds numbers only, so
it can be drawn or compared without the IR it came from.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class PlacedBuffer:
    """A `Buffer` in bytes: `[offset, end)` from step `first` to `last`."""

    name: str
    offset: int
    size: int
    first: int
    last: int

    @property
    def end(self) -> int:
        return self.offset + self.size


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
            text += f"; {self._unpooled_summary()}"
        return text

    def _unpooled_summary(self) -> str:
        total = self.unpooled_bytes
        size = "?" if total is None else human_bytes(total)
        return f"{len(self.unpooled)} buffers ({size}) outside the pool"

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
        from matplotlib.figure import Figure  # lazy: optional, only pictures need it

        width = width or max(9.0, 0.45 * len(self.steps))
        fig = Figure(figsize=(width, height), layout="constrained")
        self.draw(fig.add_subplot())
        return fig

    def draw(self, ax: Axes) -> None:
        """Each buffer a box (steps across, pool bytes up), the pool size and
        the peak of live bytes as lines."""
        # lazy: matplotlib is optional, only pictures need it
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
            title += f"\n+ {self._unpooled_summary()}"
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


__all__ = ["PlacedBuffer", "PlacedPlan", "human_bytes"]
