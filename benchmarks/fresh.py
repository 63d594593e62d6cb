"""xhip against ONNX Runtime in fresh processes (issue 25's protocol).

In one process ONNX Runtime's pool spins for a while after each of its calls
and takes the second core from the xhip call that follows (docs/benchmarks.md,
"How to read the alternating ratios"). Here each side runs in a process of
its own with 2 threads (xhip's pool, ORT's intra-op threads), the two in
turn, `--rounds` times, the first of each round alternating; each process
times `--calls` calls after two warm-ups and reports its best and median.
The ratio is taken within each pair of processes (a round), and the table
shows the best times over the rounds, the median of the rounds' ratios of
best times and of median times, and the load average before and after.

`--cpu --threads 1` times each call by the calling thread's CPU time, one
thread each (xhip's pool of one; ORT's one intra-op thread is the caller):
time slicing by other jobs does not inflate it, so it holds on a loaded
machine, where 2-thread wall times say more about the scheduler (and ORT's
spinning workers) than about either side.

A benchmark script uses it by giving `main` a function that builds one call
(`make(kind, case, args)`: `kind` "xhip" or "ort", `case` a string such as
"8x128"); the same script is the worker (`--worker KIND CASE`), run with the
script's own other arguments. `--before DIR` adds a third kind: xhip
imported from DIR (an older checkout, e.g. `git archive HEAD | tar -x -C
DIR`), for a before/after in the same rounds, each ratio within its round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

KINDS = ("xhip", "ort")
Make = Callable[[str, str, argparse.Namespace], Callable[[], object]]


def add_arguments(parser: argparse.ArgumentParser, rounds: int, calls: int) -> None:
    """The fresh-process options every benchmark shares."""
    parser.add_argument("--rounds", type=int, default=rounds, help="process pairs")
    parser.add_argument("--calls", type=int, default=calls, help="calls per process")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--before", help="an older checkout's root: time its xhip too")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time the calling thread's CPU time (with --threads 1: load-proof)",
    )
    parser.add_argument(
        "--worker", nargs=2, metavar=("KIND", "CASE"), help=argparse.SUPPRESS
    )


def ort_session(source: bytes | str, threads: int, spin: bool = True) -> Any:
    """An ONNX Runtime CPU session: `threads` intra-op, one inter-op, sequential;
    `spin=False` in a shared process, where its spinning would take the next
    call's cores."""
    import onnxruntime as ort  # lazy: optional package, only the ORT side needs it

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    if not spin:
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])


def _worker(make: Make, args: argparse.Namespace) -> None:
    """Times one kind in this process; prints {"best": s, "median": s}."""
    kind, case = args.worker
    call = make(kind, case, args)
    call()
    call()
    clock = time.thread_time if args.cpu else time.perf_counter
    times: list[float] = []
    for _ in range(args.calls):
        start = clock()
        call()
        times.append(clock() - start)
    print(json.dumps({"best": min(times), "median": statistics.median(times)}))


def _spawn(
    script: str, argv: Sequence[str], kind: str, case: str, before: str | None
) -> dict[str, float]:
    """One worker process of `kind`; "before": xhip imported from `before`."""
    env = dict(os.environ)
    if kind == "before" and before:
        env["PYTHONPATH"] = os.pathsep.join([before, env.get("PYTHONPATH", "")])
    worker = "ort" if kind == "ort" else "xhip"
    command = [sys.executable, script, *argv, "--worker", worker, case]
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"worker {kind} {case} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _ratios(ours: list[dict[str, float]], theirs: list[dict[str, float]]) -> str:
    """Best over the rounds, the rounds' ratios of bests and of medians."""
    best = min(x["best"] for x in ours) / min(x["best"] for x in theirs)
    pair = statistics.median(a["best"] / b["best"] for a, b in zip(ours, theirs))
    med = statistics.median(a["median"] / b["median"] for a, b in zip(ours, theirs))
    return f"{best:9.2f} {pair:9.2f} {med:9.2f}"


def compare(
    script: str, argv: Sequence[str], cases: Sequence[str], rounds: int,
    before: str | None = None,
) -> None:  # fmt: skip
    """Runs the rounds of each case, kinds in turn (the first of each round
    alternating), and prints the table."""
    kinds = KINDS + (("before",) if before else ())
    print(f"load before: {_load()}")
    ratio_head = f"{'best/best':>9} {'pair best':>9} {'pair med':>9}"
    print(
        f"{'case':>10} "
        + " ".join(f"{k + ' ms':>10}" for k in kinds)
        + f" | xhip/ORT: {ratio_head}"
        + (f" | before/ORT: {ratio_head}" if before else "")
    )
    for case in cases:
        runs: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
        for r in range(rounds):
            for kind in kinds if r % 2 == 0 else kinds[::-1]:
                runs[kind].append(_spawn(script, argv, kind, case, before))
        times = " ".join(
            f"{min(x['best'] for x in runs[k]) * 1e3:10.3f}" for k in kinds
        )
        line = f"{case:>10} {times} | {'':10}{_ratios(runs['xhip'], runs['ort'])}"
        if before:
            line += f" | {'':12}{_ratios(runs['before'], runs['ort'])}"
        print(line, flush=True)
    print(f"load after: {_load()}")


def main(
    make: Make, args: argparse.Namespace, cases: Sequence[str], script: str, title: str
) -> None:
    """This process's part: one worker's, or the comparison of `cases` (the
    workers run `script` with this process's arguments)."""
    if args.worker:
        _worker(make, args)
        return
    print(
        f"{title}; {args.threads} threads each, {args.rounds} rounds of "
        f"{args.calls} calls; ms: best of each kind's processes, "
        + ("the calling thread's CPU time" if args.cpu else "wall clock")
    )
    argv = list(sys.argv[1:])
    if args.before:
        at = argv.index("--before")
        del argv[at : at + 2]
    compare(script, argv, cases, args.rounds, args.before)
