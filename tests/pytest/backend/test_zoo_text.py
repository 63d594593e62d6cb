"""The text, audio and multimodal zoo (`tests/fixtures/zoo/text/`, made by
`scripts/export_zoo_text.py`: tiny transformers configs through both torch
exporters) on the CPU runtime against ONNX Runtime. Each fixture is compiled
once with its dims dynamic and run at three sizes (batch 1 and seq 1 among
them; later rows of the attention mask padded), and once on the inputs of its
`.npz` against torch eager's own outputs.

Tolerances are test_real_exports.py's: float32 outputs to rtol 1e-4, atol 1e-5
(against torch eager, which sums in another order again, atol 1e-4).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import xhip
from tests.pytest.conftest import REPO

ZOO = REPO / "tests" / "fixtures" / "zoo" / "text"
FIXTURES = sorted(p.name.removesuffix(".onnx") for p in ZOO.glob("*.onnx"))
VOCAB = 64
TEXT_SIZES = [(1, 1, 1), (2, 7, 5), (3, 12, 3)]
"""(batch, seq, other): `other` is the decoder's length or the past's."""
FEATURE_SIZES = {"input_values": [400, 1000, 640]}
"""Samples of the audio models, by batch 1, 2, 3; mel frames and pixels are fixed."""
SLOW = {"whisper", "wav2vec2", "hubert", "t5", "bart", "mbart", "qwen2_past"}


def _dims(model: onnx.ModelProto) -> dict[str, list[int | str]]:
    return {
        v.name: [d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim]
        for v in model.graph.input
    }


def inputs(
    model: onnx.ModelProto, size: int, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    """Seeded feeds of TEXT_SIZES[size] for every graph input, by its name."""
    batch, seq, other = TEXT_SIZES[size]
    dims = _dims(model)
    if is_static(model):  # exported at one shape: that one
        batch, seq = (int(d) for d in dims["input_ids"])
    has_past = any(n.startswith("past_") for n in dims)
    feeds: dict[str, np.ndarray] = {}
    for name, shape in dims.items():
        if name in ("input_ids", "decoder_input_ids"):
            length = other if name == "decoder_input_ids" else seq
            feeds[name] = rng.integers(0, VOCAB, (batch, length), dtype=np.int64)
        elif name == "attention_mask":
            total = seq + other if has_past else seq
            mask = np.ones((batch, total), dtype=np.int64)
            for row in range(1, batch):  # later rows padded at the end
                mask[row, total - min(2 * row, total - 1) :] = 0
            feeds[name] = mask
        elif name.startswith("past_"):
            _, heads, _, head_dim = shape
            assert isinstance(heads, int) and isinstance(head_dim, int)
            feeds[name] = rng.standard_normal((batch, heads, other, head_dim)).astype(
                np.float32
            )
        elif name == "input_values":
            feeds[name] = rng.standard_normal(
                (batch, FEATURE_SIZES[name][size])
            ).astype(np.float32)
        else:  # mel features, pixels: everything but the batch is static
            rest = [d for d in shape[1:] if isinstance(d, int)]
            assert len(rest) == len(shape) - 1, f"{name}: {shape}"
            feeds[name] = rng.standard_normal((batch, *rest)).astype(np.float32)
    return feeds


def expected(
    session: ort.InferenceSession, feeds: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """ONNX Runtime's outputs, by name."""
    names = [o.name for o in session.get_outputs()]
    outs = session.run(names, feeds)
    return {n: np.asarray(v) for n, v in zip(names, outs, strict=True)}


def is_static(model: onnx.ModelProto) -> bool:
    """Exported at one shape (the exports that bake the length in)."""
    return all(isinstance(d, int) for shape in _dims(model).values() for d in shape)


def sizes(model: onnx.ModelProto) -> range:
    return range(1 if is_static(model) else len(TEXT_SIZES))


def check(
    got: dict[str, np.ndarray],
    want: dict[str, np.ndarray],
    what: str,
    atol: float = 1e-5,
) -> None:
    assert list(got) == list(want), what
    for name, theirs in want.items():
        ours = got[name]
        assert ours.shape == theirs.shape, f"{what}: {name}"
        np.testing.assert_allclose(
            ours, theirs, rtol=1e-4, atol=atol, err_msg=f"{what}: {name}"
        )


def marks(name: str) -> list[pytest.MarkDecorator]:
    return [pytest.mark.slow] if name.split(".")[0] in SLOW else []


def fixture_path(name: str) -> Path:
    return ZOO / f"{name}.onnx"


def test_zoo_is_there() -> None:
    """The parametrization below comes from the files: never empty."""
    assert len(FIXTURES) >= 20, FIXTURES


@pytest.mark.parametrize("name", [pytest.param(n, marks=marks(n)) for n in FIXTURES])
def test_zoo_matches_onnxruntime(name: str) -> None:
    path = fixture_path(name)
    model = onnx.load(str(path))
    compiled = xhip.compile(path, "cpu")
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    for size in sizes(model):
        feeds = inputs(model, size, np.random.default_rng(size + 7))
        want = expected(session, feeds)
        check(compiled(dict(feeds)), want, f"{name} {TEXT_SIZES[size]}")


@pytest.mark.parametrize("name", [pytest.param(n, marks=marks(n)) for n in FIXTURES])
def test_zoo_matches_torch_eager(name: str) -> None:
    path = fixture_path(name)
    model = onnx.load(str(path))
    with np.load(ZOO / f"{name}.npz") as saved:
        feeds = {v.name: saved[v.name] for v in model.graph.input}
        want = {o.name: saved[o.name] for o in model.graph.output}
    got = xhip.compile(path, "cpu")(dict(feeds))
    check(got, want, name, atol=1e-4)
