"""Start-up: whole processes, from exec to exit, against ONNX Runtime's.

Times (best of `--repeat`, wall clock) of fresh interpreters running:

- `python -c pass`: the interpreter alone, the floor under everything;
- `import xhip`, `xhip --help`;
- `xhip compile MODEL -o DIR/out.mlir` (default: the seed's 8-node attention
  model, `examples/attention.onnx`);
- the reference, in the same run: a process that imports onnxruntime and
  builds an `InferenceSession` of the same model, ONNX Runtime's own
  "load and prepare" step.

    python benchmarks/startup.py
    python benchmarks/startup.py --model tests/fixtures/gpt2/model.onnx --repeat 9

The load average is printed before and after: the machine's other work
lengthens every process alike, so compare within one run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODEL = REPO / "examples" / "attention.onnx"


def best_of(argv: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=REPO)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=MODEL)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    python = sys.executable
    xhip = [python, "-m", "xhip.cli"]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as out:
        rows = {
            "python -c pass": [python, "-c", "pass"],
            "import xhip": [python, "-c", "import xhip"],
            "xhip --help": [*xhip, "--help"],
            f"xhip compile {args.model.name}": [
                *xhip,
                "compile",
                str(args.model),
                "-o",
                os.path.join(out, "out.mlir"),
            ],
            "onnxruntime InferenceSession (reference)": [
                python,
                "-c",
                "import onnxruntime as ort, sys; "
                "ort.InferenceSession(sys.argv[1], providers=['CPUExecutionProvider'])",
                str(args.model),
            ],
        }
        times = {name: best_of(argv, args.repeat) for name, argv in rows.items()}
    reference = times["onnxruntime InferenceSession (reference)"]
    print(f"{'process':<48} {'best s':>8} {'/ ORT':>7}")
    for name, seconds in times.items():
        print(f"{name:<48} {seconds:8.3f} {seconds / reference:7.2f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
