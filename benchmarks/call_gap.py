"""What a whole call costs beyond its bound plan's steps, and why.

Per model, in rounds that interleave them (ms, best over the rounds):

- S1, the sum of each step's best time (the steps timed one by one, in order);
- S2, the best round's sum of those step times: a time some call took;
- B, the bound plan's calls alone (`BoundPlan.__call__`);
- W, the whole call in place (`CompiledModel.__call__`, inplace.py);
- Wc, the whole call copying inputs in and outputs out (another model: W and
  Wc are each the second of two calls in a row, so both find the cache as
  their own last call left it);
- S0, each step run four times in a row, best: its time with its own data
  and weights in cache, and numba's threads awake.

S2 - S1 is no cost: best-of per step picks each step's luckiest round. W - B
is the session (checks, copies, the output dict). S2 - S0 is what running
the steps in order costs them: caches and, with threads, waking numba's
pool. `--wake` times a numba pool launch after a stretch of serial work (the
pool's threads sleep after `GOMP_SPINCOUNT` spins).

    .venv/bin/python benchmarks/call_gap.py block 8x128 [--rounds 40] [--threads 1 --cpu]
    .venv/bin/python benchmarks/call_gap.py --wake
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def _model(which: str, case: str) -> tuple[Any, dict[str, np.ndarray]]:
    if which == "resnet":
        import resnet18

        model = resnet18.ResNet18Builder().model()
        return model, resnet18._feeds(model)  # pyright: ignore[reportPrivateUsage]
    import transformer_block as tb

    layers = 12 if which == "stack" else 1
    args = argparse.Namespace(layers=layers, d_model=256, heads=4)
    model = tb._model(args, tempfile.mkdtemp())  # pyright: ignore[reportPrivateUsage]
    return model, tb._feeds(args, case)  # pyright: ignore[reportPrivateUsage]


def gap(which: str, case: str, rounds: int, threads: int, cpu: bool) -> None:
    import xhip
    from xhip.backend.cpu import CpuRuntime
    from xhip.backend.session import CompiledModel

    model, feeds = _model(which, case)
    ours = xhip.compile(model, device="cpu", runtime=CpuRuntime(threads=threads))
    copying = xhip.compile(model, device="cpu", runtime=CpuRuntime(threads=threads))
    assert isinstance(ours, CompiledModel) and isinstance(copying, CompiledModel)
    copying.in_place_min_bytes = 1 << 62
    for _ in range(3):
        ours(feeds)
        copying(feeds)
    (bound,) = ours._bound.values()  # pyright: ignore[reportPrivateUsage]
    assert bound is not None
    calls = bound.calls
    clock: Callable[[], float] = time.thread_time if cpu else time.perf_counter
    steps = [float("inf")] * len(calls)
    s2 = b = w = wc = float("inf")
    for _ in range(rounds):
        total = 0.0
        for i, call in enumerate(calls):
            start = clock()
            call()
            took = clock() - start
            total += took
            steps[i] = min(steps[i], took)
        s2 = min(s2, total)
        start = clock()
        bound()
        b = min(b, clock() - start)
        for model in (ours, copying):  # each timed on its second call in a row
            model(feeds)
            start = clock()
            model(feeds)
            took = clock() - start
            if model is ours:
                w = min(w, took)
            else:
                wc = min(wc, took)
    hot = [float("inf")] * len(calls)
    for _ in range(max(5, rounds // 4)):
        for i, call in enumerate(calls):
            for _ in range(4):
                start = clock()
                call()
                hot[i] = min(hot[i], clock() - start)
    print(
        f"{which} {case}, {len(calls)} steps, {threads} threads, "
        f"{'thread CPU' if cpu else 'wall'} ms, load {os.getloadavg()[0]:.2f}: "
        f"S1 {sum(steps) * 1e3:.3f}  S2 {s2 * 1e3:.3f}  B {b * 1e3:.3f}  "
        f"W {w * 1e3:.3f}  Wc {wc * 1e3:.3f}  S0 {sum(hot) * 1e3:.3f}"
    )


def wake(samples: int = 400) -> None:
    from numba import njit, prange, set_num_threads

    import xhip.backend.cpu_kernels_attention  # noqa: F401 (sets GOMP_SPINCOUNT)

    @njit(parallel=True)
    def touch(a: np.ndarray) -> None:
        for i in prange(a.shape[0]):
            a[i] += 1.0

    set_num_threads(2)
    a = np.zeros(2)
    touch(a)
    print(
        f"GOMP_SPINCOUNT={os.environ.get('GOMP_SPINCOUNT')}, load {os.getloadavg()[0]:.2f}"
    )
    for idle in (0, 10, 50, 200, 1000):
        times: list[float] = []
        for _ in range(samples):
            touch(a)
            end = time.perf_counter() + idle * 1e-6
            while time.perf_counter() < end:
                pass
            start = time.perf_counter()
            touch(a)
            times.append(time.perf_counter() - start)
        times.sort()
        print(
            f"  {idle:5d} us of serial work, then a launch: best "
            f"{times[0] * 1e6:.1f} us, median {times[len(times) // 2] * 1e6:.1f} us"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("model", nargs="?", choices=("block", "stack", "resnet"))
    parser.add_argument("case", nargs="?", default="8x128", help="batch x seq")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cpu", action="store_true", help="the thread's CPU time")
    parser.add_argument("--wake", action="store_true", help="numba pool wake-up")
    args = parser.parse_args()
    if args.wake:
        wake()
    if args.model:
        gap(args.model, args.case, args.rounds, args.threads, args.cpu)


if __name__ == "__main__":
    main()
