"""Values whose shapes nothing declares and `onnx.shape_inference` leaves open.

PaddleOCR's exports (paddle2onnx) flatten with `Shape -> Slice -> Concat ->
Reshape` on a tensor whose rank onnx's inference lost upstream (an Unsqueeze
whose axes are computed): inference gives the Reshape nothing. The importer's
own rules (`xhip/frontend/shape_rules.py`) give it its rank and dynamic dims,
sized at run time. Each model here first checks that onnx really leaves the
value open (strict mode off, value_info stripped), then runs against ONNX
Runtime on the CPU and on the emulated GPU, at several sizes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from tests.pytest.frontend.models import (
    check_like_onnxruntime,
    ints,
    make_model,
    tensor,
    untyped_values,
)
from xhip.backend.cuda import CudaRuntime
from xhip.backend.session import CompiledModel
from xhip.cli import main
from xhip.frontend import OnnxImportError, import_model

F, I64 = TensorProto.FLOAT, TensorProto.INT64


def _lost_rank(x: str, out: str) -> list[onnx.NodeProto]:
    """`out = relu(unsqueeze(x, 1))` with the axes computed (an Identity of a
    constant): onnx's inference types neither `out` nor anything after it."""
    return [
        helper.make_node("Identity", ["one"], ["axes"]),
        helper.make_node("Unsqueeze", [x, "axes"], ["unsqueezed"]),
        helper.make_node("Relu", ["unsqueezed"], [out]),
    ]


def paddle_flatten_model() -> onnx.ModelProto:
    """paddle2onnx's flatten(start_axis=1): `Shape -> Slice(0:1) -> Concat(-1)
    -> Reshape`, then a MatMul with a weight; `flatten_14.tmp_0` is untyped."""
    nodes = [
        *_lost_rank("x", "a"),
        helper.make_node("Shape", ["a"], ["shape"]),
        helper.make_node("Slice", ["shape", "zero", "one"], ["batch"]),
        helper.make_node("Concat", ["batch", "minus_one"], ["target"], axis=0),
        helper.make_node("Reshape", ["a", "target"], ["flatten_14.tmp_0"], name="r"),
        helper.make_node("MatMul", ["flatten_14.tmp_0", "w"], ["y"]),
    ]
    w = np.random.default_rng(0).normal(size=(12, 5)).astype(np.float32)
    return make_model(
        nodes,
        [tensor("x", F, ["n", 3, 4])],
        [tensor("y", F, ["n", 5])],
        [
            ints("one", [1]),
            ints("zero", [0]),
            ints("minus_one", [-1]),
            numpy_helper.from_array(w, "w"),
        ],
    )


def gather_chain_model() -> onnx.ModelProto:
    """A head split whose sizes come from `Shape -> Gather -> Unsqueeze ->
    Concat` of an untyped tensor: `[b, s, 8] -> [b, s, 2, 4]`, a Softmax over
    the heads' last axis, then back to `[b, s, 8]` through `Shape(x)`."""
    gathers: list[onnx.NodeProto] = []
    for i in (0, 1):
        gathers += [
            helper.make_node("Gather", ["shape", f"i{i}"], [f"d{i}"], axis=0),
            helper.make_node("Unsqueeze", [f"d{i}", "axes0"], [f"u{i}"]),
        ]
    nodes = [
        *_lost_rank("x", "a"),
        helper.make_node("Identity", ["zero"], ["axes0"]),
        helper.make_node("Squeeze", ["a", "one"], ["b"]),
        helper.make_node("Shape", ["b"], ["shape"]),
        *gathers,
        helper.make_node("Concat", ["u0", "u1", "heads"], ["target"], axis=0),
        helper.make_node("Reshape", ["b", "target"], ["split"], name="r"),
        helper.make_node("Softmax", ["split"], ["soft"], axis=-1),
        helper.make_node("Shape", ["x"], ["x_shape"]),
        helper.make_node("Reshape", ["soft", "x_shape"], ["y"]),
    ]
    return make_model(
        nodes,
        [tensor("x", F, ["b", "s", 8])],
        [tensor("y", F, ["b", "s", 8])],
        [
            ints("one", [1]),
            ints("zero", [0]),
            ints("i0", 0),
            ints("i1", 1),
            ints("heads", [2, 4]),
        ],
    )


def graph_input_shape_model() -> onnx.ModelProto:
    """`Reshape(x, s)` with the shape a graph input, read back at run time; a
    Softmax over the last axis of the result, then back to x's shape."""
    nodes = [
        helper.make_node("Reshape", ["x", "s"], ["r"], name="r"),
        helper.make_node("Softmax", ["r"], ["soft"], axis=-1),
        helper.make_node("Shape", ["x"], ["x_shape"]),
        helper.make_node("Reshape", ["soft", "x_shape"], ["y"]),
    ]
    return make_model(
        nodes,
        [tensor("x", F, ["n", 12]), tensor("s", I64, [3])],
        [tensor("y", F, ["n", 12])],
    )


def group_norm_model() -> onnx.ModelProto:
    """GroupNormalization-21 on a run-time length, quantized and back: onnx
    cannot expand the function op here and types neither its result (our
    rule does) nor the QuantizeLinear after it, which has no rule of ours
    (fuzz seed 251550): the importer states the one it typed and infers
    again."""
    nodes = [
        helper.make_node("GroupNormalization", ["x", "s", "b"], ["g"], num_groups=2),
        helper.make_node("QuantizeLinear", ["g", "qs", "qz"], ["q"]),
        helper.make_node("DequantizeLinear", ["q", "qs", "qz"], ["y"]),
    ]
    consts = [
        numpy_helper.from_array(np.linspace(0.5, 1.5, 4).astype(np.float32), "s"),
        numpy_helper.from_array(np.linspace(-1, 1, 4).astype(np.float32), "b"),
        numpy_helper.from_array(np.array(0.02, np.float32), "qs"),
        numpy_helper.from_array(np.array(3, np.int8), "qz"),
    ]
    return make_model(
        nodes,
        [tensor("x", F, ["n", 4, "l"])],
        [tensor("y", F, ["n", 4, "l"])],
        consts,
        opset=21,
    )


def group_norm_open_output_model() -> onnx.ModelProto:
    """The same, its output declared without a shape: onnx's checker wants
    the field and onnx's inference cannot fill it; our rules type it."""
    model = group_norm_model()
    model.graph.output[0].type.tensor_type.ClearField("shape")
    return model


def group_norm_typeless_output_model() -> onnx.ModelProto:
    """The same, its output declared without a type (ONNX Runtime runs it)."""
    model = group_norm_model()
    model.graph.output[0].ClearField("type")
    return model


MODELS: dict[str, tuple[Callable[[], onnx.ModelProto], set[str]]] = {
    "paddle-flatten": (paddle_flatten_model, {"a", "flatten_14.tmp_0"}),
    "gather-chain": (gather_chain_model, {"b", "target", "split"}),
    "graph-input-shape": (graph_input_shape_model, set()),
    "group-norm-quantize": (group_norm_model, {"g", "q"}),
    "group-norm-open-output": (group_norm_open_output_model, {"g", "q", "y"}),
    "group-norm-typeless-output": (group_norm_typeless_output_model, {"g", "q", "y"}),
}
"""Each model and values onnx leaves untyped in it."""


def _feeds(name: str, n: int, m: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(n * 10 + m)
    if name == "paddle-flatten":
        return {"x": rng.normal(size=(n, 3, 4)).astype(np.float32)}
    if name == "gather-chain":
        return {"x": rng.normal(size=(n, m, 8)).astype(np.float32)}
    if name.startswith("group-norm"):
        return {"x": rng.normal(size=(n, 4, m + 1)).astype(np.float32)}
    shape = [[n, 3, 4], [n, 2, 6], [-1, 12, 1], [n, 0, 1]][m % 4]
    return {
        "x": rng.normal(size=(n, 12)).astype(np.float32),
        "s": np.array(shape, np.int64),
    }


SIZES = [(1, 1), (2, 3), (5, 2), (3, 4)]


@pytest.mark.parametrize("name", sorted(MODELS))
def test_onnx_leaves_the_values_untyped(name: str) -> None:
    build, untyped = MODELS[name]
    model = build()
    assert not model.graph.value_info
    assert untyped <= untyped_values(model)


def _check(compiled: xhip.Model, name: str, model: onnx.ModelProto) -> None:
    cases = ((f"{n}x{m}", _feeds(name, n, m)) for n, m in SIZES)
    check_like_onnxruntime(compiled, model, cases)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_untyped_values_run_on_cpu_like_onnxruntime(name: str) -> None:
    model = MODELS[name][0]()
    _check(xhip.compile(model, device="cpu"), name, model)


@pytest.mark.emulator
@pytest.mark.parametrize("name", sorted(MODELS))
def test_untyped_values_run_on_emulated_gpu_like_onnxruntime(
    name: str, emulated_cuda: CudaRuntime
) -> None:
    model = MODELS[name][0]()
    ir = xhip.compile_to_ir(model)
    _check(
        CompiledModel(ir.module, ir.signature, ir.constants, emulated_cuda), name, model
    )


def test_the_untyped_reshape_gets_its_rank_and_dynamic_dims() -> None:
    """The flatten's result is `?x?`: its rank from the Concat's length, its
    sizes from the run (onnx-fold-shapes turns the chain into dims)."""
    text = str(import_model(paddle_flatten_model()))
    assert re.search(r'"onnx.Reshape".*-> tensor<\?x\?xf32>', text), text


# Where the rank cannot be known, and where inference contradicts the model.


def unknowable_rank_model() -> onnx.ModelProto:
    """A Reshape whose target's length is itself a dim (`k`): the result's
    rank is known only at run time."""
    return make_model(
        [
            helper.make_node("Reshape", ["x", "s"], ["r"], name="reshape"),
            helper.make_node("Relu", ["r"], ["y"], name="relu"),
        ],
        [tensor("x", F, ["n", 12]), tensor("s", I64, ["k"])],
        [tensor("y", F, [None, None])],
    )


def declared_wrong_model(where: str) -> onnx.ModelProto:
    """`y = relu(x) + x` on float32[2, 3], with `where` ('output',
    'value_info') declared float32[2, 4], or the value_info int64[2, 3]."""
    out = [2, 4] if where == "output" else [2, 3]
    model = make_model(
        [
            helper.make_node("Relu", ["x"], ["r"], name="relu"),
            helper.make_node("Add", ["r", "x"], ["y"], name="add"),
        ],
        [tensor("x", F, [2, 3])],
        [tensor("y", F, out)],
    )
    if where == "value_info":
        model.graph.value_info.append(tensor("r", F, ["batch", 4]))
    elif where == "elem":
        model.graph.value_info.append(tensor("r", I64, [2, 3]))
    return model


ERRORS = [
    (
        unknowable_rank_model,
        r"node 'reshape' \(Reshape\): cannot infer the shape of 'r'",
    ),
    (
        lambda: declared_wrong_model("output"),
        r"'y': the model declares float32\[2, 4\] but shape inference gives "
        r"float32\[2, 3\]",
    ),
    (
        lambda: declared_wrong_model("value_info"),
        r"'r': the model declares float32\[batch, 4\] but shape inference gives "
        r"float32\[2, 3\]",
    ),
    (
        lambda: declared_wrong_model("elem"),
        r"'r': the model declares int64\[2, 3\] but shape inference gives "
        r"float32\[2, 3\]",
    ),
]


@pytest.mark.parametrize(
    ("build", "message"), ERRORS, ids=["rank", "output", "value-info", "elem"]
)
def test_one_line_from_the_cli(
    build: Callable[[], onnx.ModelProto],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "m.onnx"
    onnx.save(build(), path)
    code = main(["import", str(path), "-o", str(tmp_path / "o.mlir")])
    _, err = capsys.readouterr()
    assert code == 1, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    prefix = f"xhip import: error: {path}: "
    assert lines[0].startswith(prefix), lines[0]
    assert re.fullmatch(message, lines[0].removeprefix(prefix)), lines[0]
    assert not (tmp_path / "o.mlir").exists()
    with pytest.raises(OnnxImportError, match=message):
        import_model(build())


def test_outputs_declared_without_a_shape_take_the_inferred_one() -> None:
    """`make_tensor_value_info(name, type, None)` outputs: ONNX Runtime runs
    them, onnx's checker wants a shape; the importer states the inferred one."""
    nodes = [
        helper.make_node("Relu", ["x"], ["r"], name="relu"),
        helper.make_node("ReduceSum", ["r"], ["s"], name="sum", keepdims=0),
    ]
    outputs = [helper.make_tensor_value_info(n, F, None) for n in ("r", "s")]
    model = make_model(nodes, [tensor("x", F, ["n", 3])], outputs)
    compiled = xhip.compile(model, device="cpu")
    cases = (
        (str(n), {"x": np.random.default_rng(n).normal(size=(n, 3)).astype(np.float32)})
        for n in (1, 4)
    )
    check_like_onnxruntime(compiled, model, cases)
