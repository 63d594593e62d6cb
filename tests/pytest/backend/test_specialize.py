"""Guarded specialization (`xhip.specialize`, docs/shape-values.md "Guards"):
a model whose structure operands are data is compiled per value, reused while
the value repeats, rebuilt for a new one, within a bounded cache; a guard that
fails never lets a wrong answer out. Numerics against numpy and onnx's
reference implementation."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

import xhip
from xhip.backend.build_guard import GuardFailed
from xhip.backend.session import CompiledModel
from xhip.specialize import SpecializingModel


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    initializers: list[onnx.TensorProto] | None = None,
) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializers or [])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def _cumsum() -> onnx.ModelProto:
    """CumSum along an axis given as a graph input."""
    return _model(
        [helper.make_node("CumSum", ["x", "axis"], ["y"])],
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4]),
            helper.make_tensor_value_info("axis", TensorProto.INT64, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])],
    )


@pytest.fixture
def x() -> np.ndarray:
    return np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)


def _check_cumsum(model: SpecializingModel, x: np.ndarray, axis: int) -> None:
    got = model({"x": x, "axis": np.array(axis, np.int64)})["y"]
    want = np.cumsum(x.astype(np.float64), axis=axis)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_a_specialization_is_reused_rebuilt_and_the_cache_bounded(
    x: np.ndarray,
) -> None:
    model = xhip.compile(_cumsum())
    assert isinstance(model, SpecializingModel)
    try:
        model.max_specializations = 2
        _check_cumsum(model, x, 0)
        _check_cumsum(model, x, 0)
        assert (model.builds, model.specializations) == (1, 1)  # reused
        _check_cumsum(model, x, 1)
        assert (model.builds, model.specializations) == (2, 2)  # a new value
        _check_cumsum(model, x, -1)
        assert (model.builds, model.specializations) == (3, 2)  # bounded
        _check_cumsum(model, x, 1)
        assert model.builds == 3  # still held
        _check_cumsum(model, x, 0)
        assert (model.builds, model.specializations) == (4, 2)  # was dropped
    finally:
        model.close()


def test_a_specialization_shows_and_checks_its_guard(x: np.ndarray) -> None:
    model = xhip.compile(_cumsum())
    assert isinstance(model, SpecializingModel)
    try:
        built = model.specialization([np.array(0, np.int64)])
        assert isinstance(built, CompiledModel)
        guards = [op for op in built.module.walk() if op.name == "hip.guard"]
        assert len(guards) == 1
        with pytest.raises(GuardFailed, match=r"read \[1\].*assumes \[0\]"):
            built({"x": x, "axis": np.array(1, np.int64)})
    finally:
        model.close()


def test_a_failing_guard_never_answers_wrong(
    x: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Values read wrong once: the guard catches it and the call is redone
    from a fresh reading; read wrong always: the call fails, it answers
    nothing."""
    model = xhip.compile(_cumsum())
    assert isinstance(model, SpecializingModel)
    try:
        read = model.read
        stale = [np.array(0, np.int64)]
        calls: list[int] = []

        def once(inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
            calls.append(1)
            return stale if len(calls) == 1 else read(inputs)

        monkeypatch.setattr(model, "read", once)
        _check_cumsum(model, x, 1)
        monkeypatch.setattr(model, "read", lambda inputs: stale)
        with pytest.raises(GuardFailed):
            model({"x": x, "axis": np.array(1, np.int64)})
    finally:
        model.close()


def test_a_value_computed_from_data_runs_the_prefix(x: np.ndarray) -> None:
    """The axis is `a + b`: data, read by running the prefix model."""
    onnx_model = _model(
        [
            helper.make_node("Add", ["a", "b"], ["axis"]),
            helper.make_node("CumSum", ["x", "axis"], ["y"]),
        ],
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4]),
            helper.make_tensor_value_info("a", TensorProto.INT64, []),
            helper.make_tensor_value_info("b", TensorProto.INT64, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])],
    )
    model = xhip.compile(onnx_model)
    assert isinstance(model, SpecializingModel) and model.prefix is not None
    try:
        for a, b in ((0, 1), (1, -1), (2, -1)):
            inputs = {"x": x, "a": np.array(a), "b": np.array(b)}
            got = model(inputs)["y"]
            np.testing.assert_allclose(
                got, np.cumsum(x.astype(np.float64), axis=a + b), rtol=1e-5, atol=1e-6
            )
        assert model.builds == 2  # axes 1, 0, 1
    finally:
        model.close()


def _if() -> onnx.ModelProto:
    """`If(c, Neg(x), Abs(x))` with `c` a constant true."""
    then = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["t"])],
        "then",
        [],
        [helper.make_tensor_value_info("t", TensorProto.FLOAT, [3, 4])],
    )
    other = helper.make_graph(
        [helper.make_node("Abs", ["x"], ["e"])],
        "else",
        [],
        [helper.make_tensor_value_info("e", TensorProto.FLOAT, [3, 4])],
    )
    return _model(
        [helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other)],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])],
        [helper.make_tensor("c", TensorProto.BOOL, [], [True])],
    )


def test_if_on_data_specializes_on_the_condition(x: np.ndarray) -> None:
    """`If(ReduceSum(x) > 0)`: the condition is computed, then read back."""
    zero = helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0])
    onnx_model = _if()
    del onnx_model.graph.initializer[:]  # the constant condition
    onnx_model.graph.initializer.append(zero)
    onnx_model.graph.node.insert(
        0, helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0)
    )
    onnx_model.graph.node.insert(1, helper.make_node("Greater", ["s", "zero"], ["c"]))
    reference = ReferenceEvaluator(onnx_model)
    model = xhip.compile(onnx_model)
    assert isinstance(model, SpecializingModel)
    try:
        for sign in (1, -1, 1):
            data = (np.abs(x) * sign).astype(np.float32)
            want = np.asarray(cast(list[Any], reference.run(None, {"x": data}))[0])
            np.testing.assert_array_equal(model({"x": data})["y"], want)
        assert model.builds == 2
    finally:
        model.close()


def test_if_on_a_constant_is_folded(x: np.ndarray) -> None:
    model = xhip.compile(_if())
    try:
        assert isinstance(model, CompiledModel)
        assert not any(op.name == "onnx.If" for op in model.module.walk())
        np.testing.assert_array_equal(model({"x": x})["y"], -x)
    finally:
        model.close()


def test_resize_scales_as_an_input_match_the_reference() -> None:
    """A float structure operand: guarded through `onnx.Equal` on the device."""
    onnx_model = _model(
        [helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear")],
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 3]),
            helper.make_tensor_value_info("scales", TensorProto.FLOAT, [4]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 4, 6])],
    )
    x = np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3)
    scales = np.array([1, 1, 2, 2], np.float32)
    model = xhip.compile(onnx_model)
    assert isinstance(model, SpecializingModel)
    reference = ReferenceEvaluator(onnx_model)
    try:
        want = np.asarray(
            cast(list[Any], reference.run(None, {"x": x, "scales": scales}))[0]
        )
        got = model({"x": x, "scales": scales})["y"]
        np.testing.assert_allclose(got, want, rtol=1e-6)
    finally:
        model.close()


def branchy_model() -> onnx.ModelProto:
    """A data-dependent branch, as an exporter writes one: `If(sum(x) > 0)`,
    its then-branch a CumSum along an axis given as an input (a structure
    operand used inside the branch), its else-branch a Neg."""
    then = helper.make_graph(
        [helper.make_node("CumSum", ["x", "axis"], ["t"])],
        "then",
        [],
        [helper.make_tensor_value_info("t", TensorProto.FLOAT, [2, 3, 4])],
    )
    other = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["e"])],
        "else",
        [],
        [helper.make_tensor_value_info("e", TensorProto.FLOAT, [2, 3, 4])],
    )
    return _model(
        [
            helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
            helper.make_node("Greater", ["s", "zero"], ["c"]),
            helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other),
        ],
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4]),
            helper.make_tensor_value_info("axis", TensorProto.INT64, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0])],
    )


def branchy_feeds() -> list[dict[str, np.ndarray]]:
    """Inputs that take both branches, with several axes, some repeated."""
    x = np.random.default_rng(1).random((2, 3, 4)).astype(np.float32)
    return [
        {"x": sign * x, "axis": np.array(axis, np.int64)}
        for sign, axis in ((1, 0), (1, 2), (-1, 2), (1, 0), (1, -2))
    ]


def test_a_data_dependent_branch_matches_onnxruntime() -> None:
    onnx_model = branchy_model()
    session = ort.InferenceSession(
        onnx_model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    model = xhip.compile(onnx_model)
    assert isinstance(model, SpecializingModel)
    try:
        for feeds in branchy_feeds():
            (want,) = session.run(None, feeds)
            np.testing.assert_allclose(
                model(feeds)["y"], np.asarray(want), rtol=1e-5, atol=1e-6
            )
        # (then, 0), (then, 2), (else, 2), (then, -2): one build each
        assert model.builds == 4
    finally:
        model.close()
