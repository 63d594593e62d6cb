"""A representative part of the vision model zoo
(`tests/pytest/backend/test_zoo_vision.py`) on the GPU runtimes through the CPU
stand-in of their device, in debug mode, against ONNX Runtime, each at two
sizes: window attention, roll and pad (Swin), weight-standardized convs whose
weights are computed (BiT, the importer fix of `test_zoo_vision_regressions`),
channels-last LayerNorm and GRN (ConvNeXt V2), efficient attention and
Resize (SegFormer), channel shuffle (ShuffleNetV2), hardswish and
squeeze-excitation (MobileNetV3), dilated convs and bilinear Resize
(DeepLabV3)."""

from __future__ import annotations

import pytest

import xhip
from tests.pytest.backend.test_zoo_vision import SIZES, check, expected, path, pixels
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator

CASES = [
    "swin.torchscript",
    "bit.torchscript",
    "convnextv2.dynamo",
    "segformer.torchscript",
    "tv_shufflenet_v2.dynamo",
    "tv_mobilenet_v3.torchscript",
    "tv_deeplab.dynamo",
]


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_zoo_model_on_gpu_runtimes(case: str, make_gpu: MakeGpu) -> None:
    model = xhip.compile(path(case), runtime=make_gpu(debug=True))
    try:
        for seed, shape in enumerate(SIZES[case.rsplit(".", 1)[0]][:2]):
            feeds = pixels(shape, seed)
            check(model(feeds), expected(path(case), feeds), f"{case} {shape}")
    finally:
        model.release()
