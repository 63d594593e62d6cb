"""Broadcasting between dynamic dims that are not proven equal
(`support.build_init`): the result dim is `b if a == 1 else a`, an
`arith.cmpi` and an `arith.select` at run time, so an operand whose dim is 1
at run time broadcasts against one whose dim is N, either way round, and 0
against 1 gives 0 (not `max`). Dims of one named symbol need no select.
Expand sizes two run-time sizes (its input's, its shape operand's) the same way
(`support.broadcast_size`).

Each model runs through every pass and the CPU runtime, against ONNX Runtime
(`tests/pytest/emulator/test_runtime_broadcast.py` runs them on the GPU
runtimes); a run-time mismatch (3 against 4) is numpy's error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper
from onnxruntime.capi.onnxruntime_pybind11_state import Fail

import xhip
from xhip.backend.session import CompiledModel

F, B = TensorProto.FLOAT, TensorProto.BOOL
Inputs = Sequence[tuple[str, int, Sequence[str | int]]]


def _model(
    nodes: Sequence[onnx.NodeProto], inputs: Inputs, out: Sequence[str | int]
) -> onnx.ModelProto:
    graph = helper.make_graph(
        list(nodes),
        "broadcast",
        [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info("z", F, out)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def add() -> onnx.ModelProto:
    return _model(
        [helper.make_node("Add", ["x", "y"], ["z"])],
        [("x", F, ["a"]), ("y", F, ["b"])],
        ["c"],
    )


def where() -> onnx.ModelProto:
    """Three operands, a bool one among them, each dynamic in dim 0."""
    return _model(
        [helper.make_node("Where", ["m", "x", "y"], ["z"])],
        [("m", B, ["a", 3]), ("x", F, ["b", 3]), ("y", F, ["c", 1])],
        ["d", 3],
    )


def matmul() -> onnx.ModelProto:
    """MatMul's batch dims broadcast as numpy's do."""
    return _model(
        [helper.make_node("MatMul", ["x", "y"], ["z"])],
        [("x", F, ["a", 2, 3]), ("y", F, ["b", 3, 4])],
        ["c", 2, 4],
    )


def chain() -> onnx.ModelProto:
    """A broadcast result meets one of its operands again: the second
    broadcast is the first (no new select), and the pool holds both."""
    return _model(
        [
            helper.make_node("Relu", ["x"], ["r"]),
            helper.make_node("Add", ["r", "y"], ["s"]),
            helper.make_node("Exp", ["s"], ["t"]),
            helper.make_node("Mul", ["t", "r"], ["z"]),
        ],
        [("x", F, ["a", 3]), ("y", F, ["b", 3])],
        ["c", 3],
    )


def same_name() -> onnx.ModelProto:
    """Both dims are `n`: the session checks they agree, so no select."""
    return _model(
        [helper.make_node("Add", ["x", "y"], ["z"])],
        [("x", F, ["n", 4]), ("y", F, ["n", 4])],
        ["n", 4],
    )


MODELS: dict[str, tuple[Callable[[], onnx.ModelProto], list[tuple[int, ...]]]] = {
    "add": (add, [(1, 4), (4, 1), (0, 1), (1, 0), (4, 4)]),
    "where": (where, [(1, 4, 1), (4, 1, 4), (1, 1, 5), (0, 1, 1), (1, 0, 1)]),
    "matmul": (matmul, [(1, 3), (3, 1), (0, 1), (2, 2)]),
    "chain": (chain, [(1, 4), (4, 1), (0, 1), (1, 0), (3, 3)]),
}
"""Each model and the sizes of its inputs' dim 0 (`a`, `b`, ...) per run."""

MISMATCHES: dict[str, tuple[int, ...]] = {
    "add": (3, 4),
    "where": (3, 4, 1),
    "matmul": (3, 4),
    "chain": (3, 4),
}


def feeds(model: onnx.ModelProto, sizes: Sequence[int]) -> dict[str, np.ndarray]:
    """Random inputs, input i of size `sizes[i]` in its dim 0."""
    rng = np.random.default_rng(sum(sizes))
    out: dict[str, np.ndarray] = {}
    for value, size in zip(model.graph.input, sizes):
        dims = value.type.tensor_type.shape.dim
        shape = [size, *(d.dim_value for d in dims[1:])]
        if value.type.tensor_type.elem_type == B:
            out[value.name] = rng.integers(0, 2, shape).astype(bool)
        else:
            out[value.name] = rng.standard_normal(shape).astype(np.float32)
    return out


def expected(model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> np.ndarray:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return np.asarray(session.run(None, inputs)[0])


def run_all(compiled: CompiledModel, name: str) -> None:
    """The runs of `MODELS[name]`, then its mismatch, which must be refused
    as numpy refuses it (ONNX Runtime refuses it too)."""
    model, runs = MODELS[name][0](), MODELS[name][1]
    for sizes in runs:
        inputs = feeds(model, sizes)
        want = expected(model, inputs)
        got = compiled(inputs)["z"]
        assert got.shape == want.shape, sizes
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=str(sizes))
    bad = feeds(model, MISMATCHES[name])
    with pytest.raises(Fail):
        expected(model, bad)
    # numpy's words: an op's own ("could not be broadcast"), or a fused
    # group's `np.broadcast_shapes` ("cannot be broadcast").
    with pytest.raises(ValueError, match="(could not|cannot) be broadcast"):
        compiled(bad)


def _selects(model: onnx.ModelProto) -> int:
    """How many selects size the converted model's results."""
    converted = xhip.compile_to_ir(
        model, pipeline="hip-add-context-arg,convert-onnx-to-hip"
    )
    return str(converted.module).count("arith.select")


@pytest.mark.parametrize("name", sorted(MODELS))
def test_cpu_matches_onnxruntime(name: str) -> None:
    run_all(xhip.compile(MODELS[name][0]()), name)


def test_select_only_where_dims_are_not_proven_equal() -> None:
    assert _selects(add()) == 1
    assert _selects(where()) == 2  # a with b, then that with c
    assert _selects(chain()) == 1
    assert _selects(same_name()) == 0


def test_the_pool_holds_buffers_sized_by_a_select() -> None:
    """`hip-pool-allocs` hoists the `cmpi` and `select` with the other sizes."""
    final = str(xhip.compile_to_ir(chain()).module)
    assert final.count("arith.select") == 1
    assert final.count("hip.alloc(") == 1


def test_output_size_follows_the_broadcast() -> None:
    """The caller allocates the output: its size is the select's formula."""
    compiled = xhip.compile(add())
    for a, b in [(1, 4), (4, 1), (0, 1), (1, 0)]:
        inputs = {
            "x": np.ones(a, np.float32),
            "y": np.arange(b, dtype=np.float32),
        }
        assert compiled(inputs)["z"].shape == np.broadcast_shapes((a,), (b,))


def _expand(shape_from_input: bool) -> onnx.ModelProto:
    """`Expand(x, shape)`, each dim a run-time size on both sides: `shape` is
    the shape of an input `y`, or an input `s` read back at run time (then the
    result's size is known only there, so the outputs are its shape and sum)."""
    if not shape_from_input:
        return _model(
            [
                helper.make_node("Shape", ["y"], ["s"]),
                helper.make_node("Expand", ["x", "s"], ["z"]),
            ],
            [("x", F, ["a", "b"]), ("y", F, ["c", "d"])],
            ["e", "f"],
        )
    graph = helper.make_graph(
        [
            helper.make_node("Expand", ["x", "s"], ["e"]),
            helper.make_node("Shape", ["e"], ["shape"]),
            helper.make_node("ReduceSum", ["e"], ["sum"], keepdims=0),
        ],
        "expand",
        [
            helper.make_tensor_value_info("x", F, ["a", "b"]),
            helper.make_tensor_value_info("s", TensorProto.INT64, [2]),
        ],
        [
            helper.make_tensor_value_info("shape", TensorProto.INT64, [2]),
            helper.make_tensor_value_info("sum", F, []),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


EXPAND_RUNS = [
    ((1, 3), (0, 3)),  # 1 against 0 is 0 (`max` gave 1)
    ((0, 3), (1, 3)),
    ((1, 3), (4, 3)),  # 1 against N is N
    ((4, 1), (4, 5)),
    ((4, 3), (1, 1)),
    ((2, 3), (2, 3)),
]
"""The shape of `x`, and the shape `Expand` is given."""


@pytest.mark.parametrize("shape_from_input", [True, False], ids=["input", "shape-of"])
def test_expand_of_run_time_sizes_matches_onnxruntime(shape_from_input: bool) -> None:
    """Expand sizes two run-time sizes as every broadcast does, not with `max`."""
    model = _expand(shape_from_input)
    compiled = xhip.compile(model, device="cpu")
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    rng = np.random.default_rng(0)
    for x_shape, shape in EXPAND_RUNS:
        inputs: dict[str, np.ndarray] = {
            "x": rng.standard_normal(x_shape).astype(np.float32)
        }
        if shape_from_input:
            inputs["s"] = np.array(shape, np.int64)
        else:
            inputs["y"] = np.zeros(shape, np.float32)
        got = compiled(inputs)
        names = [o.name for o in model.graph.output]
        want = {n: np.asarray(v) for n, v in zip(names, session.run(None, inputs))}
        assert got.keys() == want.keys()
        for name, value in want.items():
            assert got[name].shape == value.shape, (x_shape, shape, name)
            np.testing.assert_allclose(got[name], value, rtol=1e-5, atol=1e-6)
        broadcast = np.broadcast_shapes(x_shape, shape)
        assert (
            tuple(want["shape"] if shape_from_input else want["z"].shape) == broadcast
        )
    assert _selects(model) == 2
