"""The `onnx-to-hip` pipeline: the seed's 21 passes, in the seed's order.

`onnx_to_hip_passes()` gives the passes one by one, for tools that keep every
stage. `onnx-to-hip` (alias `onnx-to-hip-pipeline`) is one pass made of them.

A composite pass hides its stages from `xdsl-opt --print-between-passes` and
`--time-passes`, which only see the passes of the `PassPipeline` xdsl-opt runs,
and xDSL has no hook to expand a pass into several. So importing this module
teaches xdsl-opt's `apply_passes` to replace every `CompositePass` of its pipeline
by its parts before it runs them: the pipeline's callback, and with it printing,
timing and verification, then runs between every stage. xdsl-opt imports this
module when it looks a composite pass up, after it has parsed the pipeline and
before it applies it. Our own tools expand with `expand_composite_passes`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cache

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass, PassPipeline
from xdsl.universe import Universe
from xdsl.utils.arg_spec import ArgSpec
from xdsl.xdsl_opt_main import xDSLOptMain


@cache
def _registry() -> dict[str, Callable[[], type[ModulePass]]]:
    return Universe.get_multiverse().all_passes


def registered_pass(name: str) -> type[ModulePass]:
    """The pass class `xdsl-opt -p <name>` would run."""
    return _registry()[name]()


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


def _expand_composite_passes_in_xdsl_opt() -> None:
    apply_passes = xDSLOptMain.apply_passes
    if getattr(apply_passes, "expands_composite_passes", False):
        return

    def apply_passes_expanded(self: xDSLOptMain, prog: builtin.ModuleOp) -> None:
        passes = tuple(expand_composite_passes(self.pipeline.passes))
        self.pipeline = replace(self.pipeline, passes=passes)
        apply_passes(self, prog)

    apply_passes_expanded.expands_composite_passes = True  # pyright: ignore
    xDSLOptMain.apply_passes = apply_passes_expanded


_expand_composite_passes_in_xdsl_opt()


def onnx_to_hip_passes(
    externalize_min_num_elements: int = 256, externalize_output_dir: str = "."
) -> list[ModulePass]:
    """The 21 passes of the pipeline; the seed numbers its stages 1 to 21."""
    by_name = registered_pass
    return [
        by_name("hip-add-context-arg")(),
        by_name("convert-onnx-to-hip").from_spec(
            ArgSpec(
                "convert-onnx-to-hip",
                {
                    "externalize-min-num-elements": (externalize_min_num_elements,),
                    "externalize-output-dir": (externalize_output_dir,),
                },
            )
        ),
        by_name("one-shot-bufferize")(),
        by_name("buffer-results-to-out-params")(),
        by_name("expand-realloc")(),
        by_name("canonicalize")(),
        # 7-14, stage by stage.
        *expand_composite_passes([by_name("buffer-deallocation-pipeline")()]),
        by_name("hip-optimize-memrefs")(),
        by_name("hip-pool-allocs")(),
        by_name("convert-bufferization-to-memref")(),
        by_name("cse")(),
        by_name("canonicalize")(),
        by_name("hip-lower-allocs")(),
        by_name("hip-resolve-extern-constants")(),
    ]


@dataclass(frozen=True)
class OnnxToHipPass(CompositePass):
    """ONNX dialect in, HIP-dialect memref IR with the final ABI out."""

    name = "onnx-to-hip"

    externalize_min_num_elements: int = 256
    """Constants with at least this many elements go to the constants file."""

    externalize_output_dir: str = "."
    """Where `model.constants.bin` is written."""

    def parts(self) -> list[ModulePass]:
        return onnx_to_hip_passes(
            self.externalize_min_num_elements, self.externalize_output_dir
        )


@dataclass(frozen=True)
class OnnxToHipPipelinePass(OnnxToHipPass):
    """`onnx-to-hip` under the name `hip-mlir-opt --onnx-to-hip-pipeline` uses."""

    name = "onnx-to-hip-pipeline"
