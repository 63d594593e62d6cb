"""Bound plans (`Plan.bind`, `CompiledModel` per input shapes): a replay gives
the unbound plan's outputs bit for bit, both match ONNX Runtime, a replay does
no size or view work, and the cache of bound plans is bounded."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import xhip
import xhip.api
from tests.pytest.backend.test_real_exports import FIXTURES, _inputs
from tests.pytest.conftest import REPO
from xhip.backend import build_env, build_std, cpu_host, runtime, session
from xhip.backend.cpu import CpuRuntime
from xhip.backend.session import CompiledModel, InputError
from xhip.testing import calls_by_function

ATTENTION = REPO / "examples" / "attention.onnx"
SHAPES = [(1, 1), (2, 5), (3, 17), (1, 1)]
"""(batch, seq) of the attention example; the last one comes back to a shape
already bound."""


_IR: dict[Path, xhip.api.CompiledIR] = {}


def _compile(path: Path, bound: int = 8, debug: bool = False) -> CompiledModel:
    """`path` compiled (once per test run) for the CPU runtime, keeping
    `bound` bound plans."""
    if path not in _IR:
        _IR[path] = xhip.compile_to_ir(path)
    ir = _IR[path]
    return CompiledModel(
        ir.module,
        ir.signature,
        ir.constants,
        CpuRuntime(debug=debug),
        max_bound_plans=bound,
    )


def _session(path: Path) -> ort.InferenceSession:
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def _x(batch: int, seq: int) -> np.ndarray:
    rng = np.random.default_rng(batch * 100 + seq)
    return rng.standard_normal((batch, seq, 64)).astype(np.float32)


def test_attention_replay_is_bit_identical_and_matches_onnxruntime() -> None:
    bound, unbound = _compile(ATTENTION), _compile(ATTENTION, bound=0)
    reference = _session(ATTENTION)
    for batch, seq in SHAPES:
        x = _x(batch, seq)
        first = bound({"X": x})["out"]  # binds (or replays, for the last)
        replay = bound({"X": x})["out"]
        plain = unbound({"X": x})["out"]
        np.testing.assert_array_equal(first, plain)
        np.testing.assert_array_equal(replay, plain)
        want = np.asarray(reference.run(None, {"X": x})[0])
        np.testing.assert_allclose(replay, want, rtol=1e-4, atol=1e-5)
    assert bound.bound_plans == 3
    assert unbound.bound_plans == 0


TRANSFORMERS = ["bert", "gpt2", "gpt2_past", "llama"]
VISION = ["mobilenet_v2_w025", "resnet18_w0125"]
FIXTURE_NAMES = [
    f"{name}.{exporter}"
    for name in TRANSFORMERS + VISION
    for exporter in ("torchscript", "dynamo")
]


def _fixture_feeds(
    model: onnx.ModelProto, name: str, batch: int, seq: int
) -> dict[str, np.ndarray]:
    """A transformer's tokens and mask (`test_real_exports._inputs`); a
    vision model's image, `seq` its height and `seq + 3` its width."""
    if name.split(".")[0] in VISION:
        rng = np.random.default_rng(batch * 100 + seq)
        image = rng.standard_normal((batch, 3, seq, seq + 3)).astype(np.float32)
        return {"input": image}
    return _inputs(model, batch, seq)


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_replay_is_bit_identical_and_matches_onnxruntime(name: str) -> None:
    """Every family the fixtures run (fused elementwise, layer and RMS norms,
    GEMM with bias, reductions, gathers, concat, slices, expands, convs,
    pools) gives the same bits bound and unbound, and ONNX Runtime's values."""
    path = FIXTURES / f"{name}.onnx"
    model = onnx.load(str(path))
    bound, unbound = _compile(path), _compile(path, bound=0)
    reference = _session(path)
    sizes = [(1, 1), (2, 7), (1, 1), (3, 5), (2, 7)]
    if name.split(".")[0] in VISION:
        sizes = [(1, 32), (1, 41), (1, 32)]  # batch 1: the exports fix it
    for batch, seq in sizes:
        feeds = _fixture_feeds(model, name, batch, seq)
        once, twice = bound(feeds), bound(feeds)
        plain = unbound(feeds)
        want = reference.run(None, feeds)
        for (out, ours), again, theirs in zip(
            plain.items(), twice.values(), want, strict=True
        ):
            np.testing.assert_array_equal(once[out], ours, err_msg=out)
            np.testing.assert_array_equal(again, ours, err_msg=out)
            np.testing.assert_allclose(ours, np.asarray(theirs), rtol=1e-4, atol=1e-5)
    assert bound.bound_plans == len(set(sizes))


def test_replay_does_no_size_view_or_argument_work() -> None:
    model = _compile(ATTENTION)
    x = _x(2, 5)
    model({"X": x})
    replay = calls_by_function(lambda: model({"X": x}))
    machinery = {runtime.__file__, build_env.__file__, build_std.__file__}
    machinery.add(sys.modules["xhip.backend.build_hip"].__file__ or "")
    machinery.add(sys.modules["xhip.transforms.index_arith"].__file__ or "")
    allowed = {"synchronize"}  # the runtime's wait for queued work, a no-op here
    assert not {(f, n) for f, n in replay if f in machinery and n not in allowed}
    names = {n for _, n in replay}
    for work in ("_allocate", "upload", "bind", "_check_input", "_formula"):
        assert work not in names, work
    # The numpy views are made: only the input's write and the output's
    # download look theirs up.
    assert replay[cpu_host.__file__, "array"] == 2
    # The first call with new shapes does that work, once.
    binding = calls_by_function(lambda: model({"X": _x(3, 4)}))
    assert (runtime.__file__, "view") in binding
    assert (cpu_host.__file__, "array") in binding
    assert (session.__file__, "_check_input") in binding


UNBOUND_FORMS = {
    "fused_elementwise",
    "layer_norm",
    "rms_norm",
    "gemm",
    "reduce",
    "reduce_array",
    "gather",
    "gather_elements",
    "gather_nd",
    "concat",
    "slice",
    "slice_view",
    "tile",
    "expand",
    "conv",
    "binary",
    "unary",
    "ternary",
    "softmax",
    "range",
    "from_elements",
    "gathered_dims",
}
"""The runtime methods whose bodies do the per-operand work (views, sizes,
types) before their numpy calls; a replay runs their bound forms only."""


@pytest.mark.parametrize("name", ["llama.dynamo", "bert.torchscript"])
def test_fixture_replay_does_no_per_operand_work(name: str) -> None:
    path = FIXTURES / f"{name}.onnx"
    model = _compile(path)
    feeds = _inputs(onnx.load(str(path)), 2, 7)
    model(feeds)
    replay = calls_by_function(lambda: model(feeds))
    machinery = {runtime.__file__, build_env.__file__, build_std.__file__}
    machinery.add(sys.modules["xhip.backend.build_hip"].__file__ or "")
    machinery.add(sys.modules["xhip.transforms.index_arith"].__file__ or "")
    machinery.add(sys.modules["xhip.backend.checks"].__file__ or "")
    assert not {(f, n) for f, n in replay if f in machinery and n != "synchronize"}
    names = {n for _, n in replay}
    assert not names & UNBOUND_FORMS, names & UNBOUND_FORMS
    assert not {n for n in names if n.startswith(("bind", "_bind", "_split"))}
    # The numpy views are made: only the inputs' writes and the outputs'
    # downloads look theirs up.
    outputs = len(model.signature.outputs)
    assert replay[cpu_host.__file__, "array"] == len(feeds) + outputs


def test_the_cache_is_bounded_and_drops_memory() -> None:
    model = _compile(ATTENTION, bound=2)
    in_use = model.runtime.allocations.in_use
    outs = {seq: model({"X": _x(1, seq)})["out"] for seq in range(1, 6)}
    assert model.bound_plans == 2
    held = model.runtime.allocations.in_use - in_use
    assert 0 < held
    for seq in (4, 5):  # still bound: replays give the same outputs
        np.testing.assert_array_equal(model({"X": _x(1, seq)})["out"], outs[seq])
    assert model.runtime.allocations.in_use - in_use == held
    model.close()
    assert model.runtime.allocations.in_use == in_use


def test_outputs_do_not_alias_the_bound_plans_memory() -> None:
    model = _compile(ATTENTION)
    a, b = _x(2, 5), _x(2, 5)[::-1].copy()
    first = model({"X": a})["out"]
    kept = first.copy()
    second = model({"X": b})["out"]
    np.testing.assert_array_equal(first, kept)
    assert not np.shares_memory(first, second)


def test_bad_inputs_after_binding_still_say_what_is_wrong() -> None:
    model = _compile(ATTENTION)
    x = _x(1, 3)
    model({"X": x})
    with pytest.raises(InputError, match="dtype float64"):
        model({"X": x.astype(np.float64)})
    with pytest.raises(InputError, match="unknown input 'Y'"):
        model({"X": x, "Y": x})
    with pytest.raises(InputError, match="missing input"):
        model({})
    # A non-contiguous input of a bound shape replays on its values.
    wide = np.repeat(x, 2, axis=2)[:, :, ::2]
    np.testing.assert_array_equal(model({"X": wide})["out"], model({"X": x})["out"])


def test_debug_mode_runs_unbound() -> None:
    model = _compile(ATTENTION, debug=True)
    model({"X": _x(1, 2)})
    model({"X": _x(1, 2)})
    assert model.bound_plans == 0
