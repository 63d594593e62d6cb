"""Composite passes: a pass that is a fixed sequence of other passes.

`onnx-to-hip` and `buffer-deallocation-pipeline` are composite. Our own tools
run their stages one by one with `expand_composite_passes`. For `xdsl-opt`,
importing this module calls `teach_xdsl_opt_composite_passes()`: xdsl-opt
imports a pass's module when it looks the pass up, while it parses `-p`, so
every composite pass is expanded before xdsl-opt applies its pipeline.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import replace

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass, PassPipeline
from xdsl.xdsl_opt_main import xDSLOptMain


class CompositePass(ModulePass, ABC):
    """A pass that is a fixed sequence of other passes."""

    @abstractmethod
    def parts(self) -> Iterable[ModulePass]: ...

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PassPipeline(tuple(self.parts())).apply(ctx, op)


def expand_composite_passes(passes: Iterable[ModulePass]) -> Iterator[ModulePass]:
    """The passes with every composite pass replaced, recursively, by its parts."""
    for p in passes:
        if isinstance(p, CompositePass):
            yield from expand_composite_passes(p.parts())
        else:
            yield p


def teach_xdsl_opt_composite_passes() -> None:
    """Make `xdsl-opt` run every `CompositePass` of its pipeline part by part.

    `--print-between-passes`, `--time-passes` and verification work through the
    callback of the `PassPipeline` xdsl-opt builds, which sees a composite pass
    as one step; xDSL (0.75 included) has no hook to expand a pass into several.
    So this wraps `xDSLOptMain.apply_passes` to replace the composite passes of
    `self.pipeline` by their parts first. Pipelines without composite passes run
    unchanged; calling it again does nothing.
    """
    apply_passes = xDSLOptMain.apply_passes
    if getattr(apply_passes, "expands_composite_passes", False):
        return

    def apply_passes_expanded(self: xDSLOptMain, prog: builtin.ModuleOp) -> None:
        passes = tuple(expand_composite_passes(self.pipeline.passes))
        self.pipeline = replace(self.pipeline, passes=passes)
        apply_passes(self, prog)

    # The marker `getattr` reads above, set through the function's own dict.
    apply_passes_expanded.__dict__["expands_composite_passes"] = True
    xDSLOptMain.apply_passes = apply_passes_expanded


teach_xdsl_opt_composite_passes()
