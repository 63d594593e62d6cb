"""Per-call overhead: xhip's bound plans against its unbound plan and ONNX Runtime.

The attention example (`examples/attention.onnx`) and the pre-LN transformer
block of `transformer_block.py` (d_model 64, 4 heads), compiled for the CPU
runtime, run in the same process as ONNX Runtime (CPU execution provider) on
the same inputs. Per shape it prints the microseconds per call, best of
`--repeats` timings of a loop of calls: xhip with bound plans (the default,
reading inputs and writing outputs in place where that pays: inplace.py),
xhip with bound plans that copy every input in and output out
(`in_place_min_bytes` past any size), xhip unbound (`max_bound_plans=0`), ONNX
Runtime. The four alternate within each repeat, so a busy machine slows them
alike.

`--fixtures`: also the committed real exports (`tests/fixtures/models/`,
llama, bert, gpt2 by torchscript and dynamo) at batch x seq 1 x 1 and 1 x 16,
on the inputs `tests/pytest/backend/test_real_exports.py` makes.

The GPU runtimes' host time on a device that does nothing is
`benchmarks/gpu_host.py`'s.

    .venv/bin/python benchmarks/call_overhead.py [--quick] [--fixtures]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import numpy as np
import onnx
from transformer_block import transformer_block

REPO = Path(__file__).resolve().parents[1]
ATTENTION = REPO / "examples" / "attention.onnx"
SHAPES = ((1, 1), (1, 16), (4, 128), (8, 128), (8, 512))
FIXTURES = ("llama", "bert", "gpt2")


def best_us(
    fns: Sequence[Callable[[], object]], budget: float, repeats: int
) -> list[float]:
    """Per function, the best over `repeats` loops of the mean us per call,
    each loop about `budget / repeats / len(fns)` seconds; the functions'
    loops alternate."""
    loops: list[int] = []
    for fn in fns:
        fn()
        start = time.perf_counter()
        fn()
        once = max(time.perf_counter() - start, 1e-7)
        loops.append(max(1, int(budget / repeats / len(fns) / once)))
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, (fn, calls) in enumerate(zip(fns, loops)):
            start = time.perf_counter()
            for _ in range(calls):
                fn()
            best[i] = min(best[i], (time.perf_counter() - start) / calls)
    return [b * 1e6 for b in best]


def _models() -> list[tuple[str, onnx.ModelProto]]:
    return [
        ("attention", onnx.load(str(ATTENTION))),
        ("block d64 h4", transformer_block(64, 4)),
    ]


def _inputs(model: onnx.ModelProto, batch: int, seq: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(batch * 1000 + seq)
    (x,) = model.graph.input
    width = x.type.tensor_type.shape.dim[2].dim_value
    return {x.name: rng.standard_normal((batch, seq, width)).astype(np.float32)}


def _fixtures() -> list[tuple[str, onnx.ModelProto]]:
    folder = REPO / "tests" / "fixtures" / "models"
    return [
        (f"{name}.{exporter[:6]}", onnx.load(str(folder / f"{name}.{exporter}.onnx")))
        for name in FIXTURES
        for exporter in ("torchscript", "dynamo")
    ]


def _fixture_inputs(
    model: onnx.ModelProto, batch: int, seq: int
) -> dict[str, np.ndarray]:
    sys.path.insert(0, str(REPO))
    from tests.pytest.backend.test_real_exports import _inputs as fixture_inputs

    return fixture_inputs(model, batch, seq)


def cpu(
    budget: float,
    repeats: int,
    shapes: tuple[tuple[int, int], ...],
    fixtures: bool = False,
) -> None:
    import onnxruntime as ort

    import xhip
    from xhip.backend.cpu import CpuRuntime
    from xhip.backend.session import CompiledModel

    print(f"cpus: {os.cpu_count()}, onnxruntime {ort.__version__}; us per call")
    print(
        f"{'model':<13} {'batch x seq':>11} {'bound':>9} {'copying':>9} "
        f"{'unbound':>9} {'ort':>9}"
    )
    cases = [(name, model, _inputs, shapes) for name, model in _models()]
    if fixtures:
        cases += [
            (name, model, _fixture_inputs, shapes[:2]) for name, model in _fixtures()
        ]
    for name, model, make_inputs, sizes in cases:
        ir = xhip.compile_to_ir(model)
        bound = CompiledModel(ir.module, ir.signature, ir.constants, CpuRuntime())
        copying = CompiledModel(ir.module, ir.signature, ir.constants, CpuRuntime())
        copying.in_place_min_bytes = 1 << 62
        unbound = CompiledModel(
            ir.module, ir.signature, ir.constants, CpuRuntime(), max_bound_plans=0
        )
        session = ort.InferenceSession(
            model.SerializeToString(), providers=["CPUExecutionProvider"]
        )
        for batch, seq in sizes:
            feeds = make_inputs(model, batch, seq)
            fns = [bound, copying, unbound]
            calls: list[Callable[[], object]] = [partial(fn, feeds) for fn in fns]
            calls.append(partial(session.run, None, feeds))
            times = best_us(calls, budget, repeats)
            print(
                f"{name:<13} {batch:>4} x {seq:<4} "
                + " ".join(f"{t:9.1f}" for t in times)
            )
        bound.close()
        copying.close()
        unbound.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    parser.add_argument("--repeats", type=int, default=5, help="timings per case")
    parser.add_argument(
        "--fixtures", action="store_true", help="also the real exports at 1x1, 1x16"
    )
    args = parser.parse_args()
    budget = 0.5 if args.quick else 2.0
    cpu(budget, args.repeats, SHAPES, args.fixtures)


if __name__ == "__main__":
    main()
