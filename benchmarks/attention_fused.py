"""Fused attention (`hip-fuse-attention`) on the CPU against ONNX Runtime.

The seed's attention (d = 64, random weights) at each (batch, seq): xhip with
the pass, xhip without it (`fuse_attention=False`), and ONNX Runtime, each in
a fresh process with 2 threads (xhip's pool, ORT's intra-op threads), in turn,
`--rounds` times; each process times `--calls` calls after two warm-ups and
reports its best and median. The table shows the best over the rounds, the
ratios taken within the same run, and the load average before and after.
`--before FILE` adds a kind: fused, with `bind_fused_attention` taken from
FILE (an older `cpu_attention.py`, e.g. from `git show`), for a before/after
in the same run; `--tree DIR` adds one too, fused as the xhip tree at DIR
has it (its workers run with DIR first on PYTHONPATH: a `git archive` of
an older commit, the whole runtime before, numba kernels included).
`--paired` runs fused, ORT (and before) in one process
instead, called in turn: on a loaded machine the separate processes' ratios
say more about the scheduler than the code (see `paired`).

    .venv/bin/python benchmarks/attention_fused.py [--rounds 3] [--calls 20] [--before FILE | --tree DIR] [--paired]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from types import MethodType

SHAPES = ((1, 128), (8, 128), (8, 512), (4, 2048))
KINDS = ("fused", "unfused", "ort")


def _call(
    kind: str, batch: int, seq: int, before: str | None, threads: int, spin: bool
) -> Callable[[], object]:
    """One call of `kind` on the seed's attention at (batch, seq)."""
    import numpy as np

    from xhip.backend.reference import AttentionWeights

    weights = AttentionWeights.random(0)
    x = np.random.default_rng(0).standard_normal((batch, seq, 64)).astype(np.float32)
    if kind == "ort":
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        if not spin:  # its spinning workers would take the next kind's cores
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        session = ort.InferenceSession(
            weights.onnx_model(), options, providers=["CPUExecutionProvider"]
        )
        return partial(session.run, None, {"X": x})
    import onnx

    from xhip.api import compile_to_ir
    from xhip.backend.cpu import CpuRuntime
    from xhip.backend.session import CompiledModel

    runtime = CpuRuntime(threads=threads)
    if kind == "before" and before:
        import importlib.util

        spec = importlib.util.spec_from_file_location("before_attention", before)
        assert spec is not None and spec.loader is not None
        old = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = old  # its dataclasses look their module up
        spec.loader.exec_module(old)
        bind = old.CpuAttention.bind_fused_attention
        runtime.bind_fused_attention = MethodType(bind, runtime)  # pyright: ignore[reportAttributeAccessIssue]
    ir = compile_to_ir(onnx.load_from_string(weights.onnx_model()))
    model = CompiledModel(
        ir.module, ir.signature, ir.constants, runtime, fuse_attention=kind != "unfused"
    )
    return partial(model, {"X": x})


def worker(kind: str, batch: int, seq: int, calls: int, before: str | None) -> None:
    """Times one kind in this process; prints {"best": s, "median": s}."""
    call = _call(kind, batch, seq, before, 2, True)
    call()
    call()
    times: list[float] = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    print(json.dumps({"best": min(times), "median": statistics.median(times)}))


def paired(calls: int, before: str | None) -> None:
    """Every kind in this one process, called in turn, best of `calls`: on
    2 threads by the wall clock (ORT not spinning), and on one thread by
    the calling thread's CPU time, which time slicing does not inflate."""
    kinds: tuple[str, ...] = ("fused", "ort") + (("before",) if before else ())
    print(f"{'batch x seq':>12} {'threads':>8} " + " ".join(f"{k:>9}" for k in kinds))
    for batch, seq in SHAPES:
        for threads, clock in ((2, time.perf_counter), (1, time.thread_time)):
            made = {k: _call(k, batch, seq, before, threads, False) for k in kinds}
            best: dict[str, float] = dict.fromkeys(kinds, float("inf"))
            for call in made.values():
                call()
            for _ in range(calls):
                for kind, call in made.items():
                    start = clock()
                    call()
                    best[kind] = min(best[kind], clock() - start)
            ms = " ".join(f"{best[k] * 1e3:9.3f}" for k in kinds)
            ratios = " ".join(
                f"{k}/ORT {best[k] / best['ort']:.2f}" for k in kinds[::2]
            )
            load = os.getloadavg()[0]
            print(f"{batch:>5} x {seq:<5} {threads:>8} {ms}  {ratios}  load {load:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description="fused attention against ONNX Runtime")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--before", help="an older cpu_attention.py to time too")
    parser.add_argument("--tree", help="an older xhip tree to time too (fused)")
    parser.add_argument("--worker", nargs=3, metavar=("KIND", "BATCH", "SEQ"))
    parser.add_argument(
        "--paired", action="store_true", help="all kinds in one process"
    )
    args = parser.parse_args()
    if args.paired:
        paired(args.calls, args.before)
        return
    if args.worker:
        kind, batch, seq = args.worker
        worker(kind, int(batch), int(seq), args.calls, args.before)
        return
    kinds = KINDS + (("before",) if args.before or args.tree else ())
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{'batch x seq':>12} {'fused ms':>9} {'unfused ms':>10} {'ORT ms':>8} "
        f"{'fused/ORT':>9} {'unfused/ORT':>11}"
        + (f" {'before ms':>9} {'before/ORT':>10}" if len(kinds) > 3 else "")
    )
    for batch, seq in SHAPES:
        best = {kind: float("inf") for kind in kinds}
        for _ in range(args.rounds):
            for kind in kinds:
                env = None
                runs = kind
                if kind == "before" and args.tree:
                    env = {**os.environ, "PYTHONPATH": os.path.abspath(args.tree)}
                    runs = "fused"
                command = [sys.executable, __file__, "--worker", runs, str(batch)]
                command += [str(seq), "--calls", str(args.calls)]
                if args.before:
                    command += ["--before", args.before]
                done = subprocess.run(
                    command, capture_output=True, text=True, check=True, env=env
                )
                result = json.loads(done.stdout.strip().splitlines()[-1])
                best[kind] = min(best[kind], result["best"])
        fused, unfused, ort = (best[k] * 1e3 for k in KINDS)
        line = (
            f"{batch:>5} x {seq:<5} {fused:9.3f} {unfused:10.3f} {ort:8.3f} "
            f"{fused / ort:9.2f} {unfused / ort:11.2f}"
        )
        if "before" in best:
            old = best["before"] * 1e3
            line += f" {old:9.3f} {old / ort:10.2f}"
        print(line)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
