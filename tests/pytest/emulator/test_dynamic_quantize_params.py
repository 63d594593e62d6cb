"""DynamicQuantizeLinear's scale and zero point on the GPU runtimes (the CPU
stand-in of their device, debug mode) against ONNX Runtime, bit for bit:
ranges within a few ulps of a zero point's tie, and ranges with NaN, which
ONNX Runtime's min/max and the GPU kernel skip
(`tests/pytest/backend/test_dynamic_quantize_params.py`)."""

from __future__ import annotations

import pytest

from tests.pytest.backend.test_dynamic_quantize_params import (
    INF_CASES,
    NAN_CASES,
    check_inf,
    check_nan,
    check_near_ties,
)
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator


def test_zero_point_near_ties_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    check_near_ties(make_gpu(debug=True))


@pytest.mark.parametrize("name", sorted(NAN_CASES))
def test_nan_is_skipped_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    check_nan(name, make_gpu(debug=True))


@pytest.mark.parametrize("name", sorted(INF_CASES))
def test_an_infinite_range_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    check_inf(name, make_gpu(debug=True))
