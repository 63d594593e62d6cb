"""Models of Pad, DepthToSpace, SpaceToDepth, InstanceNormalization,
GroupNormalization and LRN through every pass on the CPU runtime (plan and
debug mode), against ONNX Runtime, at dynamic N, H and W:

- every Pad mode, negative pads (a crop), `axes`, a constant value, and pads
  computed from the input's shape (run-time index operands);
- DepthToSpace in both modes and SpaceToDepth undoing it;
- InstanceNormalization, GroupNormalization (opset 21: scale per channel)
  and LRN; in float64 too (against ONNX Runtime in float32, which has no
  float64 InstanceNormalization). GroupNormalization-18 (scale per group)
  fails onnx's checker (deprecated), so its runtime path is checked directly.

`tests/pytest/emulator/test_image_kernels.py` runs the float32 models on the
GPU runtimes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.dialects import hip


def _model(
    nodes: list[onnx.NodeProto],
    x_shape: Sequence[int | str],
    initializers: dict[str, np.ndarray],
    outputs: Sequence[str],
    opset: int,
    elem: int = TensorProto.FLOAT,
) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", elem, list(x_shape))
    rank = [None] * len(x_shape)  # every output has x's rank
    outs = [helper.make_tensor_value_info(n, elem, rank) for n in outputs]
    graph = helper.make_graph(
        nodes,
        "image_model",
        [x],
        outs,
        [numpy_helper.from_array(v, k) for k, v in initializers.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return onnx.shape_inference.infer_shapes(model, strict_mode=True)


def _i64(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


def pads() -> onnx.ModelProto:
    """Constant (a crop on one side, a value), reflect, edge on two axes, wrap."""
    nodes = [
        helper.make_node("Pad", ["x", "p1", "v"], ["a"], mode="constant"),
        helper.make_node("Pad", ["a", "p2"], ["b"], mode="reflect"),
        helper.make_node("Pad", ["b", "p3", "", "axes"], ["c"], mode="edge"),
        helper.make_node("Pad", ["c", "p4"], ["d"], mode="wrap"),
        helper.make_node("Relu", ["d"], ["y"]),
    ]
    initializers = {
        "p1": _i64(0, 1, -1, 2, 1, 0, 2, -1),
        "v": np.array([1.5], np.float32),
        "p2": _i64(0, 0, 2, 1, 0, 0, 1, 2),
        "axes": _i64(-1, 1),
        "p3": _i64(3, 0, 1, 2),
        "p4": _i64(1, 0, 5, 4, 0, 0, 1, 7),
    }
    return _model(nodes, ["n", 3, "h", "w"], initializers, ["a", "b", "y"], 21)


def pads_from_shape() -> onnx.ModelProto:
    """Pads of H and W at the end, as large as H and W: Shape-derived values,
    index operands at run time."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], start=2),
        helper.make_node("Concat", ["zeros", "s"], ["p"], axis=0),
        helper.make_node("Pad", ["x", "p"], ["y"], mode="edge"),
    ]
    initializers = {"zeros": _i64(0, 0, 0, 0, 0, 0)}
    return _model(nodes, ["n", 2, "h", "w"], initializers, ["y"], 18)


def depth_space() -> onnx.ModelProto:
    nodes = [
        helper.make_node("DepthToSpace", ["x"], ["dcr"], blocksize=2, mode="DCR"),
        helper.make_node("DepthToSpace", ["x"], ["crd"], blocksize=2, mode="CRD"),
        helper.make_node("Relu", ["dcr"], ["r"]),
        helper.make_node("SpaceToDepth", ["r"], ["back"], blocksize=2),
        helper.make_node("SpaceToDepth", ["crd"], ["deeper"], blocksize=1),
    ]
    return _model(nodes, ["n", 8, "h", "w"], {}, ["dcr", "crd", "back", "deeper"], 13)


def norms(dtype: type[np.generic], elem: int) -> onnx.ModelProto:
    rng = np.random.default_rng(3)

    def param(name: str, n: int) -> tuple[str, np.ndarray]:
        return name, rng.normal(1, 0.5, n).astype(dtype)

    initializers = dict([param("s", 6), param("b", 6), param("gs", 6), param("gb", 6)])
    nodes = [
        helper.make_node("InstanceNormalization", ["x", "s", "b"], ["i"], epsilon=1e-3),
        helper.make_node(
            "GroupNormalization", ["i", "gs", "gb"], ["g"], num_groups=3, epsilon=1e-4
        ),
        helper.make_node("LRN", ["g"], ["y"], size=3, alpha=0.01, beta=0.6, bias=2.0),
        helper.make_node("LRN", ["x"], ["l"], size=5),
    ]
    return _model(
        nodes, ["n", 6, "h", "w"], initializers, ["i", "g", "y", "l"], 21, elem
    )


MODELS = {
    "pads": (pads(), [(1, 4, 5), (2, 3, 2)]),
    "pads_from_shape": (pads_from_shape(), [(1, 3, 4), (2, 1, 5)]),
    "depth_space": (depth_space(), [(1, 2, 3), (2, 4, 1)]),
    "norms": (norms(np.float32, TensorProto.FLOAT), [(2, 3, 5), (1, 1, 1)]),
}
"""name -> (model, the sizes of x's named dims for each run); float32."""

CPU_MODELS = {
    **MODELS,
    "norms_f64": (norms(np.float64, TensorProto.DOUBLE), [(2, 3, 5)]),
}
REFERENCE = {"norms_f64": MODELS["norms"][0]}
"""Models ONNX Runtime cannot run, and the float32 one it runs instead."""


def inputs(model: onnx.ModelProto, sizes: Sequence[int]) -> dict[str, np.ndarray]:
    (x,) = model.graph.input
    sizes_left = iter(sizes)
    shape = [
        d.dim_value if d.HasField("dim_value") else next(sizes_left)
        for d in x.type.tensor_type.shape.dim
    ]
    dtype = helper.tensor_dtype_to_np_dtype(x.type.tensor_type.elem_type)
    rng = np.random.default_rng(sum(shape))
    return {"x": rng.normal(0, 2, shape).astype(dtype)}


def expected(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return [np.asarray(v) for v in session.run(None, feeds)]


def check(got: dict[str, np.ndarray], want: list[np.ndarray]) -> None:
    assert len(got) == len(want)
    for (name, value), expected_value in zip(got.items(), want, strict=True):
        assert value.dtype == expected_value.dtype, name
        np.testing.assert_allclose(
            value, expected_value, rtol=1e-4, atol=1e-5, err_msg=name
        )


@pytest.mark.parametrize("debug", [False, True], ids=["plan", "debug"])
@pytest.mark.parametrize("name", sorted(CPU_MODELS))
def test_image_model_on_cpu(name: str, debug: bool) -> None:
    model, runs = CPU_MODELS[name]
    compiled = xhip.compile(model, device="cpu", debug=debug)
    for sizes in runs:
        feeds = inputs(model, sizes)
        if name in REFERENCE:
            f32 = {k: v.astype(np.float32) for k, v in feeds.items()}
            want = [w.astype(np.float64) for w in expected(REFERENCE[name], f32)]
        else:
            want = expected(model, feeds)
        check(compiled(feeds), want)


def test_pads_from_shape_are_index_operands() -> None:
    """The pads that depend on H and W reach `hip.pad` as run-time values."""
    ir = xhip.compile_to_ir(pads_from_shape())
    text = str(ir.module)
    (line,) = [line for line in text.splitlines() if "hip.pad" in line]
    assert "memref.dim" in text and '"edge"' in line


def test_group_norm_per_group_on_cpu() -> None:
    """GroupNormalization-18's scale and bias, one per group, on the runtime."""
    from xhip.backend.cpu import CpuRuntime

    rng = np.random.default_rng(5)
    x = rng.normal(0, 2, (2, 6, 5)).astype(np.float32)
    scale, bias = rng.normal(1, 0.5, 3), rng.normal(0, 1, 3)
    w = x.astype(np.float64).reshape(2, 3, -1)
    y = (w - w.mean(2, keepdims=True)) / np.sqrt(w.var(2, keepdims=True) + 1e-5)
    want = y * scale[:, None] + bias[:, None]
    runtime = CpuRuntime()
    try:
        xs, ss, bs = (runtime.upload(a.astype(np.float32)) for a in (x, scale, bias))
        out = runtime.empty(x.shape, np.dtype(np.float32))
        runtime.group_norm(xs, ss, bs, out, hip.GroupNormAttributes(3, 1e-5, True))
        got = runtime.download(out)
    finally:
        runtime.close()
    np.testing.assert_allclose(got, want.reshape(x.shape), rtol=1e-4, atol=1e-5)
