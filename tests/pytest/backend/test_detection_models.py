"""The detection and OCR exports of issue 23 (`scripts/make_detection_fixtures.py`,
both torch exporters) against ONNX Runtime on the CPU runtime, each at two or
more input sizes so that what the graph computes from its input's shape runs
at each:

- `detection/yolo.*`: a YOLO-style detector whose anchor grid is a float Range
  over the feature map's run-time size (a `SpecializingModel`, guarded on the
  bounds), TopK of the candidates, NonMaxSuppression and the gathers of the
  selected boxes: outputs whose length is data.
- `ocr/db_det.*`: a PaddleOCR-style DB text detector, an FPN that resizes to
  sizes computed from Shape (Resize `sizes`), dynamic batch, height, width.
- `ocr/crnn_rec.*`: a PaddleOCR-style CRNN recognizer (Shape-arithmetic
  Reshape, bidirectional LSTM over the width, Softmax). The LSTM is unrolled
  over a static sequence length, so `xhip.compile` makes it a
  `ShapeSpecializingModel`: compiled per input shape (`xhip.specialize_shapes`).
  `compile_to_ir`, one IR for every shape, still refuses it in one line.

Tolerances: float outputs are float32 convolutions, an LSTM and a softmax
computed in another order than ONNX Runtime's MLAS: scores and probabilities
to 1e-5 absolute; box corners, which are pixels up to ~100, to 1e-5 relative
and 1e-4 absolute. Indices (classes, batch rows) and output lengths exactly.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import xhip
from tests.pytest.conftest import REPO
from xhip.backend.session import CompiledModel, InputError
from xhip.dialects.onnx import parse_dim_params
from xhip.specialize import Model, SpecializingModel
from xhip.specialize_shapes import ShapeSpecializingModel
from xhip.transforms.convert_onnx_to_hip import NeedsStaticShapes

FIXTURES = REPO / "tests" / "fixtures"
EXPORTERS = ("torchscript", "dynamo")
SIZES: dict[str, list[tuple[int, ...]]] = {
    "detection/yolo": [(1, 3, 64, 96), (2, 3, 96, 64), (1, 3, 32, 32)],
    "ocr/db_det": [(1, 3, 64, 96), (2, 3, 40, 56), (1, 3, 24, 104)],
    "ocr/crnn_rec": [(1, 3, 32, 80), (3, 3, 32, 44)],
}
TOLERANCES: dict[str, tuple[float, float]] = {
    "boxes": (1e-5, 1e-4),
    "scores": (0.0, 1e-5),
    "probability": (0.0, 1e-5),
    "probs": (0.0, 1e-5),
}
"""Output name -> (rtol, atol) for the float outputs; integers are exact."""


def path(name: str, exporter: str) -> str:
    return str(FIXTURES / f"{name}.{exporter}.onnx")


def image(shape: tuple[int, ...]) -> dict[str, np.ndarray]:
    """A seeded image in [0, 1), as the models were exported for."""
    rng = np.random.default_rng(sum(shape) * 31 + shape[0])
    return {"x": rng.random(shape, dtype=np.float32)}


def expected(
    model: str | onnx.ModelProto, feeds: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """ONNX Runtime's outputs, by name."""
    source = model if isinstance(model, str) else model.SerializeToString()
    session = ort.InferenceSession(source, providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    outputs = session.run(None, feeds)
    return {n: np.asarray(v) for n, v in zip(names, outputs, strict=True)}


def check(got: dict[str, np.ndarray], want: dict[str, np.ndarray], what: str) -> None:
    assert list(got) == list(want), what
    for name, theirs in want.items():
        ours = np.asarray(got[name])
        assert ours.shape == theirs.shape, f"{what}: {name} {ours.shape} {theirs.shape}"
        assert ours.dtype == theirs.dtype, f"{what}: {name}"
        if np.issubdtype(theirs.dtype, np.integer):
            np.testing.assert_array_equal(ours, theirs, err_msg=f"{what}: {name}")
        else:
            rtol, atol = TOLERANCES[name]
            np.testing.assert_allclose(
                ours, theirs, rtol=rtol, atol=atol, err_msg=f"{what}: {name}"
            )


def with_static_input(
    name: str, exporter: str, shape: tuple[int, ...]
) -> onnx.ModelProto:
    """The export with its input's dims fixed to `shape`."""
    model = onnx.load(path(name, exporter))
    for dim, size in zip(model.graph.input[0].type.tensor_type.shape.dim, shape):
        dim.Clear()
        dim.dim_value = size
    return model


@pytest.fixture(scope="module")
def compiled() -> Iterator[dict[str, Model]]:
    cache: dict[str, Model] = {}
    yield cache
    for model in cache.values():
        model.release()


def _model(cache: dict[str, Model], file: str) -> Model:
    if file not in cache:
        cache[file] = xhip.compile(file, "cpu")
    return cache[file]


@pytest.mark.parametrize("exporter", EXPORTERS)
@pytest.mark.parametrize("name", ["detection/yolo", "ocr/db_det"])
def test_dynamic_export_matches_onnxruntime(
    compiled: dict[str, Model], name: str, exporter: str
) -> None:
    """One compiled model serves every size (batch, height and width)."""
    model = _model(compiled, path(name, exporter))
    for shape in SIZES[name]:
        feeds = image(shape)
        check(model(feeds), expected(path(name, exporter), feeds), f"{shape}")


def test_yolo_outputs_are_data_sized(
    compiled: dict[str, Model],
) -> None:
    """The float Range bounds are specialized on (one build per feature-map
    size), and the selection's length is data: it differs between images of
    the same size, below NMS's per-class cap."""
    file = path("detection/yolo", "torchscript")
    model = _model(compiled, file)
    assert isinstance(model, SpecializingModel)
    lengths = set()
    rng = np.random.default_rng(5)
    for _ in range(3):
        feeds = {"x": rng.random((1, 3, 64, 96), dtype=np.float32)}
        got = model(feeds)
        check(got, expected(file, feeds), "(1, 3, 64, 96)")
        lengths.add(got["classes"].shape[0])
    assert len(lengths) > 1, lengths
    assert model.specializations <= model.max_specializations


@pytest.mark.parametrize("exporter", EXPORTERS)
def test_crnn_is_compiled_per_width_and_matches_onnxruntime(exporter: str) -> None:
    """One build per input shape; a shape seen before reuses its build."""
    file = path("ocr/crnn_rec", exporter)
    model = xhip.compile(file, "cpu")
    assert isinstance(model, ShapeSpecializingModel)
    shapes = [*SIZES["ocr/crnn_rec"], SIZES["ocr/crnn_rec"][0]]
    for shape in shapes:
        feeds = image(shape)
        check(model(feeds), expected(file, feeds), f"{shape}")
    assert model.builds == len(SIZES["ocr/crnn_rec"]) == model.specializations
    with pytest.raises(InputError, match="missing input"):
        model({})


@pytest.mark.parametrize("exporter", EXPORTERS)
def test_crnn_at_static_shapes_is_one_compiled_model(exporter: str) -> None:
    """Fixed dims give the LSTM a number for its length, also where the
    dynamo export's Reshape leaves its type `?` (found through the sizes)."""
    shape = SIZES["ocr/crnn_rec"][1]
    model = with_static_input("ocr/crnn_rec", exporter, shape)
    compiled = xhip.compile(model, "cpu")
    assert isinstance(compiled, CompiledModel)
    feeds = image(shape)
    check(compiled(feeds), expected(model, feeds), f"{shape}")


def test_one_ir_for_every_width_is_refused() -> None:
    """`compile_to_ir` cannot specialize: the LSTM's run-time length is
    refused in one line that names the op and the dim."""
    with pytest.raises(
        NeedsStaticShapes, match=r"onnx\.LSTM .*sequence length .*must be static"
    ):
        xhip.compile_to_ir(path("ocr/crnn_rec", "torchscript"))


def test_shape_specializations_are_bounded() -> None:
    file = path("ocr/crnn_rec", "torchscript")
    model = xhip.compile(file, "cpu")
    assert isinstance(model, ShapeSpecializingModel)
    model.max_specializations = 1
    for width in (40, 48, 40):
        feeds = image((1, 3, 32, width))
        check(model(feeds), expected(file, feeds), f"width {width}")
        assert model.specializations == 1
    assert model.builds == 3


def test_specializations_keep_their_constants_to_themselves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A specialization's weights (externalized: 256 elements and more) go to
    a directory of its own compile, not `model.constants.bin` in the working
    directory, where another compile would overwrite them."""
    monkeypatch.chdir(tmp_path)
    file = path("detection/yolo", "torchscript")
    model = xhip.compile(file, "cpu")
    assert isinstance(model, SpecializingModel)
    feeds = image((1, 3, 32, 32))
    check(model(feeds), expected(file, feeds), "(1, 3, 32, 32)")
    assert not list(tmp_path.iterdir())


def test_dim_names_may_hold_commas() -> None:
    """The dynamo exporter names dims with expressions (`crnn_rec.dynamo`'s
    output): a comma splits entries only before the next `<dim>:`."""
    text = "0:20*Min((s0//4), (s0//80)),1:s77,2:12"
    assert parse_dim_params(text) == {0: "20*Min((s0//4), (s0//80))", 1: "s77", 2: "12"}
