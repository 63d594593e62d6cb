"""The fuzzer's driver: the generator table, a seed's graph, and the check of
xhip's answer on a runtime against ONNX Runtime's."""

from __future__ import annotations

import traceback
import warnings
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Literal

import numpy as np
import onnx
from onnx import TensorProto, helper
from xdsl.utils.exceptions import PassFailedException

import xhip
from xhip.backend import runtime_for
from xhip.backend.cuda import CudaRuntime
from xhip.backend.hip import HipRuntime
from xhip.backend.runtime import NotImplementedOnDevice
from xhip.backend.session import CompiledModel
from xhip.frontend import OnnxImportError
from xhip.frontend.onnx_importer import contrib_ops, supported_ops
from xhip.testing.emulator import EmulatedDevice, EmulatedKernels
from xhip.testing.fuzz import (
    attention,
    bert,
    composed,
    compute,
    contrib,
    control_flow,
    conv,
    conv_transpose,
    einsum,
    elementwise,
    gather,
    gqa,
    linalg,
    linear_attention,
    loss,
    ml,
    nbits,
    pad,
    qlinear,
    quantize,
    reduce,
    reshape,
    resize,
    rnn,
    sampling,
    scatter,
    select,
    sequence,
    shapes,
    slice,
    topk,
)
from xhip.testing.fuzz.graph import OPSET, Generator, Graph, Shape, Value

if TYPE_CHECKING:
    from xhip.backend.runtime import Runtime

FAMILIES = (
    compute,
    control_flow,
    elementwise,
    reduce,
    scatter,
    conv,
    conv_transpose,
    resize,
    pad,
    gather,
    shapes,
    reshape,
    slice,
    topk,
    select,
    einsum,
    quantize,
    gqa,
    composed,
    linalg,
    loss,
    sampling,
    rnn,
    attention,
    linear_attention,
    contrib,
    bert,
    nbits,
    qlinear,
    sequence,
    ml,
)
"""One module of generators per family of ops, named like the `onnx_to_hip`
module that converts it."""

GENERATORS: dict[str, Generator] = {
    op: generator for family in FAMILIES for op, generator in family.GENERATORS.items()
}
"""One generator per op the fuzzer draws from, by its ONNX op type (an
ONNX Runtime contrib op's prefixed with its domain, `com.microsoft.Gelu`);
`generate` draws among them in sorted order, so the families' order does not
matter."""

OPSETS: dict[str, int] = {
    op: opset
    for family in FAMILIES
    for op, opset in getattr(family, "OPSETS", {}).items()
}
"""The ai.onnx opset an op needs where it is newer than `OPSET`: a graph's
opset_import is the largest its drawn ops need (and `com.microsoft` version
1 where it draws a contrib op)."""

ORT_OPSETS: dict[str, int] = {"GlobalLpPool": 21, "Swish": 24}
"""The newest opset at which ONNX Runtime 1.32's CPU provider runs an op,
where that is below the newest `OPSETS` entry: it has no kernel for
GlobalLpPool-22, and its Swish kernel is registered for opset 24 alone. A
graph draws no such op together with one that needs a newer opset."""

NOT_DRAWN: dict[str, str] = {
    "Constant": "initializers stand in for it",
    "Unique": (
        "CPU-only (gpu.CPU_ONLY): the emulated-GPU fixed seeds draw only what "
        "the GPU kernels run; its generator is select.CPU_ONLY_GENERATORS"
    ),
    "com.microsoft.BiasAdd": "ONNX Runtime's CPU provider has no kernel for it",
    "com.microsoft.SimplifiedLayerNormalization": (
        "ONNX Runtime registers it in the default domain only (drawn there)"
    ),
    "ai.onnx.ml.TreeEnsemble": (
        "ml opset 5 only, which deprecates the TreeEnsembleRegressor and "
        "Classifier drawn at ml opset 1; the node suite and "
        "tests/fixtures/sklearn/tree_ensemble_v5.onnx run it"
    ),
    "ai.onnx.ml.LabelEncoder": (
        "numeric keys are ml opset 2 on, and the fuzzer imports ml opset 1; "
        "tests/pytest/backend/test_ml_models.py runs it"
    ),
}
"""Ops the importer reads that the fuzzer does not draw, with the reason."""


def read_ops() -> set[str]:
    """The ops the importer reads, named as `GENERATORS` names them."""
    contrib = {op if d in ("", "ai.onnx") else f"{d}.{op}" for d, op in contrib_ops()}
    return set(supported_ops()) | contrib


def unfuzzed_ops() -> list[str]:
    """Ops the importer reads that the fuzzer has no generator for."""
    return sorted(read_ops() - set(GENERATORS) - set(NOT_DRAWN))


@dataclass
class Case:
    model: onnx.ModelProto
    feeds: dict[str, np.ndarray]


def generate(seed: int, max_ops: int = 8) -> Case:
    """A random graph and inputs: the same ones for the same seed."""
    rng = np.random.default_rng(seed)
    g = Graph(rng)
    dims: dict[str, int] = {
        "batch": int(rng.integers(1, 4)),
        "seq": int(rng.integers(1, 6)),
    }
    features = int(rng.choice([1, 3, 4, 6, 8]))
    shapes: list[Shape] = [("batch", "seq", features), ("batch", features)]
    inputs: list[onnx.ValueInfoProto] = []
    feeds: dict[str, np.ndarray] = {}
    for i in range(int(rng.integers(1, 3))):
        shape = shapes[int(rng.integers(len(shapes)))]
        name = f"x{i}"
        g.values.append(Value(name, shape))
        inputs.append(
            helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape))
        )
        concrete = [dims[d] if isinstance(d, str) else d for d in shape]
        feeds[name] = rng.standard_normal(concrete).astype(np.float32)
    ops = sorted(GENERATORS)
    opset, ceiling = OPSET, max(OPSETS.values())
    for _ in range(int(rng.integers(1, max_ops + 1))):
        for _attempt in range(8):
            op = ops[int(rng.integers(len(ops)))]
            needs = OPSETS.get(op, OPSET)
            if needs > ceiling or opset > ORT_OPSETS.get(op, opset):
                continue  # ONNX Runtime would have no kernel for one of them
            if GENERATORS[op](g) is not None:
                opset = max(opset, needs)
                ceiling = min(ceiling, ORT_OPSETS.get(op, ceiling))
                break
    produced = [v for v in g.values if v.name not in feeds]
    if not produced:
        produced = [g.add("Identity", [g.values[0].name], g.values[0].shape)]
    count = min(len(produced), int(rng.integers(1, 4)))
    chosen = sorted(
        {int(i) for i in rng.choice(len(produced), count, replace=False)}
        | {len(produced) - 1}
    )
    outputs = [
        helper.make_tensor_value_info(
            produced[i].name, TensorProto.FLOAT, list(produced[i].shape)
        )
        for i in chosen
    ]
    graph = helper.make_graph(g.nodes, f"fuzz{seed}", inputs, outputs, g.initializers)
    contrib = sorted({n.domain for n in g.nodes} - {""})  # com.microsoft: version 1
    model = helper.make_model(
        graph,
        opset_imports=[
            helper.make_opsetid("", opset),
            *(helper.make_opsetid(d, 1) for d in contrib),
        ],
    )
    # 9 at opset 20; newer opsets need newer IR versions.
    model.ir_version = helper.find_min_ir_version_for(
        list(model.opset_import), ignore_unknown=True
    )
    return Case(model, feeds)


Outcome = Literal["match", "mismatch", "refused", "unsupported", "error", "invalid"]
"""`refused`: the compiler said it cannot convert the graph; `unsupported`: a
GPU runtime said it has no kernel for an op (in that dtype). Neither is a
match, and neither is a bug. `invalid`: ONNX Runtime, the reference, would
not run the graph (a generator's or ONNX Runtime's gap: xhip is not run)."""

OUTCOMES: tuple[Outcome, ...] = (
    "match",
    "mismatch",
    "error",
    "refused",
    "unsupported",
    "invalid",
)

RUNTIMES = ("cpu", "cuda-emulated", "hip-emulated", "cuda", "hip")
"""What `check` runs on: xhip's runtimes by `xhip.compile`'s device name, or
the GPU runtimes on the CPU stand-in of their device API
(`xhip.testing.emulator`), as the emulator tests run them."""

EMULATED_WARP = {"cuda": 32, "hip": 64}
"""The warp size each emulated runtime gets: NVIDIA's, and AMD's CDNA."""


@dataclass
class Result:
    seed: int
    outcome: Outcome
    detail: str = ""


RTOL, ATOL = 1e-4, 1e-5
"""float32 through a few ops: relative to each output's scale."""


def _differs(got: np.ndarray, want: np.ndarray) -> str | None:
    if got.shape != want.shape:
        return f"shape {got.shape} != {want.shape}"
    nan = np.isnan(want)
    if not np.array_equal(np.isnan(got), nan):
        return "NaN positions differ"
    finite = ~nan
    if not np.array_equal(np.isinf(got[finite]), np.isinf(want[finite])):
        return "infinities differ"
    ok = finite & ~np.isinf(want)
    if not ok.any():
        return None
    scale = max(float(np.max(np.abs(want[ok]))), 1.0)
    error = float(np.max(np.abs(got[ok].astype(np.float64) - want[ok])))
    if error > ATOL * scale + RTOL * scale:
        return f"max error {error:.3g} at scale {scale:.3g}"
    return None


@cache
def _emulated_kernels() -> EmulatedKernels:
    """xhip's kernel source built for the emulator once per process."""
    return EmulatedKernels()


def make_runtime(runtime: str) -> Runtime:
    """A fresh runtime for `runtime` (one of `RUNTIMES`)."""
    if not runtime.endswith("-emulated"):
        return runtime_for(runtime)
    kind = "cuda" if runtime == "cuda-emulated" else "hip"
    device = EmulatedDevice(
        EMULATED_WARP[kind], kernels=_emulated_kernels(), runtime=kind
    )
    return {"cuda": CudaRuntime, "hip": HipRuntime}[kind](device=device)


def check(seed: int, runtime: str = "cpu", max_ops: int = 8) -> Result:
    """Compile and run the seed's graph (of at most `max_ops` ops) with xhip
    on `runtime` and with ONNX Runtime's CPU provider."""
    import onnxruntime as ort  # lazy: optional (the dev extra), only the check needs it

    case = generate(seed, max_ops)
    options = ort.SessionOptions()
    options.log_severity_level = 3  # not the unused-initializer notes
    # ORT's kernels on the graph as written: its graph rewrites change answers
    # (a QuantizeLinear after DynamicQuantizeMatMul moved its output by 1%).
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        session = ort.InferenceSession(
            case.model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
        expected = session.run(None, case.feeds)
    except Exception as e:
        return Result(seed, "invalid", f"ONNX Runtime: {str(e).splitlines()[0]}")
    device = make_runtime(runtime)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ir = xhip.compile_to_ir(case.model)
            got = CompiledModel(ir.module, ir.signature, ir.constants, device)(
                case.feeds
            )
    except (OnnxImportError, PassFailedException) as e:
        # The headline and the first op's reason ("1 op(s) cannot be converted:").
        return Result(seed, "refused", " ".join(str(e).splitlines()[:2]))
    except NotImplementedOnDevice as e:
        return Result(seed, "unsupported", str(e).splitlines()[0])
    except Exception:
        return Result(seed, "error", traceback.format_exc(limit=-3))
    finally:
        device.close()
    names = [o.name for o in case.model.graph.output]
    for name, want in zip(names, expected, strict=True):
        why = _differs(np.asarray(got[name]), np.asarray(want))
        if why is not None:
            return Result(seed, "mismatch", f"output {name}: {why}")
    return Result(seed, "match")
