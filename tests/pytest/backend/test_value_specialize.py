"""Specializing on input values (`xhip.specialize_values`, docs/shape-values.md
"Specializing on input values"): a model where a value's rank depends on a
small integer input is compiled per value of it, within a bounded cache; one that
cannot be typed even then fails at its first call, in one line. Numerics
against ONNX Runtime."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import xhip
from xhip.frontend import OnnxImportError
from xhip.onnx_backend import XhipBackend
from xhip.specialize_values import ValueSpecializingModel


def _rank_by_size(condition_from: str = "size") -> onnx.ModelProto:
    """`y` = x + sum(x) where `size[0] == 1`, else x + its column sums: the
    sum is an If whose branches differ in rank (0 and 1), on a condition that
    is data (as in AffineGrid's expansion, the output's shape is known). With
    `condition_from="x"` the condition is `sum(x) > 0` instead (float data),
    and `size` only feeds an unrelated output."""
    then_graph = helper.make_graph(
        [helper.make_node("ReduceSum", ["x"], ["total"], keepdims=0)],
        "then",
        [],
        [helper.make_tensor_value_info("total", TensorProto.FLOAT, None)],
    )
    else_graph = helper.make_graph(
        [helper.make_node("ReduceSum", ["x", "rows"], ["columns"], keepdims=0)],
        "else",
        [],
        [helper.make_tensor_value_info("columns", TensorProto.FLOAT, None)],
    )
    if condition_from == "size":
        condition = [
            helper.make_node("Gather", ["size", "zero"], ["first"], axis=0),
            helper.make_node("Equal", ["first", "one"], ["cond"]),
        ]
    else:
        condition = [
            helper.make_node("ReduceSum", ["x"], ["sum"], keepdims=0),
            helper.make_node("Greater", ["sum", "zero_f"], ["cond"]),
        ]
    nodes = [
        *condition,
        helper.make_node(
            "If", ["cond"], ["s"], then_branch=then_graph, else_branch=else_graph
        ),
        helper.make_node("Add", ["x", "s"], ["y"]),
        helper.make_node("Mul", ["size", "size"], ["size_squared"]),
    ]
    initializers = [
        helper.make_tensor("zero", TensorProto.INT64, [], [0]),
        helper.make_tensor("one", TensorProto.INT64, [], [1]),
        helper.make_tensor("rows", TensorProto.INT64, [1], [0]),
        helper.make_tensor("zero_f", TensorProto.FLOAT, [], [0.0]),
    ]
    graph = helper.make_graph(
        nodes,
        "rank_by_size",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
            helper.make_tensor_value_info("size", TensorProto.INT64, [2]),
        ],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3]),
            helper.make_tensor_value_info("size_squared", TensorProto.INT64, [2]),
        ],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


X = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)


def _check(model: Any, onnx_model: onnx.ModelProto, size: list[int]) -> None:
    inputs = {"x": X, "size": np.array(size, np.int64)}
    session = ort.InferenceSession(
        onnx_model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    want_y, want_squared = (np.asarray(a) for a in session.run(None, inputs))
    got = model(inputs)
    np.testing.assert_allclose(got["y"], want_y, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(got["size_squared"], want_squared)


def test_the_output_rank_follows_the_input_value_and_the_cache_is_bounded() -> None:
    onnx_model = _rank_by_size()
    model = xhip.compile(onnx_model)
    assert isinstance(model, ValueSpecializingModel)
    assert model.names == ["size"]
    assert [s.name for s in model.signature.inputs] == ["x", "size"]
    model.max_specializations = 2
    _check(model, onnx_model, [1, 5])  # s of rank 0
    _check(model, onnx_model, [3, 5])  # s of rank 1
    _check(model, onnx_model, [1, 5])  # reused
    assert (model.builds, model.specializations) == (2, 2)
    _check(model, onnx_model, [4, 4])  # a third value: [3, 5] is dropped
    assert (model.builds, model.specializations) == (3, 2)
    _check(model, onnx_model, [3, 5])  # rebuilt
    assert (model.builds, model.specializations) == (4, 2)
    model.close()


def test_the_onnx_backend_runs_it() -> None:
    onnx_model = _rank_by_size()
    assert XhipBackend.is_compatible(onnx_model)
    rep = XhipBackend.prepare(onnx_model, "CPU")
    y, squared = rep.run([X, np.array([1, 2], np.int64)])
    want = X.astype(np.float64) + X.astype(np.float64).sum()
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(squared, [1, 4])


def test_a_wrong_value_input_is_one_clear_error() -> None:
    model = xhip.compile(_rank_by_size())
    with pytest.raises(ValueError, match="size: int64\\[2\\]: got shape \\(3,\\)"):
        model({"x": X, "size": np.array([1, 2, 3], np.int64)})
    with pytest.raises(ValueError, match="missing input size"):
        model({"x": X})


def test_compile_to_ir_still_refuses() -> None:
    with pytest.raises(OnnxImportError, match="cannot infer the shape of 's'"):
        xhip.compile_to_ir(_rank_by_size())


def test_a_model_its_values_do_not_type_fails_at_its_first_call() -> None:
    """The If's condition is float data: `size` as a constant does not help."""
    model = xhip.compile(_rank_by_size(condition_from="x"))
    assert isinstance(model, ValueSpecializingModel)
    with pytest.raises(OnnxImportError) as error:
        model({"x": X, "size": np.array([1, 2], np.int64)})
    message = str(error.value)
    assert "cannot infer the shape of 's'" in message
    assert "even with size = [1, 2] as constants" in message
    assert "\n" not in message
