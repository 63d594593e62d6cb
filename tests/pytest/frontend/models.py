"""Small ONNX models for the frontend and CLI tests, built with `onnx.helper`."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from tests.pytest.conftest import REPO

ATTENTION_SCRIPT = REPO / "examples" / "attention.py"
ATTENTION_ONNX = REPO / "examples" / "attention.onnx"


def attention_example() -> ModuleType:
    """`examples/attention.py` as a module (examples/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "xhip_attention_example", ATTENTION_SCRIPT
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[onnx.ValueInfoProto],
    outputs: Sequence[onnx.ValueInfoProto],
    initializers: Sequence[onnx.TensorProto] = (),
    opset: int = 17,
    name: str = "test_model",
) -> onnx.ModelProto:
    graph = helper.make_graph(
        list(nodes), name, list(inputs), list(outputs), initializer=list(initializers)
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def tensor(name: str, elem: int, shape: Sequence[int | str | None] | None):
    return helper.make_tensor_value_info(name, elem, shape)


def relu_model(
    elem: int = TensorProto.FLOAT, shape: Sequence[int | str | None] | None = (2, 3)
) -> onnx.ModelProto:
    """`y = relu(x)`; the input's type is the knob the error tests turn."""
    return make_model(
        [helper.make_node("Relu", ["x"], ["y"], name="relu")],
        [tensor("x", elem, shape)],
        [tensor("y", elem, [2, 3])],
    )


def unsupported_model() -> onnx.ModelProto:
    """Two unsupported op types, one used twice."""
    x = tensor("x", TensorProto.FLOAT, [2, 3])
    return make_model(
        [
            helper.make_node("RandomNormalLike", ["x"], ["a"], name="ln1"),
            helper.make_node("Relu", ["a"], ["b"], name="relu"),
            helper.make_node("RandomNormalLike", ["b"], ["c"], name="ln2"),
            helper.make_node("RandomUniformLike", ["c"], ["y"], name="random"),
        ],
        [x],
        [tensor("y", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(np.ones(3, np.float32), "s")],
    )


def ints(name: str, values: list[int] | int) -> onnx.TensorProto:
    """An int64 initializer."""
    return numpy_helper.from_array(np.array(values, np.int64), name)


def untyped_values(model: onnx.ModelProto) -> set[str]:
    """The values onnx's inference (strict mode off) gives no shape: what a
    test of our own typing first checks onnx really leaves open."""
    inferred = onnx.shape_inference.infer_shapes(
        model, strict_mode=False, data_prop=True
    )
    typed = {
        v.name
        for v in [*inferred.graph.value_info, *inferred.graph.output]
        if v.type.tensor_type.HasField("shape")
    }
    return {o for n in model.graph.node for o in n.output} - typed


def check_like_onnxruntime(
    run: Callable[[dict[str, np.ndarray]], Mapping[str, np.ndarray]],
    model: onnx.ModelProto,
    cases: Iterable[tuple[str, dict[str, np.ndarray]]],
) -> None:
    """`run` (a compiled model) gives ONNX Runtime's outputs, shapes and
    values, on each labelled set of feeds."""
    import onnxruntime as ort  # lazy: only the tests that compare load it

    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    for label, feeds in cases:
        want = [np.asarray(w) for w in session.run(None, feeds)]
        got = run(feeds)
        for (key, value), expected in zip(got.items(), want, strict=True):
            assert value.shape == expected.shape, (key, label)
            np.testing.assert_allclose(
                value, expected, rtol=1e-5, atol=1e-6, err_msg=f"{key} {label}"
            )
