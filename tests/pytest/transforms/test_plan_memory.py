"""`hip-plan-memory`: the pool near the peak of live bytes, sound for any dims,
and models that still match ONNX Runtime in the runtime's debug mode.

The peak of live bytes is computed from the IR (`evaluate_pool`'s views and
live ranges), never written down here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from xhip.analysis.best_fit import align, peak_live_bytes
from xhip.analysis.pool_layout import PoolLayout, evaluate_pool
from xhip.api import CompiledIR, compile_to_ir
from xhip.backend.cpu import CpuRuntime
from xhip.backend.session import CompiledModel
from xhip.dialects.constraints import AnyMemRefTypeConstr
from xhip.transforms.hip_plan_memory import GPU_FUSIONS, fusion_sets
from xhip.verify import compare, random_inputs, reference_outputs

ROOT = Path(__file__).resolve().parents[3]
MODELS = ROOT / "tests" / "fixtures" / "models"
ATTENTION = ROOT / "examples" / "attention.onnx"
PLANNED = "onnx-to-hip,hip-plan-memory"


def main_graph(module: ModuleOp) -> func.FuncOp:
    return next(
        op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks
    )


def layout_for(ir: CompiledIR, dims: dict[str, int]) -> PoolLayout:
    """The pool for inputs of these named dims (the final IR's memref
    arguments are the model's inputs, then its outputs, in order)."""
    feeds = random_inputs(ir.signature, dims, 0, {})
    ordered, bound = ir.signature.bind(feeds)
    in_shapes = [a.shape for a in ordered]
    shapes = [
        *in_shapes,
        *(ir.signature.output_shape(o, bound, in_shapes) for o in ir.signature.outputs),
    ]
    function = main_graph(ir.module)
    memrefs = [
        i for i, a in enumerate(function.args) if AnyMemRefTypeConstr.verifies(a.type)
    ]
    return evaluate_pool(function, dict(zip(memrefs, shapes)))


def peak(layout: PoolLayout, alignment: int = 1) -> int:
    return peak_live_bytes(
        [align(v.size, alignment) for v in layout.views],
        [(v.first_use, v.last_use) for v in layout.views],
    )


@pytest.fixture(scope="module")
def compiled() -> dict[Path, tuple[CompiledIR, CompiledIR]]:
    """(seed plan, new plan) per model, compiled once."""
    return {
        path: (
            compile_to_ir(path),
            compile_to_ir(path, pipeline=PLANNED),
        )
        for path in (
            ATTENTION,
            MODELS / "gpt2.dynamo.onnx",
            MODELS / "gpt2.torchscript.onnx",
        )
    }


CASES = [
    ("attention", {"batch": 2, "seq": 128}),
    ("attention", {"batch": 1, "seq": 512}),
    ("attention", {"batch": 8, "seq": 64}),
    ("gpt2.dynamo", {"batch": 2, "seq": 128}),
    ("gpt2.dynamo", {"batch": 4, "seq": 256}),
    ("gpt2.torchscript", {"batch": 2, "seq": 128}),
    ("gpt2.torchscript", {"batch": 4, "seq": 256}),
]


def _path(name: str) -> Path:
    return ATTENTION if name == "attention" else MODELS / f"{name}.onnx"


@pytest.mark.parametrize(("name", "dims"), CASES)
def test_pool_within_5_percent_of_peak(
    compiled: dict[Path, tuple[CompiledIR, CompiledIR]], name: str, dims: dict[str, int]
) -> None:
    path = _path(name)
    seed, planned = compiled[path]
    new = layout_for(planned, dims)
    old = layout_for(seed, dims)
    assert new.problems() == []
    # The same views (op indices differ: the offsets take other ops).
    assert [v.size for v in new.views] == [v.size for v in old.views]
    assert new.size <= 1.05 * peak(new), (new.size, peak(new))
    assert new.size <= old.size


@pytest.mark.parametrize("name", ["attention", "gpt2.dynamo", "gpt2.torchscript"])
@pytest.mark.parametrize("batch", [1, 3])
@pytest.mark.parametrize("seq", [1, 2, 7, 63, 257, 1000])
def test_sound_for_any_dims(
    compiled: dict[Path, tuple[CompiledIR, CompiledIR]], name: str, batch: int, seq: int
) -> None:
    """Offsets are planned at every dim = 128 but hold for all dims."""
    path = _path(name)
    seed, planned = compiled[path]
    new = layout_for(planned, {"batch": batch, "seq": seq})
    assert new.problems() == []
    assert new.size <= layout_for(seed, {"batch": batch, "seq": seq}).size
    assert new.size >= peak(new)


FIXTURES = sorted(MODELS.glob("*.onnx"))


@pytest.mark.parametrize("path", [ATTENTION, *FIXTURES], ids=lambda p: p.stem)
@pytest.mark.parametrize("fuse", [False, True])
def test_debug_runtime_matches_onnxruntime(path: Path, fuse: bool) -> None:
    """NaN poisoning, clobber and overlap checks on, against ONNX Runtime."""
    ir = compile_to_ir(path, pipeline=PLANNED)
    dims = {"batch": 2, "seq": 7, "past_seq": 5, "total_seq": 12}
    names = ir.signature.input_dim_names()
    feeds = random_inputs(
        ir.signature, {k: v for k, v in dims.items() if k in names}, 0, {}
    )
    model = CompiledModel(
        ir.module, ir.signature, ir.constants, CpuRuntime(debug=True), fuse=fuse
    )
    got = {k: np.asarray(v) for k, v in model(feeds).items()}
    _, _, problem = compare(got, reference_outputs(str(path), feeds))
    assert problem is None


@pytest.mark.parametrize(
    ("path", "passes"),
    [
        (MODELS / "resnet18_w0125.dynamo.onnx", [
            ["hip-fuse-elementwise"],
            ["hip-fuse-conv-relu"],
            ["hip-fuse-conv-relu", "hip-fuse-elementwise"],
        ]),
        (ATTENTION, [[p.name for p in passes] for passes in GPU_FUSIONS]),
    ],
)  # fmt: skip
def test_the_plan_runs_each_set_of_fusions_that_can_change_it(
    path: Path, passes: list[list[str]]
) -> None:
    """`fusion_sets`: a CNN's plan runs no attention pass (its blocks have no
    softmax) but the conv's Relu; the seed's attention has no conv, so
    the sets it runs are the GPU runtimes' six."""
    block = main_graph(compile_to_ir(path).module).body.block
    assert [[p.name for p in s] for s in fusion_sets(block)] == passes
