"""The `ai.onnx.ml` ops -> the onnx ops they are made of (`compose.Parts`),
each then converted by its own pattern: no kernel of their own.

Tree ensembles (TreeEnsembleRegressor, TreeEnsembleClassifier, TreeEnsemble)
by the GEMM formulation (Hummingbird's), its matrices computed here from the
attributes, one batch entry per tree (internal nodes and leaves padded to the
largest tree):

- `v = Gather(X, features, axis=1)` transposed to (trees, N, nodes): exact,
  where a one-hot MatMul would turn an inf into NaN;
- `t` = each node's test (`v <= threshold`, ..., set membership), true for
  a NaN where the node's missing value tracks true, as float 0/1;
- `hit = (t @ paths == turns)`: `paths` (trees, nodes, leaves) is +1 where
  the leaf lies under the node's true branch, -1 under its false one, and
  `turns` each leaf's count of true branches (exact small integers);
- `hit @ weights` (trees, N, targets) is each tree's leaf value exactly (one
  1 per row), summed over trees in tree order (`ReduceSum`), averaged, or
  `ReduceMax`/`ReduceMin` over the trees that score the target.

Then `base_values`, the post transform and the classifier's label as ONNX
Runtime computes them (`tree_ensemble_aggregator.h`, `ml_common.h`): a binary
classifier whose weights all name one class writes `[1 - s, s]` (all weights
positive), `[-s, s]` (mixed) or `[sigmoid(-s), sigmoid(s)]` (LOGISTIC), its
label from `s > 0.5` or `s > 0`. float32 sums may differ from ORT's in the
last bits (ORT sums tree by tree too); tests compare at rtol 1e-5.

Linear models are a `Gemm` (the SVMs: `ml_svm.py`);
Scaler, Normalizer, Binarizer, ArrayFeatureExtractor, Imputer,
OneHotEncoder, LabelEncoder and FeatureVectorizer their formulas
(docs/ml.md). PROBIT (an inverse erf xhip has no op for), string labels and
ORT's ill-defined binary cases are refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    f32,
    f64,
    i1,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import onnx
from xhip.transforms.onnx_to_hip.compose import Parts, PatternFactory, si64
from xhip.transforms.onnx_to_hip.compute import (
    ConvertCast,
    ConvertConcat,
    ConvertGemm,
    ConvertMatMul,
    ConvertPow,
    ConvertSoftmax,
    ConvertTranspose,
    elementwise_pattern,
)
from xhip.transforms.onnx_to_hip.gather import ConvertGather
from xhip.transforms.onnx_to_hip.ml_trees import (
    MODES,
    Ensemble,
    floats,
    int_attr,
    ints,
    keys_or_values,
    label_default,
    string,
    strings,
    tree_ensemble,
    v3_ensemble,
)
from xhip.transforms.onnx_to_hip.pad import ConvertPad
from xhip.transforms.onnx_to_hip.reduce import (
    ConvertArgMax,
    ConvertReduceL1,
    ConvertReduceL2,
    ConvertReduceMax,
    ConvertReduceMin,
    ConvertReduceSum,
)
from xhip.transforms.onnx_to_hip.reshape import ConvertReshape, ConvertUnsqueeze
from xhip.transforms.onnx_to_hip.slice import ConvertSlice
from xhip.transforms.onnx_to_hip.support import OnnxPattern, Unsupported, ranked

PATTERNS: dict[type[onnx.OnnxOp], PatternFactory] = {
    **{
        t: elementwise_pattern(t)
        for t in (
            onnx.AddOp,
            onnx.SubOp,
            onnx.MulOp,
            onnx.DivOp,
            onnx.ExpOp,
            onnx.NegOp,
            onnx.AbsOp,
            onnx.SigmoidOp,
            onnx.TanhOp,
            onnx.ReluOp,
            onnx.EqualOp,
            onnx.LessOp,
            onnx.LessOrEqualOp,
            onnx.GreaterOp,
            onnx.GreaterOrEqualOp,
            onnx.NotOp,
            onnx.AndOp,
            onnx.OrOp,
            onnx.IsNaNOp,
            onnx.WhereOp,
        )
    },
    onnx.CastOp: ConvertCast,
    onnx.PowOp: ConvertPow,
    onnx.ConcatOp: ConvertConcat,
    onnx.PadOp: ConvertPad,
    onnx.SliceOp: ConvertSlice,
    onnx.GatherOp: ConvertGather,
    onnx.TransposeOp: ConvertTranspose,
    onnx.MatMulOp: ConvertMatMul,
    onnx.GemmOp: ConvertGemm,
    onnx.SoftmaxOp: ConvertSoftmax,
    onnx.ArgMaxOp: ConvertArgMax,
    onnx.ReshapeOp: ConvertReshape,
    onnx.UnsqueezeOp: ConvertUnsqueeze,
    onnx.ReduceSumOp: ConvertReduceSum,
    onnx.ReduceMaxOp: ConvertReduceMax,
    onnx.ReduceMinOp: ConvertReduceMin,
    onnx.ReduceL1Op: ConvertReduceL1,
    onnx.ReduceL2Op: ConvertReduceL2,
}
"""The ops these are made of, and their patterns."""

COMPARE: dict[int, type[onnx.OnnxOp]] = {
    0: onnx.LessOrEqualOp,
    1: onnx.LessOp,
    2: onnx.GreaterOrEqualOp,
    3: onnx.GreaterOp,
    4: onnx.EqualOp,
}
POST_TRANSFORMS = ("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT")
AGGREGATES = ("AVERAGE", "SUM", "MIN", "MAX")
"""By TreeEnsemble's codes; the older ops name them."""


# Building the parts.


def dtype_of(element: Attribute) -> type[np.floating[Any]]:
    return np.float64 if element == f64 else np.float32


def scalar(parts: Parts, value: float, element: Attribute) -> SSAValue:
    return parts.constant(np.asarray(value, dtype_of(element)), element)


def as_float(parts: Parts, x: SSAValue, what: str) -> tuple[SSAValue, Attribute]:
    x_type = ranked(x, what)
    element = x_type.get_element_type()
    if isinstance(element, AnyFloat) and element in (f32, f64):
        return x, element
    if not isinstance(element, IntegerType):
        raise Unsupported(f"{what} must be float, double or an integer, got {x.type}")
    shape = list(x_type.get_shape())
    cast = parts.insert(onnx.CastOp, [x], TensorType(f32, shape), {"to": f32})
    return cast, f32


def rows_of(x: SSAValue, what: str) -> int:
    shape = ranked(x, what).get_shape()
    if len(shape) != 2:
        raise Unsupported(f"{what} must be 2-D (rows, features), got {x.type}")
    return shape[0]


def _tree_values(
    parts: Parts, x: SSAValue, element: Attribute, e: Ensemble
) -> tuple[SSAValue, SSAValue]:
    """Each tree's value (trees, N, targets) and leaf hits (trees, N, leaves)
    in `element`; the tests compare in X's type (ORT compares a double X
    with float thresholds in double)."""
    rows = rows_of(x, "X")
    count, inner = e.features.shape
    leaves, targets = e.weights.shape[1:]
    dtype = dtype_of(element)
    x_element = ranked(x, "X").get_element_type()
    x_dtype = dtype_of(x_element)

    def const(values: np.ndarray, el: Attribute = element) -> SSAValue:
        return parts.constant(values, el)

    def typed(shape: list[int], el: Attribute = element) -> TensorType[Attribute]:
        return TensorType(el, shape)

    gathered = parts.insert(
        onnx.GatherOp,
        [x, const(e.features, i64)],
        typed([rows, count, inner], x_element),
        {"axis": si64(1)},
    )
    perm = ArrayAttr([IntegerAttr(p, 64) for p in (1, 0, 2)])
    v = parts.insert(
        onnx.TransposeOp,
        [gathered],
        typed([count, rows, inner], x_element),
        {"perm": perm},
    )
    bools = typed([count, rows, inner], i1)
    by_node = [count, 1, inner]
    test: SSAValue | None = None
    for mode in sorted(set(e.modes.reshape(-1).tolist())):
        if mode == MODES.index("BRANCH_MEMBER"):
            result = None
            for j in range(e.members.shape[2]):
                values = e.members[:, :, j].reshape(by_node).astype(x_dtype)
                eq = parts.insert(onnx.EqualOp, [v, const(values, x_element)], bools)
                result = (
                    eq
                    if result is None
                    else parts.insert(onnx.OrOp, [result, eq], bools)
                )
            assert result is not None
        else:
            thresholds = const(e.thresholds.reshape(by_node).astype(x_dtype), x_element)
            kind = COMPARE.get(mode, onnx.EqualOp)
            result = parts.insert(kind, [v, thresholds], bools)
            if mode == MODES.index("BRANCH_NEQ"):
                result = parts.insert(onnx.NotOp, [result], bools)
        if test is None:
            test = result
        else:
            mask = const((e.modes == mode).reshape(by_node), i1)
            test = parts.insert(onnx.WhereOp, [mask, result, test], bools)
    assert test is not None
    if e.tracks.any():
        nan = parts.insert(onnx.IsNaNOp, [v], bools)
        tracked = const(e.tracks.reshape(by_node), i1)
        nan = parts.insert(onnx.AndOp, [nan, tracked], bools)
        test = parts.insert(onnx.OrOp, [test, nan], bools)
    t = parts.insert(onnx.CastOp, [test], typed([count, rows, inner], f32), {"to": f32})
    turned = parts.insert(
        onnx.MatMulOp,
        [t, const(e.paths.astype(np.float32), f32)],
        typed([count, rows, leaves], f32),
    )
    turns = const(e.turns.reshape(count, 1, leaves).astype(np.float32), f32)
    hit = parts.insert(onnx.EqualOp, [turned, turns], typed([count, rows, leaves], i1))
    hits = parts.insert(
        onnx.CastOp, [hit], typed([count, rows, leaves]), {"to": element}
    )
    values = parts.insert(
        onnx.MatMulOp,
        [hits, const(e.weights.astype(dtype))],
        typed([count, rows, targets]),
    )
    return values, hits


def reduce_over(
    parts: Parts,
    kind: type[onnx.ReduceBase],
    x: SSAValue,
    axis: int,
    keep: bool = False,
) -> SSAValue:
    x_type = ranked(x, "the reduced value")
    shape = list(x_type.get_shape())
    axis %= len(shape)
    out = [1 if d == axis else n for d, n in enumerate(shape)]
    if not keep:
        del out[axis]
    return parts.insert(
        kind,
        [x, []],
        TensorType(x_type.get_element_type(), out),
        {"axes": ArrayAttr([si64(axis)]), "keepdims": si64(int(keep))},
    )


def _aggregate(
    parts: Parts,
    x: SSAValue,
    element: Attribute,
    e: Ensemble,
    aggregate: str,
    base: np.ndarray,
    unscored_zero: bool = False,
) -> SSAValue:
    """The ensemble's scores (N, targets): aggregated over trees, plus `base`
    where it has one value per target (ORT ignores it otherwise). As ORT's
    regressor does, a target no reached leaf scores is 0, without `base`:
    always under MIN/MAX, under SUM/AVERAGE with `unscored_zero` (fuzz seed
    140353)."""
    values, hits = _tree_values(parts, x, element, e)
    count, rows, targets = ranked(values, "values").get_shape()
    out_type = TensorType(element, [rows, targets])
    per_tree = TensorType(element, [count, rows, targets])
    scored_everywhere = e.scored.any(axis=0).all() and all(
        e.scored[t, e.turns[t] >= 0].all() for t in range(count)
    )
    has: SSAValue | None = None
    if not scored_everywhere and (aggregate in ("MIN", "MAX") or unscored_zero):
        scored = parts.constant(e.scored.astype(dtype_of(element)), element)
        has = parts.insert(onnx.MatMulOp, [hits, scored], per_tree)
    if aggregate in ("SUM", "AVERAGE"):
        scores = reduce_over(parts, onnx.ReduceSumOp, values, 0)
        if aggregate == "AVERAGE":
            n = scalar(parts, float(count), element)
            scores = parts.insert(onnx.DivOp, [scores, n], out_type)
    elif aggregate in ("MIN", "MAX"):
        kind = onnx.ReduceMaxOp if aggregate == "MAX" else onnx.ReduceMinOp
        if has is None:
            scores = reduce_over(parts, kind, values, 0)
        else:
            half = scalar(parts, 0.5, element)
            yes = parts.insert(
                onnx.GreaterOp, [has, half], TensorType(i1, [count, rows, targets])
            )
            inf = float("-inf") if aggregate == "MAX" else float("inf")
            masked = parts.insert(
                onnx.WhereOp, [yes, values, scalar(parts, inf, element)], per_tree
            )
            scores = reduce_over(parts, kind, masked, 0)
    else:
        raise Unsupported(f"aggregate_function {aggregate} is not one of {AGGREGATES}")
    if len(base) == targets:
        offset = parts.constant(base.astype(dtype_of(element)), element)
        scores = parts.insert(onnx.AddOp, [scores, offset], out_type)
    if has is None:
        return scores
    any_ = reduce_over(parts, onnx.ReduceMaxOp, has, 0)
    half = scalar(parts, 0.5, element)
    some = parts.insert(onnx.GreaterOp, [any_, half], TensorType(i1, [rows, targets]))
    zero = scalar(parts, 0.0, element)
    return parts.insert(onnx.WhereOp, [some, scores, zero], out_type)


def post_transform(parts: Parts, scores: SSAValue, transform: str) -> SSAValue:
    """ORT's post transform of (N, classes) scores; one column is left as it
    is (ORT transforms only it under PROBIT, which is refused)."""
    score_type = ranked(scores, "scores")
    shape = list(score_type.get_shape())
    element = score_type.get_element_type()
    if transform == "PROBIT":
        raise Unsupported("post_transform PROBIT is not supported (no inverse erf)")
    if transform not in POST_TRANSFORMS:
        raise Unsupported(f"post_transform {transform} is not one of {POST_TRANSFORMS}")
    if shape[-1] == 1 or transform == "NONE":
        return scores
    if transform == "LOGISTIC":
        return parts.insert(onnx.SigmoidOp, [scores], score_type)
    if transform == "SOFTMAX":
        return parts.insert(onnx.SoftmaxOp, [scores], score_type, {"axis": si64(-1)})
    # SOFTMAX_ZERO: a score within 1e-7 of 0 takes no part in the sum, and
    # is written as `v * exp(-max)`.
    top = reduce_over(parts, onnx.ReduceMaxOp, scores, -1, keep=True)
    top_type = top.type
    shifted = parts.insert(onnx.SubOp, [scores, top], score_type)
    exp = parts.insert(onnx.ExpOp, [shifted], score_type)
    magnitude = parts.insert(onnx.AbsOp, [scores], score_type)
    bools = TensorType(i1, shape)
    tiny = scalar(parts, 1e-7, element)
    nonzero = parts.insert(onnx.GreaterOp, [magnitude, tiny], bools)
    zero = scalar(parts, 0.0, element)
    counted = parts.insert(onnx.WhereOp, [nonzero, exp, zero], score_type)
    total = reduce_over(parts, onnx.ReduceSumOp, counted, -1, keep=True)
    neg = parts.insert(onnx.NegOp, [top], top_type)
    scale = parts.insert(onnx.ExpOp, [neg], top_type)
    small = parts.insert(onnx.MulOp, [scores, scale], score_type)
    chosen = parts.insert(onnx.WhereOp, [nonzero, exp, small], score_type)
    return parts.insert(onnx.DivOp, [chosen, total], score_type)


def _column(parts: Parts, scores: SSAValue, index: int) -> SSAValue:
    """Column `index` of (N, C) scores, as (N, 1)."""
    score_type = ranked(scores, "scores")
    rows = score_type.get_shape()[0]
    return parts.insert(
        onnx.GatherOp,
        [scores, parts.ints([index])],
        TensorType(score_type.get_element_type(), [rows, 1]),
        {"axis": si64(1)},
    )


def binary_scores(
    parts: Parts, s: SSAValue, transform: str, positive: bool
) -> SSAValue:
    """ORT's two columns from one score `s` (N, 1): `[1 - s, s]` for all
    positive weights, `[-s, s]` for mixed ones, `[sigmoid(-s), sigmoid(s)]`
    under LOGISTIC."""
    s_type = ranked(s, "the score")
    rows = s_type.get_shape()[0]
    element = s_type.get_element_type()
    if transform == "PROBIT":
        raise Unsupported("post_transform PROBIT of one binary score is not supported")
    if transform not in POST_TRANSFORMS:
        raise Unsupported(f"post_transform {transform} is not one of {POST_TRANSFORMS}")
    if transform == "LOGISTIC":
        neg = parts.insert(onnx.NegOp, [s], s_type)
        first = parts.insert(onnx.SigmoidOp, [neg], s_type)
        second = parts.insert(onnx.SigmoidOp, [s], s_type)
    elif positive:
        one = scalar(parts, 1.0, element)
        first, second = parts.insert(onnx.SubOp, [one, s], s_type), s
    else:
        first, second = parts.insert(onnx.NegOp, [s], s_type), s
    return parts.insert(
        onnx.ConcatOp,
        [[first, second]],
        TensorType(element, [rows, 2]),
        {"axis": si64(1)},
    )


def threshold_label(
    parts: Parts, s: SSAValue, threshold: float, labels: Sequence[int]
) -> SSAValue:
    """`labels[1]` where `s > threshold`, else `labels[0]`, as (N,)."""
    s_type = ranked(s, "the score")
    rows = s_type.get_shape()[0]
    above = parts.insert(
        onnx.GreaterOp,
        [s, scalar(parts, threshold, s_type.get_element_type())],
        TensorType(i1, [rows, 1]),
    )
    yes, no = (parts.constant(np.asarray(v, np.int64), i64) for v in labels[1::-1])
    label = parts.insert(onnx.WhereOp, [above, yes, no], TensorType(i64, [rows, 1]))
    return parts.insert(
        onnx.ReshapeOp, [label, parts.ints([-1])], TensorType(i64, [rows])
    )


def argmax_label(parts: Parts, scores: SSAValue, labels: Sequence[int]) -> SSAValue:
    """The label of the first largest score of each row."""
    rows = ranked(scores, "scores").get_shape()[0]
    index = parts.insert(
        onnx.ArgMaxOp,
        [scores],
        TensorType(i64, [rows]),
        {"axis": si64(1), "keepdims": si64(0)},
    )
    if list(labels) == list(range(len(labels))):
        return index
    table = parts.constant(np.asarray(labels, np.int64), i64)
    return parts.insert(
        onnx.GatherOp, [table, index], TensorType(i64, [rows]), {"axis": si64(0)}
    )


def int_labels(op: onnx.OnnxOp, name: str) -> list[int]:
    if strings(op, "classlabels_strings"):
        raise Unsupported("string class labels are not supported (int64 labels are)")
    labels = [int(v) for v in ints(op, name)]
    if not labels:
        raise Unsupported(f"{name} is empty")
    return labels


def finish_classifier(
    parts: Parts,
    op: onnx.OnnxOp,
    label: SSAValue,
    scores: SSAValue,
) -> None:
    """The label and the scores, cast to the results' element types."""
    values = [label, scores]
    for i, (value, result) in enumerate(zip(values, op.results, strict=True)):
        want = ranked(result, "a result").get_element_type()
        have = ranked(value, "a result").get_element_type()
        if want != have:
            shape = list(ranked(value, "a result").get_shape())
            values[i] = parts.insert(
                onnx.CastOp, [value], TensorType(want, shape), {"to": want}
            )
    parts.finish(values)


def finish_values(parts: Parts, op: onnx.OnnxOp, value: SSAValue) -> None:
    (result,) = op.results
    want = ranked(result, "the result").get_element_type()
    value_type = ranked(value, "the result")
    if value_type.get_element_type() != want:
        shape = list(value_type.get_shape())
        value = parts.insert(
            onnx.CastOp, [value], TensorType(want, shape), {"to": want}
        )
    parts.finish([value])


class ConvertTreeEnsembleRegressor(OnnxPattern[onnx.TreeEnsembleRegressorOp]):
    def convert(
        self, op: onnx.TreeEnsembleRegressorOp, rewriter: PatternRewriter
    ) -> None:
        targets = int_attr(op, "n_targets", 0)
        if targets < 1:
            raise Unsupported("n_targets must be at least 1")
        e = v3_ensemble(op, "target", targets)
        parts = Parts(self, op, rewriter, PATTERNS)
        x, _ = as_float(parts, op.X, "X")
        base = floats(op, "base_values", "base_values_as_tensor")
        aggregate = string(op, "aggregate_function", "SUM")
        scores = _aggregate(parts, x, f32, e, aggregate, base, unscored_zero=True)
        scores = post_transform(parts, scores, string(op, "post_transform", "NONE"))
        finish_values(parts, op, scores)


class ConvertTreeEnsemble(OnnxPattern[onnx.TreeEnsembleOp]):
    def convert(self, op: onnx.TreeEnsembleOp, rewriter: PatternRewriter) -> None:
        if int_attr(op, "n_targets", 0) < 1:
            raise Unsupported("n_targets must be at least 1")
        e = tree_ensemble(op)
        parts = Parts(self, op, rewriter, PATTERNS)
        x, element = as_float(parts, op.X, "X")
        aggregate = int_attr(op, "aggregate_function", 1)
        if not 0 <= aggregate < len(AGGREGATES):
            raise Unsupported(f"aggregate_function must be in [0, {len(AGGREGATES)})")
        code = int_attr(op, "post_transform", 0)
        if not 0 <= code < len(POST_TRANSFORMS):
            raise Unsupported(f"post_transform must be in [0, {len(POST_TRANSFORMS)})")
        scores = _aggregate(parts, x, element, e, AGGREGATES[aggregate], np.zeros(0))
        scores = post_transform(parts, scores, POST_TRANSFORMS[code])
        finish_values(parts, op, scores)


class ConvertTreeEnsembleClassifier(OnnxPattern[onnx.TreeEnsembleClassifierOp]):
    def convert(
        self, op: onnx.TreeEnsembleClassifierOp, rewriter: PatternRewriter
    ) -> None:
        labels = int_labels(op, "classlabels_int64s")
        classes = len(labels)
        e = v3_ensemble(op, "class", classes)
        transform = string(op, "post_transform", "NONE")
        base = floats(op, "base_values", "base_values_as_tensor")
        if len(base) not in (0, classes) and not (classes == 2 and len(base) == 1):
            raise Unsupported(
                f"base_values has {len(base)} values for {classes} classes"
            )
        ids = sorted({int(c) for c in ints(op, "class_ids")})
        weights = floats(op, "class_weights", "class_weights_as_tensor")
        trees = range(e.weights.shape[0])
        real = [e.turns[t] >= 0 for t in trees]
        always = [
            any(e.scored[t, real[t], k].all() for t in trees) for k in range(classes)
        ]
        parts = Parts(self, op, rewriter, PATTERNS)
        x, _ = as_float(parts, op.X, "X")
        if classes == 2 and len(ids) == 1:  # ORT's binary case: one score
            if ids != [0] or not always[0]:
                raise Unsupported(
                    "a binary classifier whose weights all name class 1, or "
                    "that not every leaf scores, is not supported"
                )
            if len(base) == 2:
                raise Unsupported(
                    "two base_values for one binary score are not supported"
                )
            sums = _aggregate(parts, x, f32, e, "SUM", base[:1])
            s = _column(parts, sums, 0)
            positive = bool((weights >= 0).all())
            label = threshold_label(parts, s, 0.5 if positive else 0.0, labels)
            finish_classifier(
                parts, op, label, binary_scores(parts, s, transform, positive)
            )
            return
        if not all(always) and len(base) != classes:
            raise Unsupported("a class that some leaves do not score is not supported")
        if classes == 2:  # both classes scored: label by the second score
            if len(base) == 2:
                raise Unsupported("base_values for two scored classes is not supported")
            if len(base) == 1:
                base = np.asarray([base[0], 0.0])
            sums = _aggregate(parts, x, f32, e, "SUM", base)
            label = threshold_label(parts, _column(parts, sums, 1), 0.0, [0, 1])
        else:
            sums = _aggregate(parts, x, f32, e, "SUM", base)
            label = argmax_label(parts, sums, labels)
        finish_classifier(parts, op, label, post_transform(parts, sums, transform))


def _linear(
    parts: Parts, op: onnx.LinearRegressorOp | onnx.LinearClassifierOp, outputs: int
) -> SSAValue:
    """`X @ coefficients^T + intercepts` (N, outputs) in float32."""
    rows = rows_of(op.X, "X")
    x, element = as_float(parts, op.X, "X")
    features = ranked(op.X, "X").get_shape()[1]
    if element != f32:
        x = parts.insert(
            onnx.CastOp, [x], TensorType(f32, [rows, features]), {"to": f32}
        )
    coefficients = floats(op, "coefficients")
    if outputs < 1 or len(coefficients) % outputs:
        raise Unsupported(
            f"{len(coefficients)} coefficients do not make {outputs} rows"
        )
    width = len(coefficients) // outputs
    if features not in (DYNAMIC_INDEX, width):
        raise Unsupported(f"X has {features} features, the coefficients {width}")
    intercepts = floats(op, "intercepts")
    if len(intercepts) not in (0, outputs):
        raise Unsupported(f"{len(intercepts)} intercepts for {outputs} outputs")
    weights = parts.constant(
        coefficients.reshape(outputs, width).astype(np.float32), f32
    )
    operands: list[SSAValue | list[SSAValue]] = [x, weights]
    operands.append(
        [parts.constant(intercepts.astype(np.float32), f32)] if len(intercepts) else []
    )
    return parts.insert(
        onnx.GemmOp, operands, TensorType(f32, [rows, outputs]), {"transB": si64(1)}
    )


class ConvertLinearRegressor(OnnxPattern[onnx.LinearRegressorOp]):
    def convert(self, op: onnx.LinearRegressorOp, rewriter: PatternRewriter) -> None:
        parts = Parts(self, op, rewriter, PATTERNS)
        scores = _linear(parts, op, int_attr(op, "targets", 1))
        scores = post_transform(parts, scores, string(op, "post_transform", "NONE"))
        finish_values(parts, op, scores)


class ConvertLinearClassifier(OnnxPattern[onnx.LinearClassifierOp]):
    def convert(self, op: onnx.LinearClassifierOp, rewriter: PatternRewriter) -> None:
        labels = int_labels(op, "classlabels_ints")
        outputs = len(floats(op, "intercepts"))
        transform = string(op, "post_transform", "NONE")
        if outputs == 1 and len(labels) != 2:
            raise Unsupported("one score needs exactly two class labels")
        if outputs not in (1, len(labels)):
            raise Unsupported(f"{outputs} scores for {len(labels)} class labels")
        parts = Parts(self, op, rewriter, PATTERNS)
        scores = _linear(parts, op, outputs)
        if outputs == 1:
            label = threshold_label(parts, scores, 0.0, labels)
            finish_classifier(
                parts, op, label, binary_scores(parts, scores, transform, True)
            )
            return
        label = argmax_label(parts, scores, labels)
        finish_classifier(parts, op, label, post_transform(parts, scores, transform))


class ConvertScaler(OnnxPattern[onnx.ScalerOp]):
    def convert(self, op: onnx.ScalerOp, rewriter: PatternRewriter) -> None:
        parts = Parts(self, op, rewriter, PATTERNS)
        x, element = as_float(parts, op.X, "X")
        shape = list(ranked(x, "X").get_shape())
        if element != f32:
            x = parts.insert(onnx.CastOp, [x], TensorType(f32, shape), {"to": f32})
        y_type = TensorType(f32, shape)
        offset, scale = floats(op, "offset"), floats(op, "scale")
        for name, values in (("offset", offset), ("scale", scale)):
            if (
                len(values) > 1
                and shape
                and shape[-1] not in (DYNAMIC_INDEX, len(values))
            ):
                raise Unsupported(
                    f"{name} has {len(values)} values for {shape[-1]} features"
                )
        if len(offset):
            x = parts.insert(
                onnx.SubOp, [x, parts.constant(offset.astype(np.float32), f32)], y_type
            )
        if len(scale):
            x = parts.insert(
                onnx.MulOp, [x, parts.constant(scale.astype(np.float32), f32)], y_type
            )
        finish_values(parts, op, x)


class ConvertNormalizer(OnnxPattern[onnx.NormalizerOp]):
    """Each row over its norm; a zero norm leaves the row as it is (ORT)."""

    def convert(self, op: onnx.NormalizerOp, rewriter: PatternRewriter) -> None:
        norm = string(op, "norm", "MAX")
        parts = Parts(self, op, rewriter, PATTERNS)
        x, element = as_float(parts, op.X, "X")
        shape = list(ranked(x, "X").get_shape())
        if len(shape) not in (1, 2):
            raise Unsupported(f"X must be 1-D or 2-D, got {op.X.type}")
        if element != f32:
            x = parts.insert(onnx.CastOp, [x], TensorType(f32, shape), {"to": f32})
        x_type = TensorType(f32, shape)
        if norm == "MAX":  # the largest value, NaN left out
            nan = parts.insert(onnx.IsNaNOp, [x], TensorType(i1, shape))
            low = scalar(parts, float("-inf"), f32)
            kept = parts.insert(onnx.WhereOp, [nan, low, x], x_type)
            size = reduce_over(parts, onnx.ReduceMaxOp, kept, -1, keep=True)
        elif norm == "L1":
            size = reduce_over(parts, onnx.ReduceL1Op, x, -1, keep=True)
        elif norm == "L2":
            size = reduce_over(parts, onnx.ReduceL2Op, x, -1, keep=True)
        else:
            raise Unsupported(f"norm {norm} is not MAX, L1 or L2")
        size_type = ranked(size, "the norm")
        zero = parts.insert(
            onnx.EqualOp,
            [size, scalar(parts, 0.0, f32)],
            TensorType(i1, size_type.get_shape()),
        )
        safe = parts.insert(
            onnx.WhereOp, [zero, scalar(parts, 1.0, f32), size], size_type
        )
        finish_values(parts, op, parts.insert(onnx.DivOp, [x, safe], x_type))


class ConvertBinarizer(OnnxPattern[onnx.BinarizerOp]):
    def convert(self, op: onnx.BinarizerOp, rewriter: PatternRewriter) -> None:
        x_type = ranked(op.X, "X")
        element = x_type.get_element_type()
        if element not in (f32, f64):
            raise Unsupported(f"X must be float or double, got {op.X.type}")
        attr = op.properties.get("threshold")
        threshold = attr.value.data if isinstance(attr, FloatAttr) else 0.0
        parts = Parts(self, op, rewriter, PATTERNS)
        shape = list(x_type.get_shape())
        above = parts.insert(
            onnx.GreaterOp,
            [op.X, scalar(parts, threshold, element)],
            TensorType(i1, shape),
        )
        one, zero = (scalar(parts, v, element) for v in (1.0, 0.0))
        parts.finish([parts.insert(onnx.WhereOp, [above, one, zero], x_type)])


class ConvertArrayFeatureExtractor(OnnxPattern[onnx.ArrayFeatureExtractorOp]):
    """A Gather along the last axis; a 1-D X gives one row (ORT, onnx)."""

    def convert(
        self, op: onnx.ArrayFeatureExtractorOp, rewriter: PatternRewriter
    ) -> None:
        x_type = ranked(op.X, "X")
        shape = list(x_type.get_shape())
        index_type = ranked(op.Y, "Y")
        if index_type.get_element_type() != i64:
            raise Unsupported(f"Y must be int64, got {op.Y.type}")
        if not shape:
            raise Unsupported("X must have rank >= 1")
        count = 1
        for n in index_type.get_shape():
            count = DYNAMIC_INDEX if DYNAMIC_INDEX in (n, count) else count * n
        parts = Parts(self, op, rewriter, PATTERNS)
        flat = parts.insert(
            onnx.ReshapeOp, [op.Y, parts.ints([-1])], TensorType(i64, [count])
        )
        out = TensorType(x_type.get_element_type(), [*shape[:-1], count])
        axis: dict[str, Attribute] = {"axis": si64(len(shape) - 1)}
        z = parts.insert(onnx.GatherOp, [op.X, flat], out, axis)
        if len(shape) == 1:
            z = parts.insert(
                onnx.ReshapeOp,
                [z, parts.ints([1, -1])],
                TensorType(x_type.get_element_type(), [1, count]),
            )
        parts.finish([z])


class ConvertImputer(OnnxPattern[onnx.ImputerOp]):
    """`Where(X is the replaced value, imputed, X)`; float X only."""

    def convert(self, op: onnx.ImputerOp, rewriter: PatternRewriter) -> None:
        x_type = ranked(op.X, "X")
        element = x_type.get_element_type()
        if element not in (f32, f64):
            raise Unsupported(f"X must be float or double, got {op.X.type}")
        imputed = floats(op, "imputed_value_floats")
        shape = list(x_type.get_shape())
        features = shape[-1] if shape else 1
        if not len(imputed) or (
            len(imputed) > 1 and features not in (DYNAMIC_INDEX, len(imputed))
        ):
            raise Unsupported(
                f"imputed_value_floats has {len(imputed)} values for {features} features"
            )
        attr = op.properties.get("replaced_value_float")
        replaced = attr.value.data if isinstance(attr, FloatAttr) else 0.0
        parts = Parts(self, op, rewriter, PATTERNS)
        bools = TensorType(i1, shape)
        if np.isnan(replaced):
            match = parts.insert(onnx.IsNaNOp, [op.X], bools)
        else:
            value = scalar(parts, replaced, element)
            match = parts.insert(onnx.EqualOp, [op.X, value], bools)
        fill = parts.constant(imputed.astype(dtype_of(element)), element)
        parts.finish([parts.insert(onnx.WhereOp, [match, fill, op.X], x_type)])


class ConvertFeatureVectorizer(OnnxPattern[onnx.FeatureVectorizerOp]):
    """Each input as float32 (N, its `inputdimensions`), concatenated; an
    input of another width (or one known only at run time) padded with
    zeros, then cut to its width, as ORT copies its first features."""

    def convert(self, op: onnx.FeatureVectorizerOp, rewriter: PatternRewriter) -> None:
        widths = [int(v) for v in ints(op, "inputdimensions")]
        if len(widths) != len(op.X):
            raise Unsupported(f"{len(widths)} inputdimensions for {len(op.X)} inputs")
        parts = Parts(self, op, rewriter, PATTERNS)
        columns: list[SSAValue] = []
        rows = DYNAMIC_INDEX
        for i, (x, width) in enumerate(zip(op.X, widths, strict=True)):
            shape = list(ranked(x, f"input {i}").get_shape())
            if len(shape) != 2:
                raise Unsupported(f"input {i} must be (N, features), got {x.type}")
            rows = shape[0] if shape[0] != DYNAMIC_INDEX else rows
            value, element = as_float(parts, x, f"input {i}")
            if element != f32:
                value = parts.insert(
                    onnx.CastOp, [value], TensorType(f32, shape), {"to": f32}
                )
            if shape[1] != width:
                wide = DYNAMIC_INDEX if shape[1] == DYNAMIC_INDEX else shape[1] + width
                pads = parts.ints([0, 0, 0, width])
                mode: dict[str, Attribute] = {"mode": StringAttr("constant")}
                padded = TensorType(f32, [shape[0], wide])
                value = parts.insert(onnx.PadOp, [value, pads, [], []], padded, mode)
                cut = [parts.ints([0]), parts.ints([width]), [parts.ints([1])], []]
                value = parts.insert(
                    onnx.SliceOp, [value, *cut], TensorType(f32, [shape[0], width])
                )
            columns.append(value)
        out = TensorType(f32, [rows, sum(widths)])
        y = parts.insert(onnx.ConcatOp, [columns], out, {"axis": si64(1)})
        finish_values(parts, op, y)


def _matches(
    parts: Parts, x: SSAValue, keys: np.ndarray, element: Attribute
) -> tuple[SSAValue, list[int]]:
    """`X[..., None] == keys` (..., K) as i1, NaN matching a NaN key."""
    shape = list(ranked(x, "X").get_shape())
    wide = [*shape, 1]
    column = parts.insert(
        onnx.UnsqueezeOp, [x, parts.ints([len(shape)])], TensorType(element, wide)
    )
    out = [*shape, len(keys)]
    bools = TensorType(i1, out)
    dtype = np.int64 if element == i64 else dtype_of(element)
    table = parts.constant(keys.astype(dtype), element)
    eq = parts.insert(onnx.EqualOp, [column, table], bools)
    if element != i64 and np.isnan(keys).any():
        nan = parts.insert(onnx.IsNaNOp, [column], TensorType(i1, wide))
        nan_keys = parts.constant(np.isnan(keys), i1)
        both = parts.insert(onnx.AndOp, [nan, nan_keys], bools)
        eq = parts.insert(onnx.OrOp, [eq, both], bools)
    return eq, out


class ConvertOneHotEncoder(OnnxPattern[onnx.OneHotEncoderOp]):
    """`X == cats` along a new last axis, as float32 (an unknown value gives
    zeros; ORT fails on one under `zeros=0`)."""

    def convert(self, op: onnx.OneHotEncoderOp, rewriter: PatternRewriter) -> None:
        if strings(op, "cats_strings"):
            raise Unsupported("string categories are not supported (int64 ones are)")
        cats = ints(op, "cats_int64s")
        if not len(cats):
            raise Unsupported("cats_int64s is empty")
        parts = Parts(self, op, rewriter, PATTERNS)
        x_type = ranked(op.X, "X")
        x, shape = op.X, list(x_type.get_shape())
        if x_type.get_element_type() != i64:  # ORT truncates a float to int64
            x = parts.insert(onnx.CastOp, [x], TensorType(i64, shape), {"to": i64})
        eq, out = _matches(parts, x, cats, i64)
        y = parts.insert(onnx.CastOp, [eq], TensorType(f32, out), {"to": f32})
        finish_values(parts, op, y)


class ConvertLabelEncoder(OnnxPattern[onnx.LabelEncoderOp]):
    """The first matching key's value (`ArgMax` over `X == keys`), else the
    default; numeric keys and values only."""

    def convert(self, op: onnx.LabelEncoderOp, rewriter: PatternRewriter) -> None:
        if any(strings(op, f"{k}_strings") for k in ("keys", "values")):
            raise Unsupported("string keys or values are not supported")
        keys = keys_or_values(op, "keys")
        values = keys_or_values(op, "values")
        if keys is None or values is None or len(keys[0]) != len(values[0]):
            raise Unsupported("keys and values must be numeric lists of one length")
        if not len(keys[0]):
            raise Unsupported("there are no keys")
        x_type = ranked(op.X, "X")
        y_type = ranked(op.Y, "Y")
        if x_type.get_element_type() != keys[1]:
            raise Unsupported(f"X ({op.X.type}) and the keys differ in type")
        value_element = y_type.get_element_type()
        default = label_default(op, value_element)
        parts = Parts(self, op, rewriter, PATTERNS)
        eq, out = _matches(parts, op.X, keys[0], keys[1])
        shape = out[:-1]
        hits = parts.insert(onnx.CastOp, [eq], TensorType(f32, out), {"to": f32})
        axis: dict[str, Attribute] = {"axis": si64(len(shape)), "keepdims": si64(0)}
        index = parts.insert(onnx.ArgMaxOp, [hits], TensorType(i64, shape), axis)
        found = reduce_over(parts, onnx.ReduceMaxOp, hits, -1)
        half = scalar(parts, 0.5, f32)
        some = parts.insert(onnx.GreaterOp, [found, half], TensorType(i1, shape))
        dtype = np.int64 if value_element == i64 else dtype_of(value_element)
        table = parts.constant(values[0].astype(dtype), value_element)
        got = parts.insert(
            onnx.GatherOp, [table, index], TensorType(value_element, shape)
        )
        fallback = parts.constant(np.asarray(default, dtype), value_element)
        parts.finish([parts.insert(onnx.WhereOp, [some, got, fallback], y_type)])
