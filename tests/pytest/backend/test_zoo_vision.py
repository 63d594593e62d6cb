"""The vision model zoo (`tests/fixtures/zoo/vision/`, made by
`scripts/export_zoo_vision.py`): tiny transformers and torchvision models, each
exported by both torch exporters, compiled once by xhip for the CPU runtime and
run at two or three input sizes against ONNX Runtime. Where the export keeps
height and width dynamic, one compiled model serves sizes of different aspect;
otherwise the batch varies.

Tolerance: float32 convolutions, attention and normalizations computed in
another order than ONNX Runtime's MLAS, over one to a few layers of O(1)
activations: 1e-4 relative, 1e-4 absolute.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import onnxruntime as ort
import pytest

import xhip
from tests.pytest.conftest import REPO
from xhip.specialize import Model

FIXTURES = REPO / "tests" / "fixtures" / "zoo" / "vision"
SPATIAL = [(1, 64, 64), (2, 48, 80), (1, 96, 64)]
FIXED_32 = [(1, 32, 32), (3, 32, 32)]
FIXED_64 = [(1, 64, 64), (2, 64, 64)]
SIZES: dict[str, list[tuple[int, int, int]]] = {
    "vit_cls": FIXED_32,
    "beit": FIXED_32,
    "dinov2": [(1, 32, 32), (2, 48, 32), (1, 64, 80)],
    "swin": FIXED_32,
    "convnext": SPATIAL,
    "convnextv2": SPATIAL,
    "resnet_hf": SPATIAL,
    "segformer": SPATIAL,
    "swinv2": FIXED_32,
    "poolformer": SPATIAL,
    "focalnet": SPATIAL,
    "pvt": FIXED_32,
    "bit": SPATIAL,
    "regnet_hf": SPATIAL,
    "hiera": FIXED_64,
    "detr": FIXED_32,
    "tv_squeezenet": SPATIAL,
    "tv_shufflenet_v2": SPATIAL,
    "tv_densenet": SPATIAL,
    "tv_mobilenet_v3": SPATIAL,
    "tv_deeplab": SPATIAL,
    "tv_swin": [(1, 32, 32), (2, 48, 40), (1, 64, 64)],
    "tv_maxvit": FIXED_64,
    "tv_convnext": SPATIAL,
}
"""Model -> (batch, height, width) sizes, as the export script checked them."""
NOT_EXPORTED = {
    *"beit dinov2 swin swinv2 hiera segformer tv_swin".split(),
}
"""Models whose dynamo export is not committed (README.md says why: torch's
decomposition fails, or ONNX Runtime fails at a size other than the traced
one, or the file is over the size limit): torch's failures, not xhip's."""

FILES = sorted(
    f"{name}.{exporter}"
    for name in SIZES
    for exporter in ("torchscript", "dynamo")
    if exporter == "torchscript" or name not in NOT_EXPORTED
)
RTOL = ATOL = 1e-4


def pixels(shape: tuple[int, int, int], seed: int) -> dict[str, np.ndarray]:
    b, h, w = shape
    rng = np.random.default_rng(seed * 1000 + b * 100 + h + w)
    return {"pixel_values": rng.standard_normal((b, 3, h, w)).astype(np.float32)}


def expected(file: str, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """ONNX Runtime's outputs, by name."""
    session = ort.InferenceSession(file, providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    outputs = session.run(None, feeds)
    return {n: np.asarray(v) for n, v in zip(names, outputs, strict=True)}


def check(got: dict[str, np.ndarray], want: dict[str, np.ndarray], what: str) -> None:
    assert list(got) == list(want), what
    for name, theirs in want.items():
        ours = np.asarray(got[name])
        assert ours.shape == theirs.shape, f"{what}: {name} {ours.shape} {theirs.shape}"
        assert ours.dtype == theirs.dtype, f"{what}: {name}"
        np.testing.assert_allclose(
            ours, theirs, rtol=RTOL, atol=ATOL, err_msg=f"{what}: {name}"
        )


def path(case: str) -> str:
    return str(FIXTURES / f"{case}.onnx")


@pytest.fixture(scope="module")
def released() -> Iterator[list[Model]]:
    models: list[Model] = []
    yield models
    for model in models:
        model.release()


def test_every_fixture_is_listed() -> None:
    """A fixture the script adds is tested, and a listed one exists."""
    on_disk = sorted(p.name.removesuffix(".onnx") for p in FIXTURES.glob("*.onnx"))
    assert on_disk == FILES


@pytest.mark.parametrize("case", FILES)
def test_zoo_model_matches_onnxruntime(case: str, released: list[Model]) -> None:
    """One compiled model for every size of the case."""
    model = xhip.compile(path(case), "cpu")
    released.append(model)
    for seed, shape in enumerate(SIZES[case.rsplit(".", 1)[0]]):
        feeds = pixels(shape, seed)
        check(model(feeds), expected(path(case), feeds), f"{case} {shape}")
