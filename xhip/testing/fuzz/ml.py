"""Generators of the `ai.onnx.ml` ops (`onnx_to_hip/ml.py`), at ml opset 1
(the driver imports every other domain at version 1): small random tree
ensembles (every mode of opset 1, NaN tracked or not, each aggregate, leaves
that score some targets only), linear models, Scaler, Normalizer, Binarizer,
ArrayFeatureExtractor, Imputer, FeatureVectorizer, SVMRegressor and
SVMClassifier (each kernel), and OneHotEncoder on values rounded to small integers, on a (batch, features) value with static
features. Only the scores are graph values: a label ties where a score is
NaN, and ONNX Runtime breaks such ties otherwise than ArgMax does.
TreeEnsemble (ml opset 5, which deprecates the other two) and numeric
LabelEncoder (ml opset 2 on) are not drawn."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from onnx import helper

from xhip.testing.fuzz.graph import Generator, Graph, Value

ML = "ai.onnx.ml"
MODES = (
    "BRANCH_LEQ",
    "BRANCH_LT",
    "BRANCH_GTE",
    "BRANCH_GT",
    "BRANCH_EQ",
    "BRANCH_NEQ",
)
TRANSFORMS = ("NONE", "LOGISTIC", "SOFTMAX", "SOFTMAX_ZERO")


def _rows(g: Graph) -> Value | None:
    """A (batch, features) value with static features."""
    x = g.pick(rank=2)
    if x is None or not isinstance(x.shape[1], int):
        return None
    return x


def _node(
    g: Graph,
    op_type: str,
    inputs: list[str],
    shape: tuple[int | str, ...],
    **attrs: object,
) -> Value:
    """An ml node; a classifier's first output (the label) is not a value."""
    out = Value(g.fresh(op_type.lower()), shape)
    outputs = [out.name]
    if op_type.endswith("Classifier"):
        outputs.insert(0, g.fresh("label"))
    node = helper.make_node(op_type, inputs, outputs, name=out.name, domain=ML)
    node.attribute.extend(helper.make_attribute(k, v) for k, v in sorted(attrs.items()))
    g.nodes.append(node)
    g.values.append(out)
    return out


@dataclass
class _Trees:
    """The nodes_* attributes of a few trees, and each leaf's (tree, node)."""

    attrs: dict[str, list[object]] = field(default_factory=dict[str, list[object]])
    leaves: list[tuple[int, int]] = field(default_factory=list[tuple[int, int]])

    def add(self, **values: object) -> None:
        for key, value in values.items():
            self.attrs.setdefault(f"nodes_{key}", []).append(value)


def _trees(g: Graph, features: int) -> _Trees:
    rng = g.rng
    trees = _Trees()
    modes = MODES if rng.random() < 0.3 else MODES[:1]
    for tree in range(int(rng.integers(1, 4))):
        count = 0
        pending = [(0, 0)]  # (node id, depth)
        while pending:
            node, depth = pending.pop()
            leaf = depth >= 3 or (depth > 0 and rng.random() < 0.3)
            true = false = 0
            if not leaf:
                true, false = count + 1, count + 2
                count += 2
                pending += [(true, depth + 1), (false, depth + 1)]
            trees.add(
                treeids=tree,
                nodeids=node,
                featureids=int(rng.integers(features)),
                modes="LEAF" if leaf else str(rng.choice(modes)),
                values=float(np.round(rng.standard_normal(), 1)),
                truenodeids=true,
                falsenodeids=false,
                missing_value_tracks_true=int(rng.random() < 0.5),
            )
            if leaf:
                trees.leaves.append((tree, node))
    return trees


def _weights(
    g: Graph, trees: _Trees, targets: int, some: bool, prefix: str
) -> dict[str, list[object]]:
    """Each leaf's weight for each target (or, if `some`, a random subset)."""
    attrs: dict[str, list[object]] = {
        f"{prefix}_{k}": [] for k in ("ids", "nodeids", "treeids", "weights")
    }
    for tree, node in trees.leaves:
        for target in range(targets):
            if some and g.rng.random() < 0.4:
                continue
            attrs[f"{prefix}_ids"].append(target)
            attrs[f"{prefix}_nodeids"].append(node)
            attrs[f"{prefix}_treeids"].append(tree)
            attrs[f"{prefix}_weights"].append(
                float(np.round(g.rng.standard_normal(), 2))
            )
    return attrs


def _tree_regressor(g: Graph) -> Value | None:
    x = _rows(g)
    if x is None:
        return None
    assert isinstance(x.shape[1], int)
    rng = g.rng
    trees = _trees(g, x.shape[1])
    targets = int(rng.integers(1, 4))
    aggregate = str(rng.choice(["SUM", "AVERAGE", "MIN", "MAX"]))
    # A leaf without a weight scores nothing (the spec); ORT's one-target
    # kernels read the leaf's nodes_values instead, so only several targets
    # leave some unscored.
    weights = _weights(g, trees, targets, targets > 1 and rng.random() < 0.3, "target")
    extra: dict[str, object] = {}
    if rng.random() < 0.5:
        extra["base_values"] = [float(v) for v in rng.uniform(-1, 1, targets)]
    transform = str(rng.choice(TRANSFORMS)) if targets > 1 else "NONE"
    return _node(
        g,
        "TreeEnsembleRegressor",
        [x.name],
        (x.shape[0], targets),
        n_targets=targets,
        aggregate_function=aggregate,
        post_transform=transform,
        **trees.attrs,
        **weights,
        **extra,
    )


def _tree_classifier(g: Graph) -> Value | None:
    """Every leaf scores every class, or (binary) the first class only."""
    x = _rows(g)
    if x is None:
        return None
    assert isinstance(x.shape[1], int)
    rng = g.rng
    trees = _trees(g, x.shape[1])
    classes = int(rng.integers(2, 5))
    one_score = classes == 2 and rng.random() < 0.5
    weights = _weights(g, trees, 1 if one_score else classes, False, "class")
    if one_score and rng.random() < 0.5:  # all positive: [1 - s, s]
        weights["class_weights"] = [abs(float(w)) for w in weights["class_weights"]]  # pyright: ignore[reportArgumentType]
    extra: dict[str, object] = {}
    if classes > 2 and rng.random() < 0.5:
        extra["base_values"] = [float(v) for v in rng.uniform(-1, 1, classes)]
    return _node(
        g,
        "TreeEnsembleClassifier",
        [x.name],
        (x.shape[0], classes),
        classlabels_int64s=list(range(10, 10 + classes)),
        post_transform=str(rng.choice(TRANSFORMS)),
        **trees.attrs,
        **weights,
        **extra,
    )


def _coefficients(g: Graph, rows: int, features: int) -> list[float]:
    return [float(v) for v in g.rng.uniform(-1, 1, rows * features)]


def _linear_regressor(g: Graph) -> Value | None:
    x = _rows(g)
    if x is None:
        return None
    assert isinstance(x.shape[1], int)
    targets = int(g.rng.integers(1, 4))
    return _node(
        g,
        "LinearRegressor",
        [x.name],
        (x.shape[0], targets),
        coefficients=_coefficients(g, targets, x.shape[1]),
        intercepts=[float(v) for v in g.rng.uniform(-1, 1, targets)],
        targets=targets,
        post_transform=str(g.rng.choice(TRANSFORMS)) if targets > 1 else "NONE",
    )


def _linear_classifier(g: Graph) -> Value | None:
    """One score for two labels (ORT's binary case) or one per class."""
    x = _rows(g)
    if x is None:
        return None
    assert isinstance(x.shape[1], int)
    classes = int(g.rng.integers(2, 5))
    scores = 1 if classes == 2 and g.rng.random() < 0.5 else classes
    return _node(
        g,
        "LinearClassifier",
        [x.name],
        (x.shape[0], classes),
        classlabels_ints=list(range(classes)),
        coefficients=_coefficients(g, scores, x.shape[1]),
        intercepts=[float(v) for v in g.rng.uniform(-1, 1, scores)],
        post_transform=str(g.rng.choice(TRANSFORMS)),
    )


def _scaler(g: Graph) -> Value | None:
    x = _rows(g)
    if x is None:
        return None
    assert isinstance(x.shape[1], int)
    n = x.shape[1] if g.rng.random() < 0.7 else 1
    return _node(
        g,
        "Scaler",
        [x.name],
        x.shape,
        offset=[float(v) for v in g.rng.uniform(-1, 1, n)],
        scale=[float(v) for v in g.rng.uniform(0.5, 2, n)],
    )


def _normalizer(g: Graph) -> Value | None:
    x = _rows(g)
    if x is None:
        return None
    return _node(
        g, "Normalizer", [x.name], x.shape, norm=str(g.rng.choice(["MAX", "L1", "L2"]))
    )


def _binarizer(g: Graph) -> Value | None:
    """Of the value with NaN made 0: ONNX Runtime fails on a NaN."""
    x = g.pick()
    if x is None:
        return None
    nan = g.add("IsNaN", [x.name], x.shape)
    zero = g.constant(np.zeros((), np.float32))
    finite = g.add("Where", [nan.name, zero, x.name], x.shape)
    del g.values[-2:]
    threshold = float(np.round(g.rng.standard_normal(), 1))
    return _node(g, "Binarizer", [finite.name], x.shape, threshold=threshold)


def _array_feature_extractor(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape or not isinstance(x.shape[-1], int):
        return None
    count = int(g.rng.integers(1, 4))
    picked = g.rng.integers(0, x.shape[-1], count).astype(np.int64)
    shape = (*x.shape[:-1], count) if len(x.shape) > 1 else (1, count)
    return _node(g, "ArrayFeatureExtractor", [x.name, g.constant(picked)], shape)


def _imputer(g: Graph) -> Value | None:
    """NaN (or a value that rounding made common: 0) replaced per feature."""
    x = _rows(g)
    if x is None:
        return None
    assert isinstance(x.shape[1], int)
    n = x.shape[1] if g.rng.random() < 0.7 else 1
    replaced = float("nan") if g.rng.random() < 0.7 else 0.0
    imputed = [float(v) for v in g.rng.uniform(-1, 1, n)]
    return _node(
        g,
        "Imputer",
        [x.name],
        x.shape,
        imputed_value_floats=imputed,
        replaced_value_float=replaced,
    )


def _integers(g: Graph, x: Value) -> str:
    """`x` rounded to int64 in [-3, 3] (NaN made 0), not a value others read."""
    nan = g.add("IsNaN", [x.name], x.shape)
    zero = g.constant(np.zeros((), np.float32))
    finite = g.add("Where", [nan.name, zero, x.name], x.shape)
    low, high = (g.constant(np.asarray(v, np.float32)) for v in (-3.0, 3.0))
    clipped = g.add("Clip", [finite.name, low, high], x.shape)
    rounded = g.add("Round", [clipped.name], x.shape)
    cast = g.add("Cast", [rounded.name], x.shape, to=7)  # INT64
    del g.values[-5:]
    return cast.name


def _one_hot_encoder(g: Graph) -> Value | None:
    x = _rows(g)
    if x is None:
        return None
    cats = sorted({int(v) for v in g.rng.integers(-3, 4, int(g.rng.integers(1, 5)))})
    return _node(
        g,
        "OneHotEncoder",
        [_integers(g, x)],
        (*x.shape, len(cats)),
        cats_int64s=cats,
        zeros=1,
    )


def _feature_vectorizer(g: Graph) -> Value | None:
    """One or two (batch, features) values side by side, at their widths;
    now and then one more whose width is known only at run time (a
    (batch, seq, features) value's mean over its features), at a drawn
    width (ORT pads it with zeros or cuts it)."""
    x = _rows(g)
    if x is None:
        return None
    same = [v for v in g.values if len(v.shape) == 2 and v.shape[0] == x.shape[0]]
    picked = [
        x,
        *(
            same[int(g.rng.integers(len(same)))]
            for _ in range(int(g.rng.integers(0, 2)))
        ),
    ]
    widths = [v.shape[1] if isinstance(v.shape[1], int) else 0 for v in picked]
    steps = [v for v in g.values if len(v.shape) == 3 and v.shape[0] == x.shape[0]]
    if steps and g.rng.random() < 0.5:
        y = steps[int(g.rng.integers(len(steps)))]
        axes = g.constant(np.array([2], np.int64), "axes")
        mean = g.add("ReduceMean", [y.name, axes], y.shape[:2], keepdims=0)
        g.values.pop()
        picked.append(mean)
        widths.append(0)
    widths = [w if w else int(g.rng.integers(1, 6)) for w in widths]
    return _node(
        g,
        "FeatureVectorizer",
        [v.name for v in picked],
        (x.shape[0], sum(widths)),
        inputdimensions=widths,
    )


def _svm_regressor(g: Graph) -> Value | None:
    """A few support vectors, each kernel; one_class now and then."""
    x = _rows(g)
    if x is None:
        return None
    features = x.shape[1]
    assert isinstance(features, int)
    rng = g.rng
    supports = int(rng.integers(1, 5))
    kernel = str(rng.choice(["LINEAR", "POLY", "RBF", "SIGMOID"]))
    degree = float(rng.integers(1, 4))
    params = [
        float(np.round(rng.uniform(0.1, 0.5), 2)),
        float(np.round(rng.uniform(-1, 1), 2)),
        degree,
    ]
    vectors = rng.uniform(-1, 1, supports * features)
    return _node(
        g,
        "SVMRegressor",
        [x.name],
        (x.shape[0], 1),
        kernel_type=kernel,
        kernel_params=params,
        n_supports=supports,
        support_vectors=[float(v) for v in vectors],
        coefficients=[float(v) for v in rng.uniform(-1, 1, supports)],
        rho=[float(rng.uniform(-1, 1))],
        one_class=int(rng.random() < 0.2),
    )


def _svm_classifier(g: Graph) -> Value | None:
    """One-vs-one over 2 to 4 classes of 1 to 3 support vectors each."""
    x = _rows(g)
    if x is None:
        return None
    features = x.shape[1]
    assert isinstance(features, int)
    rng = g.rng
    classes = int(rng.integers(2, 5))
    counts = [int(v) for v in rng.integers(1, 4, classes)]
    supports = sum(counts)
    kernel = str(rng.choice(["LINEAR", "POLY", "RBF", "SIGMOID"]))
    gamma, coef0 = (
        float(np.round(v, 2)) for v in (rng.uniform(0.1, 0.5), rng.uniform(-1, 1))
    )
    pairs = classes * (classes - 1) // 2
    return _node(
        g,
        "SVMClassifier",
        [x.name],
        (x.shape[0], pairs if classes > 2 else 2),
        classlabels_ints=list(range(classes)),
        kernel_type=kernel,
        kernel_params=[gamma, coef0, float(rng.integers(1, 4))],
        vectors_per_class=counts,
        support_vectors=[float(v) for v in rng.uniform(-1, 1, supports * features)],
        coefficients=[float(v) for v in rng.uniform(-1, 1, (classes - 1) * supports)],
        rho=[float(v) for v in rng.uniform(-1, 1, pairs)],
    )


GENERATORS: dict[str, Generator] = {
    f"{ML}.TreeEnsembleRegressor": _tree_regressor,
    f"{ML}.TreeEnsembleClassifier": _tree_classifier,
    f"{ML}.LinearRegressor": _linear_regressor,
    f"{ML}.LinearClassifier": _linear_classifier,
    f"{ML}.Scaler": _scaler,
    f"{ML}.Normalizer": _normalizer,
    f"{ML}.Binarizer": _binarizer,
    f"{ML}.ArrayFeatureExtractor": _array_feature_extractor,
    f"{ML}.Imputer": _imputer,
    f"{ML}.OneHotEncoder": _one_hot_encoder,
    f"{ML}.FeatureVectorizer": _feature_vectorizer,
    f"{ML}.SVMRegressor": _svm_regressor,
    f"{ML}.SVMClassifier": _svm_classifier,
}
