"""The long fuzzer run: `python scripts/fuzz.py --seeds 5000 [--start 0]`.

Prints one line per mismatch, error or refusal, then the counts; exits 1 if
any seed gave a wrong answer or an unexpected exception.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from xhip.testing.fuzz import check


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5000)
    parser.add_argument("--start", type=int, default=0)
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    began = time.perf_counter()
    for seed in range(args.start, args.start + args.seeds):
        result = check(seed)
        counts[result.outcome] += 1
        if result.outcome != "match":
            print(f"seed {seed}: {result.outcome}: {result.detail.strip()}", flush=True)
    elapsed = time.perf_counter() - began
    print(
        f"{args.seeds} seeds from {args.start} in {elapsed:.0f} s: "
        + ", ".join(
            f"{counts[k]} {k}" for k in ("match", "mismatch", "error", "refused")
        )
    )
    return 1 if counts["mismatch"] or counts["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
