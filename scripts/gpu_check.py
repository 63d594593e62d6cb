"""The device check: every GPU stage in one offline call, each isolated (docs/gpu.md).

    python3 scripts/gpu_check.py [--dry-run] [--quick] [--out DIR] [--wheels auto|yes|no]

Runs on the GPU machine's own python3 plus the wheels of `.whl/`
(scripts/gpu-wheels.sh), installed with `pip install --no-index` into a
temporary folder: nothing is fetched. Each stage is a subprocess with its own
time limit; a failure or a timeout stops no other stage. The stages, in order:

  env         the wheels installed; python, packages, driver, GPU, tools
  warmup      the kernel source compiled once, timed, into a cache shared by
              every later process (CuPy's CUPY_CACHE_DIR; dry run: the emulator's)
  gpu-tests   `pytest -m gpu` on the GPU test file
  node-suite  onnx's node suite on the real CUDA runtime (XHIP_REAL_DEVICE=cuda,
              tests/pytest/emulator/conftest.py), pytest-xdist workers
  fixtures    every committed model at its own inputs, `xhip run --device cuda
              --check` against ONNX Runtime on the CPU
  benchmark   benchmarks/gpu.py
  sanitizer   compute-sanitizer memcheck on a small subset, where it works

`--dry-run`: the emulated device stands in for the GPU (the same commands, the
CUDA runtime on the CPU stand-in of its device API), on any machine. `--quick`:
a short form of every stage (CI). Writes at most 7 files to OUT (default
./gpu-check-out): summary.json, report.md, logs.tar.gz, benchmark.json,
benchmark.md. Exit 0 once every stage has run (`--strict`: only when every
stage is ok).

This driver uses the standard library alone: it must start before the wheels
are installed. The `_`-prefixed subcommands run inside the stages.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import glob
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
THIS = Path(__file__).resolve()
NODE_SUITE = "tests/pytest/emulator/test_node_suite.py"
GPU_TESTS = "tests/pytest/backend/test_gpu.py"
FIXTURES = REPO / "tests" / "fixtures" / "models"
QUICK_CASES = (
    "test_add or test_relu or test_softmax_axis_1 or test_matmul_2d"
    " or test_transpose_default or test_reduce_sum_keepdims_example"
)
"""The handful of node cases of `--quick` and of the sanitizer stage."""
ATTENTION_DIMS = "batch=2,seq=16"
"""The seed example (examples/attention.onnx) has no committed inputs."""
MAX_OUT_FILES = 7

LIMITS: dict[str, tuple[int, int]] = {
    # stage: (seconds on a GPU machine, seconds on the dry run); the GPU
    # machine's add up to 480: 8 minutes, inside one 10-minute command.
    "env": (40, 90),
    "warmup": (60, 150),
    "gpu-tests": (45, 90),
    "node-suite": (125, 240),
    "fixtures": (60, 180),
    "benchmark": (110, 150),
    "sanitizer": (40, 120),
}
RESERVE = 15
"""Seconds each later stage keeps even when an earlier one runs long."""


@dataclass
class Stage:
    """One stage's result, as summary.json records it."""

    name: str
    status: str = "not run"
    """ok, failed (it ran; something in it failed), error (it could not run),
    timeout, skipped (nothing to run it on), unsupported (the tool refused)."""
    seconds: float = 0.0
    limit: float = 0.0
    counts: dict[str, int] = field(default_factory=dict[str, int])
    detail: str = ""
    failures: list[str] = field(default_factory=list[str])
    """Names of the failed cases or models (the first 30)."""


@dataclass
class Check:
    """What every stage shares: the mode, the interpreter, the folders."""

    dry_run: bool
    quick: bool
    python: str
    work: Path
    env: dict[str, str]
    deadline: float
    remaining_stages: int = 0
    jobs: int = 2

    @property
    def logs(self) -> Path:
        return self.work / "logs"

    def limit(self, name: str) -> float:
        """The stage's own limit, cut so that every later stage keeps RESERVE."""
        own = LIMITS[name][1 if self.dry_run else 0]
        if self.quick:
            own = max(30, own // 2)
        left = self.deadline - time.monotonic() - RESERVE * self.remaining_stages
        return max(RESERVE, min(own, left))

    def run(
        self,
        argv: Sequence[str],
        log: Path,
        timeout: float,
        env: dict[str, str] | None = None,
    ) -> tuple[int | None, float]:
        """Runs `argv` in its own process group, output to `log`; (exit code or
        None on timeout, seconds). A timed-out group is killed whole."""
        start = time.monotonic()
        with open(log, "ab") as out:
            out.write(f"$ {' '.join(argv)}\n".encode())
            out.flush()
            process = subprocess.Popen(
                list(argv),
                cwd=REPO,
                env=env or self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
            try:
                code: int | None = process.wait(timeout=max(1.0, timeout))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                code = None
                out.write(f"\n[gpu-check] killed after {timeout:.0f}s\n".encode())
        return code, time.monotonic() - start

    def python_stage(
        self, sub: str, log: Path, timeout: float, *args: str
    ) -> int | None:
        mode = ["--dry-run"] if self.dry_run else []
        quick = ["--quick"] if self.quick else []
        argv = [
            self.python,
            str(THIS),
            sub,
            *mode,
            *quick,
            "--out",
            str(self.logs),
            *args,
        ]
        return self.run(argv, log, timeout)[0]


# The stages ----------------------------------------------------------------


def register_source_tree(site: Path) -> None:
    """Make xhip's `xdsl.universe` entry point (pyproject.toml) visible from
    `site` as a pip install would: the source tree is on PYTHONPATH but not
    installed, and xDSL finds xhip's dialects and passes only through entry
    points. Without this every compile stops at `KeyError: 'hip-add-context-arg'`."""
    text = (REPO / "pyproject.toml").read_text()
    section = text.split('[project.entry-points."xdsl.universe"]', 1)[1]
    entries = [
        line.strip()
        for line in section.split("\n[", 1)[0].splitlines()
        if "=" in line
    ]
    info = site / "xhip-0.0.0+source.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: xhip\nVersion: 0.0.0+source\n"
    )
    (info / "entry_points.txt").write_text(
        "[xdsl.universe]\n" + "".join(e.replace('"', "") + "\n" for e in entries)
    )


def stage_env(check: Check, stage: Stage, wheels: str) -> None:
    """Installs the wheels (never from the network) and reports the machine."""
    log = check.logs / "env.log"
    site = check.work / "site"
    register_source_tree(site)
    found = sorted(glob.glob(str(REPO / ".whl" / "*.whl")))
    xdsl_here = check.run([check.python, "-c", "import xdsl"], log, 60)[0] == 0
    if wheels == "yes" or (wheels == "auto" and found):
        if not found:
            stage.status, stage.detail = (
                "error",
                "no wheels in .whl/: run scripts/gpu-wheels.sh",
            )
            return
        code, _ = check.run(
            [
                check.python,
                "-m",
                "pip",
                "install",
                "-q",
                "--no-index",
                "--no-deps",
                "--no-compile",
                "--no-cache-dir",
                "--upgrade",
                "--target",
                str(site),
                *found,
            ],
            log,
            check.limit("env"),
        )
        if code != 0:
            stage.status, stage.detail = (
                "error",
                f"pip install of .whl/ failed (exit {code})",
            )
            return
        stage.detail = f"{len(found)} wheels from .whl/ installed"
    elif not xdsl_here:
        stage.status = "error"
        stage.detail = (
            "xdsl does not import and .whl/ is empty: run scripts/gpu-wheels.sh"
        )
        return
    else:
        stage.detail = "wheels not installed: xdsl already imports"
    code = check.python_stage("_env", log, check.limit("env"))
    report = _read_json(check.logs / "env.json")
    stage.counts = {"wheels": len(found) if site.exists() else 0}
    problem = str(report.get("device_problem", ""))
    if code is None:
        stage.status = "timeout"
    elif code != 0:
        stage.status = "error"
    elif problem and not check.dry_run:
        stage.status, stage.detail = "failed", problem
    else:
        stage.status = "ok"
        if problem:
            stage.detail += f"; no GPU here ({problem})"


def stage_warmup(check: Check, stage: Stage) -> None:
    code = check.python_stage(
        "_warmup", check.logs / "warmup.log", check.limit("warmup")
    )
    report = _read_json(check.logs / "warmup.json")
    stage.status = "timeout" if code is None else "ok" if code == 0 else "failed"
    if report:
        stage.detail = (
            f"{report['compiler']}: cold {report['cold_s']:.1f}s, "
            f"warm {report['warm_s']:.2f}s, cache {report['cache']}"
        )


def stage_gpu_tests(check: Check, stage: Stage) -> None:
    junit = check.logs / "gpu-tests.xml"
    limit = check.limit("gpu-tests")
    argv = _pytest(check, junit, per_test=60, session=limit - 10) + [
        "-n",
        "0",
        "-rs",
        "-m",
        "gpu",
        GPU_TESTS,
    ]
    code, _ = check.run(argv, check.logs / "gpu-tests.log", limit)
    _pytest_result(stage, code, junit, check.logs / "gpu-tests.log")
    if check.dry_run and stage.counts.get("skipped"):
        stage.detail = "no GPU on a dry run: the gpu tests skip, each with its reason"


def stage_node_suite(check: Check, stage: Stage) -> None:
    """All the cases on the real device; the dry run: every 10th of the cuda
    stand-in's (`--quick`: a handful)."""
    log, junit = check.logs / "node-suite.log", check.logs / "node-suite.xml"
    budget = check.limit("node-suite")
    start = time.monotonic()
    env = dict(check.env)
    select: list[str] = [NODE_SUITE]
    if check.dry_run:
        env.pop("XHIP_REAL_DEVICE", None)
        pick = "cuda-warp32"
    else:
        env["XHIP_REAL_DEVICE"] = "cuda"
        pick = "cuda-real"
    if check.quick:
        select += ["-k", f"{pick} and ({QUICK_CASES})"]
    elif check.dry_run:
        ids = _collect(check, env, budget / 3, [NODE_SUITE, "-k", pick])
        select = ids[::10] or select
        stage.detail = f"every 10th of the {len(ids)} cuda cases on the stand-in"
    workers = "0" if check.quick else str(check.jobs)
    left = budget - (time.monotonic() - start)
    argv = _pytest(check, junit, per_test=60, session=left - 15) + [
        "-n",
        workers,
        "--max-worker-restart",
        "64",
        *select,
    ]
    code, _ = check.run(argv, log, left, env)
    _pytest_result(stage, code, junit, log)
    sticky = re.findall(
        r"sticky device error after (\S+)", log.read_text(errors="replace")
    )
    if sticky:
        stage.counts["sticky"] = len(sticky)
        stage.failures = [f"sticky: {case}" for case in sticky] + stage.failures


def stage_fixtures(check: Check, stage: Stage) -> None:
    code = check.python_stage(
        "_fixtures",
        check.logs / "fixtures.log",
        check.limit("fixtures"),
        "--jobs",
        str(check.jobs),
    )
    results: dict[str, Any] = _read_json(check.logs / "fixtures.json")
    models: list[dict[str, Any]] = results.get("models", [])
    passed = [m for m in models if m["status"] == "ok"]
    stage.counts = {"models": len(models), "passed": len(passed)}
    stage.failures = [
        f"{m['name']}: {m['status']} {m['detail']}"
        for m in models
        if m["status"] != "ok"
    ]
    if code is None:
        stage.status = "timeout"
    elif code != 0 or not models:
        stage.status = "error" if not models else "failed"
    else:
        stage.status = "ok" if len(passed) == len(models) else "failed"


def stage_benchmark(check: Check, stage: Stage) -> None:
    argv = [
        check.python,
        "benchmarks/gpu.py",
        "--json",
        str(check.logs / "benchmark.json"),
        "--markdown",
        str(check.logs / "benchmark.md"),
    ]
    if check.dry_run:
        argv.append("--emulate")
    if check.quick or check.dry_run:
        argv.append("--tiny")
    if check.quick:
        argv += ["--only", "attention", "gpt2.torchscript"]
    limit = check.limit("benchmark")
    argv += ["--budget", str(int(limit * 0.8))]
    code, _ = check.run(argv, check.logs / "benchmark.log", limit)
    rows = _read_json(check.logs / "benchmark.json").get("models", [])
    stage.counts = {
        "models": len(rows),
        "timed": sum(1 for r in rows if r.get("xhip_ms")),
    }
    stage.failures = [f"{r['model']}: {r['error']}" for r in rows if r.get("error")]
    if code is None:
        stage.status = "timeout"
    else:
        stage.status = "ok" if code == 0 and not stage.failures else "failed"


def stage_sanitizer(check: Check, stage: Stage) -> None:
    """memcheck over the seed example and a handful of node cases. The dry
    run has no tool: the same subset runs without it."""
    log = check.logs / "sanitizer.log"
    tool = _find_sanitizer()
    if tool is None and not check.dry_run:
        stage.status, stage.detail = "skipped", "compute-sanitizer not found"
        return
    wrap = (
        []
        if tool is None
        else [
            tool,
            "--tool",
            "memcheck",
            "--error-exitcode",
            "86",
            "--print-limit",
            "10",
        ]
    )
    env = dict(check.env)
    if check.dry_run:
        env.pop("XHIP_REAL_DEVICE", None)
        pick = "cuda-warp32"
    else:
        env["XHIP_REAL_DEVICE"] = "cuda"
        pick = "cuda-real"
    budget = check.limit("sanitizer")
    start = time.monotonic()
    runs = {
        "attention": _xhip_run(
            check, "examples/attention.onnx", ["--dims", ATTENTION_DIMS]
        ),
        "node cases": [
            check.python,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            NODE_SUITE,
            "-k",
            f"{pick} and ({QUICK_CASES})",
        ],
    }
    if check.quick and tool is None:
        del runs["node cases"]  # the node-suite stage ran these just now
    codes: dict[str, int | None] = {}
    for name, argv in runs.items():
        left = budget - (time.monotonic() - start)
        codes[name] = check.run([*wrap, *argv], log, left, env)[0]
    text = log.read_text(errors="replace")
    stage.counts = {
        "runs": len(codes),
        "clean": sum(1 for c in codes.values() if c == 0),
    }
    stage.failures = [f"{n}: exit {c}" for n, c in codes.items() if c != 0]
    if tool is None:
        stage.detail = "no compute-sanitizer on a dry run: the subset ran without it"
    if tool and re.search(
        r"Device not supported|error 999|Unable to find injection", text
    ):
        stage.status, stage.detail = (
            "unsupported",
            "compute-sanitizer refused this device",
        )
    elif None in codes.values():
        stage.status = "timeout"
    elif 86 in codes.values():
        stage.status, stage.detail = "failed", "memcheck found errors (sanitizer.log)"
    else:
        stage.status = "ok" if not stage.failures else "failed"


STAGES: list[tuple[str, Callable[..., None]]] = [
    ("env", stage_env),
    ("warmup", stage_warmup),
    ("gpu-tests", stage_gpu_tests),
    ("node-suite", stage_node_suite),
    ("fixtures", stage_fixtures),
    ("benchmark", stage_benchmark),
    ("sanitizer", stage_sanitizer),
]


# Helpers ------------------------------------------------------------------


def _read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _timeout_plugin(check: Check) -> tuple[int, ...]:
    """pytest-timeout's version, () where it is not installed."""
    done = subprocess.run(
        [
            check.python,
            "-c",
            "from importlib.metadata import version as v; print(v('pytest-timeout'))",
        ],
        env=check.env,
        capture_output=True,
        text=True,
    )
    numbers = re.findall(r"\d+", done.stdout)[:2] if done.returncode == 0 else []
    return tuple(int(n) for n in numbers)


def _pytest(check: Check, junit: Path, per_test: int, session: float) -> list[str]:
    """pytest, verbose (one line per case: counts survive a killed run), each
    case limited to `per_test` s (a hung one ends its process: the thread
    method), the session to `session` s, so that it ends and writes its junit
    xml before the stage's own limit kills it."""
    argv = [check.python, "-m", "pytest", "-v", "-p", "no:cacheprovider"]
    argv += ["-o", "addopts=", "-W", "ignore::DeprecationWarning"]
    argv += ["-o", "console_output_style=classic", f"--junitxml={junit}"]
    plugin = _timeout_plugin(check)
    if plugin:
        argv += [f"--timeout={per_test}", "--timeout-method=thread"]
    if plugin >= (2, 3):
        argv.append(f"--session-timeout={max(10, int(session))}")
    return argv


def _collect(
    check: Check, env: dict[str, str], timeout: float, args: list[str]
) -> list[str]:
    """The node ids pytest collects for `args` (a timeout collects none)."""
    listing = check.logs / "collected.txt"
    argv = [check.python, "-m", "pytest", "--collect-only", "-q"]
    argv += ["-p", "no:cacheprovider", "-o", "addopts=", *args]
    check.run(argv, listing, timeout, env)
    return [line for line in listing.read_text().splitlines() if "::" in line]


VERBOSE_RESULT = re.compile(
    r"(?:(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+::\S+)"
    r"|(\S+::\S+) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS))"
)
"""One case's line of `pytest -v`, with or without pytest-xdist."""
KINDS = {
    "PASSED": "passed",
    "XPASS": "passed",
    "FAILED": "failed",
    "ERROR": "errors",
    "SKIPPED": "skipped",
    "XFAIL": "xfailed",
}


def _pytest_result(stage: Stage, code: int | None, junit: Path, log: Path) -> None:
    """Counts from the junit xml (a crashed worker's case counts as failed);
    from the verbose log where a killed run left no xml."""
    counts = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0, "xfailed": 0}
    failures: list[str] = []
    try:
        root = ElementTree.parse(junit).getroot()
    except (OSError, ElementTree.ParseError):
        root = None
    for case in root.iter("testcase") if root is not None else ():
        name = case.get("name", "?")
        for kind, tag in (("failed", "failure"), ("errors", "error")):
            found = case.find(tag)
            if found is not None:
                counts[kind] += 1
                why = (found.get("message") or "").strip().splitlines()[:1]
                failures.append(f"{name}: {why[0][:160]}" if why else name)
                break
        else:
            skip = case.find("skipped")
            if skip is not None:
                xfail = skip.get("type") == "pytest.xfail"
                counts["xfailed" if xfail else "skipped"] += 1
            else:
                counts["passed"] += 1
    text = log.read_text(errors="replace") if log.exists() else ""
    if root is None:
        for match in VERBOSE_RESULT.finditer(text):
            kind = KINDS[match.group(1) or match.group(4)]
            counts[kind] += 1
            if kind in ("failed", "errors"):
                failures.append((match.group(2) or match.group(3)).split("::")[-1])
    stage.counts = counts
    stage.failures = failures[:30]
    if code is None or re.search(r"session-timeout: \S+ sec exceeded", text):
        stage.status = "timeout"
        stage.detail = "ran out of time: the counts are of the cases that ran"
    elif root is None:
        stage.status = "error"
        stage.detail = f"pytest exit {code}, no junit xml"
    elif code in (0, 5) and not failures:
        stage.status = "ok"
    else:
        stage.status = "failed"


def _find_sanitizer() -> str | None:
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    for path in sorted(glob.glob("/usr/local/cuda*/bin/compute-sanitizer")):
        return path
    return None


def _xhip_run(check: Check, model: str, args: list[str]) -> list[str]:
    """`xhip run MODEL --device cuda --check ARGS`; the dry run's goes through
    `_emulated-cli`, the same command line with the CUDA runtime on the stand-in."""
    cli = [str(THIS), "_emulated-cli"] if check.dry_run else ["-m", "xhip.cli"]
    return [check.python, *cli, "run", model, "--device", "cuda", "--check", *args]


def _commit() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "diff", "--quiet"], cwd=REPO, timeout=30
        ).returncode
    except (OSError, subprocess.SubprocessError):
        return "?"
    if not head:
        return "? (no git here)"
    return head + (" (modified tree)" if dirty else "")


# The report -----------------------------------------------------------------


def write_report(check: Check, stages: list[Stage], out: Path, total: float) -> None:
    env = _read_json(check.logs / "env.json")
    summary = {
        "mode": "dry-run" if check.dry_run else "device",
        "quick": check.quick,
        "commit": _commit(),
        "started": env.get("started", ""),
        "seconds": round(total, 1),
        "device": env.get("device", "none"),
        "python": env.get("python", ""),
        "load_average": env.get("load_average", []),
        "stages": [
            {
                "name": s.name,
                "status": s.status,
                "seconds": round(s.seconds, 1),
                "limit": round(s.limit),
                "counts": s.counts,
                "detail": s.detail,
                "failures": s.failures,
            }
            for s in stages
        ],
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    lines = [
        f"# xhip GPU device check ({summary['mode']}{', quick' if check.quick else ''})",
        "",
        f"- device: {summary['device']}",
        f"- python: {summary['python']}; commit {summary['commit']}",
        f"- total: {total:.0f} s; load average at the start: {summary['load_average']}",
        "",
        "| stage | status | seconds | limit | counts | detail |",
        "| --- | --- | ---: | ---: | --- | --- |",
    ]
    for s in stages:
        counts = ", ".join(f"{k} {v}" for k, v in s.counts.items() if v)
        detail = s.detail.replace("|", "/")
        lines.append(
            f"| {s.name} | {s.status} | {s.seconds:.0f} | {s.limit:.0f} | {counts} | {detail} |"
        )
    for s in stages:
        if s.failures:
            lines += ["", f"## {s.name}: what failed", ""]
            lines += [f"- `{f}`" for f in s.failures]
    bench = check.logs / "benchmark.md"
    if bench.exists():
        lines += ["", "## Benchmark", "", bench.read_text().rstrip()]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    for name in ("benchmark.json", "benchmark.md"):
        if (check.logs / name).exists():
            shutil.copy(check.logs / name, out / name)
    with tarfile.open(out / "logs.tar.gz", "w:gz") as tar:
        tar.add(check.logs, arcname="logs")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--dry-run", action="store_true", help="the emulated device stands in"
    )
    parser.add_argument(
        "--quick", action="store_true", help="a short form of every stage"
    )
    parser.add_argument("--out", default=os.environ.get("OUT") or "gpu-check-out")
    parser.add_argument(
        "--wheels",
        choices=("auto", "yes", "no"),
        default="auto",
        help="install .whl/ (auto: when it holds wheels)",
    )
    parser.add_argument("--budget", type=float, help="seconds for all stages")
    parser.add_argument(
        "--jobs", type=int, help="parallel workers (default: from the cpus)"
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 unless every stage is ok"
    )
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args(argv)

    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    for old in (
        "summary.json",
        "report.md",
        "logs.tar.gz",
        "benchmark.json",
        "benchmark.md",
    ):
        (out / old).unlink(missing_ok=True)
    work = Path(tempfile.mkdtemp(prefix="xhip-gpu-check-"))
    (work / "logs").mkdir()
    env = {k: v for k, v in os.environ.items() if k != "XHIP_REAL_DEVICE"}
    env.update(
        PYTHONPATH=os.pathsep.join(
            p
            for p in (str(work / "site"), str(REPO), os.environ.get("PYTHONPATH", ""))
            if p
        ),
        # A cache the caller names is kept (CI: the emulator tests' own);
        # else a fresh one, so that the warm-up times the cold compile.
        CUPY_CACHE_DIR=os.environ.get("CUPY_CACHE_DIR") or str(work / "cupy-cache"),
        XHIP_EMULATOR_CACHE=os.environ.get("XHIP_EMULATOR_CACHE")
        or str(work / "emulator-cache"),
        PYTHONUNBUFFERED="1",
        PYTHONDONTWRITEBYTECODE="1",
    )
    carried_seed = REPO / ".whl" / "seed"
    if "XHIP_SEED" not in os.environ and not (REPO.parent / "shared" / "seed").is_dir():
        if carried_seed.is_dir():  # scripts/gpu-wheels.sh put it there
            env["XHIP_SEED"] = str(carried_seed)
    cpus = os.cpu_count() or 2
    budget = args.budget or (570.0 if args.dry_run else 480.0)
    if args.quick and not args.budget:
        budget /= 2
    check = Check(
        dry_run=args.dry_run,
        quick=args.quick,
        python=sys.executable,
        work=work,
        env=env,
        deadline=time.monotonic() + budget,
        jobs=args.jobs or max(1, min(12, cpus - 2 if cpus > 4 else cpus)),
    )
    begin = time.monotonic()
    stages: list[Stage] = []
    for index, (name, run) in enumerate(STAGES):
        check.remaining_stages = len(STAGES) - index - 1
        stage = Stage(name, limit=check.limit(name))
        print(f"[gpu-check] {name} (limit {stage.limit:.0f}s) ...", flush=True)
        start = time.monotonic()
        try:
            run(check, stage, args.wheels) if name == "env" else run(check, stage)
        except Exception as e:  # a stage's own bug must not stop the others
            stage.status, stage.detail = "error", f"{type(e).__name__}: {e}"
        stage.seconds = time.monotonic() - start
        stages.append(stage)
        print(
            f"[gpu-check] {name}: {stage.status} in {stage.seconds:.0f}s "
            f"{stage.counts or ''} {stage.detail}",
            flush=True,
        )
    total = time.monotonic() - begin
    write_report(check, stages, out, total)
    files = [p for p in out.iterdir()]
    print(f"[gpu-check] {total:.0f}s; {len(files)} files in {out}", flush=True)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"[gpu-check] work folder kept: {work}")
    if len(files) > MAX_OUT_FILES:
        print(f"[gpu-check] {out} holds {len(files)} files, more than {MAX_OUT_FILES}")
        return 1
    if args.strict and any(s.status != "ok" for s in stages):
        return 1
    return 0


# Inside the stages (xhip and its dependencies import from here on) ----------


def _sub_parser(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=2)
    return parser.parse_args(argv)


def _version(name: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "-"


def _tool(argv: list[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as e:
        return f"not available ({type(e).__name__})"
    return (done.stdout + done.stderr).strip()


def sub_env(argv: Sequence[str]) -> int:
    """Prints the machine and writes env.json: what every later stage relies on."""
    args = _sub_parser(argv)
    report: dict[str, Any] = {
        "started": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"
        ),
        "python": f"{platform.python_version()} ({sys.executable})",
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "packages": {
            name: _version(name)
            for name in (
                "xdsl",
                "numpy",
                "onnx",
                "onnxruntime",
                "cupy-cuda13x",
                "cupy-cuda12x",
                "torch",
                "pytest",
                "pytest-xdist",
                "pytest-timeout",
            )
        },
        "compute_sanitizer": _find_sanitizer() or "-",
    }
    import xdsl

    report["xdsl_from"] = str(Path(xdsl.__file__).parent)
    print(_tool(["nvidia-smi"]))
    print(_tool(["nvcc", "--version"]))
    report["device"], report["device_problem"] = _device_report(args.dry_run)
    (args.out / "env.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))
    return 0


def _device_report(dry_run: bool) -> tuple[str, str]:
    """The GPU in words, and the one line naming what is missing, if anything."""
    if dry_run:
        return "CPU stand-in of the CUDA device API (xhip.testing.emulator)", ""
    try:
        import cupy  # pyright: ignore[reportMissingImports]
    except ImportError as e:
        return "none", f"CuPy does not import ({e})".splitlines()[0]
    try:
        count = cupy.cuda.runtime.getDeviceCount()
        props = cupy.cuda.runtime.getDeviceProperties(0)
    except Exception as e:  # CUDARuntimeError, missing driver
        return "none", f"no usable CUDA device or driver ({e})".splitlines()[0]
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    device = (
        f"{count} x {name}, sm_{props['major']}{props['minor']}, "
        f"{props['totalGlobalMem'] >> 20} MiB, CUDA runtime "
        f"{cupy.cuda.runtime.runtimeGetVersion()}, driver "
        f"{cupy.cuda.runtime.driverGetVersion()}, NVRTC {cupy.cuda.nvrtc.getVersion()}"
    )
    try:
        from cupy.cuda import cublas  # pyright: ignore[reportMissingImports]  # noqa: F401
    except ImportError as e:
        return device, f"cuBLAS does not load ({e})".splitlines()[0]
    return device, ""


def _emulated_kernels() -> Any:
    from xhip.backend.gpu import kernel_source
    from xhip.testing.emulator import EmulatedKernels

    return EmulatedKernels(kernel_source(), "xhip_kernels.h")


def sub_warmup(argv: Sequence[str]) -> int:
    """The kernel source compiled cold, then loaded again from the cache that
    every later process shares; both timed."""
    args = _sub_parser(argv)
    if args.dry_run:
        compiler, cache = "g++ (emulator)", Path(os.environ["XHIP_EMULATOR_CACHE"])
        start = time.monotonic()
        _emulated_kernels()
        cold = time.monotonic() - start
        start = time.monotonic()
        _emulated_kernels()
        warm = time.monotonic() - start
    else:
        from xhip.backend.cuda import CudaRuntime

        compiler, cache = "NVRTC (CuPy RawModule)", Path(os.environ["CUPY_CACHE_DIR"])
        start = time.monotonic()
        CudaRuntime().close()
        cold = time.monotonic() - start
        start = time.monotonic()
        CudaRuntime().close()
        warm = time.monotonic() - start
    files = sum(1 for p in cache.rglob("*") if p.is_file()) if cache.exists() else 0
    report = {
        "compiler": compiler,
        "cold_s": cold,
        "warm_s": warm,
        "cache": f"{cache} ({files} files)",
    }
    (args.out / "warmup.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))
    return 0 if files else 1


def _fixture_runs(quick: bool, folder: Path) -> list[tuple[str, str, list[str]]]:
    """(name, model, the inputs' command-line args) of every committed model
    at its own inputs: the fixtures' .npz (written out as .npy), the seed
    example at ATTENTION_DIMS."""
    import numpy as np
    import onnx

    runs: list[tuple[str, str, list[str]]] = [
        ("attention", "examples/attention.onnx", ["--dims", ATTENTION_DIMS])
    ]
    folder.mkdir(exist_ok=True)
    for model in sorted(FIXTURES.glob("*.onnx")):
        name = model.name.removesuffix(".onnx")
        inputs = [
            v.name for v in onnx.load(str(model), load_external_data=False).graph.input
        ]
        args: list[str] = []
        with np.load(model.with_suffix(".npz")) as saved:
            for key in inputs:
                path = folder / f"{name}.{key}.npy"
                np.save(path, saved[key])
                args += ["--input", f"{key}={path}"]
        runs.append((name, str(model.relative_to(REPO)), args))
    return runs[:2] if quick else runs


def sub_fixtures(argv: Sequence[str]) -> int:
    """Each model in its own process (`--jobs` at a time), each with its own
    timeout; fixtures.json holds one row per model."""
    args = _sub_parser(argv)
    check = Check(
        args.dry_run, args.quick, sys.executable, args.out.parent, dict(os.environ), 0.0
    )
    per_model = 60.0 if args.dry_run else 40.0
    pending = _fixture_runs(args.quick, args.out.parent / "fixture-inputs")
    running: list[tuple[str, subprocess.Popen[bytes], float, Path]] = []
    rows: list[dict[str, Any]] = []
    while pending or running:
        while pending and len(running) < args.jobs:
            name, model, inputs = pending.pop(0)
            log = args.out / f"fixture-{name}.log"
            argv_ = _xhip_run(check, model, inputs)
            out = open(log, "wb")  # noqa: SIM115 (closed with its process)
            out.write(f"$ {' '.join(argv_)}\n".encode())
            out.flush()
            process = subprocess.Popen(
                argv_,
                cwd=REPO,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
            out.close()
            running.append((name, process, time.monotonic(), log))
        time.sleep(0.2)
        for item in list(running):
            name, process, began, log = item
            code = process.poll()
            seconds = time.monotonic() - began
            if code is None and seconds < per_model:
                continue
            if code is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            running.remove(item)
            text = log.read_text(errors="replace")
            errors = re.findall(r"check (\S+): max abs error (\S+)", text)
            status = "timeout" if code is None else "ok" if code == 0 else "failed"
            last = [ln for ln in text.splitlines() if ln.strip()][-1:] or [""]
            detail = "" if status == "ok" else last[0][:200]
            rows.append(
                {
                    "name": name,
                    "status": status,
                    "seconds": round(seconds, 1),
                    "max_abs_error": {k: float(v) for k, v in errors},
                    "detail": detail,
                }
            )
            print(f"{name}: {status} in {seconds:.1f}s {detail}", flush=True)
    rows.sort(key=lambda r: r["name"])
    (args.out / "fixtures.json").write_text(json.dumps({"models": rows}, indent=1))
    return 0


def sub_emulated_cli(argv: Sequence[str]) -> int:
    """`xhip ARGV` with `--device cuda` on the CPU stand-in of CuPy: the CLI
    path of the real run, only the device API swapped."""
    import xhip.backend as backend
    from xhip.backend.cuda import CudaRuntime
    from xhip.cli import main as cli_main
    from xhip.testing.emulator import EmulatedDevice

    real = backend.runtime_for
    kernels = _emulated_kernels()

    def runtime_for(
        device: str = "cpu", debug: bool = False, notes: Any = None, graphs: bool = True
    ) -> Any:
        if device != "cuda":
            return real(device, debug, notes, graphs)
        emulated = EmulatedDevice(32, kernels=kernels, runtime="cuda")
        return CudaRuntime(debug=debug, device=emulated, graphs=graphs)

    backend.runtime_for = runtime_for
    return cli_main(list(argv))


SUBCOMMANDS: dict[str, Callable[[Sequence[str]], int]] = {
    "_env": sub_env,
    "_warmup": sub_warmup,
    "_fixtures": sub_fixtures,
    "_emulated-cli": sub_emulated_cli,
}

if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in SUBCOMMANDS:
        sys.exit(SUBCOMMANDS[sys.argv[1]](sys.argv[2:]))
    sys.exit(main())
