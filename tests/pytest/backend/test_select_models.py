"""NonZero, Compress, Unique and NonMaxSuppression through every pass, on the
CPU runtime and on the GPU runtimes (the emulated device), against ONNX
Runtime: outputs whose size is data, read back during the call and returned
with their real shapes (docs/shape-values.md, "Data-sized outputs").

A detection-style tail (scores -> NonMaxSuppression -> Gather of the kept
boxes and their classes), NonZero whose indices feed GatherND and
arithmetic (intermediates sized by a value read back), Compress by a data
condition and Unique of what is left. Each model runs on several inputs of
the same shapes whose counts differ, so nothing sized by one call's data
survives into the next (no bound plan holds a read-back size).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.backend.cuda import CudaRuntime
from xhip.backend.gpu import kernel_source
from xhip.backend.hip import HipRuntime
from xhip.backend.session import CompiledModel
from xhip.frontend.onnx_importer import import_model
from xhip.testing.emulator import EmulatedDevice, EmulatedKernels, EmulatorUnavailable

F32, I64 = TensorProto.FLOAT, TensorProto.INT64

Feeds = dict[str, np.ndarray]
Run = Callable[[onnx.ModelProto, list[Feeds]], list[list[np.ndarray]]]


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    initializers: list[onnx.TensorProto] | None = None,
) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializers or [])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return onnx.shape_inference.infer_shapes(model)


def _onnxruntime(model: onnx.ModelProto, feeds: Feeds) -> list[np.ndarray]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return [np.asarray(a) for a in session.run(None, feeds)]


@pytest.fixture(scope="module")
def emulated() -> EmulatedKernels:
    try:
        return EmulatedKernels(kernel_source(), "xhip_kernels.h")
    except EmulatorUnavailable as e:
        pytest.skip(str(e))


def _on_cpu(engine: str) -> Run:
    def run(model: onnx.ModelProto, feeds: list[Feeds]) -> list[list[np.ndarray]]:
        ir = xhip.compile_to_ir(model)
        runtime = xhip.backend.runtime_for("cpu", debug=True)
        compiled = CompiledModel(
            ir.module,
            ir.signature,
            ir.constants,
            runtime,
            engine=engine,  # type: ignore[arg-type]
        )
        return [list(compiled(f).values()) for f in feeds]

    return run


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


@pytest.fixture(
    params=["plan", "interpreter", pytest.param("gpu", marks=pytest.mark.emulator)]
)
def run(request: pytest.FixtureRequest) -> Run:
    if request.param == "gpu":
        return _on_gpu(request.getfixturevalue("emulated"))
    return _on_cpu(request.param)


@pytest.fixture(params=["plan", "interpreter"])
def cpu_run(request: pytest.FixtureRequest) -> Run:
    """The CPU runtime only: Unique is `gpu.CPU_ONLY`."""
    return _on_cpu(request.param)


def _check(run: Run, model: onnx.ModelProto, feeds: list[Feeds]) -> None:
    """One compile, each feed against ONNX Runtime: shapes, dtypes, values."""
    for f, got in zip(feeds, run(model, feeds), strict=True):
        want = _onnxruntime(model, f)
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            assert g.shape == w.shape and g.dtype == w.dtype
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


def detection_tail(center: int) -> onnx.ModelProto:
    """Scores -> NonMaxSuppression -> the kept boxes, classes and scores."""
    consts = [
        numpy_helper.from_array(np.array([4], np.int64), "max_out"),
        numpy_helper.from_array(np.array([0.45], np.float32), "iou"),
        numpy_helper.from_array(np.array([0.3], np.float32), "score_min"),
        numpy_helper.from_array(np.array(0, np.int64), "zero"),
        numpy_helper.from_array(np.array(1, np.int64), "one"),
        numpy_helper.from_array(np.array(2, np.int64), "two"),
    ]
    nodes = [
        helper.make_node("Sigmoid", ["logits"], ["probs"]),
        helper.make_node("Transpose", ["probs"], ["scores"], perm=[0, 2, 1]),
        helper.make_node(
            "NonMaxSuppression",
            ["boxes", "scores", "max_out", "iou", "score_min"],
            ["selected"],
            center_point_box=center,
        ),
        helper.make_node("Gather", ["selected", "two"], ["box_i"], axis=1),
        helper.make_node("Gather", ["selected", "one"], ["class_i"], axis=1),
        helper.make_node("Gather", ["boxes", "zero"], ["all_boxes"], axis=0),
        helper.make_node("Gather", ["all_boxes", "box_i"], ["kept"], axis=0),
        helper.make_node("Gather", ["selected", "zero"], ["batch_i"], axis=1),
        helper.make_node("Unsqueeze", ["batch_i", "one"], ["b1"]),
        helper.make_node("Unsqueeze", ["class_i", "one"], ["c1"]),
        helper.make_node("Unsqueeze", ["box_i", "one"], ["i1"]),
        helper.make_node("Concat", ["b1", "c1", "i1"], ["bci"], axis=1),
        helper.make_node("GatherND", ["scores", "bci"], ["kept_scores"]),
    ]
    return _model(
        nodes,
        [
            helper.make_tensor_value_info("boxes", F32, [1, "n", 4]),
            helper.make_tensor_value_info("logits", F32, [1, "n", 3]),
        ],
        [
            helper.make_tensor_value_info("selected", I64, None),
            helper.make_tensor_value_info("kept", F32, None),
            helper.make_tensor_value_info("class_i", I64, None),
            helper.make_tensor_value_info("kept_scores", F32, None),
        ],
        consts,
    )


def _boxes(n: int, seed: int) -> Feeds:
    rng = np.random.default_rng(seed)
    corner = rng.uniform(0, 4, (1, n, 2)).astype(np.float32)
    size = rng.uniform(0.5, 3, (1, n, 2)).astype(np.float32)
    boxes = np.concatenate([corner, corner + size], -1)
    logits = rng.normal(0, 1.5, (1, n, 3)).astype(np.float32)
    logits[0, 3:6] = logits[0, 2]  # ties: equal scores, lower box first
    return {"boxes": boxes, "logits": logits}


@pytest.mark.parametrize("center", [0, 1])
def test_detection_tail(run: Run, center: int) -> None:
    feeds = [_boxes(12, seed) for seed in range(3)] + [_boxes(5, 7), _boxes(12, 9)]
    _check(run, detection_tail(center), feeds)


def nonzero_then_gather() -> onnx.ModelProto:
    """NonZero's indices feed GatherND, a product and a sum: intermediates
    sized by the count read back, and an output of static size after them."""
    nodes = [
        helper.make_node("Greater", ["x", "t"], ["mask"]),
        helper.make_node("NonZero", ["mask"], ["nz"]),
        helper.make_node("Transpose", ["nz"], ["idx"], perm=[1, 0]),
        helper.make_node("GatherND", ["x", "idx"], ["picked"]),
        helper.make_node("Mul", ["picked", "picked"], ["squares"]),
        helper.make_node("ReduceSum", ["squares"], ["total"], keepdims=0),
        helper.make_node("NonZero", ["x"], ["all_nz"]),
    ]
    return _model(
        nodes,
        [
            helper.make_tensor_value_info("x", F32, ["b", "s"]),
            helper.make_tensor_value_info("t", F32, []),
        ],
        [
            helper.make_tensor_value_info("squares", F32, None),
            helper.make_tensor_value_info("total", F32, None),
            helper.make_tensor_value_info("idx", I64, None),
            helper.make_tensor_value_info("all_nz", I64, None),
        ],
    )


def test_nonzero_feeds_later_ops(run: Run) -> None:
    rng = np.random.default_rng(3)
    feeds = []
    for shape, t in (((3, 5), 0.0), ((3, 5), 0.8), ((3, 5), 5.0), ((2, 7), -1.0)):
        x = rng.normal(size=shape).astype(np.float32)
        x[0, 1] = 0.0
        feeds.append({"x": x, "t": np.array(t, np.float32)})
    _check(run, nonzero_then_gather(), feeds)


def _with_axis(node: onnx.NodeProto, axis: int | None) -> onnx.NodeProto:
    if axis is not None:
        node.attribute.append(helper.make_attribute("axis", axis))
    return node


def compress_then_unique(axis: int | None, sorted_: int) -> onnx.ModelProto:
    """Compress by a data condition (shorter than the axis), then Unique of
    the result, with all four outputs."""
    nodes = [
        helper.make_node("Greater", ["c", "zero"], ["keep"]),
        _with_axis(helper.make_node("Compress", ["x", "keep"], ["y"]), axis),
        helper.make_node("Floor", ["y"], ["f"]),
        _with_axis(
            helper.make_node(
                "Unique", ["f"], ["u", "first", "inverse", "counts"], sorted=sorted_
            ),
            axis,
        ),
    ]
    return _model(
        nodes,
        [
            helper.make_tensor_value_info("x", F32, [4, 6]),
            helper.make_tensor_value_info("c", F32, ["k"]),
        ],
        [
            helper.make_tensor_value_info(name, t, None)
            for name, t in (
                ("y", F32),
                ("u", F32),
                ("first", I64),
                ("inverse", I64),
                ("counts", I64),
            )
        ],
        [numpy_helper.from_array(np.array(0, np.float32), "zero")],
    )


@pytest.mark.parametrize("sorted_", [1, 0])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_compress_then_unique(cpu_run: Run, axis: int | None, sorted_: int) -> None:
    rng = np.random.default_rng(5)
    x = rng.integers(-2, 3, (4, 6)).astype(np.float32)
    x[2] = x[0]
    x[:, 4] = x[:, 1]
    length = 4 if axis == 0 else 5
    feeds = [
        {"x": x + 0.5 * seed, "c": rng.normal(size=length).astype(np.float32)}
        for seed in range(3)
    ]
    _check(cpu_run, compress_then_unique(axis, sorted_), feeds)


@pytest.mark.parametrize(
    "condition", [[1, 0, 1, 1, 0], [0, 1, 1], [1, 1, 0, 0, 1, 1, 1]]
)
def test_compress_by_a_constant_condition_sizes_its_result(
    run: Run, condition: list[int]
) -> None:
    """A condition known before the run (an initializer) fixes the channels
    Compress keeps, so a depthwise Conv after it, whose group is that count,
    compiles though the batch and length are dynamic; entries past the axis
    (the third condition) are dropped."""
    kept = sum(condition[:5])
    nodes = [
        helper.make_node("Compress", ["x", "keep"], ["y"], axis=1),
        helper.make_node("Conv", ["y", "w"], ["z"], group=kept, pads=[1, 1]),
    ]
    rng = np.random.default_rng(3)
    model = _model(
        nodes,
        [helper.make_tensor_value_info("x", F32, ["n", 5, "l"])],
        [helper.make_tensor_value_info("z", F32, None)],
        [
            numpy_helper.from_array(np.array(condition, bool), "keep"),
            numpy_helper.from_array(
                rng.normal(size=(kept, 1, 3)).astype(np.float32), "w"
            ),
        ],
    )
    compress = next(
        op for op in import_model(model).walk() if op.name == "onnx.Compress"
    )
    assert str(compress.results[0].type) == f"tensor<?x{kept}x?xf32>"
    feeds = [{"x": rng.normal(size=(n, 5, 7)).astype(np.float32)} for n in (1, 3)]
    _check(run, model, feeds)


@pytest.mark.parametrize("length", [4, 7])
@pytest.mark.parametrize("axis", [None, 1])
def test_compress(run: Run, axis: int | None, length: int) -> None:
    """Compress alone (its GPU path: NonZero of the condition, Gather); a
    condition longer than the axis (7 > 5) has its extra entries ignored, as
    ONNX Runtime does."""
    nodes = [
        helper.make_node("Greater", ["c", "zero"], ["keep"]),
        _with_axis(helper.make_node("Compress", ["x", "keep"], ["y"]), axis),
    ]
    model = _model(
        nodes,
        [
            helper.make_tensor_value_info("x", F32, [3, 5]),
            helper.make_tensor_value_info("c", F32, ["k"]),
        ],
        [helper.make_tensor_value_info("y", F32, None)],
        [numpy_helper.from_array(np.array(0, np.float32), "zero")],
    )
    rng = np.random.default_rng(11)
    feeds = [
        {
            "x": rng.normal(size=(3, 5)).astype(np.float32),
            "c": rng.normal(size=length).astype(np.float32),
        }
        for _ in range(3)
    ]
    feeds[0]["c"][length - 1] = 1.0  # a true entry past the axis when 7
    feeds.append({"x": feeds[0]["x"], "c": -np.ones(length, np.float32)})  # none
    _check(run, model, feeds)


def _on_hip(kernels: EmulatedKernels) -> Run:
    def run(model: onnx.ModelProto, feeds: list[Feeds]) -> list[list[np.ndarray]]:
        ir = xhip.compile_to_ir(model)
        device = EmulatedDevice(64, kernels=kernels, runtime="hip")
        runtime = HipRuntime(debug=True, device=device)
        try:
            compiled = CompiledModel(ir.module, ir.signature, ir.constants, runtime)
            return [list(compiled(f).values()) for f in feeds]
        finally:
            runtime.close()

    return run


@pytest.mark.parametrize(
    "runtime",
    [
        "plan",
        "interpreter",
        pytest.param("cuda", marks=pytest.mark.emulator),
        pytest.param("hip", marks=pytest.mark.emulator),
    ],
)
def test_an_output_and_its_view_are_both_returned(
    runtime: str, request: pytest.FixtureRequest
) -> None:
    """Compress's result and an Unsqueeze of it, both outputs: the call
    returns both (their size is data), one a view of the other's buffer,
    which is freed once (fuzz seed 873: a double free)."""
    if runtime in ("cuda", "hip"):
        kernels = request.getfixturevalue("emulated")
        run = (_on_gpu if runtime == "cuda" else _on_hip)(kernels)
    else:
        run = _on_cpu(runtime)
    model = _model(
        [
            helper.make_node("Compress", ["x", "cond"], ["c"], axis=-1),
            helper.make_node("Unsqueeze", ["c", "axes"], ["u"]),
        ],
        [helper.make_tensor_value_info("x", F32, ["n"])],
        [
            helper.make_tensor_value_info("c", F32, None),
            helper.make_tensor_value_info("u", F32, None),
        ],
        [
            numpy_helper.from_array(np.array([False, True]), "cond"),
            numpy_helper.from_array(np.array([-2], np.int64), "axes"),
        ],
    )
    feeds = [
        {"x": np.array([1.5, -2.0, 3.0], np.float32)},
        {"x": np.ones(2, np.float32)},
    ]
    _check(run, model, feeds)
