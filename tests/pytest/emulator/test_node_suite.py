"""onnx's node suite on the GPU runtimes, through the CPU stand-in of their device.

The same cases as `tests/pytest/backend/test_onnx_node_tests.py` (which runs
them on the CPU runtime), restricted to float32 ones: the GPU runtimes run
float32 only, and refuse other types in one line (`gpu.KernelRuntime`).
Expected outputs are onnx's own.
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx.backend.test.runner import Runner

import xhip
from tests.pytest.backend.test_onnx_node_tests import CASES, _array, _params
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.session import CompiledModel


def _float32_only(param: object) -> bool:
    case = param.values[0]  # pyright: ignore[reportAttributeAccessIssue]
    ((inputs, outputs),) = case.data_sets
    arrays = [_array(x) for x in (*inputs, *outputs)]
    return all(a.dtype == np.float32 for a in arrays)


PARAMS = [p for p in _params(CASES) if _float32_only(p)]


@pytest.mark.emulator
@pytest.mark.parametrize("case", PARAMS)
def test_node_on_gpu_runtimes(case: object, make_gpu: MakeGpu) -> None:
    ir = xhip.compile_to_ir(case.model)  # pyright: ignore[reportAttributeAccessIssue]
    model = CompiledModel(ir.module, ir.signature, ir.constants, make_gpu())
    ((inputs, outputs),) = case.data_sets  # pyright: ignore[reportAttributeAccessIssue]
    names = [v.name for v in case.model.graph.input]  # pyright: ignore[reportAttributeAccessIssue]
    got = model({n: _array(x) for n, x in zip(names, inputs, strict=True)})
    Runner.assert_similar_outputs(
        [_array(x) for x in outputs],
        list(got.values()),
        rtol=case.rtol,  # pyright: ignore[reportAttributeAccessIssue]
        atol=case.atol,  # pyright: ignore[reportAttributeAccessIssue]
    )
