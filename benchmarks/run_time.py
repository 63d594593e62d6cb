"""Run time of the seed's attention model: xhip CPU runtime vs ONNX Runtime CPU.

Runs the seed's final IR (stage 21) with random weights, and the equivalent
ONNX model in ONNX Runtime (intra-op threads = xhip's workers), in the same
process and on the same inputs, one call of each in turn (`paired.py`).
Prints the median time per call and the ratio (and the best-of ratio), the
load average, then the per-call overhead of the xhip engines at
(batch, seq) = (1, 1).

    .venv/bin/python benchmarks/run_time.py [--quick]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np
from paired import paired_seconds
from timing import median_seconds

SEED = Path(
    os.environ.get("XHIP_SEED", Path(__file__).resolve().parents[2] / "shared" / "seed")
)
FINAL = SEED / "stages" / "after-pass-21-hip-resolve-extern-constants.mlir"
SIGNATURE_STAGE = SEED / "stages" / "after-pass-20-hip-lower-allocs.mlir"
SHAPES = ((1, 128), (8, 128), (8, 512), (4, 2048))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    args = parser.parse_args()
    budget = 0.5 if args.quick else 1.5

    import onnxruntime as ort
    from xdsl.parser import Parser

    from xhip.backend.cpu import CpuRuntime
    from xhip.backend.reference import AttentionWeights
    from xhip.backend.session import CompiledModel, Signature
    from xhip.context import make_context

    ctx = make_context()
    module = Parser(ctx, FINAL.read_text()).parse_module()
    stage20 = Parser(ctx, SIGNATURE_STAGE.read_text()).parse_op()
    from xdsl.dialects.func import FuncOp

    assert isinstance(stage20, FuncOp)
    signature = Signature.from_function(stage20)
    weights = AttentionWeights.random(0)
    runtime = CpuRuntime()
    model = CompiledModel(module, signature, weights.constants_blob(), runtime)
    options = ort.SessionOptions()
    options.intra_op_num_threads = runtime.threads
    session = ort.InferenceSession(
        weights.onnx_model(), options, providers=["CPUExecutionProvider"]
    )
    rng = np.random.default_rng(0)

    print(
        f"cpus: {os.cpu_count()}, threads: {runtime.threads}, onnxruntime "
        f"{ort.__version__}, load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"{'batch x seq':>12} {'xhip ms':>9} {'ort ms':>9} {'xhip/ort':>9} "
        f"{'best of':>8}"
    )
    for batch, seq in SHAPES:
        x = rng.standard_normal((batch, seq, 64)).astype(np.float32)
        (ours, ours_best), (theirs, theirs_best) = paired_seconds(
            lambda x=x: model({"X": x}),
            lambda x=x: session.run(None, {"X": x}),
            2 * budget,
        )
        print(
            f"{batch:>5} x {seq:<5} {ours * 1e3:9.3f} {theirs * 1e3:9.3f} "
            f"{ours / theirs:9.2f} {ours_best / theirs_best:8.2f}"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")

    x = rng.standard_normal((1, 1, 64)).astype(np.float32)
    print("per-call time at (1, 1):")
    for engine in ("plan", "interpreter"):
        m = CompiledModel(
            module, signature, weights.constants_blob(), runtime, engine=engine
        )
        t = median_seconds(lambda m=m: m({"X": x}), budget)
        print(f"  xhip {engine:<12} {t * 1e6:9.1f} us")
    t = median_seconds(lambda: session.run(None, {"X": x}), budget)
    print(f"  onnxruntime       {t * 1e6:9.1f} us")
    runtime.close()


if __name__ == "__main__":
    main()
