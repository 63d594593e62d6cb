"""Models with sequences and optionals against ONNX Runtime (or, where ORT
takes no absent optional input, onnx's reference evaluator), through
`XhipBackend` on the CPU: a Loop that fills a sequence from
SplitToSequence/SequenceAt and stacks it with ConcatFromSequence, a sequence
input mapped by SequenceMap, an optional input that decides an If. Each
sequence resolves away at compile time (docs/sequences.md)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.backend.test.case import node as node_cases
from onnx.reference import ReferenceEvaluator

from xhip.onnx_backend import XhipBackend

FLOAT = TensorProto.FLOAT

LIST_ROWS = Path(__file__).parents[2] / "fixtures" / "sequences" / "list_rows.onnx"
"""A torch module appending to a list in a loop, exported by TorchScript
(`tests/fixtures/sequences/make_list_rows.py`)."""


def loop_model() -> onnx.ModelProto:
    """`x` float[4, 3], trip count `m`: step i takes row i of `x`
    (SplitToSequence, SequenceAt), scales it by i and appends it to the
    carried sequence; then the rows stacked (ConcatFromSequence, new_axis),
    the last row (SequenceAt -1), the length per step (a scan output) and
    the sequence itself."""
    body = helper.make_graph(
        [
            helper.make_node("Identity", ["c"], ["c_out"]),
            helper.make_node("SplitToSequence", ["x"], ["rows"], axis=0, keepdims=0),
            helper.make_node("SequenceAt", ["rows", "i"], ["row"]),
            helper.make_node("Cast", ["i"], ["fi"], to=FLOAT),
            helper.make_node("Mul", ["row", "fi"], ["scaled"]),
            helper.make_node("SequenceInsert", ["s_in", "scaled"], ["s_out"]),
            helper.make_node("SequenceLength", ["s_out"], ["n"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("i", TensorProto.INT64, []),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
            helper.make_tensor_sequence_value_info("s_in", FLOAT, None),
        ],
        [
            helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
            helper.make_tensor_sequence_value_info("s_out", FLOAT, None),
            helper.make_tensor_value_info("n", TensorProto.INT64, []),
        ],
    )
    graph = helper.make_graph(
        [
            helper.make_node("SequenceEmpty", [], ["empty"], dtype=FLOAT),
            helper.make_node(
                "Loop", ["m", "", "empty"], ["rows", "lengths"], body=body
            ),
            helper.make_node(
                "ConcatFromSequence", ["rows"], ["stacked"], axis=0, new_axis=1
            ),
            helper.make_node("Constant", [], ["minus1"], value_int=-1),
            helper.make_node("SequenceAt", ["rows", "minus1"], ["last"]),
        ],
        "loop_sequence",
        [
            helper.make_tensor_value_info("x", FLOAT, [4, 3]),
            helper.make_tensor_value_info("m", TensorProto.INT64, []),
        ],
        [
            helper.make_tensor_value_info("stacked", FLOAT, [None, 3]),
            helper.make_tensor_value_info("last", FLOAT, [3]),
            helper.make_tensor_value_info("lengths", TensorProto.INT64, [None]),
            helper.make_tensor_sequence_value_info("rows", FLOAT, [3]),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def map_model() -> onnx.ModelProto:
    """A sequence input `xs` of float[?, 2]: each element doubled and
    rectified (SequenceMap), concatenated along rows, and counted."""
    body = helper.make_graph(
        [
            helper.make_node("Add", ["e", "e"], ["d"]),
            helper.make_node("Relu", ["d"], ["r"]),
        ],
        "double",
        [helper.make_tensor_value_info("e", FLOAT, [None, 2])],
        [helper.make_tensor_value_info("r", FLOAT, [None, 2])],
    )
    graph = helper.make_graph(
        [
            helper.make_node("SequenceMap", ["xs"], ["ys"], body=body),
            helper.make_node("ConcatFromSequence", ["ys"], ["joined"], axis=0),
            helper.make_node("SequenceLength", ["ys"], ["count"]),
        ],
        "map_sequence",
        [helper.make_tensor_sequence_value_info("xs", FLOAT, [None, 2])],
        [
            helper.make_tensor_value_info("joined", FLOAT, [None, 2]),
            helper.make_tensor_value_info("count", TensorProto.INT64, []),
            helper.make_tensor_sequence_value_info("ys", FLOAT, [None, 2]),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def optional_model() -> onnx.ModelProto:
    """An optional input: its value plus one where present, zeros where not
    (OptionalHasElement decides an If, OptionalGetElement reads it)."""
    then = helper.make_graph(
        [
            helper.make_node("OptionalGetElement", ["opt"], ["v"]),
            helper.make_node("Constant", [], ["one"], value_float=1.0),
            helper.make_node("Add", ["v", "one"], ["y_then"]),
        ],
        "then",
        [],
        [helper.make_tensor_value_info("y_then", FLOAT, [2])],
    )
    orelse = helper.make_graph(
        [
            helper.make_node(
                "Constant",
                [],
                ["y_else"],
                value=helper.make_tensor("zeros", FLOAT, [2], [0.0, 0.0]),
            )
        ],
        "else",
        [],
        [helper.make_tensor_value_info("y_else", FLOAT, [2])],
    )
    graph = helper.make_graph(
        [
            helper.make_node("OptionalHasElement", ["opt"], ["has"]),
            helper.make_node(
                "If", ["has"], ["y"], then_branch=then, else_branch=orelse
            ),
        ],
        "optional_input",
        [
            helper.make_value_info(
                "opt",
                helper.make_optional_type_proto(
                    helper.make_tensor_type_proto(FLOAT, [2])
                ),
            )
        ],
        [helper.make_tensor_value_info("y", FLOAT, [2])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def ort_outputs(model: onnx.ModelProto, feeds: dict[str, Any]) -> list[Any]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return session.run(None, feeds)


def check(expected: list[Any], got: list[Any]) -> None:
    assert len(expected) == len(got)
    for want, have in zip(expected, got, strict=True):
        if isinstance(want, list):
            assert isinstance(have, list) and len(have) == len(want)
            for w, h in zip(want, have, strict=True):
                np.testing.assert_allclose(h, w, rtol=1e-6)
                assert h.shape == w.shape and h.dtype == w.dtype
        else:
            np.testing.assert_allclose(have, want, rtol=1e-6)
            assert have.shape == want.shape and have.dtype == want.dtype


def test_loop_filling_a_sequence_matches_onnxruntime() -> None:
    model = loop_model()
    x = np.arange(12, dtype=np.float32).reshape(4, 3) - 5
    rep = XhipBackend.prepare(model)
    for trips in (3, 2, 4):
        feeds = {"x": x, "m": np.array(trips, np.int64)}
        got = list(rep.run(feeds))
        check(ort_outputs(model, feeds), got)
        assert len(got[3]) == trips


def test_torch_list_export_matches_onnxruntime() -> None:
    """The loop's trip count is a graph input: compiled per value (a guard),
    its sequence resolved in each specialization."""
    model = onnx.load(LIST_ROWS)
    x = np.random.default_rng(2).standard_normal((4, 3)).astype(np.float32)
    rep = XhipBackend.prepare(model)
    for n in (3, 1, 4):
        feeds = {"x": x, "n": np.array(n, np.int64)}
        check(ort_outputs(model, feeds), list(rep.run(feeds)))


def test_sequence_input_mapped_matches_onnxruntime() -> None:
    model = map_model()
    rng = np.random.default_rng(0)
    rep = XhipBackend.prepare(model)
    for rows in ((1, 3, 2), (2, 2)):
        xs = [rng.standard_normal((r, 2)).astype(np.float32) for r in rows]
        check(ort_outputs(model, {"xs": xs}), list(rep.run([xs])))
    assert len(rep.run([[np.ones((1, 2), np.float32)]])[2]) == 1


def test_optional_input_matches_the_reference() -> None:
    model = optional_model()
    reference = ReferenceEvaluator(model)
    rep = XhipBackend.prepare(model)
    for given in (np.array([1.5, -2.0], np.float32), None):
        (want,) = reference.run(None, {"opt": given})
        (got,) = rep.run([given])
        np.testing.assert_array_equal(got, want)


def test_loop16_seq_none_matches_onnx_element_by_element() -> None:
    """onnx's `test_loop16_seq_none`, whose 0-D first element onnx's runner
    cannot compare (`RUN_FAILURES`): compared here element by element."""
    importlib.import_module(f"{node_cases.__name__}.loop")  # adds its cases
    cases = node_cases._NodeTestCases  # pyright: ignore[reportPrivateUsage]
    case = next(c for c in cases if c.name == "test_loop16_seq_none")
    assert case.model is not None and case.data_sets is not None
    ((inputs, outputs),) = case.data_sets
    got = XhipBackend.prepare(case.model).run(inputs)
    check(outputs, list(got))
    assert len(got[0]) == 6


def test_sequence_of_unknown_length_is_refused_in_one_line() -> None:
    """A position that is data inside a function the pass sees alone is the
    conversion's refusal (tests/filecheck/.../sequence-errors.mlir); here a
    sequence input given as an array, not a list."""
    rep = XhipBackend.prepare(map_model())
    with pytest.raises(ValueError, match="input 'xs' is a sequence: give a list"):
        rep.run([np.ones((1, 2), np.float32)])


def _mapped(nodes: list[onnx.NodeProto], members: list[str]) -> onnx.ModelProto:
    """`nodes` then a SequenceMap (Tanh, its body input untyped) of the
    SequenceConstruct of `members`, concatenated along rows."""
    body = helper.make_graph(
        [helper.make_node("Tanh", ["in"], ["out"])],
        "squash",
        [helper.make_tensor_value_info("in", FLOAT, None)],
        [helper.make_tensor_value_info("out", FLOAT, None)],
    )
    graph = helper.make_graph(
        [
            *nodes,
            helper.make_node("SequenceConstruct", members, ["seq"]),
            helper.make_node("SequenceMap", ["seq"], ["mapped"], body=body),
            helper.make_node("ConcatFromSequence", ["mapped"], ["y"], axis=0),
        ],
        "map_typed",
        [helper.make_tensor_value_info("x", FLOAT, ["n", 3])],
        [helper.make_tensor_value_info("y", FLOAT, [None, 3])],
    )
    return helper.make_model(
        graph,
        opset_imports=[
            helper.make_opsetid("", 17),
            helper.make_opsetid("com.microsoft", 1),
        ],
    )


MAPPED = {
    "contrib_members": _mapped(
        [helper.make_node("QuickGelu", ["x"], ["q"], domain="com.microsoft")],
        ["q", "q"],
    ),
    "inserted_member": _mapped(
        [
            helper.make_node(
                "Constant",
                [],
                ["zero"],
                value=helper.make_tensor("z", TensorProto.INT64, [], [0]),
            ),
            helper.make_node("SequenceEmpty", [], ["empty"], dtype=FLOAT),
            helper.make_node("SequenceInsert", ["empty", "x"], ["one"]),
            helper.make_node("SequenceAt", ["one", "zero"], ["first"]),
        ],
        ["first", "x"],
    ),
}


@pytest.mark.parametrize("name", sorted(MAPPED))
def test_sequence_map_body_is_typed(name: str) -> None:
    """The body's input takes the members' type where only the importer
    knows it (a contrib op's result; a SequenceAt of a SequenceEmpty filled
    by SequenceInsert) and nothing declared reads the map's result (fuzz
    seeds 215, 487, 897)."""
    model = MAPPED[name]
    rep = XhipBackend.prepare(model)
    rng = np.random.default_rng(3)
    for n in (2, 5):
        feeds = {"x": rng.standard_normal((n, 3)).astype(np.float32)}
        (want,), (got,) = ort_outputs(model, feeds), list(rep.run(feeds))
        assert got.shape == want.shape == (2 * n, 3)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def _inserted(position: int) -> onnx.ModelProto:
    """[-x, x, -x] with 2x inserted at `position` (a constant), concatenated
    on a new axis: which slot it lands in shows in the values."""
    nodes = [
        helper.make_node("Neg", ["x"], ["n"]),
        helper.make_node("Add", ["x", "x"], ["d"]),
        helper.make_node("SequenceConstruct", ["n", "x", "n"], ["s"]),
        helper.make_node("SequenceInsert", ["s", "d", "at"], ["t"]),
        helper.make_node("ConcatFromSequence", ["t"], ["y"], axis=0, new_axis=1),
    ]
    graph = helper.make_graph(
        nodes,
        "inserted",
        [helper.make_tensor_value_info("x", FLOAT, ["n", 3])],
        [helper.make_tensor_value_info("y", FLOAT, [4, "n", 3])],
        [numpy_helper.from_array(np.array(position, np.int64), "at")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("position", [-3, -2, -1, 0, 1, 2, 3])
def test_sequence_insert_position_matches_onnxruntime(position: int) -> None:
    """A negative position counts from the back as in ORT (and `list.insert`):
    -1 goes before the last element (found by the fuzzer, seed 40061)."""
    model = _inserted(position)
    x = np.random.default_rng(position + 3).standard_normal((2, 3))
    feeds = {"x": x.astype(np.float32)}
    check(ort_outputs(model, feeds), list(XhipBackend.prepare(model).run(feeds)))
