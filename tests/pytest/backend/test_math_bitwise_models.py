"""Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh, the Bitwise ops,
BitShift, Shrink and Swish on every element type the ONNX spec allows them
that ONNX Runtime runs, in a model with a dynamic dim (the second operand of
a binary op broadcast), against ONNX Runtime on the CPU runtime;
`tests/pytest/emulator/test_math_bitwise_models.py` runs the same models on
the GPU runtimes. float64 trigonometry, which ONNX Runtime does not run, is
held to numpy's float64 instead, and float64 Shrink to onnx's reference:
ONNX Runtime's rounds through float32 (its 1 + 2^-40 is 1).

The inputs reach where the ops are delicate: NaN and the infinities, values
outside Asin's, Acos's, Acosh's and Atanh's domains (NaN), Sinh and Cosh
past float16's and float32's ranges (inf), the bitwise ops over their full
integer ranges, shifts by every count from -2 to the width + 2 (BitShift-28
says: 0 out of [0, width), the sign for a signed right shift), Shrink's
integers truncated back from float64.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator

import xhip

FLOATS = ("float16", "float32")
"""The float types ONNX Runtime runs the trigonometric ops in."""
INTEGERS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
NUMPY_FLOAT64 = {
    "Tan": np.tan,
    "Asin": np.arcsin,
    "Acos": np.arccos,
    "Atan": np.arctan,
    "Sinh": np.sinh,
    "Cosh": np.cosh,
    "Asinh": np.arcsinh,
    "Acosh": np.arccosh,
    "Atanh": np.arctanh,
}
"""The reference where ONNX Runtime has no kernel (float64 trigonometry)."""
TRIGONOMETRY = tuple(NUMPY_FLOAT64)
BITWISE = ("BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot")

CASES: list[tuple[str, str, dict[str, Any]]] = [
    *((op, t, {}) for op in TRIGONOMETRY for t in (*FLOATS, "float64")),
    *((op, t, {}) for op in BITWISE for t in INTEGERS),
    *(("BitShift", t, {"direction": d}) for d in ("LEFT", "RIGHT") for t in INTEGERS),
    *(("Shrink", t, {}) for t in (*FLOATS, "float64", *INTEGERS)),
    *(("Shrink", t, {"lambd": 1.5, "bias": 0.75}) for t in ("float32", "int32")),
    *(("Swish", t, {}) for t in (*FLOATS, "float64")),
    ("Swish", "float32", {"alpha": 0.3}),
]
"""(op, element type, attributes): every type of the spec that ONNX Runtime
runs (no bfloat16 anywhere), float64 trigonometry too."""

OPSET = {"BitShift": 28, "Swish": 24}
"""Opsets beyond 22: BitShift-28 takes signed types, Swish is new in 24."""


def case_id(case: tuple[str, str, dict[str, Any]]) -> str:
    op, dtype, attributes = case
    return "-".join([op, dtype, *(f"{k}={v}" for k, v in sorted(attributes.items()))])


def model(op: str, dtype: str, attributes: dict[str, Any]) -> onnx.ModelProto:
    element = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    arity = 2 if op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitShift") else 1
    shapes = (["batch", 6], [6])
    inputs = [
        helper.make_tensor_value_info(f"x{i}", element, shapes[i]) for i in range(arity)
    ]
    names = [f"x{i}" for i in range(arity)]
    node = helper.make_node(op, names, ["z"], **attributes)
    out = helper.make_tensor_value_info("z", element, ["batch", 6])
    graph = helper.make_graph([node], op.lower(), inputs, [out])
    opset = helper.make_opsetid("", OPSET.get(op, 22))
    return helper.make_model(graph, opset_imports=[opset])


def _floats(op: str, rng: np.random.Generator, n: int) -> np.ndarray:
    low, high = {
        "Tan": (-1.5, 1.5),
        "Asin": (-1.2, 1.2),
        "Acos": (-1.2, 1.2),
        "Atanh": (-1.2, 1.2),
        "Acosh": (0.5, 12.0),
        "Sinh": (-12.0, 12.0),
        "Cosh": (-12.0, 12.0),
    }.get(op, (-6.0, 6.0))
    x = rng.uniform(low, high, n)
    x[:6] = (np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0)
    if op in ("Sinh", "Cosh"):
        x[6:8] = (100.0, -100.0)  # inf in float16 and float32
    return x


def feeds(op: str, dtype: str, batch: int = 3) -> dict[str, np.ndarray]:
    """Inputs of `model(op, dtype, ...)`, the same for the same arguments."""
    rng = np.random.default_rng(len(op) * 1000 + np.dtype(dtype).num)
    t = np.dtype(dtype)
    n = batch * 6
    if t.kind == "f":
        return {"x0": _floats(op, rng, n).astype(t).reshape(batch, 6)}
    info = np.iinfo(t)
    if op == "Shrink":
        low, high = max(info.min, -9), min(info.max, 9)
        x = rng.integers(low, high, n, endpoint=True).astype(t)
    else:
        x = rng.integers(info.min, info.max, n, t, endpoint=True)
    result = {"x0": x.reshape(batch, 6)}
    if op == "BitShift":
        low = -2 if t.kind == "i" else 0
        result["x0"][0] = (1, -1 if t.kind == "i" else 3, 5, info.max, info.min, 2)
        result["x1"] = np.array([low, 0, 1, info.bits - 1, info.bits, info.bits + 2], t)
    elif op != "BitwiseNot" and op.startswith("Bitwise"):
        result["x1"] = rng.integers(info.min, info.max, 6, t, endpoint=True)
    return result


def expected(
    op: str, dtype: str, attributes: dict[str, Any], inputs: dict[str, np.ndarray]
) -> np.ndarray:
    """ONNX Runtime's answer; numpy's float64 one for float64 trigonometry,
    onnx's reference for float64 Shrink (see above)."""
    if op in NUMPY_FLOAT64 and dtype == "float64":
        with np.errstate(all="ignore"):
            return np.asarray(NUMPY_FLOAT64[op](inputs["x0"]))
    if op == "Shrink" and dtype == "float64":
        evaluator = ReferenceEvaluator(model(op, dtype, attributes))
        (result,) = evaluator.run(None, inputs)
        return np.asarray(result)
    session = ort.InferenceSession(
        model(op, dtype, attributes).SerializeToString(),
        providers=["CPUExecutionProvider"],
    )
    (result,) = session.run(None, inputs)
    return np.asarray(result)


def assert_matches(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.dtype.kind in "iu":
        np.testing.assert_array_equal(got, want)
        return
    rtol = {"float16": 2e-3, "float32": 1e-5, "float64": 1e-12}[got.dtype.name]
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 1e-3)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_matches_onnxruntime(case: tuple[str, str, dict[str, Any]]) -> None:
    op, dtype, attributes = case
    inputs = feeds(op, dtype)
    got = xhip.compile(model(op, dtype, attributes))(inputs)["z"]
    assert_matches(np.asarray(got), expected(op, dtype, attributes, inputs))


def test_shrink_on_integers_truncates_as_onnx_reference() -> None:
    """Shrink on int32 computes in float64 and truncates toward zero, as
    onnx's reference does: -5 + 0.5 is -4, 5 - 0.5 is 4."""
    inputs = {"x0": np.array([[-5, -2, -1, 0, 1, 5]], np.int32)}
    attributes = {"lambd": 1.5, "bias": 0.5}
    got = xhip.compile(model("Shrink", "int32", attributes))(inputs)["z"]
    (want,) = ReferenceEvaluator(model("Shrink", "int32", attributes)).run(None, inputs)
    np.testing.assert_array_equal(got, want)
