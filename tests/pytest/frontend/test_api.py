"""`xhip.compile` / `xhip.compile_to_ir`: real models in, numbers like ONNX Runtime's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import xhip
from tests.pytest.conftest import REPO, STAGES
from tests.pytest.frontend.models import ATTENTION_ONNX, attention_example
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
    for w in weights[:3]:
        assert w.tobytes() in ir.constants
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
