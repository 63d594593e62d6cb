"""`xhip run`: compile and run an .onnx model, check it against ONNX Runtime."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from tests.pytest.conftest import REPO
from xhip.backend.reference import AttentionWeights
from xhip.cli import main
from xhip.cli.run import compare


@pytest.fixture(scope="module")
def model_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("run") / "attention.onnx"
    path.write_bytes(AttentionWeights.random(0).onnx_model())
    return path


def test_run_and_check(
    model_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    x = np.random.default_rng(0).standard_normal((2, 9, 64)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    code = main(
        [
            "run",
            str(model_path),
            "--input",
            f"X={tmp_path / 'x.npy'}",
            "--check",
            "--output-dir",
            str(tmp_path / "out"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "out: float32[2, 9, 64]" in out and "ok" in out
    saved = np.load(tmp_path / "out" / "out.npy")
    want = AttentionWeights.random(0).reference(x)
    np.testing.assert_allclose(saved, want, rtol=1e-4, atol=1e-5)


def test_run_and_check_resnet18(capsys: pytest.CaptureFixture[str]) -> None:
    """`xhip run resnet18.onnx --check`: the committed ResNet-18 (torchvision's,
    at 1/8 width), random input at the dims given, checked against ONNX Runtime."""
    model = REPO / "tests" / "fixtures" / "models" / "resnet18_w0125.torchscript.onnx"
    code = main(["run", str(model), "--dims", "height=96,width=80", "--check"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "logits: float32[1, 10]" in out
    assert "check logits: max abs error" in out and out.rstrip().endswith("ok"), out


def test_random_inputs_from_dims(
    model_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(model_path), "--dims", "batch=3,seq=5", "--debug"]) == 0
    assert "out: float32[3, 5, 64]" in capsys.readouterr().out


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--dims", "batch"], "--dims: expected NAME=SIZE"),
        (["--input", "X=/nonexistent.npy"], "no such file"),
        (["--device", "hip"], "--device hip: "),
    ],
)
def test_user_errors_are_one_line(
    model_path: Path, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(model_path), *extra]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_wrong_input_shape(
    model_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    np.save(tmp_path / "x.npy", np.zeros((1, 2, 5), np.float32))
    assert main(["run", str(model_path), "--input", f"X={tmp_path / 'x.npy'}"]) == 1
    assert "input 'X' dim 2 is 5, expected 64" in capsys.readouterr().err


def _stem(tmp_path: Path) -> Path:
    """A 4x4 stride-4 Conv on an image of dynamic size (default 1x1)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    graph = helper.make_graph(
        [
            helper.make_node(
                "Conv", ["x", "w"], ["y"], kernel_shape=[4, 4], strides=[4, 4]
            )
        ],
        "stem",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, "h", "w"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, None, None])],
        [numpy_helper.from_array(np.ones((8, 3, 4, 4), np.float32), "w")],
    )
    path = tmp_path / "stem.onnx"
    onnx.save(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path
    )
    return path


def _one_error_line(err: str, part: str) -> None:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("xhip run")]
    assert len(lines) == 1 and part in lines[0], err


def test_an_image_smaller_than_the_kernel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default 1x1 image under a 4x4 stem: one line naming the Conv (ONNX
    Runtime refuses it too; xhip gave an empty output)."""
    assert main(["run", str(_stem(tmp_path))]) == 1
    _one_error_line(capsys.readouterr().err, "Conv: the input's spatial size 1x1")


def test_check_when_onnxruntime_refuses_the_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where ONNX Runtime raises (its own error types), `--check` says so in
    one line and exits 1; it raised, with a traceback."""
    import onnxruntime as ort

    class Refusing:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise RuntimeError("[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : no")

    monkeypatch.setattr(ort, "InferenceSession", Refusing)
    path = _stem(tmp_path)
    assert main(["run", str(path), "--dims", "h=8,w=8", "--check"]) == 1
    _one_error_line(capsys.readouterr().err, "--check: ONNX Runtime cannot run")


def _graph(
    nodes: list[onnx.NodeProto],
    inputs: list[str],
    outputs: list[onnx.ValueInfoProto],
    opset: int = 18,
) -> onnx.ModelProto:
    x = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 3]) for n in inputs]
    graph = helper.make_graph(nodes, "g", x, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


CHECK_MODELS = {
    # Booleans: `value - want` raised a TypeError (a traceback, not a check).
    "bool": _graph(
        [helper.make_node("Greater", ["a", "b"], ["y"])],
        ["a", "b"],
        [helper.make_tensor_value_info("y", TensorProto.BOOL, [2, 3])],
    ),
    # A sequence output: a list in ONNX Runtime, `s[0]`, `s[1]` here.
    "sequence": _graph(
        [helper.make_node("SplitToSequence", ["a"], ["s"], axis=1, keepdims=1)],
        ["a"],
        [helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, None)],
    ),
    # NaN and infinities where ONNX Runtime gives them.
    "nan-inf": _graph(
        [
            helper.make_node("Div", ["a", "b"], ["q"]),
            helper.make_node("Log", ["q"], ["y"]),
        ],
        ["a", "b"],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    ),
    # float8: ONNX Runtime gives its bytes as uint8.
    "float8": _graph(
        [helper.make_node("Cast", ["a"], ["y"], to=TensorProto.FLOAT8E4M3FN)],
        ["a"],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT8E4M3FN, [2, 3])],
        opset=21,
    ),
    # float16: an ulp apart is 1e-3 of the value, over float32's 1e-4.
    "float16": _graph(
        [
            helper.make_node("Cast", ["a"], ["h"], to=TensorProto.FLOAT16),
            helper.make_node("Softmax", ["h"], ["s"], axis=1),
            helper.make_node("Exp", ["s"], ["y"]),
        ],
        ["a"],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2, 3])],
    ),
}


@pytest.mark.parametrize("name", sorted(CHECK_MODELS))
def test_check_compares_every_kind_of_output(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.onnx"
    onnx.save(CHECK_MODELS[name], path)
    argv = ["run", str(path), "--check"]
    rng = np.random.default_rng(3)
    values = {
        "a": np.array([[0, 1, -1], [2, np.inf, 0.5]], np.float32),
        "b": np.array([[0, 0, 2], [2, 1, -0.5]], np.float32),
    }
    if name in ("float16", "float8"):
        values["a"] = rng.normal(size=(2, 3)).astype(np.float32) * 4
    for input_name in ("a", "b"):
        np.save(tmp_path / f"{input_name}.npy", values[input_name])
        argv += ["--input", f"{input_name}={tmp_path / f'{input_name}.npy'}"]
    if name in ("sequence", "float16", "float8"):
        argv = argv[:-2]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, out + err
    checks = [line for line in out.splitlines() if line.startswith("check ")]
    assert checks and all(line.endswith(" ok") for line in checks), out
    if name == "sequence":
        assert [c.split(":")[0] for c in checks] == [f"check s[{i}]" for i in range(3)]


@pytest.mark.parametrize(
    "got,want,ok",
    [
        (np.array([True, False]), np.array([True, True]), False),
        (np.array([1, 2], np.uint8), np.array([2, 2], np.uint8), False),
        (np.array([np.nan, 1], np.float32), np.array([1, 1], np.float32), False),
        (np.array([np.inf], np.float32), np.array([-np.inf], np.float32), False),
        (np.array([1.0], np.float16), np.array([1.01], np.float16), False),
        (np.array([2**60 + 1]), np.array([2**60]), False),
        (np.array(["a", "b"]), np.array(["a", "c"]), False),
        (np.array([np.nan, -np.inf], np.float64), np.array([np.nan, -np.inf]), True),
        (np.array(1.5, np.float32), np.array(1.5, np.float32), True),
        (np.array(7, np.int64), np.array(8, np.int64), False),
    ],
)
def test_check_tells_a_difference(got: np.ndarray, want: np.ndarray, ok: bool) -> None:
    assert compare(got, want)[1] is ok
