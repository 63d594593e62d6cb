"""Range at opset 27, whose `stash_type` is the precision a float16 Range
computes in (float32 by default, double with 11), on the CPU runtime and on
the GPU runtimes (the emulated device), against ONNX Runtime: `start + i *
delta` computed wide and rounded once, where float16 steps would round at
every element (2049 is not a float16)."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper
from xdsl.utils.exceptions import PassFailedException

import xhip
from tests.pytest.emulator import conftest as emulator
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.session import CompiledModel

emulated, make_gpu = emulator.emulated, emulator.make_gpu
"""The emulator's fixtures: its kernels built once, the GPU runtimes on them."""

CASES: dict[str, tuple[int, int | None, tuple[float, float, float]]] = {
    "float_half_steps": (TensorProto.FLOAT, None, (0, 7, 0.5)),
    "float16_default": (TensorProto.FLOAT16, None, (2040, 2060, 1)),
    "float16_float": (TensorProto.FLOAT16, 1, (0.1, 9, 0.3)),
    "float16_double": (TensorProto.FLOAT16, 11, (2100, 2000, -1.5)),
    "int64": (TensorProto.INT64, None, (-3, 9, 2)),
}
"""Element type, `stash_type` (None: the default), start, limit, delta."""


def _model(
    elem: int, stash: int | None, numbers: tuple[float, float, float]
) -> onnx.ModelProto:
    """One Range of constant operands (whose length is known at compile time)."""
    dtype = helper.tensor_dtype_to_np_dtype(elem)
    node = helper.make_node("Range", ["start", "limit", "delta"], ["y"])
    if stash is not None:
        node.attribute.append(helper.make_attribute("stash_type", stash))
    initializers = [
        numpy_helper.from_array(np.array(v, dtype), name)
        for name, v in zip(("start", "limit", "delta"), numbers, strict=True)
    ]
    graph = helper.make_graph(
        [node],
        "range",
        [],
        [helper.make_tensor_value_info("y", elem, [None])],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 27)])


def _check(model: onnx.ModelProto, got: dict[str, np.ndarray]) -> None:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    want = np.asarray(session.run(None, {})[0])
    assert got["y"].dtype == want.dtype
    np.testing.assert_array_equal(got["y"], want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_range_27_on_cpu(name: str) -> None:
    model = _model(*CASES[name])
    _check(model, xhip.compile(model, device="cpu")({}))


@pytest.mark.emulator
@pytest.mark.parametrize("name", sorted(CASES))
def test_range_27_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    model = _model(*CASES[name])
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(ir.module, ir.signature, ir.constants, make_gpu())
    _check(model, compiled({}))


def test_an_unknown_stash_type_is_refused() -> None:
    model = _model(TensorProto.FLOAT16, TensorProto.INT32, (0, 4, 1))
    with pytest.raises(
        PassFailedException, match="stash_type 6 \\(float or double only"
    ):
        xhip.compile(model)
