"""Weights onnx's checker and inference are given as typed inputs
(`value_info._unread_weights`): the same types and the same errors as with
their data, without copying their bytes three times per import."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, ValueInfoProto, helper, numpy_helper
from xdsl.dialects.builtin import DYNAMIC_INDEX

from tests.pytest.frontend.models import make_model, tensor
from xhip.frontend import value_info
from xhip.frontend.data_sizes import data_sized_outputs
from xhip.frontend.value_info import (
    InferenceFailure,
    ValueInfo,
    infer_value_infos,
    typed_input,
)

F = TensorProto.FLOAT


def weight(name: str, shape: list[int], dtype: type = np.float32) -> TensorProto:
    return numpy_helper.from_array(np.ones(shape, dtype), name)


def matmul_model(w_shape: list[int] | None = None) -> onnx.ModelProto:
    """`out = reshape(x @ w + b, shape)` on float32[batch, 8], `out` declared
    with a static last dim (so the declared-dims inference runs too)."""
    return make_model(
        [
            helper.make_node("MatMul", ["x", "w"], ["y"], name="mm"),
            helper.make_node("Add", ["y", "b"], ["z"], name="add"),
            helper.make_node("Reshape", ["z", "shape"], ["out"], name="reshape"),
        ],
        [tensor("x", F, ["batch", 8])],
        [tensor("out", F, ["batch", 4])],
        [
            weight("w", w_shape or [8, 4]),
            weight("b", [4]),
            numpy_helper.from_array(np.array([-1, 4], np.int64), "shape"),
        ],
    )


def both(
    model: onnx.ModelProto, monkeypatch: pytest.MonkeyPatch
) -> tuple[object, object]:
    """`infer_value_infos` (or its error) with the weights moved, then with
    every initializer's data given."""

    def run() -> object:
        try:
            return infer_value_infos(model)
        except InferenceFailure as e:
            return str(e)

    moved = run()
    with monkeypatch.context() as m:
        m.setattr(value_info, "_unread_weights", lambda _: set[str]())
        kept = run()
    return moved, kept


def test_matmul_and_add_weights_are_moved() -> None:
    assert value_info._unread_weights(matmul_model()) == {"w", "b"}


def test_the_types_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    moved, kept = both(matmul_model(), monkeypatch)
    assert isinstance(moved, dict)
    assert moved == kept
    assert moved["out"] == ValueInfo(F, [DYNAMIC_INDEX, 4], ["batch", None])


def test_a_contradiction_fails_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    moved, kept = both(matmul_model([7, 4]), monkeypatch)
    assert isinstance(moved, str)
    assert moved == kept


def test_a_bad_raw_data_fails_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker reads the bytes of the weights it is given: one short of
    data stays an initializer, so its error is the checker's."""
    model = matmul_model()
    model.graph.initializer[0].raw_data = b"\0" * 8
    assert value_info._unread_weights(model) == {"b"}
    moved, kept = both(model, monkeypatch)
    assert isinstance(moved, str) and "raw_data" in moved
    assert moved == kept


def unread(model: onnx.ModelProto) -> set[str]:
    return value_info._unread_weights(model)


def test_weights_some_op_reads_are_kept() -> None:
    model = matmul_model()
    model.graph.node.append(helper.make_node("Reshape", ["b", "shape"], ["rb"]))
    assert unread(model) == {"w"}


def test_integer_and_typed_field_weights_are_kept() -> None:
    model = matmul_model()
    model.graph.initializer[0].CopyFrom(weight("w", [8, 4], np.int64))
    typed = helper.make_tensor("b", F, [4], [1.0, 2.0, 3.0, 4.0])
    model.graph.initializer[1].CopyFrom(typed)
    assert unread(model) == set()


def test_declared_duplicated_or_subgraph_names_are_kept() -> None:
    declared = matmul_model()
    declared.graph.input.append(tensor("w", F, [8, 4]))
    assert unread(declared) == {"b"}
    duplicated = matmul_model()
    duplicated.graph.initializer.append(weight("b", [4]))
    assert unread(duplicated) == {"w"}
    nested = matmul_model()
    branch = helper.make_graph(
        [helper.make_node("Identity", ["b"], ["t"])], "then", [], [tensor("t", F, [4])]
    )
    cond = numpy_helper.from_array(np.array(True), "cond")
    nested.graph.initializer.append(cond)
    nested.graph.node.append(
        helper.make_node(
            "If", ["cond"], ["picked"], then_branch=branch, else_branch=branch
        )
    )
    assert unread(nested) == {"w"}


def test_old_ir_and_local_functions_keep_all() -> None:
    old = matmul_model()
    old.ir_version = 3
    assert unread(old) == set()
    functions = matmul_model()
    functions.functions.append(helper.make_function("local", "f", ["a"], ["b"], [], []))
    assert unread(functions) == set()


@pytest.mark.parametrize("dims", [[64, 64], [1], [3, 0, 2], [], [-1, 5]])
def test_typed_input_is_the_helpers(dims: list[int]) -> None:
    for elem in (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.INT64):
        ours = ValueInfoProto()
        typed_input(ours, "w", elem, dims)
        theirs = helper.make_tensor_value_info("w", elem, dims)
        assert ours.SerializeToString() == theirs.SerializeToString()


def test_moved_weights_are_not_data() -> None:
    """A weight given as a graph input is still a constant to `data_sizes`."""
    graph = helper.make_graph(
        [
            helper.make_node("Cast", ["w"], ["n"], to=TensorProto.INT64),
            helper.make_node("ConstantOfShape", ["n"], ["out"]),
        ],
        "g",
        [tensor("w", F, [1])],
        [tensor("out", F, None)],
    )
    assert data_sized_outputs(graph) == {"out"}
    assert data_sized_outputs(graph, {"w"}) == set()
