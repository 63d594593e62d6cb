"""The Python API: an ONNX model in, a callable compiled model out.

    import xhip
    model = xhip.compile("examples/attention.onnx")          # CPU by default
    outputs = model({"X": np.ones((2, 5, 64), np.float32)})  # {"out": array}

`compile_to_ir` stops before the runtime and hands back what the compiler made:
the final module, optionally every stage, the constants blob and the signature.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.passes import ModulePass

from xhip import backend
from xhip.backend.memory import parse_size, physical_memory
from xhip.backend.runtime import Runtime
from xhip.backend.session import CompiledModel, Signature
from xhip.context import make_context
from xhip.dialects import onnx as onnx_dialect
from xhip.dialects.hip import CONSTANTS_FILE
from xhip.frontend.onnx_importer import OnnxImportError, import_model
from xhip.mapped import map_file
from xhip.pipeline import build_pipeline, onnx_to_hip_passes, run_passes
from xhip.progress import ProgressCallback
from xhip.specialize import (
    Model,
    SpecializingModel,
    folded,
    specializes,
    tensor_signature,
)
from xhip.specialize_shapes import ShapeSpecializingModel
from xhip.specialize_values import (
    ValueSpecializingModel,
    load_proto,
    untyped,
    value_inputs,
)
from xhip.transforms.composite import expand_composite_passes
from xhip.transforms.convert_onnx_to_hip import NeedsStaticShapes
from xhip.transforms.hip_guard_assumptions import HipGuardAssumptionsPass

if TYPE_CHECKING:
    import onnx


@dataclass
class CompiledIR:
    """What `compile_to_ir` made."""

    module: ModuleOp
    """The final IR: `@main_graph(%ctx, %inputs..., %outputs..., %constants)`."""

    constants: bytes | memoryview
    """The constants blob the final IR's last argument points into: a read-only
    `memoryview` of the mapped constants file (`bytes(...)` copies it), so a
    model's weights are not read into memory before they are used."""

    signature: Signature
    """Input/output names, dtypes and shapes with dim names, from the import;
    output dims no input dim binds are formulas from the last stage that
    returned the outputs (see `Signature.with_result_dims`)."""

    imported: ModuleOp
    """The `onnx`-dialect module the pipeline started from."""

    stages: list[tuple[str, ModuleOp]] = field(default_factory=lambda: [])
    """`(pass name, module after it)` for every pass, when asked for."""


def _import(
    model: str | os.PathLike[str] | onnx.ModelProto | ModuleOp,
    progress: ProgressCallback | None,
) -> ModuleOp:
    if isinstance(model, ModuleOp):
        return model.clone()
    return import_model(model, progress=progress)


def _main_graph(module: ModuleOp) -> func.FuncOp | None:
    return next(
        (
            op
            for op in module.ops
            if isinstance(op, func.FuncOp) and op.sym_name.data == "main_graph"
        ),
        None,
    )


def _signature(module: ModuleOp) -> Signature:
    function = _main_graph(module)
    if function is None:
        raise ValueError("the module has no @main_graph function")
    return tensor_signature(function)


def _has_dynamic_inputs(module: ModuleOp) -> bool:
    """Whether some graph input has a dim that is not static."""
    function = _main_graph(module)
    return function is not None and any(
        isinstance(t, TensorType) and not t.has_static_shape()
        for t in function.function_type.inputs.data
    )


def _returns_memrefs(function: func.FuncOp | None) -> bool:
    """Whether this stage allocates the outputs itself (so its IR sizes them)."""
    results = function.function_type.outputs.data if function is not None else ()
    return bool(results) and all(isinstance(t, MemRefType) for t in results)


def _passes(
    pipeline: str | Sequence[ModulePass] | None,
    externalize_dir: str,
    externalize_min_num_elements: int,
) -> tuple[ModulePass, ...]:
    if pipeline is None:
        return tuple(onnx_to_hip_passes(externalize_min_num_elements, externalize_dir))
    if isinstance(pipeline, str):
        pipeline = build_pipeline(pipeline, {"externalize-output-dir": externalize_dir})
    return tuple(expand_composite_passes(pipeline))


def compile_to_ir(
    model: str | os.PathLike[str] | onnx.ModelProto | ModuleOp,
    *,
    externalize_dir: str | os.PathLike[str] | None = None,
    externalize_min_num_elements: int = 256,
    keep_stages: bool = False,
    pipeline: str | Sequence[ModulePass] | None = None,
    progress: ProgressCallback | None = None,
) -> CompiledIR:
    """Import `model` (a path, a `ModelProto` or an `onnx`-dialect module) and
    run `onnx-to-hip` on it (or `pipeline`: a spec string or passes).

    The constants file is written to `externalize_dir` when given (and kept
    there), else to a temporary directory; its bytes are returned either way.
    Raises `xhip.frontend.OnnxImportError` for a model we cannot import and
    `xhip.pipeline.PipelineError` for a `pipeline` spec that names an unknown
    pass or a bad option. `progress`, if given, is called with an
    `xhip.progress.ProgressEvent` at each step of the import and before each
    pass (`xhip.progress.TerminalProgress` shows them on a terminal).
    """
    imported = _import(model, progress)
    signature = _signature(imported)
    main = _main_graph(imported)
    resolved_outputs = main is not None and any(
        onnx_dialect.is_structured(t) for t in main.function_type.outputs.data
    )
    module = imported.clone()
    ctx = make_context()
    stages: list[tuple[str, ModuleOp]] = []

    def keep(prev: ModulePass | None, op: ModuleOp, _next: ModulePass | None) -> None:
        nonlocal signature
        if prev is not None and keep_stages:
            stages.append((prev.name, op.clone()))
        function = _main_graph(op)
        if (
            function is not None
            and prev is not None
            and prev.name == "convert-onnx-to-hip"
            and resolved_outputs
        ):
            # Sequence and optional outputs are their elements from here on
            # (docs/sequences.md).
            signature = Signature.from_function(function)
        if function is not None and _returns_memrefs(function):
            signature = signature.with_result_dims(function)

    with tempfile.TemporaryDirectory(prefix="xhip-") as scratch:
        directory = os.fspath(externalize_dir) if externalize_dir else scratch
        os.makedirs(directory, exist_ok=True)
        passes = _passes(pipeline, directory, externalize_min_num_elements)
        run_passes(ctx, module, passes, keep, progress)
        path = os.path.join(directory, CONSTANTS_FILE)
        # Mapped, not read: the mapping outlives the temporary directory.
        constants: bytes | memoryview = b""
        if os.path.exists(path) and os.path.getsize(path):
            constants = memoryview(map_file(path))
    return CompiledIR(module, constants, signature, imported, stages)


def compile(
    model: str | os.PathLike[str] | onnx.ModelProto | ModuleOp,
    device: str = "cpu",
    *,
    externalize_min_num_elements: int = 256,
    debug: bool = False,
    max_memory: int | str | None = None,
    progress: ProgressCallback | None = None,
    fuse: bool = True,
    memory_plan: Literal["seed", "tight"] = "seed",
    plan_hint: int = 128,
    runtime: Runtime | None = None,
    graphs: bool = True,
) -> Model:
    """Compile `model` for `device`: a callable `{name: array} -> {name: array}`.

    `device` is "cpu", "hip", "cuda" or "auto" (see `xhip.backend.runtime_for`);
    a missing GPU raises `xhip.backend.DeviceUnavailable`. `debug` runs the
    runtime's debug mode (docs/runtime.md): fresh and freed memory poisoned with
    NaN, every view and op checked, so a memory-plan bug fails loudly.
    `max_memory` (bytes, or a size such as "8G") caps what the runtime may
    allocate (default: the machine's physical memory): a call whose buffers
    need more raises `xhip.backend.memory.MemoryLimitError` before allocating.
    `progress` hears the import's and the pipeline's steps (`compile_to_ir`).
    `fuse=False` runs the IR exactly as `onnx-to-hip` leaves it, without the
    backend's fusion passes (`hip-fuse-scaled-softmax`, `hip-fuse-elementwise`;
    docs/passes.md). `memory_plan="tight"` runs `hip-plan-memory` after
    `onnx-to-hip`: a pool at the peak of live bytes when the dynamic dims are
    near `plan_hint`, and never larger than the seed's at any dims
    (docs/memory-planning.md). A model whose structure depends on data (an
    op's `STRUCTURE_OPERANDS` given as an input or computed) is a
    `SpecializingModel`: compiled per value, behind guards
    (docs/shape-values.md, "Guards"); one whose ops need a dim of a dynamic
    input static (an LSTM's length) is a `ShapeSpecializingModel`, compiled
    per input shape; one the importer cannot type because a value's type
    depends on small integer inputs (a rank decided by a `size` input) is a
    `ValueSpecializingModel`, compiled per value of those inputs (an import
    that fails even so fails at the first call). `graphs=False` makes a GPU
    replay its bound plans call by call instead of as CUDA graphs or hipGraphs.
    `runtime`, if given, is used instead of one made for `device` (the
    emulated GPUs' tests).
    """
    if memory_plan not in ("seed", "tight"):
        raise ValueError(f"memory_plan must be 'seed' or 'tight', got {memory_plan!r}")
    if plan_hint < 1:
        raise ValueError(f"plan_hint must be at least 1, got {plan_hint}")
    limit = parse_size(max_memory) if isinstance(max_memory, str) else max_memory
    if limit is not None and limit <= 0:
        raise ValueError(f"max_memory must be positive, got {max_memory!r}")
    if runtime is None:  # at call time: swappable
        runtime = backend.runtime_for(device, debug=debug, graphs=graphs)
    runtime.max_memory = physical_memory() if limit is None else limit
    pipeline = None
    if memory_plan == "tight":
        pipeline = (
            f"onnx-to-hip{{externalize-min-num-elements={externalize_min_num_elements}}},"
            f"hip-plan-memory{{hint={plan_hint}}}"
        )
    try:
        imported = _import(model, progress)
    except OnnxImportError as error:
        if isinstance(model, ModuleOp) or not untyped(error):
            raise
        proto = load_proto(model)
        names = value_inputs(proto)
        if not names:
            raise

        def compile_values(specialized: ModuleOp) -> Model:
            compiled = compile(
                specialized,
                device,
                externalize_min_num_elements=externalize_min_num_elements,
                debug=debug,
                max_memory=max_memory,
                fuse=fuse,
                memory_plan=memory_plan,
                plan_hint=plan_hint,
                runtime=runtime,
            )
            assert not isinstance(compiled, ValueSpecializingModel)
            return compiled

        return ValueSpecializingModel(proto, names, compile_values, runtime)

    def compile_module(module: ModuleOp) -> Model:
        if specializes(module):
            return SpecializingModel(folded(module), compile_module, runtime)
        # The constants go to a directory of this compile's own, where
        # `compile_to_ir` maps them from (not the working directory).
        with tempfile.TemporaryDirectory(prefix="xhip-") as scratch:
            passes = onnx_to_hip_passes(externalize_min_num_elements, scratch)
            passes.insert(1, HipGuardAssumptionsPass())
            if memory_plan == "tight":
                passes += build_pipeline(f"hip-plan-memory{{hint={plan_hint}}}")
            try:
                ir = compile_to_ir(module, externalize_dir=scratch, pipeline=passes)
            except NeedsStaticShapes:
                if not _has_dynamic_inputs(module):
                    raise
                return ShapeSpecializingModel(module, compile_module, runtime)
        return CompiledModel(ir.module, ir.signature, ir.constants, runtime, fuse=fuse)

    if specializes(imported):
        return compile_module(imported)
    try:
        ir = compile_to_ir(
            imported,
            externalize_min_num_elements=externalize_min_num_elements,
            pipeline=pipeline,
            progress=progress,
        )
    except NeedsStaticShapes:
        if not _has_dynamic_inputs(imported):
            raise
        return ShapeSpecializingModel(imported, compile_module, runtime)
    return CompiledModel(ir.module, ir.signature, ir.constants, runtime, fuse=fuse)
