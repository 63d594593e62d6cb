"""The `xhip` command line: success paths, and every bad input as one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto

from tests.pytest.conftest import REPO
from tests.pytest.frontend.models import (
    ATTENTION_ONNX,
    relu_model,
    unsupported_model,
)
from xhip.cli import main
from xhip.context import make_context


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_user_error(code: int, err: str, *needles: str) -> None:
    """Exit 1, one line on stderr that says what and where, no traceback."""
    assert code == 1
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], lines[0]


def only_files(directory: Path) -> set[str]:
    """Everything in `directory`: no temporary or half-written leftovers."""
    return {p.name for p in directory.iterdir()}


def save(model: onnx.ModelProto, path: Path) -> Path:
    onnx.save(model, path)
    return path


# import


def test_import_writes_parseable_onnx_dialect(tmp_path: Path, capsys):
    out = tmp_path / "attention.mlir"
    code, stdout, err = run(capsys, "import", str(ATTENTION_ONNX), "-o", str(out))
    assert (code, stdout, err) == (0, "", "")
    text = out.read_text()
    assert '"onnx-mlir.symbol-postfix" = "attention_dynamic"' in text
    assert 'onnx_node_name = "softmax"' in text
    from xdsl.parser import Parser

    Parser(make_context(), text).parse_module().verify()
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask


def test_import_to_stdout(capsys):
    code, stdout, _ = run(capsys, "import", str(ATTENTION_ONNX))
    assert code == 0
    assert stdout.startswith("builtin.module attributes")
    assert '"onnx.EntryPoint"() <{func = @main_graph}>' in stdout


@pytest.mark.parametrize(
    ("name", "content", "needle"),
    [
        ("truncated.onnx", ATTENTION_ONNX.read_bytes()[:30000], "truncated or corrupt"),
        ("text.onnx", b"this is not a model\n", "not an ONNX model"),
        ("empty.onnx", b"", "not an ONNX model"),
    ],
)
def test_import_corrupt_file(tmp_path: Path, capsys, name, content, needle):
    model = tmp_path / name
    model.write_bytes(content)
    out = tmp_path / "out.mlir"
    code, _, err = run(capsys, "import", str(model), "-o", str(out))
    assert_user_error(code, err, str(model), needle)
    assert only_files(tmp_path) == {name}


def test_import_missing_file(tmp_path: Path, capsys):
    code, _, err = run(capsys, "import", str(tmp_path / "nope.onnx"))
    assert_user_error(code, err, "nope.onnx", "no such file")


@pytest.mark.parametrize(
    ("model", "needles"),
    [
        (relu_model(shape=None), ("input 'x' has no shape",)),
        (
            relu_model(elem=TensorProto.BFLOAT16),
            ("input 'x' has unsupported element type BFLOAT16",),
        ),
        (
            relu_model(elem=TensorProto.STRING),
            ("input 'x' has unsupported element type STRING",),
        ),
        (
            unsupported_model(),
            (
                "unsupported ONNX ops at opset 17",
                "RandomUniformLike (random)",
                "RandomNormalLike (ln1, ln2)",
            ),
        ),
    ],
    ids=["no-shape", "bfloat16", "string", "unsupported-ops"],
)
def test_import_bad_model(tmp_path: Path, capsys, model, needles):
    path = save(model, tmp_path / "model.onnx")
    code, _, err = run(capsys, "import", str(path), "-o", str(tmp_path / "out.mlir"))
    assert_user_error(code, err, str(path), *needles)
    assert "Relu" not in err  # the supported op is not listed
    assert only_files(tmp_path) == {"model.onnx"}


def test_import_output_dir_missing(tmp_path: Path, capsys):
    out = tmp_path / "no" / "such" / "dir" / "out.mlir"
    code, _, err = run(capsys, "import", str(ATTENTION_ONNX), "-o", str(out))
    assert_user_error(code, err, "does not exist")


# compile


def test_compile_with_pipeline_and_print_ir_after_all(tmp_path: Path, capsys):
    out = tmp_path / "out.mlir"
    code, stdout, err = run(
        capsys,
        "compile",
        str(ATTENTION_ONNX),
        "-o",
        str(out),
        "--pipeline",
        "cse,canonicalize",
        "--print-ir-after-all",
    )
    assert code == 0 and stdout == ""
    assert err.count("// -----// IR Dump After") == 2
    assert "IR Dump After cse" in err and "IR Dump After canonicalize" in err
    assert "onnx.Softmax" in out.read_text()
    assert only_files(tmp_path) == {"out.mlir"}


def test_compile_accepts_onnx_dialect_mlir(tmp_path: Path, capsys):
    mlir = tmp_path / "in.mlir"
    assert main(["import", str(ATTENTION_ONNX), "-o", str(mlir)]) == 0
    code, stdout, _ = run(capsys, "compile", str(mlir), "--pipeline", "cse")
    assert code == 0 and '"onnx.MatMul"' in stdout


def test_compile_unknown_pass(tmp_path: Path, capsys):
    out = tmp_path / "out.mlir"
    code, _, err = run(
        capsys,
        "compile",
        str(ATTENTION_ONNX),
        "-o",
        str(out),
        "--pipeline",
        "cse,no-such-pass{x=1}",
    )
    assert_user_error(code, err, "unknown pass 'no-such-pass'")
    assert only_files(tmp_path) == set()


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("cse{", "Expected argument name"),
        ("cse{bogus=1}", "pass 'cse'"),
    ],
)
def test_compile_bad_pipeline(tmp_path: Path, capsys, spec: str, needle: str):
    code, _, err = run(
        capsys,
        "compile",
        str(ATTENTION_ONNX),
        "-o",
        str(tmp_path / "o.mlir"),
        "--pipeline",
        spec,
    )
    assert_user_error(code, err, "--pipeline", needle)
    assert only_files(tmp_path) == set()


def test_compile_unwritable_output_dir(tmp_path: Path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    code, _, err = run(
        capsys,
        "compile",
        str(ATTENTION_ONNX),
        "--externalize-output-dir",
        str(blocker / "sub"),
        "--pipeline",
        "cse",
    )
    assert_user_error(code, err, str(blocker / "sub"), "cannot create directory")
    assert only_files(tmp_path) == {"a_file"}


def test_compile_malformed_mlir(tmp_path: Path, capsys):
    bad = tmp_path / "bad.mlir"
    bad.write_text('builtin.module {\n  %0 = "onnx.Relu"( : () -> i32\n}\n')
    out = tmp_path / "out.mlir"
    code, _, err = run(capsys, "compile", str(bad), "-o", str(out))
    assert_user_error(code, err, f"{bad}:2:", "malformed MLIR")
    assert only_files(tmp_path) == {"bad.mlir"}


def test_compile_unregistered_op_in_mlir(tmp_path: Path, capsys):
    bad = tmp_path / "bad.mlir"
    bad.write_text('builtin.module {\n  %0 = "onnx.NoSuchOp"() : () -> i32\n}\n')
    code, _, err = run(capsys, "compile", str(bad), "--pipeline", "cse")
    assert_user_error(code, err, f"{bad}:2:", "onnx.NoSuchOp is not registered")


def test_compile_bad_onnx(tmp_path: Path, capsys):
    path = save(unsupported_model(), tmp_path / "m.onnx")
    code, _, err = run(capsys, "compile", str(path), "-o", str(tmp_path / "o.mlir"))
    assert_user_error(code, err, "RandomNormalLike (ln1, ln2)")
    assert only_files(tmp_path) == {"m.onnx"}


def _default_pipeline_available() -> bool:
    try:
        from xhip.pipeline import onnx_to_hip_passes

        onnx_to_hip_passes()
    except (ImportError, KeyError):
        return False
    return True


@pytest.mark.skipif(
    not _default_pipeline_available(), reason="onnx-to-hip is not complete yet"
)
def test_compile_default_pipeline_writes_ir_and_constants(tmp_path: Path, capsys):
    out = tmp_path / "attention.hip.mlir"
    code, _, err = run(
        capsys, "compile", str(ATTENTION_ONNX), "-o", str(out), "--print-ir-after-all"
    )
    assert code == 0, err
    assert err.count("// -----// IR Dump After") == 21
    assert "IR Dump After hip-resolve-extern-constants" in err
    assert only_files(tmp_path) == {"attention.hip.mlir", "model.constants.bin"}
    # Three 64x64 float32 weights; the 0.125 scale stays inline.
    assert (tmp_path / "model.constants.bin").stat().st_size >= 3 * 64 * 64 * 4
    text = out.read_text()
    assert "hip.hipblaslt.matmul" in text and "onnx." not in text.replace(
        "onnx.name", ""
    ).replace("onnx.dim_params", "").replace("onnx-mlir", "")


# help and the installed script


@pytest.mark.parametrize("command", [[], ["import"], ["compile"]])
def test_help(capsys, command: list[str]):
    code, stdout, _ = run(capsys, *command, "--help")
    assert code == 0
    for word in {
        (): ["import", "compile"],
        ("import",): ["MODEL.onnx", "--output"],
        ("compile",): [
            "--pipeline",
            "--print-ir-after-all",
            "--externalize-output-dir",
            "constants",
        ],
    }[tuple(command)]:
        assert word in stdout


def test_no_command_is_a_usage_error(capsys):
    code, _, err = run(capsys)
    assert code == 1 and "usage: xhip" in err


def test_installed_script(tmp_path: Path):
    """The `xhip` console script: exit codes and no traceback, for real."""
    xhip = Path(sys.executable).with_name("xhip")
    assert xhip.exists()
    bad = tmp_path / "x.onnx"
    bad.write_bytes(b"\x00\x01garbage")
    result = subprocess.run(
        [str(xhip), "import", str(bad)],
        capture_output=True,
        text=True,
        env={**os.environ, "XHIP_TRACEBACK": ""},
        cwd=REPO,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.startswith(f"xhip import: error: {bad}: ")
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(
    not _default_pipeline_available(), reason="onnx-to-hip is not complete yet"
)
def test_compile_min_num_elements_keeps_weights_inline(tmp_path: Path, capsys):
    out = tmp_path / "o.mlir"
    code, _, err = run(
        capsys,
        "compile",
        str(ATTENTION_ONNX),
        "-o",
        str(out),
        "--externalize-min-num-elements",
        "100000",
    )
    assert code == 0, err
    constants = tmp_path / "model.constants.bin"
    assert not constants.exists() or constants.stat().st_size == 0
    assert out.read_text().count('memref<64x64xf32> = dense<"0x') == 3


def test_run_is_registered_when_the_backend_has_it(capsys):
    pytest.importorskip("xhip.cli.run")
    code, stdout, _ = run(capsys, "--help")
    assert code == 0 and "run " in stdout
    code, stdout, _ = run(capsys, "run", "--help")
    assert code == 0 and "--device" in stdout


@pytest.mark.skipif(
    not _default_pipeline_available(), reason="onnx-to-hip is not complete yet"
)
def test_compile_to_stdout_puts_constants_in_the_current_directory(
    scratch_cwd: Path, capsys
):
    code, stdout, err = run(capsys, "compile", str(ATTENTION_ONNX))
    assert (code, err) == (0, ""), err
    assert "hip.hipblaslt.matmul" in stdout
    assert only_files(scratch_cwd) == {"model.constants.bin"}
    umask = os.umask(0)
    os.umask(umask)
    mode = (scratch_cwd / "model.constants.bin").stat().st_mode & 0o777
    assert mode == 0o666 & ~umask


@pytest.mark.skipif(
    not _default_pipeline_available(), reason="onnx-to-hip is not complete yet"
)
def test_compile_warning_is_one_line(tmp_path: Path, capsys):
    """A pass's warning reads like the errors: no Python file, line or class."""
    elided = REPO / "tests" / "filecheck" / "Inputs" / "attention.onnx.mlir"
    out = tmp_path / "o.mlir"
    code, _, err = run(capsys, "compile", str(elided), "-o", str(out))
    assert code == 0
    assert err == (
        "xhip: warning: convert-onnx-to-hip: 3 constant(s) have elided data "
        "(dense_resource without a blob); they were replaced by zeros\n"
    )


@pytest.mark.parametrize("command", ["import", "compile"])
def test_output_that_is_a_directory(tmp_path: Path, capsys, command: str):
    (tmp_path / "out").mkdir()
    code, _, err = run(
        capsys, command, str(ATTENTION_ONNX), "-o", str(tmp_path / "out")
    )
    assert_user_error(code, err, str(tmp_path / "out"), "is a directory")
    assert only_files(tmp_path) == {"out"}
    assert only_files(tmp_path / "out") == set()


def test_compile_constants_dir_that_is_a_file(tmp_path: Path, capsys):
    (tmp_path / "a_file").write_text("")
    code, _, err = run(
        capsys,
        "compile",
        str(ATTENTION_ONNX),
        "--externalize-output-dir",
        str(tmp_path / "a_file"),
    )
    assert_user_error(code, err, "a_file: exists and is not a directory")


# run: bad inputs, as `xhip run` users make them


@pytest.mark.parametrize(
    ("extra", "needles"),
    [
        (["--dims", "btach=3"], ("--dims", "no dim 'btach'", "batch, seq")),
        (["--input", "X=empty.npy"], ("--input X", "empty.npy: not a .npy file")),
        (["--input", "X=text.npy"], ("text.npy: not a .npy file",)),
        (["--output-dir", "a_file"], ("a_file: exists and is not a directory",)),
    ],
    ids=["unknown-dim", "empty-npy", "text-npy", "output-dir-is-a-file"],
)
def test_run_bad_input(scratch_cwd: Path, capsys, extra: list[str], needles):
    pytest.importorskip("xhip.cli.run")
    (scratch_cwd / "empty.npy").write_bytes(b"")
    (scratch_cwd / "text.npy").write_text("1 2 3\n")
    (scratch_cwd / "a_file").write_text("")
    code, stdout, err = run(capsys, "run", str(ATTENTION_ONNX), *extra)
    assert_user_error(code, err, *needles)
    assert "pickle" not in err
    assert stdout == ""
    assert only_files(scratch_cwd) == {"empty.npy", "text.npy", "a_file"}


def test_run_fuses_by_default_and_no_fuse_turns_it_off(capsys):
    """`xhip.compile` runs the backend's fusion passes unless `fuse=False`;
    `xhip run --no-fuse --check` still matches ONNX Runtime."""
    import xhip
    from xhip.dialects import hip

    model = REPO / "tests" / "fixtures" / "models" / "bert.torchscript.onnx"

    def fused_ops(compiled: xhip.api.CompiledModel) -> int:
        walk = compiled.module.walk()
        return sum(isinstance(op, hip.FusedElementwiseOp) for op in walk)

    assert fused_ops(xhip.compile(model)) > 0
    assert fused_ops(xhip.compile(model, fuse=False)) == 0
    code, _out, err = run(capsys, "run", str(model), "--no-fuse", "--check", "-q")
    assert code == 0, err


def test_run_with_the_tight_memory_plan(capsys):
    """`--memory-plan tight` runs `hip-plan-memory` after `onnx-to-hip`: the
    result still matches ONNX Runtime, in debug mode (overlaps fail loudly),
    at dims far from the hint, and the pool offsets are the planner's."""
    import xhip

    model = xhip.compile(ATTENTION_ONNX, memory_plan="tight", plan_hint=16)
    from xhip.backend.session import CompiledModel  # lazy: test only

    assert isinstance(model, CompiledModel)
    assert any(op.name == "arith.maxui" for op in model.module.walk())
    args = ["run", str(ATTENTION_ONNX), "--memory-plan", "tight", "--plan-hint", "16"]
    code, out, err = run(
        capsys, *args, "--dims", "batch=3,seq=100", "--debug", "--check"
    )
    assert code == 0, err
    assert "ok" in out


def test_no_graphs_reaches_the_gpu_runtime(capsys, monkeypatch: pytest.MonkeyPatch):
    """`xhip run --no-graphs` turns graph replay off on the runtime it makes
    (`xhip.compile(graphs=False)` -> `runtime_for(..., graphs=False)`); the
    GPU runtime is a stand-in that records it (no GPU here)."""
    import xhip.backend.cuda as cuda
    from xhip.backend.runtime import DeviceUnavailable

    made: list[bool] = []

    class Recording:
        def __init__(self, debug: bool = False, graphs: bool = True):
            made.append(graphs)
            raise DeviceUnavailable("--device cuda: stand-in")

    monkeypatch.setattr(cuda, "CudaRuntime", Recording)
    for extra in ([], ["--no-graphs"]):
        code, _out, err = run(
            capsys, "run", str(ATTENTION_ONNX), "--device", "cuda", *extra
        )
        assert code != 0 and "stand-in" in err
    assert made == [True, False]
