"""ONNX Runtime's `com.microsoft` QuantizeLinear and DequantizeLinear
against ORT on the CPU runtime: one-node models per tensor and per axis
(negative axis too), over every type both ORT's CPU EP and xhip run
(int8, uint8, int16, uint16; dequantizing int32 too; float32 and float16
scales), with and without zero points; then a CNN that
`onnxruntime.quantization.quantize_static` writes with `UseQDQContribOps`
(8-bit) and with 16-bit activations. Integer outputs compare exactly, and
so do the float ones (one float operation each, as ORT does it).
`tests/pytest/emulator/test_contrib_extra_models.py` runs them on the
emulated GPUs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import Runtime
from xhip.backend.session import CompiledModel

MS = "com.microsoft"
DTYPES = {
    TensorProto.INT8: np.int8,
    TensorProto.UINT8: np.uint8,
    TensorProto.INT16: np.int16,
    TensorProto.UINT16: np.uint16,
    TensorProto.INT32: np.int32,
    TensorProto.FLOAT: np.float32,
    TensorProto.FLOAT16: np.float16,
}


def _elem(x: np.ndarray) -> int:
    return next(k for k, v in DTYPES.items() if np.dtype(v) == x.dtype)


@dataclass(frozen=True)
class Case:
    """A one-node `com.microsoft` model: its graph input x and constants
    (None: an omitted optional input)."""

    name: str
    op: str
    x: np.ndarray
    constants: tuple[np.ndarray | np.generic | None, ...]
    axis: int | None = None

    def result_type(self) -> int:
        """Quantized: y_zero_point's type (uint8 without one); else x_scale's."""
        if self.op == "DequantizeLinear":
            return _elem(np.asarray(self.constants[0]))
        zero = self.constants[1] if len(self.constants) > 1 else None
        return TensorProto.UINT8 if zero is None else _elem(np.asarray(zero))

    def model(self) -> onnx.ModelProto:
        names = ["" if c is None else f"c{i}" for i, c in enumerate(self.constants)]
        consts = [
            numpy_helper.from_array(np.asarray(c), f"c{i}")
            for i, c in enumerate(self.constants)
            if c is not None
        ]
        node = helper.make_node(self.op, ["x", *names], ["y"], domain=MS)
        if self.axis is not None:
            node.attribute.append(helper.make_attribute("axis", self.axis))
        graph = helper.make_graph(
            [node],
            self.name,
            [helper.make_tensor_value_info("x", _elem(self.x), list(self.x.shape))],
            [
                helper.make_tensor_value_info(
                    "y", self.result_type(), list(self.x.shape)
                )
            ],
            consts,
        )
        model = helper.make_model(
            graph,
            opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)],
        )
        model.ir_version = 10
        return model


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng(sum(map(ord, name)))


def _cases() -> list[Case]:
    rng = _rng("contrib qdq")
    cases: list[Case] = []
    for ftype in (np.float32, np.float16):
        x = (rng.standard_normal((2, 3, 5)) * 40).astype(ftype)
        x.flat[:4] = np.asarray([0.5, 1.5, -2.5, 1e4], ftype) * ftype(0.25)
        scale = ftype(0.25)
        scales = np.asarray([0.25, 0.5, 1.5], ftype)
        f = np.dtype(ftype).name
        for t in (np.uint8, np.int8, np.uint16, np.int16):
            info = np.iinfo(t)
            zero = t((int(info.min) + int(info.max)) // 3)
            zeros = rng.integers(info.min // 2, info.max // 2, 3).astype(t)
            q = t.__name__
            cases += [
                Case(f"q_tensor_{q}_{f}", "QuantizeLinear", x, (scale, zero)),
                Case(f"q_axis_{q}_{f}", "QuantizeLinear", x, (scales, zeros), 1),
                Case(f"q_axis_neg_{q}_{f}", "QuantizeLinear", x, (scales, zeros), -2),
            ]
            ints = rng.integers(info.min, info.max, (2, 3, 5), endpoint=True)
            xi = ints.astype(t)
            cases += [
                Case(f"dq_tensor_{q}_{f}", "DequantizeLinear", xi, (scale, zero)),
                Case(f"dq_axis_{q}_{f}", "DequantizeLinear", xi, (scales, zeros), 1),
                Case(f"dq_nozero_{q}_{f}", "DequantizeLinear", xi, (scales, None), 1),
            ]
        cases += [
            Case(f"q_nozero_{f}", "QuantizeLinear", x, (scale,)),
            Case(f"q_axis_nozero_{f}", "QuantizeLinear", x, (scales, None), 1),
            Case(
                f"dq_int32_{f}",
                "DequantizeLinear",
                rng.integers(-(2**20), 2**20, (2, 3, 5)).astype(np.int32),
                (scale,),
            ),
        ]
    return cases


CASES = _cases()
PARAMS = [pytest.param(c, id=c.name) for c in CASES]


def onnxruntime_outputs(
    model: onnx.ModelProto, feeds: dict[str, np.ndarray]
) -> list[np.ndarray]:
    import onnxruntime as ort  # lazy: an optional package, for the reference only

    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return [np.asarray(v) for v in session.run(None, feeds)]


def run_on(
    runtime: Runtime, model: onnx.ModelProto, feeds: dict[str, np.ndarray]
) -> list[np.ndarray]:
    ir = xhip.compile_to_ir(model)
    got = CompiledModel(ir.module, ir.signature, ir.constants, runtime)(feeds)
    return list(got.values())


def assert_same(got: list[np.ndarray], want: list[np.ndarray]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert (g.dtype, g.shape) == (w.dtype, w.shape)
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("case", PARAMS)
def test_contrib_qdq_matches_onnxruntime(case: Case) -> None:
    feeds = {"x": case.x}
    got = run_on(CpuRuntime(debug=True), case.model(), feeds)
    assert_same(got, onnxruntime_outputs(case.model(), feeds))


def _float_cnn() -> onnx.ModelProto:
    rng = _rng("cnn")

    def w(name: str, *shape: int) -> onnx.TensorProto:
        return numpy_helper.from_array(
            (rng.standard_normal(shape) * 0.3).astype(np.float32), name
        )

    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], strides=[2, 2]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("GlobalAveragePool", ["r2"], ["p"]),
        helper.make_node("Flatten", ["p"], ["f"]),
        helper.make_node("MatMul", ["f", "w3"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])],
        [
            w("w1", 8, 3, 3, 3),
            w("b1", 8),
            w("w2", 6, 8, 3, 3),
            w("b2", 6),
            w("w3", 6, 5),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 9
    return model


def quantized_cnn(tmp: str, activations16: bool) -> onnx.ModelProto:
    """The CNN as `quantize_static` writes it with `com.microsoft` Q/DQ:
    8-bit (`UseQDQContribOps`) or 16-bit activations, per-channel weights."""
    from onnxruntime.quantization import (  # lazy: an optional package
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    class Reader(CalibrationDataReader):
        """A few random batches."""

        def __init__(self, batches: list[np.ndarray]):
            self.batches = iter(batches)

        def get_next(self) -> dict[str, np.ndarray]:
            x = next(self.batches, None)
            return {} if x is None else {"x": x}

    src, dst = f"{tmp}/cnn.onnx", f"{tmp}/cnn_qdq.onnx"
    onnx.save(_float_cnn(), src)
    rng = _rng("calibration")
    batches = [rng.standard_normal((2, 3, 8, 8)).astype(np.float32) for _ in range(4)]
    quantize_static(
        src,
        dst,
        Reader(batches),
        quant_format=QuantFormat.QDQ,
        per_channel=True,
        activation_type=QuantType.QUInt16 if activations16 else QuantType.QUInt8,
        weight_type=QuantType.QInt16 if activations16 else QuantType.QInt8,
        extra_options={"UseQDQContribOps": True},
    )
    return onnx.load(dst)


@pytest.mark.parametrize("activations16", [False, True], ids=["8bit", "16bit"])
def test_contrib_qdq_cnn_matches_onnxruntime(activations16: bool, tmp_path) -> None:
    model = quantized_cnn(str(tmp_path), activations16)
    qdq = [n for n in model.graph.node if n.op_type.endswith("QuantizeLinear")]
    assert qdq and all(n.domain == MS for n in qdq)
    x = _rng("cnn input").standard_normal((2, 3, 8, 8)).astype(np.float32)
    got = run_on(CpuRuntime(), model, {"x": x})
    want = onnxruntime_outputs(model, {"x": x})
    assert (got[0].dtype, got[0].shape) == (want[0].dtype, want[0].shape)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=output_step(model))


def output_step(model: onnx.ModelProto) -> float:
    """One quantization step of the graph output's DequantizeLinear: a float
    Conv or MatMul before a QuantizeLinear may round to the neighbouring
    step where its float result differs in the last bits between BLAS
    kernels (OpenBLAS's Sandybridge ones against ONNX Runtime's MLAS)."""
    (last,) = [n for n in model.graph.node if n.output[0] == model.graph.output[0].name]
    assert last.op_type == "DequantizeLinear", last.op_type
    scales = {t.name: t for t in model.graph.initializer}
    return float(numpy_helper.to_array(scales[last.input[1]]).max()) * 1.001


@pytest.mark.parametrize(
    ("attrs", "zero_type", "message"),
    [({"foo": 1}, TensorProto.UINT8, "attribute 'foo' is not supported")],
    ids=["attribute"],
)
def test_contrib_quantize_refusals(
    attrs: dict[str, int], zero_type: int, message: str
) -> None:
    """An attribute ORT's schema lacks is refused with one message (int4
    compiles: tests/pytest/backend/test_low_precision_quantize.py)."""
    from xhip.frontend.onnx_importer import OnnxImportError  # lazy: test only

    node = helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], domain=MS)
    node.attribute.extend(helper.make_attribute(k, v) for k, v in attrs.items())
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", zero_type, [4])],
        [
            numpy_helper.from_array(np.asarray(0.5, np.float32), "s"),
            helper.make_tensor("z", zero_type, [], [1]),
        ],
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)]
    )
    with pytest.raises(OnnxImportError, match=message):
        xhip.compile_to_ir(model)
