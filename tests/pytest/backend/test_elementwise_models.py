"""Every ONNX op that lowers to elementwise hip ops, in a model with a dynamic
dim and broadcast operands, against ONNX Runtime.

The table ops come from `compute.ELEMENTWISE`, typed by their hip op's
declaration (bool operands and results, the kinds of element type its formula
computes in), so an op added there is tested here with no new line. Then the
same ops with attributes other than the spec's defaults, the ops of other
patterns (Gelu's two modes, Mod's two, the variadic Max/Min/Sum/Mean, Clip
with and without its bounds, CastLike), and element types beyond float32.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, defs, helper

import xhip
from xhip.transforms.onnx_to_hip.compute import ELEMENTWISE

BOOL, FLOAT = TensorProto.BOOL, TensorProto.FLOAT
DTYPES = {
    TensorProto.FLOAT: np.float32,
    TensorProto.DOUBLE: np.float64,
    TensorProto.FLOAT16: np.float16,
    TensorProto.INT8: np.int8,
    TensorProto.INT32: np.int32,
    TensorProto.INT64: np.int64,
    TensorProto.UINT8: np.uint8,
    TensorProto.BOOL: np.bool_,
}
SHAPES = (["batch", 5], [5], [1, 5])
"""Operand i's shape: the first has the dynamic dim, the others broadcast."""

ATTRIBUTES = {
    "alpha": 0.3,
    "beta": 0.6,
    "gamma": 1.5,
    "detect_positive": 0,
    "detect_negative": 1,
}
"""Values other than the spec's defaults, for the attribute runs."""


def _model(
    op_type: str,
    types: Sequence[int],
    result: int,
    attributes: dict[str, object] | None = None,
    opset: int = 20,
) -> onnx.ModelProto:
    names = [f"x{i}" for i in range(len(types))]
    inputs = [
        helper.make_tensor_value_info(n, t, SHAPES[min(i, 2)])
        for i, (n, t) in enumerate(zip(names, types))
    ]
    node = helper.make_node(op_type, names, ["z"], name="node", **(attributes or {}))
    out = helper.make_tensor_value_info("z", result, ["batch", 5])
    graph = helper.make_graph([node], op_type.lower(), inputs, [out])
    if not defs.has(op_type, opset):  # a newer op (Swish): its first opset
        opset = defs.get_schema(op_type).since_version
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _feeds(
    model: onnx.ModelProto, batch: int, positive_divisors: bool
) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(batch)
    feeds: dict[str, np.ndarray] = {}
    for i, value in enumerate(model.graph.input):
        dtype = np.dtype(DTYPES[value.type.tensor_type.elem_type])
        shape = [
            batch if d.dim_param else d.dim_value
            for d in value.type.tensor_type.shape.dim
        ]
        if dtype.kind == "b":
            feeds[value.name] = rng.integers(0, 2, shape).astype(bool)
        elif dtype.kind in "iu":
            low = 1 if i and positive_divisors else (0 if dtype.kind == "u" else -9)
            feeds[value.name] = rng.integers(low, 10, shape).astype(dtype)
        elif i and positive_divisors:
            feeds[value.name] = rng.uniform(0.5, 2.0, shape).astype(dtype)
        else:
            x = rng.standard_normal(shape) * 2
            x.flat[:2] = (2.5, -0.5)  # halves: Round's ties
            feeds[value.name] = x.astype(dtype)
    return feeds


def _check(
    model: onnx.ModelProto, batch: int, rtol: float = 2e-6, divisors: bool = True
) -> None:
    feeds = _feeds(model, batch, divisors)
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    (expected,) = session.run(None, feeds)
    got = xhip.compile(model)(feeds)["z"]
    assert got.dtype == expected.dtype
    if got.dtype.kind in "iub":
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=1e-6)


def _table_op(onnx_type: type) -> tuple[str, list[int], int]:
    hip_type = ELEMENTWISE[onnx_type]
    kinds = hip_type.kinds()
    element = FLOAT if "f" in kinds else BOOL if kinds == "b" else TensorProto.INT32
    types = [BOOL if b else element for b in hip_type.operand_bools()]
    result = BOOL if hip_type.FORMULA.is_bool() else element
    return onnx_type.name.removeprefix("onnx."), types, result


TABLE = [pytest.param(*_table_op(t), id=t.name) for t in ELEMENTWISE]


@pytest.mark.parametrize(("op_type", "types", "result"), TABLE)
@pytest.mark.parametrize("batch", [1, 3, 17])
def test_matches_onnxruntime(
    op_type: str, types: list[int], result: int, batch: int
) -> None:
    _check(_model(op_type, types, result), batch)


WITH_ATTRIBUTES = [
    pytest.param(*_table_op(t), id=t.name)
    for t, hip_type in ELEMENTWISE.items()
    if hip_type.FORMULA.params()
]


@pytest.mark.parametrize(("op_type", "types", "result"), WITH_ATTRIBUTES)
def test_attributes_reach_the_formula(
    op_type: str, types: list[int], result: int
) -> None:
    hip_type = ELEMENTWISE[next(t for t in ELEMENTWISE if t.name == f"onnx.{op_type}")]
    attributes = {name: ATTRIBUTES[name] for name in hip_type.FORMULA.params()}
    _check(_model(op_type, types, result, attributes), 4)


OTHERS = [
    ("PRelu", [FLOAT] * 2, FLOAT, {}),
    ("Gelu", [FLOAT], FLOAT, {}),
    ("Gelu", [FLOAT], FLOAT, {"approximate": "tanh"}),
    ("Mod", [TensorProto.INT32] * 2, TensorProto.INT32, {}),
    ("Mod", [TensorProto.INT64] * 2, TensorProto.INT64, {"fmod": 1}),
    ("Mod", [FLOAT] * 2, FLOAT, {"fmod": 1}),
    ("Max", [FLOAT] * 3, FLOAT, {}),
    ("Min", [TensorProto.INT64] * 3, TensorProto.INT64, {}),
    ("Sum", [FLOAT] * 3, FLOAT, {}),
    ("Sum", [FLOAT], FLOAT, {}),
    ("Mean", [FLOAT] * 3, FLOAT, {}),
    ("Mean", [FLOAT] * 2, FLOAT, {}),
]


@pytest.mark.parametrize(
    ("op_type", "types", "result", "attributes"),
    OTHERS,
    ids=[f"{o[0]}-{len(o[1])}-{o[3] or ''}" for o in OTHERS],
)
def test_other_patterns(
    op_type: str, types: list[int], result: int, attributes: dict[str, object]
) -> None:
    _check(_model(op_type, types, result, attributes), 6, rtol=1e-5)


def _clip(lower: float | None, upper: float | None, element: int) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x0", element, ["batch", 5])
    dtype = DTYPES[element]
    constants = []
    names = ["x0"]
    for name, bound in (("lo", lower), ("hi", upper)):
        names.append(name if bound is not None else "")
        if bound is not None:
            constants.append(onnx.numpy_helper.from_array(np.array(bound, dtype), name))
    while names[-1] == "":
        names.pop()
    node = helper.make_node("Clip", names, ["z"])
    out = helper.make_tensor_value_info("z", element, ["batch", 5])
    graph = helper.make_graph([node], "clip", [x], [out], initializer=constants)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


@pytest.mark.parametrize(
    ("lower", "upper"),
    [(-0.5, 1.0), (None, 0.5), (0.25, None), (None, None), (1.0, -1.0)],
)
@pytest.mark.parametrize("element", [FLOAT, TensorProto.INT8])
def test_clip(lower: float | None, upper: float | None, element: int) -> None:
    if element == TensorProto.INT8:
        lower = None if lower is None else lower * 4
        upper = None if upper is None else upper * 4
    _check(_clip(lower, upper, element), 7)


TYPED = [
    ("Abs", TensorProto.INT8), ("Abs", TensorProto.DOUBLE), ("Neg", TensorProto.INT64),
    ("Neg", TensorProto.FLOAT16), ("Sign", TensorProto.INT32), ("Relu", TensorProto.INT32),
    ("Floor", TensorProto.DOUBLE), ("Exp", TensorProto.DOUBLE), ("Sqrt", TensorProto.FLOAT16),
    ("Max", TensorProto.UINT8), ("Min", TensorProto.FLOAT16), ("Add", TensorProto.INT64),
    ("Mul", TensorProto.INT32), ("Div", TensorProto.INT32), ("Sub", TensorProto.UINT8),
    ("Equal", TensorProto.INT64), ("Less", TensorProto.DOUBLE), ("Greater", TensorProto.UINT8),
    ("Sub", TensorProto.DOUBLE), ("Mod", TensorProto.UINT8),
]  # fmt: skip


@pytest.mark.parametrize(
    ("op_type", "element"), TYPED, ids=[f"{o}-{e}" for o, e in TYPED]
)
def test_element_types(op_type: str, element: int) -> None:
    table = {t.name: hip for t, hip in ELEMENTWISE.items()}
    hip_type = table.get(f"onnx.{op_type}")
    arity = 2 if hip_type is None else hip_type.arity()
    result = BOOL if hip_type is not None and hip_type.FORMULA.is_bool() else element
    _check(_model(op_type, [element] * arity, result), 5, rtol=2e-3)


def test_where_and_cast_like() -> None:
    cond = helper.make_tensor_value_info("c", BOOL, [5])
    x = helper.make_tensor_value_info("x", TensorProto.INT64, ["batch", 5])
    y = helper.make_tensor_value_info("y", TensorProto.DOUBLE, [1, 5])
    nodes = [
        helper.make_node("CastLike", ["x", "y"], ["xd"]),
        helper.make_node("Where", ["c", "xd", "y"], ["z"]),
    ]
    out = helper.make_tensor_value_info("z", TensorProto.DOUBLE, ["batch", 5])
    graph = helper.make_graph(nodes, "where", [cond, x, y], [out])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    feeds = {
        "c": np.array([True, False, True, True, False]),
        "x": np.arange(15, dtype=np.int64).reshape(3, 5) - 7,
        "y": np.full((1, 5), 0.5),
    }
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    (expected,) = session.run(None, feeds)
    np.testing.assert_array_equal(xhip.compile(model)(feeds)["z"], expected)
