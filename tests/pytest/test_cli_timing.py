"""`xhip compile --timing`: every step of the compile timed, the IR unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pytest.frontend.models import ATTENTION_ONNX
from xhip.cli import main
from xhip.pipeline import onnx_to_hip_passes


def test_timing_names_every_pass_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, timed = tmp_path / "plain.mlir", tmp_path / "timed.mlir"
    assert main(["compile", str(ATTENTION_ONNX), "-o", str(plain), "-q"]) == 0
    capsys.readouterr()
    assert main(["compile", str(ATTENTION_ONNX), "-o", str(timed), "--timing"]) == 0
    err = capsys.readouterr().err
    assert timed.read_text() == plain.read_text()
    lines = err.strip().splitlines()
    assert lines[0].split() == ["wall", "s", "cpu", "s", "cpu", "%", "step"]
    steps = [line.split("%", 1)[1].strip() for line in lines[1:-2]]
    names = [p.name for p in onnx_to_hip_passes()]
    assert steps == [
        "load onnx",
        *(f"#{i} {name}" for i, name in enumerate(names, 1)),
        "verify",
        "print",
    ]
    assert lines[-2].endswith("100.0%  total")
    wall, cpu = (float(x) for x in lines[-2].split()[:2])
    rows = [line.split() for line in lines[1:-2]]
    assert wall == pytest.approx(sum(float(r[0]) for r in rows), abs=1e-3)
    assert cpu == pytest.approx(sum(float(r[1]) for r in rows), abs=1e-3)
    assert "whole process" in lines[-1]


def test_without_timing_nothing_is_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.mlir"
    assert main(["compile", str(ATTENTION_ONNX), "-o", str(out), "-q"]) == 0
    assert capsys.readouterr().err == ""
