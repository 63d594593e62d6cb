"""The device check (scripts/gpu-check.sh, docs/gpu.md) in its short dry run, so
the script cannot rot between the rare GPU machines; and the one-line messages
of a GPU machine that lacks CuPy, cuBLAS, the CUDA headers or a driver, each
planted as a stand-in `cupy` package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pytest.conftest import REPO
from xhip.testing.emulator.build import cache_dir

STAGES = [
    "env",
    "warmup",
    "gpu-tests",
    "node-suite",
    "fixtures",
    "benchmark",
    "sanitizer",
]


@pytest.mark.slow
@pytest.mark.emulator
def test_quick_dry_run_runs_every_stage(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = dict(os.environ, OUT=str(out), XHIP_EMULATOR_CACHE=str(cache_dir()))
    env.pop("XHIP_REAL_DEVICE", None)
    done = subprocess.run(
        ["bash", "scripts/gpu-check.sh", "--dry-run", "--quick", "--strict"]
        + ["--wheels", "no", "--python", sys.executable],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    files = sorted(p.name for p in out.iterdir())
    assert len(files) <= 7, files
    assert {"summary.json", "report.md", "logs.tar.gz"} <= set(files)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["mode"] == "dry-run"
    assert [s["name"] for s in summary["stages"]] == STAGES
    assert all(s["status"] == "ok" for s in summary["stages"]), summary["stages"]
    counts = {s["name"]: s["counts"] for s in summary["stages"]}
    assert counts["node-suite"]["passed"] > 0
    assert counts["fixtures"]["passed"] == counts["fixtures"]["models"] > 0
    assert counts["benchmark"]["timed"] > 0


FAKE_CUDA = """
def getDeviceCount():
    {count}

def runtimeGetVersion():
    return 13000
"""
FAKE_CUPY = """
from cupy import cuda

class RawModule:
    def __init__(self, code, options=()):
        pass

    def get_function(self, name):
        {get_function}
"""
PLANTED = {
    "cupy": "libcudart.so.13: cannot open shared object file (planted)",
    "driver": "cudaErrorInsufficientDriver: CUDA driver version is insufficient (planted)",
    "cublas": "libcublas.so.13: cannot open shared object file (planted)",
    "headers": "cannot open source file cuda_fp16.h: the CUDA headers (planted)",
}


def _plant(root: Path, missing: str) -> Path:
    """A `cupy` package that fails as a machine without `missing` would."""
    package = root / "cupy"
    (package / "cuda").mkdir(parents=True)
    if missing == "cupy":
        (package / "__init__.py").write_text(
            f"raise ImportError({PLANTED['cupy']!r})\n"
        )
        return root
    raise_it = "raise RuntimeError({!r})"
    (package / "__init__.py").write_text(
        FAKE_CUPY.format(
            get_function=raise_it.format(PLANTED["headers"])
            if missing == "headers"
            else "return object()"
        )
    )
    runtime = FAKE_CUDA.format(
        count=raise_it.format(PLANTED["driver"]) if missing == "driver" else "return 1"
    )
    (package / "cuda" / "__init__.py").write_text(
        "from cupy.cuda import runtime, nvrtc\n"
    )
    (package / "cuda" / "runtime.py").write_text(runtime)
    (package / "cuda" / "nvrtc.py").write_text(
        "def getVersion():\n    return (13, 0)\n"
    )
    cublas = (
        f"raise ImportError({PLANTED['cublas']!r})\n" if missing == "cublas" else ""
    )
    (package / "cuda" / "cublas.py").write_text(cublas)
    return root


def _env(fake: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join([str(fake), str(REPO)])
    env.pop("XHIP_TRACEBACK", None)
    return env


@pytest.mark.parametrize(
    "missing",
    [
        "cupy",
        "driver",
        "cublas",
        "headers",
    ],
)
def test_xhip_run_on_cuda_says_what_is_missing_in_one_line(
    tmp_path: Path, missing: str
) -> None:
    fake = _plant(tmp_path / "fake", missing)
    done = subprocess.run(
        [sys.executable, "-m", "xhip.cli", "run", str(REPO / "examples/attention.onnx")]
        + ["--device", "cuda", "--dims", "batch=1,seq=2"],
        env=_env(fake),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("xhip run: error: --device cuda: "), lines[0]
    assert PLANTED[missing].split(":")[0] in lines[0]


@pytest.mark.slow
@pytest.mark.parametrize("missing", ["cublas", "headers"])
def test_real_device_switch_fails_each_case_in_one_line(
    tmp_path: Path, missing: str
) -> None:
    """XHIP_REAL_DEVICE=cuda on a machine whose CUDA is incomplete: each node
    case fails with the library's message, no traceback."""
    fake = _plant(tmp_path / "fake", missing)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider"]
        + ["tests/pytest/emulator/test_node_suite.py", "-k", "cuda-real and test_abs"],
        cwd=REPO,
        env=_env(fake, XHIP_REAL_DEVICE="cuda"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    assert "XHIP_REAL_DEVICE=cuda: --device cuda: " in done.stdout
    assert PLANTED[missing] in done.stdout
    assert "Traceback" not in done.stdout
    assert " passed" not in done.stdout


def test_a_sticky_device_error_ends_the_worker_and_names_the_case() -> None:
    """After each case on a real device, `make_gpu` synchronizes: an error
    there (sticky: every later call of the process would fail) ends the
    process, whose case pytest-xdist then reports as crashed."""
    code = """
import tests.pytest.emulator.conftest as conftest

class Device:
    def synchronize(self):
        raise RuntimeError("cudaErrorIllegalAddress: illegal memory access (planted)")

class Runtime:
    device = Device()

conftest._end_worker_if_sticky([Runtime()], "test_node[cuda-real-test_x]")
print("still running")
"""
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=_env(REPO),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 70, done.stderr
    assert (
        "sticky device error after test_node[cuda-real-test_x]: "
        "cudaErrorIllegalAddress" in done.stderr
    )
    assert "still running" not in done.stdout


def test_the_source_tree_registers_its_passes_without_an_install(
    tmp_path: Path,
) -> None:
    """On the device xhip is on PYTHONPATH, not installed: the check writes a
    dist-info whose `xdsl.universe` entry point is pyproject.toml's, so xDSL
    finds xhip's passes (without it every compile stopped at a KeyError)."""
    import importlib.metadata
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "xhip_gpu_check", REPO / "scripts" / "gpu_check.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        module.register_source_tree(tmp_path)
    finally:
        del sys.modules[spec.name]
    (dist,) = importlib.metadata.distributions(path=[str(tmp_path)])
    assert dist.metadata["Name"] == "xhip"
    (entry,) = dist.entry_points.select(group="xdsl.universe")
    assert (entry.name, entry.value) == ("xhip", "xhip.universe:XHIP_UNIVERSE")
