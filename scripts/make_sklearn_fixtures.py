"""Build the scikit-learn fixtures in `tests/fixtures/sklearn/` (skl2onnx exports).

Run with a Python that has scikit-learn and skl2onnx (never a CI dependency):
`/tmp/genai-venv/bin/python scripts/make_sklearn_fixtures.py`. The data is
random with fixed seeds; the models are small so that each file stays small.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper
from skl2onnx import to_onnx
from sklearn.ensemble import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import Binarizer, Normalizer, StandardScaler
from sklearn.svm import SVC, SVR
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "sklearn"
FEATURES = 6
OPSETS = {"": 17, "ai.onnx.ml": 3}


def _data(classes: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Random features (a few NaN for the imputer's fit) and targets."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((200, FEATURES)).astype(np.float32)
    score = x @ rng.standard_normal(FEATURES) + 0.3 * rng.standard_normal(200)
    if classes == 0:
        return x, score.astype(np.float32)
    edges = np.quantile(score, np.linspace(0, 1, classes + 1)[1:-1])
    return x, np.digitize(score, edges).astype(np.int64)


def _export(name: str, model: Any, x: np.ndarray, classifier: bool) -> None:
    options = {id(model): {"zipmap": False}} if classifier else None
    onx = to_onnx(model, x[:1], target_opset=OPSETS, options=options)
    onx.graph.input[0].type.tensor_type.shape.dim[0].dim_param = "N"
    onnx.checker.check_model(onx)
    path = OUT / f"{name}.onnx"
    path.write_bytes(onx.SerializeToString())
    print(f"{path.name}: {path.stat().st_size} bytes")


MODELS: dict[str, tuple[Callable[[], Any], int]] = {
    "random_forest_regressor": (
        lambda: RandomForestRegressor(n_estimators=4, max_depth=4, random_state=0),
        0,
    ),
    "random_forest_classifier": (
        lambda: RandomForestClassifier(n_estimators=4, max_depth=4, random_state=0),
        3,
    ),
    "random_forest_binary": (
        lambda: RandomForestClassifier(n_estimators=3, max_depth=3, random_state=0),
        2,
    ),
    "gradient_boosting_regressor": (
        lambda: GradientBoostingRegressor(n_estimators=5, max_depth=3, random_state=0),
        0,
    ),
    "gradient_boosting_binary": (
        lambda: GradientBoostingClassifier(n_estimators=5, max_depth=3, random_state=0),
        2,
    ),
    "gradient_boosting_multiclass": (
        lambda: GradientBoostingClassifier(n_estimators=4, max_depth=2, random_state=0),
        3,
    ),
    "decision_tree_regressor": (
        lambda: DecisionTreeRegressor(max_depth=5, random_state=0),
        0,
    ),
    "decision_tree_classifier": (
        lambda: DecisionTreeClassifier(max_depth=4, random_state=0),
        4,
    ),
    "extra_trees_regressor": (
        lambda: ExtraTreesRegressor(n_estimators=3, max_depth=4, random_state=0),
        0,
    ),
    "extra_trees_classifier": (
        lambda: ExtraTreesClassifier(n_estimators=3, max_depth=4, random_state=0),
        3,
    ),
    "logistic_regression_binary": (lambda: LogisticRegression(), 2),
    "logistic_regression_multiclass": (lambda: LogisticRegression(), 3),
    "linear_regression": (lambda: LinearRegression(), 0),
    "scaler_logistic_regression": (
        lambda: make_pipeline(StandardScaler(), LogisticRegression()),
        3,
    ),
    "imputer_scaler_logistic_regression": (
        lambda: make_pipeline(SimpleImputer(), StandardScaler(), LogisticRegression()),
        2,
    ),
    "svc_rbf": (lambda: SVC(kernel="rbf"), 3),
    "svc_linear_binary": (lambda: SVC(kernel="linear"), 2),
    "svr_rbf": (lambda: SVR(kernel="rbf"), 0),
}


def _transformer(name: str, model: Any, x: np.ndarray) -> None:
    model.fit(x)
    _export(name, model, x, classifier=False)


def tree_ensemble_v5() -> None:
    """A TreeEnsemble (ai.onnx.ml opset 5) of two trees, written with
    onnx.helper (skl2onnx emits opset 3's ops): BRANCH_LEQ, BRANCH_LT,
    BRANCH_MEMBER, missing values tracked true, AVERAGE of two targets."""
    node = helper.make_node(
        "TreeEnsemble",
        ["X"],
        ["Y"],
        domain="ai.onnx.ml",
        n_targets=2,
        aggregate_function=0,
        post_transform=0,
        tree_roots=[0, 3],
        nodes_modes=helper.make_tensor(
            "nodes_modes", TensorProto.UINT8, (5,), [0, 1, 6, 3, 0]
        ),
        nodes_featureids=[0, 1, 2, 3, 4],
        nodes_splits=helper.make_tensor(
            "nodes_splits", TensorProto.FLOAT, (5,), [0.1, -0.5, np.nan, 0.7, 0.0]
        ),
        membership_values=helper.make_tensor(
            "membership_values",
            TensorProto.FLOAT,
            (4,),
            [1.0, 2.0, 3.0, np.nan],
        ),
        nodes_missing_value_tracks_true=[1, 0, 0, 1, 0],
        nodes_truenodeids=[1, 0, 0, 4, 4],
        nodes_trueleafs=[0, 1, 1, 0, 1],
        nodes_falsenodeids=[2, 1, 3, 5, 6],
        nodes_falseleafs=[0, 1, 1, 1, 1],
        leaf_targetids=[0, 1, 0, 1, 0, 1, 0],
        leaf_weights=helper.make_tensor(
            "leaf_weights",
            TensorProto.FLOAT,
            (7,),
            [1.5, -2.0, 3.25, 0.5, 4.0, -1.0, 7.0],
        ),
    )
    graph = helper.make_graph(
        [node],
        "tree_ensemble_v5",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", FEATURES])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["N", 2])],
    )
    model = helper.make_model(
        graph,
        opset_imports=[
            helper.make_opsetid("", 21),
            helper.make_opsetid("ai.onnx.ml", 5),
        ],
        ir_version=10,
    )
    onnx.checker.check_model(model, full_check=True)
    path = OUT / "tree_ensemble_v5.onnx"
    path.write_bytes(model.SerializeToString())
    print(f"{path.name}: {path.stat().st_size} bytes")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for seed, (name, (make, classes)) in enumerate(MODELS.items()):
        x, y = _data(classes, seed)
        if "imputer" in name:
            x[::7, 1] = np.nan
        model = make()
        model.fit(x, y)
        _export(name, model, x, classifier=classes > 0)
    x, _ = _data(0, 100)
    _transformer("normalizer_l2", Normalizer(norm="l2"), x)
    _transformer("normalizer_l1", Normalizer(norm="l1"), x)
    _transformer("normalizer_max", Normalizer(norm="max"), x)
    _transformer("binarizer", Binarizer(threshold=0.25), x)
    _transformer("standard_scaler", StandardScaler(), x)
    tree_ensemble_v5()


if __name__ == "__main__":
    main()
