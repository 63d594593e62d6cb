"""Scan and Loop models against ONNX Runtime on the CPU runtime: a cumulative
sum and product Scan (two states, two scan inputs, one read backwards along
axis 1, scan outputs stacked along axis 1 and backwards), a Loop with a
constant trip count (a carried value, a scan output, the iteration number
in the body), the same Loop with its trip count a graph input (specialized on
per value, none included), and the refusal of a Loop whose condition is
computed from data."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from tests.pytest.emulator import conftest as emulator
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.session import CompiledModel
from xhip.specialize import SpecializingModel

emulated, make_gpu = emulator.emulated, emulator.make_gpu
"""The emulator's fixtures: its kernels built once, the GPU runtimes on them."""

F = TensorProto.FLOAT


def _info(name: str, elem: int, shape: Sequence[int | str]) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def _ort(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return [np.asarray(v) for v in session.run(None, feeds)]


def scan_model() -> onnx.ModelProto:
    """States sum[4] and prod[4]; scan inputs a[3, 4] (axis 0) and b[4, 3]
    (axis 1, backwards); scan outputs the running sum (axis 1) and the
    running sum times b's slice (backwards)."""
    body = helper.make_graph(
        [
            helper.make_node("Add", ["sum_in", "a_t"], ["sum_out"]),
            helper.make_node("Mul", ["prod_in", "b_t"], ["prod_out"]),
            helper.make_node("Identity", ["sum_out"], ["running"]),
            helper.make_node("Mul", ["sum_out", "b_t"], ["weighted"]),
        ],
        "body",
        [_info(n, F, [4]) for n in ("sum_in", "prod_in", "a_t", "b_t")],
        [_info(n, F, [4]) for n in ("sum_out", "prod_out", "running", "weighted")],
    )
    node = helper.make_node(
        "Scan",
        ["sum0", "prod0", "a", "b"],
        ["sum", "prod", "runs", "weights"],
        num_scan_inputs=2,
        body=body,
        scan_input_axes=[0, 1],
        scan_input_directions=[0, 1],
        scan_output_axes=[1, 0],
        scan_output_directions=[0, 1],
    )
    graph = helper.make_graph(
        [node],
        "scan",
        [
            _info("sum0", F, [4]),
            _info("prod0", F, [4]),
            _info("a", F, [3, 4]),
            _info("b", F, [4, 3]),
        ],
        [
            _info("sum", F, [4]),
            _info("prod", F, [4]),
            _info("runs", F, [4, 3]),
            _info("weights", F, [3, 4]),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_scan_matches_onnxruntime() -> None:
    rng = np.random.default_rng(0)
    feeds = {
        "sum0": rng.random(4, dtype=np.float32),
        "prod0": rng.random(4, dtype=np.float32) + 0.5,
        "a": rng.random((3, 4), dtype=np.float32),
        "b": rng.random((4, 3), dtype=np.float32) + 0.5,
    }
    model = scan_model()
    compiled = xhip.compile(model)
    try:
        got = compiled(feeds)
        for name, want in zip(("sum", "prod", "runs", "weights"), _ort(model, feeds)):
            np.testing.assert_allclose(got[name], want, rtol=1e-5, atol=1e-6)
    finally:
        compiled.close()


def loop_model(*, trips: int | None, cond_from_data: bool = False) -> onnx.ModelProto:
    """y[2] carried: y + x[i] * (i + 1) each step; the scan output is y after
    each step. `trips` None: the trip count is the graph input M."""
    step_nodes = [
        helper.make_node("Cast", ["i"], ["i_f"], to=F),
        helper.make_node("Add", ["i_f", "one"], ["i_1"]),
        helper.make_node("Gather", ["x", "i"], ["x_i"], axis=0),
        helper.make_node("Mul", ["x_i", "i_1"], ["term"]),
        helper.make_node("Add", ["y_in", "term"], ["y_out"]),
        helper.make_node("Identity", ["y_out"], ["scan"]),
    ]
    if cond_from_data:
        step_nodes += [
            helper.make_node("ReduceSum", ["y_out"], ["total"], keepdims=0),
            helper.make_node("Less", ["total", "one"], ["cond_out"]),
        ]
    else:
        step_nodes.append(helper.make_node("Identity", ["cond_in"], ["cond_out"]))
    body = helper.make_graph(
        step_nodes,
        "body",
        [
            _info("i", TensorProto.INT64, []),
            _info("cond_in", TensorProto.BOOL, []),
            _info("y_in", F, [2]),
        ],
        [
            _info("cond_out", TensorProto.BOOL, []),
            _info("y_out", F, [2]),
            _info("scan", F, [2]),
        ],
        initializer=[numpy_helper.from_array(np.array(1, np.float32), "one")],
    )
    node = helper.make_node(
        "Loop", ["M", "cond", "y0"], ["y", "ys"], body=body, name="loop"
    )
    inputs = [_info("x", F, [5, 2]), _info("y0", F, [2])]
    initializers = [numpy_helper.from_array(np.array(True), "cond")]
    if trips is None:
        inputs.append(_info("M", TensorProto.INT64, []))
    else:
        initializers.append(numpy_helper.from_array(np.array(trips, np.int64), "M"))
    graph = helper.make_graph(
        [node],
        "loop",
        inputs,
        [_info("y", F, [2]), _info("ys", F, ["steps", 2])],
        initializer=initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _loop_feeds() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(1)
    return {
        "x": rng.random((5, 2), dtype=np.float32),
        "y0": rng.random(2, dtype=np.float32),
    }


def test_a_fixed_trip_loop_matches_onnxruntime() -> None:
    model = loop_model(trips=4)
    feeds = _loop_feeds()
    compiled = xhip.compile(model)
    try:
        got = compiled(feeds)
        want_y, want_ys = _ort(model, feeds)
        assert got["ys"].shape == (4, 2)
        np.testing.assert_allclose(got["y"], want_y, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got["ys"], want_ys, rtol=1e-5, atol=1e-6)
    finally:
        compiled.close()


def test_a_loop_whose_trip_count_is_data_specializes() -> None:
    model = loop_model(trips=None)
    compiled = xhip.compile(model)
    assert isinstance(compiled, SpecializingModel)
    try:
        for trips in (3, 5, 3):
            feeds = {**_loop_feeds(), "M": np.array(trips, np.int64)}
            got = compiled(feeds)
            want_y, want_ys = _ort(model, feeds)
            np.testing.assert_allclose(got["y"], want_y, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(got["ys"], want_ys, rtol=1e-5, atol=1e-6)
        assert compiled.builds == 2
    finally:
        compiled.close()


def test_a_loop_of_no_steps_gives_empty_scan_outputs() -> None:
    """Zero trips: y is y0 and ys is [0, 2], the body's element shape, as
    ONNX Runtime gives (it was refused: a Range's expanded function with
    start = limit runs no step)."""
    model = loop_model(trips=None)
    compiled = xhip.compile(model)
    try:
        for trips in (0, 2, 0):
            feeds = {**_loop_feeds(), "M": np.array(trips, np.int64)}
            got = compiled(feeds)
            want_y, want_ys = _ort(model, feeds)
            assert got["ys"].shape == want_ys.shape == (trips, 2)
            np.testing.assert_array_equal(got["y"], want_y)
            np.testing.assert_allclose(got["ys"], want_ys, rtol=1e-5, atol=1e-6)
    finally:
        compiled.close()


@pytest.mark.emulator
def test_a_loop_of_no_steps_on_gpu_runtimes(make_gpu: MakeGpu) -> None:
    model = loop_model(trips=0)
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(ir.module, ir.signature, ir.constants, make_gpu())
    feeds = _loop_feeds()
    got = compiled(feeds)
    want_y, want_ys = _ort(model, feeds)
    assert got["ys"].shape == want_ys.shape == (0, 2)
    np.testing.assert_array_equal(got["y"], want_y)


def test_a_condition_computed_from_data_is_refused() -> None:
    with pytest.raises(Exception, match=r"onnx\.Loop \(node 'loop'\).*condition"):
        xhip.compile(loop_model(trips=5, cond_from_data=True))
