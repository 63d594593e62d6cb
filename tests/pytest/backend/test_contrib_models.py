"""ONNX Runtime's contrib ops (`com.microsoft` version 1, and
SimplifiedLayerNormalization in the default domain) in small models with
dynamic dims and the ops' optional inputs and outputs, against ONNX Runtime's
CPU EP, which is what defines them (`onnx.reference` has none of them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.frontend.onnx_importer import OnnxImportError

MS = "com.microsoft"
H = 16
"""The hidden size: the normalized (last) axis."""

Dims = Sequence[str | int]


def _value(name: str, dims: Dims) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, list(dims))


def contrib_model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Mapping[str, Dims],
    outputs: Mapping[str, Dims],
    weights: Mapping[str, Dims] | None = None,
) -> onnx.ModelProto:
    """A model of `nodes`, importing `com.microsoft` version 1; `weights` are
    random initializers of those shapes."""
    rng = np.random.default_rng(7)
    initializers = [
        numpy_helper.from_array(
            rng.uniform(-1, 1, [int(d) for d in dims]).astype(np.float32), name
        )
        for name, dims in (weights or {}).items()
    ]
    graph = helper.make_graph(
        list(nodes),
        "contrib",
        [_value(n, d) for n, d in inputs.items()],
        [_value(n, d) for n, d in outputs.items()],
        initializer=initializers,
    )
    return helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)],
    )


def inputs(model: onnx.ModelProto, dims: dict[str, int]) -> dict[str, np.ndarray]:
    """Random inputs, each named dim of the size `dims` gives it."""
    rng = np.random.default_rng(sum(dims.values()))
    feeds: dict[str, np.ndarray] = {}
    for value in model.graph.input:
        shape = [
            dims[d.dim_param] if d.dim_param else d.dim_value
            for d in value.type.tensor_type.shape.dim
        ]
        feeds[value.name] = (rng.standard_normal(shape) * 2).astype(np.float32)
    return feeds


def expected(
    model: onnx.ModelProto, feeds: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """ONNX Runtime's outputs; BiasAdd, which ORT implements on CUDA only, is
    numpy's `X + bias + skip` in float64."""
    if model.graph.node[0].op_type == "BiasAdd":
        x, bias, skip = (feeds["x"], _weight(model, "bias"), feeds["skip"])
        return {"y": (x.astype(np.float64) + bias + skip).astype(np.float32)}
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    names = [o.name for o in model.graph.output]
    results = [np.asarray(x) for x in session.run(names, feeds)]
    return dict(zip(names, results, strict=True))


def check(
    got: dict[str, np.ndarray], want: dict[str, np.ndarray], what: str = ""
) -> None:
    for name, value in want.items():
        assert got[name].shape == value.shape, (name, what)
        np.testing.assert_allclose(
            got[name], value, rtol=1e-4, atol=1e-5, err_msg=f"{name} {what}"
        )


def _weight(model: onnx.ModelProto, name: str) -> np.ndarray:
    (tensor,) = [t for t in model.graph.initializer if t.name == name]
    return numpy_helper.to_array(tensor)


X: dict[str, Dims] = {"x": ["batch", "seq", H]}
SKIP: dict[str, Dims] = {"skip": ["batch", "seq", H]}
Y: dict[str, Dims] = {"y": ["batch", "seq", H]}
STATS: dict[str, Dims] = {
    "mean": ["batch", "seq", 1],
    "inv_std_var": ["batch", "seq", 1],
}
SUM: dict[str, Dims] = {"sum": ["batch", "seq", H]}
VEC: dict[str, Dims] = {"gamma": [H], "beta": [H], "bias": [H]}


def _node(op: str, ins: list[str], outs: list[str], **attrs: float) -> onnx.NodeProto:
    domain = "" if op == "SimplifiedLayerNormalization" else MS
    node = helper.make_node(op, ins, outs, name=op, domain=domain)
    node.attribute.extend(helper.make_attribute(k, v) for k, v in attrs.items())
    return node


MODELS: dict[str, onnx.ModelProto] = {
    "skip_layer_norm": contrib_model(
        [
            _node(
                "SkipLayerNormalization",
                ["x", "skip", "gamma", "beta", "bias"],
                ["y", "mean", "inv_std_var", "sum"],
            )
        ],
        X | SKIP,
        Y | STATS | SUM,
        VEC,
    ),
    "skip_layer_norm_plain": contrib_model(
        [_node("SkipLayerNormalization", ["x", "skip", "gamma"], ["y"], epsilon=1e-3)],
        X | {"skip": ["seq", H]},
        Y,
        VEC,
    ),
    "skip_layer_norm_sum_only": contrib_model(
        [
            _node(
                "SkipLayerNormalization",
                ["x", "skip", "gamma", "", "bias"],
                ["y", "", "", "sum"],
            )
        ],
        X | SKIP,
        Y | SUM,
        VEC,
    ),
    "skip_simplified_layer_norm": contrib_model(
        [
            _node(
                "SkipSimplifiedLayerNormalization",
                ["x", "skip", "gamma", "bias"],
                ["y", "", "", "sum"],
            )
        ],
        X | SKIP,
        Y | SUM,
        VEC,
    ),
    "simplified_layer_norm": contrib_model(
        [_node("SimplifiedLayerNormalization", ["x", "gamma"], ["y"])], X, Y, VEC
    ),
    "simplified_layer_norm_axis": contrib_model(
        [
            _node(
                "SimplifiedLayerNormalization",
                ["x", "scale"],
                ["y"],
                axis=1,
                epsilon=1e-3,
            )
        ],
        {"x": ["batch", 4, H]},
        {"y": ["batch", 4, H]},
        {"scale": [4, H]},
    ),
    "fast_gelu": contrib_model([_node("FastGelu", ["x"], ["y"])], X, Y),
    "fast_gelu_bias": contrib_model(
        [_node("FastGelu", ["x", "bias"], ["y"])], X, Y, VEC
    ),
    "bias_gelu": contrib_model([_node("BiasGelu", ["x", "bias"], ["y"])], X, Y, VEC),
    "gelu": contrib_model([_node("Gelu", ["x"], ["y"])], X, Y),
    "quick_gelu": contrib_model([_node("QuickGelu", ["x"], ["y"])], X, Y),
    "quick_gelu_alpha": contrib_model(
        [_node("QuickGelu", ["x"], ["y"], alpha=0.6)], X, Y
    ),
    "bias_add": contrib_model(
        [_node("BiasAdd", ["x", "bias", "skip"], ["y"])], X | SKIP, Y, VEC
    ),
    "chain": contrib_model(
        [
            _node(
                "SkipLayerNormalization",
                ["x", "skip", "gamma", "beta"],
                ["n", "", "", "sum"],
            ),
            _node("BiasGelu", ["n", "bias"], ["g"]),
            helper.make_node("Add", ["g", "sum"], ["a"]),
            _node("SimplifiedLayerNormalization", ["a", "gamma"], ["y"]),
        ],
        X | SKIP,
        Y,
        VEC,
    ),
}

RUNS = ({"batch": 1, "seq": 1}, {"batch": 2, "seq": 5}, {"batch": 3, "seq": 2})


@pytest.mark.parametrize("name", sorted(MODELS))
def test_contrib_model_matches_onnxruntime(name: str) -> None:
    model = MODELS[name]
    compiled = xhip.compile(model)
    for dims in RUNS:
        feeds = inputs(model, dims)
        check(compiled(feeds), expected(model, feeds), str(dims))


def test_contrib_version_is_checked() -> None:
    model = MODELS["fast_gelu"]
    model = onnx.ModelProto.FromString(model.SerializeToString())
    model.opset_import[1].version = 2
    with pytest.raises(
        OnnxImportError, match="com.microsoft version 2; xhip reads version 1"
    ):
        xhip.compile(model)


def test_unknown_contrib_attribute_is_one_line() -> None:
    model = contrib_model([_node("FastGelu", ["x"], ["y"], alpha=1.0)], X, Y)
    with pytest.raises(OnnxImportError, match="attribute 'alpha' is not supported"):
        xhip.compile(model)


@pytest.mark.parametrize(
    ("after", "dims"),
    [
        (helper.make_node("ArgMin", ["q"], ["y"], axis=-1), ["batch", "seq", 1]),
        (
            helper.make_node("Einsum", ["q", "q"], ["y"], equation="bsh,bth->bst"),
            ["batch", "seq", "seq"],
        ),
        (
            helper.make_node("TopK", ["q", "k"], ["y", "i"], axis=-1),
            ["batch", "seq", 2],
        ),
    ],
    ids=["ArgMin", "Einsum", "TopK"],
)
def test_ops_after_a_contrib_op_are_typed(after: onnx.NodeProto, dims: Dims) -> None:
    """A contrib result our own rules rank is still stated to onnx's inference,
    which types the ops our rules do not cover (fuzz seeds 183, 242, 666)."""
    graph = helper.make_graph(
        [
            _node("QuickGelu", ["x"], ["q"]),
            after,
            helper.make_node("Cast", ["y"], ["o"], to=TensorProto.FLOAT),
        ],
        "after_contrib",
        [_value("x", X["x"])],
        [_value("o", dims)],
        initializer=[numpy_helper.from_array(np.array([2], np.int64), "k")],
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)]
    )
    compiled = xhip.compile(model)
    for run in RUNS[1:]:
        feeds = inputs(model, run)
        check(compiled(feeds), expected(model, feeds), str(run))
