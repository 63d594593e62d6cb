"""Convolutional models through every pass on the CPU runtime, against ONNX
Runtime (and MobileNetV2's fixtures against PyTorch's own outputs): dynamic
H and W, groups and depthwise, 1x1 kernels (no im2col), strides, dilations,
auto_pad, pooling with ceil_mode and Indices, batch norm in both modes; each
at sizes below and above the numba kernels' threshold (`cpu_conv.py`: im2col,
depthwise, max pool, Winograd, blocks).
`tests/pytest/emulator/test_conv_models.py` runs the same models on the GPU
runtimes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from tests.pytest.conftest import REPO
from xhip.backend.runtime import InputError
from xhip.backend.session import CompiledModel

FIXTURES = REPO / "tests" / "fixtures" / "models"


def _model(
    nodes: list[onnx.NodeProto],
    x_shape: Sequence[int | str],
    initializers: dict[str, np.ndarray],
    outputs: Sequence[str] = ("y",),
    opset: int = 17,
) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_shape))
    outs = [
        helper.make_tensor_value_info(n, TensorProto.UNDEFINED, None) for n in outputs
    ]
    graph = helper.make_graph(
        nodes,
        "conv_model",
        [x],
        outs,
        [numpy_helper.from_array(v, k) for k, v in initializers.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return onnx.shape_inference.infer_shapes(model, strict_mode=True)


def _weights(seed: int, *shape: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 0.5, shape).astype(np.float32)


def conv_block(**conv: Any) -> onnx.ModelProto:
    """Conv (with the given attributes) -> Relu -> MaxPool(ceil) -> Conv 1x1 ->
    GlobalAveragePool, on (N, 4, H, W)."""
    group = conv.get("group", 1)
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], kernel_shape=[3, 3], **conv),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node(
            "MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1
        ),
        helper.make_node("Conv", ["p", "w1"], ["q"]),
        helper.make_node("GlobalAveragePool", ["q"], ["y"]),
    ]
    inits = {
        "w": _weights(1, 8, 4 // group, 3, 3),
        "b": _weights(2, 8),
        "w1": _weights(3, 6, 8, 1, 1),
    }
    return _model(nodes, ["N", 4, "H", "W"], inits)


def grouped_1x1() -> onnx.ModelProto:
    """A grouped 1x1 conv (no im2col, one GEMM per group) and a depthwise 3x3."""
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], group=2),
        helper.make_node("Conv", ["c", "d"], ["y"], group=6, pads=[1, 0, 2, 1]),
    ]
    inits = {
        "w": _weights(4, 6, 2, 1, 1),
        "b": _weights(5, 6),
        "d": _weights(6, 6, 1, 3, 3),
    }
    return _model(nodes, ["N", 4, "H", "W"], inits)


def basic_block() -> onnx.ModelProto:
    """ResNet's stem pool and basic block on (1, 16, H, W): MaxPool 3x3/2,
    Conv 3x3 (Winograd at large sizes) -> Relu -> Conv 3x3 -> Add -> Relu,
    then a strided Conv 3x3 (im2col)."""
    nodes = [
        helper.make_node(
            "MaxPool", ["x"], ["p"], kernel_shape=[3, 3], strides=[2, 2], pads=[1] * 4
        ),
        helper.make_node("Conv", ["p", "w1", "b1"], ["c1"], pads=[1] * 4),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1] * 4),
        helper.make_node("Add", ["c2", "p"], ["s"]),
        helper.make_node("Relu", ["s"], ["r2"]),
        helper.make_node("Conv", ["r2", "w3"], ["y"], pads=[1] * 4, strides=[2, 2]),
    ]
    inits = {
        "w1": _weights(11, 16, 16, 3, 3) / 4,
        "b1": _weights(12, 16),
        "w2": _weights(13, 16, 16, 3, 3) / 4,
        "b2": _weights(14, 16),
        "w3": _weights(15, 12, 16, 3, 3) / 4,
    }
    return _model(nodes, [1, 16, "H", "W"], inits)


def conv_1d() -> onnx.ModelProto:
    """A 1-D convolution with a dilation and a stride, AveragePool in ceil mode."""
    nodes = [
        helper.make_node(
            "Conv", ["x", "w"], ["c"], strides=[2], dilations=[2], pads=[2, 1]
        ),
        helper.make_node(
            "AveragePool", ["c"], ["y"], kernel_shape=[3], ceil_mode=1, strides=[2]
        ),
    ]
    return _model(nodes, ["N", 3, "L"], {"w": _weights(7, 5, 3, 3)})


def conv_3d() -> onnx.ModelProto:
    """SAME_LOWER with a stride of 2 (static sizes), AveragePool with pads."""
    nodes = [
        helper.make_node(
            "Conv", ["x", "w", "b"], ["c"], auto_pad="SAME_LOWER", strides=[1, 2, 1]
        ),
        helper.make_node(
            "AveragePool",
            ["c"],
            ["y"],
            kernel_shape=[2, 2, 2],
            pads=[1, 1, 1, 0, 0, 0],
            count_include_pad=1,
        ),
    ]
    inits = {"w": _weights(8, 4, 2, 2, 3, 2), "b": _weights(9, 4)}
    return _model(nodes, [2, 2, 5, 6, 4], inits)


def pool_indices() -> onnx.ModelProto:
    nodes = [
        helper.make_node(
            "MaxPool",
            ["x"],
            ["y", "i"],
            kernel_shape=[3, 3],
            strides=[2, 2],
            pads=[1, 1, 1, 1],
            storage_order=1,
        ),
        helper.make_node("GlobalMaxPool", ["y"], ["g"]),
    ]
    return _model(nodes, [2, 3, 7, 9], {}, outputs=("y", "i", "g"))


def batch_norm(training: bool) -> onnx.ModelProto:
    outputs = ("y", "rm", "rv") if training else ("y",)
    nodes = [
        helper.make_node(
            "BatchNormalization",
            ["x", "s", "b", "m", "v"],
            list(outputs),
            epsilon=1e-3,
            momentum=0.8,
            training_mode=int(training),
        )
    ]
    rng = np.random.default_rng(10)
    inits = {
        "s": rng.normal(size=3).astype(np.float32),
        "b": rng.normal(size=3).astype(np.float32),
        "m": rng.normal(size=3).astype(np.float32),
        "v": rng.uniform(0.5, 2, size=3).astype(np.float32),
    }
    return _model(nodes, ["N", 3, "H", "W"], inits, outputs=outputs, opset=15)


MODELS = {
    "conv_block_pads": (
        conv_block(pads=[1, 0, 1, 2]),
        [(1, 9, 11), (2, 6, 5), (2, 47, 53)],
    ),
    "conv_block_same_upper": (
        conv_block(auto_pad="SAME_UPPER"),
        [(1, 7, 8), (3, 5, 5), (1, 50, 45)],
    ),
    "conv_block_valid_dilated_groups": (
        conv_block(auto_pad="VALID", dilations=[2, 1], group=2, strides=[1, 2]),
        [(2, 9, 7), (1, 51, 60)],
    ),
    "grouped_1x1_depthwise": (grouped_1x1(), [(2, 5, 7), (1, 1, 2), (2, 31, 29)]),
    "basic_block": (basic_block(), [(9, 12), (83, 77)]),
    "conv_1d": (conv_1d(), [(2, 17), (1, 6)]),
    "conv_3d": (conv_3d(), [()]),
    "max_pool_indices": (pool_indices(), [()]),
    "batch_norm": (batch_norm(False), [(2, 3, 5)]),
    "batch_norm_training": (batch_norm(True), [(2, 3, 5), (1, 1, 1)]),
}
"""Each model with the sizes of its named dims to run it at."""


def _inputs(model: onnx.ModelProto, sizes: Sequence[int]) -> dict[str, np.ndarray]:
    (x,) = model.graph.input
    dims = iter(sizes)
    shape = [
        d.dim_value if d.HasField("dim_value") else next(dims)
        for d in x.type.tensor_type.shape.dim
    ]
    rng = np.random.default_rng(sum(shape))
    return {"x": rng.normal(size=shape).astype(np.float32)}


def expected(model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return session.run(None, inputs)


def check(got: dict[str, np.ndarray], want: list[np.ndarray]) -> None:
    assert len(got) == len(want)
    for (name, g), w in zip(got.items(), want):
        assert g.shape == w.shape, name
        if w.dtype == np.int64:
            np.testing.assert_array_equal(g, w, err_msg=name)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=name)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_conv_model_on_cpu(name: str) -> None:
    model, runs = MODELS[name]
    compiled = xhip.compile(model, debug=True)
    for sizes in runs:
        inputs = _inputs(model, sizes)
        check(compiled(inputs), expected(model, inputs))


@pytest.mark.parametrize("debug", [False, True])
def test_a_relu_after_a_conv_runs_inside_it_on_the_cpu(debug: bool) -> None:
    """`hip-fuse-conv-relu` on what the CPU runtime executes: the block's
    Conv -> Relu is one conv, the Relu after the residual Add stays (in the
    fused elementwise op); the outputs still match ONNX Runtime at sizes
    that take numpy's paths and the tile kernels."""
    model = basic_block()
    compiled = xhip.compile(model, debug=debug)
    assert isinstance(compiled, CompiledModel)
    ir = str(compiled.module)
    assert ir.count("group = 1 : i64, relu}") == 1
    assert "hip.miopen.relu" not in ir and 'relu(s0) : f32"' in ir
    for sizes in [(9, 11), (56, 56)]:
        inputs = _inputs(model, sizes)
        check(compiled(inputs), expected(model, inputs))


VISION_FIXTURES = ["mobilenet_v2_w025", "resnet18_w0125"]


@pytest.mark.parametrize("exporter", ["torchscript", "dynamo"])
@pytest.mark.parametrize("name", VISION_FIXTURES)
def test_vision_fixture_matches_torch_and_onnxruntime(name: str, exporter: str) -> None:
    """The committed torchvision exports (MobileNetV2 at width 0.25: Conv,
    Clip, Add, GlobalAveragePool, Flatten/Reshape, Gemm; ResNet-18 at 1/8
    width: Conv, Relu, MaxPool, Add) against PyTorch's outputs saved beside
    them, and against ONNX Runtime at other heights and widths (both dynamic)."""
    path = FIXTURES / f"{name}.{exporter}.onnx"
    data = np.load(FIXTURES / f"{name}.{exporter}.npz")
    compiled = xhip.compile(path)
    got = compiled({"input": data["input"]})
    np.testing.assert_allclose(got["logits"], data["logits"], rtol=1e-3, atol=1e-5)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(3)
    for height, width in [(32, 32), (57, 41), (224, 224)]:
        x = rng.standard_normal((1, 3, height, width)).astype(np.float32)
        (want,) = session.run(None, {"input": x})
        np.testing.assert_allclose(
            compiled({"input": x})["logits"],
            want,
            rtol=1e-4,
            atol=1e-5,
            err_msg=f"{height}x{width}",
        )


def _stem_model() -> onnx.ModelProto:
    """A 3x3 Conv on an image of dynamic size: too small below 3x3."""
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["y"], name="stem", kernel_shape=[3, 3])],
        "stem",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, "h", "w"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, None, None])],
        [numpy_helper.from_array(np.ones((4, 2, 3, 3), np.float32), "w")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("device", ["cpu", "emulated-cuda"])
def test_an_image_smaller_than_the_kernel_is_refused(
    device: str, request: pytest.FixtureRequest
) -> None:
    """ONNX Runtime refuses it ("Invalid input shape"); xhip said nothing and
    gave an empty output (2x2: 0x0), which a pooling then turned into NaN."""
    model = _stem_model()
    if device == "cpu":
        compiled = xhip.compile(model, device="cpu")
    else:
        gpu = request.getfixturevalue("emulated_cuda")
        ir = xhip.compile_to_ir(model)
        compiled = CompiledModel(ir.module, ir.signature, ir.constants, gpu)
    assert compiled({"x": np.ones((1, 2, 3, 3), np.float32)})["y"].shape == (1, 4, 1, 1)
    with pytest.raises(
        InputError, match=r"Conv: the input's spatial size 2x2 .* kernel 3x3"
    ):
        compiled({"x": np.ones((1, 2, 2, 2), np.float32)})
