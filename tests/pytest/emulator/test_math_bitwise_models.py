"""The models of `tests/pytest/backend/test_math_bitwise_models.py` (Tan ...
Atanh, the Bitwise ops, BitShift, Shrink, Swish on every element type ONNX
Runtime runs them in) through `CudaRuntime` and `HipRuntime` on the CPU
stand-in of their device API, against the same references: the kernels
compute float32 in float32 (`tanf`, ...), float16 in float32."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest

import xhip
from tests.pytest.backend.test_math_bitwise_models import (
    CASES,
    assert_matches,
    case_id,
    expected,
    feeds,
    model,
)
from tests.pytest.emulator.conftest import MakeGpu
from xhip.api import CompiledIR
from xhip.backend.session import CompiledModel

pytestmark = pytest.mark.emulator


@cache
def _compiled(index: int) -> CompiledIR:
    return xhip.compile_to_ir(model(*CASES[index]))


@pytest.mark.parametrize("index", range(len(CASES)), ids=[case_id(c) for c in CASES])
def test_matches_the_references(index: int, make_gpu: MakeGpu) -> None:
    op, dtype, attributes = CASES[index]
    ir = _compiled(index)
    inputs = feeds(op, dtype)
    run: Any = CompiledModel(ir.module, ir.signature, ir.constants, make_gpu())
    got = np.asarray(run(inputs)["z"])
    assert_matches(got, expected(op, dtype, attributes, inputs))
