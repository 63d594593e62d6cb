"""The `onnx-to-hip` pipeline, and pipeline specs turned into passes.

`onnx_to_hip_passes()` gives the seed's 21 passes one by one, for tools that
keep every stage. `onnx-to-hip` (alias `onnx-to-hip-pipeline`) is one composite
pass made of them (`xhip.transforms.composite`). `build_pipeline` parses a spec
in `xdsl-opt -p` syntax into passes, for `xhip compile --pipeline` and
`xhip.compile_to_ir(pipeline=...)`; a bad spec raises `PipelineError`.
`run_passes` applies passes stage by stage, reporting progress.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline, PassPipelineCallbackType
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline
from xdsl.utils.exceptions import ArgSpecParseError

from xhip.context import multiverse
from xhip.progress import ProgressCallback, ProgressEvent
from xhip.transforms.composite import CompositePass, expand_composite_passes


class PipelineError(ValueError):
    """A pipeline spec names an unknown pass or gives a pass a bad option; the
    message is one line naming the pass (or quoting the spec) and the reason."""


class PipelineSyntaxError(PipelineError):
    """The spec itself does not parse; the message starts with the spec, quoted."""


def _registry() -> dict[str, Callable[[], type[ModulePass]]]:
    return multiverse().all_passes


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass `xdsl-opt` knows with xhip installed, by name."""
    return dict(_registry())


def registered_pass(name: str) -> type[ModulePass]:
    """The pass class `xdsl-opt -p <name>` would run."""
    return _registry()[name]()


def _one_line(message: str) -> str:
    """`headline: reason` from xDSL's multi-line error text (spec, caret, reason)."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if len(lines) >= 2:
        return f"{lines[0].rstrip(':')}: {lines[-1]}"
    return lines[0] if lines else "parse error"


def build_pipeline(
    spec: str, defaults: Mapping[str, str | int] | None = None
) -> list[ModulePass]:
    """The passes of `spec` (`cse,onnx-to-hip{externalize-min-num-elements=16}`),
    looked up where `xdsl-opt -p` looks them up.

    `defaults` fill in options the spec leaves out, for the passes that have
    them (the constants directory, for `onnx-to-hip`). Composite passes are not
    expanded (see `expand_composite_passes`).
    """
    passes = _registry()
    try:
        specs = list(parse_pipeline(spec))
    except (ArgSpecParseError, ValueError) as e:
        raise PipelineSyntaxError(f"'{spec}': {_one_line(str(e))}") from None
    unknown = [s.name for s in specs if s.name not in passes]
    if unknown:
        raise PipelineError(
            f"unknown pass{'es' if len(unknown) > 1 else ''} "
            f"{', '.join(repr(n) for n in unknown)} (see `xdsl-opt --help` for "
            f"the passes there are)"
        )
    built: list[ModulePass] = []
    for s in specs:
        cls = passes[s.name]()
        fields = {f.replace("_", "-") for f in getattr(cls, "__dataclass_fields__", {})}
        for option, value in (defaults or {}).items():
            if option in fields and option not in s.parameters:
                s.parameters[option] = (value,)
        try:
            built.append(cls.from_spec(s))
        except (ValueError, TypeError) as e:
            raise PipelineError(f"pass '{s.name}': {e}") from None
    return built


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


def run_passes(
    ctx: Context,
    module: ModuleOp,
    passes: Sequence[ModulePass],
    callback: PassPipelineCallbackType | None = None,
    progress: ProgressCallback | None = None,
) -> None:
    """Apply `passes` to `module`, composite passes stage by stage.

    `callback` is `PassPipeline`'s (previous pass, module, next pass);
    `progress` hears a `compile` event before each stage and one when all are
    done, so a long compile can say which pass it is in.
    """
    stages = tuple(expand_composite_passes(passes))
    done = 0

    def step(prev: ModulePass | None, op: ModuleOp, nxt: ModulePass | None) -> None:
        nonlocal done
        done += prev is not None
        if callback is not None:
            callback(prev, op, nxt)
        if progress is not None:
            name = nxt.name if nxt is not None else "done"
            progress(ProgressEvent("compile", name, done, len(stages)))

    PassPipeline(stages, step).apply(ctx, module)


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
