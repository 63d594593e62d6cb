"""Ops whose structure follows a dim known only at run time, against ONNX
Runtime on the CPU runtime, each model at several sizes of that dim
(`tests/pytest/emulator/test_run_time_dims_models.py` runs them on the
emulated GPUs):

- `reverse_time`, `reverse_batch_first`: ReverseSequence over a time dim
  known only at run time (a `hip.range` over it), time first or second.
- `split_pieces`: SplitToSequence into size-1 pieces along such a dim, read
  by SequenceAt (from the front and the back, keepdims 0 and 1),
  SequenceLength, and ConcatFromSequence back along the axis, stacked on a
  new axis (next to it and away from it, keepdims 0 and 1), joined along it
  with the axis dropped (`split_merged`: with a dim known only at run time
  after it) and joined along another axis (keepdims 0 and 1).
- `split_scalar`: pieces of a scalar `split` (the last one shorter at odd
  sizes), SequenceAt from the front and the back, and SequenceLength.
- `split_sizes`: 1-D `split` sizes on such a dim, a piece and all of them
  concatenated back.

QLinearSoftmax and QLinearGlobalAveragePool over such dims are cases of
`test_qlinear_contrib_models.py` (`_dynamic`), FeatureVectorizer of such
widths of `test_ml_models.py` (`feature_vectorizer_run_time_widths`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import Runtime
from xhip.backend.session import CompiledModel

F, I64 = TensorProto.FLOAT, TensorProto.INT64


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[str],
    constants: dict[str, np.ndarray],
) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "run_time_dims",
        inputs,
        [
            helper.make_tensor_value_info(o, I64 if o.startswith("n") else F, None)
            for o in outputs
        ],
        [numpy_helper.from_array(v, k) for k, v in constants.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def reverse_time() -> onnx.ModelProto:
    node = helper.make_node(
        "ReverseSequence", ["x", "lens"], ["y"], time_axis=0, batch_axis=1
    )
    inputs = [
        helper.make_tensor_value_info("x", F, ["T", 3, 4]),
        helper.make_tensor_value_info("lens", I64, [3]),
    ]
    return _model([node], inputs, ["y"], {})


def reverse_batch_first() -> onnx.ModelProto:
    node = helper.make_node(
        "ReverseSequence", ["x", "lens"], ["y"], time_axis=1, batch_axis=0
    )
    inputs = [
        helper.make_tensor_value_info("x", F, ["B", "T"]),
        helper.make_tensor_value_info("lens", I64, ["B"]),
    ]
    return _model([node], inputs, ["y"], {})


def _split_nodes(keepdims: int, name: str) -> list[onnx.NodeProto]:
    return [
        helper.make_node("SplitToSequence", ["x"], [name], axis=0, keepdims=keepdims)
    ]


def split_pieces() -> onnx.ModelProto:
    at = helper.make_node
    nodes = [
        *_split_nodes(0, "drop"),
        *_split_nodes(1, "keep"),
        at("SequenceAt", ["drop", "first"], ["at_first"]),
        at("SequenceAt", ["keep", "last"], ["at_last"]),
        at("SequenceLength", ["drop"], ["n_pieces"]),
        at("ConcatFromSequence", ["keep"], ["back"], axis=0),
        at("ConcatFromSequence", ["drop"], ["stacked"], axis=0, new_axis=1),
        at("ConcatFromSequence", ["drop"], ["stacked_inner"], axis=2, new_axis=1),
        at("ConcatFromSequence", ["keep"], ["unsqueezed"], axis=1, new_axis=1),
        at("ConcatFromSequence", ["drop"], ["merged"], axis=0),
        at("ConcatFromSequence", ["keep"], ["joined"], axis=-1),
        at("ConcatFromSequence", ["drop"], ["joined_drop"], axis=1),
        at("ConcatFromSequence", ["keep"], ["stacked_keep"], axis=3, new_axis=1),
    ]
    inputs = [helper.make_tensor_value_info("x", F, ["N", 3, 2])]
    outputs = [
        "at_first",
        "at_last",
        "n_pieces",
        "back",
        "stacked",
        "stacked_inner",
        "unsqueezed",
        "merged",
        "joined",
        "joined_drop",
        "stacked_keep",
    ]
    constants = {"first": np.array(1, np.int64), "last": np.array(-1, np.int64)}
    return _model(nodes, inputs, outputs, constants)


def split_scalar() -> onnx.ModelProto:
    nodes = [
        helper.make_node("SplitToSequence", ["x", "two"], ["s"], axis=0),
        helper.make_node("SequenceAt", ["s", "first"], ["piece"]),
        helper.make_node("SequenceAt", ["s", "last"], ["last_piece"]),
        helper.make_node("SequenceLength", ["s"], ["n_pieces"]),
    ]
    inputs = [helper.make_tensor_value_info("x", F, ["N", 3])]
    constants = {
        "two": np.array(2, np.int64),
        "first": np.array(1, np.int64),
        "last": np.array(-1, np.int64),
    }
    return _model(nodes, inputs, ["piece", "last_piece", "n_pieces"], constants)


def split_merged() -> onnx.ModelProto:
    """Pieces that drop the axis joined along it: the axis merged with the
    next, a dim known only at run time after them."""
    nodes = [
        *_split_nodes(0, "drop"),
        helper.make_node("ConcatFromSequence", ["drop"], ["y"], axis=0),
    ]
    inputs = [helper.make_tensor_value_info("x", F, ["N", 2, "M"])]
    return _model(nodes, inputs, ["y"], {})


def split_sizes() -> onnx.ModelProto:
    nodes = [
        helper.make_node("SplitToSequence", ["x", "sizes"], ["s"], axis=0),
        helper.make_node("SequenceAt", ["s", "first"], ["piece"]),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=0),
    ]
    inputs = [helper.make_tensor_value_info("x", F, ["N", 3])]
    constants = {"sizes": np.array([1, 3], np.int64), "first": np.array(1, np.int64)}
    return _model(nodes, inputs, ["piece", "y"], constants)


def _feeds(shape: tuple[int, ...], batch: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape).astype(np.float32)
    return {"x": x}


def _reverse_feeds(time_first: bool) -> Callable[[int], dict[str, np.ndarray]]:
    def make(t: int) -> dict[str, np.ndarray]:
        batch = 3 if time_first else 2
        feeds = _feeds((t, batch, 4) if time_first else (batch, t))
        rng = np.random.default_rng(t)
        feeds["lens"] = rng.integers(1, t + 1, batch).astype(np.int64)
        return feeds

    return make


MODELS: dict[
    str,
    tuple[
        Callable[[], onnx.ModelProto],
        Callable[[int], dict[str, np.ndarray]],
        tuple[int, ...],
    ],
] = {
    "reverse_time": (reverse_time, _reverse_feeds(True), (1, 5)),
    "reverse_batch_first": (reverse_batch_first, _reverse_feeds(False), (2, 7)),
    "split_pieces": (split_pieces, lambda n: _feeds((n, 3, 2)), (2, 5)),
    "split_merged": (split_merged, lambda n: _feeds((n, 2, n + 1)), (1, 3)),
    "split_scalar": (split_scalar, lambda n: _feeds((n, 3)), (3, 4, 5)),
    "split_sizes": (split_sizes, lambda n: _feeds((n, 3)), (4,)),
}
"""Each model, its inputs for a size of the run-time dim, and the sizes."""


def expected(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    import onnxruntime as ort  # lazy: the reference, an optional package

    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return [np.asarray(v) for v in session.run(None, feeds)]


def check_model(name: str, runtime: Runtime) -> None:
    """The model compiled once, run at each size, against ONNX Runtime:
    exact, since every op only moves values."""
    make, feeds_for, sizes = MODELS[name]
    model = make()
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(ir.module, ir.signature, ir.constants, runtime)
    for size in sizes:
        feeds = feeds_for(size)
        got = list(compiled(feeds).values())
        want = expected(model, feeds)
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            assert (g.dtype, g.shape) == (w.dtype, w.shape), f"{name} at {size}"
            np.testing.assert_array_equal(g, w, err_msg=f"{name} at {size}")


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_on_cpu_matches_onnxruntime(name: str) -> None:
    check_model(name, CpuRuntime(debug=True))
