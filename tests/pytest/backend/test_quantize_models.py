"""Quantization against ONNX Runtime on the CPU runtime: one-node models of
QuantizeLinear, DequantizeLinear (per tensor, per axis, blocked; every
integer type ORT runs; ties to even, saturation), DynamicQuantizeLinear and
MatMulInteger (zero points scalar, per row, per column; batched), and the
QDQ-quantized MLP of `tests/fixtures/quantized/` (`make_qdq_mlp.py`).
Integer outputs compare exactly; so do the float ones (one float32
operation each, as ORT does it). `tests/pytest/emulator/test_quantize_kernels.py`
runs the same cases on the emulated GPU runtimes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import Runtime
from xhip.backend.session import CompiledModel

QDQ_MLP = Path(__file__).parents[2] / "fixtures" / "quantized" / "qdq_mlp.onnx"

F32, F16, I32 = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.INT32
DTYPES = {
    TensorProto.INT8: np.int8,
    TensorProto.UINT8: np.uint8,
    TensorProto.INT16: np.int16,
    TensorProto.UINT16: np.uint16,
    I32: np.int32,
    F32: np.float32,
    F16: np.float16,
}


@dataclass(frozen=True)
class Case:
    """A one-node model: its input arrays (graph inputs) and constants."""

    name: str
    op: str
    inputs: tuple[np.ndarray, ...]
    constants: tuple[np.ndarray | np.generic | None, ...] = ()
    attrs: tuple[tuple[str, int], ...] = ()
    opset: int = 21
    numpy_reference: bool = False
    """MatMulInteger with a per-row a_zero_point, which ONNX Runtime refuses:
    against numpy's exact int64 matmul instead."""

    def model(self) -> onnx.ModelProto:
        names = [f"in{i}" for i in range(len(self.inputs))]
        consts = [
            numpy_helper.from_array(np.asarray(c), f"c{i}")
            for i, c in enumerate(self.constants)
            if c is not None
        ]
        const_names = [
            "" if c is None else f"c{i}" for i, c in enumerate(self.constants)
        ]
        outputs = (
            ["y", "y_scale", "y_zero_point"]
            if self.op == "DynamicQuantizeLinear"
            else ["y"]
        )
        node = helper.make_node(self.op, [*names, *const_names], outputs)
        node.attribute.extend(helper.make_attribute(k, v) for k, v in self.attrs)
        graph = helper.make_graph(
            [node],
            self.name,
            [
                helper.make_tensor_value_info(n, _elem(x), list(x.shape))
                for n, x in zip(names, self.inputs, strict=True)
            ],
            [helper.make_value_info(n, onnx.TypeProto()) for n in outputs],
            consts,
        )
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", self.opset)]
        )
        model.ir_version = 10
        return onnx.shape_inference.infer_shapes(model, strict_mode=True)

    def feeds(self) -> dict[str, np.ndarray]:
        return {f"in{i}": x for i, x in enumerate(self.inputs)}

    def expected(self) -> list[np.ndarray]:
        if not self.numpy_reference:
            return onnxruntime_outputs(self.model(), self.feeds())
        a, b = (x.astype(np.int64) for x in self.inputs)
        a_zero, b_zero = (
            np.zeros((), np.int64) if z is None else z.astype(np.int64)
            for z in self.constants
        )
        if a_zero.ndim == 1:
            a_zero = a_zero[:, None]
        return [np.matmul(a - a_zero, b - b_zero).astype(np.int32)]


def _elem(x: np.ndarray) -> int:
    return next(k for k, v in DTYPES.items() if np.dtype(v) == x.dtype)


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng(sum(map(ord, name)))


def _quantize_cases() -> list[Case]:
    rng = _rng("quantize")
    x = (rng.standard_normal((3, 5, 4)) * 40).astype(np.float32)
    cases = []
    for elem in (
        TensorProto.UINT8,
        TensorProto.INT8,
        TensorProto.INT16,
        TensorProto.UINT16,
    ):
        t = DTYPES[elem]
        info = np.iinfo(t)
        mid = (int(info.min) + int(info.max)) // 2
        zero = np.asarray(mid // 3, t)
        cases += [
            Case(
                f"q_tensor_{t.__name__}",
                "QuantizeLinear",
                (x,),
                (np.float32(0.37), zero),
            ),
            Case(
                f"q_axis_{t.__name__}",
                "QuantizeLinear",
                (x,),
                (
                    rng.uniform(0.05, 0.5, 5).astype(np.float32),
                    rng.integers(info.min // 4, info.max // 4, 5).astype(t),
                ),
                (("axis", 1),),
            ),
            Case(
                f"q_blocked_{t.__name__}",
                "QuantizeLinear",
                (x,),
                (
                    rng.uniform(0.05, 0.5, (3, 3, 4)).astype(np.float32),
                    rng.integers(info.min // 4, info.max // 4, (3, 3, 4)).astype(t),
                ),
                (("axis", -2), ("block_size", 2)),
            ),
        ]
    ties = (np.arange(-12, 12, dtype=np.float32) + 0.5) * np.float32(0.25)
    cases += [
        Case(
            "q_ties_to_even",
            "QuantizeLinear",
            (ties,),
            (np.float32(0.25), np.uint8(128)),
        ),
        Case("q_no_zero_point", "QuantizeLinear", (x,), (np.float32(0.5),), opset=13),
        Case(
            "q_saturates",
            "QuantizeLinear",
            (x * 100,),
            (np.float32(0.1), np.int8(3)),
        ),
        Case(
            "q_float16",
            "QuantizeLinear",
            (x.astype(np.float16),),
            (np.float16(0.37), np.int8(-4)),
        ),
        Case(
            "q_opset10",
            "QuantizeLinear",
            (x,),
            (np.float32(0.2), np.uint8(7)),
            opset=10,
        ),
    ]
    return cases


def _dequantize_cases() -> list[Case]:
    rng = _rng("dequantize")
    cases = []
    for t in (np.uint8, np.int8, np.int16, np.uint16, np.int32):
        info = np.iinfo(t)
        lo, hi = max(int(info.min), -40000), min(int(info.max), 40000)
        x = rng.integers(lo, hi, (2, 6, 3)).astype(t)
        # int32's zero point must be 0 (the spec; ONNX Runtime checks it).
        span = 0 if t is np.int32 else 1

        def zeros(
            shape: tuple[int, ...],
            t: type = t,
            lo: int = lo,
            hi: int = hi,
            span: int = span,
        ) -> np.ndarray:
            return (rng.integers(lo // 4, hi // 4, shape) * span).astype(t)

        cases += [
            Case(
                f"dq_tensor_{t.__name__}",
                "DequantizeLinear",
                (x,),
                (np.float32(0.013), zeros(())),
            ),
            Case(
                f"dq_axis_{t.__name__}",
                "DequantizeLinear",
                (x,),
                (rng.uniform(0.01, 2, 6).astype(np.float32), zeros((6,))),
            ),
            Case(
                f"dq_blocked_{t.__name__}",
                "DequantizeLinear",
                (x,),
                (rng.uniform(0.01, 2, (2, 6, 1)).astype(np.float32), zeros((2, 6, 1))),
                (("axis", 2), ("block_size", 4)),
            ),
        ]
    x8 = rng.integers(-128, 128, (4, 5)).astype(np.int8)
    cases += [
        Case(
            "dq_no_zero_point", "DequantizeLinear", (x8,), (np.float32(0.5),), opset=13
        ),
        Case("dq_float16", "DequantizeLinear", (x8,), (np.float16(0.0137), np.int8(5))),
    ]
    return cases


def _dynamic_cases() -> list[Case]:
    rng = _rng("dynamic")
    x = rng.standard_normal((7, 9)).astype(np.float32) * 3
    return [
        Case("dyn_mixed", "DynamicQuantizeLinear", (x,), opset=11),
        Case("dyn_positive", "DynamicQuantizeLinear", (np.abs(x) + 1,), opset=11),
        Case("dyn_negative", "DynamicQuantizeLinear", (-np.abs(x) - 1,), opset=11),
        Case(
            "dyn_zeros",
            "DynamicQuantizeLinear",
            (np.zeros((3, 4), np.float32),),
            opset=11,
        ),
        Case(
            "dyn_large",
            "DynamicQuantizeLinear",
            (rng.standard_normal((3, 700)).astype(np.float32),),
            opset=11,
        ),
    ]


def _matmul_cases() -> list[Case]:
    rng = _rng("matmul")

    def ints(t: type, shape: tuple[int, ...]) -> np.ndarray:
        info = np.iinfo(t)
        return rng.integers(info.min, int(info.max) + 1, shape).astype(t)

    u8, i8 = np.uint8, np.int8
    return [
        Case(
            "mm_u8_plain",
            "MatMulInteger",
            (ints(u8, (4, 6)), ints(u8, (6, 5))),
            opset=10,
        ),
        Case(
            "mm_u8_scalar_zeros",
            "MatMulInteger",
            (ints(u8, (4, 6)), ints(u8, (6, 5))),
            (np.uint8(12), np.uint8(200)),
            opset=10,
        ),
        Case(
            "mm_per_column",
            "MatMulInteger",
            (ints(u8, (4, 6)), ints(i8, (6, 5))),
            (np.uint8(9), ints(i8, (5,))),
            opset=10,
        ),
        Case(
            "mm_per_row_and_column",
            "MatMulInteger",
            (ints(u8, (4, 6)), ints(i8, (6, 5))),
            (ints(u8, (4,)), ints(i8, (5,))),
            opset=10,
            numpy_reference=True,
        ),
        Case(
            "mm_i8_b_zero_only",
            "MatMulInteger",
            (ints(i8, (3, 7)), ints(i8, (7, 2))),
            (None, ints(i8, (2,))),
            opset=10,
        ),
        Case(
            "mm_batched_broadcast",
            "MatMulInteger",
            (ints(u8, (2, 1, 3, 33)), ints(i8, (3, 33, 4))),
            (np.uint8(128), np.int8(-3)),
            opset=10,
        ),
    ]


CASES = [*_quantize_cases(), *_dequantize_cases(), *_dynamic_cases(), *_matmul_cases()]
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
        assert g.dtype == w.dtype and g.shape == w.shape, (
            g.dtype,
            g.shape,
            w.dtype,
            w.shape,
        )
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("case", PARAMS)
def test_matches_onnxruntime_on_the_cpu(case: Case) -> None:
    got = run_on(CpuRuntime(debug=True), case.model(), case.feeds())
    assert_same(got, case.expected())


def qdq_mlp_inputs() -> dict[str, np.ndarray]:
    x = np.random.default_rng(2).standard_normal((5, 16)).astype(np.float32)
    return {"x": x}


def test_qdq_mlp_matches_onnxruntime() -> None:
    model = onnx.load(QDQ_MLP)
    ops = {n.op_type for n in model.graph.node}
    assert {"QuantizeLinear", "DequantizeLinear", "MatMul"} <= ops
    feeds = qdq_mlp_inputs()
    got = run_on(CpuRuntime(), model, feeds)
    assert_same(got, onnxruntime_outputs(model, feeds))


NAN_TARGETS = (
    TensorProto.INT4,
    TensorProto.UINT4,
    TensorProto.INT8,
    TensorProto.UINT8,
    TensorProto.INT16,
    TensorProto.UINT16,
)


@pytest.mark.parametrize(
    "runtime", ["cpu", pytest.param("cuda", marks=pytest.mark.emulator)]
)
def test_quantize_of_nan_and_infinities_matches_onnxruntime(
    runtime: str, request: pytest.FixtureRequest
) -> None:
    """A NaN quantizes to the type's least value, as ONNX Runtime's
    quantizers give it (fuzz seed 230278); infinities saturate. Per tensor,
    per axis and blocked, each integer type, read back through
    DequantizeLinear (ORT's Python API returns no 4-bit arrays)."""
    import onnxruntime as ort  # lazy: as the module's other ORT checks

    x = np.array([[np.nan, np.inf, -np.inf, 2.5], [-30, 3.5, np.nan, 0.75]], np.float32)
    layouts: list[tuple[tuple[int, ...], dict[str, int]]] = [
        ((), {}),
        ((4,), {"axis": 1}),
        ((2, 2), {"axis": 1, "block_size": 2}),
    ]
    for target in NAN_TARGETS:
        for shape, attrs in layouts:
            count = int(np.prod(shape))
            scales = np.linspace(0.5, 1.5, count).astype(np.float32).reshape(shape)
            zero = helper.make_tensor("z", target, list(shape), [1] * count)
            nodes = [
                helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], **attrs),
                helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], **attrs),
            ]
            graph = helper.make_graph(
                nodes,
                "nan_quantize",
                [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
                [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
                [numpy_helper.from_array(scales, "s"), zero],
            )
            model = helper.make_model(
                graph, opset_imports=[helper.make_opsetid("", 21)]
            )
            session = ort.InferenceSession(
                model.SerializeToString(), providers=["CPUExecutionProvider"]
            )
            (want,) = session.run(None, {"x": x})
            device = (
                CpuRuntime()
                if runtime == "cpu"
                else request.getfixturevalue("emulated_cuda")
            )
            got = run_on(device, model, {"x": x})
            where = f"{TensorProto.DataType.Name(target)} {shape} {attrs}"
            np.testing.assert_array_equal(got[0], want, err_msg=where)
