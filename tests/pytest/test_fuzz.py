"""The differential fuzzer's fixed seeds, and the failures it found, as tests."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.testing.fuzz import GENERATORS, check, generate, unfuzzed_ops

SEEDS = range(200)


@pytest.mark.parametrize("chunk", range(10))
def test_fixed_seeds_match_onnxruntime(chunk: int) -> None:
    """200 seeds in 10 chunks: no wrong answer, no unexpected exception.

    A refusal is allowed (an unsupported combination says so in one line),
    but the fixed seeds are chosen among what xhip supports: none refuses.
    """
    results = [check(seed) for seed in SEEDS if seed % 10 == chunk]
    bad = [r for r in results if r.outcome != "match"]
    assert not bad, "\n".join(f"seed {r.seed}: {r.outcome}: {r.detail}" for r in bad)


def test_every_op_the_importer_reads_is_fuzzed() -> None:
    assert unfuzzed_ops() == []


def test_graphs_are_reproducible_and_varied() -> None:
    a, b = generate(7), generate(7)
    assert a.model.SerializeToString() == b.model.SerializeToString()
    assert all(np.array_equal(a.feeds[k], b.feeds[k]) for k in a.feeds)
    drawn = {n.op_type for s in range(200) for n in generate(s).model.graph.node}
    assert drawn >= set(GENERATORS) - {"Identity"}


def test_regression_scaled_softmax_on_a_moved_axis() -> None:
    """Found by seed 125: a Mul by a 1x1x1 constant folded into a Softmax over
    axis 0 broadcast the scale against the moved rows (cpu.softmax)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", 1])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", "seq", 1])
    scale = numpy_helper.from_array(np.full((1, 1, 1), 0.7, np.float32), "s")
    graph = helper.make_graph(
        [
            helper.make_node("Mul", ["s", "x"], ["p"]),
            helper.make_node("Softmax", ["p"], ["y"], axis=-3),
        ],
        "g",
        [x],
        [y],
        [scale],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    feeds = {
        "x": np.random.default_rng(0).standard_normal((2, 5, 1)).astype(np.float32)
    }
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    (want,) = session.run(None, feeds)
    np.testing.assert_allclose(xhip.compile(model)(feeds)["y"], want, rtol=1e-6)
