"""Progress: the events of an import and a compile, and the terminal line."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import onnx

import xhip
from xhip.pipeline import onnx_to_hip_passes
from xhip.progress import (
    DELAY_ENV,
    ProgressEvent,
    TerminalProgress,
    terminal_progress,
)

REPO = Path(__file__).resolve().parents[2]
MODEL = REPO / "examples" / "attention.onnx"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_compile_reports_every_node_and_every_pass() -> None:
    events: list[ProgressEvent] = []
    xhip.compile_to_ir(MODEL, progress=events.append)
    nodes = [n.op_type for n in onnx.load(MODEL).graph.node]
    imported = [e for e in events if e.phase == "import" and e.total > 1]
    assert [e.step for e in imported] == nodes
    assert [e.done for e in imported] == list(range(len(nodes)))
    compiled = [e for e in events if e.phase == "compile"]
    names = [p.name for p in onnx_to_hip_passes()]
    assert [e.step for e in compiled] == [*names, "done"]
    assert [e.done for e in compiled] == list(range(len(names) + 1))
    assert {e.total for e in compiled} == {len(names)}
    # Import first, then the passes.
    assert events.index(compiled[0]) > events.index(imported[-1])


def test_describe() -> None:
    assert (
        ProgressEvent("compile", "cse", 10, 21).describe() == "compile: pass 11/21 cse"
    )
    assert ProgressEvent("import", "MatMul", 3, 8).describe() == "import: node 4/8 MatMul"
    assert (
        ProgressEvent("import", "inferring shapes", 0, 1).describe()
        == "import: inferring shapes"
    )


def test_terminal_line_appears_after_the_delay_and_is_cleared() -> None:
    stream = Terminal()
    with TerminalProgress(stream, delay=0.0, interval=0.01) as bar:
        bar(ProgressEvent("compile", "one-shot-bufferize", 2, 21))
    text = stream.getvalue()
    assert "xhip: compile: pass 3/21 one-shot-bufferize" in text
    assert text.endswith("\r\x1b[K")

    quiet = Terminal()
    with TerminalProgress(quiet, delay=3600.0, interval=0.01) as bar:
        bar(ProgressEvent("compile", "cse", 0, 21))
    assert quiet.getvalue() == ""


def test_silent_when_quiet_or_not_a_terminal() -> None:
    for stream, quiet in ((Terminal(), True), (io.StringIO(), False)):
        with terminal_progress(quiet, stream) as bar:
            bar(ProgressEvent("compile", "cse", 0, 21))
        assert stream.getvalue() == ""


def _compile_on_a_terminal(tmp_path: Path, *flags: str) -> str:
    """`xhip compile` with stderr on a pseudo-terminal; what it wrote there."""
    controller, terminal = pty.openpty()
    env = {**os.environ, DELAY_ENV: "0"}
    command = [sys.executable, "-m", "xhip.cli", "compile", str(MODEL)]
    process = subprocess.Popen(
        [*command, "-o", str(tmp_path / "out.mlir"), *flags],
        stderr=terminal,
        stdout=subprocess.DEVNULL,
        env=env,
    )
    os.close(terminal)
    chunks: list[bytes] = []
    while True:
        ready, _, _ = select.select([controller], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(controller)
    assert process.wait(60) == 0
    return b"".join(chunks).decode()


def test_cli_shows_progress_on_a_terminal_and_quiet_turns_it_off(
    tmp_path: Path,
) -> None:
    shown = _compile_on_a_terminal(tmp_path)
    assert "xhip: import: reading" in shown or "xhip: compile: pass" in shown
    assert shown.endswith("\r\x1b[K")
    assert _compile_on_a_terminal(tmp_path, "--quiet") == ""


def test_cli_is_silent_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "xhip.cli", "compile", str(MODEL)]
        + ["-o", str(tmp_path / "out.mlir")],
        capture_output=True,
        text=True,
        env={**os.environ, DELAY_ENV: "0"},
        check=True,
    )
    assert result.stderr == ""
