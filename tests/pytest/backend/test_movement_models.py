"""Models of Slice, Split, Tile and Expand through every pass, on the CPU
runtime and on the GPU runtimes (the emulated device), against ONNX Runtime,
at several dynamic dims.

- `causal_mask`: GPT-2's causal-mask slice, `mask[:, :, past:past + seq,
  :past + seq]` of a constant buffer, its starts and ends from `Shape`s (run-time
  index values), added to scores.
- `reversed`: negative steps with INT64_MIN / INT64_MAX ends, on dynamic dims.
- `split`: `num_outputs` with an uneven last chunk, on a static and on a
  dynamic axis, and `split` sizes.
- `tile_expand`: Tile of a dynamic dim; Expand both ways (a 1 in the shape
  keeps the input's dim, the input's 1 takes the shape's), to a shape from
  `Shape` (two run-time sizes: their max).
- `expand_constant`: an int64 constant expanded to a `Shape`'s dynamic
  length (a shape value, folded or not), and to a constant one.
- `typed`: the same copies on int64, bool and float16.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from tests.pytest.emulator import conftest as emulator
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.session import CompiledModel

emulated, make_gpu = emulator.emulated, emulator.make_gpu
"""The emulator's fixtures: its kernels built once, the GPU runtimes on them."""

INT64_MAX, INT64_MIN = 2**63 - 1, -(2**63)
Dims = dict[str, int]


def _ints(name: str, *values: int) -> onnx.TensorProto:
    return numpy_helper.from_array(np.array(values, np.int64), name)


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[str],
    initializers: list[onnx.TensorProto],
    opset: int = 18,
) -> onnx.ModelProto:
    """The graph, its outputs typed by onnx's shape inference."""
    graph = helper.make_graph(
        nodes,
        "movement",
        inputs,
        [helper.make_empty_tensor_value_info(n) for n in outputs],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    typed = {v.name: v for v in (*inferred.graph.value_info, *inferred.graph.output)}
    for output in model.graph.output:
        output.CopyFrom(typed[output.name])
    return model


def _input(name: str, shape: list[int | str], elem: int = TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def causal_mask() -> onnx.ModelProto:
    mask = np.tril(np.ones((16, 16), np.float32)).reshape(1, 1, 16, 16)
    nodes = [
        helper.make_node("Shape", ["q"], ["q_shape"]),
        helper.make_node("Gather", ["q_shape", "one"], ["seq"]),
        helper.make_node("Shape", ["past_k"], ["k_shape"]),
        helper.make_node("Gather", ["k_shape", "one"], ["past"]),
        helper.make_node("Add", ["past", "seq"], ["total"]),
        helper.make_node("Concat", ["past", "zero"], ["starts"], axis=0),
        helper.make_node("Concat", ["total", "total"], ["ends"], axis=0),
        helper.make_node("Slice", ["mask", "starts", "ends", "axes"], ["causal"]),
        helper.make_node("Add", ["scores", "causal"], ["masked"]),
    ]
    initializers = [
        numpy_helper.from_array(mask, "mask"),
        _ints("one", 1),
        _ints("zero", 0),
        _ints("axes", 2, 3),
    ]
    inputs = [
        _input("q", ["batch", "seq", 4]),
        _input("past_k", ["batch", "past", 4]),
        _input("scores", ["batch", 2, "seq", "total"]),
    ]
    return _model(nodes, inputs, ["masked"], initializers)


def reversed_slices() -> onnx.ModelProto:
    nodes = [
        helper.make_node("Slice", ["x", "s1", "e1", "a1", "t1"], ["back"]),
        helper.make_node("Slice", ["x", "s2", "e2", "a2"], ["inner"]),
    ]
    initializers = [
        _ints("s1", -1, 1),
        _ints("e1", INT64_MIN, INT64_MAX),
        _ints("a1", 1, -1),
        _ints("t1", -2, 2),
        _ints("s2", 1, -3),
        _ints("e2", -1, 100),
        _ints("a2", 0, 2),
    ]
    inputs = [_input("x", ["batch", "seq", 6])]
    return _model(nodes, inputs, ["back", "inner"], initializers)


def split() -> onnx.ModelProto:
    nodes = [
        helper.make_node("Split", ["x"], ["a", "b", "c"], axis=1, num_outputs=3),
        helper.make_node("Split", ["x"], ["top", "bottom"], axis=0, num_outputs=2),
        helper.make_node("Split", ["x", "sizes"], ["left", "right"], axis=-1),
    ]
    inputs = [_input("x", ["batch", 7])]
    outputs = ["a", "b", "c", "top", "bottom", "left", "right"]
    return _model(nodes, inputs, outputs, [_ints("sizes", 2, 5)])


def tile_expand() -> onnx.ModelProto:
    nodes = [
        helper.make_node("Tile", ["x", "repeats"], ["tiled"]),
        helper.make_node("Expand", ["x", "both"], ["wide"]),
        helper.make_node("Unsqueeze", ["x", "one"], ["x1"]),
        helper.make_node("Shape", ["y"], ["y_shape"]),
        helper.make_node("Expand", ["x1", "y_shape"], ["like_y"]),
    ]
    initializers = [_ints("repeats", 2, 3), _ints("both", 4, 1, 1), _ints("one", 1)]
    inputs = [_input("x", ["batch", 3]), _input("y", ["batch", "seq", 1])]
    return _model(nodes, inputs, ["tiled", "wide", "like_y"], initializers)


def expand_constant() -> onnx.ModelProto:
    """An int64 constant expanded to a dynamic length: a shape value that
    `onnx-fold-shapes` must not fold to the result type's unknown length."""
    nodes = [
        helper.make_node("Shape", ["x"], ["n"], end=1),
        helper.make_node("Expand", ["seven", "n"], ["sevens"]),
        helper.make_node("Expand", ["pair", "one"], ["pair_again"]),
        helper.make_node("Expand", ["half", "n"], ["halves"]),
    ]
    initializers = [
        _ints("seven", 7),
        _ints("pair", 3, 4),
        _ints("one", 1),
        numpy_helper.from_array(np.array([0.5], np.float32), "half"),
    ]
    inputs = [_input("x", ["batch", 2])]
    return _model(nodes, inputs, ["sevens", "pair_again", "halves"], initializers)


def typed(elem: int) -> Callable[[], onnx.ModelProto]:
    def make() -> onnx.ModelProto:
        nodes = [
            helper.make_node("Slice", ["x", "s", "e", "a", "t"], ["back"]),
            helper.make_node("Tile", ["x", "repeats"], ["tiled"]),
            helper.make_node("Expand", ["x", "shape"], ["wide"]),
            helper.make_node("Split", ["x"], ["p", "q"], axis=1, num_outputs=2),
        ]
        initializers = [
            _ints("s", -1),
            _ints("e", INT64_MIN),
            _ints("a", 0),
            _ints("t", -1),
            _ints("repeats", 1, 2),
            _ints("shape", 2, 1, 1),
        ]
        inputs = [_input("x", ["batch", 5], elem)]
        return _model(nodes, inputs, ["back", "tiled", "wide", "p", "q"], initializers)

    return make


MODELS: dict[str, tuple[Callable[[], onnx.ModelProto], list[Dims]]] = {
    "causal_mask": (
        causal_mask,
        [
            {"batch": 1, "seq": 1, "past": 0},
            {"batch": 2, "seq": 3, "past": 5},
            {"batch": 1, "seq": 7, "past": 9},
        ],
    ),
    "reversed": (reversed_slices, [{"batch": 1, "seq": 1}, {"batch": 3, "seq": 6}]),
    "split": (split, [{"batch": 1}, {"batch": 2}, {"batch": 5}]),
    "tile_expand": (tile_expand, [{"batch": 1, "seq": 1}, {"batch": 3, "seq": 4}]),
    "expand_constant": (expand_constant, [{"batch": 1}, {"batch": 3}]),
    "int64": (typed(TensorProto.INT64), [{"batch": 1}, {"batch": 3}]),
    "bool": (typed(TensorProto.BOOL), [{"batch": 2}]),
    "float16": (typed(TensorProto.FLOAT16), [{"batch": 2}]),
}


def _size(name: str, dims: Dims) -> int:
    return dims["past"] + dims["seq"] if name == "total" else dims[name]


def _inputs(model: onnx.ModelProto, dims: Dims) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(sum(dims.values()))
    feeds: dict[str, np.ndarray] = {}
    for value in model.graph.input:
        tensor = value.type.tensor_type
        shape = [
            _size(d.dim_param, dims) if d.dim_param else d.dim_value
            for d in tensor.shape.dim
        ]
        dtype = helper.tensor_dtype_to_np_dtype(tensor.elem_type)
        data = rng.normal(size=shape) * 10
        feeds[value.name] = (data > 0 if dtype == np.bool_ else data).astype(dtype)
    return feeds


def _check(
    model: onnx.ModelProto, run: Callable[..., dict[str, np.ndarray]], dims: Dims
) -> None:
    feeds = _inputs(model, dims)
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    want = session.run(None, feeds)
    got = run(feeds)
    assert list(got) == [o.name for o in model.graph.output]
    for (name, value), expected in zip(got.items(), want, strict=True):
        assert value.dtype == expected.dtype, name
        np.testing.assert_array_equal(value, expected, err_msg=f"{name} at {dims}")


@pytest.mark.parametrize("debug", [False, True], ids=["plan", "debug"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_movement_model_on_cpu(name: str, debug: bool) -> None:
    make, runs = MODELS[name]
    model = make()
    compiled = xhip.compile(model, device="cpu", debug=debug)
    for dims in runs:
        _check(model, compiled, dims)


@pytest.mark.emulator
@pytest.mark.parametrize("name", sorted(MODELS))
def test_movement_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    make, runs = MODELS[name]
    model = make()
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, make_gpu(debug=True)
    )
    for dims in runs:
        _check(model, compiled, dims)


def test_the_causal_mask_slice_starts_at_run_time() -> None:
    """The mask's starts are `past` (an index operand of `hip.slice`), its
    sizes `seq` and `past + seq`: nothing of the mask is read at compile time."""
    ir = xhip.compile_to_ir(causal_mask())
    text = str(ir.module)
    assert text.count("hip.slice") == 1
    assert "onnx." not in text
