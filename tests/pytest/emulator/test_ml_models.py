"""scikit-learn models of `tests/pytest/backend/test_ml_models.py` on the GPU
runtimes through the CPU stand-in of their device, in debug mode, against
ONNX Runtime: a forest, a boosted binary classifier (LOGISTIC, one score),
a multiclass one (SOFTMAX), the opset-5 TreeEnsemble, a scaled logistic
regression (with an imputer), a normalizer, the binarizer and the SVMs
(RBF regressor, RBF three-class and linear binary classifiers); and the
one-node models (LabelEncoder, OneHotEncoder, FeatureVectorizer, ...)."""

from __future__ import annotations

import pytest

import xhip
from tests.pytest.backend.test_ml_models import (
    ONE_NODE,
    check,
    expected,
    run_model,
)
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.session import CompiledModel

pytestmark = pytest.mark.emulator

SUBSET = (
    "random_forest_classifier",
    "gradient_boosting_binary",
    "gradient_boosting_multiclass",
    "random_forest_regressor",
    "tree_ensemble_v5",
    "scaler_logistic_regression",
    "imputer_scaler_logistic_regression",
    "normalizer_max",
    "svr_rbf",
    "svc_rbf",
    "svc_linear_binary",
    "binarizer",
)


@pytest.mark.parametrize("name", SUBSET)
def test_sklearn_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    run_model(name, make_gpu(debug=True))


@pytest.mark.parametrize("name", sorted(ONE_NODE))
def test_one_node_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    model, feeds = ONE_NODE[name]
    ir = xhip.compile_to_ir(model)
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, make_gpu(debug=True)
    )
    check(list(compiled(feeds).values()), expected(model, feeds), name)
