"""LSTM, GRU and RNN models against ONNX Runtime on the CPU runtime: each
direction, layout 1, sequence_lens, initial states, peepholes, clip,
input_forget, every activation with and without its alpha and beta, GRU's
linear_before_reset 0 and 1, a dynamic batch run at 1 and 3; and the LSTM
classifier of `tests/fixtures/rnn/` as `torch.onnx.export` writes one
(Transpose, LSTM with initial states, Squeeze, Transpose, Gather, Gemm)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.specialize_shapes import ShapeSpecializingModel
from xhip.transforms.convert_onnx_to_hip import NeedsStaticShapes

FIXTURE = Path(__file__).parents[2] / "fixtures" / "rnn" / "lstm_classifier.onnx"
SEQ, INPUT, HIDDEN = 5, 3, 4
GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}
BATCHES = (1, 3)
"""The dynamic batch's sizes each model runs at."""


def rnn_model(
    op_type: str,
    *,
    direction: str = "forward",
    layout: int = 0,
    bias: bool = True,
    initial: bool = False,
    lens: bool = False,
    peepholes: bool = False,
    outputs: tuple[bool, ...] = (True, True, True),
    opset: int = 22,
    **attributes: object,
) -> onnx.ModelProto:
    """One `op_type` node: X (and the initial states, `sequence_lens`) graph
    inputs with a dynamic batch, W, R (B, P) seeded random initializers."""
    rng = np.random.default_rng(len(op_type) + 7 * layout)
    dirs = 2 if direction == "bidirectional" else 1
    rows = GATES[op_type] * HIDDEN

    def weight(name: str, shape: tuple[int, ...]) -> TensorProto:
        array = rng.uniform(-0.7, 0.7, shape).astype(np.float32)
        return numpy_helper.from_array(array, name)

    def value(name: str, dims: list[int | str], kind: int = TensorProto.FLOAT):
        return helper.make_tensor_value_info(name, kind, dims)

    batch_dims: list[int | str] = ["batch", SEQ] if layout else [SEQ, "batch"]
    inputs = [value("X", [*batch_dims, INPUT])]
    initializers = [weight("W", (dirs, rows, INPUT)), weight("R", (dirs, rows, HIDDEN))]
    names = ["X", "W", "R", "", "", "", "", ""]
    if bias:
        initializers.append(weight("B", (dirs, 2 * rows)))
        names[3] = "B"
    if lens:
        inputs.append(value("sequence_lens", ["batch"], TensorProto.INT32))
        names[4] = "sequence_lens"
    state: list[int | str] = (
        ["batch", dirs, HIDDEN] if layout else [dirs, "batch", HIDDEN]
    )
    if initial:
        inputs.append(value("initial_h", state))
        names[5] = "initial_h"
        if op_type == "LSTM":
            inputs.append(value("initial_c", state))
            names[6] = "initial_c"
    if peepholes:
        initializers.append(weight("P", (dirs, 3 * HIDDEN)))
        names[7] = "P"
    while not names[-1]:
        names.pop()
    y: list[int | str] = (
        ["batch", SEQ, dirs, HIDDEN] if layout else [SEQ, dirs, "batch", HIDDEN]
    )
    wanted = [("Y", y), ("Y_h", state), ("Y_c", state)][: 3 if op_type == "LSTM" else 2]
    out_names = [n if keep else "" for (n, _), keep in zip(wanted, outputs)]
    while not out_names[-1]:
        out_names.pop()
    node = helper.make_node(op_type, names, out_names, name=op_type.lower())
    given = {"hidden_size": HIDDEN, "direction": direction, **attributes}
    if layout:
        given["layout"] = layout
    node.attribute.extend(helper.make_attribute(k, v) for k, v in given.items())
    graph = helper.make_graph(
        [node],
        op_type.lower(),
        inputs,
        [value(n, dims) for (n, dims), keep in zip(wanted, outputs) if keep],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(model)
    return model


def feeds(model: onnx.ModelProto, batch: int) -> dict[str, np.ndarray]:
    """Random inputs at `batch`; sequence lengths from 0 (an empty row) to
    the whole sequence."""
    rng = np.random.default_rng(batch)
    result: dict[str, np.ndarray] = {}
    for value in model.graph.input:
        shape = [
            batch if d.dim_param else d.dim_value
            for d in value.type.tensor_type.shape.dim
        ]
        if value.name == "sequence_lens":
            lengths = [SEQ, 0, 2, 1, SEQ - 1][:batch] if batch > 1 else [3]
            result[value.name] = np.array(lengths, np.int32)
        else:
            result[value.name] = rng.standard_normal(shape).astype(np.float32)
    return result


def layout0_equivalent(model: onnx.ModelProto) -> onnx.ModelProto:
    """A model with `layout = 1` as ONNX Runtime runs it (its CPU kernels
    refuse layout 1): Transposes to the layout-0 node's (seq, batch, ...) and
    (directions, batch, hidden) and back, as the spec defines layout 1."""
    node = model.graph.node[0]
    if not any(a.name == "layout" and a.i == 1 for a in node.attribute):
        return model
    moved = {"X": [1, 0, 2], "initial_h": [1, 0, 2], "initial_c": [1, 0, 2]}
    back = {"Y": [2, 0, 1, 3], "Y_h": [1, 0, 2], "Y_c": [1, 0, 2]}
    nodes = [
        helper.make_node("Transpose", [n], [f"{n}_0"], perm=moved[n])
        for n in node.input
        if n in moved
    ]
    inner = helper.make_node(
        node.op_type,
        [f"{n}_0" if n in moved else n for n in node.input],
        [f"{n}_0" if n else "" for n in node.output],
        **{
            a.name: helper.get_attribute_value(a)
            for a in node.attribute
            if a.name != "layout"
        },
    )
    nodes.append(inner)
    nodes += [
        helper.make_node("Transpose", [f"{n}_0"], [n], perm=back[n])
        for n in node.output
        if n
    ]
    graph = helper.make_graph(
        nodes,
        "layout0",
        list(model.graph.input),
        list(model.graph.output),
        list(model.graph.initializer),
    )
    return helper.make_model(graph, opset_imports=list(model.opset_import))


def expected(
    model: onnx.ModelProto, inputs: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    session = ort.InferenceSession(
        layout0_equivalent(model).SerializeToString(),
        providers=["CPUExecutionProvider"],
    )
    names = [o.name for o in model.graph.output]
    results = [np.asarray(x) for x in session.run(names, inputs)]
    return dict(zip(names, results, strict=True))


def check(got: dict[str, np.ndarray], want: dict[str, np.ndarray], what: str) -> None:
    for name, value in want.items():
        assert got[name].shape == value.shape, (name, what)
        np.testing.assert_allclose(
            got[name], value, rtol=1e-4, atol=2e-5, err_msg=f"{name} {what}"
        )


ALL_ACTIVATIONS = [
    "Relu",
    "Tanh",
    "Sigmoid",
    "Affine",
    "LeakyRelu",
    "ThresholdedRelu",
    "ScaledTanh",
    "HardSigmoid",
    "Elu",
    "Softsign",
    "Softplus",
]

MODELS: dict[str, onnx.ModelProto] = {
    **{
        f"{op.lower()}_{direction}": rnn_model(op, direction=direction)
        for op in GATES
        for direction in ("forward", "reverse", "bidirectional")
    },
    **{
        f"{op.lower()}_layout1_{direction}": rnn_model(
            op, direction=direction, layout=1, initial=True
        )
        for op in GATES
        for direction in ("forward", "bidirectional")
    },
    **{
        f"{op.lower()}_lens_{direction}": rnn_model(
            op, direction=direction, lens=True, initial=True
        )
        for op in GATES
        for direction in ("forward", "reverse", "bidirectional")
    },
    "lstm_peepholes_bidirectional": rnn_model(
        "LSTM", direction="bidirectional", peepholes=True, initial=True
    ),
    "lstm_peepholes_clip_lens": rnn_model(
        "LSTM", peepholes=True, lens=True, initial=True, clip=0.6
    ),
    "lstm_input_forget": rnn_model("LSTM", input_forget=1, peepholes=True),
    "lstm_no_bias_y_only": rnn_model("LSTM", bias=False, outputs=(True,)),
    "lstm_y_c_only": rnn_model("LSTM", outputs=(False, False, True), initial=True),
    "gru_linear_before_reset": rnn_model(
        "GRU", direction="bidirectional", linear_before_reset=1, initial=True
    ),
    "gru_linear_before_reset_lens_clip": rnn_model(
        "GRU", linear_before_reset=1, lens=True, clip=0.5
    ),
    "gru_clip_reverse": rnn_model("GRU", direction="reverse", clip=0.4),
    "gru_y_h_only": rnn_model("GRU", outputs=(False, True), bias=False),
    "rnn_clip": rnn_model("RNN", clip=0.3, initial=True),
    "lstm_opset14_layout1": rnn_model("LSTM", layout=1, opset=14, lens=True),
    # Each activation, with alpha and beta where it takes them, in the
    # activation slots of a bidirectional RNN; then without, the defaults.
    **{
        f"rnn_activation_{name.lower()}": rnn_model(
            "RNN",
            direction="bidirectional",
            activations=[name, "Tanh"],
            activation_alpha=[0.7, 0.3],
            activation_beta=[0.4, 0.2],
        )
        for name in ALL_ACTIVATIONS
    },
    "rnn_activation_defaults": rnn_model(
        "RNN",
        direction="bidirectional",
        activations=["LeakyRelu", "HardSigmoid"],
    ),
    "lstm_activations": rnn_model(
        "LSTM",
        direction="bidirectional",
        activations=[
            "HardSigmoid",
            "Softsign",
            "Elu",
            "Sigmoid",
            "ScaledTanh",
            "Affine",
        ],
        activation_alpha=[0.3, 0.9, 0.8, 1.1],
        activation_beta=[0.45, 0.7, 0.1],
    ),
    "gru_activations": rnn_model(
        "GRU",
        activations=["Sigmoid", "Softplus"],
        linear_before_reset=1,
    ),
}
"""Every model runs at each of `BATCHES`."""


@pytest.mark.parametrize("name", sorted(MODELS))
def test_rnn_model(name: str) -> None:
    model = MODELS[name]
    compiled = xhip.compile(model)
    for batch in BATCHES:
        inputs = feeds(model, batch)
        check(compiled(inputs), expected(model, inputs), f"batch {batch}")


def test_lstm_classifier_as_exported() -> None:
    """The fixture: an exporter's LSTM with initial states, Squeeze,
    Transpose, Gather and Gemm, dynamic batch."""
    model = onnx.load(FIXTURE)
    compiled = xhip.compile(model)
    for batch in (1, 4):
        inputs = feeds(model, batch)
        check(compiled(inputs), expected(model, inputs), f"batch {batch}")


def test_dynamic_sequence_length_is_refused_by_one_ir() -> None:
    """Each step is its own ops: one IR for every sequence length
    (`compile_to_ir`) is refused in one line naming the node."""
    model = rnn_model("GRU")
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_param = "seq"
    with pytest.raises(
        NeedsStaticShapes, match=r"onnx.GRU \(node 'gru'\): the sequence length"
    ):
        xhip.compile_to_ir(model)


def test_dynamic_sequence_length_is_compiled_per_shape() -> None:
    """`xhip.compile` builds the model per input shape (`xhip.specialize_shapes`)."""
    model = rnn_model("GRU", direction="bidirectional")
    for value in (model.graph.input[0], model.graph.output[0]):  # X and Y
        value.type.tensor_type.shape.dim[0].dim_param = "seq"
    compiled = xhip.compile(model)
    assert isinstance(compiled, ShapeSpecializingModel)
    for seq, batch in ((SEQ, 2), (2, 3), (SEQ, 2)):
        x = np.random.default_rng(seq).standard_normal((seq, batch, INPUT))
        inputs = {"X": x.astype(np.float32)}
        check(compiled(inputs), expected(model, inputs), f"seq {seq}")
    assert compiled.builds == 2


@pytest.mark.parametrize("op_type", ["LSTM", "GRU"])
def test_layout1_bidirectional_with_a_static_batch(op_type: str) -> None:
    """Initial states (batch, directions, hidden) under layout 1, the batch
    known: sliced per direction along dim 1."""
    model = rnn_model(
        op_type, direction="bidirectional", layout=1, initial=True, lens=True
    )
    for value in [*model.graph.input, *model.graph.output]:
        for dim in value.type.tensor_type.shape.dim:
            if dim.dim_param == "batch":
                dim.dim_value = 3  # replaces the name (a oneof)
    inputs = feeds(model, 3)
    check(xhip.compile(model)(inputs), expected(model, inputs), "batch 3")
