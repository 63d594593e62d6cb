"""`xhip.compile` / `xhip.compile_to_ir`: real models in, numbers like ONNX Runtime's."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from tests.pytest.conftest import REPO, STAGES
from tests.pytest.frontend.models import (
    ATTENTION_ONNX,
    attention_example,
    make_model,
    tensor,
)
from tests.pytest.frontend.test_onnx_importer import dynamic_model, gemm_model


def ort_run(
    model: onnx.ModelProto | Path, feeds: dict[str, np.ndarray]
) -> list[np.ndarray]:
    source = str(model) if isinstance(model, Path) else model.SerializeToString()
    session = ort.InferenceSession(source, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


@pytest.mark.parametrize("shape", [(1, 1, 64), (2, 7, 64), (3, 16, 64)])
def test_attention_matches_onnxruntime(shape: tuple[int, int, int]):
    model = xhip.compile(ATTENTION_ONNX)
    x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)
    got = model({"X": x})
    (expected,) = ort_run(ATTENTION_ONNX, {"X": x})
    assert list(got) == ["out"]
    assert got["out"].shape == shape
    np.testing.assert_allclose(got["out"], expected, rtol=1e-5, atol=1e-6)


def test_model_proto_in_and_several_outputs():
    model = dynamic_model()
    compiled = xhip.compile(model)
    x = np.random.default_rng(3).standard_normal((5, 2, 3)).astype(np.float32)
    got = compiled({"x": x})
    expected = ort_run(model, {"x": x})
    assert list(got) == ["y", "f", "u"]
    for ours, theirs in zip(got.values(), expected, strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_gemm_matches_onnxruntime():
    model = gemm_model()
    x = np.random.default_rng(4).standard_normal((3, 8)).astype(np.float32)
    (expected,) = ort_run(model, {"x": x})
    np.testing.assert_allclose(xhip.compile(model)({"x": x})["z"], expected, rtol=1e-5)


def test_compile_to_ir_stages_constants_signature(tmp_path: Path):
    ir = xhip.compile_to_ir(ATTENTION_ONNX, externalize_dir=tmp_path, keep_stages=True)
    names = [name for name, _ in ir.stages]
    assert len(names) == 21
    # The seed's stage files are named after the pass that made them.
    for stage in STAGES.glob("after-pass-*.mlir"):
        number, name = int(stage.stem[11:13]), stage.stem[14:]
        if name in names:
            assert names[number - 1] == name, stage.name
    weights = [
        onnx.numpy_helper.to_array(t)
        for t in attention_example().build().graph.initializer
    ]
    assert len(ir.constants) >= sum(w.nbytes for w in weights[:3])
    assert (tmp_path / "model.constants.bin").read_bytes() == ir.constants
    blob = bytes(ir.constants)  # a read-only mapping of the file
    for w in weights[:3]:
        assert w.tobytes() in blob
    (x,) = ir.signature.inputs
    (out,) = ir.signature.outputs
    assert (x.name, str(x.dtype), x.shape) == ("X", "float32", ("batch", "seq", 64))
    assert (out.name, out.shape) == ("out", ("batch", "seq", 64))
    assert ir.stages[-1][1].is_structurally_equivalent(ir.module)
    assert "onnx.MatMul" in str(ir.imported) and "onnx.MatMul" not in str(ir.module)


def test_import_xhip_is_light():
    code = "import sys, xhip; print(sorted(m for m in ('onnx', 'xdsl', 'numpy') if m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    assert result.stdout.strip() == "[]"


def flatten_model() -> onnx.ModelProto:
    """Flatten at axis 2: the rows are batch*seq, a size no input dim has."""
    w = np.random.default_rng(5).standard_normal((16, 8)).astype(np.float32)
    return make_model(
        [
            helper.make_node("Flatten", ["x"], ["h"], name="flatten", axis=2),
            helper.make_node("MatMul", ["h", "w"], ["y"], name="mm"),
        ],
        [tensor("x", TensorProto.FLOAT, ["batch", "seq", 16])],
        [tensor("y", TensorProto.FLOAT, [None, 8])],
        [numpy_helper.from_array(w, "w")],
    )


def reshape_model() -> onnx.ModelProto:
    """Reshape to [-1, 64] with a dynamic batch: the rows are batch*128/64."""
    return make_model(
        [
            helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
            helper.make_node("Relu", ["r"], ["y"], name="relu"),
        ],
        [tensor("x", TensorProto.FLOAT, ["batch", 4, 32])],
        [tensor("y", TensorProto.FLOAT, [None, 64])],
        [numpy_helper.from_array(np.array([-1, 64], np.int64), "shape")],
    )


@pytest.mark.parametrize(
    ("make", "shapes", "formula"),
    [
        (flatten_model, [(1, 1, 16), (3, 5, 16)], "y: float32[(batch*seq), 8]"),
        (reshape_model, [(1, 4, 32), (5, 4, 32)], "y: float32[(batch*2), 64]"),
    ],
    ids=["flatten", "reshape"],
)
def test_output_dims_no_input_binds_come_from_the_ir(
    make: Callable[[], onnx.ModelProto],
    shapes: list[tuple[int, ...]],
    formula: str,
):
    """The final IR takes its outputs as out-params; their sizes are read from the
    stage that still allocates them, and evaluated on each call's inputs."""
    model = make()
    compiled = xhip.compile(model)
    assert [o.describe() for o in compiled.signature.outputs] == [formula]
    for shape in shapes:
        x = np.random.default_rng(sum(shape)).standard_normal(shape)
        x = x.astype(np.float32)
        (expected,) = ort_run(model, {"x": x})
        got = compiled({"x": x})["y"]
        assert got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_debug_mode_is_passed_to_the_runtime():
    """In debug mode the outputs start as NaN, so matching ONNX Runtime shows
    every element was written."""
    model = flatten_model()
    assert not xhip.compile(model).runtime.debug
    compiled = xhip.compile(model, debug=True)
    assert compiled.runtime.debug
    x = np.random.default_rng(6).standard_normal((2, 3, 16)).astype(np.float32)
    (expected,) = ort_run(model, {"x": x})
    np.testing.assert_allclose(compiled({"x": x})["y"], expected, rtol=1e-5)


@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_constants_file_has_the_usual_permissions(tmp_path: Path, umask: int):
    """Written through a private temporary file, it must not stay 0600."""
    old = os.umask(umask)
    try:
        xhip.compile_to_ir(ATTENTION_ONNX, externalize_dir=tmp_path)
    finally:
        os.umask(old)
    mode = (tmp_path / "model.constants.bin").stat().st_mode & 0o777
    assert mode == 0o666 & ~umask
