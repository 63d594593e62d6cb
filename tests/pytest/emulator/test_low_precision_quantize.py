"""`tests/pytest/backend/test_low_precision_quantize.py` on the emulated GPU
runtimes: int4, uint4 and float8 QuantizeLinear / DequantizeLinear (per
tensor, per axis, blocked; float32 and float16; float8 with and without
saturation) and Cast to float8 against ONNX Runtime, packed int4 weights
into a MatMul, int4 and float8 model inputs and outputs, and onnx's int4
node cases at opset 21. The kernels (`kernels/quantize.h`) read int4 as the
low nibble of its byte, whichever way the high one was left, and round to
float8 themselves (`xhip_f8_encode`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pytest.backend.test_low_precision_quantize import (
    F8_IDS,
    F16,
    F32,
    FLOAT8,
    INT4,
    LAYOUTS,
    NODE_CASES,
    UINT4,
    cast_pair,
    check_cast,
    check_io,
    check_node_case,
    check_quantize,
    check_weights,
    quantize_pair,
    weights_pair,
)
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("ftype", [F32, F16], ids=["f32", "f16"])
@pytest.mark.parametrize("qtype", [INT4, UINT4], ids=["int4", "uint4"])
def test_quantize_dequantize(
    qtype: int, ftype: int, layout: str, make_gpu: MakeGpu
) -> None:
    check_quantize(quantize_pair(qtype, ftype, layout), make_gpu())


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("qtype", [INT4, UINT4], ids=["int4", "uint4"])
def test_packed_weights_into_matmul(qtype: int, layout: str, make_gpu: MakeGpu) -> None:
    check_weights(weights_pair(qtype, layout), make_gpu())


@pytest.mark.parametrize("qtype", [INT4, UINT4], ids=["int4", "uint4"])
def test_int4_inputs_and_outputs(qtype: int, make_gpu: MakeGpu) -> None:
    check_io(qtype, make_gpu())


@pytest.mark.parametrize("case", NODE_CASES, ids=lambda c: c.name)
def test_node_case_at_opset_21(case: Any, make_gpu: MakeGpu) -> None:
    check_node_case(case, make_gpu())


@pytest.mark.parametrize("saturate", [1, 0], ids=["saturate", "overflow"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("ftype", [F32, F16], ids=["f32", "f16"])
@pytest.mark.parametrize("qtype", FLOAT8, ids=F8_IDS)
def test_float8_quantize_dequantize(
    qtype: int, ftype: int, layout: str, saturate: int, make_gpu: MakeGpu
) -> None:
    check_quantize(quantize_pair(qtype, ftype, layout, saturate), make_gpu())


@pytest.mark.parametrize("saturate", [1, 0], ids=["saturate", "overflow"])
@pytest.mark.parametrize("source", [F32, F16], ids=["f32", "f16"])
@pytest.mark.parametrize("target", FLOAT8, ids=F8_IDS)
def test_cast_to_float8(
    target: int, source: int, saturate: int, make_gpu: MakeGpu
) -> None:
    check_cast(cast_pair(target, source, saturate), make_gpu())


@pytest.mark.parametrize("qtype", FLOAT8, ids=F8_IDS)
def test_float8_inputs_and_outputs(qtype: int, make_gpu: MakeGpu) -> None:
    check_io(qtype, make_gpu())
