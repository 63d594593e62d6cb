"""The detection and OCR exports of `tests/pytest/backend/test_detection_models.py`
on the GPU runtimes through the CPU stand-in of their device, in debug mode,
against ONNX Runtime, each at two input sizes: the YOLO-style detector (its
anchor grid specialized on, NonMaxSuppression's selection data-sized), the DB
text detector (Resize to computed sizes) and the CRNN recognizer (compiled per
width), the TorchScript exports; and the dynamo exports of the detector."""

from __future__ import annotations

import pytest

import xhip
from tests.pytest.backend.test_detection_models import check, expected, image, path
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator

CASES = {
    "detection/yolo.torchscript": [(1, 3, 32, 48), (2, 3, 48, 32)],
    "detection/yolo.dynamo": [(1, 3, 32, 48), (2, 3, 48, 32)],
    "ocr/db_det.torchscript": [(1, 3, 32, 48), (2, 3, 24, 40)],
    "ocr/crnn_rec.torchscript": [(1, 3, 32, 40), (2, 3, 32, 24)],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_export_on_gpu_runtimes(case: str, make_gpu: MakeGpu) -> None:
    name, exporter = case.rsplit(".", 1)
    file = path(name, exporter)
    model = xhip.compile(file, runtime=make_gpu(debug=True))
    try:
        for shape in CASES[case]:
            feeds = image(shape)
            check(model(feeds), expected(file, feeds), f"{case} {shape}")
    finally:
        model.release()
