"""`benchmarks/fresh.py`, the fresh-process protocol of the run-time
benchmarks: a whole run of `benchmarks/gpt2.py` at one small shape, each
side in its own worker process, prints its table (the numbers are the
machine's; only the form is checked here)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_gpt2_fresh_processes_print_the_table() -> None:
    done = subprocess.run(
        [
            sys.executable, str(REPO / "benchmarks" / "gpt2.py"),
            "--shapes", "1x4", "--rounds", "2", "--calls", "2", "--cpu", "--threads", "1",
        ],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("GPT-2, gpt2.torchscript.onnx; 1 threads each")
    assert lines[1].startswith("load before:") and lines[-1].startswith("load after:")
    (row,) = [line for line in lines if line.split()[:1] == ["1x4"]]
    numbers = [float(x) for x in re.findall(r"\d+\.\d+", row)]
    assert len(numbers) == 5 and all(x > 0 for x in numbers)


def test_a_failing_worker_is_one_message() -> None:
    """A worker that fails (here: no such model) stops the run with its
    stderr's tail, not a traceback of the parent."""
    done = subprocess.run(
        [
            sys.executable, str(REPO / "benchmarks" / "gpt2.py"),
            "--model", "/nonexistent.onnx", "--shapes", "1x4", "--rounds", "1",
        ],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode != 0
    assert (
        "worker xhip 1x4 failed" in done.stderr
        or "worker ort 1x4 failed" in done.stderr
    )
    assert not done.stderr.startswith("Traceback")
