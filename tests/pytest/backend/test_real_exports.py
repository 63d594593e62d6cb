"""The committed real exports (`tests/fixtures/models/`, torch.onnx.export of
GPT-2, BERT and LLaMA-style models by both exporters) against ONNX Runtime on
the CPU runtime, at several batch and sequence sizes: batch 1 and seq 1, odd
sizes, and attention masks that pad the later rows. Each is compiled once, with
its dims dynamic: the shape subgraphs fold to index arithmetic
(`onnx-fold-shapes`), so one compiled model serves every size.

The committed `.npz` holds torch eager's own outputs at batch 2, seq 7; the
first case checks against those too.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import xhip
from tests.pytest.conftest import REPO
from xhip.backend.session import CompiledModel

FIXTURES = REPO / "tests" / "fixtures" / "models"
TRANSFORMERS = [
    "gpt2.torchscript",
    "gpt2.dynamo",
    "gpt2_past.torchscript",
    "gpt2_past.dynamo",
    "bert.torchscript",
    "bert.dynamo",
    "llama.torchscript",
    "llama.dynamo",
]
VOCAB = 128
SIZES = [(1, 1), (1, 16), (2, 7), (3, 5)]
"""(batch, seq); the `_past` models also get a past of 4 (or 1, for seq 16)."""


def _inputs(model: onnx.ModelProto, batch: int, seq: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(batch * 1000 + seq)
    past = 1 if seq == 16 else 4
    names = {v.name for v in model.graph.input}
    feeds: dict[str, np.ndarray] = {
        "input_ids": rng.integers(0, VOCAB, (batch, seq), dtype=np.int64)
    }
    has_past = "past_key_0" in names
    total = seq + past if has_past else seq
    mask = np.ones((batch, total), dtype=np.int64)
    for row in range(1, batch):  # later rows padded at the end
        mask[row, total - min(row * 2, total - 1) :] = 0
    feeds["attention_mask"] = mask
    if has_past:
        for layer in range(2):
            for kind in ("key", "value"):
                feeds[f"past_{kind}_{layer}"] = rng.standard_normal(
                    (batch, 4, past, 8)
                ).astype(np.float32)
    assert set(feeds) == names, sorted(names)
    return feeds


@pytest.fixture(scope="module")
def compiled() -> dict[
    str, tuple[onnx.ModelProto, CompiledModel, ort.InferenceSession]
]:
    return {}


def _get(
    cache: dict[str, tuple[onnx.ModelProto, CompiledModel, ort.InferenceSession]],
    name: str,
) -> tuple[onnx.ModelProto, CompiledModel, ort.InferenceSession]:
    if name not in cache:
        path = FIXTURES / f"{name}.onnx"
        model = onnx.load(str(path))
        ir = xhip.compile(path, "cpu")
        session = ort.InferenceSession(
            model.SerializeToString(), providers=["CPUExecutionProvider"]
        )
        cache[name] = (model, ir, session)
    model, ir, session = cache[name]
    return model, ir, session


def _run(model: CompiledModel, feeds: Mapping[str, np.ndarray]) -> list[np.ndarray]:
    return list(model(dict(feeds)).values())


@pytest.mark.parametrize("batch,seq", SIZES, ids=[f"{b}x{s}" for b, s in SIZES])
@pytest.mark.parametrize("name", TRANSFORMERS)
def test_real_export_matches_onnxruntime(
    compiled: dict[str, tuple[onnx.ModelProto, CompiledModel, ort.InferenceSession]],
    name: str,
    batch: int,
    seq: int,
) -> None:
    model, ir, session = _get(compiled, name)
    feeds = _inputs(model, batch, seq)
    want = session.run(None, feeds)
    got = _run(ir, feeds)
    assert len(got) == len(want)
    for i, (ours, theirs) in enumerate(zip(got, want, strict=True)):
        assert ours.shape == theirs.shape, f"output {i}"
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", TRANSFORMERS)
def test_real_export_matches_torch_eager(
    compiled: dict[str, tuple[onnx.ModelProto, CompiledModel, ort.InferenceSession]],
    name: str,
) -> None:
    model, ir, _ = _get(compiled, name)
    with np.load(FIXTURES / f"{name}.npz") as saved:
        inputs = {v.name for v in model.graph.input}
        feeds = {k: saved[k] for k in saved.files if k in inputs}
        want = {o.name: saved[o.name] for o in model.graph.output}
    assert (feeds["attention_mask"] == 0).any(), "the committed inputs pad"
    got = _run(ir, feeds)
    for ours, (out, theirs) in zip(got, want.items(), strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5, err_msg=out)


@pytest.mark.parametrize("name", ["gpt2.torchscript", "llama.dynamo"])
def test_shape_subgraph_folds_to_index_arithmetic(name: str) -> None:
    """No Shape, Gather-of-a-shape or shape Concat is left for the device:
    every size is index arithmetic on the host (`tensor.dim`, `arith`)."""
    text = str(xhip.compile_to_ir(FIXTURES / f"{name}.onnx").module)
    assert "hip.readback" not in text
    assert "memref.dim" in text
    assert "hip.from_elements" not in text or name == "gpt2.torchscript"
