"""`xdsl-opt model.onnx`: the `onnx` frontend xhip registers with xDSL."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.pytest.conftest import STAGES
from tests.pytest.frontend.models import (
    ATTENTION_SCRIPT,
    make_model,
    relu_model,
    tensor,
    unsupported_model,
)
from tests.pytest.test_pipeline import pool_stage_difference
from xhip.context import make_context
from xhip.frontend import import_model
from xhip.frontend.xdsl_frontend import OnnxFrontend, OnnxParseError
from xhip.testing import parse_module, structurally_equal

XDSL_OPT = str(Path(sys.executable).with_name("xdsl-opt"))


def xdsl_opt(
    *args: str, stdin: bytes | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([XDSL_OPT, *args], input=stdin, capture_output=True)
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


@pytest.fixture(scope="module")
def attention(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("frontend") / "attention.onnx"
    subprocess.run(
        [sys.executable, str(ATTENTION_SCRIPT), "-o", str(path)],
        check=True,
        capture_output=True,
    )
    return path


def test_xdsl_opt_onnx_to_hip_gives_the_seeds_final_ir(attention: Path, tmp_path):
    done = xdsl_opt(
        str(attention),
        "-p",
        "onnx-to-hip{externalize-min-num-elements=256 "
        f'externalize-output-dir="{tmp_path}"}}',
    )
    assert done.returncode == 0, done.stderr
    seed = (STAGES / "after-pass-21-hip-resolve-extern-constants.mlir").read_text()
    # Equal to the seed up to SSA names, the pool arithmetic compared by its values.
    why = pool_stage_difference(parse_module(done.stdout), parse_module(seed))
    assert why is None, why
    assert (tmp_path / "model.constants.bin").stat().st_size == 3 * 64 * 64 * 4


def test_the_frontend_imports_as_xhip_import_does(attention: Path):
    with attention.open("rb") as stream:
        module = OnnxFrontend().parse(make_context(), stream, str(attention))
    assert structurally_equal(module, import_model(attention))


def test_stdin_with_f_onnx(attention: Path):
    done = xdsl_opt("-f", "onnx", stdin=attention.read_bytes())
    assert done.returncode == 0, done.stderr
    assert '"onnx.Softmax"' in done.stdout


def test_external_data_is_read_next_to_the_model(tmp_path: Path):
    values = np.arange(256, dtype=np.float32).reshape(16, 16) / 8
    weight = numpy_helper.from_array(values, "w")
    model = make_model(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
        [tensor("x", TensorProto.FLOAT, [2, 16])],
        [tensor("y", TensorProto.FLOAT, [2, 16])],
        [weight],
    )
    directory = tmp_path / "model"
    directory.mkdir()
    onnx.save(
        model,
        directory / "m.onnx",
        save_as_external_data=True,
        location="m.weights",
        size_threshold=0,
    )
    assert (directory / "m.weights").exists()
    done = xdsl_opt(str(directory / "m.onnx"))  # run from elsewhere
    assert done.returncode == 0, done.stderr
    assert structurally_equal(
        parse_module(done.stdout), import_model(directory / "m.onnx")
    )


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"\x00\x01garbage", "not an ONNX model (protobuf parse failed"),
        (b"", "not an ONNX model (no graph or IR version in the file)"),
        (
            unsupported_model().SerializeToString(),
            "RandomNormalLike (ln1, ln2)",
        ),
        (
            relu_model(shape=None).SerializeToString(),
            "input 'x' has no shape",
        ),
    ],
    ids=["garbage", "empty", "unsupported-op", "no-shape"],
)
def test_bad_models_are_one_line_parse_errors(
    tmp_path: Path, content: bytes, needle: str
):
    path = tmp_path / "m.onnx"
    path.write_bytes(content)
    with pytest.raises(OnnxParseError) as raised:
        OnnxFrontend().parse(make_context(), io.BytesIO(content), str(path))
    assert str(raised.value).startswith(f"{path}: ") and needle in str(raised.value)
    assert "\n" not in str(raised.value)

    # xdsl-opt reports it as a parse error: printed alone with --parsing-diagnostics.
    done = xdsl_opt(str(path), "--parsing-diagnostics")
    assert done.returncode == 0
    assert done.stdout.strip() == str(raised.value)
    done = xdsl_opt(str(path))
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1].endswith(str(raised.value))
