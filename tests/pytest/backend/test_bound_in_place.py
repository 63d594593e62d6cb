"""Bound plans that read the caller's inputs and write fresh outputs in place
(inplace.py): the same values as copying (ONNX Runtime's, the numpy
reference's), outputs the caller keeps are never written again, inputs the
caller changes are read as they are now; and a forked child runs a model its
parent bound."""

from __future__ import annotations

import multiprocessing
import time
import weakref
from collections.abc import Callable
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import xhip
from tests.pytest.backend.test_bound_plans import (
    FIXTURE_NAMES,
    VISION,
    _fixture_feeds,  # pyright: ignore[reportPrivateUsage]
)
from tests.pytest.backend.test_real_exports import FIXTURES
from tests.pytest.conftest import REPO
from xhip.backend.cpu import CpuRuntime
from xhip.backend.reference import AttentionWeights
from xhip.backend.session import CompiledModel

ATTENTION = REPO / "examples" / "attention.onnx"


def _model(path: Path | bytes, min_bytes: int = 0, threads: int = 2) -> CompiledModel:
    ir = xhip.compile_to_ir(
        onnx.load_from_string(path) if isinstance(path, bytes) else path
    )
    model = CompiledModel(
        ir.module, ir.signature, ir.constants, CpuRuntime(threads=threads)
    )
    model.in_place_min_bytes = min_bytes
    return model


def _x(batch: int, seq: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.standard_normal((batch, seq, 64)).astype(np.float32)


def _in_place(model: CompiledModel) -> bool:
    return any(
        plan is not None and plan.inplace is not None
        for plan in model._bound.values()  # pyright: ignore[reportPrivateUsage]
    )


def test_attention_in_place_matches_onnxruntime_and_keeps_outputs() -> None:
    model = _model(ATTENTION)
    reference = ort.InferenceSession(str(ATTENTION), providers=["CPUExecutionProvider"])
    x = _x(8, 128)
    first = model({"X": x})["out"]  # binds
    assert _in_place(model)
    kept = first.copy()
    results = []
    for seed in range(1, 4):
        x[...] = _x(8, 128, seed)  # the caller changes its array in place
        out = model({"X": x})["out"]
        want = np.asarray(reference.run(None, {"X": x})[0])
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-5)
        assert not np.shares_memory(out, x)
        results.append((out, out.copy()))
    np.testing.assert_array_equal(first, kept)  # never written again
    for out, copy in results:
        np.testing.assert_array_equal(out, copy)
    assert len({id(out) for out, _ in results}) == len(results)


def _through(call: weakref.ref[Callable[[], object]]) -> None:
    target = call()
    assert target is not None
    target()


def test_a_buffer_held_out_of_sight_keeps_the_copies() -> None:
    """A call reaching the input's buffer where the walk cannot see (here
    through a weak reference; a raw address alike) fails the poisoned run."""
    model = _model(ATTENTION)
    x = _x(8, 128)
    expected = model({"X": x})
    (plan,) = model._bound.values()  # pyright: ignore[reportPrivateUsage]
    assert plan is not None and plan.inplace is not None
    outs = list(plan.results)
    check = model._in_place  # pyright: ignore[reportPrivateUsage]
    assert check(plan, outs, [x], expected) is not None
    hidden = plan.calls[0]
    plan.calls = (partial(_through, weakref.ref(hidden)), *plan.calls[1:])
    assert check(plan, outs, [x], expected) is None


def test_unsuitable_inputs_are_copied() -> None:
    model = _model(ATTENTION)
    x = _x(4, 64)
    want = model({"X": x})["out"]
    assert _in_place(model)
    wide = np.repeat(x, 2, axis=2)[:, :, ::2]  # not contiguous
    np.testing.assert_array_equal(model({"X": wide})["out"], want)
    frozen = x.copy()
    frozen.flags.writeable = False
    np.testing.assert_array_equal(model({"X": frozen})["out"], want)
    np.testing.assert_array_equal(model({"X": x})["out"], want)


def test_small_calls_still_copy() -> None:
    model = _model(ATTENTION, min_bytes=16384)
    model({"X": _x(1, 1)})
    assert not _in_place(model)


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixtures_in_place_match_onnxruntime(name: str) -> None:
    """Every fixture with every buffer in place that can be (the others kept
    copying, where the walk or the poisoned run says so): ORT's values, and
    the same bits as copying."""
    path = FIXTURES / f"{name}.onnx"
    proto = onnx.load(str(path))
    model, copying = _model(path), _model(path, min_bytes=1 << 62)
    reference = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    sizes = [(2, 7), (2, 7), (1, 9)]
    if name.split(".")[0] in VISION:
        sizes = [(1, 32), (1, 32)]
    for seed, (batch, seq) in enumerate(sizes):
        feeds = _fixture_feeds(proto, name, batch, seq + seed % 2)
        held = {key: value.copy() for key, value in feeds.items()}
        got, plain = model(feeds), copying(feeds)
        for key, value in feeds.items():  # the caller's inputs, untouched
            np.testing.assert_array_equal(value, held[key], err_msg=key)
        for (out, ours), theirs in zip(
            got.items(), reference.run(None, feeds), strict=True
        ):
            np.testing.assert_array_equal(ours, plain[out], err_msg=out)
            np.testing.assert_allclose(
                ours, np.asarray(theirs), rtol=1e-4, atol=1e-5, err_msg=out
            )
    assert _in_place(model), "no fixture buffer read or written in place"


def _child(model: CompiledModel, x: np.ndarray, results: Connection) -> None:
    results.send(model({"X": x})["out"])


def test_a_forked_child_runs_a_model_its_parent_bound() -> None:
    """GNU OpenMP aborts a forked child that launches the parent's pool: the
    fork hook drops the bound plans, which the child binds again."""
    weights = AttentionWeights.random(0)
    model = _model(weights.onnx_model(), threads=2)
    x = _x(8, 128)
    model({"X": x})
    model({"X": x})  # bound, and its threads launched, in the parent
    assert model.bound_plans == 1
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    y = _x(8, 128, seed=5)
    child = context.Process(target=_child, args=(model, y, sender))
    child.start()
    deadline = time.monotonic() + 120
    while not receiver.poll(0.1) and child.is_alive() and time.monotonic() < deadline:
        pass
    assert receiver.poll(), f"the child ended with exit code {child.exitcode}"
    out = receiver.recv()
    child.join(timeout=60)
    assert child.exitcode == 0
    np.testing.assert_allclose(out, weights.reference(y), rtol=1e-4, atol=1e-5)
    assert model.bound_plans == 1  # the parent keeps its own
    np.testing.assert_allclose(
        model({"X": y})["out"], weights.reference(y), rtol=1e-4, atol=1e-5
    )
