"""onnx's `light` models (`onnx/backend/test/data/light`) on the CPU runtime.

Each is a classic CNN (AlexNet, DenseNet-121, Inception v1/v2, ResNet-50,
ShuffleNet, SqueezeNet, VGG-19, ZFNet-512) at opset 9, its weights made by
`ConstantOfShape` nodes, with one stored output. Its inputs are what onnx's
runner feeds (`Runner.generate_dummy_data`, `arange / n`), and the outputs are
compared the way the runner does (rtol 1e-3, atol 1e-7).

`MISSING_OPS` is the one list of models xhip refuses, each with the op it
lacks (a strict xfail: the import must fail for exactly that). `SLOW` lists
the models whose compile takes more than a few seconds (the times are
compile + run on 2 cores); they are marked `slow` (`-m "not slow"` leaves
them out of a quick run) and run in the suite like the others.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import onnx
import pytest
from onnx import numpy_helper
from onnx.backend.test.runner import Runner

import xhip
from xhip.frontend import OnnxImportError
from xhip.frontend.onnx_importer import OpsetConversionWarning

LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
MODELS = sorted(p.stem for p in LIGHT.glob("light_*.onnx"))

MISSING_OPS: dict[str, str] = {}
"""Models refused at import, with the op xhip lacks."""

SLOW = {
    "light_bvlc_alexnet": "9 s",
    "light_densenet121": "69 s (836 ConstantOfShape, 121 Conv)",
    "light_inception_v1": "8 s",
    "light_inception_v2": "27 s",
    "light_resnet50": "19 s",
    "light_shufflenet": "19 s",
    "light_vgg19": "9 s",
}
"""Models that take long to compile and run, with the time."""


def _params() -> list[object]:
    params: list[object] = []
    for name in MODELS:
        marks: list[pytest.MarkDecorator] = []
        if name in MISSING_OPS:
            marks.append(
                pytest.mark.xfail(
                    strict=True, raises=OnnxImportError, reason=MISSING_OPS[name]
                )
            )
        if name in SLOW:
            marks.append(pytest.mark.slow)
        params.append(pytest.param(name, id=name, marks=marks))
    return params


def test_the_models_are_there() -> None:
    assert len(MODELS) == 9
    assert set(MISSING_OPS) <= set(MODELS) and set(SLOW) <= set(MODELS)


@pytest.mark.parametrize("name", _params())
def test_light_model_matches_its_output(name: str) -> None:
    path = LIGHT / f"{name}.onnx"
    model = onnx.load(str(path))
    initializers = {t.name for t in model.graph.initializer}
    feeds = {
        v.name: Runner.generate_dummy_data(v)
        for v in model.graph.input
        if v.name not in initializers
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OpsetConversionWarning)
        compiled = xhip.compile(path)
    tensor = onnx.load_tensor(str(LIGHT / f"{name}_output_0.pb"))
    expected = [numpy_helper.to_array(tensor)]
    got = list(compiled(feeds).values())
    Runner.assert_similar_outputs(expected, got, rtol=1e-3, atol=1e-7)
