"""The ai.onnx.ml cases of `tests/pytest/backend/test_ml_fuzz_regressions.py`
(SVMs on a dynamic feature count, tree targets no reached leaf scores) on the
GPU runtimes through the CPU stand-in of their device, in debug mode,
against ONNX Runtime."""

from __future__ import annotations

import pytest

from tests.pytest.backend.test_ml_fuzz_regressions import MODELS
from tests.pytest.backend.test_ml_fuzz_regressions import (
    test_a_target_no_leaf_scores_is_zero as check_unscored,
)
from tests.pytest.backend.test_ml_fuzz_regressions import (
    test_svm_with_a_dynamic_feature_count as check_svm,
)
from tests.pytest.emulator.conftest import MakeGpu

pytestmark = pytest.mark.emulator


@pytest.mark.parametrize("name", sorted(MODELS))
def test_svm_with_a_dynamic_feature_count_on_gpu(name: str, make_gpu: MakeGpu) -> None:
    check_svm(name, make_gpu(debug=True))


@pytest.mark.parametrize("aggregate", ["SUM", "AVERAGE", "MAX"])
def test_unscored_targets_on_gpu(aggregate: str, make_gpu: MakeGpu) -> None:
    check_unscored(aggregate, 2, make_gpu(debug=True))
