"""The debug sanitizer on every model the test suite uses, on every runtime.

Debug mode (docs/runtime.md) poisons fresh memory with NaN, checks every view
and op operand, that no write clobbers a live value (`ClobberCheck`), that no
two live allocations overlap (`memory.Allocations`) and that the GPU runtimes'
internal writes (kernels, BLAS, scratch) stay inside their outputs. Each model
runs with it on the CPU runtime and, through the CPU stand-in of their device,
on both GPU runtimes, and must still match ONNX Runtime: a planning bug either
raises `MemoryPlanError` or shows as NaN. The last tests break a real plan and
check the sanitizer names what broke.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, cast

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import helper
from onnx.backend.test.runner import Runner
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.parser import Parser

import xhip
from tests.pytest.backend.test_onnx_node_tests import CASES, _array, _params
from tests.pytest.conftest import REPO
from tests.pytest.emulator.conftest import GPUS, RUNTIMES, emulate
from tests.pytest.emulator.test_models import transformer_block
from tests.pytest.frontend.models import attention_example, relu_model
from tests.pytest.frontend.test_api import flatten_model, reshape_model
from tests.pytest.frontend.test_onnx_importer import dynamic_model, gemm_model
from tests.pytest.test_pipeline import reshaping_block
from xhip.api import CompiledIR
from xhip.backend.cpu import CpuRuntime
from xhip.backend.gpu import CPU_ONLY, KernelRuntime, kernel_source
from xhip.backend.interpreter import Plan
from xhip.backend.runtime import MemoryPlanError, NotImplementedOnDevice, Runtime
from xhip.backend.session import CompiledModel
from xhip.context import make_context
from xhip.dialects import hip
from xhip.testing.emulator import EmulatedDevice, EmulatedKernels

FIXTURES = REPO / "tests" / "fixtures" / "models"
FILECHECK_INPUTS = REPO / "tests" / "filecheck" / "Inputs"
RTOL, ATOL = 1e-4, 1e-5

MODELS: dict[str, tuple[Callable[[], onnx.ModelProto], dict[str, int]]] = {
    "attention": (lambda: attention_example().build(), {"batch": 2, "seq": 5}),
    "relu": (relu_model, {}),
    "gemm": (gemm_model, {}),
    "dynamic": (dynamic_model, {}),
    "flatten_matmul": (flatten_model, {"batch": 3, "seq": 5}),
    "reshape_relu": (reshape_model, {"batch": 3}),
    "reshaping_block": (
        lambda: cast(onnx.ModelProto, reshaping_block()),
        {"batch": 2, "seq": 5},
    ),
    "transformer_block": (transformer_block, {"batch": 2, "seq": 6}),
}
"""The models the suite builds (`examples/attention.py`, the frontend's,
the API's and pipeline tests', the notebook's transformer block), with the
named dims to run them at (other dynamic dims are 3)."""

NOT_YET_COMPILABLE: set[str] = set()
"""Committed real exports xhip cannot compile yet (ops it lacks). One that
starts compiling fails `test_fixture_is_listed_where_it_belongs` until it is
taken off this list, and is then run by the sanitizer like the others."""

FIXTURE_NAMES = sorted(p.name.removesuffix(".onnx") for p in FIXTURES.glob("*.onnx"))


def random_inputs(
    model: onnx.ModelProto, dims: Mapping[str, int], seed: int = 0
) -> dict[str, np.ndarray]:
    """Inputs for every graph input that is no initializer, sized by `dims`."""
    rng = np.random.default_rng(seed)
    initializers = {t.name for t in model.graph.initializer}
    feeds: dict[str, np.ndarray] = {}
    for value in model.graph.input:
        if value.name in initializers:
            continue
        tensor = value.type.tensor_type
        shape = [
            d.dim_value if d.HasField("dim_value") else dims.get(d.dim_param, 3)
            for d in tensor.shape.dim
        ]
        dtype = helper.tensor_dtype_to_np_dtype(tensor.elem_type)
        if dtype.kind == "f":
            feeds[value.name] = rng.standard_normal(shape).astype(dtype)
        elif dtype.kind == "b":
            feeds[value.name] = rng.integers(0, 2, shape).astype(dtype)
        else:
            feeds[value.name] = rng.integers(0, 4, shape).astype(dtype)
    return feeds


def onnxruntime(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> list[Any]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return session.run(None, dict(feeds))


def run_debug(
    ir: CompiledIR, runtime: Runtime, feeds: Mapping[str, np.ndarray], engine: str
) -> list[np.ndarray]:
    """The model on `runtime` in debug mode; checks the sanitizer was on."""
    assert runtime.debug
    model = CompiledModel(
        ir.module,
        ir.signature,
        ir.constants,
        runtime,
        engine=engine,  # type: ignore[arg-type]
    )
    held = runtime.allocations.in_use
    got = list(model(feeds).values())
    if engine == "plan":
        plan: Plan = model._plan  # pyright: ignore[reportPrivateUsage]
        assert plan.clobber is not None and plan.clobber.live, "no write was checked"
        # Everything the call allocated is freed again (the constants stay).
        assert runtime.allocations.in_use == held
    return got


def assert_matches(
    got: list[np.ndarray], want: list[Any], what: str, rtol: float = RTOL
) -> None:
    assert len(got) == len(want), what
    for i, (ours, theirs) in enumerate(zip(got, want, strict=True)):
        theirs = np.asarray(theirs)
        assert ours.shape == theirs.shape, f"{what} output {i}"
        np.testing.assert_allclose(
            ours, theirs, rtol=rtol, atol=ATOL, err_msg=f"{what} output {i}"
        )


@pytest.fixture(scope="module")
def compiled() -> dict[str, tuple[onnx.ModelProto, CompiledIR]]:
    made: dict[str, tuple[onnx.ModelProto, CompiledIR]] = {}
    for name, (build, _) in MODELS.items():
        model = build()
        made[name] = (model, xhip.compile_to_ir(model))
    for name in sorted(set(FIXTURE_NAMES) - NOT_YET_COMPILABLE):
        model = onnx.load(str(FIXTURES / f"{name}.onnx"))
        made[name] = (model, xhip.compile_to_ir(FIXTURES / f"{name}.onnx"))
    return made


@pytest.fixture(scope="module")
def kernels() -> EmulatedKernels:
    return emulate(kernel_source(), "xhip_kernels.h")


@pytest.fixture(params=GPUS, ids=[f"{r}-warp{w}" for r, w in GPUS])
def debug_gpu(
    request: pytest.FixtureRequest, kernels: EmulatedKernels
) -> Iterator[KernelRuntime]:
    """A GPU runtime in debug mode on a fresh stand-in device."""
    kind, warp = request.param
    device = EmulatedDevice(warp, kernels=kernels, runtime=kind)
    runtime = RUNTIMES[kind](debug=True, device=device)
    yield runtime
    runtime.close()


def _model_names() -> list[str]:
    return [*MODELS, *sorted(set(FIXTURE_NAMES) - NOT_YET_COMPILABLE)]


def _inputs(name: str, model: onnx.ModelProto) -> dict[str, np.ndarray]:
    """A suite model's random inputs; a fixture's committed ones (its `.npz`)."""
    if name in MODELS:
        return random_inputs(model, MODELS[name][1])
    with np.load(FIXTURES / f"{name}.npz") as saved:
        graph_inputs = {v.name for v in model.graph.input}
        return {k: saved[k] for k in saved.files if k in graph_inputs}


@pytest.mark.parametrize("engine", ["plan", "interpreter"])
@pytest.mark.parametrize("name", _model_names())
def test_model_on_cpu_in_debug_mode(
    compiled: dict[str, tuple[onnx.ModelProto, CompiledIR]], name: str, engine: str
) -> None:
    model, ir = compiled[name]
    feeds = _inputs(name, model)
    runtime = CpuRuntime(debug=True)
    try:
        got = run_debug(ir, runtime, feeds, engine)
    finally:
        runtime.close()
    assert_matches(got, onnxruntime(model, feeds), name)


@pytest.mark.emulator
@pytest.mark.parametrize("name", _model_names())
def test_model_on_gpu_runtimes_in_debug_mode(
    compiled: dict[str, tuple[onnx.ModelProto, CompiledIR]],
    debug_gpu: KernelRuntime,
    name: str,
) -> None:
    model, ir = compiled[name]
    feeds = _inputs(name, model)
    got = run_debug(ir, debug_gpu, feeds, "plan")
    assert_matches(got, onnxruntime(model, feeds), name)


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_is_listed_where_it_belongs(name: str) -> None:
    """A committed export either compiles (and runs above) or is listed as not
    yet compilable; one that starts compiling must be moved off the list."""
    if name not in NOT_YET_COMPILABLE:
        return  # compiled by the `compiled` fixture, run by the tests above
    try:
        xhip.compile_to_ir(FIXTURES / f"{name}.onnx")
    except Exception as e:  # import or pass failure: what "not yet" means
        assert "Traceback" not in str(e)
        return
    pytest.fail(
        f"{name} compiles now: take it off NOT_YET_COMPILABLE so the sanitizer runs it"
    )


# onnx-dialect MLIR inputs of the lit tests: their weights are elided (zeros), so
# the reference is the same IR without debug mode, and numpy where there are none.


def _mlir_inputs(ir: CompiledIR, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    dims = {"batch": 2, "seq": 5}
    feeds: dict[str, np.ndarray] = {}
    for spec in ir.signature.inputs:
        shape = [
            d if isinstance(d, int) else dims.get(d, 4) if isinstance(d, str) else 4
            for d in spec.shape
        ]
        feeds[spec.name] = rng.standard_normal(shape).astype(spec.dtype)
    return feeds


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    "path", sorted(FILECHECK_INPUTS.glob("*.onnx.mlir")), ids=lambda p: p.name
)
def test_filecheck_inputs_in_debug_mode(path: Path) -> None:
    module = Parser(make_context(), path.read_text()).parse_module()
    ir = xhip.compile_to_ir(module)
    feeds = _mlir_inputs(ir)
    plain_runtime, debug_runtime = CpuRuntime(), CpuRuntime(debug=True)
    try:
        plain = CompiledModel(ir.module, ir.signature, ir.constants, plain_runtime)
        want = list(plain(feeds).values())
        got = run_debug(ir, debug_runtime, feeds, "plan")
    finally:
        plain_runtime.close()
        debug_runtime.close()
    for value in got:
        assert not np.isnan(value).any(), "debug mode read memory nobody wrote"
    assert_matches(got, want, path.name, rtol=1e-6)
    if path.name == "two_outputs.onnx.mlir":
        scores = feeds["Q"].astype(np.float64) @ feeds["Kt"]
        probs = np.exp(scores - scores.max(-1, keepdims=True))
        probs /= probs.sum(-1, keepdims=True)
        assert_matches(got, [probs, scores], path.name)


# onnx's node suite: every case that runs, with onnx's expected outputs.


def _tensors_only(param: Any) -> bool:
    """Sequence and optional inputs and outputs go through the onnx backend
    (test_onnx_node_tests.py, emulator/test_node_suite.py); the debug runtimes
    here take the cases whose graph has tensors only."""
    graph = param.values[0].model.graph
    return all(v.type.HasField("tensor_type") for v in (*graph.input, *graph.output))


NODE_CASES = [p for p in _params(CASES) if not p.marks and _tensors_only(p)]


def _run_node_case(case: Any, runtime: Runtime) -> None:
    ((inputs, outputs),) = case.data_sets
    names = [v.name for v in case.model.graph.input]
    try:
        # xhip.compile: a case whose structure is data specializes on it.
        model = xhip.compile(case.model, runtime=runtime)
        got = model({n: _array(x) for n, x in zip(names, inputs, strict=True)})
    except NotImplementedOnDevice as refusal:
        # As in emulator/test_node_suite.py: a float32 case computing in
        # another type inside (the expanded ReduceLogSumExp casts to double).
        # And an op the GPU runtimes lack (`gpu.CPU_ONLY`, with its reason).
        lacking = [op for op in CPU_ONLY if f"{op} is not implemented" in str(refusal)]
        if "float32 only" not in str(refusal) and not lacking:
            raise
        pytest.xfail(str(refusal))
    finally:
        runtime.close()
    Runner.assert_similar_outputs(
        [_array(x) for x in outputs], list(got.values()), rtol=case.rtol, atol=case.atol
    )


@pytest.mark.parametrize("case", NODE_CASES)
def test_node_suite_on_cpu_in_debug_mode(case: Any) -> None:
    _run_node_case(case, CpuRuntime(debug=True))


def _float32(param: Any) -> bool:
    ((inputs, outputs),) = param.values[0].data_sets
    return all(_array(x).dtype == np.float32 for x in (*inputs, *outputs))


@pytest.mark.emulator
@pytest.mark.parametrize("case", [p for p in NODE_CASES if _float32(p)])
def test_node_suite_on_hip_in_debug_mode(case: Any, kernels: EmulatedKernels) -> None:
    """One GPU configuration (AMD's warp 64) keeps the suite's time in bounds;
    `tests/pytest/emulator/test_node_suite.py` runs all three without debug."""
    _run_node_case(
        case,
        RUNTIMES["hip"](
            debug=True, device=EmulatedDevice(64, kernels=kernels, runtime="hip")
        ),
    )


# The sanitizer catches a broken plan in the real final IR.


def _attention() -> tuple[onnx.ModelProto, CompiledIR, dict[str, np.ndarray]]:
    model = attention_example().build()
    ir = xhip.compile_to_ir(model)
    return model, ir, random_inputs(model, {"batch": 2, "seq": 5})


def _pool_views(module: ModuleOp) -> list[memref.ViewOp]:
    """The views into the pool (`hip.alloc`'s bytes), not into the constants."""
    return [
        op
        for op in module.walk()
        if isinstance(op, memref.ViewOp)
        and isinstance(op.operands[0].owner, hip.AllocOp)
    ]


def _set_offset(view: memref.ViewOp, offset: int) -> None:
    """Points the view at byte `offset` of the pool (a fresh constant)."""
    constant = arith.ConstantOp(IntegerAttr.from_index_int_value(offset))
    assert view.parent is not None
    view.parent.insert_op_before(constant, view)
    view.operands[1] = constant.result


def test_correct_attention_plan_has_distinct_views() -> None:
    """The premise of the tests below: the pool holds several views at
    distinct offsets (index arithmetic on the dims), and the unbroken plan
    runs clean in debug mode."""
    model, ir, feeds = _attention()
    offsets = [view.operands[1] for view in _pool_views(ir.module)]
    assert len(offsets) >= 3 and len(set(offsets)) >= 2, offsets
    runtime = CpuRuntime(debug=True)
    try:
        assert_matches(
            run_debug(ir, runtime, feeds, "plan"), onnxruntime(model, feeds), "ok"
        )
    finally:
        runtime.close()


def test_overlapping_pool_views_are_a_memory_plan_error() -> None:
    """Every view moved to the first view's offset: two values live at once
    share bytes, and the error names both, their bytes and the ops."""
    model, ir, feeds = _attention()
    views = _pool_views(ir.module)
    for view in views[1:]:
        view.operands[1] = views[0].operands[1]  # defined before the first view
    ir.module.verify()
    for runtime in (CpuRuntime(debug=True), CpuRuntime(debug=False)):
        try:
            if not runtime.debug:
                # Without the sanitizer the broken plan gives a plausible wrong
                # answer: that is what debug mode is for.
                got = CompiledModel(ir.module, ir.signature, ir.constants, runtime)(
                    feeds
                )
                assert not np.allclose(
                    got["out"], onnxruntime(model, feeds)[0], rtol=1e-3, atol=1e-4
                )
                continue
            with pytest.raises(MemoryPlanError) as caught:
                run_debug(ir, runtime, feeds, "plan")
        finally:
            runtime.close()
    message = str(caught.value)
    assert re.fullmatch(
        r"'hip\.[\w.]+' writes %\w+ over bytes of %\w+, which is read again later: "
        r"%\w+ is bytes \[\d+, \d+\) and %\w+ \(written by 'hip\.[\w.]+', read by "
        r"'hip\.[\w.]+'\) bytes \[\d+, \d+\) of one \d+-byte buffer",
        message,
    ), message


def test_view_past_the_pool_end_is_a_memory_plan_error() -> None:
    """A pool offset corrupted past the end: the view itself is refused."""
    _, ir, feeds = _attention()
    _set_offset(_pool_views(ir.module)[0], 1 << 40)
    runtime = CpuRuntime(debug=True)
    try:
        with pytest.raises(
            MemoryPlanError, match=r"memref\.view .* outside its buffer"
        ):
            run_debug(ir, runtime, feeds, "plan")
    finally:
        runtime.close()
    assert runtime.allocations.in_use <= len(ir.constants) + 4096  # pool freed


def test_overlapping_allocations_are_a_memory_plan_error() -> None:
    """An allocator handing out memory that is still in use (here: the same
    block twice) is caught when the second allocation is made."""

    class Reusing(CpuRuntime):
        def _allocate(self, nbytes: int) -> np.ndarray:
            if not hasattr(self, "block"):
                self.block = super()._allocate(1 << 16)
            return self.block[:nbytes]

    runtime = Reusing(debug=True)
    try:
        runtime.alloc(64)
        with pytest.raises(
            MemoryPlanError,
            match=r"allocation of 128 bytes at 0x[0-9a-f]+ overlaps a "
            r"live allocation of 64 bytes",
        ):
            runtime.alloc(128)
    finally:
        runtime.close()


def test_concat_slices_are_checked_against_their_output() -> None:
    """`Runtime.concat` writes each input into a slice of `out`; inputs longer
    than `out` along the axis would write past it."""
    runtime = CpuRuntime(debug=True)
    try:
        a = runtime.upload(np.ones((2, 3), np.float32), copy=True)
        out = runtime.empty((2, 4), np.dtype(np.float32))
        with pytest.raises(MemoryPlanError, match=r"hip\.concat input at 3 of axis 1"):
            runtime.concat([a, a], out, hip.AxisAttributes(1))
    finally:
        runtime.close()


def test_gpu_gemm_scratch_and_bias_are_checked(kernels: EmulatedKernels) -> None:
    """The GPU runtimes' internal writes go through the same checks: a GEMM
    output too small for what BLAS writes is refused before the call."""
    device = EmulatedDevice(32, kernels=kernels, runtime="cuda")
    gpu = RUNTIMES["cuda"](debug=True, device=device)
    try:
        f32 = np.dtype(np.float32)
        a = gpu.upload(np.ones((4, 8), np.float32), copy=True)
        b = gpu.upload(np.ones((8, 4), np.float32), copy=True)
        c = gpu.upload(np.arange(4, dtype=np.float32), copy=True)
        out = gpu.empty((4, 4), f32)
        gpu.gemm(
            a, b, c, out, hip.GemmAttributes(False, False, 1.0, 1.0)
        )  # bias copied in, then BLAS adds the product
        want = np.broadcast_to(8 + np.arange(4, dtype=np.float32), (4, 4))
        np.testing.assert_allclose(gpu.download(out), want)
        small = gpu.empty((4, 4), f32)
        small.buffer.nbytes = 32  # as if the plan gave it 32 bytes
        with pytest.raises(MemoryPlanError, match="outside its buffer"):
            gpu.gemm(a, b, c, small, hip.GemmAttributes(False, False, 1.0, 1.0))
    finally:
        gpu.close()


def test_nan_and_inf_propagate_on_gpu_runtimes_as_in_onnxruntime(
    debug_gpu: KernelRuntime,
) -> None:
    """NaN and +-Inf inputs through the attention example: NaN where ONNX
    Runtime has NaN, the same infinities, the same finite numbers."""
    model = attention_example().build()
    ir = xhip.compile_to_ir(model)
    x = np.random.default_rng(1).standard_normal((2, 5, 64)).astype(np.float32)
    x[0, 1, 3] = np.nan
    x[1, 2, :] = np.inf
    x[1, 4, 0] = -np.inf
    got = run_debug(ir, debug_gpu, {"X": x}, "plan")[0]
    (want,) = onnxruntime(model, {"X": x})
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isposinf(got), np.isposinf(want))
    np.testing.assert_array_equal(np.isneginf(got), np.isneginf(want))
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, equal_nan=True)
