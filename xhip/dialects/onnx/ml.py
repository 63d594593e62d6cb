"""The `ai.onnx.ml` ops scikit-learn exports (skl2onnx) write, read with onnx's
schemas (the importer fills their defaults); `onnx_to_hip/ml.py` writes each
as the onnx ops it is made of, so every runtime runs them with its kernels.

Attributes keep their ONNX names and kinds: lists are `ArrayAttr`s, tensors
(`*_as_tensor`, TreeEnsemble's `nodes_splits`, ...) dense attributes. String
labels are refused by the conversion in one line; the ops that make maps or
strings (ZipMap, CastMap, DictVectorizer) are not declared, so the importer
refuses them in one line, as it refuses string tensors (LabelEncoder's).
"""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
)
from xdsl.ir import Operation
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import ML_DOMAIN, AnyTensor
from xhip.dialects.onnx.contrib import ContribOp

Floats = ArrayAttr[FloatAttr[AnyFloat]]
Ints = ArrayAttr[IntegerAttr]
Strings = ArrayAttr[StringAttr]
Dense = DenseIntOrFPElementsAttr


class MlOp(ContribOp, ABC):
    """An `ai.onnx.ml` op: onnx has its schema, so the importer reads its
    attribute defaults and result types from onnx (not `DEFAULTS`)."""

    DOMAINS: ClassVar[tuple[str, ...]] = (ML_DOMAIN,)


class _TreeEnsembleV3(MlOp, ABC):
    """The node attributes TreeEnsembleRegressor and TreeEnsembleClassifier
    (ml opsets 1 and 3) share."""

    X = operand_def(AnyTensor)
    aggregate_function = opt_prop_def(StringAttr)
    base_values = opt_prop_def(Floats)
    base_values_as_tensor = opt_prop_def(Dense)
    nodes_falsenodeids = opt_prop_def(Ints)
    nodes_featureids = opt_prop_def(Ints)
    nodes_hitrates = opt_prop_def(Floats)
    nodes_hitrates_as_tensor = opt_prop_def(Dense)
    nodes_missing_value_tracks_true = opt_prop_def(Ints)
    nodes_modes = opt_prop_def(Strings)
    nodes_nodeids = opt_prop_def(Ints)
    nodes_treeids = opt_prop_def(Ints)
    nodes_truenodeids = opt_prop_def(Ints)
    nodes_values = opt_prop_def(Floats)
    nodes_values_as_tensor = opt_prop_def(Dense)
    post_transform = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class TreeEnsembleRegressorOp(_TreeEnsembleV3):
    """`n_targets` values per row, summed (or averaged, min, max) over trees."""

    name = "onnx.TreeEnsembleRegressor"

    Y = result_def(AnyTensor)
    n_targets = opt_prop_def(IntegerAttr)
    target_ids = opt_prop_def(Ints)
    target_nodeids = opt_prop_def(Ints)
    target_treeids = opt_prop_def(Ints)
    target_weights = opt_prop_def(Floats)
    target_weights_as_tensor = opt_prop_def(Dense)


@irdl_op_definition
class TreeEnsembleClassifierOp(_TreeEnsembleV3):
    """A label and a score per class for each row."""

    name = "onnx.TreeEnsembleClassifier"

    Y = result_def(AnyTensor)
    Z = result_def(AnyTensor)
    class_ids = opt_prop_def(Ints)
    class_nodeids = opt_prop_def(Ints)
    class_treeids = opt_prop_def(Ints)
    class_weights = opt_prop_def(Floats)
    class_weights_as_tensor = opt_prop_def(Dense)
    classlabels_int64s = opt_prop_def(Ints)
    classlabels_strings = opt_prop_def(Strings)


@irdl_op_definition
class TreeEnsembleOp(MlOp):
    """ml opset 5's ensemble: leaves are their own ids (`nodes_trueleafs`),
    modes a uint8 tensor with set membership (`membership_values`)."""

    name = "onnx.TreeEnsemble"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    aggregate_function = opt_prop_def(IntegerAttr)
    leaf_targetids = opt_prop_def(Ints)
    leaf_weights = opt_prop_def(Dense)
    membership_values = opt_prop_def(Dense)
    n_targets = opt_prop_def(IntegerAttr)
    nodes_falseleafs = opt_prop_def(Ints)
    nodes_falsenodeids = opt_prop_def(Ints)
    nodes_featureids = opt_prop_def(Ints)
    nodes_hitrates = opt_prop_def(Dense)
    nodes_missing_value_tracks_true = opt_prop_def(Ints)
    nodes_modes = opt_prop_def(Dense)
    nodes_splits = opt_prop_def(Dense)
    nodes_trueleafs = opt_prop_def(Ints)
    nodes_truenodeids = opt_prop_def(Ints)
    post_transform = opt_prop_def(IntegerAttr)
    tree_roots = opt_prop_def(Ints)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class LinearRegressorOp(MlOp):
    """`X @ coefficients^T + intercepts`, `targets` columns."""

    name = "onnx.LinearRegressor"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    coefficients = opt_prop_def(Floats)
    intercepts = opt_prop_def(Floats)
    post_transform = opt_prop_def(StringAttr)
    targets = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class LinearClassifierOp(MlOp):
    """A score per class (`X @ coefficients^T + intercepts`) and the label."""

    name = "onnx.LinearClassifier"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    Z = result_def(AnyTensor)
    classlabels_ints = opt_prop_def(Ints)
    classlabels_strings = opt_prop_def(Strings)
    coefficients = opt_prop_def(Floats)
    intercepts = opt_prop_def(Floats)
    multi_class = opt_prop_def(IntegerAttr)
    post_transform = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ScalerOp(MlOp):
    """`(X - offset) * scale`, per feature or one for all."""

    name = "onnx.Scaler"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    offset = opt_prop_def(Floats)
    scale = opt_prop_def(Floats)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class NormalizerOp(MlOp):
    """Each row divided by its MAX, L1 or L2 norm."""

    name = "onnx.Normalizer"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    norm = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class BinarizerOp(MlOp):
    """1 where `X > threshold`, else 0."""

    name = "onnx.Binarizer"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    threshold = opt_prop_def(FloatAttr[AnyFloat])
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ArrayFeatureExtractorOp(MlOp):
    """The columns `Y` of `X`'s last axis."""

    name = "onnx.ArrayFeatureExtractor"

    X = operand_def(AnyTensor)
    Y = operand_def(AnyTensor)
    Z = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ImputerOp(MlOp):
    """`replaced_value_*` (NaN: any NaN) in X replaced by `imputed_value_*`,
    per feature or one for all."""

    name = "onnx.Imputer"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    imputed_value_floats = opt_prop_def(Floats)
    imputed_value_int64s = opt_prop_def(Ints)
    replaced_value_float = opt_prop_def(FloatAttr[AnyFloat])
    replaced_value_int64 = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class FeatureVectorizerOp(MlOp):
    """The inputs' columns side by side, as float."""

    name = "onnx.FeatureVectorizer"

    X = var_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    inputdimensions = opt_prop_def(Ints)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class OneHotEncoderOp(MlOp):
    """Each element one-hot over `cats_int64s` along a new last axis."""

    name = "onnx.OneHotEncoder"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    cats_int64s = opt_prop_def(Ints)
    cats_strings = opt_prop_def(Strings)
    zeros = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class LabelEncoderOp(MlOp):
    """Each element mapped by `keys_*` -> `values_*`, else the default
    (numeric keys and values; ml opsets 2 to 4)."""

    name = "onnx.LabelEncoder"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    default_float = opt_prop_def(FloatAttr[AnyFloat])
    default_int64 = opt_prop_def(IntegerAttr)
    default_string = opt_prop_def(StringAttr)
    default_tensor = opt_prop_def(Dense)
    keys_floats = opt_prop_def(Floats)
    keys_int64s = opt_prop_def(Ints)
    keys_strings = opt_prop_def(Strings)
    keys_tensor = opt_prop_def(Dense)
    values_floats = opt_prop_def(Floats)
    values_int64s = opt_prop_def(Ints)
    values_strings = opt_prop_def(Strings)
    values_tensor = opt_prop_def(Dense)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SVMRegressorOp(MlOp):
    """`sum_i coefficients[i] * K(X, support_vectors[i]) + rho` (or a linear
    model without support vectors); `one_class` gives its sign."""

    name = "onnx.SVMRegressor"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    coefficients = opt_prop_def(Floats)
    kernel_params = opt_prop_def(Floats)
    kernel_type = opt_prop_def(StringAttr)
    n_supports = opt_prop_def(IntegerAttr)
    one_class = opt_prop_def(IntegerAttr)
    post_transform = opt_prop_def(StringAttr)
    rho = opt_prop_def(Floats)
    support_vectors = opt_prop_def(Floats)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SVMClassifierOp(MlOp):
    """One-vs-one support vector classification: a decision value per pair
    of classes (`vectors_per_class` support vectors each) and its votes."""

    name = "onnx.SVMClassifier"

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    Z = result_def(AnyTensor)
    classlabels_ints = opt_prop_def(Ints)
    classlabels_strings = opt_prop_def(Strings)
    coefficients = opt_prop_def(Floats)
    kernel_params = opt_prop_def(Floats)
    kernel_type = opt_prop_def(StringAttr)
    post_transform = opt_prop_def(StringAttr)
    prob_a = opt_prop_def(Floats)
    prob_b = opt_prop_def(Floats)
    rho = opt_prop_def(Floats)
    support_vectors = opt_prop_def(Floats)
    vectors_per_class = opt_prop_def(Ints)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    TreeEnsembleRegressorOp,
    TreeEnsembleClassifierOp,
    TreeEnsembleOp,
    LinearRegressorOp,
    LinearClassifierOp,
    ScalerOp,
    NormalizerOp,
    BinarizerOp,
    ArrayFeatureExtractorOp,
    ImputerOp,
    FeatureVectorizerOp,
    OneHotEncoderOp,
    LabelEncoderOp,
    SVMRegressorOp,
    SVMClassifierOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "ArrayFeatureExtractorOp",
    "BinarizerOp",
    "FeatureVectorizerOp",
    "ImputerOp",
    "LabelEncoderOp",
    "LinearClassifierOp",
    "LinearRegressorOp",
    "MlOp",
    "NormalizerOp",
    "OneHotEncoderOp",
    "SVMClassifierOp",
    "SVMRegressorOp",
    "ScalerOp",
    "TreeEnsembleClassifierOp",
    "TreeEnsembleOp",
    "TreeEnsembleRegressorOp",
]
