"""int4 and uint4 quantization on the CPU runtime, against ONNX Runtime at
opset 21 (QuantizeLinear / DequantizeLinear 21: per tensor, per axis,
blocked; float32 and float16 scales), int4 weights packed two a byte in
their initializer, and models whose inputs and outputs are int4 (ml_dtypes'
`int4` / `uint4` arrays on the numpy side).

ONNX Runtime's Python API neither takes nor returns int4 tensors, so its
models turn the int4 values into int8 (Cast 21) inside the graph; xhip's
int4 outputs are compared with those, exactly. onnx's own node cases of
int4 (opset 25, which ORT 1.32 does not run) run at opset 21 against their
expected outputs. `tests/pytest/emulator/test_low_precision_quantize.py`
runs the same models on the emulated GPU runtimes."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import Runtime

F32, F16 = TensorProto.FLOAT, TensorProto.FLOAT16
INT4, UINT4 = TensorProto.INT4, TensorProto.UINT4
FLOAT8 = (
    TensorProto.FLOAT8E4M3FN,
    TensorProto.FLOAT8E4M3FNUZ,
    TensorProto.FLOAT8E5M2,
    TensorProto.FLOAT8E5M2FNUZ,
)
F8_IDS = ["e4m3fn", "e4m3fnuz", "e5m2", "e5m2fnuz"]
NUMPY: dict[int, np.dtype[Any]] = {
    INT4: np.dtype(ml_dtypes.int4),
    UINT4: np.dtype(ml_dtypes.uint4),
    F32: np.dtype(np.float32),
    F16: np.dtype(np.float16),
    FLOAT8[0]: np.dtype(ml_dtypes.float8_e4m3fn),
    FLOAT8[1]: np.dtype(ml_dtypes.float8_e4m3fnuz),
    FLOAT8[2]: np.dtype(ml_dtypes.float8_e5m2),
    FLOAT8[3]: np.dtype(ml_dtypes.float8_e5m2fnuz),
}
WIDE: dict[int, int] = {
    INT4: TensorProto.INT8,
    UINT4: TensorProto.UINT8,
    **dict.fromkeys(FLOAT8, F32),
}
"""What ONNX Runtime's models cast int4 and float8 outputs to, for its
Python API."""
LAYOUTS = ("tensor", "axis", "block")
X_SHAPE = (3, 8)


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    initializers: list[onnx.TensorProto],
) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializers)
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 21)], ir_version=10
    )


def _parameters(
    qtype: int, ftype: int, layout: str, rng: np.random.Generator
) -> tuple[list[onnx.TensorProto], dict[str, Any]]:
    """The scale and zero point initializers (`s`, `z`) for x of `X_SHAPE`:
    one element, one per column (axis 1), or blocks of 3 along axis 1 (the
    last block short)."""
    shape, attrs = {
        "tensor": ((), {}),
        "axis": ((X_SHAPE[1],), {"axis": 1}),
        "block": ((X_SHAPE[0], 3), {"axis": 1, "block_size": 3}),
    }[layout]
    scale = rng.uniform(0.05, 0.4, shape).astype(NUMPY[ftype])
    if qtype in FLOAT8:  # ONNX Runtime takes float8 zero points of 0 only
        zero = numpy_helper.from_array(np.zeros(shape, NUMPY[qtype]), "z")
        return [numpy_helper.from_array(scale, "s"), zero], attrs
    lo, hi = (-3, 3) if qtype == INT4 else (2, 9)
    values = rng.integers(lo, hi, shape)
    # make_tensor packs int4 two a byte, as exporters write it.
    return [
        numpy_helper.from_array(scale, "s"),
        helper.make_tensor("z", qtype, list(shape), values.ravel()),
    ], attrs


def _x(ftype: int, rng: np.random.Generator, special: bool = False) -> np.ndarray:
    """Values over and beyond the 4-bit range, with exact ties; `special`:
    float8's overflow, infinities and NaN too."""
    x = rng.uniform(-4, 4, X_SHAPE)
    x[0, :4] = [0.5, -0.5, 1.5, 250.0]
    if special:
        x[1, :4] = [np.inf, -np.inf, np.nan, -1e4]
    return x.astype(NUMPY[ftype])


@dataclass(frozen=True)
class Pair:
    """xhip's model and ONNX Runtime's (the same, int4 outputs cast to
    int8 or uint8 in the graph), with the inputs of both."""

    xhip_model: onnx.ModelProto
    ort_model: onnx.ModelProto
    inputs: dict[str, np.ndarray]


def quantize_pair(qtype: int, ftype: int, layout: str, saturate: int = 1) -> Pair:
    """x -> QuantizeLinear -> y (int4, float8) and DequantizeLinear(y) -> d."""
    rng = np.random.default_rng([qtype, ftype, LAYOUTS.index(layout)])
    inits, attrs = _parameters(qtype, ftype, layout, rng)
    q_attrs: dict[str, Any] = attrs | (
        {"saturate": saturate} if qtype in FLOAT8 else {}
    )
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], **q_attrs),
        helper.make_node("DequantizeLinear", ["y", "s", "z"], ["d"], **attrs),
    ]
    x_info = helper.make_tensor_value_info("x", ftype, X_SHAPE)
    d_info = helper.make_tensor_value_info("d", ftype, X_SHAPE)

    def outputs(elem: int, name: str) -> list[onnx.ValueInfoProto]:
        return [helper.make_tensor_value_info(name, elem, X_SHAPE), d_info]

    ours = _model(nodes, [x_info], outputs(qtype, "y"), inits)
    cast = helper.make_node("Cast", ["y"], ["y8"], to=WIDE[qtype])
    theirs = _model([*nodes, cast], [x_info], outputs(WIDE[qtype], "y8"), inits)
    return Pair(ours, theirs, {"x": _x(ftype, rng, qtype in FLOAT8)})


def weights_pair(qtype: int, layout: str) -> Pair:
    """int4 weights (K, N) packed in an initializer, dequantized per tensor,
    per column or in blocks of 4 along K, into a MatMul."""
    rng = np.random.default_rng([qtype, 7, LAYOUTS.index(layout)])
    k, n = 10, 6
    lo, hi = (-8, 8) if qtype == INT4 else (0, 16)
    w = rng.integers(lo, hi, (k, n))
    shape, attrs = {
        "tensor": ((), {}),
        "axis": ((n,), {"axis": 1}),
        "block": ((3, n), {"axis": 0, "block_size": 4}),
    }[layout]
    scale = rng.uniform(0.01, 0.1, shape).astype(np.float32)
    zero = rng.integers(lo // 2, hi // 2, shape)
    inits = [
        helper.make_tensor("w", qtype, [k, n], w.ravel()),
        numpy_helper.from_array(scale, "s"),
        helper.make_tensor("z", qtype, list(shape), zero.ravel()),
    ]
    nodes = [
        helper.make_node("DequantizeLinear", ["w", "s", "z"], ["wf"], **attrs),
        helper.make_node("MatMul", ["x", "wf"], ["y"]),
    ]
    model = _model(
        nodes,
        [helper.make_tensor_value_info("x", F32, (4, k))],
        [helper.make_tensor_value_info("y", F32, (4, n))],
        inits,
    )
    x = rng.standard_normal((4, k)).astype(np.float32)
    return Pair(model, model, {"x": x})


def _ort(pair: Pair) -> list[np.ndarray]:
    """ONNX Runtime's outputs of the graph as written: its basic optimizations
    only, since at its default level it fuses DequantizeLinear(int4) and
    MatMul into MatMulNBits, which computes another thing (3e-3 off the
    float64 product on `weights_pair`, where the graph as written is 1e-7)."""
    ort = pytest.importorskip("onnxruntime")
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    session = ort.InferenceSession(
        pair.ort_model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    return session.run(None, pair.inputs)


def check_quantize(pair: Pair, runtime: Runtime) -> None:
    """The int4 values exactly, and the dequantized floats exactly (one
    float32 product each, as ORT computes them)."""
    y8, d = _ort(pair)
    got = xhip.compile(pair.xhip_model, runtime=runtime)(pair.inputs)
    y, ours = got["y"], got["d"]
    assert y.dtype == NUMPY[pair.xhip_model.graph.output[0].type.tensor_type.elem_type]
    np.testing.assert_array_equal(y.astype(y8.dtype), y8)
    np.testing.assert_array_equal(ours, d)


def check_weights(pair: Pair, runtime: Runtime) -> None:
    (want,) = _ort(pair)
    got = xhip.compile(pair.xhip_model, runtime=runtime)(pair.inputs)["y"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


CAST_X = np.array(
    [[0.3, -1.7, 500, -1e6, np.inf, -np.inf, np.nan, 1e-9, 0.0013, -0.001],
     [7.0, 460, 449, 3.0, 57000, 65000, -62000, 61439, 1e-5, -0.0]],
    np.float32,
)  # fmt: skip
"""Rounding, ties, overflow past each float8 type's largest value (448,
240, 57344), infinities, NaN, subnormals, -0."""
ORT_E5M2_NAN = (61440.0, 65536.0)
"""ONNX Runtime 1.32's Cast to float8e5m2 without saturation gives NaN for
|x| in this range (rounding to 65536), where onnx's reference and the ONNX
spec give inf: those inputs are checked against onnx's reference."""


def cast_pair(target: int, source: int, saturate: int) -> Pair:
    """x -> Cast(to float8, saturate) -> y; ONNX Runtime's model casts y to
    float32 for its Python API."""
    x_info = helper.make_tensor_value_info("x", source, CAST_X.shape)
    cast = helper.make_node("Cast", ["x"], ["y"], to=target, saturate=saturate)
    ours = _model(
        [cast], [x_info], [helper.make_tensor_value_info("y", target, CAST_X.shape)], []
    )
    wide = helper.make_node("Cast", ["y"], ["y8"], to=F32)
    theirs = _model(
        [cast, wide],
        [x_info],
        [helper.make_tensor_value_info("y8", F32, CAST_X.shape)],
        [],
    )
    with np.errstate(over="ignore"):
        x = CAST_X.astype(NUMPY[source])
    return Pair(ours, theirs, {"x": x})


def check_cast(pair: Pair, runtime: Runtime) -> None:
    from onnx.reference import ReferenceEvaluator  # lazy: slow to import

    (want,) = _ort(pair)
    cast = pair.xhip_model.graph.node[0]
    attrs = {a.name: a.i for a in cast.attribute}
    target, saturate = attrs["to"], attrs["saturate"]
    if target == TensorProto.FLOAT8E5M2 and not saturate:
        x = np.abs(pair.inputs["x"].astype(np.float32))
        odd = (x >= ORT_E5M2_NAN[0]) & (x < ORT_E5M2_NAN[1])
        assert odd.any() and np.isnan(want[odd]).all()
        (reference,) = ReferenceEvaluator(pair.ort_model).run(None, pair.inputs)
        want = np.where(odd, reference, want)
    got = xhip.compile(pair.xhip_model, runtime=runtime)(pair.inputs)["y"]
    assert got.dtype == NUMPY[target]
    np.testing.assert_array_equal(got.astype(np.float32), want)


def io_model(qtype: int) -> onnx.ModelProto:
    """An int4 input dequantized (per column) and requantized into an int4
    output, with the float in between an output too."""
    rng = np.random.default_rng([qtype, 11])
    inits, attrs = _parameters(qtype, F32, "axis", rng)
    nodes = [
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["d"], **attrs),
        helper.make_node("Mul", ["d", "d"], ["sq"]),
        helper.make_node("QuantizeLinear", ["sq", "s", "z"], ["y"], **attrs),
    ]
    return _model(
        nodes,
        [helper.make_tensor_value_info("q", qtype, X_SHAPE)],
        [
            helper.make_tensor_value_info("sq", F32, X_SHAPE),
            helper.make_tensor_value_info("y", qtype, X_SHAPE),
        ],
        inits,
    )


def io_input(qtype: int) -> np.ndarray:
    rng = np.random.default_rng([qtype, 12])
    if qtype in FLOAT8:
        return rng.uniform(-6, 6, X_SHAPE).astype(NUMPY[qtype])
    lo, hi = (-8, 8) if qtype == INT4 else (0, 16)
    return rng.integers(lo, hi, X_SHAPE).astype(NUMPY[qtype])


def check_io(qtype: int, runtime: Runtime) -> None:
    """Against onnx's reference evaluator (ONNX Runtime takes no int4 input)."""
    from onnx.reference import ReferenceEvaluator  # lazy: slow to import

    model, q = io_model(qtype), io_input(qtype)
    want_sq, want_y = (
        np.asarray(v) for v in ReferenceEvaluator(model).run(None, {"q": q})
    )
    got = xhip.compile(model, runtime=runtime)({"q": q})
    np.testing.assert_array_equal(got["sq"], want_sq)
    assert got["y"].dtype == NUMPY[qtype]
    np.testing.assert_array_equal(
        got["y"].astype(np.float32), want_y.astype(np.float32)
    )


def node_cases() -> list[Any]:
    """onnx's int4 and uint4 QuantizeLinear / DequantizeLinear node cases
    (opset 25 and later), their opset set to 21: their attributes and types
    are all opset 21's."""
    from onnx.backend.test.case import node  # lazy: seconds of generators

    state = np.random.get_state()
    np.random.seed(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cases = node.collect_testcases(None)
    finally:
        np.random.set_state(state)
    found = []
    for case in cases:
        if case.model is None or not case.name.endswith(("_int4", "_uint4")):
            continue
        if case.name.startswith(("test_quantizelinear", "test_dequantizelinear")):
            del case.model.opset_import[:]
            case.model.opset_import.append(helper.make_opsetid("", 21))
            case.model.ir_version = 10
            found.append(case)
    return found


NODE_CASES = node_cases()


def _array(value: Any) -> np.ndarray:
    """A node case's data: numpy, or a TensorProto for int4."""
    if isinstance(value, onnx.TensorProto):
        return numpy_helper.to_array(value)
    return np.asarray(value)


def check_node_case(case: Any, runtime: Runtime) -> None:
    ((inputs, outputs),) = case.data_sets
    names = [v.name for v in case.model.graph.input]
    feeds = {n: _array(x) for n, x in zip(names, inputs, strict=True)}
    got = xhip.compile(case.model, runtime=runtime)(feeds)
    expected = [_array(x) for x in outputs]
    for (name, value), want in zip(got.items(), expected, strict=True):
        assert value.dtype == want.dtype, name
        np.testing.assert_array_equal(value.astype(np.float64), want.astype(np.float64))


RuntimeFactory = Callable[[], Runtime]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("ftype", [F32, F16], ids=["f32", "f16"])
@pytest.mark.parametrize("qtype", [INT4, UINT4], ids=["int4", "uint4"])
def test_quantize_dequantize(qtype: int, ftype: int, layout: str) -> None:
    check_quantize(quantize_pair(qtype, ftype, layout), CpuRuntime())


@pytest.mark.parametrize("saturate", [1, 0], ids=["saturate", "overflow"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("ftype", [F32, F16], ids=["f32", "f16"])
@pytest.mark.parametrize("qtype", FLOAT8, ids=F8_IDS)
def test_float8_quantize_dequantize(
    qtype: int, ftype: int, layout: str, saturate: int
) -> None:
    check_quantize(quantize_pair(qtype, ftype, layout, saturate), CpuRuntime())


@pytest.mark.parametrize("saturate", [1, 0], ids=["saturate", "overflow"])
@pytest.mark.parametrize("source", [F32, F16], ids=["f32", "f16"])
@pytest.mark.parametrize("target", FLOAT8, ids=F8_IDS)
def test_cast_to_float8(target: int, source: int, saturate: int) -> None:
    check_cast(cast_pair(target, source, saturate), CpuRuntime())


@pytest.mark.parametrize("qtype", [INT4, UINT4], ids=["int4", "uint4"])
def test_cast_integers_to_int4_wraps(qtype: int) -> None:
    """int32 to int4 or uint4 keeps the low 4 bits, as ONNX Runtime does."""
    x = np.array([300, -3, 8, -9, 15, 16, 7, -8, 0], np.int32)
    x_info = helper.make_tensor_value_info("x", TensorProto.INT32, x.shape)
    cast = helper.make_node("Cast", ["x"], ["y"], to=qtype)
    wide = helper.make_node("Cast", ["y"], ["y8"], to=WIDE[qtype])
    ours = _model(
        [cast], [x_info], [helper.make_tensor_value_info("y", qtype, x.shape)], []
    )
    theirs = _model(
        [cast, wide],
        [x_info],
        [helper.make_tensor_value_info("y8", WIDE[qtype], x.shape)],
        [],
    )
    (want,) = _ort(Pair(ours, theirs, {"x": x}))
    got = xhip.compile(ours, runtime=CpuRuntime())({"x": x})["y"]
    np.testing.assert_array_equal(got.astype(want.dtype), want)


def test_cast_floats_to_int4_is_refused() -> None:
    """ONNX Runtime rounds half away from zero, then wraps (9.7 is -6):
    refused in one line rather than computed otherwise."""
    x_info = helper.make_tensor_value_info("x", F32, (3,))
    cast = helper.make_node("Cast", ["x"], ["y"], to=INT4)
    model = _model(
        [cast], [x_info], [helper.make_tensor_value_info("y", INT4, (3,))], []
    )
    with pytest.raises(Exception, match="Cast from f32 to i4 \\(from integers only\\)"):
        xhip.compile(model, runtime=CpuRuntime())


@pytest.mark.parametrize("qtype", FLOAT8, ids=F8_IDS)
def test_float8_inputs_and_outputs(qtype: int) -> None:
    check_io(qtype, CpuRuntime())


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("qtype", [INT4, UINT4], ids=["int4", "uint4"])
def test_packed_weights_into_matmul(qtype: int, layout: str) -> None:
    check_weights(weights_pair(qtype, layout), CpuRuntime())


@pytest.mark.parametrize("qtype", [INT4, UINT4], ids=["int4", "uint4"])
def test_int4_inputs_and_outputs(qtype: int) -> None:
    check_io(qtype, CpuRuntime())


def test_the_node_cases_are_found() -> None:
    assert len(NODE_CASES) == 4


@pytest.mark.parametrize("case", NODE_CASES, ids=lambda c: c.name)
def test_node_case_at_opset_21(case: Any) -> None:
    check_node_case(case, CpuRuntime())


@pytest.mark.parametrize("raw", [True, False], ids=["raw_data", "int32_data"])
def test_an_initializer_of_odd_length_unpacks(raw: bool) -> None:
    """Five int4 values in three bytes (raw_data, the last high nibble
    unused) or five int32s: one a byte in the IR's constant, sign extended."""
    values = [-8, 7, -1, 0, 5]
    if raw:
        w = numpy_helper.from_array(np.array(values, ml_dtypes.int4), "w")
        assert len(w.raw_data) == 3
    else:
        w = helper.make_tensor("w", INT4, [5], values)
    model = _model(
        [helper.make_node("DequantizeLinear", ["w", "s"], ["y"])],
        [],
        [helper.make_tensor_value_info("y", F32, [5])],
        [w, numpy_helper.from_array(np.asarray(0.5, np.float32), "s")],
    )
    from xhip.frontend import import_model  # lazy: as xhip.compile imports it

    assert "dense<[-8, 7, -1, 0, 5]> : tensor<5xi4>" in str(import_model(model))
    got = xhip.compile(model, runtime=CpuRuntime())({})["y"]
    np.testing.assert_array_equal(got, np.array(values, np.float32) * 0.5)


@pytest.mark.parametrize("qtype", [INT4, UINT4], ids=["int4", "uint4"])
def test_contrib_quantize_linear_to_int4(qtype: int) -> None:
    """com.microsoft's QuantizeLinear to int4 computes as the ai.onnx one."""
    ms = "com.microsoft"
    x = np.random.default_rng([qtype, 13]).uniform(-4, 4, 8).astype(np.float32)
    x[:2] = [0.25, -0.75]  # ties
    inits = [
        numpy_helper.from_array(np.asarray(0.5, np.float32), "s"),
        helper.make_tensor("z", qtype, [], [1]),
    ]
    node = helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], domain=ms)

    def model(nodes: list[onnx.NodeProto], elem: int, name: str) -> onnx.ModelProto:
        graph = helper.make_graph(
            nodes,
            "g",
            [helper.make_tensor_value_info("x", F32, [8])],
            [helper.make_tensor_value_info(name, elem, [8])],
            inits,
        )
        opsets = [helper.make_opsetid("", 21), helper.make_opsetid(ms, 1)]
        return helper.make_model(graph, opset_imports=opsets, ir_version=10)

    wide = helper.make_node("Cast", ["y"], ["y8"], to=WIDE[qtype])
    ours = model([node], qtype, "y")
    pair = Pair(ours, model([node, wide], WIDE[qtype], "y8"), {"x": x})
    (want,) = _ort(pair)
    got = xhip.compile(ours, runtime=CpuRuntime())({"x": x})["y"]
    assert got.dtype == NUMPY[qtype]
    np.testing.assert_array_equal(got.astype(want.dtype), want)
