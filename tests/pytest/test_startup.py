"""What `import xhip`, `xhip --help` and a compile import, counted, not timed.

Start-up time is made of imports: `import xhip` must do no work, the command
line's help must not load xDSL, onnx, numpy or a pass, and a compile must not
load a runtime, ONNX Runtime or a GPU library. Each check runs a fresh
interpreter and reads `sys.modules`, so a loaded machine cannot fail it; the
times are in docs/benchmarks.md ("Start-up"). A compile or import ends its
process with `os._exit` once its output is flushed (`xhip.cli.exit_now`): the
last tests run the real command and check that nothing written is lost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MODEL = REPO / "examples" / "attention.onnx"

_REPORT = "import json, sys; print(json.dumps(sorted(sys.modules)))"


def imported(code: str) -> set[str]:
    """The modules a fresh interpreter holds after `code`, less the ones it
    holds after doing nothing (site, the editable-install finder)."""

    def modules(body: str) -> set[str]:
        out = subprocess.run(
            [sys.executable, "-c", f"{body}\n{_REPORT}"],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        ).stdout
        return set(json.loads(out.strip().splitlines()[-1]))

    return modules(code) - modules("pass")


def packages(modules: set[str]) -> set[str]:
    """The top-level packages among `modules` that are not the standard library."""
    return {m.split(".")[0] for m in modules} - set(sys.stdlib_module_names)


HEAVY = ("xdsl", "onnx", "onnxruntime", "cupy", "hip", "cuda", "numba", "torch")
"""Packages the light paths must not import."""


def test_import_xhip_does_no_work() -> None:
    mods = imported("import xhip")
    assert mods & {m for m in mods if m.startswith("xhip")} == {"xhip"}
    assert packages(mods) == {"xhip"}, sorted(mods)


@pytest.mark.parametrize(
    "argv", [["--help"], ["compile", "--help"], ["run", "--help"], ["import", "--help"]]
)
def test_help_imports_no_compiler(argv: list[str]) -> None:
    mods = imported(
        "import contextlib, io\n"
        "from xhip.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({argv!r})"
    )
    assert packages(mods) == {"xhip"}, sorted(packages(mods))
    ours = {m for m in mods if m.startswith("xhip.")}
    assert not {m for m in ours if m.startswith(("xhip.dialects", "xhip.transforms"))}
    assert not {m for m in ours if m.startswith(("xhip.frontend", "xhip.pipeline"))}
    # The command line itself, the file names, progress, the runtime's
    # memory sizes (`--max-memory`) and the dataclass code cache: nothing else.
    assert len(ours) <= 11, sorted(ours)


def test_compile_loads_no_runtime(tmp_path: Path) -> None:
    out = tmp_path / "model.mlir"
    mods = imported(
        "from xhip.cli import main\n"
        f"assert main(['compile', {str(MODEL)!r}, '-o', {str(out)!r}]) == 0"
    )
    assert out.exists()
    assert {"xdsl", "onnx", "xhip"} <= packages(mods)
    assert not packages(mods) & {"onnxruntime", "cupy", "hip", "cuda", "numba"}
    assert "xhip.backend.cpu" not in mods and "xhip.backend.interpreter" not in mods


def test_compile_loads_the_families_its_model_uses(tmp_path: Path) -> None:
    """The attention model (MatMul, Transpose, Mul, Softmax and constants)
    loads the op families and pattern modules those need, not the dialects'
    other 50 (`xhip.dialects.families`, `xhip.transforms.onnx_to_hip`), and
    the op classes compile their assembly formats only when printed."""
    out = tmp_path / "model.mlir"
    mods = imported(
        "from xhip.cli import main\n"
        f"assert main(['compile', {str(MODEL)!r}, '-o', {str(out)!r}]) == 0\n"
        "from xdsl.dialects import arith\n"
        "assert 'deferred' in arith.AddiOp.print.__qualname__"
    )

    def loaded(package: str) -> set[str]:
        return {m.removeprefix(package) for m in mods if m.startswith(package)}

    assert loaded("xhip.dialects.hip.") == {
        *("base", "matmul", "elementwise", "movement", "reduce"),
    }
    assert loaded("xhip.dialects.onnx.") == {"base", "constants", "compute", "shapes"}
    assert loaded("xhip.transforms.onnx_to_hip.") == {
        *("converter_index", "support", "constants", "shapes", "compute", "compose"),
    }


def xhip_process(
    *argv: str, cwd: Path = REPO, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The installed `xhip` command, stdout and stderr pipes, block-buffered
    (no PYTHONUNBUFFERED): what an `os._exit` without a flush would lose."""
    drop = ("COV", "PYTHONUNBUFFERED")
    return subprocess.run(
        [str(Path(sys.executable).with_name("xhip")), *argv],
        capture_output=True,
        text=True,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith(drop)},
            **(env or {}),
        },
        cwd=cwd,
        check=False,
    )


def test_the_command_installs_the_dataclass_code_cache() -> None:
    """`xhip.cli` (both commands' package) reuses compiled dataclass methods;
    a library's `import xhip` leaves `dataclasses` as it is."""
    check = "import dataclasses, sys; print('exec' in vars(dataclasses))"
    for module, installed in (("xhip.cli", "True"), ("xhip", "False")):
        out = subprocess.run(
            [sys.executable, "-c", f"import {module}; {check}"],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        ).stdout
        assert out.strip() == installed, module


def test_a_second_compile_compiles_no_dataclass_method(tmp_path: Path) -> None:
    """The first `xhip compile` writes the methods it compiled where Python
    writes bytecode (here under `PYTHONPYCACHEPREFIX`); the second finds them
    all there, writes nothing and prints the same IR."""
    # An empty PYTHONDONTWRITEBYTECODE is unset: the file may be written.
    env = {
        "PYTHONPYCACHEPREFIX": str(tmp_path / "pycache"),
        "PYTHONDONTWRITEBYTECODE": "",
    }
    outputs: list[str] = []
    stamps: list[tuple[int, int]] = []
    for run in ("first", "second"):
        out = tmp_path / f"{run}.mlir"
        result = xhip_process("compile", str(MODEL), "-o", str(out), env=env)
        assert result.returncode == 0, result.stderr
        outputs.append(out.read_text())
        found = list((tmp_path / "pycache").rglob("dataclass-methods.*.marshal"))
        assert len(found) == 1, found
        stamps.append((found[0].stat().st_mtime_ns, found[0].stat().st_ino))
    assert outputs[0] == outputs[1]
    assert stamps[0] == stamps[1]


def test_compile_process_flushes_stdout(tmp_path: Path) -> None:
    """The IR written to a pipe is whole, and the same as written to a file."""
    to_file = xhip_process("compile", str(MODEL), "-o", str(tmp_path / "out.mlir"))
    assert (to_file.returncode, to_file.stdout, to_file.stderr) == (0, "", "")
    to_pipe = xhip_process("compile", str(MODEL), cwd=tmp_path)
    assert to_pipe.returncode == 0, to_pipe.stderr
    assert to_pipe.stdout == (tmp_path / "out.mlir").read_text()
    assert to_pipe.stdout.rstrip().endswith("}")
    assert (tmp_path / "model.constants.bin").stat().st_size > 0
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_import_process_flushes_stdout(tmp_path: Path) -> None:
    to_file = xhip_process("import", str(MODEL), "-o", str(tmp_path / "in.mlir"))
    assert to_file.returncode == 0, to_file.stderr
    to_pipe = xhip_process("import", str(MODEL))
    assert to_pipe.returncode == 0, to_pipe.stderr
    assert to_pipe.stdout == (tmp_path / "in.mlir").read_text()


def test_failing_compile_process_reports_and_exits_1(tmp_path: Path) -> None:
    """An error's line reaches a piped stderr before the process ends."""
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x00\x01garbage")
    result = xhip_process("compile", str(bad), "-o", str(tmp_path / "out.mlir"))
    assert result.returncode == 1
    assert result.stderr.startswith(f"xhip compile: error: {bad}: ")
    assert result.stderr.endswith("\n") and "Traceback" not in result.stderr
    assert not (tmp_path / "out.mlir").exists()
