"""The `onnx-to-hip` pipeline: its passes, every stage of the seed, other models.

Stages are compared with the seed's structurally (SSA names aside). The pool
arithmetic of stages 16-21 is compared by its values: for every batch and seq
the pool and each of its views must have the seed's size and offset, computed
with no more ops than the seed uses.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedTensorType,
    i8,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.passes import ModulePass, PassPipeline
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)
from xdsl.xdsl_opt_main import xDSLOptMain

from xhip.analysis.pool_layout import evaluate_pool
from xhip.dialects import hip
from xhip.pipeline import (
    OnnxToHipPass,
    OnnxToHipPipelinePass,
    onnx_to_hip_passes,
)
from xhip.transforms.composite import CompositePass

from .conftest import REPO, STAGES

SEED_PASSES = [
    "hip-add-context-arg",
    "convert-onnx-to-hip",
    "one-shot-bufferize",
    "buffer-results-to-out-params",
    "expand-realloc",
    "canonicalize",
    "ownership-based-buffer-deallocation",
    "canonicalize",
    "buffer-deallocation-simplification",
    "bufferization-lower-deallocations",
    "cse",
    "canonicalize",
    "cse",
    "canonicalize",
    "hip-optimize-memrefs",
    "hip-pool-allocs",
    "convert-bufferization-to-memref",
    "cse",
    "canonicalize",
    "hip-lower-allocs",
    "hip-resolve-extern-constants",
]

ATTENTION = REPO / "tests" / "filecheck" / "Inputs" / "attention.onnx.mlir"

# Stage number -> seed file. Stage 5 (expand-realloc) is stage 4 unchanged.
SEED_STAGE_FILES = {
    1: "after-pass-01-hip-add-context-arg.mlir",
    2: "after-pass-02-convert-onnx-to-hip.mlir",
    3: "after-pass-03-one-shot-bufferize.mlir",
    4: "after-pass-04-buffer-results-to-out-params.mlir",
    5: "after-pass-04-buffer-results-to-out-params.mlir",
    6: "after-pass-06-canonicalize.mlir",
    14: "after-pass-14-buffer-deallocation-pipeline.mlir",
    15: "after-pass-15-hip-optimize-memrefs.mlir",
    16: "after-pass-16-hip-pool-allocs.mlir",
    19: "after-pass-19-post-pool-cleanup.mlir",
    20: "after-pass-20-hip-lower-allocs.mlir",
    21: "after-pass-21-hip-resolve-extern-constants.mlir",
}
POOL_STAGES = {16, 19, 20, 21}
BATCHES = (1, 2, 3, 8)
SEQS = (1, 5, 63, 64, 100, 257)


def parse(ctx: Context, text: str) -> ModuleOp:
    return Parser(ctx, text).parse_module()


# --- The pass list -----------------------------------------------------------


def test_pass_list_is_the_seeds() -> None:
    assert [p.name for p in onnx_to_hip_passes()] == SEED_PASSES


def test_options_reach_convert_onnx_to_hip() -> None:
    passes = onnx_to_hip_passes(
        externalize_min_num_elements=7, externalize_output_dir="/some/dir"
    )
    convert = passes[1]
    assert convert.externalize_min_num_elements == 7  # pyright: ignore
    assert convert.externalize_output_dir == "/some/dir"  # pyright: ignore
    composite = OnnxToHipPass(8, "d")
    assert [p.name for p in composite.parts()] == SEED_PASSES
    assert composite.parts()[1].externalize_min_num_elements == 8  # pyright: ignore


def test_alias_has_the_same_options() -> None:
    spec = "onnx-to-hip-pipeline{externalize-min-num-elements=3}"
    from xdsl.universe import Universe

    (alias,) = PassPipeline.parse_spec(
        Universe.get_multiverse().all_passes, spec
    ).passes
    assert isinstance(alias, OnnxToHipPipelinePass)
    assert alias.externalize_min_num_elements == 3
    assert alias.externalize_output_dir == "."


@dataclass(frozen=True)
class _CleanUp(CompositePass):
    name = "test-clean-up"

    def parts(self) -> list[ModulePass]:
        return [CommonSubexpressionElimination(), CanonicalizePass()]


def test_xdsl_opt_runs_composite_passes_part_by_part(ctx: Context) -> None:
    """What makes `xdsl-opt --print-between-passes` print every stage."""
    seen: list[str] = []

    def callback(
        before: ModulePass | None, module: ModuleOp, after: ModulePass | None
    ) -> None:
        seen.append(f"{before and before.name}->{after and after.name}")

    opt = xDSLOptMain(args=["unused.mlir"])
    opt.pipeline = PassPipeline((_CleanUp(), CanonicalizePass()), callback)
    opt.apply_passes(parse(ctx, "func.func @f() { func.return }"))
    assert seen == [
        "None->cse",
        "cse->canonicalize",
        "canonicalize->canonicalize",
        "canonicalize->None",
    ]


# --- Every stage of the seed -------------------------------------------------


@dataclass
class Run:
    stages: list[ModuleOp]
    """The module after pass 1, 2, ... (index 0 is after pass 1)."""
    error: str | None
    constants_dir: Path


def run_stages(ctx: Context, text: str, out_dir: Path, **options: object) -> Run:
    """Apply the pipeline pass by pass, keeping a copy of every stage."""
    module = parse(ctx, text)
    stages: list[ModuleOp] = []
    passes = onnx_to_hip_passes(
        externalize_output_dir=str(out_dir),
        **options,  # pyright: ignore[reportArgumentType]
    )
    for number, p in enumerate(passes, 1):
        try:
            p.apply(ctx, module)
            module.verify()
        except Exception as e:  # the report says which pass, and why
            return Run(
                stages, f"pass {number} ({p.name}): {type(e).__name__}: {e}", out_dir
            )
        stages.append(module.clone())
    return Run(stages, None, out_dir)


@pytest.fixture(scope="module")
def seed_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    from xhip.context import make_context

    return run_stages(
        make_context(), ATTENTION.read_text(), tmp_path_factory.mktemp("seed")
    )


def _stage(run: Run, number: int) -> ModuleOp:
    if len(run.stages) < number:
        pytest.fail(f"the pipeline did not reach stage {number}: {run.error}")
    return run.stages[number - 1]


def seed_stage(ctx: Context, number: int) -> ModuleOp:
    """The seed's stage as a whole module (function-only stages in their module)."""
    module = parse(ctx, (STAGES / SEED_STAGE_FILES[number]).read_text())
    if any(isinstance(op, func.FuncOp) for op in module.ops) and module.attributes:
        return module
    printed_before = max(n for n in SEED_STAGE_FILES if n < number)
    outer = seed_stage(ctx, printed_before)
    (function,) = [op for op in module.ops if isinstance(op, func.FuncOp)]
    (old,) = [op for op in outer.ops if isinstance(op, func.FuncOp)]
    function.detach()
    outer.body.block.insert_op_before(function, old)
    outer.body.block.erase_op(old)
    return outer


def _where(op: Operation) -> str:
    text = str(op)
    return text if len(text) < 400 else text[:400] + "..."


def _plain(attrs: dict[str, Attribute]) -> dict[str, Attribute]:
    """Attributes with elided resources reduced to their type: the parser renames
    `__elided__` handles to keep them unique, and their data is elided anyway."""
    return {
        name: DenseResourceAttr(StringAttr("elided"), value.type)
        if isinstance(value, DenseResourceAttr)
        else value
        for name, value in attrs.items()
    }


def first_difference(
    ours: Operation, seed: Operation, mapping: dict[SSAValue, SSAValue]
) -> str | None:
    """Why `ours` is not `seed` up to SSA names; None if it is."""
    if ours.name != seed.name:
        return f"op {ours.name} where the seed has {seed.name}:\n{_where(ours)}\nseed:\n{_where(seed)}"
    if _plain(ours.attributes) != _plain(seed.attributes) or _plain(
        ours.properties
    ) != _plain(seed.properties):
        return f"attributes differ:\n{_where(ours)}\nseed:\n{_where(seed)}"
    if [r.type for r in ours.results] != [r.type for r in seed.results]:
        return f"result types differ:\n{_where(ours)}\nseed:\n{_where(seed)}"
    if len(ours.operands) != len(seed.operands) or any(
        mapping.get(a) is not b for a, b in zip(ours.operands, seed.operands)
    ):
        return f"operands differ:\n{_where(ours)}\nseed:\n{_where(seed)}"
    if len(ours.regions) != len(seed.regions):
        return f"region count differs:\n{_where(ours)}"
    for region, seed_region in zip(ours.regions, seed.regions):
        if len(region.blocks) != len(seed_region.blocks):
            return f"block count differs in {ours.name}"
        for block, seed_block in zip(region.blocks, seed_region.blocks):
            if [a.type for a in block.args] != [a.type for a in seed_block.args]:
                return f"block argument types differ in {ours.name}"
            mapping.update(zip(block.args, seed_block.args))
            ops, seed_ops = list(block.ops), list(seed_block.ops)
            for op, seed_op in zip(ops, seed_ops):
                if (why := first_difference(op, seed_op, mapping)) is not None:
                    return why
            if len(ops) != len(seed_ops):
                extra = ops[len(seed_ops) :] or seed_ops[len(ops) :]
                who = "we have" if len(ops) > len(seed_ops) else "the seed has"
                return f"{who} {abs(len(ops) - len(seed_ops))} more ops, first:\n{_where(extra[0])}"
    mapping.update(zip(ours.results, seed.results))
    return None


def _skeleton(function: func.FuncOp) -> Iterator[tuple[object, ...]]:
    """The function body without its index arithmetic, operands by position."""
    ops = [op for op in function.body.block.ops if op.dialect_name() != "arith"]
    position = {op: i for i, op in enumerate(ops)}
    for op in ops:
        operands: list[object] = []
        for value in op.operands:
            owner = value.owner
            if isinstance(owner, arith.ConstantOp):
                operands.append(("constant", owner.value))
            elif isinstance(owner, Operation) and owner.dialect_name() == "arith":
                operands.append("index arithmetic")
            elif isinstance(owner, Operation):
                operands.append(("op", position[owner], value.index))  # pyright: ignore
            else:
                operands.append(("arg", value.index))  # pyright: ignore
        yield (
            op.name,
            op.attributes,
            op.properties,
            tuple(r.type for r in op.results),
            tuple(operands),
        )


def _shapes(function: func.FuncOp, batch: int, seq: int) -> dict[int, tuple[int, ...]]:
    """Argument shapes with the dynamic dims, in order, bound to batch and seq."""
    shapes: dict[int, tuple[int, ...]] = {}
    for i, arg in enumerate(function.args):
        if isinstance(arg.type, MemRefType) and arg.type.get_shape() != (
            DYNAMIC_INDEX,
        ):
            dims = iter((batch, seq))
            shapes[i] = tuple(
                next(dims) if d == DYNAMIC_INDEX else d for d in arg.type.get_shape()
            )
    return shapes


def pool_stage_difference(ours: ModuleOp, seed: ModuleOp) -> str | None:
    """Like `first_difference`, the pool arithmetic compared by its values."""
    mapping: dict[SSAValue, SSAValue] = {}
    our_ops, seed_ops = list(ours.ops), list(seed.ops)
    if ours.attributes != seed.attributes:
        return "module attributes differ"
    if len(our_ops) != len(seed_ops):
        return f"{len(our_ops)} module-level ops where the seed has {len(seed_ops)}"
    for op, seed_op in zip(our_ops, seed_ops):
        if not isinstance(op, func.FuncOp):
            if (why := first_difference(op, seed_op, mapping)) is not None:
                return why
            continue
        assert isinstance(seed_op, func.FuncOp)
        if op.properties != seed_op.properties or op.attributes != seed_op.attributes:
            return f"signature differs:\n{_where(op)[:300]}"
        ours_skeleton, seed_skeleton = list(_skeleton(op)), list(_skeleton(seed_op))
        for i, (a, b) in enumerate(zip(ours_skeleton, seed_skeleton)):
            if a != b:
                return f"non-arithmetic op {i} differs:\n{a}\nseed:\n{b}"
        if len(ours_skeleton) != len(seed_skeleton):
            return f"{len(ours_skeleton)} non-arithmetic ops, seed {len(seed_skeleton)}"
        count, seed_count = len(op.body.block.ops), len(seed_op.body.block.ops)
        if count > seed_count:
            return f"{count} ops where the seed needs {seed_count}"
        for batch in BATCHES:
            for seq in SEQS:
                shapes = _shapes(op, batch, seq)
                got = evaluate_pool(op, shapes)
                want = evaluate_pool(seed_op, shapes)
                if (got.size, got.placements()) != (want.size, want.placements()):
                    return (
                        f"batch={batch} seq={seq}: pool {got.size} views "
                        f"{got.placements()}, seed pool {want.size} views "
                        f"{want.placements()}"
                    )
    return None


@pytest.mark.parametrize("number", sorted(SEED_STAGE_FILES))
def test_stage_is_the_seeds(seed_run: Run, number: int) -> None:
    from xhip.context import make_context

    ctx = make_context()
    ours = _stage(seed_run, number)
    seed = seed_stage(ctx, number)
    if number in POOL_STAGES:
        why = pool_stage_difference(ours, seed)
    else:
        why = first_difference(ours, seed, {})
    assert why is None, f"stage {number} ({SEED_PASSES[number - 1]}): {why}"


def test_constants_file_holds_the_externalized_weights(seed_run: Run) -> None:
    final = _stage(seed_run, 21)
    blob = (seed_run.constants_dir / "model.constants.bin").read_bytes()
    (function,) = [op for op in final.ops if isinstance(op, func.FuncOp)]
    views = [
        op
        for op in function.body.block.ops
        if isinstance(op, memref.ViewOp) and op.source is function.args[-1]
    ]
    offsets = [
        v.byte_shift.owner.value.value.data  # pyright: ignore
        for v in views
    ]
    assert offsets == [0, 16384, 32768]
    assert len(blob) == 3 * 64 * 64 * 4


# --- Other models ------------------------------------------------------------


def _dense(values: np.ndarray) -> str:
    """An MLIR dense literal for a float32 array, in hex so it parses fast."""
    data = np.ascontiguousarray(values, dtype="<f4").tobytes().hex().upper()
    shape = "x".join(map(str, values.shape))
    return f'dense<"0x{data}"> : tensor<{shape}xf32>'


def _weights(seed: int, *shape: int) -> np.ndarray:
    """Distinct, exactly representable values: a misplaced byte shows."""
    count = math.prod(shape)
    return (np.arange(count, dtype=np.float32) + seed * 100_000).reshape(shape) / 8


def _model(args: str, results: str, body: list[str], returns: str) -> str:
    lines = "\n    ".join(body)
    return f"""
module {{
  func.func @main_graph({args}) -> ({results}) {{
    {lines}
    return {returns}
  }}
  "onnx.EntryPoint"() <{{func = @main_graph}}> : () -> ()
}}
"""


def attention_model(head: int, x: str) -> tuple[str, dict[str, np.ndarray]]:
    """The seed's attention block for input type `x` = tensor<...x{head}xf32>."""
    w = {f"w{i}": _weights(i, head, head) for i in range(3)}
    score = "tensor<?x?x?xf32>" if "?" in x else _score_type(x)
    kt = f"tensor<?x{head}x?xf32>" if "?" in x else _kt_type(x)
    body = [
        f'%w{i} = "onnx.Constant"() {{value = {_dense(w[f"w{i}"])}}} : () -> tensor<{head}x{head}xf32>'
        for i in range(3)
    ] + [
        f'%scale = "onnx.Constant"() {{value = dense<{1 / math.sqrt(head)}> : tensor<f32>}} : () -> tensor<f32>',
        f'%q = "onnx.MatMul"(%x, %w0) : ({x}, tensor<{head}x{head}xf32>) -> {x}',
        f'%k = "onnx.MatMul"(%x, %w1) : ({x}, tensor<{head}x{head}xf32>) -> {x}',
        f'%v = "onnx.MatMul"(%x, %w2) : ({x}, tensor<{head}x{head}xf32>) -> {x}',
        f'%kt = "onnx.Transpose"(%k) <{{perm = [0, 2, 1]}}> : ({x}) -> {kt}',
        f'%s = "onnx.MatMul"(%q, %kt) : ({x}, {kt}) -> {score}',
        f'%ss = "onnx.Mul"(%s, %scale) : ({score}, tensor<f32>) -> {score}',
        f'%p = "onnx.Softmax"(%ss) <{{axis = -1 : si64}}> : ({score}) -> {score}',
        f'%o = "onnx.MatMul"(%p, %v) : ({score}, {x}) -> {x}',
    ]
    dims = ' {onnx.dim_params = "0:batch,1:seq", onnx.name = "X"}' if "?" in x else ""
    return _model(f"%x: {x}{dims}", x, body, f"%o : {x}"), w


def _score_type(x: str) -> str:
    b, s, _ = x.removeprefix("tensor<").split("x")[:3]
    return f"tensor<{b}x{s}x{s}xf32>"


def _kt_type(x: str) -> str:
    b, s, h = x.removeprefix("tensor<").removesuffix("xf32>").split("x")
    return f"tensor<{b}x{h}x{s}xf32>"


def mlp_model() -> tuple[str, dict[str, np.ndarray]]:
    """A static chain of matmuls with Add biases: 4x64 -> 128 -> 128 -> 64."""
    w = {
        "w0": _weights(1, 64, 128),
        "w1": _weights(2, 128, 128),
        "w2": _weights(3, 128, 64),
    }
    b = {"b0": _weights(4, 128), "b1": _weights(5, 128), "b2": _weights(6, 64)}
    sizes = [(64, 128), (128, 128), (128, 64)]
    body: list[str] = []
    x = "%x"
    for i, (n, m) in enumerate(sizes):
        body += [
            f'%w{i} = "onnx.Constant"() {{value = {_dense(w[f"w{i}"])}}} : () -> tensor<{n}x{m}xf32>',
            f'%b{i} = "onnx.Constant"() {{value = {_dense(b[f"b{i}"])}}} : () -> tensor<{m}xf32>',
            f'%m{i} = "onnx.MatMul"({x}, %w{i}) : (tensor<4x{n}xf32>, tensor<{n}x{m}xf32>) -> tensor<4x{m}xf32>',
            f'%a{i} = "onnx.Add"(%m{i}, %b{i}) : (tensor<4x{m}xf32>, tensor<{m}xf32>) -> tensor<4x{m}xf32>',
        ]
        x = f"%a{i}"
    return _model(
        "%x: tensor<4x64xf32>", "tensor<4x64xf32>", body, "%a2 : tensor<4x64xf32>"
    ), w


def two_outputs_model() -> tuple[str, dict[str, np.ndarray]]:
    """Y1 = X W is an output and also feeds Y2 = relu(Y1 + b)."""
    w = {"w": _weights(7, 32, 32)}
    body = [
        f'%w = "onnx.Constant"() {{value = {_dense(w["w"])}}} : () -> tensor<32x32xf32>',
        f'%b = "onnx.Constant"() {{value = {_dense(_weights(8, 32))}}} : () -> tensor<32xf32>',
        '%y1 = "onnx.MatMul"(%x, %w) : (tensor<?x32xf32>, tensor<32x32xf32>) -> tensor<?x32xf32>',
        '%t = "onnx.Add"(%y1, %b) : (tensor<?x32xf32>, tensor<32xf32>) -> tensor<?x32xf32>',
        '%y2 = "onnx.Relu"(%t) : (tensor<?x32xf32>) -> tensor<?x32xf32>',
    ]
    args = '%x: tensor<?x32xf32> {onnx.dim_params = "0:n", onnx.name = "X"}'
    return (
        _model(
            args,
            "tensor<?x32xf32>, tensor<?x32xf32>",
            body,
            "%y1, %y2 : tensor<?x32xf32>, tensor<?x32xf32>",
        ),
        w,
    )


MODELS = {
    "static-attention-head-128": lambda: attention_model(128, "tensor<2x16x128xf32>"),
    "dynamic-attention-head-128": lambda: attention_model(128, "tensor<?x?x128xf32>"),
    "static-matmul-add-chain": mlp_model,
    "two-outputs": two_outputs_model,
}
OUTPUTS = {
    "static-attention-head-128": 1,
    "dynamic-attention-head-128": 1,
    "static-matmul-add-chain": 1,
    "two-outputs": 2,
}


def _types_in(module: ModuleOp) -> Iterator[Attribute]:
    for op in module.walk():
        for value in (*op.operands, *op.results):
            yield value.type
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    yield arg.type


@pytest.mark.parametrize("model", sorted(MODELS))
def test_pipeline_on_other_models(ctx: Context, tmp_path: Path, model: str) -> None:
    text, weights = MODELS[model]()
    run = run_stages(ctx, text, tmp_path)
    assert run.error is None, run.error
    final = run.stages[-1]
    assert "hip.constants_file" not in final.attributes
    for op in final.walk():
        assert op.dialect_name() not in ("onnx", "bufferization", "tensor"), op.name
        assert not isinstance(op, memref.AllocOp | memref.DeallocOp), op.name
        assert not (
            isinstance(op, memref.GlobalOp) and "hip.external_data" in op.attributes
        )
    assert not any(
        isinstance(t, TensorType | UnrankedTensorType) for t in _types_in(final)
    )

    (function,) = [op for op in final.ops if isinstance(op, func.FuncOp)]
    args = function.function_type.inputs.data
    assert isinstance(args[0], hip.ContextType)
    assert args[-1] == MemRefType(i8, [DYNAMIC_INDEX])
    assert len(args) == 1 + 1 + OUTPUTS[model] + 1
    assert function.function_type.outputs.data == ()

    # Every output parameter is written by some op.
    block = function.body.block
    for out in function.args[2 : 2 + OUTPUTS[model]]:
        assert any(
            isinstance(use.operation, hip.HipDPSOp) and out in use.operation.outputs  # pyright: ignore
            for use in out.uses
        ), f"output {out.index} is never written"

    # One pool at most, freed at the end; its views never overlap while live.
    allocs = [op for op in block.ops if isinstance(op, hip.AllocOp)]
    frees = [op for op in block.ops if isinstance(op, hip.FreeOp)]
    assert len(allocs) == len(frees) <= 1
    if allocs:
        assert frees[0].memref is allocs[0].memref
        layout = evaluate_pool(function, _shapes(function, 3, 5))
        assert layout.problems() == []

    # Each weight is a view of the blob whose bytes are that weight's.
    blob = (tmp_path / "model.constants.bin").read_bytes()
    views = [
        op
        for op in block.ops
        if isinstance(op, memref.ViewOp) and op.source is function.args[-1]
    ]
    assert len(views) == len(weights)
    found: list[np.ndarray] = []
    for view in views:
        offset_op = view.byte_shift.owner
        assert isinstance(offset_op, arith.ConstantOp)
        offset = offset_op.value.value.data  # pyright: ignore
        mtype = view.result.type
        assert isinstance(mtype, MemRefType)
        count = math.prod(mtype.get_shape())
        data = np.frombuffer(blob, dtype="<f4", count=count, offset=offset)
        found.append(data.reshape(mtype.get_shape()))
    for name, value in weights.items():
        assert any(
            f.shape == value.shape and np.array_equal(f, value) for f in found
        ), name


def test_small_constants_stay_in_the_module(ctx: Context, tmp_path: Path) -> None:
    """Below externalize-min-num-elements a constant is a memref.global with data."""
    text, _ = mlp_model()
    run = run_stages(ctx, text, tmp_path, externalize_min_num_elements=100_000)
    assert run.error is None, run.error
    final = run.stages[-1]
    globals_ = [op for op in final.ops if isinstance(op, memref.GlobalOp)]
    assert len(globals_) == 6
    assert all(isinstance(g.initial_value, DenseIntOrFPElementsAttr) for g in globals_)


def reshaping_block() -> object:
    """Multi-head softmax between reshapes, a flatten to 2-D for `Gemm`, and a
    `-1` that is no product of the input dims: every buffer after the first is
    sized from a reshaped buffer."""
    import onnx
    from onnx import helper, numpy_helper

    rng = np.random.default_rng(0)

    def initializer(name: str, value: np.ndarray) -> onnx.TensorProto:
        return numpy_helper.from_array(value, name)

    node = helper.make_node
    graph = helper.make_graph(
        [
            node("MatMul", ["X", "w_q"], ["q"]),
            node("Reshape", ["q", "heads"], ["q_h"]),
            node("Transpose", ["q_h"], ["q_t"], perm=[0, 2, 1, 3]),
            node("Softmax", ["q_t"], ["p"], axis=2),
            node("Transpose", ["p"], ["p_t"], perm=[0, 2, 1, 3]),
            node("Reshape", ["p_t", "rows"], ["flat"]),
            node("Gemm", ["flat", "w_g", "b_g"], ["g"]),
            node("Reshape", ["g", "sixteen"], ["r"]),
            node("Relu", ["r"], ["Y"]),
        ],
        "reshaping_block",
        [
            helper.make_tensor_value_info(
                "X", onnx.TensorProto.FLOAT, ["batch", "seq", 32]
            )
        ],
        [helper.make_tensor_value_info("Y", onnx.TensorProto.FLOAT, [None, 16])],
        [
            initializer("w_q", rng.standard_normal((32, 32)).astype(np.float32)),
            initializer("heads", np.array([0, 0, 2, 16], np.int64)),
            initializer("rows", np.array([-1, 32], np.int64)),
            initializer("w_g", rng.standard_normal((32, 24)).astype(np.float32)),
            initializer("b_g", rng.standard_normal(24).astype(np.float32)),
            initializer("sixteen", np.array([-1, 16], np.int64)),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def test_buffers_sized_from_reshapes_are_pooled() -> None:
    """Sizes read from reshaped buffers fold to the input dims: one pool holds
    every buffer, its plan is sound, and the model computes what ONNX Runtime does."""
    ort = pytest.importorskip("onnxruntime")
    import xhip

    model = reshaping_block()
    final = xhip.compile_to_ir(model).module  # pyright: ignore[reportArgumentType]
    (function,) = [op for op in final.ops if isinstance(op, func.FuncOp)]
    block = function.body.block
    assert len([op for op in block.ops if isinstance(op, hip.AllocOp)]) == 1
    dims = [op for op in block.ops if isinstance(op, memref.DimOp)]
    assert dims and all(dim.source.owner is block for dim in dims)
    layout = evaluate_pool(function, _shapes(function, 2, 5))
    assert len(layout.views) == 5
    assert layout.problems() == []

    x = np.random.default_rng(1).standard_normal((2, 5, 32)).astype(np.float32)
    (expected,) = ort.InferenceSession(model.SerializeToString()).run(None, {"X": x})  # pyright: ignore
    got = xhip.compile(model, debug=True)({"X": x})["Y"]  # pyright: ignore[reportArgumentType]
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
