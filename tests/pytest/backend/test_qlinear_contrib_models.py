"""ONNX Runtime's quantized contrib ops (`onnx_to_hip/qlinear.py`) against
ORT on the CPU runtime: one-node models of each op over its attributes and
its types (uint8, int8), random scales and zero points; then the QOperator
CNN and the quantized BERTs of `tests/fixtures/quantized/`. Integer outputs
compare exactly; float outputs (QGemm without y_scale, DynamicQuantizeMatMul,
MatMulIntegerToFloat, FusedMatMul) to float32 rounding.
`tests/pytest/emulator/test_qlinear_contrib_models.py` runs them on the
emulated GPUs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import Runtime
from xhip.backend.session import CompiledModel

FIXTURES = Path(__file__).parents[2] / "fixtures" / "quantized"
TYPES = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8}


@dataclass(frozen=True)
class Case:
    """One contrib node: graph inputs (arrays), then initializer inputs
    (None: an omitted optional input)."""

    name: str
    op: str
    inputs: dict[str, np.ndarray]
    constants: Sequence[tuple[str, np.ndarray | None]]
    order: list[str]
    attrs: Mapping[str, Any] = field(default_factory=dict[str, Any])
    exact: bool = True
    dynamic: Sequence[int] = ()
    """Dims of input `x` the model names (sizes known only at run time)."""

    def result_type(self) -> int:
        """float32, or the first 8-bit input's type (QGemm: y_zero_point's)."""
        if not self.exact:
            return TensorProto.FLOAT
        arrays = [*self.inputs.values(), *(v for n, v in self.constants if n != "zy")]
        zy = [v for n, v in self.constants if n == "zy"]
        if self.op == "QGemm" and zy and zy[0] is not None:
            return _elem(zy[0])
        return next(
            _elem(a) for a in arrays if a is not None and a.dtype in (np.int8, np.uint8)
        )

    def model(self, rank: int | None = None) -> onnx.ModelProto:
        """The model; its output of `rank` dims of no fixed size (None: untyped)."""
        inits = [
            numpy_helper.from_array(np.asarray(v), n)
            for n, v in self.constants
            if v is not None
        ]
        absent = {n for n, v in self.constants if v is None}
        node = helper.make_node(
            self.op,
            ["" if n in absent else n for n in self.order],
            ["y"],
            domain="com.microsoft",
            **self.attrs,
        )
        graph = helper.make_graph(
            [node],
            self.name,
            [
                helper.make_tensor_value_info(n, _elem(x), self._dims(n, x))
                for n, x in self.inputs.items()
            ],
            [
                helper.make_value_info("y", onnx.TypeProto())
                if rank is None
                else helper.make_tensor_value_info(
                    "y", self.result_type(), [None] * rank
                )
            ],
            inits,
        )
        return helper.make_model(
            graph,
            opset_imports=[
                helper.make_opsetid("", 17),
                helper.make_opsetid("com.microsoft", 1),
            ],
        )

    def _dims(self, name: str, x: np.ndarray) -> list[int | str]:
        if name != "x":
            return list(x.shape)
        return [f"d{i}" if i in self.dynamic else n for i, n in enumerate(x.shape)]


def _elem(x: np.ndarray) -> int:
    return helper.np_dtype_to_tensor_dtype(x.dtype)


def _q(rng: np.random.Generator, t: type, shape: tuple[int, ...]) -> np.ndarray:
    info = np.iinfo(t)
    return rng.integers(info.min, info.max + 1, shape).astype(t)


def _scale(rng: np.random.Generator, lo: float = 0.005, hi: float = 0.05) -> np.ndarray:
    return np.asarray(rng.uniform(lo, hi), np.float32)


def _zero(rng: np.random.Generator, t: type) -> np.ndarray:
    info = np.iinfo(t)
    return np.asarray(rng.integers(int(info.min) // 2, int(info.max) // 2 + 1), t)


def _binary_cases() -> list[Case]:
    cases = []
    shapes = [
        ((2, 3, 8, 8), (2, 3, 8, 8)),
        ((2, 3, 8, 8), (1, 3, 1, 1)),
        ((4, 37), (37,)),
        ((5, 7), ()),
        ((2, 3, 1, 1), (2, 3, 8, 8)),
        ((), (3, 40)),
        ((64, 1), (64, 64)),
    ]
    for op in ("QLinearAdd", "QLinearMul"):
        for t in TYPES:
            for i, (sa, sb) in enumerate(shapes):
                rng = np.random.default_rng(len(cases) + 10)
                cases.append(
                    Case(
                        f"{op}_{t.__name__}_{i}",
                        op,
                        {"a": _q(rng, t, sa), "b": _q(rng, t, sb)},
                        [
                            ("sa", _scale(rng)),
                            ("za", _zero(rng, t)),
                            ("sb", _scale(rng)),
                            ("zb", _zero(rng, t)),
                            ("sc", _scale(rng, 0.01, 0.08)),
                            ("zc", _zero(rng, t)),
                        ],
                        ["a", "sa", "za", "b", "sb", "zb", "sc", "zc"],
                    )
                )
    # A repeated along B's rows, where ORT passes B first: with these scales
    # and zero points, a = 248 and b = 144 round one way in ORT's order and
    # the other in A's (found by a search over random scales; the other
    # values of b pad the span).
    scales = [np.asarray(float.fromhex(h), np.float32) for h in HEX_SCALES]
    b = np.full((1, 40), 144, np.uint8)
    b[0, ::2] = np.arange(20, dtype=np.uint8) * 13
    cases.append(
        Case(
            "QLinearAdd_uint8_a_repeats",
            "QLinearAdd",
            {"a": np.asarray([[248]], np.uint8), "b": b},
            [
                ("sa", scales[0]),
                ("za", np.asarray(239, np.uint8)),
                ("sb", scales[1]),
                ("zb", np.asarray(181, np.uint8)),
                ("sc", scales[2]),
                ("zc", np.asarray(126, np.uint8)),
            ],
            ["a", "sa", "za", "b", "sb", "zb", "sc", "zc"],
        )
    )
    return cases


HEX_SCALES = ("0x1.c66b96p-5", "0x1.65125ap-4", "0x1.415888p-5")
"""Scales (sA, sB, sC) under which QLinearAdd's order of operations shows."""


def _unary_cases() -> list[Case]:
    cases = []
    for op, attrs in (
        ("QLinearSigmoid", {}),
        ("QLinearLeakyRelu", {"alpha": 0.1}),
        ("QLinearLeakyRelu", {}),
    ):
        for t in TYPES:
            rng = np.random.default_rng(len(cases) + 50)
            info = np.iinfo(t)
            every = np.arange(info.min, info.max + 1).astype(t).reshape(4, 64)
            omit = (
                op == "QLinearLeakyRelu" and not attrs
            )  # the zero points default to 0
            cases.append(
                Case(
                    f"{op}_{t.__name__}_{len(cases)}",
                    op,
                    {"x": every},
                    [
                        ("sx", _scale(rng, 0.01, 0.1)),
                        ("zx", None if omit else _zero(rng, t)),
                        ("sy", _scale(rng, 0.002, 0.02)),
                        ("zy", None if omit else _zero(rng, t)),
                    ],
                    ["x", "sx", "zx", "sy", "zy"],
                    attrs,
                )
            )
    return cases


def _pool_cases() -> list[Case]:
    cases = []
    for t in TYPES:
        for last in (0, 1):
            rng = np.random.default_rng(len(cases) + 70)
            shape = (2, 5, 6, 6) if not last else (2, 6, 6, 5)
            cases.append(
                Case(
                    f"QLinearGlobalAveragePool_{t.__name__}_{last}",
                    "QLinearGlobalAveragePool",
                    {"x": _q(rng, t, shape)},
                    [
                        ("sx", _scale(rng)),
                        ("zx", _zero(rng, t)),
                        ("sy", _scale(rng, 0.002, 0.01)),
                        ("zy", _zero(rng, t)),
                    ],
                    ["x", "sx", "zx", "sy", "zy"],
                    {"channels_last": last},
                )
            )
            spatial = (1, 2) if last else (2, 3)
            cases.append(
                Case(
                    f"QLinearGlobalAveragePool_{t.__name__}_{last}_dynamic",
                    "QLinearGlobalAveragePool",
                    {"x": _q(rng, t, (2, 7, 5, 3))},
                    [
                        ("sx", _scale(rng)),
                        ("zx", _zero(rng, t)),
                        ("sy", _scale(rng, 0.002, 0.01)),
                        ("zy", _zero(rng, t)),
                    ],
                    ["x", "sx", "zx", "sy", "zy"],
                    {"channels_last": last},
                    dynamic=(0, *spatial),
                )
            )
        for i, attrs in enumerate(
            (
                {"kernel_shape": [3, 3]},
                {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]},
                {"kernel_shape": [2, 3], "pads": [1, 0, 1, 1], "count_include_pad": 1},
                {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1},
            )
        ):
            rng = np.random.default_rng(len(cases) + 90)
            cases.append(
                Case(
                    f"QLinearAveragePool_{t.__name__}_{i}",
                    "QLinearAveragePool",
                    {"x": _q(rng, t, (2, 3, 8, 7))},
                    [
                        ("sx", _scale(rng)),
                        ("zx", _zero(rng, t)),
                        ("sy", _scale(rng, 0.005, 0.03)),
                        ("zy", _zero(rng, t)),
                    ],
                    ["x", "sx", "zx", "sy", "zy"],
                    attrs,
                )
            )
    return cases


def _softmax_cases() -> list[Case]:
    """uint8 and int8 (zero point -128: a value near 1 is 128, saturated),
    the last axis or another, opsets 13 and 12 (the dims from the axis on
    as one); dims known only at run time (`_dynamic`), one of them 0."""
    cases = []
    for t, zy in ((np.uint8, 0), (np.int8, -128)):
        for opset, axis, shape, dynamic in (
            (13, -1, (3, 4, 10), ()),
            (13, 1, (3, 4, 10), ()),
            (12, 1, (2, 3, 5), ()),
            (13, -1, (3, 4, 10), (0, 2)),
            (13, 1, (3, 4, 10), (1,)),
            (12, 1, (2, 3, 5), (0, 1, 2)),
            (13, -1, (3, 0), (0, 1)),  # an empty axis: an empty result
        ):
            rng = np.random.default_rng(len(cases) + 200)
            x = _q(rng, t, shape)
            x.reshape(-1)[::7] = np.iinfo(t).max  # dominant entries: outputs near 1
            cases.append(
                Case(
                    f"QLinearSoftmax_{t.__name__}_{opset}_{axis}"
                    + ("_dynamic" if dynamic else "")
                    + ("_empty" if 0 in shape else ""),
                    "QLinearSoftmax",
                    {"x": x},
                    [
                        ("sx", _scale(rng, 0.02, 0.1)),
                        ("zx", _zero(rng, t)),
                        ("sy", np.asarray(1 / 256, np.float32)),
                        ("zy", np.asarray(zy, t)),
                    ],
                    ["x", "sx", "zx", "sy", "zy"],
                    {"opset": opset, "axis": axis},
                    dynamic=dynamic,
                )
            )
    return cases


def _concat_cases() -> list[Case]:
    cases = []
    for t in TYPES:
        for axis in (1, -1):
            rng = np.random.default_rng(len(cases) + 110)
            sy, zy = _scale(rng), _zero(rng, t)
            inputs = {f"x{i}": _q(rng, t, (2, 3, 4)) for i in range(3)}
            consts = [
                ("sy", sy),
                ("zy", zy),
                ("s0", _scale(rng)),
                ("z0", _zero(rng, t)),
                ("s2", _scale(rng)),
                ("z2", _zero(rng, t)),
            ]
            cases.append(
                Case(
                    f"QLinearConcat_{t.__name__}_{axis}",
                    "QLinearConcat",
                    inputs,
                    consts,
                    ["sy", "zy", "x0", "s0", "z0", "x1", "sy", "zy", "x2", "s2", "z2"],
                    {"axis": axis},
                )
            )
    return cases


def _gemm_cases() -> list[Case]:
    cases = []
    for t in TYPES:
        for i, (trans_a, trans_b, bias, quantized, alpha, per_column) in enumerate(
            (
                (0, 0, False, True, 1.0, False),
                (1, 1, True, True, 0.5, True),
                (0, 1, True, False, 1.0, True),
                (0, 0, False, False, 2.0, False),
            )
        ):
            rng = np.random.default_rng(len(cases) + 130)
            m, k, n = 5, 19, 7
            a = _q(
                rng,
                np.uint8 if t is np.uint8 else np.int8,
                (k, m) if trans_a else (m, k),
            )
            b = _q(rng, np.int8, (n, k) if trans_b else (k, n))
            count = n if per_column else 1
            consts: list[tuple[str, np.ndarray | None]] = [
                ("sa", _scale(rng)),
                ("za", _zero(rng, a.dtype.type)),
                ("b", b),
                ("sb", rng.uniform(0.005, 0.05, count).astype(np.float32)),
                ("zb", np.zeros(count, np.int8)),
                (
                    "c",
                    rng.integers(-3000, 3000, (n,)).astype(np.int32) if bias else None,
                ),
            ]
            order = ["a", "sa", "za", "b", "sb", "zb", "c"]
            if quantized:
                consts += [
                    ("sy", _scale(rng, 0.05, 0.2)),
                    ("zy", _zero(rng, a.dtype.type)),
                ]
                order += ["sy", "zy"]
            cases.append(
                Case(
                    f"QGemm_{t.__name__}_{i}",
                    "QGemm",
                    {"a": a},
                    consts,
                    order,
                    {"transA": trans_a, "transB": trans_b, "alpha": alpha},
                    exact=quantized,
                )
            )
    return cases


def _matmul_cases() -> list[Case]:
    cases = []
    for i, (bt, zero, bias) in enumerate(
        ((np.int8, False, True), (np.uint8, True, False), (np.int8, True, True))
    ):
        rng = np.random.default_rng(150 + i)
        x = rng.standard_normal((2, 3, 16)).astype(np.float32)
        b = _q(rng, bt, (16, 6))
        cases.append(
            Case(
                f"DynamicQuantizeMatMul_{i}",
                "DynamicQuantizeMatMul",
                {"x": x},
                [
                    ("b", b),
                    ("sb", rng.uniform(0.01, 0.03, 6).astype(np.float32)),
                    ("zb", _q(rng, bt, (6,)) if zero else None),
                    (
                        "bias",
                        rng.standard_normal(6).astype(np.float32) if bias else None,
                    ),
                ],
                ["x", "b", "sb", "zb", "bias"],
                exact=False,
            )
        )
        a = _q(rng, np.uint8, (4, 16))
        cases.append(
            Case(
                f"MatMulIntegerToFloat_{i}",
                "MatMulIntegerToFloat",
                {"a": a},
                [
                    ("b", b),
                    ("sa", _scale(rng)),
                    ("sb", rng.uniform(0.01, 0.03, 6).astype(np.float32)),
                    ("za", _zero(rng, np.uint8) if zero else None),
                    ("zb", _q(rng, bt, (6,)) if zero else None),
                    (
                        "bias",
                        rng.standard_normal(6).astype(np.float32) if bias else None,
                    ),
                ],
                ["a", "b", "sa", "sb", "za", "zb", "bias"],
                exact=False,
            )
        )
    for i, (sa, sb, attrs) in enumerate(
        (
            ((3, 4), (4, 5), {}),
            ((4, 3), (5, 4), {"transA": 1, "transB": 1, "alpha": 0.5}),
            ((2, 3, 4), (2, 5, 4), {"transB": 1, "alpha": 0.125}),
            ((3, 2, 4), (2, 4, 5), {"transBatchA": 1}),
            (
                (4, 2, 3),
                (5, 2, 4),
                {"transBatchA": 1, "transA": 1, "transBatchB": 1, "transB": 1},
            ),
        )
    ):
        rng = np.random.default_rng(170 + i)
        cases.append(
            Case(
                f"FusedMatMul_{i}",
                "FusedMatMul",
                {
                    "a": rng.standard_normal(sa).astype(np.float32),
                    "b": rng.standard_normal(sb).astype(np.float32),
                },
                [],
                ["a", "b"],
                attrs,
                exact=False,
            )
        )
    return cases


CASES = [
    *_binary_cases(),
    *_unary_cases(),
    *_pool_cases(),
    *_softmax_cases(),
    *_concat_cases(),
    *_gemm_cases(),
    *_matmul_cases(),
]
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


def assert_matches(got: list[np.ndarray], want: list[np.ndarray], exact: bool) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert (g.dtype, g.shape) == (w.dtype, w.shape)
        if exact:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", PARAMS)
def test_matches_onnxruntime_on_the_cpu(case: Case) -> None:
    want = onnxruntime_outputs(case.model(), case.inputs)
    got = run_on(CpuRuntime(debug=True), case.model(want[0].ndim), case.inputs)
    assert_matches(got, want, case.exact)


def cnn_inputs() -> dict[str, np.ndarray]:
    x = np.random.default_rng(13).standard_normal((2, 3, 12, 12)).astype(np.float32)
    return {"x": x}


def bert_inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(22)
    ids = rng.integers(0, 100, (2, 7)).astype(np.int64)
    mask = np.ones((2, 7), np.int64)
    mask[1, 5:] = 0
    return {"input_ids": ids, "attention_mask": mask}


CNN = FIXTURES / "qoperator_contrib_cnn.onnx"
BERTS = {
    "qdq": (
        FIXTURES / "qdq_bert.onnx",
        {"QuantizeLinear", "DequantizeLinear", "MatMul"},
    ),
    "dynamic": (
        FIXTURES / "dynamic_bert.onnx",
        {"DynamicQuantizeLinear", "MatMulInteger"},
    ),
    "fused": (
        FIXTURES / "fused_dynamic_bert.onnx",
        {"DynamicQuantizeMatMul", "MatMulIntegerToFloat", "FusedMatMul"},
    ),
}
"""Each quantized BERT and op types it must hold."""
BERT_TOLERANCE = 1e-5
"""float32 rounding: every quantized value lands on ORT's (measured: at most
4.8e-7 apart on hidden states of about 3, all three models)."""


def test_qoperator_cnn_matches_onnxruntime() -> None:
    model = onnx.load(CNN)
    ops = {n.op_type for n in model.graph.node if n.domain == "com.microsoft"}
    assert ops == {
        "QLinearAdd",
        "QLinearMul",
        "QLinearSigmoid",
        "QLinearLeakyRelu",
        "QLinearConcat",
        "QLinearAveragePool",
        "QLinearGlobalAveragePool",
        "QLinearSoftmax",
        "QGemm",
    }
    feeds = cnn_inputs()
    got = run_on(CpuRuntime(), model, feeds)
    assert_matches(got, onnxruntime_outputs(model, feeds), exact=True)


def test_qoperator_cnn_with_a_dynamic_batch() -> None:
    """The result types of the contrib ops follow a batch known at run time."""
    model = onnx.load(CNN)
    for value in (model.graph.input[0], model.graph.output[0]):
        value.type.tensor_type.shape.dim[0].dim_param = "batch"
    del model.graph.value_info[:]
    feeds = {"x": np.random.default_rng(3).standard_normal((3, 3, 12, 12))}
    feeds = {k: v.astype(np.float32) for k, v in feeds.items()}
    got = run_on(CpuRuntime(), model, feeds)
    assert_matches(got, onnxruntime_outputs(model, feeds), exact=True)


@pytest.mark.parametrize("kind", sorted(BERTS))
def test_quantized_bert_matches_onnxruntime(kind: str) -> None:
    path, ops = BERTS[kind]
    model = onnx.load(path)
    assert ops <= {n.op_type for n in model.graph.node}
    feeds = bert_inputs()
    got = run_on(CpuRuntime(), model, feeds)
    want = onnxruntime_outputs(model, feeds)
    assert [g.shape for g in got] == [w.shape for w in want]
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, atol=BERT_TOLERANCE, rtol=0)
