"""Plain `xdsl-opt` parses, verifies and prints every seed stage; its output re-parses
to a structurally equal module."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

from tests.pytest.conftest import STAGES
from xhip.testing import parse_module

STAGE_FILES = sorted(STAGES.glob("after-pass-*.mlir"))
XDSL_OPT = str(Path(sys.executable).with_name("xdsl-opt"))


def stage_as_module(path: Path) -> str:
    """The stage's text; a function-only stage goes into the module printed before it."""
    text = path.read_text()
    if text.lstrip().startswith("module"):
        return text
    previous = STAGE_FILES[STAGE_FILES.index(path) - 1]
    module = stage_as_module(previous)
    start = module.index("  func.func @main_graph")
    end = module.rindex("  }\n}") + len("  }\n")
    body = "".join("  " + line + "\n" for line in text.rstrip("\n").splitlines())
    return module[:start] + body + module[end:]


def parse(text: str) -> ModuleOp:
    return parse_module(text)


def test_all_stages_present():
    assert len(STAGE_FILES) == 11, STAGE_FILES


@pytest.mark.parametrize("path", STAGE_FILES, ids=lambda p: p.stem)
def test_xdsl_opt_roundtrip(path: Path, tmp_path: Path):
    source = tmp_path / path.name
    source.write_text(stage_as_module(path))
    printed = subprocess.run(
        [XDSL_OPT, str(source)], capture_output=True, text=True, check=False
    )
    assert printed.returncode == 0, printed.stderr
    original, reparsed = parse(source.read_text()), parse(printed.stdout)
    reparsed.verify()
    assert original.is_structurally_equivalent(reparsed)
    # A second trip prints the same text: the custom formats are stable.
    again = subprocess.run(
        [XDSL_OPT], input=printed.stdout, capture_output=True, text=True, check=True
    )
    assert again.stdout == printed.stdout


@pytest.mark.parametrize("path", STAGE_FILES, ids=lambda p: p.stem)
def test_printed_ops_use_the_seeds_syntax(path: Path):
    """Every line of an op the seed prints in custom form reads the same after us,
    up to SSA names and the `func.return`/`builtin.module` spellings."""
    module = parse(stage_as_module(path))
    printed = str(module)

    def shape(line: str) -> str:
        line = re.sub(r"%[\w.]+", "%_", line.strip())
        return line.replace("func.return", "return")

    ours = {shape(line) for line in printed.splitlines()}
    for line in path.read_text().splitlines():
        if '"onnx.' in line or line.strip().startswith(("module", "}", "func.func")):
            continue
        assert shape(line) in ours, line
