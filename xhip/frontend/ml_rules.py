"""The result types of the `ai.onnx.ml` ops onnx's inference leaves open.

onnx infers some `ai.onnx.ml` results only in part (a TreeEnsembleClassifier's
scores, a Scaler's output: an element type, no shape), so the ops after them
would stay untyped. The importer states these here, from each node's input
types and attributes, and lets inference carry on (`_Importer.infer`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from onnx import GraphProto, NodeProto, TensorProto, ValueInfoProto, helper
from xdsl.dialects.builtin import DYNAMIC_INDEX

from xhip.dialects.onnx.base import ML_DOMAIN
from xhip.frontend.value_info import ValueInfo, is_named

FLOAT: int = TensorProto.FLOAT
INT64: int = TensorProto.INT64
Result = tuple[int, list[int], list[str | None]]
"""A result's element type, dims and dim names."""


def _attribute(node: NodeProto, name: str) -> object:
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return None


def _count(node: NodeProto, name: str) -> int:
    value = _attribute(node, name)
    return len(cast("list[object]", value)) if isinstance(value, list) else 0


def _int(node: NodeProto, name: str, default: int) -> int:
    value = _attribute(node, name)
    return value if isinstance(value, int) else default


def _dims(x: ValueInfo, keep: int) -> tuple[list[int], list[str | None]]:
    """The first `keep` dims of `x` (rows) and their names."""
    assert x.shape is not None
    names: list[str | None] = list(x.params) or [None] * len(x.shape)
    return x.shape[:keep], names[:keep]


def _results(node: NodeProto, infos: Mapping[str, ValueInfo]) -> list[Result]:
    """(element type, dims, dim names) of each of `node`'s results."""
    x = infos.get(node.input[0]) if node.input else None
    if x is None or x.shape is None or not x.elem:
        return []
    rows, names = _dims(x, 1) if len(x.shape) == 2 else ([1], [])
    elem: int = x.elem
    op = node.op_type
    if op == "TreeEnsembleRegressor":
        return [(FLOAT, [*rows, _int(node, "n_targets", 1)], names)]
    if op == "TreeEnsemble":
        return [(elem, [*rows, _int(node, "n_targets", 1)], names)]
    if op in ("TreeEnsembleClassifier", "LinearClassifier"):
        labels = "classlabels_int64s" if op[0] == "T" else "classlabels_ints"
        classes = _count(node, labels)
        if not classes:
            return []  # string labels: refused by the conversion
        if op == "LinearClassifier" and _count(node, "intercepts") != 1:
            classes = _count(node, "intercepts")
        return [(INT64, rows, names), (FLOAT, [*rows, classes], names)]
    if op == "SVMClassifier" and _count(node, "classlabels_ints"):
        classes = _count(node, "classlabels_ints")
        pairs = classes * (classes - 1) // 2 if classes > 2 else 2
        if _count(node, "prob_a") or not _count(node, "vectors_per_class"):
            pairs = classes
        return [(INT64, rows, names), (FLOAT, [*rows, pairs], names)]
    if op == "SVMRegressor":
        return [(FLOAT, [*rows, 1], names)]
    if op == "LinearRegressor":
        return [(FLOAT, [*rows, _int(node, "targets", 1)], names)]
    shape, params = _dims(x, len(x.shape))
    if op in ("Scaler", "Normalizer"):
        return [(FLOAT, shape, params)]
    if op == "Imputer":
        return [(elem, shape, params)]
    if op == "OneHotEncoder":
        return [(FLOAT, [*shape, _count(node, "cats_int64s")], params)]
    if op == "FeatureVectorizer":
        widths = _attribute(node, "inputdimensions")
        if not isinstance(widths, list):
            return []
        total = sum(cast("list[int]", widths))
        return [(FLOAT, [*shape[:1], total], params[:1])]
    if op == "LabelEncoder":
        tensor = _attribute(node, "values_tensor")
        if isinstance(tensor, TensorProto):
            return [(tensor.data_type, shape, params)]
        if _count(node, "values_int64s"):
            return [(INT64, shape, params)]
        return [(FLOAT, shape, params)] if _count(node, "values_floats") else []
    if op == "Binarizer":
        return [(elem, shape, params)]
    if op == "ArrayFeatureExtractor" and len(node.input) > 1:
        y = infos.get(node.input[1])
        if y is None or y.shape is None:
            return []
        count = 1
        for n in y.shape:
            count = DYNAMIC_INDEX if DYNAMIC_INDEX in (n, count) else count * n
        if len(shape) == 1:
            return [(elem, [1, count], [])]
        return [(elem, [*shape[:-1], count], [*params[:-1], None])]
    return []


def ml_hints(graph: GraphProto, infos: Mapping[str, ValueInfo]) -> list[ValueInfoProto]:
    """The types of `ai.onnx.ml` results that are not ranked yet."""
    stated = {v.name for v in graph.value_info}
    new: list[ValueInfoProto] = []
    for node in graph.node:
        if node.domain != ML_DOMAIN:
            continue
        for name, result in zip(node.output, _results(node, infos), strict=False):
            known = infos.get(name)
            if not name or name in stated:
                continue
            if known is not None and known.shape is not None:
                continue
            elem, shape, params = result
            params = [*params, *[None] * (len(shape) - len(params))]
            dims: list[str | int | None] = [
                p if is_named(p) else None if d == DYNAMIC_INDEX else d
                for d, p in zip(shape, params, strict=True)
            ]
            new.append(helper.make_tensor_value_info(name, elem, dims))
    return new
