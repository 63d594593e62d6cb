"""Exploring the pipeline: the module after each pass, diffs between stages,
summaries (ops, allocations, the pool size as a formula) and a picture of the
memory plan. Used by the notebooks in `notebooks/`.

    walk = Walkthrough.from_onnx(load_example("attention").build())
    walk.diff("hip-optimize-memrefs")         # pass 15 -> 16, as HTML in a notebook
    walk["hip-pool-allocs"].summary({"batch": 2, "seq": 128})
    walk.final.memory_plan().evaluate({"batch": 2, "seq": 128})   # draws the plan
"""

from xhip.explore.diff import Diff
from xhip.explore.formula import FormulaError, FormulaReader, dim_names
from xhip.explore.memory import MemoryPlan
from xhip.explore.placed import PlacedPlan, human_bytes
from xhip.explore.stages import (
    PASS_NOTES,
    PipelineFailure,
    Stage,
    Walkthrough,
    default_passes,
    load_example,
    print_module,
)
from xhip.explore.summary import StageSummary, SummaryTable, summarize

__all__ = [
    "PASS_NOTES",
    "Diff",
    "FormulaError",
    "FormulaReader",
    "MemoryPlan",
    "PipelineFailure",
    "PlacedPlan",
    "Stage",
    "StageSummary",
    "SummaryTable",
    "Walkthrough",
    "default_passes",
    "dim_names",
    "human_bytes",
    "load_example",
    "print_module",
    "summarize",
]
