"""Every op the importer reads, on degenerate inputs, against ONNX Runtime.

`python scripts/degenerate_audit.py [--seeds 2] [--ops ReduceL1,Softmax]`

For each op type of `supported_ops()` the fuzzer's generator
(`xhip.testing.fuzz`) is run on a graph whose one input has a degenerate
shape: rank 0, a zero-size dim, a last dim of size 1 (so `axis = rank - 1`
and the negative axes the generators draw meet it). The reductions also get
a table of their own: no axes, an empty axes constant, with and without
`noop_with_empty_axes` and `keepdims`, and an empty reduced dim. Each graph
runs on ONNX Runtime's CPU provider and on xhip's CPU runtime
(`xhip.compile(model, device="cpu")`); onnx's reference is run too and named
where it sides with xhip. A graph ONNX Runtime refuses (or crashes on: it
runs in a child process) is skipped. Prints one
line per mismatch, error and refusal (refusals: each distinct reason once),
then the counts; exits 1 on a mismatch or an error. About a minute on one
core.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from xdsl.utils.exceptions import PassFailedException

import xhip
from xhip.frontend import OnnxImportError
from xhip.frontend.onnx_importer import supported_ops
from xhip.testing.fuzz.driver import GENERATORS, OPSETS
from xhip.testing.fuzz.graph import OPSET, Graph, Shape, Value

SHAPES: tuple[tuple[int, ...], ...] = (
    (),
    (0,),
    (0, 3),
    (3, 0),
    (2, 0, 3),
    (1,),
    (2, 1),
    (1, 1, 1),
    (2, 3, 1),
)
"""The input shapes each generator is run on."""

REDUCTIONS = (
    "ReduceMean",
    "ReduceSum",
    "ReduceMax",
    "ReduceMin",
    "ReduceProd",
    "ReduceL1",
    "ReduceL2",
    "ReduceLogSumExp",
    "ReduceSumSquare",
    "ReduceLogSum",
)

RTOL = ATOL = 1e-4


@dataclass
class Case:
    label: str
    model: onnx.ModelProto
    feeds: dict[str, np.ndarray]


def _model(
    nodes: list[onnx.NodeProto],
    x_shape: Shape,
    outputs: list[Value],
    initializers: list[TensorProto],
    opset: int = OPSET,
) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "degenerate",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_shape))],
        [
            helper.make_tensor_value_info(v.name, TensorProto.FLOAT, list(v.shape))
            for v in outputs
        ],
        initializers,
    )
    contrib = sorted({n.domain for n in nodes} - {""})  # com.microsoft: version 1
    model = helper.make_model(
        graph,
        opset_imports=[
            helper.make_opsetid("", opset),
            *(helper.make_opsetid(d, 1) for d in contrib),
        ],
    )
    model.ir_version = helper.find_min_ir_version_for(
        list(model.opset_import), ignore_unknown=True
    )
    return model


def _feed(rng: np.random.Generator, shape: tuple[int, ...]) -> dict[str, np.ndarray]:
    return {"x": rng.standard_normal(shape).astype(np.float32)}


def generator_cases(op: str, seeds: int) -> Iterator[Case]:
    """The fuzzer's generator of `op` on each of `SHAPES`, `seeds` draws each."""
    for shape in SHAPES:
        for seed in range(seeds):
            rng = np.random.default_rng(seed)
            g = Graph(rng)
            g.values.append(Value("x", shape))
            out = None
            for _attempt in range(4):
                try:
                    out = GENERATORS[op](g)
                except (ValueError, ZeroDivisionError, IndexError):
                    break  # the generator draws nothing from a zero-size dim
                if out is not None:
                    break
            if out is None:
                continue
            opset = OPSETS.get(op, OPSET)  # the generator's op may be newer
            model = _model(g.nodes, shape, [out], g.initializers, opset)
            yield Case(f"{op} x{list(shape)} seed {seed}", model, _feed(rng, shape))


def _reduced(shape: tuple[int, ...], axes: list[int] | None, keep: int) -> Shape:
    if axes is None:
        axes = list(range(len(shape)))
    normal = {a % max(len(shape), 1) for a in axes}
    return tuple(
        1 if i in normal else d for i, d in enumerate(shape) if keep or i not in normal
    )


def reduction_cases() -> Iterator[Case]:
    """Each reduction with no axes (absent, or an empty constant), with and
    without `noop_with_empty_axes` and `keepdims`; over an empty dim; over a
    last dim of size 1 named by a negative axis."""
    rng = np.random.default_rng(0)
    layouts: list[tuple[tuple[int, ...], list[int] | None, bool]] = [
        (shape, None, absent)
        for shape in ((), (2, 3), (0, 3), (3, 1))
        for absent in (True, False)
    ]
    layouts += [
        ((0, 3), [0], False),
        ((2, 1), [-1], False),
        ((2, 3, 1), [-1, 0], False),
    ]
    for op in REDUCTIONS:
        for shape, axes, absent in layouts:
            for noop in (0, 1):
                for keep in (0, 1):
                    if axes is not None and noop:
                        continue
                    inputs = ["x"]
                    initializers: list[TensorProto] = []
                    if not absent:
                        values = [] if axes is None else axes
                        initializers.append(
                            helper.make_tensor(
                                "axes", TensorProto.INT64, [len(values)], values
                            )
                        )
                        inputs.append("axes")
                    out_shape = (
                        shape if axes is None and noop else _reduced(shape, axes, keep)
                    )
                    node = helper.make_node(
                        op, inputs, ["y"], keepdims=keep, noop_with_empty_axes=noop
                    )
                    model = _model([node], shape, [Value("y", out_shape)], initializers)
                    x = _feed(rng, shape)
                    if op == "ReduceLogSum":
                        x = {"x": np.abs(x["x"]) + np.float32(0.1)}
                    how = "no axes" if absent else f"axes={axes or []}"
                    label = f"{op} x{list(shape)} {how} noop={noop} keepdims={keep}"
                    yield Case(label, model, x)


def differs(got: np.ndarray, want: np.ndarray) -> str | None:
    """Why `got` is not `want`: shape, NaN or infinity positions, or an error
    over `RTOL`/`ATOL` of the output's scale; None if it is."""
    if got.shape != want.shape:
        return f"shape {got.shape} != {want.shape}"
    if got.dtype.kind != "f" or want.dtype.kind != "f":
        return None if np.array_equal(got, want) else "values differ"
    nan = np.isnan(want)
    if not np.array_equal(np.isnan(got), nan):
        return "NaN positions differ"
    if not np.array_equal(np.isinf(got[~nan]), np.isinf(want[~nan])):
        return "infinities differ"
    ok = ~nan & ~np.isinf(want)
    if not ok.any():
        return None
    scale = max(float(np.max(np.abs(want[ok]))), 1.0)
    error = float(np.max(np.abs(got[ok].astype(np.float64) - want[ok])))
    return f"max error {error:.3g}" if error > (RTOL + ATOL) * scale else None


def _brief(a: np.ndarray) -> str:
    flat = a.ravel()
    text = np.array2string(flat[:8], precision=4, separator=", ")
    return f"{a.dtype}{list(a.shape)} {text}{' ...' if flat.size > 8 else ''}"


def run_ort(model: bytes, feeds: dict[str, np.ndarray]) -> list[np.ndarray] | str:
    """ONNX Runtime's outputs, or why it refused the graph."""
    options = ort.SessionOptions()
    options.log_severity_level = 4
    try:
        session = ort.InferenceSession(
            model, options, providers=["CPUExecutionProvider"]
        )
        return [np.asarray(a) for a in session.run(None, feeds)]
    except Exception as e:  # noqa: BLE001 - any refusal of ORT's is not a finding
        return str(e).splitlines()[0]


class OrtWorker:
    """ONNX Runtime in a child process: it crashes on some empty inputs
    (InstanceNormalization over a zero-size dim: a segmentation fault), which
    counts as its refusal; a fresh child takes the next case."""

    def __init__(self) -> None:
        self.pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"))

    def run(self, case: Case) -> list[np.ndarray] | str:
        future = self.pool.submit(run_ort, case.model.SerializeToString(), case.feeds)
        try:
            return future.result()
        except BrokenProcessPool:
            self.pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"))
            return "ONNX Runtime crashed"


def audit(case: Case, worker: OrtWorker) -> tuple[str, str]:
    """(outcome, detail): match, skipped (ONNX Runtime refuses), refused
    (xhip refuses in one line), mismatch or error."""
    expected = worker.run(case)
    if isinstance(expected, str):
        return "skipped", expected
    try:
        got = xhip.compile(case.model, device="cpu")(case.feeds)
    except (OnnxImportError, PassFailedException) as e:
        lines = str(e).splitlines()
        return "refused", lines[-1].strip() if len(lines) > 1 else lines[0]
    except Exception as e:  # noqa: BLE001 - an error is what the audit reports
        return (
            "error",
            f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
        )
    names = [o.name for o in case.model.graph.output]
    for name, want in zip(names, expected, strict=True):
        mine = np.asarray(got[name])
        why = differs(mine, np.asarray(want))
        if why is None:
            continue
        try:
            refs = list(ReferenceEvaluator(case.model).run(None, case.feeds))
            ref = refs[names.index(name)]
            side = (
                "onnx.reference agrees with xhip"
                if differs(mine, np.asarray(ref)) is None
                else "onnx.reference agrees with neither"
            )
            if differs(np.asarray(ref), np.asarray(want)) is None:
                side = "onnx.reference agrees with ORT"
        except Exception as e:  # noqa: BLE001
            side = f"onnx.reference fails: {type(e).__name__}"
        detail = f"{why}; ORT {_brief(np.asarray(want))}; xhip {_brief(mine)}; {side}"
        return "mismatch", detail
    return "match", ""


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--ops", default="", help="comma-separated op types")
    parser.add_argument("--verbose", action="store_true", help="name each case first")
    args = parser.parse_args()
    chosen = [o for o in args.ops.split(",") if o] or sorted(supported_ops())
    cases: list[Case] = []
    for op in chosen:
        if op in GENERATORS:
            cases.extend(generator_cases(op, args.seeds))
    cases.extend(c for c in reduction_cases() if c.label.split()[0] in chosen)
    not_generated = sorted(set(chosen) - set(GENERATORS))
    counts: Counter[str] = Counter()
    reasons: set[str] = set()
    worker = OrtWorker()
    for case in cases:
        if args.verbose:
            print(f"... {case.label}", flush=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outcome, detail = audit(case, worker)
        counts[outcome] += 1
        if outcome in ("mismatch", "error"):
            print(f"{outcome.upper()}: {case.label}: {detail}")
        elif outcome == "refused" and detail not in reasons:
            reasons.add(detail)
            print(f"refused: {case.label}: {detail}")
    print(f"not audited (no generator): {', '.join(not_generated)}")
    print(", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 1 if counts["mismatch"] or counts["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
