"""Pow by a one-element exponent of 2 or 3: ONNX Runtime's CPU Pow computes it
as products, and so does the CPU runtime, so the results agree bit for bit
(`powf(x, 3)` differs in the last bit for about 30% of float32 values)."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import xhip

ONNX_TYPES = {np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE}


def _pow_model(dtype: type, exponent: np.ndarray | None) -> onnx.ModelProto:
    """z = Pow(x, y): y a constant when `exponent` is given, else an input."""
    t = ONNX_TYPES[dtype]
    inputs = [helper.make_tensor_value_info("x", t, ["n"])]
    initializers = []
    if exponent is None:
        inputs.append(helper.make_tensor_value_info("y", t, ["n"]))
    else:
        initializers.append(
            helper.make_tensor("y", t, exponent.shape, exponent.ravel().tolist())
        )
    graph = helper.make_graph(
        [helper.make_node("Pow", ["x", "y"], ["z"])],
        "pow",
        inputs,
        [helper.make_tensor_value_info("z", t, ["n"])],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("e", [2.0, 3.0, 2.5, -1.0])
@pytest.mark.parametrize("shape", [(), (1,)])
def test_scalar_exponent_matches_onnxruntime(
    dtype: type, e: float, shape: tuple[int, ...]
) -> None:
    model = _pow_model(dtype, np.full(shape, e, dtype))
    x = (np.random.default_rng(0).standard_normal(4096) * 3).astype(dtype)
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    want = session.run(None, {"x": x})[0]
    got = xhip.compile(model)({"x": x})["z"]
    if e in (2.0, 3.0):
        np.testing.assert_array_equal(got, want)  # the same products
    else:
        np.testing.assert_allclose(
            got, want, rtol=1e-6 if dtype == np.float32 else 1e-14
        )


def test_tensor_exponent_is_a_power() -> None:
    """A per-element exponent is `pow` itself, products or not."""
    model = _pow_model(np.float32, None)
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(4096) * 3).astype(np.float32)
    y = rng.choice(np.array([2.0, 3.0, 0.5, -2.0], np.float32), 4096)
    want = np.power(x.astype(np.float64), y.astype(np.float64))
    got = xhip.compile(model)({"x": x, "y": y})["z"]
    np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True)
