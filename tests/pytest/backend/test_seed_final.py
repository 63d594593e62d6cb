"""The seed's final IR (stage 21) on the CPU, against numpy float64 and ONNX Runtime."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from xdsl.dialects.builtin import ModuleOp

from xhip.backend.cpu import CpuRuntime
from xhip.backend.reference import AttentionWeights
from xhip.backend.session import CompiledModel, Signature

SHAPES = [(1, 1), (1, 7), (2, 64), (3, 100), (8, 512)]


def relative_error(got: np.ndarray, want: np.ndarray) -> float:
    return float(np.max(np.abs(got - want)) / np.max(np.abs(want)))


def inputs(batch: int, seq: int, seed: int = 1) -> np.ndarray:
    return (
        np.random.default_rng(seed).standard_normal((batch, seq, 64)).astype(np.float32)
    )


@pytest.fixture(scope="module")
def plan_model(
    final_module: ModuleOp, signature: Signature, weights: AttentionWeights
) -> CompiledModel:
    return CompiledModel(final_module, signature, weights.constants_blob())


@pytest.fixture(scope="module")
def onnxruntime_session(weights: AttentionWeights) -> ort.InferenceSession:
    return ort.InferenceSession(
        weights.onnx_model(), providers=["CPUExecutionProvider"]
    )


@pytest.mark.parametrize("batch,seq", SHAPES)
def test_matches_float64(
    plan_model: CompiledModel, weights: AttentionWeights, batch: int, seq: int
) -> None:
    x = inputs(batch, seq)
    out = plan_model({"X": x})["out"]
    assert out.shape == (batch, seq, 64) and out.dtype == np.float32
    assert relative_error(out, weights.reference(x)) <= 1e-5


@pytest.mark.parametrize("batch,seq", SHAPES)
def test_matches_onnxruntime(
    plan_model: CompiledModel,
    onnxruntime_session: ort.InferenceSession,
    batch: int,
    seq: int,
) -> None:
    x = inputs(batch, seq, seed=2)
    (want,) = onnxruntime_session.run(None, {"X": x})
    got = plan_model({"X": x})["out"]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("engine", ["plan", "interpreter"])
@pytest.mark.parametrize("batch,seq", [(1, 1), (2, 64), (3, 100)])
def test_engines_in_debug_mode(
    final_module: ModuleOp,
    signature: Signature,
    weights: AttentionWeights,
    engine: str,
    batch: int,
    seq: int,
) -> None:
    """The xDSL interpreter and the plan agree with float64, with every check on."""
    model = CompiledModel(
        final_module,
        signature,
        weights.constants_blob(),
        CpuRuntime(debug=True),
        engine=engine,  # type: ignore[arg-type]
    )
    x = inputs(batch, seq, seed=3)
    for _ in range(2):  # the second call reuses (poisoned) pool memory
        out = model({"X": x})["out"]
        assert relative_error(out, weights.reference(x)) <= 1e-5


@pytest.mark.parametrize("engine", ["plan", "interpreter"])
@pytest.mark.parametrize("batch,seq", [(0, 4), (2, 0)])
def test_empty_dims_match_onnxruntime(
    final_module: ModuleOp,
    signature: Signature,
    weights: AttentionWeights,
    onnxruntime_session: ort.InferenceSession,
    engine: str,
    batch: int,
    seq: int,
) -> None:
    """A zero-size dim runs every op on empty arrays, with every check on."""
    model = CompiledModel(
        final_module,
        signature,
        weights.constants_blob(),
        CpuRuntime(debug=True),
        engine=engine,  # type: ignore[arg-type]
    )
    x = inputs(batch, seq)
    (want,) = onnxruntime_session.run(None, {"X": x})
    got = model({"X": x})["out"]
    assert got.shape == want.shape == (batch, seq, 64)
    np.testing.assert_array_equal(got, want)


def test_non_contiguous_input(
    plan_model: CompiledModel, weights: AttentionWeights
) -> None:
    """The input argument has a fully dynamic strided layout: any view works."""
    base = inputs(7, 2, seed=4).transpose(1, 0, 2)
    assert not base.flags.c_contiguous
    out = plan_model({"X": base})["out"]
    assert relative_error(out, weights.reference(base)) <= 1e-5


def test_repeated_calls_are_independent(plan_model: CompiledModel) -> None:
    a, b = inputs(2, 9, seed=5), inputs(2, 9, seed=6)
    first = plan_model({"X": a})["out"]
    plan_model({"X": b})
    np.testing.assert_array_equal(first, plan_model({"X": a})["out"])


def test_other_weights(final_module: ModuleOp, signature: Signature) -> None:
    weights = AttentionWeights.random(42)
    model = CompiledModel(final_module, signature, weights.constants_blob())
    x = inputs(2, 5)
    assert relative_error(model({"X": x})["out"], weights.reference(x)) <= 1e-5


def test_scaled_softmax_is_fused_in_the_ir_that_runs(
    final_module: ModuleOp, signature: Signature, weights: AttentionWeights
) -> None:
    """The seed's `mul` by 0.125 becomes the scale operand of the softmax that
    alone reads it, in the module the model runs: one op less, and bit for bit
    the result of the two ops run one after the other."""
    blob = weights.constants_blob()
    fused = CompiledModel(final_module, signature, blob, fuse_attention=False)
    separate = CompiledModel(final_module, signature, blob, fuse=False)
    assert separate.module is final_module

    def ops(module: ModuleOp) -> list[str]:
        return [op.name for op in module.walk() if op.name.startswith("hip.miopen")]

    assert ops(fused.module).count("hip.miopen.mul") == 0
    assert ops(separate.module).count("hip.miopen.mul") == 1
    (softmax,) = [op for op in fused.module.walk() if op.name == "hip.miopen.softmax"]
    assert len(softmax.operands) == 4  # ctx, source, scale, out
    for batch, seq in ((1, 1), (2, 64), (3, 100), (2, 700)):
        x = inputs(batch, seq, seed=3)
        np.testing.assert_array_equal(fused({"X": x})["out"], separate({"X": x})["out"])
