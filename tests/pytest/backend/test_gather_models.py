"""Gather, GatherElements and GatherND: the CPU runtime against references
written from the ONNX definitions (plain loops over the output positions),
and small models through every pass against ONNX Runtime at dynamic dims.

`CASES` and `MODELS` are shared with `tests/pytest/emulator/test_gather_kernels.py`,
which runs them on the GPU runtimes.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import DeviceArray, Runtime
from xhip.dialects import hip


def _norm(i: int, n: int) -> int:
    return i + n if i < 0 else i


def gather_reference(x: np.ndarray, idx: np.ndarray, axis: int) -> np.ndarray:
    q = idx.ndim
    shape = (*x.shape[:axis], *idx.shape, *x.shape[axis + 1 :])
    out = np.zeros(shape, x.dtype)
    for o in itertools.product(*map(range, shape)):
        i = int(idx[o[axis : axis + q]])
        out[o] = x[(*o[:axis], _norm(i, x.shape[axis]), *o[axis + q :])]
    return out


def gather_elements_reference(x: np.ndarray, idx: np.ndarray, axis: int) -> np.ndarray:
    out = np.zeros(idx.shape, x.dtype)
    for o in itertools.product(*map(range, idx.shape)):
        at = list(o)
        at[axis] = _norm(int(idx[o]), x.shape[axis])
        out[o] = x[tuple(at)]
    return out


def gather_nd_reference(x: np.ndarray, idx: np.ndarray, batch_dims: int) -> np.ndarray:
    b, q, k = batch_dims, idx.ndim, idx.shape[-1]
    shape = (*idx.shape[:-1], *x.shape[b + k :])
    out = np.zeros(shape, x.dtype)
    for o in itertools.product(*map(range, shape)):
        picks = [_norm(int(v), x.shape[b + j]) for j, v in enumerate(idx[o[: q - 1]])]
        out[o] = x[(*o[:b], *picks, *o[q - 1 :])]
    return out


@dataclass(frozen=True)
class Case:
    op: str
    """gather, gather_elements or gather_nd (the runtime method)."""
    data: tuple[int, ...]
    indices: tuple[int, ...]
    attr: int
    """axis, or batch_dims."""
    dtype: str = "float32"
    index_dtype: str = "int64"
    layout: str = "dense"
    """dense, or transposed: data and indices as views with reversed strides."""

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(zlib.crc32(str(self).encode()))
        x = rng.standard_normal(self.data) * 10
        if self.dtype == "bool":
            x = x > 0
        x = x.astype(self.dtype)
        if self.op == "gather_nd":
            b, k = self.attr, self.indices[-1]
            cols = [
                rng.integers(-n, n, self.indices[:-1]) for n in self.data[b : b + k]
            ]
            idx = np.stack(cols, -1) if cols else np.zeros(self.indices, np.int64)
        else:
            n = self.data[self.attr]
            idx = rng.integers(-n, n, self.indices)
        return x, idx.astype(self.index_dtype)

    def reference(self) -> np.ndarray:
        x, idx = self.arrays()
        fn = {
            "gather": gather_reference,
            "gather_elements": gather_elements_reference,
            "gather_nd": gather_nd_reference,
        }[self.op]
        return fn(x, idx, self.attr)

    def out_shape(self) -> tuple[int, ...]:
        return self.reference().shape

    def __str__(self) -> str:
        return (
            f"{self.op}-{'x'.join(map(str, self.data))}-"
            f"{'x'.join(map(str, self.indices)) or 'scalar'}-{self.attr}-"
            f"{self.dtype}-{self.index_dtype}-{self.layout}"
        )


CASES = [
    Case("gather", (7, 5), (3, 4), 0),  # an embedding lookup
    Case("gather", (7, 5), (3, 4), 0, index_dtype="int32"),
    Case("gather", (3, 6, 4), (5,), 1, layout="transposed"),
    Case("gather", (3, 6, 4), (2, 3), 2, "int64", "int32", "transposed"),
    Case("gather", (3, 6, 4), (), 1),  # a scalar index drops the dim
    Case("gather", (9,), (2, 2), 0, "bool"),
    Case("gather", (4, 5), (6,), 1, "float16"),
    Case("gather", (4, 5), (6,), 1, "uint8"),
    Case("gather", (2, 3, 2, 3), (2, 1, 2), 3, "float64"),
    Case("gather", (4, 3), (0,), 0),  # no indices: an empty result
    Case("gather_elements", (3, 4), (3, 4), 1),
    Case("gather_elements", (5, 4), (2, 4), 0, index_dtype="int32"),
    Case("gather_elements", (4, 6, 3), (2, 6, 2), 1, layout="transposed"),
    Case("gather_elements", (4, 6, 3), (4, 5, 3), 2, "int64"),
    Case("gather_elements", (3, 3), (3, 2), 1, "bool", "int32", "transposed"),
    Case("gather_nd", (4, 5), (3, 2), 0),
    Case("gather_nd", (4, 5), (3, 1), 0, index_dtype="int32"),
    Case("gather_nd", (2, 3, 4), (2, 2, 2), 0, layout="transposed"),
    Case("gather_nd", (3, 4, 5), (3, 2, 1), 1),
    Case("gather_nd", (2, 3, 4, 5), (2, 3, 2, 1), 2, "int64", "int64", "transposed"),
    Case("gather_nd", (3, 4, 2), (3, 2), 1, "bool"),  # k = 2 after the batch dim
    Case("gather_nd", (3, 4), (2, 0), 0),  # k = 0: whole copies of data
]


def upload(runtime: Runtime, x: np.ndarray, layout: str) -> DeviceArray:
    """`x` on the runtime, dense, or as a view whose strides are reversed."""
    if layout == "dense" or x.ndim < 2:
        return runtime.upload(x, copy=True)
    base = runtime.upload(np.ascontiguousarray(x.T), copy=True)
    return DeviceArray(
        base.buffer, base.offset, base.shape[::-1], base.strides[::-1], base.dtype
    )


def run_case(runtime: Runtime, case: Case) -> np.ndarray:
    x, idx = case.arrays()
    data = upload(runtime, x, case.layout)
    indices = upload(runtime, idx, case.layout)
    out = runtime.empty(case.out_shape(), x.dtype)
    method: Callable[..., Any] = getattr(runtime, case.op)
    attrs = (hip.GatherNDAttributes if case.op == "gather_nd" else hip.AxisAttributes)(
        case.attr
    )
    method(data, indices, out, attrs)
    return runtime.download(out)


@pytest.fixture(scope="module")
def cpu() -> Any:
    runtime = CpuRuntime(debug=True)
    yield runtime
    runtime.close()


@pytest.mark.parametrize("case", CASES, ids=str)
def test_cpu_runtime_matches_the_definition(cpu: CpuRuntime, case: Case) -> None:
    want = case.reference()
    got = run_case(cpu, case)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_cpu_refuses_an_index_out_of_range(cpu: CpuRuntime) -> None:
    data = cpu.upload(np.zeros((3, 2), np.float32))
    out = cpu.empty((1, 2), np.dtype(np.float32))
    for bad in (3, -4):
        with pytest.raises(IndexError):
            cpu.gather(data, cpu.upload(np.array([bad])), out, hip.AxisAttributes(0))


# Models, against ONNX Runtime.

VOCAB, POSITIONS, WIDTH = 128, 64, 32


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    initializers: list[onnx.TensorProto],
) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "gather_model", inputs, outputs, initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def embedding_model() -> onnx.ModelProto:
    """GPT-2's input: token and position embeddings, the tied LM head, the
    last token's hidden state and a few logits picked by int32 indices."""
    rng = np.random.default_rng(0)
    f, i64 = TensorProto.FLOAT, TensorProto.INT64
    wte = rng.standard_normal((VOCAB, WIDTH)).astype(np.float32)
    initializers = [
        numpy_helper.from_array(wte, "wte"),
        numpy_helper.from_array(
            rng.standard_normal((POSITIONS, WIDTH)).astype(np.float32), "wpe"
        ),
        numpy_helper.from_array(np.ascontiguousarray(wte.T), "head"),
        numpy_helper.from_array(np.array(-1, np.int64), "last"),
        numpy_helper.from_array(np.array([[0, -1], [5, 127]], np.int32), "picks"),
    ]
    nodes = [
        helper.make_node("Gather", ["wte", "input_ids"], ["tok"]),
        helper.make_node("Gather", ["wpe", "position_ids"], ["pos"], axis=-2),
        helper.make_node("Add", ["tok", "pos"], ["hidden"]),
        helper.make_node("MatMul", ["hidden", "head"], ["logits"]),
        helper.make_node("Gather", ["hidden", "last"], ["final"], axis=1),
        helper.make_node("Gather", ["logits", "picks"], ["picked"], axis=-1),
    ]
    inputs = [
        helper.make_tensor_value_info("input_ids", i64, ["batch", "seq"]),
        helper.make_tensor_value_info("position_ids", i64, ["batch", "seq"]),
    ]
    outputs = [
        helper.make_tensor_value_info("hidden", f, ["batch", "seq", WIDTH]),
        helper.make_tensor_value_info("logits", f, ["batch", "seq", VOCAB]),
        helper.make_tensor_value_info("final", f, ["batch", WIDTH]),
        helper.make_tensor_value_info("picked", f, ["batch", "seq", 2, 2]),
    ]
    return _model(nodes, inputs, outputs, initializers)


def elements_model() -> onnx.ModelProto:
    """GatherElements on a computed tensor, along the last and a dynamic axis."""
    f, i64 = TensorProto.FLOAT, TensorProto.INT64
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("GatherElements", ["r", "along_last"], ["y"], axis=-1),
        helper.make_node("GatherElements", ["x", "along_seq"], ["z"], axis=1),
    ]
    inputs = [
        helper.make_tensor_value_info("x", f, ["batch", "seq", 8]),
        helper.make_tensor_value_info("along_last", i64, ["batch", "seq", 3]),
        helper.make_tensor_value_info("along_seq", i64, ["batch", 2, 8]),
    ]
    outputs = [
        helper.make_tensor_value_info("y", f, ["batch", "seq", 3]),
        helper.make_tensor_value_info("z", f, ["batch", 2, 8]),
    ]
    return _model(nodes, inputs, outputs, [])


def nd_model() -> onnx.ModelProto:
    """GatherND with and without batch dims, on float and int64 data, and a
    Gather of bool data."""
    f, i64, b = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
    nodes = [
        helper.make_node("GatherND", ["grid", "pairs"], ["y"]),
        helper.make_node("GatherND", ["x", "rows"], ["z"], batch_dims=1),
        helper.make_node("GatherND", ["counts", "rows"], ["c"], batch_dims=1),
        helper.make_node("Gather", ["mask", "rows"], ["m"], axis=1),
    ]
    inputs = [
        helper.make_tensor_value_info("x", f, ["batch", 5, 6]),
        helper.make_tensor_value_info("grid", f, [5, 6, "seq"]),
        helper.make_tensor_value_info("pairs", i64, ["n", 2]),
        helper.make_tensor_value_info("rows", i64, ["batch", 4, 1]),
        helper.make_tensor_value_info("counts", i64, ["batch", 5, 3]),
        helper.make_tensor_value_info("mask", b, ["batch", 5]),
    ]
    outputs = [
        helper.make_tensor_value_info("y", f, ["n", "seq"]),
        helper.make_tensor_value_info("z", f, ["batch", 4, 6]),
        helper.make_tensor_value_info("c", i64, ["batch", 4, 3]),
        helper.make_tensor_value_info("m", b, ["batch", "batch", 4, 1]),
    ]
    return _model(nodes, inputs, outputs, [])


DIMS = [
    {"batch": 1, "seq": 1, "n": 1},
    {"batch": 2, "seq": 7, "n": 3},
    {"batch": 3, "seq": 5, "n": 0},
]

MODELS: dict[str, Callable[[], onnx.ModelProto]] = {
    "embedding": embedding_model,
    "elements": elements_model,
    "nd": nd_model,
}


def model_inputs(model: onnx.ModelProto, dims: dict[str, int]) -> dict[str, np.ndarray]:
    """Random inputs at `dims`; each index input in range of what it indexes
    (negative ones too)."""
    rng = np.random.default_rng(sum(dims.values()))
    ranges = {
        "input_ids": VOCAB,
        "position_ids": POSITIONS,
        "along_last": 8,
        "along_seq": dims["seq"],
        "pairs": 5,
        "rows": 5,
    }
    inputs: dict[str, np.ndarray] = {}
    for value in model.graph.input:
        t = value.type.tensor_type
        shape = [d.dim_value if d.dim_value else dims[d.dim_param] for d in t.shape.dim]
        dtype = helper.tensor_dtype_to_np_dtype(t.elem_type)
        if value.name in ranges:
            n = ranges[value.name]
            inputs[value.name] = rng.integers(-n, n, shape).astype(dtype)
        elif dtype == np.bool_:
            inputs[value.name] = rng.random(shape) > 0.5
        else:
            inputs[value.name] = (rng.standard_normal(shape) * 10).astype(dtype)
    return inputs


def expected(model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return [np.asarray(v) for v in session.run(None, inputs)]


def check(got: dict[str, np.ndarray], want: list[np.ndarray]) -> None:
    for (name, value), w in zip(got.items(), want, strict=True):
        assert value.dtype == w.dtype, name
        np.testing.assert_allclose(value, w, rtol=1e-5, atol=1e-5, err_msg=name)


@pytest.mark.parametrize("debug", [False, True], ids=["plan", "debug"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_matches_onnxruntime(name: str, debug: bool) -> None:
    model = MODELS[name]()
    compiled = xhip.compile(model, device="cpu", debug=debug)
    for dims in DIMS:
        inputs = model_inputs(model, dims)
        check(compiled(inputs), expected(model, inputs))
