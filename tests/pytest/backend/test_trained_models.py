"""A real trained model from a wheel: magika's file-type classifier (Apache-2.0).

magika (a dev dependency) ships its ONNX model, exported by tf2onnx at opset
15: a byte embedding, Conv1d, GlobalMaxPool, LayerNorm-like arithmetic,
MatMuls and a softmax, batch dim unnamed (`unk__214`). The inputs are
magika's own features (the first and last 1,024 bytes, whitespace stripped,
padded with token 256) of real files of ten types. xhip must match ONNX
Runtime and give each file the label magika gives it.
"""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import xhip

magika = pytest.importorskip("magika", reason="magika (a dev dependency) is absent")

REPO = Path(__file__).resolve().parents[3]


def real_files(tmp: Path) -> dict[Path, str]:
    """Files of known types: from this repo, from magika's wheel, and written
    here by the standard library's own encoders."""
    package = Path(magika.__file__).parent
    np.savez(tmp / "arrays.npz", a=np.arange(1000), b=np.eye(20))
    with zipfile.ZipFile(tmp / "archive.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(REPO / "README.md", "README.md")
    (tmp / "notes.txt.gz").write_bytes(gzip.compress((REPO / "README.md").read_bytes()))
    (tmp / "table.json").write_text(json.dumps({"rows": list(range(300))}, indent=1))
    return {
        REPO / "xhip" / "__init__.py": "python",
        REPO / "README.md": "markdown",
        REPO / "scripts" / "test.sh": "shell",
        REPO / "pyproject.toml": "toml",
        REPO / "notebooks" / "real_export.ipynb": "ipynb",
        next(package.glob("models/*/model.onnx")): "onnx",
        tmp / "arrays.npz": "npz",
        tmp / "archive.zip": "zip",
        tmp / "notes.txt.gz": "gzip",
        tmp / "table.json": "json",
    }


@pytest.fixture(scope="module")
def classifier() -> Any:
    return magika.Magika()


def features(classifier: Any, paths: list[Path]) -> np.ndarray:
    config = classifier._model_config
    rows = []
    for path in paths:
        _, f = classifier._get_result_or_features_from_path(path)
        rows.append(f.beg[: config.beg_size] + f.end[-config.end_size :])
    return np.array(rows, np.int32)


def test_magika_matches_onnxruntime_on_real_files(
    classifier: Any, tmp_path: Path
) -> None:
    files = real_files(tmp_path)
    x = features(classifier, list(files))
    model = onnx.load(classifier._model_path)
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    compiled = xhip.compile(model, device="cpu")
    for batch in (x, x[:1], x[3:6]):
        (want,) = session.run(None, {"bytes": batch})
        got = compiled({"bytes": batch})["target_label"]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    labels = [
        str(classifier._model_config.target_labels_space[i])
        for i in compiled({"bytes": x})["target_label"].argmax(axis=1)
    ]
    assert labels == list(files.values())
    assert labels == [str(classifier.identify_path(p).dl.label) for p in files]
