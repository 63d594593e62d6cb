"""DynamicQuantizeLinear's scale and zero point against ONNX Runtime, bit for
bit, where they are most fragile: ranges whose zero point `0 - min / scale`
lands within a few ulps of a tie (127.5, and every k + 0.5), and ranges with
NaN in them.

ONNX Runtime's arithmetic (`GetQuantizationParameter` in
`core/util/qmath.h`) is xhip's, in float32: `scale = (max - min) / 255`,
`zero = RoundHalfToEven(clamp(0 - min / scale, 0, 255))`; a zero point that
flips 127 <-> 128 between them comes from a 1-ulp difference in the input,
upstream of the op (the fuzzer's seeds in the 70000s). NaN: ONNX Runtime's
MLAS min/max skips it (and so does xhip's GPU kernel); xhip's CPU runtime
skips it too. An infinite range (fuzz seed 247254) makes the scale inf and
the zero point's start `-inf / inf`, NaN, which ORT's
`std::max(0, std::min(255, start))` takes to 255: so does xhip, and the
quantized values follow (0 + 255; a NaN quotient saturates to 0)."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import xhip
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import Runtime
from xhip.backend.session import CompiledModel

F = TensorProto.FLOAT


def _model() -> onnx.ModelProto:
    node = helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "scale", "zero"])
    graph = helper.make_graph(
        [node],
        "dql",
        [helper.make_tensor_value_info("x", F, ["n"])],
        [
            helper.make_tensor_value_info("y", TensorProto.UINT8, ["n"]),
            helper.make_tensor_value_info("scale", F, []),
            helper.make_tensor_value_info("zero", TensorProto.UINT8, []),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model.ir_version = 9
    return model


def both(runtime: Runtime) -> tuple[ort.InferenceSession, CompiledModel]:
    """ONNX Runtime's session and xhip's model on `runtime`."""
    model = _model()
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    ir = xhip.compile_to_ir(model)
    return session, CompiledModel(ir.module, ir.signature, ir.constants, runtime)


def _near_ties(count: int) -> list[np.ndarray]:
    """Ranges [lo, hi] with -lo / ((hi - lo) / 255) within a few float32
    ulps of k + 0.5, k in 0..254 (k = 127 half of them), plus a middle
    element."""
    rng = np.random.default_rng(0)
    cases: list[np.ndarray] = []
    for i in range(count):
        k = 127 if i % 2 else int(rng.integers(0, 255))
        hi = np.float32(rng.uniform(0.01, 100))
        # zero = -lo * 255 / (hi - lo) = k + 0.5  =>  lo = -t * hi / (255 - t)
        t = k + 0.5
        lo = np.float32(-t * float(hi) / (255 - t))
        lo = lo + np.float32(int(rng.integers(-3, 4))) * np.spacing(lo)
        cases.append(np.array([lo, hi, (lo + hi) / 2], np.float32))
    return cases


def check_near_ties(runtime: Runtime) -> None:
    session, model = both(runtime)
    bad: list[str] = []
    for x in _near_ties(400):
        want = session.run(None, {"x": x})
        got = model({"x": x})
        for name, w in zip(("y", "scale", "zero"), want, strict=True):
            g, w = np.asarray(got[name]), np.asarray(w)
            if g.tobytes() != w.tobytes():
                bad.append(f"{x.tolist()}: {name} {g.tolist()} != ORT {w.tolist()}")
    assert not bad, "\n".join(bad[:5])


def test_zero_point_near_ties_matches_onnxruntime() -> None:
    check_near_ties(CpuRuntime())


NAN_CASES = {
    "all_nan": np.full(4, np.nan, np.float32),
    "nan_among": np.array([0.5, np.nan, -2.0, 3.0], np.float32),
}


def check_nan(name: str, runtime: Runtime) -> None:
    """The scale and zero point of a range with NaN in it: ORT's."""
    x = NAN_CASES[name]
    session, model = both(runtime)
    want_scale, want_zero = session.run(["scale", "zero"], {"x": x})
    got = model({"x": x})
    assert np.asarray(got["scale"]).tobytes() == np.asarray(want_scale).tobytes()
    assert np.asarray(got["zero"]).tobytes() == np.asarray(want_zero).tobytes()


@pytest.mark.parametrize("name", sorted(NAN_CASES))
def test_nan_is_skipped_by_the_range(name: str) -> None:
    check_nan(name, CpuRuntime())


INF_CASES = {
    "below": np.array([0.5, -np.inf, 2.0, -1.0], np.float32),
    "above": np.array([0.5, np.inf, -2.0], np.float32),
    "both": np.array([-np.inf, np.inf, 1.0, 0.0], np.float32),
}


def check_inf(name: str, runtime: Runtime) -> None:
    """Every output of a range with an infinity in it: ORT's, bit for bit."""
    x = INF_CASES[name]
    session, model = both(runtime)
    got = model({"x": x})
    for key, want in zip(("y", "scale", "zero"), session.run(None, {"x": x})):
        assert np.asarray(got[key]).tobytes() == np.asarray(want).tobytes(), key


@pytest.mark.parametrize("name", sorted(INF_CASES))
def test_an_infinite_range_matches_onnxruntime(name: str) -> None:
    check_inf(name, CpuRuntime())
