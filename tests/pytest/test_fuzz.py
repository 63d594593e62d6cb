"""The differential fuzzer's fixed seeds, and the failures it found, as tests."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, defs, helper, numpy_helper

import xhip
from xhip.backend.runtime import NotImplementedOnDevice
from xhip.backend.session import CompiledModel
from xhip.testing.emulator import EmulatorUnavailable
from xhip.testing.fuzz import (
    GENERATORS,
    OPSET,
    OPSETS,
    check,
    generate,
    make_runtime,
    unfuzzed_ops,
)

SEEDS = range(200)

EMULATED = ["cuda-emulated", "hip-emulated"]

KNOWN_REFUSALS: dict[int, str] = {}
"""Fixed seeds xhip refuses ("cannot infer the shape"), each with the bug
the fuzzer found (docs/fuzzing.md): they must still refuse, so that the fix
shows here and the seed comes off this list."""


def _check_fixed(seeds: Iterable[int], runtime: str = "cpu") -> None:
    """Every seed matches ONNX Runtime, but a `KNOWN_REFUSALS` one refuses."""
    bad: list[str] = []
    for seed in seeds:
        r = check(seed, runtime)
        known = seed in KNOWN_REFUSALS
        if known and (r.outcome, "cannot infer the shape" in r.detail) != (
            "refused",
            True,
        ):
            bad.append(f"seed {seed}: {r.outcome} (a known refusal: {r.detail})")
        elif not known and r.outcome != "match":
            bad.append(f"seed {seed}: {r.outcome}: {r.detail}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("chunk", range(10))
def test_fixed_seeds_match_onnxruntime(chunk: int) -> None:
    """200 seeds in 10 chunks: no wrong answer, no unexpected exception.

    A refusal is allowed (an unsupported combination says so in one line),
    but the fixed seeds are chosen among what xhip supports: none refuses
    but the `KNOWN_REFUSALS`.
    """
    _check_fixed(seed for seed in SEEDS if seed % 10 == chunk)


@pytest.fixture(params=EMULATED)
def emulated_runtime(request: pytest.FixtureRequest) -> str:
    """A GPU runtime on the emulator; a skip only where no host compiler exists."""
    try:
        make_runtime(request.param).close()
    except EmulatorUnavailable as e:
        pytest.skip(str(e))
    return request.param


@pytest.mark.emulator
def test_fixed_seeds_match_onnxruntime_on_emulated_gpus(emulated_runtime: str) -> None:
    """40 seeds on each GPU runtime, on the CPU stand-in of its device: the
    same comparison with ONNX Runtime. A runtime's refusal (`unsupported`) is
    not a match: these seeds draw only what the GPU kernels run."""
    _check_fixed(range(40), emulated_runtime)


def test_a_runtime_refusal_is_unsupported_not_a_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A GPU runtime without a kernel for an op in some type refuses in one
    line: counted apart from the compiler's refusals, never as a match."""
    refusal = NotImplementedOnDevice("cuda")

    def refuse(self: CompiledModel, feeds: object) -> object:
        raise refusal

    monkeypatch.setattr(CompiledModel, "__call__", refuse)
    result = check(0)
    assert (result.outcome, result.detail) == ("unsupported", str(refusal))


def test_every_op_the_importer_reads_is_fuzzed() -> None:
    assert unfuzzed_ops() == []


def _name(node: onnx.NodeProto) -> str:
    """A node's op as `GENERATORS` names it (`com.microsoft.Gelu`)."""
    return f"{node.domain}.{node.op_type}" if node.domain else node.op_type


def test_graphs_are_reproducible_and_varied() -> None:
    a, b = generate(7), generate(7)
    assert a.model.SerializeToString() == b.model.SerializeToString()
    assert all(np.array_equal(a.feeds[k], b.feeds[k]) for k in a.feeds)
    drawn = {_name(n) for s in range(800) for n in generate(s).model.graph.node}
    assert drawn >= set(GENERATORS) - {"Identity"}


def test_regression_sequence_of_a_1d_value_joined_again() -> None:
    """Seed 244467 (32 ops) split a 1-D value into 0-D pieces to join them
    along an existing axis, which they lack: the generator raised. Such
    pieces keep their axis now, and the graph matches ONNX Runtime."""
    assert check(244467, "cpu", 32).outcome == "match"


def test_regression_a_sized_compress_reaches_a_depthwise_conv() -> None:
    """Seed 255381 (16 ops): Compress by a constant condition, then
    RotaryEmbedding and Transpose, then CausalConvWithState, whose channels
    must be static. Our rule sized the Compress, but neither op after it
    refines: the importer now states the sized value and onnx's next round
    carries it."""
    assert check(255381, "cpu", 16).outcome == "match"


def test_opsets_are_those_the_ops_came_in() -> None:
    """Each newer op's declared opset is the one onnx's schema gives it: the
    one it came in, or the first one that is not deprecated (GroupNormalization:
    18's is, 21 is the first that is not)."""
    assert OPSETS
    for op, opset in OPSETS.items():
        assert opset > OPSET
        assert defs.has(op, opset), op
        assert not defs.get_schema(op, opset).deprecated, op
        assert defs.get_schema(op, opset).since_version == opset, op
        assert (
            not defs.has(op, opset - 1) or defs.get_schema(op, opset - 1).deprecated
        ), op


def test_a_graph_imports_the_opsets_its_ops_need() -> None:
    """ai.onnx at the largest opset its ops need (the base one, with IR 9,
    where it draws no newer op), com.microsoft version 1 where it draws a
    contrib op."""
    seen: set[int] = set()
    for seed in range(300):
        model = generate(seed).model
        imports = {o.domain: o.version for o in model.opset_import}
        ops = {_name(n) for n in model.graph.node}
        want = max([OPSETS.get(op, OPSET) for op in ops] + [OPSET])
        assert imports.pop("") == want
        seen.add(want)
        contrib = {n.domain for n in model.graph.node} - {""}
        assert imports == dict.fromkeys(contrib, 1)
        if want == OPSET:
            assert model.ir_version == 9
    assert seen > {OPSET}


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
    want = np.asarray(session.run(None, feeds)[0])
    np.testing.assert_allclose(xhip.compile(model)(feeds)["y"], want, rtol=1e-6)


@pytest.mark.parametrize("axis", [0, -1])
def test_regression_softmax_of_one_entry_is_exactly_one(axis: int) -> None:
    """Found by seed 300: Floor(Softmax(x)) over an axis of length 1 gave 0,
    as the unshifted CPU softmax multiplied by a rounded reciprocal of the
    row sum (e * (1 / e) < 1); ORT's shifted form gives exactly 1."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["rows", "n"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["rows", "n"])
    graph = helper.make_graph(
        [
            helper.make_node("Softmax", ["x"], ["s"], axis=axis),
            helper.make_node("Floor", ["s"], ["y"]),
        ],
        "g",
        [x],
        [y],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    shape = (1, 300) if axis == 0 else (300, 1)
    feeds = {"x": np.random.default_rng(0).uniform(-3, 3, shape).astype(np.float32)}
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    want = np.asarray(session.run(None, feeds)[0])
    assert np.all(want == 1)
    np.testing.assert_array_equal(xhip.compile(model)(feeds)["y"], want)


@pytest.mark.parametrize(
    "op,attributes",
    [
        ("ArgMax", {}),
        ("ArgMax", {"select_last_index": 1}),
        ("ArgMin", {}),
        ("ArgMin", {"select_last_index": 1}),
    ],
)
@pytest.mark.parametrize("axis", [0, 1])
def test_regression_arg_reductions_skip_nan_as_onnxruntime_does(
    op: str, attributes: dict[str, int], axis: int
) -> None:
    """Found by seed 3649 (ArgMin): numpy's argmax takes the first NaN, ORT's
    scan never takes a NaN but keeps a leading one. Every arrangement of NaN,
    ties and infinities in rows of four."""
    values = np.array([np.nan, 1.0, 2.0, -np.inf, np.inf], np.float32)
    rows = np.array(list(itertools.product(values, repeat=4)), np.float32)
    x = rows if axis == 1 else np.ascontiguousarray(rows.T)
    out = "y"
    node = helper.make_node(op, ["x"], [out], axis=axis, keepdims=0)
    node.attribute.extend(helper.make_attribute(k, v) for k, v in attributes.items())
    nodes = [node]
    if op == "Hardmax":
        y = helper.make_tensor_value_info(out, TensorProto.FLOAT, ["a", "b"])
    else:
        y = helper.make_tensor_value_info(
            out, TensorProto.INT64, ["b" if axis == 0 else "a"]
        )
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["a", "b"])],
        [y],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    (want,) = session.run(None, {"x": x})
    np.testing.assert_array_equal(xhip.compile(model)({"x": x})[out], want)
