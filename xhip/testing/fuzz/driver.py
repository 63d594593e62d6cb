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
from xhip.frontend.onnx_importer import supported_ops
from xhip.testing.emulator import EmulatedDevice, EmulatedKernels
from xhip.testing.fuzz import (
    composed,
    compute,
    control_flow,
    conv,
    conv_transpose,
    einsum,
    elementwise,
    gather,
    gqa,
    linalg,
    loss,
    pad,
    quantize,
    reduce,
    reshape,
    resize,
    rnn,
    sampling,
    scatter,
    select,
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
)
"""One module of generators per family of ops, named like the `onnx_to_hip`
module that converts it."""

GENERATORS: dict[str, Generator] = {
    op: generator for family in FAMILIES for op, generator in family.GENERATORS.items()
}
"""One generator per ONNX op type the fuzzer draws from (`generate` draws
among them in sorted order, so the families' order does not matter)."""

NOT_DRAWN: dict[str, str] = {
    "TensorScatter": "an opset-24 op; the fuzzer's graphs are opset 20",
    "Constant": "initializers stand in for it",
    "RMSNormalization": "an opset-23 op; the fuzzer's graphs are opset 20",
    "Attention": "an opset-23 op; the fuzzer's graphs are opset 20",
    "RotaryEmbedding": "an opset-23 op; the fuzzer's graphs are opset 20",
    "Swish": "an opset-24 op; the fuzzer's graphs are opset 20",
    "GroupNormalization": (
        "at the fuzzer's opset 20 it is GroupNormalization-18, which onnx's "
        "checker refuses as deprecated"
    ),
    "DepthToSpace": "4-D only; the fuzzer's values have rank 2 or 3",
    "LRN": "ONNX Runtime's LRN takes 4-D inputs only; the fuzzer's values have rank 2 or 3",
    "SpaceToDepth": "4-D only; the fuzzer's values have rank 2 or 3",
    "CumProd": "an opset-26 op; the fuzzer's graphs are opset 20",
    "Unique": (
        "CPU-only (gpu.CPU_ONLY): the emulated-GPU fixed seeds draw only what "
        "the GPU kernels run; its generator is select.CPU_ONLY_GENERATORS"
    ),
    "BitCast": "an opset-26 op; the fuzzer's graphs are opset 20",
    "LinearAttention": "an opset-27 op; the fuzzer's graphs are opset 20",
    "CausalConvWithState": "an opset-27 op; the fuzzer's graphs are opset 20",
}
"""Ops the importer reads that the fuzzer does not draw, with the reason."""


def unfuzzed_ops() -> list[str]:
    """Ops the importer reads that the fuzzer has no generator for."""
    return sorted(set(supported_ops()) - set(GENERATORS) - set(NOT_DRAWN))


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
    for _ in range(int(rng.integers(1, max_ops + 1))):
        for _attempt in range(8):
            if GENERATORS[ops[int(rng.integers(len(ops)))]](g) is not None:
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
            helper.make_opsetid("", OPSET),
            *(helper.make_opsetid(d, 1) for d in contrib),
        ],
    )
    model.ir_version = 9
    return Case(model, feeds)


Outcome = Literal["match", "mismatch", "refused", "unsupported", "error"]
"""`refused`: the compiler said it cannot convert the graph; `unsupported`: a
GPU runtime said it has no kernel for an op (in that dtype). Neither is a
match, and neither is a bug."""

OUTCOMES: tuple[Outcome, ...] = ("match", "mismatch", "error", "refused", "unsupported")

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


def check(seed: int, runtime: str = "cpu") -> Result:
    """Compile and run the seed's graph with xhip on `runtime` and with ONNX
    Runtime's CPU provider."""
    import onnxruntime as ort  # lazy: optional (the dev extra), only the check needs it

    case = generate(seed)
    options = ort.SessionOptions()
    options.log_severity_level = 3  # not the unused-initializer notes
    session = ort.InferenceSession(
        case.model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    expected = session.run(None, case.feeds)
    device = make_runtime(runtime)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ir = xhip.compile_to_ir(case.model)
            got = CompiledModel(ir.module, ir.signature, ir.constants, device)(
                case.feeds
            )
    except (OnnxImportError, PassFailedException) as e:
        return Result(seed, "refused", str(e).splitlines()[0])
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
