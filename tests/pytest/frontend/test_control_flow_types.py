"""If and Scan results that `onnx.shape_inference` leaves untyped.

An If whose branches differ in rank, decided by a static dim, and a Scan whose
body unsqueezes by an outer constant (onnx infers a subgraph without the
enclosing graph's values): onnx gives neither result a rank, nor anything
after it. The importer types them from their subgraphs
(`xhip/frontend/control_flow_rules.py`); each model first checks that onnx
really leaves them open, then runs against ONNX Runtime on the CPU and on the
emulated GPU.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import xhip
from tests.pytest.frontend.models import (
    check_like_onnxruntime,
    ints,
    make_model,
    tensor,
    untyped_values,
)
from xhip.backend.cuda import CudaRuntime
from xhip.backend.session import CompiledModel
from xhip.cli import main
from xhip.frontend import import_model

F, I64 = TensorProto.FLOAT, TensorProto.INT64


def if_rank_model() -> onnx.ModelProto:
    """`t = x[None] if x.shape[1] == 4 else x`, then `Reshape(Relu(t), [-1, 2])`:
    the branches give rank 3 and rank 2; the condition is a static dim."""
    then = helper.make_graph(
        [helper.make_node("Unsqueeze", ["x", "zero"], ["t_then"])],
        "then",
        [],
        [helper.make_tensor_value_info("t_then", F, None)],
    )
    other = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["t_else"])],
        "else",
        [],
        [helper.make_tensor_value_info("t_else", F, None)],
    )
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "one"], ["width"], axis=0),
        helper.make_node("Equal", ["width", "four"], ["cond"]),
        helper.make_node(
            "If", ["cond"], ["t"], name="if", then_branch=then, else_branch=other
        ),
        helper.make_node("Relu", ["t"], ["r"]),
        helper.make_node("Reshape", ["r", "pairs"], ["y"]),
    ]
    return make_model(
        nodes,
        [tensor("x", F, ["n", 4])],
        [tensor("y", F, [None, 2])],
        [
            ints("zero", [0]),
            ints("one", 1),
            ints("four", 4),
            ints("pairs", [-1, 2]),
        ],
    )


def scan_model(declared: list[int] | None = None) -> onnx.ModelProto:
    """A Scan over `x[t]` (3 steps of 2x4) carrying `s += x[t]`, whose scan
    output is `tanh(sum(x[t][:, :, None] * s[:, None, :], -1))`; the body's
    Unsqueezes take their axes from the outer graph. `declared` states the
    scan output's type (a wrong one, for the error)."""
    body = helper.make_graph(
        [
            helper.make_node("Unsqueeze", ["x_t", "last"], ["col"]),
            helper.make_node("Unsqueeze", ["s_in", "middle"], ["row"]),
            helper.make_node("Mul", ["col", "row"], ["outer"]),
            helper.make_node("ReduceSum", ["outer", "last"], ["summed"], keepdims=0),
            helper.make_node("Tanh", ["summed"], ["out_t"]),
            helper.make_node("Add", ["s_in", "x_t"], ["s_out"]),
        ],
        "body",
        [tensor("s_in", F, [2, 4]), tensor("x_t", F, [2, 4])],
        [
            helper.make_tensor_value_info("s_out", F, None),
            helper.make_tensor_value_info("out_t", F, None),
        ],
    )
    nodes = [
        helper.make_node(
            "Scan",
            ["s0", "x"],
            ["s", "outs"],
            name="scan",
            body=body,
            num_scan_inputs=1,
        ),
        helper.make_node("Transpose", ["outs"], ["y"], perm=[1, 0, 2]),
    ]
    model = make_model(
        nodes,
        [tensor("s0", F, [2, 4]), tensor("x", F, [3, 2, 4])],
        [tensor("s", F, [2, 4]), tensor("y", F, [2, 3, 4])],
        [ints("last", [-1]), ints("middle", [-2])],
    )
    if declared is not None:
        model.graph.value_info.append(tensor("outs", F, declared))
        model.graph.output[1].CopyFrom(tensor("y", F, [None, None, None]))
    return model


MODELS: dict[str, tuple[Callable[[], onnx.ModelProto], set[str]]] = {
    "if-rank": (if_rank_model, {"t", "r"}),
    "scan": (scan_model, {"outs"}),
}
"""Each model and values onnx leaves untyped in it."""


def _feeds(name: str, n: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(n)
    if name == "if-rank":
        return {"x": rng.normal(size=(n, 4)).astype(np.float32)}
    return {
        "s0": rng.normal(size=(2, 4)).astype(np.float32),
        "x": rng.normal(size=(3, 2, 4)).astype(np.float32),
    }


@pytest.mark.parametrize("name", sorted(MODELS))
def test_onnx_leaves_the_values_untyped(name: str) -> None:
    build, untyped = MODELS[name]
    assert untyped <= untyped_values(build())


def _check(compiled: xhip.Model, name: str, model: onnx.ModelProto) -> None:
    cases = ((str(n), _feeds(name, n)) for n in (1, 3, 5))
    check_like_onnxruntime(compiled, model, cases)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_untyped_results_run_on_cpu_like_onnxruntime(name: str) -> None:
    model = MODELS[name][0]()
    _check(xhip.compile(model, device="cpu"), name, model)


@pytest.mark.emulator
@pytest.mark.parametrize("name", sorted(MODELS))
def test_untyped_results_run_on_emulated_gpu_like_onnxruntime(
    name: str, emulated_cuda: CudaRuntime
) -> None:
    model = MODELS[name][0]()
    ir = xhip.compile_to_ir(model)
    _check(
        CompiledModel(ir.module, ir.signature, ir.constants, emulated_cuda), name, model
    )


def test_the_if_takes_the_type_of_the_branch_its_shape_picks() -> None:
    """`x.shape[1] == 4` holds before the run: the If's result is the then
    branch's `1x?x4`, and everything after it is typed from there."""
    text = str(import_model(if_rank_model()))
    assert re.search(r'"if"} : \(tensor<i1>\) -> tensor<1x\?x4xf32>', text), text
    assert re.search(r'"onnx.Relu".*-> tensor<1x\?x4xf32>', text), text


def test_the_scan_output_is_the_step_stacked() -> None:
    text = str(import_model(scan_model()))
    assert re.search(r'"scan"} : .* -> \(tensor<2x4xf32>, tensor<3x2x4xf32>\)', text)


def test_a_declaration_that_contradicts_the_body_names_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.onnx"
    onnx.save(scan_model(declared=[3, 2, 5]), path)
    assert main(["compile", str(path), "-o", str(tmp_path / "out")]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert re.search(
        r"'outs': the model declares float32\[3, 2, 5\] but shape inference gives "
        r"float32\[3, 2, 4\]",
        err,
    ), err
