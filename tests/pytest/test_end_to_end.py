"""The issues' end-to-end promises, on a real `.onnx` file and the installed command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

from tests.pytest.conftest import REPO, STAGES
from tests.pytest.test_pipeline import pool_stage_difference
from xhip.testing import parse_module

XHIP = str(Path(sys.executable).with_name("xhip"))
EXAMPLE = REPO / "examples" / "attention.py"


def test_compile_example_gives_the_seeds_final_ir(tmp_path: Path):
    """`xhip compile examples/attention.onnx`: the seed's last stage and real weights."""
    model_path = tmp_path / "attention.onnx"
    subprocess.run(
        [sys.executable, str(EXAMPLE), "-o", str(model_path), "--seed", "7"],
        check=True,
        capture_output=True,
    )
    out = tmp_path / "attention.hip.mlir"
    done = subprocess.run(
        [XHIP, "compile", str(model_path), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seed_final = (
        STAGES / "after-pass-21-hip-resolve-extern-constants.mlir"
    ).read_text()
    # Equal to the seed up to SSA names, the pool arithmetic compared by its values.
    assert (
        pool_stage_difference(parse_module(out.read_text()), parse_module(seed_final))
        is None
    )

    # The blob holds the model's own weights, at the offsets the seed's IR states.
    blob = (tmp_path / "model.constants.bin").read_bytes()
    weights = {
        init.name: numpy_helper.to_array(init)
        for init in onnx.load(str(model_path)).graph.initializer
    }
    for offset, name in ((0, "w_q"), (16384, "w_k"), (32768, "w_v")):
        stored = np.frombuffer(blob, np.float32, 64 * 64, offset).reshape(64, 64)
        np.testing.assert_array_equal(stored, weights[name])


def test_run_example_checks_against_onnx_runtime(tmp_path: Path):
    """The README's main job, minus the set-up: compile, run on the CPU, --check."""
    model_path = tmp_path / "attention.onnx"
    subprocess.run(
        [sys.executable, str(EXAMPLE), "-o", str(model_path)],
        check=True,
        capture_output=True,
    )
    done = subprocess.run(
        [XHIP, "run", str(model_path), "--dims", "batch=3,seq=17", "--check"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "out: float32[3, 17, 64]" in done.stdout
    assert "ok" in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["attention.onnx"]
