"""onnx's own backend node tests, run through `XhipBackend` on the CPU.

The cases are made here, at collection, by onnx's generators in
`onnx.backend.test.case.node` (one module per op: importing it runs its
`export` functions, which build each model with its inputs and expected
outputs), not read from onnx's data files. We import the modules of the ops
the importer reads; `collect_testcases()` would import all of them, which
costs seconds of reference computations per xdist worker, and returns the same
list. Outputs are compared the way onnx's runner does, at each case's
tolerances (rtol 1e-3, atol 1e-7).

Left out: cases with a node the importer lacks (function expansions such as
`test_softmax_*_expanded`) and cases the importer refuses for their element
types or non-tensor values (`test_left_out_cases_are_refused_for_their_types`
checks that no other refusal hides there). Every case that runs and fails is a
strict xfail naming its cause. Reshape, Squeeze and Unsqueeze cases also run
with their shape or axes operand as an initializer, as exporters write it.
"""

from __future__ import annotations

import gc
import importlib
import re
import warnings
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.backend.test.case import node as node_cases
from onnx.backend.test.case.test_case import TestCase
from onnx.backend.test.runner import Runner
from xdsl.utils.exceptions import PassFailedException

from xhip.frontend import OnnxImportError, import_model
from xhip.frontend.onnx_importer import contrib_ops, supported_ops
from xhip.onnx_backend import XhipBackend, XhipBackendRep

NOT_CONVERTED: set[str] = set()
"""Ops the importer reads but `convert-onnx-to-hip` has no pattern for."""

CONSTANT_OPERAND: dict[str, int | tuple[int, ...]] = {
    "Reshape": 1,
    "Squeeze": 1,
    "Unsqueeze": 1,
    **{
        f"Reduce{kind}": 1
        for kind in ("Mean", "Sum", "Max", "Min", "Prod", "L1", "L2", "LogSumExp")
    },
    "ReduceSumSquare": 1,
    "ReduceLogSum": 1,
    "Trilu": 1,
    "CumSum": 1,
    "CumProd": 1,
    "OneHot": 1,
    "Pad": (1, 3),
    "Resize": (1, 2, 3),
    "Slice": (1, 2, 3, 4),
    "Split": 1,
    "Tile": 1,
    "Expand": 1,
    "TopK": 1,
    "Col2Im": (1, 2),
    "CenterCropPad": 1,
    "AffineGrid": 1,
    "MaxUnpool": 2,
}
"""Operands `convert-onnx-to-hip` needs as constants: a view's shape is static.
A tuple names several operands (Pad's pads and axes)."""


READ_BACK: dict[str, tuple[int, ...]] = {
    "Reshape": (1,),
    "Squeeze": (1,),
    "Unsqueeze": (1,),
    "Pad": (1, 3),
    "Slice": (1, 2),
    "Split": (1,),
    "Tile": (1,),
    "Expand": (1,),
    "Trilu": (1,),
    "TopK": (1,),
    "CenterCropPad": (1,),
}
"""The `CONSTANT_OPERAND`s that may also be data known only at run time: the
conversion reads them back (`hip.readback`), so onnx's own case runs too.
The others that are an op's `STRUCTURE_OPERANDS` (Reduce axes, Resize scales,
sizes and roi, CumSum's axis, Slice's axes and steps, a float OneHot depth or
Range) run too: `xhip.compile` specializes on their values (`_specialized`)."""


def _specialized(op_type: str) -> tuple[int, ...]:
    """The positions of the op's `STRUCTURE_OPERANDS`: as data, `xhip.compile`
    specializes on their values (docs/shape-values.md, "Guards")."""
    op = supported_ops().get(op_type)
    if op is None:
        return ()
    names = [name for name, _ in op.get_irdl_definition().operands]
    return tuple(i for i, name in enumerate(names) if name in op.STRUCTURE_OPERANDS)


def _positions(op_type: str) -> tuple[int, ...]:
    position = CONSTANT_OPERAND[op_type]
    return position if isinstance(position, tuple) else (position,)


ML_OPS = {op for domain, op in contrib_ops() if domain == "ai.onnx.ml"}
"""The `ai.onnx.ml` ops the importer reads; onnx keeps their cases in
`ai_onnx_ml`."""

UPGRADED_OPS = ("Scatter", "Upsample")
"""Ops of old opsets that the importer reads through onnx's version converter
(as ScatterElements and Resize)."""

KNOWN_FAILURES = {
    "test_training_dropout": (
        "Dropout in training mode: training_mode (and ratio) come as graph "
        "inputs, so whether and how much to drop is known only at run time, and "
        "the expected outputs of a non-zero ratio come from numpy's random "
        "generator; xhip converts Dropout in inference mode only (a constant "
        "false training_mode, or a constant 0 ratio)"
    ),
    **{
        f"test_{op}_{source}_to_{target}": (
            "Cast from a float to int4/uint4 is refused: ONNX Runtime (opset 21; "
            "it runs no opset-28 case) rounds half away from zero and wraps "
            "(9.7 is -6), onnx's reference truncates (-7); integers cast to "
            "int4 (wrapping) and float8 casts run"
        )
        for op in ("cast", "castlike")
        for source in ("FLOAT", "FLOAT16")
        for target in ("INT4", "UINT4")
    },
}
"""Cases that fail for a reason of their own, by name prefix."""

DIFFERENT_OUTPUTS = {
    f"test_resize_downsample_scales_{mode}_align_corners{variant}": (
        "onnx's reference maps align_corners with `scale * in` (2.4 here) where "
        "the spec and ONNX Runtime take the output size (2): xhip follows the "
        "spec, and ONNX Runtime fails this case the same way"
    )
    for mode in ("linear", "cubic")
    for variant in ("", "_scales_initializer")
}
"""Cases whose expected outputs xhip does not give, on purpose: strict xfails
for a mismatch (an AssertionError), by full name."""
DIFFERENT_OUTPUTS.update(
    dict.fromkeys(
        (
            "test_maxunpool_export_with_output_shape",
            "test_maxunpool_export_with_output_shape_output_shape_initializer",
        ),
        "onnx's reference puts each index, computed for the 4x4 unpooled shape, at "
        "its 2-D position in the larger 5x5 output_shape; the spec's indices are "
        "flat ones into the output, as ONNX Runtime reads them: xhip gives ONNX "
        "Runtime's output bit for bit, and ONNX Runtime fails this case the same way",
    )
)

RUN_FAILURES: dict[str, tuple[type[Exception] | tuple[type[Exception], ...], str]] = {
    "test_loop16_seq_none": (
        TypeError,
        "onnx's Runner.assert_similar_outputs cannot compare a sequence whose "
        "element is 0-D (it takes len() of it), so ONNX Runtime fails this case "
        "too; xhip's output equals the expected one element by element "
        "(tests/pytest/backend/test_sequence_models.py)",
    ),
}
"""Cases that compile and then fail when run, by full name: strict xfails
for that error. Wrong answers that are bugs to fix, listed until fixed."""


def _generate() -> list[TestCase]:
    """onnx's node cases for our ops, with fixed random data (the generators
    draw from numpy's global generator, whose state we put back)."""
    state = np.random.get_state()
    np.random.seed(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the generators' own overflow casts
            for op_type in (*supported_ops(), *UPGRADED_OPS):
                for module in _modules(op_type):
                    try:
                        importlib.import_module(f"{node_cases.__name__}.{module}")
                        break
                    except ModuleNotFoundError:
                        continue
            for op_type in sorted(ML_OPS):  # one order in every xdist worker
                for module in _modules(op_type):
                    try:
                        importlib.import_module(
                            f"{node_cases.__name__}.ai_onnx_ml.{module}"
                        )
                        break
                    except ModuleNotFoundError:
                        continue
    finally:
        np.random.set_state(state)
    ops = {*supported_ops(), *UPGRADED_OPS}
    return [
        case
        for case in node_cases._NodeTestCases  # pyright: ignore[reportPrivateUsage]
        if case.model is not None
        and all(
            (n.op_type in ops and not n.domain)
            or (n.domain == "ai.onnx.ml" and n.op_type in ML_OPS)
            for n in case.model.graph.node
        )
    ]


def _modules(op_type: str) -> list[str]:
    """Where onnx may keep an op's node cases: `reducemean`, but
    `reduce_log_sum_exp`, `rangeop`; ops whose cases live in another op's module (the
    comparisons in `less.py`, say) are found there."""
    snake = re.sub(r"(?<!^)(?=[A-Z][a-z])", "_", op_type).lower()
    lower = op_type.lower()
    return [lower, snake, f"{lower}_", f"{lower}op"]  # `not_`: a keyword; `rangeop`


def _constant_operands(model: onnx.ModelProto) -> list[str]:
    """The graph inputs that some node takes where `CONSTANT_OPERAND` says it
    needs a constant, in graph-input order."""
    wanted = {
        n.input[i]
        for n in model.graph.node
        if n.op_type in CONSTANT_OPERAND
        for i in _positions(n.op_type)
        if len(n.input) > i and n.input[i]
    }
    return [v.name for v in model.graph.input if v.name in wanted]


def _with_constant_operand(case: TestCase) -> TestCase | None:
    """`case` with the operands `CONSTANT_OPERAND` names as initializers, as
    exporters write them; onnx's case feeds them as graph inputs."""
    assert case.model is not None and case.data_sets is not None
    names = _constant_operands(case.model)
    if not names:
        return None
    graph_inputs = [v.name for v in case.model.graph.input]
    positions = [graph_inputs.index(name) for name in names]
    model = onnx.ModelProto()
    model.CopyFrom(case.model)
    for position in sorted(positions, reverse=True):
        del model.graph.input[position]
    ((inputs, outputs),) = case.data_sets
    for name, position in zip(names, positions, strict=True):
        constant = numpy_helper.from_array(_array(inputs[position]), name)
        model.graph.initializer.append(constant)
    rest = [x for i, x in enumerate(inputs) if i not in positions]
    return replace(
        case,
        name=f"{case.name}_{'_'.join(names)}_initializer",
        model=model,
        data_sets=[(rest, outputs)],
    )


def _array(value: np.ndarray | TensorProto) -> np.ndarray:
    return numpy_helper.to_array(value) if isinstance(value, TensorProto) else value


def _imports(case: TestCase) -> bool:
    assert case.model is not None
    return XhipBackend.is_compatible(case.model)


def _known_failure(case: TestCase, original: bool) -> str | None:
    assert case.model is not None
    ops = {n.op_type for n in case.model.graph.node}
    missing = sorted(ops & NOT_CONVERTED)
    if missing:
        return f"convert-onnx-to-hip has no pattern for onnx.{missing[0]}"
    names = set(_constant_operands(case.model))
    constant = sorted(
        n.op_type
        for n in case.model.graph.node
        if n.op_type in CONSTANT_OPERAND
        and any(
            n.input[i] in names
            for i in _positions(n.op_type)
            if i < len(n.input)
            and i not in READ_BACK.get(n.op_type, ())
            and i not in _specialized(n.op_type)
        )
    )
    if original and constant:
        return (
            f"convert-onnx-to-hip needs onnx.{constant[0]}'s operand "
            f"{CONSTANT_OPERAND[constant[0]]} as a constant (a static shape); onnx's "
            "case feeds it as a graph input (the _initializer variant runs it)"
        )
    return next(
        (why for name, why in KNOWN_FAILURES.items() if case.name.startswith(name)),
        None,
    )


def _params(cases: list[TestCase]) -> Iterator[Any]:
    for case in cases:
        variant = _with_constant_operand(case)
        for each, original in ((case, True), (variant, False)):
            if each is None or not _imports(each):
                continue
            reason = _known_failure(each, original)
            marks = () if reason is None else _xfail(reason)
            failure = RUN_FAILURES.get(each.name)
            if failure is not None and reason is None:
                marks = pytest.mark.xfail(
                    strict=True, reason=failure[1], raises=failure[0]
                )
            if each.name in DIFFERENT_OUTPUTS:
                marks = pytest.mark.xfail(
                    strict=True,
                    reason=DIFFERENT_OUTPUTS[each.name],
                    raises=AssertionError,
                )
            yield pytest.param(each, id=each.name, marks=marks)


def _xfail(reason: str) -> pytest.MarkDecorator:
    """Strict, and only for a pass's refusal: any other error still fails."""
    return pytest.mark.xfail(strict=True, reason=reason, raises=PassFailedException)


CASES = _generate()


@pytest.mark.parametrize("case", list(_params(CASES)))
def test_node(case: TestCase) -> None:
    assert case.model is not None and case.data_sets is not None
    rep = XhipBackend.prepare(case.model, "CPU")
    for inputs, outputs in case.data_sets:
        got = rep.run([_array(x) for x in inputs])
        Runner.assert_similar_outputs(
            [_array(x) for x in outputs], list(got), rtol=case.rtol, atol=case.atol
        )


UNTYPED_EXPANSIONS: dict[str, str] = {}
"""`_expanded` cases the importer refuses because neither onnx's shape
inference nor our rules (`shape_rules.py`, `control_flow_rules.py`) can give
a value of their function bodies a rank: an If whose branches differ in rank
on a condition that is data. The ops themselves run (their own cases pass)."""


def test_left_out_cases_are_refused_for_their_types() -> None:
    """Only element types and non-tensor values keep a case of our ops out,
    and shapes that depend on an operand fed as a graph input where the
    variant with it as an initializer imports (and runs); and the
    `UNTYPED_EXPANSIONS`."""
    refused = [case for case in CASES if not _imports(case)]
    assert refused
    for case in refused:
        variant = _with_constant_operand(case)
        if variant is not None and _imports(variant):
            continue
        assert case.model is not None
        with pytest.raises(OnnxImportError) as error:
            import_model(case.model)
        untyped = case.name.endswith("_expanded") and any(
            case.name.startswith(prefix) for prefix in UNTYPED_EXPANSIONS
        )
        reasons = ("unsupported element type", "is not a tensor")
        if untyped:
            reasons = (*reasons, "cannot infer the shape")
        assert any(reason in str(error.value) for reason in reasons), (
            f"{case.name}: {error.value}"
        )


def test_supports_device() -> None:
    assert XhipBackend.supports_device("CPU")
    assert not XhipBackend.supports_device("CPU:1")
    assert not XhipBackend.supports_device("TPU")


def _two_output_model() -> onnx.ModelProto:
    """Outputs declared in the opposite order to the nodes that make them."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    outputs = [
        helper.make_tensor_value_info(name, TensorProto.FLOAT, [2, 3])
        for name in ("doubled", "rectified")
    ]
    graph = helper.make_graph(
        [
            helper.make_node("Relu", ["x"], ["rectified"]),
            helper.make_node("Add", ["x", "x"], ["doubled"]),
        ],
        "two_outputs",
        [x],
        outputs,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])


def test_run_returns_graph_output_order() -> None:
    x = np.array([[-1, 2, -3], [4, -5, 6]], np.float32)
    rep = XhipBackend.prepare(_two_output_model())
    doubled, rectified = rep.run([x])
    np.testing.assert_array_equal(doubled, x + x)
    np.testing.assert_array_equal(rectified, np.maximum(x, 0))
    by_name: Any = rep.run({"x": x})
    np.testing.assert_array_equal(by_name["rectified"], rectified)
    np.testing.assert_array_equal(
        XhipBackend.run_model(_two_output_model(), x)[0], x + x
    )


def test_run_checks_the_input_count() -> None:
    rep = XhipBackend.prepare(_two_output_model())
    with pytest.raises(
        ValueError, match=r"got 2 inputs; the model takes x: float32\[2, 3\]"
    ):
        rep.run([np.zeros((2, 3), np.float32)] * 2)


def test_is_compatible_refuses_ops_the_importer_lacks() -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    graph = helper.make_graph(
        [helper.make_node("RandomUniformLike", ["x"], ["y"])], "random", [x], [y]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    assert not XhipBackend.is_compatible(model)
    assert XhipBackend.is_compatible(_two_output_model())
    with pytest.raises(
        OnnxImportError, match=r"unsupported ONNX ops at opset 13: RandomUniformLike"
    ):
        XhipBackend.prepare(model)


def test_run_node() -> None:
    node = helper.make_node("Gemm", ["a", "b"], ["c"], transB=1)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(4, 3)
    (c,) = XhipBackend.run_node(node, [a, b], opset_version=13)
    np.testing.assert_allclose(c, a @ b.T)


def test_a_dropped_rep_closes_its_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    rep = XhipBackend.prepare(_two_output_model())
    assert isinstance(rep, XhipBackendRep)  # tensors only: one compiled model
    closed: list[bool] = []
    monkeypatch.setattr(rep.model.runtime, "close", lambda: closed.append(True))
    del rep
    gc.collect()
    assert closed == [True]


def test_cast_and_mixed_type_pow_in_debug_mode() -> None:
    """Through all passes and the debug runtime (poisoned memory, checked
    views): Cast truncates toward zero, an int32 base with a float exponent
    computes in float and truncates back, as onnx's reference does."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    n = helper.make_tensor_value_info("n", TensorProto.INT32, [2, 3])
    outputs = [
        helper.make_tensor_value_info("i", TensorProto.INT64, [2, 3]),
        helper.make_tensor_value_info("p", TensorProto.INT32, [2, 3]),
    ]
    graph = helper.make_graph(
        [
            helper.make_node("Cast", ["x"], ["i"], to=TensorProto.INT64),
            helper.make_node("Pow", ["n", "x"], ["p"]),
        ],
        "cast_pow",
        [x, n],
        outputs,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)])
    xs = np.array([[-1.5, 0.5, 2.0], [2.7, 1.0, 0.5]], np.float32)
    ns = np.array([[2, 3, 4], [2, 5, 9]], np.int32)
    i, p = XhipBackend.prepare(model, debug=True).run([xs, ns])
    np.testing.assert_array_equal(i, np.array([[-1, 0, 2], [2, 1, 0]], np.int64))
    np.testing.assert_array_equal(p, np.power(ns, xs).astype(np.int32))
    assert p.dtype == np.int32 and p[1, 2] == 3


def test_concat_of_dynamic_inputs_in_debug_mode() -> None:
    """Through all passes (the pool sizes a sum of run-time dims) and the debug
    runtime: each input lands in its slice, also of a computed value."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    rows = helper.make_tensor_value_info("rows", TensorProto.FLOAT, [None, 3])
    cols = helper.make_tensor_value_info("cols", TensorProto.FLOAT, ["n", 6])
    graph = helper.make_graph(
        [
            helper.make_node("Relu", ["x"], ["r"]),
            helper.make_node("Concat", ["r", "y", "x"], ["rows"], axis=0),
            helper.make_node("Concat", ["x", "r"], ["cols"], axis=-1),
        ],
        "concat",
        [x, y],
        [rows, cols],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    rep = XhipBackend.prepare(model, debug=True)
    ys = np.arange(6, dtype=np.float32).reshape(2, 3)
    for n in (1, 4):
        xs = np.linspace(-1, 1, n * 3, dtype=np.float32).reshape(n, 3)
        r = np.maximum(xs, 0)
        got_rows, got_cols = rep.run([xs, ys])
        np.testing.assert_array_equal(got_rows, np.concatenate([r, ys, xs]))
        np.testing.assert_array_equal(got_cols, np.concatenate([xs, r], axis=1))
