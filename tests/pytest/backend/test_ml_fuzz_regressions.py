"""ai.onnx.ml cases the fuzzer found, against ONNX Runtime.

- The SVMs on an X whose feature count only the run knows (X (N, ?)): the
  support vectors fix it (their count over n_supports; a linear model's, its
  coefficients). Refused before, the dynamic dim printed as
  -9223372036854775808 (fuzz seed 70191).
- TreeEnsembleRegressor with leaves that score only some targets: a target
  no reached leaf scores is 0 in ONNX Runtime, without the base value, under
  every aggregate function; xhip gave the base value under SUM and AVERAGE
  (fuzz seed 140353; onnx's reference raises a KeyError on such a leaf)."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest

import xhip
from tests.pytest.backend.test_ml_models import F, _single, check, expected
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import Runtime

SUPPORT_VECTORS = [0.5, -1.0, 2.0, 1.5, 0.0, -0.5]


def _regressor(**attributes: Any) -> onnx.ModelProto:
    return _single(
        "SVMRegressor", [("X", F, ["N", None])], (F, ["N", 1]), 1, **attributes
    )


MODELS: dict[str, onnx.ModelProto] = {
    "regressor_rbf": _regressor(
        kernel_type="RBF",
        kernel_params=[0.4, 0.0, 1.0],
        n_supports=2,
        support_vectors=SUPPORT_VECTORS,
        coefficients=[0.75, -1.25],
        rho=[0.1],
    ),
    "regressor_linear_model": _regressor(
        kernel_params=[1.0, 0.0, 1.0], coefficients=[0.5, -2.0, 1.0], rho=[0.3]
    ),
    "classifier_poly": _single(
        "SVMClassifier",
        [("X", F, ["N", None])],
        (F, ["N", 2]),
        1,
        kernel_type="POLY",
        kernel_params=[0.5, 1.0, 2.0],
        classlabels_ints=[3, 7],
        vectors_per_class=[1, 1],
        support_vectors=SUPPORT_VECTORS,
        coefficients=[0.8, -0.6],
        rho=[-0.2],
    ),
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_svm_with_a_dynamic_feature_count(
    name: str, runtime: Runtime | None = None
) -> None:
    model = MODELS[name]
    compiled = xhip.compile(model, runtime=runtime or CpuRuntime(debug=True))
    for rows in (1, 5):
        x = np.random.default_rng(rows).standard_normal((rows, 3)).astype(np.float32)
        feeds = {"X": x}
        check(list(compiled(feeds).values()), expected(model, feeds), f"{name} {rows}")


def _two_target_trees(aggregate: str, trees: int) -> onnx.ModelProto:
    """`trees` stumps on feature 0 (threshold 0.5); the true leaf scores
    target 0 only, the false leaf of the first tree both targets."""
    attrs: dict[str, list[Any]] = {
        k: []
        for k in (
            "nodes_treeids nodes_nodeids nodes_featureids nodes_values nodes_modes "
            "nodes_truenodeids nodes_falsenodeids target_treeids target_nodeids "
            "target_ids target_weights"
        ).split()
    }
    for t in range(trees):
        for node, mode, true, false in (
            (0, "BRANCH_LEQ", 1, 2),
            (1, "LEAF", 0, 0),
            (2, "LEAF", 0, 0),
        ):
            for key, value in (
                ("nodes_treeids", t),
                ("nodes_nodeids", node),
                ("nodes_featureids", 0),
                ("nodes_values", 0.5 if node == 0 else 0.0),
                ("nodes_modes", mode),
                ("nodes_truenodeids", true),
                ("nodes_falsenodeids", false),
            ):
                attrs[key].append(value)
        scores = [(1, 0, 1.0 + t), (2, 0, 2.0 + t)] + ([(2, 1, 3.0)] if t == 0 else [])
        for node, target, weight in scores:
            attrs["target_treeids"].append(t)
            attrs["target_nodeids"].append(node)
            attrs["target_ids"].append(target)
            attrs["target_weights"].append(weight)
    return _single(
        "TreeEnsembleRegressor",
        [("X", F, ["N", 1])],
        (F, ["N", 2]),
        3,
        n_targets=2,
        aggregate_function=aggregate,
        base_values=[0.5, -0.25],
        **attrs,
    )


@pytest.mark.parametrize("trees", [1, 2])
@pytest.mark.parametrize("aggregate", ["SUM", "AVERAGE", "MIN", "MAX"])
def test_a_target_no_leaf_scores_is_zero(
    aggregate: str, trees: int, runtime: Runtime | None = None
) -> None:
    model = _two_target_trees(aggregate, trees)
    compiled = xhip.compile(model, runtime=runtime or CpuRuntime(debug=True))
    feeds = {"X": np.array([[0.0], [1.0], [0.5]], np.float32)}
    check(list(compiled(feeds).values()), expected(model, feeds), aggregate)
