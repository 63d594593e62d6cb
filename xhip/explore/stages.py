"""Run the pipeline one pass at a time and keep the module after each pass.

`memory`, `summary` and `diff` know nothing of this module (they read a stage
through `memory.StageView`), so it imports them to offer `Stage.summary()`,
`Stage.memory_plan()` and `Walkthrough.diff()`.
"""

from __future__ import annotations

import html
import importlib.util
import io
import os
import re
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Literal, overload

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.printer import Printer

from xhip import pipeline
from xhip.context import make_context, parse_module
from xhip.dialects.hip import EXTERNAL_DATA_ATTR
from xhip.explore.diff import Diff
from xhip.explore.formula import DimNames, dim_names
from xhip.explore.memory import MemoryPlan
from xhip.explore.summary import StageSummary, SummaryTable, summarize
from xhip.frontend import import_model

REPO = Path(__file__).resolve().parents[2]

PASS_NOTES: dict[str, str] = {
    "input": "The ONNX graph imported as `onnx` dialect ops on tensors.",
    "hip-add-context-arg": "Adds the `!hip.context` as argument 0 of the entry "
    "function; the ONNX ops are unchanged.",
    "convert-onnx-to-hip": "ONNX ops become `hip` library calls in "
    "destination-passing style on tensors; big constants move to an external "
    f"blob (`memref.global` + `{EXTERNAL_DATA_ATTR}`), small ones stay inline.",
    "one-shot-bufferize": "Tensors become memrefs: every `tensor.empty` becomes "
    "a `memref.alloc`, `tensor.dim` becomes `memref.dim`.",
    "buffer-results-to-out-params": "The returned buffer becomes an out "
    "parameter; the last op writes into it directly.",
    "expand-realloc": "Expands `memref.realloc` into alloc + copy; nothing to do "
    "when the model has none.",
    "canonicalize": "Folds and cleans up: duplicate `memref.dim`s, dead casts, "
    "constant arithmetic.",
    "cse": "Common-subexpression elimination: identical pure ops are computed once.",
    "ownership-based-buffer-deallocation": "Inserts the `bufferization.dealloc` "
    "ops that free each buffer it owns.",
    "buffer-deallocation-simplification": "Simplifies the dealloc ops using what "
    "is known about aliasing.",
    "bufferization-lower-deallocations": "Lowers `bufferization.dealloc` to plain "
    "`memref.dealloc`s.",
    "buffer-deallocation-pipeline": "The whole buffer-deallocation pipeline in one "
    "pass: every alloc gets its dealloc.",
    "hip-optimize-memrefs": "Liveness-based reuse: an op's output takes over a "
    "dead buffer of the same type and sizes, and its own alloc goes.",
    "hip-pool-allocs": "All allocs become `memref.view`s into one `memref<?xi8>` "
    "pool, at 256-byte aligned offsets computed at run time.",
    "convert-bufferization-to-memref": "Lowers what is left of the "
    "`bufferization` dialect to `memref` ops.",
    "hip-lower-allocs": "`memref.alloc`/`dealloc` become `hip.alloc`/`hip.free` "
    "on the context.",
    "hip-resolve-extern-constants": "Externalized globals become views into a "
    "new trailing constants-blob argument.",
}


_LARGE_DENSE = re.compile(r'dense<"0x[0-9A-Fa-f]{64,}">|dense<\[[^<>"]{200,}?\]>')


def print_module(
    module: ModuleOp, elide: bool = True
) -> tuple[str, dict[SSAValue, str]]:
    """The module's text, as `xdsl-opt` prints it, and the name of each value.

    With `elide`, large constants read `dense_resource<__elided__>`, as in the
    seed (`--mlir-elide-elementsattrs-if-larger`): weights are not for reading.
    """
    stream = io.StringIO()
    printer = Printer(stream=stream)
    printer.print_op(module)
    text = stream.getvalue().rstrip("\n") + "\n"
    if elide:
        text = _LARGE_DENSE.sub("dense_resource<__elided__>", text)
    return text, dict(printer._ssa_values)


def entry_function(module: ModuleOp, name: str = "main_graph") -> func.FuncOp:
    """The entry function: `@main_graph`, else the first `func.func`."""
    functions = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    for function in functions:
        if function.sym_name.data == name:
            return function
    if not functions:
        raise ValueError("the module has no func.func")
    return functions[0]


@dataclass
class Stage:
    """The module after one pass (`index` 0 is the pipeline's input)."""

    index: int
    name: str
    module: ModuleOp
    text: str
    ssa_names: dict[SSAValue, str] = field(repr=False)
    dim_names: DimNames = field(repr=False)

    @classmethod
    def of(
        cls, index: int, name: str, module: ModuleOp, inherited: DimNames | None = None
    ) -> Stage:
        """Prints `module` now: later passes change it in place."""
        text, names = print_module(module)
        dims = dict(inherited or {})
        try:
            dims.update(dim_names(entry_function(module)))
        except ValueError:
            pass
        return cls(index, name, module, text, names, dims)

    @property
    def title(self) -> str:
        return f"{self.index}. {self.name}"

    @property
    def note(self) -> str:
        return PASS_NOTES.get(self.name, "")

    @property
    def function(self) -> func.FuncOp:
        return entry_function(self.module)

    def summary(self, dims: Mapping[str, int] | None = None) -> StageSummary:
        return summarize(self, dims)

    def memory_plan(self) -> MemoryPlan:
        return MemoryPlan.of(self)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<Stage {self.title}>"

    def _repr_html_(self) -> str:
        return (
            f"<b>{html.escape(self.title)}</b>"
            f"<pre style='font-size:85%'>{html.escape(self.text)}</pre>"
        )


class PipelineFailure(Exception):
    """A pass failed; the stages before it are kept."""

    def __init__(self, index: int, name: str, error: BaseException):
        super().__init__(f"pass {index} ({name}) failed: {_first_line(error)}")
        self.index = index
        self.name = name
        self.error = error


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0] if text else '(no message)'}"


class Walkthrough:
    """The stages of one pipeline run: `walk[0]` is the input, `walk[i]` the
    module after pass `i`; `walk["hip-pool-allocs"]` finds a pass by name.

    Indexing is by pass number, not by position: stages read from files may
    skip numbers (the seed prints no stage 5).
    """

    def __init__(self, stages: Sequence[Stage], failure: PipelineFailure | None = None):
        self.stages = list(stages)
        self.failure = failure

    @classmethod
    def run(
        cls,
        module: ModuleOp,
        passes: Sequence[ModulePass] | None = None,
        ctx: Context | None = None,
        errors: Literal["raise", "keep"] = "raise",
    ) -> Walkthrough:
        """Applies `passes` (default: the `onnx-to-hip` pipeline) to a copy of
        `module`, printing it after each. With `errors="keep"` a failing pass
        ends the walk and is recorded in `failure` instead of raised."""
        if passes is None:
            passes = default_passes()
        ctx = ctx or make_context()
        module = module.clone()
        stages = [Stage.of(0, "input", module.clone())]
        for index, p in enumerate(passes, start=1):
            try:
                p.apply(ctx, module)
                module.verify()
            except Exception as error:  # any pass error is a finding
                failure = PipelineFailure(index, p.name, error)
                if errors == "raise":
                    raise failure from error
                return cls(stages, failure)
            stages.append(Stage.of(index, p.name, module.clone(), stages[-1].dim_names))
        return cls(stages)

    @classmethod
    def from_onnx(
        cls,
        model: Any,
        errors: Literal["raise", "keep"] = "raise",
        **options: Any,
    ) -> Walkthrough:
        """Imports an ONNX model (a `ModelProto` or a path) and walks it through
        the pipeline; `options` go to the pipeline (`externalize_min_num_elements`,
        `externalize_output_dir`: by default a temporary folder, so that the
        constants file lands nowhere it is not wanted)."""
        module = import_model(model)
        if "externalize_output_dir" in options:
            return cls.run(module, default_passes(**options), errors=errors)
        with tempfile.TemporaryDirectory(prefix="xhip-explore-") as scratch:
            passes = default_passes(externalize_output_dir=scratch, **options)
            return cls.run(module, passes, errors=errors)

    @classmethod
    def from_files(cls, paths: Sequence[str | os.PathLike[str]]) -> Walkthrough:
        """Stages read from `after-pass-NN-NAME.mlir` files (the seed's layout).

        A file that holds only a `func.func` replaces the entry function of
        the module read before it, as the seed prints function-anchored passes.
        """
        stages: list[Stage] = []
        previous = ""
        for path in sorted(Path(p) for p in paths):
            text = path.read_text()
            if not text.lstrip().startswith("module"):
                text = _embed_function(previous, text)
            number, _, name = path.stem.removeprefix("after-pass-").partition("-")
            module = parse_module(text, str(path))
            inherited = stages[-1].dim_names if stages else None
            stages.append(Stage.of(int(number), name, module, inherited))
            previous = text
        return cls(stages)

    def __len__(self) -> int:
        return len(self.stages)

    @overload
    def __getitem__(self, key: int | str) -> Stage: ...
    @overload
    def __getitem__(self, key: slice) -> Sequence[Stage]: ...
    def __getitem__(self, key: int | str | slice) -> Stage | Sequence[Stage]:
        if isinstance(key, slice):
            return self.stages[key]
        if isinstance(key, str):
            found = [s for s in self.stages if s.name == key]
            if len(found) != 1:
                where = ", ".join(str(s.index) for s in found) or "none"
                raise KeyError(f"{len(found)} stages named {key!r} (indices: {where})")
            return found[0]
        for stage in self.stages:
            if stage.index == key:
                return stage
        raise IndexError(f"no stage {key}; stages: {[s.index for s in self.stages]}")

    def __iter__(self) -> Iterator[Stage]:
        return iter(self.stages)

    @property
    def final(self) -> Stage:
        return self.stages[-1]

    def diff(self, before: int | str, after: int | str | None = None) -> Diff:
        """The diff from stage `before` to `after` (default: the stage after it)."""
        first = self[before]
        if after is None:
            later = [s for s in self.stages if s.index > first.index]
            if not later:
                raise IndexError(f"no stage after {first.title}")
            second = later[0]
        else:
            second = self[after]
        return Diff(first, second)

    def changes(self, index: int | str) -> Diff:
        """What pass `index` did: the diff from the stage before it to its own."""
        stage = self[index]
        earlier = [s for s in self.stages if s.index < stage.index]
        if not earlier:
            raise IndexError(f"no stage before {stage.title}")
        return Diff(earlier[-1], stage)

    def summaries(self, dims: Mapping[str, int] | None = None) -> SummaryTable:
        return SummaryTable([s.summary(dims) for s in self.stages])


def _embed_function(module_text: str, function_text: str) -> str:
    """`module_text` with its entry function replaced by `function_text`."""
    start = module_text.index("func.func")
    start = module_text.rindex("\n", 0, start) + 1
    end = module_text.rstrip().rindex("}")
    body = "".join("  " + line + "\n" for line in function_text.rstrip().splitlines())
    return module_text[:start] + body + module_text[end:]


def default_passes(**options: Any) -> list[ModulePass]:
    """The `onnx-to-hip` pipeline's passes, one by one."""
    return list(pipeline.onnx_to_hip_passes(**options))


def load_example(name: str) -> ModuleType:
    """`examples/<name>.py` as a module (examples are scripts, not a package)."""
    path = REPO / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"xhip_examples_{name}", path)
    if spec is None or spec.loader is None or not path.exists():
        raise FileNotFoundError(f"{path}: no such example")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
