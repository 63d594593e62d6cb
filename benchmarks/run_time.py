"""Run time of the seed's attention model: xhip CPU runtime vs ONNX Runtime CPU.

Runs the seed's final IR (stage 21) with random weights, and the equivalent
ONNX model in ONNX Runtime, 2 threads each (xhip's workers, ORT's intra-op
threads), on the same inputs. By default each side runs in fresh processes,
in turn (`fresh.py`: best and median per process, the ratio taken within each
pair, load before and after); the (1, 1) row is almost all per-call overhead.
`--paired` runs both in this one process, one call of each in turn
(`paired.py`), then the per-call overhead of both xhip engines at (1, 1).

    .venv/bin/python benchmarks/run_time.py [--quick] [--rounds 3] [--calls 20] [--paired]
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import fresh
import numpy as np
from paired import paired_seconds
from timing import median_seconds
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from xhip.backend.cpu import CpuRuntime
from xhip.backend.reference import AttentionWeights
from xhip.backend.session import CompiledModel, Engine, Signature
from xhip.context import make_context

SEED = Path(
    os.environ.get("XHIP_SEED", Path(__file__).resolve().parents[2] / "shared" / "seed")
)
FINAL = SEED / "stages" / "after-pass-21-hip-resolve-extern-constants.mlir"
SIGNATURE_STAGE = SEED / "stages" / "after-pass-20-hip-lower-allocs.mlir"
SHAPES = ((1, 1), (1, 128), (8, 128), (8, 512), (4, 2048))


def _xhip(threads: int, engine: Engine = "plan") -> Any:
    """The seed's final IR with random weights, as a `CompiledModel`."""
    ctx = make_context()
    module = Parser(ctx, FINAL.read_text()).parse_module()
    stage20 = Parser(ctx, SIGNATURE_STAGE.read_text()).parse_op()
    assert isinstance(stage20, FuncOp)
    signature = Signature.from_function(stage20)
    weights = AttentionWeights.random(0).constants_blob()
    runtime = CpuRuntime(threads=threads)
    return CompiledModel(module, signature, weights, runtime, engine=engine)


def _ort(threads: int, spin: bool = True) -> Any:
    return fresh.ort_session(AttentionWeights.random(0).onnx_model(), threads, spin)


def _x(case: str) -> np.ndarray:
    batch, seq = (int(n) for n in case.split("x"))
    return np.random.default_rng(0).standard_normal((batch, seq, 64)).astype(np.float32)


def make(kind: str, case: str, args: argparse.Namespace) -> Callable[[], object]:
    """One call of `kind` ("xhip" or "ort") at `case` ("8x128"), in a worker."""
    feeds = {"X": _x(case)}
    if kind == "ort":
        return partial(_ort(args.threads).run, None, feeds)
    return partial(_xhip(args.threads), feeds)


def paired(args: argparse.Namespace, cases: list[str]) -> None:
    """Both in this process, one call of each in turn; then per-call times."""
    budget = 0.5 if args.quick else 1.5
    model = _xhip(args.threads)
    session = _ort(args.threads, spin=False)
    print(f"threads: {args.threads}, load average {os.getloadavg()[0]:.2f}")
    print(
        f"{'batch x seq':>12} {'xhip ms':>9} {'ort ms':>9} {'xhip/ort':>9} {'best of':>8}"
    )
    for case in cases:
        feeds = {"X": _x(case)}
        (ours, ours_best), (theirs, theirs_best) = paired_seconds(
            partial(model, feeds), partial(session.run, None, feeds), 2 * budget
        )
        print(
            f"{case:>12} {ours * 1e3:9.3f} {theirs * 1e3:9.3f} "
            f"{ours / theirs:9.2f} {ours_best / theirs_best:8.2f}"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    feeds = {"X": _x("1x1")}
    print("per-call time at (1, 1):")
    engines: tuple[Engine, ...] = ("plan", "interpreter")
    for engine in engines:
        t = median_seconds(partial(_xhip(args.threads, engine), feeds), budget)
        print(f"  xhip {engine:<12} {t * 1e6:9.1f} us")
    t = median_seconds(partial(session.run, None, feeds), budget)
    print(f"  onnxruntime       {t * 1e6:9.1f} us")
    model.runtime.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter paired runs")
    parser.add_argument("--shapes", help="batch x seq, comma-separated: 1x128,8x128")
    parser.add_argument("--paired", action="store_true", help="both in one process")
    fresh.add_arguments(parser, rounds=3, calls=20)
    args = parser.parse_args()
    cases = args.shapes.split(",") if args.shapes else [f"{b}x{s}" for b, s in SHAPES]
    if args.paired:
        paired(args, cases)
    else:
        fresh.main(make, args, cases, __file__, "the seed's attention (d 64)")


if __name__ == "__main__":
    main()
