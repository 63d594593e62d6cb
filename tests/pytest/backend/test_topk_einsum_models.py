"""TopK and Einsum through every pass, on the CPU runtime and on the GPU
runtimes (the emulated device), against ONNX Runtime, at dynamic dims.

A small attention head written with Einsum (`bhqd,bhkd->bhqk`, softmax,
`bhqk,bhkd->bhqd`, a two-letter contraction with the output weight, an
ellipsis projection to a vocabulary) ends in a top-k of the logits and a
smallest-first TopK whose K is the sequence length (a shape value); then one
node per equation form, and TopK per axis, direction and element type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper
from xdsl.utils.exceptions import PassFailedException

import xhip
from xhip.backend.cuda import CudaRuntime
from xhip.backend.gpu import kernel_source
from xhip.backend.runtime import NotImplementedOnDevice
from xhip.backend.session import CompiledModel
from xhip.testing.emulator import EmulatedDevice, EmulatedKernels, EmulatorUnavailable

HEADS, HEAD_DIM, MODEL_DIM, VOCAB = 2, 8, 6, 11
F32 = TensorProto.FLOAT

Feeds = dict[str, np.ndarray]
Run = Callable[[onnx.ModelProto, list[Feeds]], list[list[np.ndarray]]]
"""Compiles a model once and runs it on each of the feeds."""


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    initializers: list[onnx.TensorProto] = (),  # type: ignore[assignment]
    opset: int = 18,
) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def attention_topk() -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    wo = rng.standard_normal((HEADS, HEAD_DIM, MODEL_DIM)).astype(np.float32)
    emb = rng.standard_normal((VOCAB, MODEL_DIM)).astype(np.float32)
    initializers = [
        numpy_helper.from_array(wo, "wo"),
        numpy_helper.from_array(emb, "emb"),
        numpy_helper.from_array(np.array([3], np.int64), "three"),
        numpy_helper.from_array(np.array([1], np.int64), "one"),
        numpy_helper.from_array(np.array([2], np.int64), "two"),
    ]
    nodes = [
        helper.make_node("Einsum", ["q", "k"], ["s"], equation="bhqd,bhkd->bhqk"),
        helper.make_node("Softmax", ["s"], ["p"], axis=-1),
        helper.make_node("Einsum", ["p", "v"], ["c"], equation="bhqk,bhkd->bhqd"),
        helper.make_node("Einsum", ["c", "wo"], ["m"], equation="bhqd,hde->bqe"),
        helper.make_node("Einsum", ["m", "emb"], ["logits"], equation="...e,ve->...v"),
        helper.make_node("TopK", ["logits", "three"], ["top", "top_i"]),
        helper.make_node("Shape", ["m"], ["shape"]),
        helper.make_node("Slice", ["shape", "one", "two"], ["seq"]),
        helper.make_node("TopK", ["m", "seq"], ["low", "low_i"], axis=1, largest=0),
        helper.make_node("Einsum", ["m", "m"], ["norms"], equation="bqe,bqe->bq"),
    ]
    qkv = ["batch", HEADS, "seq", HEAD_DIM]
    inputs = [helper.make_tensor_value_info(n, F32, qkv) for n in "qkv"]
    i64 = TensorProto.INT64
    outputs = [
        helper.make_tensor_value_info("top", F32, ["batch", "seq", 3]),
        helper.make_tensor_value_info("top_i", i64, ["batch", "seq", 3]),
        helper.make_tensor_value_info("low", F32, ["batch", "seq", MODEL_DIM]),
        helper.make_tensor_value_info("low_i", i64, ["batch", "seq", MODEL_DIM]),
        helper.make_tensor_value_info("norms", F32, ["batch", "seq"]),
    ]
    return _model(nodes, inputs, outputs, initializers)


def _onnxruntime(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[Any]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return list(session.run(None, feeds))


@pytest.fixture(scope="module")
def emulated() -> EmulatedKernels:
    try:
        return EmulatedKernels(kernel_source(), "xhip_kernels.h")
    except EmulatorUnavailable as e:
        pytest.skip(str(e))


def _on_cpu(model: onnx.ModelProto, feeds: list[Feeds]) -> list[list[np.ndarray]]:
    compiled = xhip.compile(model, device="cpu", debug=True)
    return [list(compiled(f).values()) for f in feeds]


def _on_gpu(kernels: EmulatedKernels) -> Run:
    def run(model: onnx.ModelProto, feeds: list[Feeds]) -> list[list[np.ndarray]]:
        ir = xhip.compile_to_ir(model)
        device = EmulatedDevice(32, kernels=kernels, runtime="cuda")
        runtime = CudaRuntime(debug=True, device=device)
        try:
            compiled = CompiledModel(ir.module, ir.signature, ir.constants, runtime)
            return [list(compiled(f).values()) for f in feeds]
        finally:
            runtime.close()

    return run


@pytest.fixture(params=["cpu", pytest.param("gpu", marks=pytest.mark.emulator)])
def run(request: pytest.FixtureRequest) -> Run:
    if request.param == "cpu":
        return _on_cpu
    return _on_gpu(request.getfixturevalue("emulated"))


def _check(run: Run, model: onnx.ModelProto, feeds: list[Feeds]) -> None:
    """One compile, each feed against ONNX Runtime."""
    for f, got in zip(feeds, run(model, feeds), strict=True):
        want = _onnxruntime(model, f)
        assert len(got) == len(want)
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            where = f"output {i} at {[x.shape for x in f.values()]}"
            assert g.dtype == w.dtype, where
            if w.dtype.kind in "iu":
                np.testing.assert_array_equal(g, w, err_msg=where)
            else:
                np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=where)


def test_attention_with_topk_matches_onnxruntime(run: Run) -> None:
    feeds: list[Feeds] = []
    for batch, seq in [(1, 1), (2, 5), (3, 9)]:
        rng = np.random.default_rng(batch * 10 + seq)
        shape = (batch, HEADS, seq, HEAD_DIM)
        feeds.append({n: rng.standard_normal(shape).astype(np.float32) for n in "qkv"})
    _check(run, attention_topk(), feeds)


EQUATIONS = [
    # equation, shapes (a str is a dynamic dim, its size in `SIZES`)
    ("ij->ji", [("n", 4)]),
    ("ij->i", [("n", 4)]),
    ("ij->", [(3, "n")]),
    ("ij", [("n", 4)]),  # implicit: the letters once, sorted: ij
    ("ji", [("n", 4)]),  # implicit: ij, a transpose
    ("i,j->ij", [("n",), (5,)]),
    ("i,i", [("n",), ("n",)]),
    ("ij,ij->ij", [("n", 4), ("n", 4)]),
    ("bij,bjk->bik", [("b", 2, 3), ("b", 3, 4)]),
    ("bhqd,bhkd->bhqk", [("b", 2, "n", 8), ("b", 2, "n", 8)]),
    ("...ij,...jk->...ik", [("b", 1, 3, 4), (1, 5, 4, 2)]),  # broadcast batch
    ("...ij,jk", [("b", 3, 4), (4, 2)]),  # implicit with an ellipsis
    ("ij,jk,kl->il", [("n", 3), (3, 4), (4, 2)]),
    ("bn,anm,bm->ba", [("b", 3), (2, 3, 4), ("b", 4)]),  # a bilinear form
    ("ijk->kji", [(2, "n", 4)]),
    ("ii->i", [(5, 5)]),
    ("ii", [(4, 4)]),  # the trace
    ("...ii->...i", [("b", 5, 5)]),
    ("bii,bij->bj", [("b", 3, 3), ("b", 3, 2)]),
    # a contracted letter of size 1 in one operand broadcasts (fuzz seed 214066)
    ("...j,jk->...k", [("b", "n"), (1, 4)]),
    ("bj,bjk->bk", [("b", 1), ("b", "n", 3)]),
]
SIZES = [{"n": 1, "b": 1}, {"n": 6, "b": 3}]


@pytest.mark.parametrize("equation,shapes", EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_einsum_matches_onnxruntime(
    run: Run, equation: str, shapes: list[tuple[int | str, ...]]
) -> None:
    names = [f"x{i}" for i in range(len(shapes))]
    inputs = [
        helper.make_tensor_value_info(n, F32, list(s)) for n, s in zip(names, shapes)
    ]
    node = helper.make_node("Einsum", names, ["y"], equation=equation)
    model = _model([node], inputs, [helper.make_tensor_value_info("y", F32, None)])
    model = onnx.shape_inference.infer_shapes(model)
    rng = np.random.default_rng(len(equation))
    feeds = [
        {
            n: rng.standard_normal(
                [sizes[d] if isinstance(d, str) else d for d in s]
            ).astype(np.float32)
            for n, s in zip(names, shapes)
        }
        for sizes in SIZES
    ]
    _check(run, model, feeds)


TOPK = [
    # shape, axis, k, largest, dtype
    (("n", 7), -1, 3, 1, np.float32),
    (("n", 7), 0, 1, 0, np.float32),
    ((4, "n", 3), 1, 1, 1, np.float32),
    ((5, 7), 1, 7, 0, np.float32),
    ((3, 6), -1, 2, 1, np.int64),
    ((3, 6), 0, 3, 0, np.int32),
    ((3, 6), 1, 4, 1, np.float64),
]


@pytest.mark.parametrize("shape,axis,k,largest,dtype", TOPK, ids=str)
def test_topk_matches_onnxruntime(
    run: Run,
    request: pytest.FixtureRequest,
    shape: tuple[int | str, ...],
    axis: int,
    k: int,
    largest: int,
    dtype: type[np.generic],
) -> None:
    """Ties (few distinct values) go to the lower index, as in ONNX Runtime."""
    refused = dtype is not np.float32 and "gpu" in request.node.callspec.id
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    inputs = [helper.make_tensor_value_info("x", elem, list(shape))]
    kk = numpy_helper.from_array(np.array([k], np.int64), "k")
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=axis, largest=largest)
    outputs = [
        helper.make_tensor_value_info("v", elem, None),
        helper.make_tensor_value_info("i", TensorProto.INT64, None),
    ]
    model = onnx.shape_inference.infer_shapes(_model([node], inputs, outputs, [kk]))
    rng = np.random.default_rng(k)
    feeds: list[Feeds] = []
    for n in (1, 5):
        concrete = [n if isinstance(d, str) else d for d in shape]
        if concrete[axis] >= k:
            feeds.append({"x": rng.integers(-3, 4, concrete).astype(dtype)})
    if refused:  # the GPU runtimes run TopK on float32 only, and say so
        with pytest.raises(NotImplementedOnDevice, match="hip.topk"):
            _check(run, model, feeds)
        return
    _check(run, model, feeds)


def test_einsum_refusals_name_the_equation() -> None:
    """A diagonal needs a static size; more than one `...`, no equation."""
    x = helper.make_tensor_value_info("x", F32, ["n", "n"])
    y = helper.make_tensor_value_info("y", F32, None)
    node = helper.make_node("Einsum", ["x"], ["y"], equation="ii->i")
    model = onnx.shape_inference.infer_shapes(_model([node], [x], [y]))
    with pytest.raises(
        PassFailedException, match=r"equation 'ii->i': the repeated letter 'i'"
    ):
        xhip.compile_to_ir(model)


def test_topk_reads_a_graph_input_k_back() -> None:
    """K as a graph input is read back at run time (`hip.readback`); the
    outputs' declared size along the axis is what the caller allocates."""
    x = helper.make_tensor_value_info("x", F32, ["rows", 6])
    k = helper.make_tensor_value_info("k", TensorProto.INT64, [1])
    outputs = [
        helper.make_tensor_value_info("v", F32, ["rows", 2]),
        helper.make_tensor_value_info("i", TensorProto.INT64, ["rows", 2]),
    ]
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], largest=0)
    model = _model([node], [x, k], outputs)
    feeds = {
        "x": np.random.default_rng(2).standard_normal((5, 6)).astype(np.float32),
        "k": np.array([2], np.int64),
    }
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    got = xhip.compile(model)(feeds)
    for name, want in zip(["v", "i"], session.run(None, feeds), strict=True):
        np.testing.assert_array_equal(got[name], want)


def test_topk_output_sized_only_by_a_run_time_k() -> None:
    """A size only K read back at run time gives: the output is allocated
    after the readback and returned at its real size (docs/shape-values.md,
    "Data-sized outputs"), for each K of the calls."""
    x = helper.make_tensor_value_info("x", F32, [3, 4])
    k = helper.make_tensor_value_info("k", TensorProto.INT64, [1])
    outputs = [
        helper.make_tensor_value_info("v", F32, None),
        helper.make_tensor_value_info("i", TensorProto.INT64, None),
    ]
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"])
    model = onnx.shape_inference.infer_shapes(_model([node], [x, k], outputs))
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    compiled = xhip.compile(model)
    x_value = np.random.default_rng(3).standard_normal((3, 4)).astype(np.float32)
    for kk in (1, 3, 4):
        feeds = {"x": x_value, "k": np.array([kk], np.int64)}
        got = compiled(feeds)
        for name, want in zip(["v", "i"], session.run(None, feeds), strict=True):
            assert got[name].shape == (3, kk)
            np.testing.assert_array_equal(got[name], want)
