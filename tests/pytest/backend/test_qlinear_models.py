"""QLinearMatMul, ConvInteger and QLinearConv (and the QOperator models of
`tests/fixtures/quantized/`) against ONNX Runtime on the CPU runtime,
exactly. QLinearMatMul: uint8 and int8, zero points and scales per tensor
and per column of b (ORT's kinds), batched, products that saturate and
multipliers that round to ties. ConvInteger: 1-D and 2-D, groups, strides,
dilations, pads and auto_pad, zero points absent or given (per output
channel against onnx's reference implementation, as ORT refuses it).
QLinearConv: uint8 and int8, w's scale per tensor and per channel, with and
without the int32 bias, groups, strides, pads.
`tests/pytest/emulator/test_quantize_kernels.py` runs the same cases on the
emulated GPU runtimes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.pytest.backend.test_quantize_models import (
    assert_same,
    onnxruntime_outputs,
    qdq_mlp_inputs,
    run_on,
)
from xhip.backend.cpu import CpuRuntime

QUANTIZED = Path(__file__).parents[2] / "fixtures" / "quantized"
QOPERATOR_MLP = QUANTIZED / "qoperator_mlp.onnx"
QOPERATOR_CNN = QUANTIZED / "qoperator_cnn.onnx"
ELEMENT = {np.dtype(np.uint8): TensorProto.UINT8, np.dtype(np.int8): TensorProto.INT8}


@dataclass(frozen=True)
class QLinearCase:
    """A one-node QLinearMatMul: a and b are graph inputs, the scales and
    zero points (a, b, y) constants."""

    name: str
    a: np.ndarray
    b: np.ndarray
    params: tuple[np.ndarray | np.generic, ...]
    """a_scale, a_zero, b_scale, b_zero, y_scale, y_zero."""
    opset: int = 10

    def model(self) -> onnx.ModelProto:
        names = ["a_scale", "a_zero", "b_scale", "b_zero", "y_scale", "y_zero"]
        consts = [
            numpy_helper.from_array(np.asarray(v), n)
            for n, v in zip(names, self.params, strict=True)
        ]
        node = helper.make_node(
            "QLinearMatMul", ["a", *names[:2], "b", *names[2:]], ["y"]
        )
        graph = helper.make_graph(
            [node],
            self.name,
            [
                helper.make_tensor_value_info(n, ELEMENT[v.dtype], list(v.shape))
                for n, v in (("a", self.a), ("b", self.b))
            ],
            [helper.make_value_info("y", onnx.TypeProto())],
            consts,
        )
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", self.opset)]
        )
        model.ir_version = 10
        return onnx.shape_inference.infer_shapes(model, strict_mode=True)

    def feeds(self) -> dict[str, np.ndarray]:
        return {"a": self.a, "b": self.b}

    def expected(self) -> list[np.ndarray]:
        return onnxruntime_outputs(self.model(), self.feeds())


@dataclass(frozen=True)
class ConvIntegerCase:
    """A one-node ConvInteger: x and w graph inputs, the zero points
    constants (None: absent)."""

    name: str
    x: np.ndarray
    w: np.ndarray
    x_zero: np.ndarray | np.generic | None
    w_zero: np.ndarray | np.generic | None
    attrs: tuple[tuple[str, object], ...] = ()
    onnx_reference: bool = False
    """A per-channel w_zero, which ORT refuses: onnx's reference instead."""

    def model(self) -> onnx.ModelProto:
        zeros = [(n, z) for n, z in (("x_zero", self.x_zero), ("w_zero", self.w_zero))]
        node = helper.make_node(
            "ConvInteger",
            ["x", "w", *("" if z is None else n for n, z in zeros)],
            ["y"],
        )
        node.attribute.extend(helper.make_attribute(k, v) for k, v in self.attrs)
        graph = helper.make_graph(
            [node],
            self.name,
            [
                helper.make_tensor_value_info(n, ELEMENT[v.dtype], list(v.shape))
                for n, v in (("x", self.x), ("w", self.w))
            ],
            [helper.make_value_info("y", onnx.TypeProto())],
            [
                numpy_helper.from_array(np.asarray(z), n)
                for n, z in zeros
                if z is not None
            ],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 10)])
        model.ir_version = 10
        return onnx.shape_inference.infer_shapes(model, strict_mode=True)

    def feeds(self) -> dict[str, np.ndarray]:
        return {"x": self.x, "w": self.w}

    def expected(self) -> list[np.ndarray]:
        if self.onnx_reference:
            from onnx.reference import ReferenceEvaluator  # lazy: the reference only

            outputs = ReferenceEvaluator(self.model()).run(None, self.feeds())
            return [np.asarray(v) for v in outputs]
        return onnxruntime_outputs(self.model(), self.feeds())


def _conv_cases() -> list[ConvIntegerCase]:
    rng = np.random.default_rng(4321)
    u8, i8 = np.uint8, np.int8

    def ints(t: type, shape: tuple[int, ...]) -> np.ndarray:
        info = np.iinfo(t)
        return rng.integers(info.min, int(info.max) + 1, shape).astype(t)

    return [
        ConvIntegerCase(
            "ci_plain", ints(u8, (1, 2, 5, 5)), ints(u8, (3, 2, 3, 3)), None, None
        ),
        ConvIntegerCase(
            "ci_zero_points_pads",
            ints(u8, (2, 3, 6, 7)),
            ints(u8, (4, 3, 3, 2)),
            u8(131),
            u8(7),
            (("pads", [1, 0, 2, 1]),),
        ),
        ConvIntegerCase(
            "ci_groups_strides_dilations",
            ints(u8, (2, 4, 9, 8)),
            ints(i8, (6, 2, 2, 3)),
            u8(3),
            i8(-5),
            (
                ("group", 2),
                ("strides", [2, 1]),
                ("dilations", [1, 2]),
                ("pads", [0, 1, 1, 0]),
            ),
        ),
        ConvIntegerCase(
            "ci_1d_same_upper",
            ints(u8, (1, 3, 11)),
            ints(u8, (2, 3, 4)),
            u8(128),
            None,
            (("auto_pad", "SAME_UPPER"),),
        ),
        ConvIntegerCase(
            "ci_per_channel_w_zero",
            ints(u8, (1, 2, 6, 6)),
            ints(u8, (3, 2, 3, 3)),
            u8(10),
            ints(u8, (3,)),
            (("pads", [1, 1, 1, 1]),),
            onnx_reference=True,
        ),
    ]


@dataclass(frozen=True)
class QLinearConvCase:
    """A one-node QLinearConv: x and w graph inputs; the scales, zero points
    and the bias constants."""

    name: str
    x: np.ndarray
    w: np.ndarray
    params: tuple[np.ndarray | np.generic, ...]
    """x_scale, x_zero, w_scale, w_zero, y_scale, y_zero."""
    bias: np.ndarray | None = None
    attrs: tuple[tuple[str, object], ...] = ()

    def model(self) -> onnx.ModelProto:
        names = ["x_scale", "x_zero", "w_scale", "w_zero", "y_scale", "y_zero"]
        consts = [
            numpy_helper.from_array(np.asarray(v), n)
            for n, v in zip(names, self.params, strict=True)
        ]
        inputs = ["x", *names[:2], "w", *names[2:]]
        if self.bias is not None:
            consts.append(numpy_helper.from_array(self.bias, "bias"))
            inputs.append("bias")
        node = helper.make_node("QLinearConv", inputs, ["y"])
        node.attribute.extend(helper.make_attribute(k, v) for k, v in self.attrs)
        graph = helper.make_graph(
            [node],
            self.name,
            [
                helper.make_tensor_value_info(n, ELEMENT[v.dtype], list(v.shape))
                for n, v in (("x", self.x), ("w", self.w))
            ],
            [helper.make_value_info("y", onnx.TypeProto())],
            consts,
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 10)])
        model.ir_version = 10
        return onnx.shape_inference.infer_shapes(model, strict_mode=True)

    def feeds(self) -> dict[str, np.ndarray]:
        return {"x": self.x, "w": self.w}

    def expected(self) -> list[np.ndarray]:
        return onnxruntime_outputs(self.model(), self.feeds())


def _qlinear_conv_cases() -> list[QLinearConvCase]:
    rng = np.random.default_rng(2468)
    u8, i8, f32 = np.uint8, np.int8, np.float32

    def ints(t: type, shape: tuple[int, ...]) -> np.ndarray:
        info = np.iinfo(t)
        return rng.integers(info.min, int(info.max) + 1, shape).astype(t)

    return [
        QLinearConvCase(
            "qc_u8_per_tensor",
            ints(u8, (1, 3, 7, 7)),
            ints(u8, (4, 3, 3, 3)),
            (f32(0.02), u8(120), f32(0.01), u8(128), f32(0.25), u8(100)),
            attrs=(("pads", [1, 1, 1, 1]),),
        ),
        QLinearConvCase(
            "qc_u8_i8_per_channel_bias",
            ints(u8, (2, 4, 8, 6)),
            ints(i8, (6, 2, 3, 2)),
            (
                f32(0.03),
                u8(7),
                rng.uniform(0.001, 0.02, 6).astype(f32),
                np.zeros(6, i8),
                f32(0.4),
                u8(128),
            ),
            rng.integers(-5000, 5000, 6).astype(np.int32),
            (("group", 2), ("strides", [2, 1]), ("pads", [0, 1, 1, 0])),
        ),
        QLinearConvCase(
            "qc_i8_saturates",
            ints(i8, (1, 2, 9)),
            ints(i8, (3, 2, 3)),
            (f32(0.1), i8(-3), f32(0.05), i8(0), f32(0.01), i8(5)),
            rng.integers(-300, 300, 3).astype(np.int32),
            (("dilations", [2]),),
        ),
    ]


QLINEAR_CONV_CASES = _qlinear_conv_cases()
QLINEAR_CONV_PARAMS = [pytest.param(c, id=c.name) for c in QLINEAR_CONV_CASES]
CONV_CASES = _conv_cases()
CONV_PARAMS = [pytest.param(c, id=c.name) for c in CONV_CASES]


def _cases() -> list[QLinearCase]:
    rng = np.random.default_rng(1234)
    u8, i8, f32 = np.uint8, np.int8, np.float32

    def ints(t: type, shape: tuple[int, ...]) -> np.ndarray:
        info = np.iinfo(t)
        return rng.integers(info.min, int(info.max) + 1, shape).astype(t)

    def scales(n: int | None, lo: float = 0.001, hi: float = 0.05) -> np.ndarray:
        return rng.uniform(lo, hi, () if n is None else (n,)).astype(f32)

    return [
        QLinearCase(
            "u8_per_tensor",
            ints(u8, (4, 16)),
            ints(u8, (16, 5)),
            (f32(0.02), u8(120), f32(0.013), u8(131), f32(0.3), u8(128)),
        ),
        QLinearCase(
            "u8_a_i8_b_per_column",
            ints(u8, (6, 33)),
            ints(i8, (33, 7)),
            (f32(0.017), u8(3), scales(7), ints(i8, (7,)) // 8, f32(0.9), u8(60)),
        ),
        QLinearCase(
            "i8_per_tensor_saturates",
            ints(i8, (5, 40)),
            ints(i8, (40, 3)),
            (f32(0.05), i8(-2), f32(0.04), i8(1), f32(0.05), i8(10)),
        ),
        QLinearCase(
            "i8_per_column_batched",
            ints(i8, (2, 3, 4, 9)),
            ints(i8, (9, 6)),
            (
                f32(0.1),
                i8(5),
                scales(6, 0.01, 0.2),
                ints(i8, (6,)) // 16,
                f32(2.5),
                i8(-7),
            ),
        ),
        QLinearCase(
            # A multiplier of 0.5: every odd product is a tie.
            "ties_to_even",
            (np.arange(48, dtype=u8) % 7).reshape(8, 6),
            np.ones((6, 1), u8),
            (f32(0.5), u8(0), f32(1.0), u8(0), f32(1.0), u8(0)),
        ),
        QLinearCase(
            "one_element_1d_params_opset21",
            ints(u8, (3, 8)),
            ints(u8, (8, 4)),
            (
                np.asarray([0.03], f32),
                np.asarray([7], u8),
                np.asarray([0.02], f32),
                np.asarray([250], u8),
                np.asarray([0.1], f32),
                np.asarray([100], u8),
            ),
            opset=21,
        ),
    ]


CASES = _cases()
PARAMS = [pytest.param(c, id=c.name) for c in CASES]


@pytest.mark.parametrize("case", PARAMS)
def test_qlinear_matmul_matches_onnxruntime(case: QLinearCase) -> None:
    got = run_on(CpuRuntime(debug=True), case.model(), case.feeds())
    assert_same(got, case.expected())


@pytest.mark.parametrize("case", CONV_PARAMS)
def test_conv_integer_matches_onnxruntime(case: ConvIntegerCase) -> None:
    got = run_on(CpuRuntime(debug=True), case.model(), case.feeds())
    assert_same(got, case.expected())


@pytest.mark.parametrize("case", QLINEAR_CONV_PARAMS)
def test_qlinear_conv_matches_onnxruntime(case: QLinearConvCase) -> None:
    got = run_on(CpuRuntime(debug=True), case.model(), case.feeds())
    assert_same(got, case.expected())


def qoperator_cnn_inputs() -> dict[str, np.ndarray]:
    x = np.random.default_rng(3).standard_normal((1, 3, 12, 12)).astype(np.float32)
    return {"x": x}


QOPERATOR_MODELS = [
    pytest.param(QOPERATOR_MLP, "QLinearMatMul", qdq_mlp_inputs, id="mlp"),
    pytest.param(QOPERATOR_CNN, "QLinearConv", qoperator_cnn_inputs, id="cnn"),
]
"""Each fixture, the op it is about, its inputs."""


@pytest.mark.parametrize(("path", "op", "inputs"), QOPERATOR_MODELS)
def test_qoperator_models_match_onnxruntime(
    path: Path, op: str, inputs: Callable[[], dict[str, np.ndarray]]
) -> None:
    """The models quantized in QOperator format (`make_qoperator_*.py`), the
    weights' per-column / per-channel scales included, exactly."""
    model = onnx.load(path)
    assert op in {n.op_type for n in model.graph.node}
    feeds = inputs()
    got = run_on(CpuRuntime(), model, feeds)
    assert_same(got, onnxruntime_outputs(model, feeds))
