"""onnx's node suite on the GPU runtimes, through the CPU stand-in of their device.

The same cases as `tests/pytest/backend/test_onnx_node_tests.py` (which runs
them on the CPU runtime), for every element type the GPU runtimes' kernels
take (`elementwise.ELEMENT_TYPES`: float16/32/64, the integers, bool).
Expected outputs are onnx's own. A case on a type an op's GPU kernels do
not take (the float32-only convolutions and pooling; integer GEMMs: the runtime refuses it in one line, `NotImplementedOnDevice`) is an
xfail naming the op.
Each case is compiled once, for all the GPU runtimes.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from onnx.backend.test.runner import Runner

import xhip
from tests.pytest.backend.test_onnx_node_tests import CASES, _array, _params
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.elementwise import TYPE_OF
from xhip.backend.gpu import CPU_ONLY
from xhip.backend.runtime import NotImplementedOnDevice
from xhip.backend.session import CompiledModel
from xhip.frontend import OnnxImportError, import_model
from xhip.frontend.sequence_types import (
    gather_outputs,
    is_structured,
    with_tensor_inputs,
)
from xhip.specialize import specializes


def _arrays(case: Any) -> list[np.ndarray]:
    """The case's arrays, a sequence's elements included."""
    ((inputs, outputs),) = case.data_sets
    values = [_array(x) for x in (*inputs, *outputs)]
    return [
        a
        for v in values
        for a in (v if isinstance(v, list) else [v] if v is not None else [])
    ]


def _structured(case: Any) -> bool:
    """Whether the case has a sequence or optional input or output."""
    graph = case.model.graph
    return any(is_structured(v.type) for v in (*graph.input, *graph.output))


def _kernel_types_only(param: Any) -> bool:
    return all(a.dtype in TYPE_OF for a in _arrays(param.values[0]))


PARAMS = [p for p in _params(CASES) if _kernel_types_only(p)]


@cache
def _compiled(name: str) -> Any:
    """The case's IR, or None where the model specializes on run-time values
    (`xhip.specialize`, `xhip.specialize_values`): compiled per runtime then."""
    case = next(p.values[0] for p in PARAMS if p.values[0].name == name)
    try:
        module = import_model(case.model)
    except OnnxImportError:  # typed per input value (xhip.specialize_values)
        return None
    if specializes(module):
        return None
    return xhip.compile_to_ir(case.model)


@pytest.mark.emulator
@pytest.mark.parametrize("case", PARAMS)
def test_node_on_gpu_runtimes(case: Any, make_gpu: MakeGpu) -> None:
    ((inputs, outputs),) = case.data_sets
    names = [v.name for v in case.model.graph.input]
    if _structured(case):
        # Sequences as XhipBackend takes and gives them (docs/sequences.md).
        named = {n: _array(x) for n, x in zip(names, inputs, strict=True)}
        expanded, arrays = with_tensor_inputs(case.model, named)
        model = xhip.compile(expanded, runtime=make_gpu())
        got = gather_outputs(expanded, model(arrays))
        Runner.assert_similar_outputs(
            [_array(x) for x in outputs], got, rtol=case.rtol, atol=case.atol
        )
        return
    ir = _compiled(case.name)
    model = (
        xhip.compile(case.model, runtime=make_gpu())
        if ir is None
        else CompiledModel(ir.module, ir.signature, ir.constants, make_gpu())
    )
    try:
        got = model({n: _array(x) for n, x in zip(names, inputs, strict=True)})
    except NotImplementedOnDevice as refusal:
        # An op the GPU runtimes lack (`gpu.CPU_ONLY`, each with its reason)
        # is an xfail on every type.
        lacking = [op for op in CPU_ONLY if f"{op} is not implemented" in str(refusal)]
        if lacking:
            pytest.xfail(f"{refusal} ({CPU_ONLY[lacking[0]]})")
        # A float32 case may still compute in another type inside (the
        # expanded ReduceLogSumExp casts to double): refused for that type.
        inside = "float32 only" in str(refusal)
        if all(a.dtype == np.float32 for a in _arrays(case)) and not inside:
            raise
        pytest.xfail(str(refusal))
    Runner.assert_similar_outputs(
        [_array(x) for x in outputs],
        list(got.values()),
        rtol=case.rtol,
        atol=case.atol,
    )
