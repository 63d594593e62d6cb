"""scikit-learn models (skl2onnx exports, `tests/fixtures/sklearn/`) on the
CPU runtime, in debug mode, against ONNX Runtime: the `ai.onnx.ml` ops as
the onnx ops `onnx_to_hip/ml.py` makes of them.

Trees get NaN and inf features (the missing-value and exact-gather paths),
an imputer NaN; several batch sizes run through one compiled model; one-node
models cover what the exports leave out (`ONE_NODE`). Labels must be equal;
scores agree to rtol 1e-5: each tree's leaf value is exact (a one-hot row
times the weights), the sums over trees are float32 ones in tree order, as
ORT's, but a reduction or a GEMM may round differently (docs/ml.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from xdsl.utils.exceptions import PassFailedException

import xhip
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import Runtime
from xhip.backend.session import CompiledModel
from xhip.frontend import OnnxImportError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sklearn"
MODELS = sorted(p.stem for p in FIXTURES.glob("*.onnx"))
RUNS = (1, 5, 64)
FEATURES = 6


def inputs(model: onnx.ModelProto, name: str, rows: int) -> dict[str, np.ndarray]:
    """The fixture's one input: random features, NaN for an imputer, NaN and
    infinities for trees."""
    rng = np.random.default_rng(rows)
    x = rng.standard_normal((rows, FEATURES)).astype(np.float32)
    if "imputer" in name:
        x[:: max(1, rows // 3), 1] = np.nan
    if any(k in name for k in ("tree", "forest", "boosting")) and rows > 1:
        x[0, 2] = np.nan
        x[rows - 1, 0] = np.inf
        x[rows // 2, 1] = -np.inf
    return {model.graph.input[0].name: x}


def expected(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    import onnxruntime as ort  # lazy: the reference, an optional package

    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return [np.asarray(v) for v in session.run(None, feeds)]


def check(got: list[np.ndarray], want: list[np.ndarray], what: str) -> None:
    assert len(got) == len(want), what
    for g, w in zip(got, want, strict=True):
        assert (g.dtype, g.shape) == (w.dtype, w.shape), what
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=what)
        else:
            np.testing.assert_array_equal(g, w, err_msg=what)


def load(name: str) -> onnx.ModelProto:
    return onnx.load(FIXTURES / f"{name}.onnx")


def run_model(name: str, runtime: Runtime) -> None:
    """The fixture at each of `RUNS` batch sizes, compiled once."""
    model = load(name)
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(ir.module, ir.signature, ir.constants, runtime)
    for rows in RUNS:
        feeds = inputs(model, name, rows)
        check(list(compiled(feeds).values()), expected(model, feeds), f"{name} {rows}")


@pytest.mark.parametrize("name", MODELS)
def test_sklearn_model_matches_onnxruntime(name: str) -> None:
    run_model(name, CpuRuntime(debug=True))


def test_map_ops_are_refused_in_one_line() -> None:
    """ZipMap makes a sequence of maps: the importer refuses it."""
    node = helper.make_node(
        "ZipMap", ["X"], ["Z"], domain="ai.onnx.ml", classlabels_int64s=[0, 1]
    )
    z = helper.make_tensor_sequence_value_info("Z", TensorProto.FLOAT, None)
    graph = helper.make_graph(
        [node],
        "zipmap",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", 2])],
        [z],
    )
    model = helper.make_model(
        graph,
        opset_imports=[
            helper.make_opsetid("", 17),
            helper.make_opsetid("ai.onnx.ml", 1),
        ],
    )
    with pytest.raises(OnnxImportError, match="ai.onnx.ml.ZipMap") as error:
        xhip.compile_to_ir(model)
    assert "\n" not in str(error.value)


def _classifier(labels: dict[str, Any], post: str = "NONE") -> onnx.ModelProto:
    """One stump: x <= 0 scores [0.25, 0.75], else [0.5, 0.5]."""
    node = helper.make_node(
        "TreeEnsembleClassifier",
        ["X"],
        ["label", "scores"],
        domain="ai.onnx.ml",
        class_ids=[0, 1, 0, 1],
        class_nodeids=[1, 1, 2, 2],
        class_treeids=[0, 0, 0, 0],
        class_weights=[0.25, 0.75, 0.5, 0.5],
        nodes_falsenodeids=[2, 0, 0],
        nodes_featureids=[0, 0, 0],
        nodes_modes=["BRANCH_LEQ", "LEAF", "LEAF"],
        nodes_nodeids=[0, 1, 2],
        nodes_treeids=[0, 0, 0],
        nodes_truenodeids=[1, 0, 0],
        nodes_values=[0.0, 0.0, 0.0],
        post_transform=post,
        **labels,
    )
    label_type = (
        TensorProto.STRING if "classlabels_strings" in labels else TensorProto.INT64
    )
    graph = helper.make_graph(
        [node],
        "stump",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", 1])],
        [
            helper.make_tensor_value_info("label", label_type, ["N"]),
            helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["N", 2]),
        ],
    )
    return helper.make_model(
        graph,
        opset_imports=[
            helper.make_opsetid("", 17),
            helper.make_opsetid("ai.onnx.ml", 3),
        ],
    )


@pytest.mark.parametrize("post", ["NONE", "LOGISTIC", "SOFTMAX", "SOFTMAX_ZERO"])
def test_classifier_post_transforms_match_onnxruntime(post: str) -> None:
    model = _classifier({"classlabels_int64s": [3, 8]}, post)
    feeds = {"X": np.array([[-1.0], [0.0], [2.0], [np.nan]], np.float32)}
    got = list(xhip.compile(model, runtime=CpuRuntime(debug=True))(feeds).values())
    check(got, expected(model, feeds), post)


def test_string_labels_and_probit_are_refused_in_one_line() -> None:
    strings = _classifier({"classlabels_strings": ["a", "b"]})
    with pytest.raises(OnnxImportError, match="element type") as error:
        xhip.compile_to_ir(strings)
    assert "\n" not in str(error.value)
    probit = _classifier({"classlabels_int64s": [0, 1]}, "PROBIT")
    with pytest.raises(PassFailedException, match="PROBIT is not supported"):
        xhip.compile_to_ir(probit)


F, I64 = TensorProto.FLOAT, TensorProto.INT64


def _single(
    op_type: str,
    inputs: list[tuple[str, int, list[Any]]],
    output: tuple[int, list[Any]],
    ml: int,
    **attributes: Any,
) -> onnx.ModelProto:
    """A model of one `ai.onnx.ml` node (ml opset `ml`), output `Y` (after
    the label `L` for a classifier)."""
    outputs = [helper.make_tensor_value_info("Y", *output)]
    if op_type.endswith("Classifier"):
        outputs.insert(0, helper.make_tensor_value_info("L", I64, ["N"]))
    names = [o.name for o in outputs]
    node = helper.make_node(
        op_type, [n for n, _, _ in inputs], names, domain="ai.onnx.ml", **attributes
    )
    graph = helper.make_graph(
        [node], op_type, [helper.make_tensor_value_info(*i) for i in inputs], outputs
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", ml)]
    return helper.make_model(graph, opset_imports=opsets)


X3 = np.array([[1.0, np.nan, 3.0], [np.nan, 5.0, 0.0], [2.0, 2.0, 9.0]], np.float32)
I3 = np.array([[1, 5, 3], [2, 2, 9], [-4, 0, 1]], np.int64)
ONE_NODE = {
    "imputer_nan": (
        _single(
            "Imputer",
            [("X", F, ["N", 3])],
            (F, ["N", 3]),
            1,
            imputed_value_floats=[7.0, 8.0, 9.0],
            replaced_value_float=float("nan"),
        ),
        {"X": X3},
    ),
    "imputer_zero": (
        _single(
            "Imputer",
            [("X", F, ["N", 3])],
            (F, ["N", 3]),
            1,
            imputed_value_floats=[-1.0],
            replaced_value_float=0.0,
        ),
        {"X": X3},
    ),
    "one_hot_encoder": (
        _single(
            "OneHotEncoder",
            [("X", I64, ["N", 3])],
            (F, ["N", 3, 4]),
            1,
            cats_int64s=[1, 2, 3, 5],
            zeros=1,
        ),
        {"X": I3},
    ),
    "one_hot_encoder_float": (
        _single(
            "OneHotEncoder",
            [("X", F, ["N", 3])],
            (F, ["N", 3, 2]),
            1,
            cats_int64s=[1, 3],
            zeros=1,
        ),
        {"X": np.array([[1.7, 3.0, -1.2], [0.0, 2.0, 3.9]], np.float32)},
    ),
    "label_encoder_int_int": (
        _single(
            "LabelEncoder",
            [("X", I64, ["N", 3])],
            (I64, ["N", 3]),
            2,
            keys_int64s=[1, 2, 9],
            values_int64s=[10, 20, 90],
            default_int64=-5,
        ),
        {"X": I3},
    ),
    "label_encoder_float_nan_key": (
        _single(
            "LabelEncoder",
            [("X", F, ["N", 3])],
            (F, ["N", 3]),
            4,
            keys_floats=[1.0, 3.0, float("nan")],
            values_floats=[0.5, 1.5, 2.5],
            default_float=-1.0,
        ),
        {"X": X3},
    ),
    "label_encoder_tensors": (
        _single(
            "LabelEncoder",
            [("X", I64, ["N", 3])],
            (F, ["N", 3]),
            4,
            keys_tensor=helper.make_tensor("k", I64, (2,), [2, 5]),
            values_tensor=helper.make_tensor("v", F, (2,), [7.0, 8.0]),
            default_tensor=helper.make_tensor("d", F, (1,), [42.0]),
        ),
        {"X": I3},
    ),
    "feature_vectorizer": (
        _single(
            "FeatureVectorizer",
            [("A", F, ["N", 2]), ("B", F, ["N", 3])],
            (F, ["N", 5]),
            1,
            inputdimensions=[2, 3],
        ),
        {"A": X3[:, :2], "B": X3},
    ),
    "feature_vectorizer_run_time_widths": (  # A cut to 2, B padded to 4
        _single(
            "FeatureVectorizer",
            [("A", F, ["N", "a"]), ("B", F, ["N", "b"]), ("C", F, ["N", 1])],
            (F, ["N", 7]),
            1,
            inputdimensions=[2, 4, 1],
        ),
        {"A": X3, "B": X3[:, :2], "C": X3[:, :1]},
    ),
    "feature_vectorizer_int_run_time_width": (
        _single(
            "FeatureVectorizer",
            [("A", I64, ["N", "a"])],
            (F, ["N", 5]),
            1,
            inputdimensions=[5],
        ),
        {"A": I3},
    ),
    "linear_classifier_one_score": (
        _single(
            "LinearClassifier",
            [("X", F, ["N", 3])],
            (F, ["N", 2]),
            1,
            coefficients=[1.0, -1.0, 0.5],
            intercepts=[0.25],
            classlabels_ints=[4, 7],
            post_transform="LOGISTIC",
        ),
        {"X": np.nan_to_num(X3)},
    ),
    "tree_max_unscored_target": (
        _single(
            "TreeEnsembleRegressor",
            [("X", F, ["N", 3])],
            (F, ["N", 2]),
            1,
            n_targets=2,
            aggregate_function="MAX",
            base_values=[0.5, -0.5],
            nodes_treeids=[0, 0, 0, 1],
            nodes_nodeids=[0, 1, 2, 0],
            nodes_featureids=[0, 0, 0, 0],
            nodes_modes=["BRANCH_GT", "LEAF", "LEAF", "LEAF"],
            nodes_values=[1.5, 0.0, 0.0, 0.0],
            nodes_truenodeids=[1, 0, 0, 0],
            nodes_falsenodeids=[2, 0, 0, 0],
            nodes_missing_value_tracks_true=[1, 0, 0, 0],
            target_ids=[0, 1, 0],
            target_nodeids=[1, 1, 0],
            target_treeids=[0, 0, 1],
            target_weights=[2.0, 3.0, -1.0],
        ),
        {"X": X3},
    ),
}
"""One-node models (ml opsets 1 to 4) and their inputs: the ops and cases
skl2onnx's exports in `tests/fixtures/sklearn/` leave out."""

for _kernel, _params in (
    ("LINEAR", [1.0, 0.0, 1.0]),
    ("POLY", [0.5, 1.0, 3.0]),
    ("SIGMOID", [0.3, -0.2, 1.0]),
):
    ONE_NODE[f"svm_regressor_{_kernel.lower()}"] = (
        _single(
            "SVMRegressor",
            [("X", F, ["N", 3])],
            (F, ["N", 1]),
            1,
            kernel_type=_kernel,
            kernel_params=_params,
            n_supports=2,
            support_vectors=[0.5, -1.0, 2.0, 1.5, 0.0, -0.5],
            coefficients=[0.75, -1.25],
            rho=[0.1],
            one_class=int(_kernel == "SIGMOID"),
        ),
        {"X": np.nan_to_num(X3)},
    )


@pytest.mark.parametrize("name", sorted(ONE_NODE))
def test_one_node_models_match_onnxruntime(name: str) -> None:
    model, feeds = ONE_NODE[name]
    compiled = xhip.compile(model, runtime=CpuRuntime(debug=True))
    check(list(compiled(feeds).values()), expected(model, feeds), name)


def test_double_features_are_compared_in_double() -> None:
    """A double X next to the float thresholds (1e-9 off): ORT compares in
    double, so casting X to float first would flip these tests."""
    model = load("random_forest_classifier")
    model.graph.input[0].type.tensor_type.elem_type = TensorProto.DOUBLE
    attrs = {
        a.name: helper.get_attribute_value(a) for a in model.graph.node[0].attribute
    }
    thresholds, features = attrs["nodes_values"], attrs["nodes_featureids"]
    x = np.random.default_rng(1).standard_normal((40, FEATURES))
    for row in range(40):
        node = row % len(thresholds)
        offset = 1e-9 if row % 2 else -1e-9
        x[row, features[node]] = float(np.float32(thresholds[node])) + offset
    feeds = {"X": x}
    got = list(xhip.compile(model, runtime=CpuRuntime(debug=True))(feeds).values())
    check(got, expected(model, feeds), "double X")
