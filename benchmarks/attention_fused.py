"""Fused attention (`hip-fuse-attention`) on the CPU against ONNX Runtime.

The seed's attention (d = 64, random weights) at each (batch, seq): xhip with
the pass, xhip without it (`fuse_attention=False`), and ONNX Runtime, each in
a fresh process with 2 threads (xhip's pool, ORT's intra-op threads), in turn,
`--rounds` times; each process times `--calls` calls after two warm-ups and
reports its best and median. The table shows the best over the rounds, the
ratios taken within the same run, and the load average before and after.
`--before FILE` adds a kind: fused, with `bind_fused_attention` taken from
FILE (an older `cpu_attention.py`, e.g. from `git show`), for a before/after
in the same run.

    .venv/bin/python benchmarks/attention_fused.py [--rounds 3] [--calls 20] [--before FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

SHAPES = ((1, 128), (8, 128), (8, 512), (4, 2048))
KINDS = ("fused", "unfused", "ort")


def worker(kind: str, batch: int, seq: int, calls: int, before: str | None) -> None:
    """Times one kind in this process; prints {"best": s, "median": s}."""
    import numpy as np

    from xhip.backend.reference import AttentionWeights

    weights = AttentionWeights.random(0)
    x = np.random.default_rng(0).standard_normal((batch, seq, 64)).astype(np.float32)
    if kind == "ort":
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 2
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(
            weights.onnx_model(), options, providers=["CPUExecutionProvider"]
        )

        def call() -> object:
            return session.run(None, {"X": x})
    else:
        import onnx

        from xhip.api import compile_to_ir
        from xhip.backend.cpu import CpuRuntime
        from xhip.backend.session import CompiledModel

        if kind == "before" and before:
            import importlib.util

            from xhip.backend.cpu_attention import CpuAttention

            spec = importlib.util.spec_from_file_location("before_attention", before)
            assert spec is not None and spec.loader is not None
            old = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(old)
            CpuAttention.bind_fused_attention = old.CpuAttention.bind_fused_attention
        ir = compile_to_ir(onnx.load_from_string(weights.onnx_model()))
        model = CompiledModel(
            ir.module,
            ir.signature,
            ir.constants,
            CpuRuntime(threads=2),
            fuse_attention=kind != "unfused",
        )

        def call() -> object:
            return model({"X": x})

    call()
    call()
    times: list[float] = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    print(json.dumps({"best": min(times), "median": statistics.median(times)}))


def main() -> None:
    parser = argparse.ArgumentParser(description="fused attention against ONNX Runtime")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--before", help="an older cpu_attention.py to time too")
    parser.add_argument("--worker", nargs=3, metavar=("KIND", "BATCH", "SEQ"))
    args = parser.parse_args()
    if args.worker:
        kind, batch, seq = args.worker
        worker(kind, int(batch), int(seq), args.calls, args.before)
        return
    kinds = KINDS + (("before",) if args.before else ())
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{'batch x seq':>12} {'fused ms':>9} {'unfused ms':>10} {'ORT ms':>8} "
        f"{'fused/ORT':>9} {'unfused/ORT':>11}"
        + (f" {'before ms':>9} {'before/ORT':>10}" if args.before else "")
    )
    for batch, seq in SHAPES:
        best = {kind: float("inf") for kind in kinds}
        for _ in range(args.rounds):
            for kind in kinds:
                command = [sys.executable, __file__, "--worker", kind, str(batch)]
                command += [str(seq), "--calls", str(args.calls)]
                if args.before:
                    command += ["--before", args.before]
                done = subprocess.run(
                    command, capture_output=True, text=True, check=True
                )
                result = json.loads(done.stdout.strip().splitlines()[-1])
                best[kind] = min(best[kind], result["best"])
        fused, unfused, ort = (best[k] * 1e3 for k in KINDS)
        line = (
            f"{batch:>5} x {seq:<5} {fused:9.3f} {unfused:10.3f} {ort:8.3f} "
            f"{fused / ort:9.2f} {unfused / ort:11.2f}"
        )
        if args.before:
            old = best["before"] * 1e3
            line += f" {old:9.3f} {old / ort:10.2f}"
        print(line)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
