"""A model of the scatter family through every pass, on the CPU runtime and
the emulated GPU runtimes, against ONNX Runtime at several dynamic dims.

A causal-mask style block on `A` (batch, seq, seq): Trilu (lower, k 0) then
an exclusive reverse CumSum along the last dim, ScatterElements (add, with
duplicate and negative indices) along it, ScatterND (max) of whole batch
rows, a Trilu (upper) whose k is computed from A's shape (`seq - 2`, folded
by onnx-fold-shapes), and OneHot of int64 labels (negative ones included)
with a float depth. Integers and floats: the CumSum also runs on int32.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.backend.cuda import CudaRuntime
from xhip.backend.session import CompiledModel

DEPTH = 5


def scatter_block() -> onnx.ModelProto:
    f, i64 = TensorProto.FLOAT, TensorProto.INT64
    initializers = [
        numpy_helper.from_array(np.array(0, np.int64), "zero"),
        numpy_helper.from_array(np.array(-1, np.int32), "last"),
        numpy_helper.from_array(np.array(2, np.int64), "two"),
        numpy_helper.from_array(np.array(float(DEPTH), np.float32), "depth"),
        numpy_helper.from_array(np.array([-1.0, 3.0], np.float32), "off_on"),
    ]
    nodes = [
        helper.make_node("Trilu", ["A", "zero"], ["lower"], upper=0),
        helper.make_node("CumSum", ["lower", "last"], ["sums"], exclusive=1, reverse=1),
        helper.make_node(
            "ScatterElements",
            ["sums", "idx", "upd"],
            ["added"],
            axis=-1,
            reduction="add",
        ),
        helper.make_node(
            "ScatterND", ["added", "rows", "slices"], ["maxed"], reduction="max"
        ),
        helper.make_node("Shape", ["A"], ["shape"], start=2),
        helper.make_node("Squeeze", ["shape"], ["seq"]),
        helper.make_node("Sub", ["seq", "two"], ["k"]),
        helper.make_node("Trilu", ["maxed", "k"], ["Y"]),
        helper.make_node("OneHot", ["labels", "depth", "off_on"], ["H"], axis=1),
        helper.make_node("Cast", ["labels"], ["labels32"], to=TensorProto.INT32),
        helper.make_node("CumSum", ["labels32", "last"], ["C"]),
    ]
    inputs = [
        helper.make_tensor_value_info("A", f, ["batch", "seq", "seq"]),
        helper.make_tensor_value_info("idx", i64, ["batch", "seq", 3]),
        helper.make_tensor_value_info("upd", f, ["batch", "seq", 3]),
        helper.make_tensor_value_info("rows", i64, ["m", 1]),
        helper.make_tensor_value_info("slices", f, ["m", "seq", "seq"]),
        helper.make_tensor_value_info("labels", i64, ["batch", "seq"]),
    ]
    outputs = [
        helper.make_tensor_value_info("Y", f, ["batch", "seq", "seq"]),
        helper.make_tensor_value_info("H", f, ["batch", DEPTH, "seq"]),
        helper.make_tensor_value_info("C", TensorProto.INT32, ["batch", "seq"]),
    ]
    graph = helper.make_graph(nodes, "scatter_block", inputs, outputs, initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def feeds(batch: int, seq: int, m: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(batch * 100 + seq * 10 + m)
    rows = rng.permutation(batch)[:m].reshape(m, 1) - rng.integers(0, 2) * batch
    return {
        "A": rng.normal(size=(batch, seq, seq)).astype(np.float32),
        "idx": rng.integers(-seq, seq, (batch, seq, 3)).astype(np.int64),
        "upd": rng.normal(size=(batch, seq, 3)).astype(np.float32),
        "rows": rows.astype(np.int64),
        "slices": rng.normal(size=(m, seq, seq)).astype(np.float32),
        "labels": rng.integers(-DEPTH - 1, DEPTH + 1, (batch, seq)).astype(np.int64),
    }


DIMS = [(1, 1, 1), (2, 3, 1), (3, 7, 2), (4, 16, 4)]


@pytest.fixture(scope="module")
def model() -> onnx.ModelProto:
    return scatter_block()


@pytest.fixture(scope="module")
def session(model: onnx.ModelProto) -> ort.InferenceSession:
    return ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )


def _check(got: dict[str, np.ndarray], want: Sequence[Any], where: str) -> None:
    assert list(got) == ["Y", "H", "C"]
    for (name, value), expected in zip(got.items(), want, strict=True):
        assert value.dtype == expected.dtype, name
        np.testing.assert_allclose(
            value, expected, rtol=1e-5, atol=1e-5, err_msg=f"{name} {where}"
        )


@pytest.mark.parametrize("debug", [False, True], ids=["plan", "debug"])
def test_scatter_block_on_cpu_matches_onnxruntime(
    model: onnx.ModelProto, session: ort.InferenceSession, debug: bool
) -> None:
    compiled = xhip.compile(model, device="cpu", debug=debug)
    for dims in DIMS:
        x = feeds(*dims)
        _check(compiled(x), session.run(None, x), str(dims))


@pytest.mark.emulator
def test_scatter_block_on_emulated_gpu_matches_onnxruntime(
    model: onnx.ModelProto, session: ort.InferenceSession, emulated_cuda: CudaRuntime
) -> None:
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(ir.module, ir.signature, ir.constants, emulated_cuda)
    for dims in DIMS:
        x = feeds(*dims)
        _check(compiled(x), session.run(None, x), str(dims))


def _extreme_scatters(dtype: int) -> onnx.ModelProto:
    """ScatterElements and ScatterND with max and min, duplicate indices."""
    nodes = [
        helper.make_node(op, inputs, [f"{op}_{reduction}"], reduction=reduction, **kw)
        for reduction in ("max", "min")
        for op, inputs, kw in (
            ("ScatterElements", ["x", "i", "u"], {"axis": 1}),
            ("ScatterND", ["x", "rows", "slices"], {}),
        )
    ]
    inputs = [
        helper.make_tensor_value_info(name, element, shape)
        for name, element, shape in (
            ("x", dtype, [3, 6, 2]),
            ("u", dtype, [3, 8, 2]),
            ("slices", dtype, [4, 6, 2]),
            ("i", TensorProto.INT64, [3, 8, 2]),
        )
    ]
    graph = helper.make_graph(
        nodes,
        "extremes",
        inputs,
        [
            helper.make_tensor_value_info(f"{op}_{r}", dtype, [3, 6, 2])
            for r in ("max", "min")
            for op in ("ScatterElements", "ScatterND")
        ],
        [numpy_helper.from_array(np.array([[0], [2], [0], [0]], np.int64), "rows")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


NAN_SCATTER_TYPES = {TensorProto.FLOAT: np.float32, TensorProto.DOUBLE: np.float64}
"""(ONNX Runtime has no float16 ScatterND with max or min.)"""


@pytest.mark.parametrize("dtype", sorted(NAN_SCATTER_TYPES))
@pytest.mark.parametrize(
    "runtime", ["cpu", pytest.param("cuda", marks=pytest.mark.emulator)]
)
def test_max_min_scatters_with_nan_match_onnxruntime(
    dtype: int, runtime: str, request: pytest.FixtureRequest
) -> None:
    """ONNX Runtime's max (min) is `d > u ? d : u` in order (fuzz seed
    228236): a NaN update makes the destination NaN until a later one
    replaces it, and a NaN destination takes the next update. Random data,
    a third NaN, four updates to each destination."""
    np_type = NAN_SCATTER_TYPES[dtype]
    model = _extreme_scatters(dtype)
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    if runtime == "cpu":
        compiled = xhip.compile(model, device="cpu")
    else:
        ir = xhip.compile_to_ir(model)
        device = request.getfixturevalue("emulated_cuda")
        compiled = CompiledModel(ir.module, ir.signature, ir.constants, device)
    rng = np.random.default_rng(228236)
    for _ in range(4):

        def draw(*shape: int) -> np.ndarray:
            v = rng.integers(-5, 6, shape).astype(np_type)
            v[rng.random(shape) < 1 / 3] = np.nan
            return v

        feed = {
            "x": draw(3, 6, 2),
            "u": draw(3, 8, 2),
            "i": rng.integers(-6, 6, (3, 8, 2)).astype(np.int64),
            "slices": draw(4, 6, 2),
        }
        want = session.run(None, feed)
        got = compiled(feed)
        for (name, value), expected in zip(got.items(), want, strict=True):
            assert value.dtype == expected.dtype, name
            np.testing.assert_array_equal(value, expected, err_msg=name)
