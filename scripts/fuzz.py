"""The long fuzzer run: `python scripts/fuzz.py --seeds 5000 [--start 0]
[--runtime cpu|cuda-emulated|hip-emulated] [--max-ops 8]`.

Prints one line per mismatch, error, refusal, runtime refusal or graph ONNX
Runtime would not run (`invalid`), then the counts; exits 1 if any seed gave
a wrong answer or an unexpected exception.
`--runtime cuda-emulated` and `hip-emulated` run the GPU runtimes on the CPU
stand-in of their device API (`xhip.testing.emulator`). `--max-ops` draws
bigger graphs (the same seed gives another graph at another size).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from xhip.testing.fuzz import OUTCOMES, RUNTIMES, check


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--runtime", choices=RUNTIMES, default="cpu")
    parser.add_argument("--max-ops", type=int, default=8, help="ops per graph, at most")
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    began = time.perf_counter()
    for seed in range(args.start, args.start + args.seeds):
        result = check(seed, args.runtime, args.max_ops)
        counts[result.outcome] += 1
        if result.outcome != "match":
            print(f"seed {seed}: {result.outcome}: {result.detail.strip()}", flush=True)
    elapsed = time.perf_counter() - began
    print(
        f"{args.seeds} seeds from {args.start} on {args.runtime} in {elapsed:.0f} s: "
        + ", ".join(f"{counts[k]} {k}" for k in OUTCOMES)
    )
    return 1 if counts["mismatch"] or counts["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
