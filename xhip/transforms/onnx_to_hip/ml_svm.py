"""The support vector machines (`ai.onnx.ml` SVMRegressor, SVMClassifier)
-> onnx ops, as `ml.py` writes the other ml ops: the kernel matrix K (N,
supports) from one GEMM `X @ SV^T` (RBF: `|x|^2 + |sv|^2 - 2 x.sv`, clamped
at 0, then `exp(-gamma d)`), as ORT's `svm_common.h` defines each kernel.

SVMRegressor is `K @ coefficients + rho`. SVMClassifier (one-vs-one, no
Platt scaling) is a decision value per pair of classes `(i, j)`,
`K @ W + rho` with W's column holding class j's coefficients row for class
i's support vectors and class i's row for class j's, as ORT sums them; each
row's votes (`s > 0` for i, else j) are two GEMMs of the 0/1 decisions with
one-hot class matrices, and the label the first class with the most votes
(for two classes ORT's `labels[0]` where `s > 0`, its scores `[-s, s]`).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, f32, i1, i64
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import onnx
from xhip.transforms.onnx_to_hip.compose import Parts, si64
from xhip.transforms.onnx_to_hip.ml import (
    PATTERNS,
    argmax_label,
    as_float,
    finish_classifier,
    finish_values,
    int_labels,
    reduce_over,
    rows_of,
    scalar,
)
from xhip.transforms.onnx_to_hip.ml_trees import floats, int_attr, ints, string
from xhip.transforms.onnx_to_hip.support import OnnxPattern, Unsupported, ranked

KERNELS = ("LINEAR", "POLY", "RBF", "SIGMOID")


def _features(parts: Parts, op: onnx.OnnxOp, x: SSAValue) -> tuple[SSAValue, int, int]:
    """X as float32 (N, features), N and the feature count."""
    rows = rows_of(x, "X")
    features = ranked(x, "X").get_shape()[1]
    value, element = as_float(parts, x, "X")
    if element != f32:
        shape = TensorType(f32, [rows, features])
        value = parts.insert(onnx.CastOp, [value], shape, {"to": f32})
    return value, rows, features


def _kernels(
    parts: Parts, op: onnx.OnnxOp, x: SSAValue, vectors: np.ndarray, supports: int
) -> SSAValue:
    """K (N, supports) of float32 X (N, features) and the support vectors."""
    kernel = string(op, "kernel_type", "LINEAR")
    if kernel not in KERNELS:
        raise Unsupported(f"kernel_type {kernel} is not one of {KERNELS}")
    params = [float(v) for v in floats(op, "kernel_params")]
    if len(params) not in (0, 3):
        raise Unsupported("kernel_params must be empty or (gamma, coef0, degree)")
    gamma, coef0, degree = [*params, 0.0, 0.0, 0.0][:3]
    rows, features = ranked(x, "X").get_shape()
    width = len(vectors) // max(supports, 1) if features == DYNAMIC_INDEX else features
    if supports < 1 or len(vectors) != supports * width:
        raise Unsupported(
            f"{len(vectors)} support vector values for {supports} supports of "
            f"{width} features"
        )
    sv = vectors.reshape(supports, width).astype(np.float32)
    k_type = TensorType(f32, [rows, supports])
    table = parts.constant(np.ascontiguousarray(sv.T), f32)
    dot = parts.insert(onnx.MatMulOp, [x, table], k_type)
    if kernel == "LINEAR":
        return dot
    if kernel == "RBF":
        square = parts.insert(onnx.MulOp, [x, x], TensorType(f32, [rows, features]))
        xx = reduce_over(parts, onnx.ReduceSumOp, square, 1, keep=True)
        norms = (sv.astype(np.float64) ** 2).sum(1).astype(np.float32)
        both = parts.insert(onnx.AddOp, [xx, parts.constant(norms, f32)], k_type)
        cross = parts.insert(onnx.MulOp, [dot, scalar(parts, -2.0, f32)], k_type)
        d = parts.insert(onnx.AddOp, [both, cross], k_type)
        d = parts.insert(onnx.ReluOp, [d], k_type)  # rounding can make it < 0
        scaled = parts.insert(onnx.MulOp, [d, scalar(parts, -gamma, f32)], k_type)
        return parts.insert(onnx.ExpOp, [scaled], k_type)
    scaled = parts.insert(onnx.MulOp, [dot, scalar(parts, gamma, f32)], k_type)
    k = parts.insert(onnx.AddOp, [scaled, scalar(parts, coef0, f32)], k_type)
    if kernel == "POLY":
        return parts.insert(onnx.PowOp, [k, scalar(parts, degree, f32)], k_type)
    return parts.insert(onnx.TanhOp, [k], k_type)


class ConvertSVMRegressor(OnnxPattern[onnx.SVMRegressorOp]):
    """`K @ coefficients + rho`; without support vectors a linear model;
    `one_class` gives +-1."""

    def convert(self, op: onnx.SVMRegressorOp, rewriter: PatternRewriter) -> None:
        if string(op, "post_transform", "NONE") != "NONE":
            raise Unsupported("post_transform must be NONE (PROBIT is not supported)")
        coefficients = floats(op, "coefficients")
        supports = int_attr(op, "n_supports", 0)
        vectors = floats(op, "support_vectors")
        parts = Parts(self, op, rewriter, PATTERNS)
        x, rows, features = _features(parts, op, op.X)
        if supports == 0:  # a linear model: the coefficients are its weights
            if features not in (DYNAMIC_INDEX, len(coefficients)):
                raise Unsupported(
                    f"{len(coefficients)} coefficients for {features} features"
                )
            vectors, coefficients, supports = coefficients, np.ones(1), 1
            k = _kernels(parts, op, x, vectors, supports)  # LINEAR's dot
        else:
            k = _kernels(parts, op, x, vectors, supports)
        if len(coefficients) != supports:
            raise Unsupported(
                f"{len(coefficients)} coefficients for {supports} supports"
            )
        weights = coefficients.reshape(supports, 1).astype(np.float32)
        y_type = TensorType(f32, [rows, 1])
        score = parts.insert(onnx.MatMulOp, [k, parts.constant(weights, f32)], y_type)
        rho = floats(op, "rho")
        if len(rho):
            offset = scalar(parts, float(rho[0]), f32)
            score = parts.insert(onnx.AddOp, [score, offset], y_type)
        if int_attr(op, "one_class", 0):
            positive = parts.insert(
                onnx.GreaterOp,
                [score, scalar(parts, 0.0, f32)],
                TensorType(i1, [rows, 1]),
            )
            one, minus = (scalar(parts, v, f32) for v in (1.0, -1.0))
            score = parts.insert(onnx.WhereOp, [positive, one, minus], y_type)
        finish_values(parts, op, score)


class ConvertSVMClassifier(OnnxPattern[onnx.SVMClassifierOp]):
    """One-vs-one decision values and votes (ORT's `svmclassifier.cc`)."""

    def convert(self, op: onnx.SVMClassifierOp, rewriter: PatternRewriter) -> None:
        labels = int_labels(op, "classlabels_ints")
        classes = len(labels)
        if len(floats(op, "prob_a")):
            raise Unsupported("prob_a/prob_b (Platt scaling) are not supported")
        counts = [int(v) for v in ints(op, "vectors_per_class")]
        if not counts:
            raise Unsupported(
                "an SVMClassifier without support vectors is not supported"
            )
        if len(counts) != classes or classes < 2:
            raise Unsupported(
                f"vectors_per_class has {len(counts)} entries for {classes} classes"
            )
        transform = string(op, "post_transform", "NONE")
        if transform != "NONE":
            raise Unsupported(f"post_transform {transform} is not supported (NONE is)")
        supports = sum(counts)
        coefficients = floats(op, "coefficients")
        rho = floats(op, "rho")
        pairs = [(i, j) for i in range(classes) for j in range(i + 1, classes)]
        if len(coefficients) < (classes - 1) * supports or len(rho) < len(pairs):
            raise Unsupported("coefficients or rho are too short for the classes")
        coef = coefficients[: (classes - 1) * supports].reshape(classes - 1, supports)
        starts = np.concatenate([[0], np.cumsum(counts)]).astype(int)
        w = np.zeros((supports, len(pairs)))
        vote_i = np.zeros((len(pairs), classes), np.float32)
        vote_j = np.zeros((len(pairs), classes), np.float32)
        for p, (i, j) in enumerate(pairs):
            w[starts[i] : starts[i + 1], p] = coef[j - 1, starts[i] : starts[i + 1]]
            w[starts[j] : starts[j + 1], p] = coef[i, starts[j] : starts[j + 1]]
            vote_i[p, i] = vote_j[p, j] = 1.0
        parts = Parts(self, op, rewriter, PATTERNS)
        x, rows, _ = _features(parts, op, op.X)
        k = _kernels(parts, op, x, floats(op, "support_vectors"), supports)
        s_type = TensorType(f32, [rows, len(pairs)])
        table = parts.constant(w.astype(np.float32), f32)
        scores = parts.insert(onnx.MatMulOp, [k, table], s_type)
        offsets = parts.constant(rho[: len(pairs)].astype(np.float32), f32)
        scores = parts.insert(onnx.AddOp, [scores, offsets], s_type)
        positive = parts.insert(
            onnx.GreaterOp,
            [scores, scalar(parts, 0.0, f32)],
            TensorType(i1, [rows, len(pairs)]),
        )
        if classes == 2:  # ORT: labels[0] where s > 0; scores [-s, s]
            yes, no = (parts.constant(np.asarray(v, np.int64), i64) for v in labels)
            label = parts.insert(
                onnx.WhereOp, [positive, yes, no], TensorType(i64, [rows, 1])
            )
            label = parts.insert(
                onnx.ReshapeOp, [label, parts.ints([-1])], TensorType(i64, [rows])
            )
            minus = parts.insert(onnx.NegOp, [scores], s_type)
            both = TensorType(f32, [rows, 2])
            pair = parts.insert(
                onnx.ConcatOp, [[minus, scores]], both, {"axis": si64(1)}
            )
            finish_classifier(parts, op, label, pair)
            return
        wins = parts.insert(onnx.CastOp, [positive], s_type, {"to": f32})
        one = scalar(parts, 1.0, f32)
        losses = parts.insert(onnx.SubOp, [one, wins], s_type)
        v_type = TensorType(f32, [rows, classes])
        for_i = parts.insert(onnx.MatMulOp, [wins, parts.constant(vote_i, f32)], v_type)
        for_j = parts.insert(
            onnx.MatMulOp, [losses, parts.constant(vote_j, f32)], v_type
        )
        votes = parts.insert(onnx.AddOp, [for_i, for_j], v_type)
        finish_classifier(parts, op, argmax_label(parts, votes, labels), scores)
