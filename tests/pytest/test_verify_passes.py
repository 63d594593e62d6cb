"""`xhip verify-passes`: every stage run against ONNX Runtime; the first bad
pass named, proven by injecting a bug after a chosen pass."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from tests.pytest.frontend.models import ATTENTION_ONNX
from xhip import verify
from xhip.cli import main
from xhip.pipeline import onnx_to_hip_passes
from xhip.verify import FUSED_STAGE, IMPORT_STAGE, Injection, compare, verify_passes

PASSES = [p.name for p in onnx_to_hip_passes()]
ATTENTION_DIMS = {"batch": 2, "seq": 7}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def conv_model() -> onnx.ModelProto:
    """Conv (inline weights: under the externalization threshold) -> Relu ->
    Sub(., Z) -> MaxPool, and a second output: small, a conv's two outs, and a
    binary op whose operands can be swapped."""
    rng = np.random.default_rng(1)
    w = (rng.standard_normal((4, 3, 3, 3)) / 4).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["X", "W", "B"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Sub", ["r", "Z"], ["d"]),
        helper.make_node("MaxPool", ["d"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Sigmoid", ["d"], ["s"]),
    ]
    graph = helper.make_graph(
        nodes,
        "conv_block",
        [
            helper.make_tensor_value_info("X", TensorProto.FLOAT, ["batch", 3, 6, 6]),
            helper.make_tensor_value_info("Z", TensorProto.FLOAT, ["batch", 4, 6, 6]),
        ],
        [
            helper.make_tensor_value_info("p", TensorProto.FLOAT, ["batch", 4, 3, 3]),
            helper.make_tensor_value_info("s", TensorProto.FLOAT, ["batch", 4, 6, 6]),
        ],
        [numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "B")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


@pytest.fixture(scope="module")
def conv_onnx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("verify") / "conv_block.onnx"
    onnx.save(conv_model(), path)
    return path


# Every stage runs and agrees.


def test_attention_every_stage_runs_and_agrees(capsys: pytest.CaptureFixture[str]):
    code, out, err = run(
        capsys, "verify-passes", str(ATTENTION_ONNX), "--dims", "batch=2,seq=7"
    )
    assert code == 0, err
    assert err == ""
    lines = out.splitlines()
    assert "X: float32[2, 7, 64]" in lines[0]
    rows = [line.split() for line in lines[2:-1]]
    assert [int(r[0]) for r in rows] == list(range(len(PASSES) + 2))
    assert [r[1] for r in rows[:-1]] == [IMPORT_STAGE, *PASSES]
    assert " ".join(rows[-1][1:3]) == FUSED_STAGE
    assert all(" ok " in f" {line} " for line in lines[2:-1]), out
    assert not any("not run" in line for line in lines[2:-1])
    assert (
        lines[-1]
        == f"every stage agrees with ONNX Runtime ({len(rows)} run, 0 not run)"
    )


def test_attention_engines_cover_every_stage() -> None:
    report = verify_passes(ATTENTION_ONNX, dims=ATTENTION_DIMS)
    engines = [s.engine for s in report.stages]
    assert engines[:2] == ["onnxruntime", "onnxruntime"]  # import, add-context-arg
    assert engines[2] == "tensor"  # convert-onnx-to-hip, tensor-mode hip ops
    # From bufferization on, the backend: its plan, or the interpreter where
    # the deallocation stages have scf.if and bufferization.dealloc.
    assert set(engines[3:]) <= {"plan", "interpreter"}
    assert "interpreter" in engines
    assert all(s.status == "ok" for s in report.stages)
    assert all(s.max_abs is not None and s.max_abs < 1e-4 for s in report.stages)


def test_conv_model_every_stage_runs_and_agrees(conv_onnx: Path) -> None:
    report = verify_passes(conv_onnx, dims={"batch": 2})
    assert [s.status for s in report.stages] == ["ok"] * (len(PASSES) + 2), [
        (s.number, s.name, s.status, s.detail) for s in report.stages
    ]
    assert report.first_bad is None


def test_given_inputs_are_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    x = np.ones((1, 3, 64), np.float32)
    np.save(tmp_path / "x.npy", x)
    code, out, _ = run(
        capsys,
        "verify-passes",
        str(ATTENTION_ONNX),
        "--input",
        f"X={tmp_path / 'x.npy'}",
    )
    assert code == 0
    assert "X: float32[1, 3, 64]" in out


# An injected bug is named.


@pytest.mark.parametrize("after", [2, 5, 10, 21])
def test_injected_constant_bug_in_attention_is_named(
    after: int, capsys: pytest.CaptureFixture[str]
):
    code, out, err = run(
        capsys,
        "verify-passes",
        str(ATTENTION_ONNX),
        "--dims",
        "batch=2,seq=7",
        "--inject-bug",
        str(after),
    )
    assert code == 1
    assert "Traceback" not in err
    assert err.strip().splitlines() == [
        f"xhip verify-passes: pass {after} ({PASSES[after - 1]}) is the first whose "
        "result differs from ONNX Runtime: " + err.split("ONNX Runtime: ", 1)[1].strip()
    ]
    rows = {int(line.split()[0]): line for line in out.splitlines()[3:-1]}
    assert all(" ok " in rows[i] for i in range(after))
    assert "differs" in rows[after]


@pytest.mark.parametrize(
    ("after", "kind"), [(1, "swap"), (2, "constant"), (3, "swap"), (16, "swap")]
)
def test_injected_bug_in_conv_model_is_named(conv_onnx: Path, after: int, kind: str):
    report = verify_passes(
        conv_onnx,
        dims={"batch": 2},
        inject=Injection(after, kind),  # pyright: ignore[reportArgumentType]
    )
    assert report.injected is not None
    bad = report.first_bad
    assert bad is not None
    assert (bad.number, bad.name) == (after, PASSES[after - 1])
    assert all(s.status == "ok" for s in report.stages[:after])


@dataclass(frozen=True)
class _Raises(ModulePass):
    name = "test-raises"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise DiagnosticException("this pass always fails\nsecond line")


def test_a_pass_that_raises_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    real = verify._passes  # pyright: ignore[reportPrivateUsage]

    def passes(pipeline: str | None, directory: str) -> list[ModulePass]:
        return [*real(pipeline, directory)[:3], _Raises()]

    monkeypatch.setattr(verify, "_passes", passes)
    code, out, err = run(capsys, "verify-passes", str(ATTENTION_ONNX))
    assert code == 1
    assert err.strip() == (
        "xhip verify-passes: pass 4 (test-raises) is the first whose result fails: "
        "the pass raised: this pass always fails"
    )
    assert all(" ok " in line for line in out.splitlines()[2:6])


# Bad input: one line, exit 1, no traceback.


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["nope.onnx"], "nope.onnx: no such file"),
        ([str(ATTENTION_ONNX), "--dims", "foo=2"], "no dim 'foo'"),
        ([str(ATTENTION_ONNX), "--dims", "batch"], "expected NAME=SIZE"),
        ([str(ATTENTION_ONNX), "--pipeline", "bogus"], "unknown pass 'bogus'"),
        ([str(ATTENTION_ONNX), "--inject-bug", "0"], "--inject-bug"),
        ([str(ATTENTION_ONNX), "--inject-bug", "99"], "has 21 passes, not 99"),
        ([str(ATTENTION_ONNX), "--inject-bug", "3:nope"], "unknown kind 'nope'"),
        ([str(ATTENTION_ONNX), "--inject-bug", "1:swap"], "nothing to corrupt"),
        (
            [str(ATTENTION_ONNX), "--input", "X=missing.npy"],
            "missing.npy: no such file",
        ),
    ],
)
def test_bad_input_is_one_line(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
):
    code, _, err = run(capsys, "verify-passes", *argv)
    assert code == 1
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("xhip verify-passes: error: ")
    assert needle in lines[0], lines[0]


def test_wrong_input_dtype_and_mlir_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    np.save(tmp_path / "x.npy", np.ones((1, 3, 64), np.float64))
    code, _, err = run(
        capsys,
        "verify-passes",
        str(ATTENTION_ONNX),
        "--input",
        f"X={tmp_path / 'x.npy'}",
    )
    assert code == 1 and "dtype float64, expected float32" in err
    mlir = tmp_path / "m.mlir"
    mlir.write_text("builtin.module {}\n")
    code, _, err = run(capsys, "verify-passes", str(mlir))
    assert code == 1 and "needs an .onnx model" in err
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    code, _, err = run(capsys, "verify-passes", str(bad))
    assert code == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1


# The comparison.


def test_compare_reports_nan_shape_and_error() -> None:
    want = {"y": np.array([1.0, 2.0, np.nan], np.float32)}
    assert compare({"y": want["y"].copy()}, want)[2] is None
    assert "NaN" in (compare({"y": np.array([1, 2, 3], np.float32)}, want)[2] or "")
    assert "shape" in (compare({"y": np.zeros(2, np.float32)}, want)[2] or "")
    error, relative, problem = compare(
        {"y": np.array([1.0, 2.5, np.nan], np.float32)}, want
    )
    assert error == pytest.approx(0.5) and relative == pytest.approx(0.25)
    assert problem is not None and "max abs error 0.5" in problem
