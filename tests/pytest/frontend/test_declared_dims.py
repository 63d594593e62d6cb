"""A declared type (value_info, or a graph output) that fixes a dim the
graph's input leaves dynamic: ONNX Runtime takes it as a hint and runs any
size the input allows, so xhip does too. The declared `3` used to size the
value's buffer and fail at run time with a numpy broadcast error. The same
for a size that is data (a Range of graph inputs): onnx's inference, run
without the declarations, makes a name up for it (`unk__0`)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import xhip
from tests.pytest.frontend.models import check_like_onnxruntime, make_model, tensor
from xhip.backend.session import InputError
from xhip.frontend import import_model

F = TensorProto.FLOAT


def declared_model(where: str, batch: str | None = "batch") -> onnx.ModelProto:
    """`out = relu(x) + y` on float32[batch, 4] (`batch` None: an unnamed
    dim), with `relu`'s result (`where` 'value_info') or `out` ('output')
    declared float32[3, 4]."""
    model = make_model(
        [
            helper.make_node("Relu", ["x"], ["r"], name="relu"),
            helper.make_node("Add", ["r", "y"], ["out"], name="add"),
        ],
        [tensor("x", F, [batch, 4]), tensor("y", F, [batch, 4])],
        [tensor("out", F, [3, 4] if where == "output" else [batch, 4])],
    )
    if where == "value_info":
        model.graph.value_info.append(tensor("r", F, [3, 4]))
    return model


CASES = {
    "value_info": declared_model("value_info"),
    "output": declared_model("output"),
    "unnamed_input_dim": declared_model("value_info", None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_declared_dims_do_not_fix_a_dynamic_input_dim(name: str) -> None:
    model = CASES[name]
    compiled = xhip.compile(model, device="cpu")
    cases = []
    for n in (3, 5, 1):
        rng = np.random.default_rng(n)
        feeds = {k: rng.normal(size=(n, 4)).astype(np.float32) for k in ("x", "y")}
        cases.append((f"batch {n}", feeds))
    check_like_onnxruntime(compiled, model, cases)


def test_the_declared_value_keeps_the_input_dim() -> None:
    """The IR types `r` as the input's `?x4`, with the input's dim name."""
    text = str(import_model(CASES["value_info"]))
    assert (
        '"onnx.Relu"(%arg0) {onnx_node_name = "relu"} : (tensor<?x4xf32>) -> tensor<?x4xf32>'
        in text
    ), text


def test_a_declaration_inference_confirms_stays_static() -> None:
    """A static input: the declared dims are the inferred ones."""
    model = make_model(
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])],
        [tensor("x", F, [3, 4])],
        [tensor("y", F, [3, 4])],
    )
    model.graph.value_info.append(tensor("r", F, [3, 4]))
    assert "tensor<?" not in str(import_model(model))


@pytest.mark.parametrize("dtype", [TensorProto.FLOAT, TensorProto.DOUBLE])
def test_eyelike_with_a_dtype_after_a_contrib_op(dtype: int) -> None:
    """onnx's inference of EyeLike with `dtype` crashed the process (SIGSEGV)
    while its input, a contrib op's result, had no type yet (fuzz seed
    70135: `EyeLike(com.microsoft.Gelu(x), dtype=1)`)."""
    nodes = [
        helper.make_node("Gelu", ["x"], ["g"], domain="com.microsoft"),
        helper.make_node("EyeLike", ["g"], ["e"], dtype=dtype, k=-1),
        helper.make_node("Cast", ["e"], ["c"], to=F),
        helper.make_node("Mul", ["g", "c"], ["y"]),
    ]
    model = make_model(
        nodes, [tensor("x", F, ["batch", 6])], [tensor("y", F, ["batch", 6])]
    )
    model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    compiled = xhip.compile(model, device="cpu")
    cases = [
        (
            f"batch {n}",
            {"x": np.random.default_rng(n).normal(size=(n, 6)).astype(np.float32)},
        )
        for n in (4, 9)
    ]
    check_like_onnxruntime(compiled, model, cases)


def declared_range_model() -> onnx.ModelProto:
    """Range of graph inputs, its output declared [2] (onnx's node test
    declares the length its inputs give): the length is data."""
    scalar = [tensor(n, TensorProto.INT64, []) for n in ("start", "limit", "delta")]
    node = helper.make_node("Range", ["start", "limit", "delta"], ["y"])
    return make_model([node], scalar, [tensor("y", TensorProto.INT64, [2])])


def declared_nonzero_model() -> onnx.ModelProto:
    """NonZero, its output declared [2, 3]: the count is data."""
    node = helper.make_node("NonZero", ["x"], ["y"])
    return make_model(
        [node], [tensor("x", F, [2, 4])], [tensor("y", TensorProto.INT64, [2, 3])]
    )


def declared_window_model() -> onnx.ModelProto:
    """HannWindow of a graph input, declared [10]: onnx infers no shape here."""
    node = helper.make_node("HannWindow", ["size"], ["y"])
    return make_model(
        [node],
        [tensor("size", TensorProto.INT64, [])],
        [tensor("y", F, [10])],
        opset=17,
    )


def declared_reshape_model(allowzero: int = 0) -> onnx.ModelProto:
    """Reshape of x [n, 3, 4] (n may be 0) to a shape the caller gives, its
    output declared [2, 12]."""
    node = helper.make_node("Reshape", ["x", "shape"], ["y"], allowzero=allowzero)
    return make_model(
        [node],
        [tensor("x", F, ["n", 3, 4]), tensor("shape", TensorProto.INT64, [2])],
        [tensor("y", F, [2, 12])],
    )


def declared_reduce_model() -> onnx.ModelProto:
    """ReduceMax of x [4, 2] over axes the caller gives, declared [4, 1]."""
    node = helper.make_node("ReduceMax", ["x", "axes"], ["y"], keepdims=1)
    return make_model(
        [node],
        [tensor("x", F, [4, 2]), tensor("axes", TensorProto.INT64, [1])],
        [tensor("y", F, [4, 1])],
        opset=18,
    )


def _reshape(n: int, shape: list[int]) -> dict[str, np.ndarray]:
    x = np.arange(n * 12, dtype=np.float32).reshape(n, 3, 4)
    return {"x": x, "shape": np.array(shape, np.int64)}


def _scalars(start: int, limit: int, delta: int) -> dict[str, np.ndarray]:
    return {
        "start": np.array(start, np.int64),
        "limit": np.array(limit, np.int64),
        "delta": np.array(delta, np.int64),
    }


@pytest.mark.parametrize(
    "name", ["range", "nonzero", "window", "reshape", "empty", "reduce"]
)
def test_a_declared_size_of_data_is_a_hint(name: str) -> None:
    """ONNX Runtime takes an output's declared dims as a hint and gives what
    the data computes; xhip sized the buffer by the declaration and gave the
    first 2 elements of any Range (onnx's node test at other inputs)."""
    if name == "range":
        model = declared_range_model()
        cases = [(str(a), _scalars(*a)) for a in [(10, 6, -3), (10, 0, -3), (1, 6, 1)]]
    elif name == "reshape":
        model = declared_reshape_model()
        shapes = [[2, 12], [4, -1], [0, 12], [12, 2]]
        cases = [(str(shape), _reshape(2, shape)) for shape in shapes]
    elif name == "empty":
        model = declared_reshape_model(allowzero=1)
        cases = [
            (str(shape), _reshape(0, shape)) for shape in [[0, 12], [12, 0], [3, 0]]
        ]
    elif name == "reduce":
        model = declared_reduce_model()
        x = np.arange(8, dtype=np.float32).reshape(4, 2)
        cases = [
            (str(a), {"x": x, "axes": np.array([a], np.int64)}) for a in (1, 0, -2)
        ]
    elif name == "window":
        model = declared_window_model()
        cases = [(str(n), {"size": np.array(n, np.int64)}) for n in (8, 10, 13)]
    else:
        model = declared_nonzero_model()
        masks = [
            [[1, 0, 0, 1], [0, 1, 0, 0]],
            [[1, 1, 1, 1], [0, 0, 0, 0]],
            [[0] * 4] * 2,
        ]
        cases = [(str(i), {"x": np.array(m, np.float32)}) for i, m in enumerate(masks)]
    check_like_onnxruntime(xhip.compile(model, device="cpu"), model, cases)


def test_a_shape_that_does_not_fit_its_input_is_refused() -> None:
    """24 elements to [5, 5]: ONNX Runtime fails the call, and so does xhip,
    naming the sizes (it viewed the first 24 as a smaller tensor before)."""
    model = declared_reshape_model()
    compiled = xhip.compile(model, device="cpu")
    with pytest.raises(
        InputError, match=r"sizes \[5, 5\] \(25 elements\) do not make up a dim of 24"
    ):
        compiled(_reshape(2, [5, 5]))
    with pytest.raises(InputError, match=r"sizes \[4, 3\] \(12 elements\)"):
        compiled(_reshape(2, [4, 3]))
