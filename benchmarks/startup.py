"""Start-up: whole processes, from exec to exit, against ONNX Runtime's.

Times (best of `--repeat`, wall clock) of fresh interpreters running:

- `python -c pass`: the interpreter alone, the floor under everything;
- `import xhip`, `xhip --help`;
- `xhip compile MODEL -o DIR/out.mlir` (default: the seed's 8-node attention
  model, `examples/attention.onnx`);
- with `--against DIR`, the same compile by the xhip package in `DIR` (another
  revision: `git archive REV xhip | tar -x -C DIR`), to compare two versions in
  one run;
- the reference, in the same run: a process that imports onnxruntime and
  builds an `InferenceSession` of the same model, ONNX Runtime's own
  "load and prepare" step.

    python benchmarks/startup.py
    python benchmarks/startup.py --model tests/fixtures/gpt2/model.onnx --repeat 9

Like Python's bytecode, the dataclass methods a compile made are kept in
xhip's `__pycache__` (`xhip.dataclass_code_cache`): the first round writes
them (unless PYTHONDONTWRITEBYTECODE is set), the best times are warm ones.

The rows are interleaved (each round runs every row once), so that the
machine's other work falls on all of them alike; the load average is printed
before and after, and the child processes' CPU seconds (user + system) beside
the wall time, which other work on the machine moves much less.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODEL = REPO / "examples" / "attention.onnx"
REFERENCE = "onnxruntime InferenceSession (reference)"


def timed(argv: list[str], cwd: str, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=cwd, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0] if __doc__ else None
    )
    parser.add_argument("--model", type=Path, default=MODEL)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="a directory holding another revision's xhip package, compiled too",
    )
    args = parser.parse_args()
    python = sys.executable
    model = str(args.model.resolve())
    # Run outside the checkout: `python -m` puts the working directory first on
    # sys.path, ahead of `--against`'s PYTHONPATH.
    xhip = [python, "-m", "xhip.cli"]
    env = dict(os.environ)
    print(f"load average before: {load()}")
    with tempfile.TemporaryDirectory() as out:
        compile_argv = [*xhip, "compile", model, "-o", os.path.join(out, "out.mlir")]
        rows: dict[str, tuple[list[str], dict[str, str]]] = {
            "python -c pass": ([python, "-c", "pass"], env),
            "import xhip": ([python, "-c", "import xhip"], env),
            "xhip --help": ([*xhip, "--help"], env),
            f"xhip compile {args.model.name}": (compile_argv, env),
        }
        if args.against is not None:
            against = {**env, "PYTHONPATH": str(args.against.resolve())}
            rows[f"  the same, xhip of {args.against}"] = (compile_argv, against)
        rows[REFERENCE] = (
            [
                python,
                "-c",
                "import onnxruntime as ort, sys; "
                "ort.InferenceSession(sys.argv[1], providers=['CPUExecutionProvider'])",
                model,
            ],
            env,
        )
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in rows}
        for _ in range(args.repeat):
            for name, (argv, row_env) in rows.items():
                runs[name].append(timed(argv, out, row_env))
    reference = min(wall for wall, _ in runs[REFERENCE])
    print(f"{'process':<48} {'best s':>8} {'/ ORT':>7} {'cpu s':>7}")
    for name, times in runs.items():
        wall = min(w for w, _ in times)
        cpu = min(c for _, c in times)
        print(f"{name:<48} {wall:8.3f} {wall / reference:7.2f} {cpu:7.3f}")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
