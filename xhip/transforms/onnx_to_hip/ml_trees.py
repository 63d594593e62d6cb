"""The `ai.onnx.ml` ops' attributes as numbers for `onnx_to_hip/ml.py`: a
tree ensemble's (opsets 1, 3 and 5) as the matrices of the GEMM formulation,
computed here at conversion time, and LabelEncoder's table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    f32,
    i64,
)
from xdsl.ir import Attribute
from xdsl.utils.hints import isa

from xhip.dialects import onnx
from xhip.transforms.onnx_to_hip.support import Unsupported

MODES = (
    "BRANCH_LEQ",
    "BRANCH_LT",
    "BRANCH_GTE",
    "BRANCH_GT",
    "BRANCH_EQ",
    "BRANCH_NEQ",
    "BRANCH_MEMBER",
)
"""Node modes by TreeEnsemble's (ml opset 5) codes."""

# Reading attributes.


def prop(op: onnx.OnnxOp, name: str) -> Attribute | None:
    return op.properties.get(name)


def _numbers(op: onnx.OnnxOp, name: str, *tensor_names: str) -> np.ndarray | None:
    """A list or tensor attribute (the first of `name`, `tensor_names` the op
    has) as float64 or int64 numbers."""
    for each in (name, *tensor_names):
        attr = prop(op, each)
        if isinstance(attr, DenseIntOrFPElementsAttr):
            return np.asarray(attr.get_values(), dtype=np.float64).reshape(-1)
        if isa(attr, ArrayAttr[Attribute]):
            values = [
                a.value.data
                for a in attr.data
                if isinstance(a, IntegerAttr | FloatAttr)
            ]
            ints = all(isinstance(a, IntegerAttr) for a in attr.data)
            return np.asarray(values, dtype=np.int64 if ints else np.float64)
    return None


def ints(op: onnx.OnnxOp, name: str) -> np.ndarray:
    values = _numbers(op, name)
    return np.zeros(0, np.int64) if values is None else values.astype(np.int64)


def floats(op: onnx.OnnxOp, name: str, *tensor_names: str) -> np.ndarray:
    values = _numbers(op, name, *tensor_names)
    return np.zeros(0) if values is None else values.astype(np.float64)


def string(op: onnx.OnnxOp, name: str, default: str) -> str:
    attr = prop(op, name)
    return attr.data if isinstance(attr, StringAttr) else default


def strings(op: onnx.OnnxOp, name: str) -> list[str]:
    attr = prop(op, name)
    if isa(attr, ArrayAttr[Attribute]):
        return [a.data for a in attr.data if isinstance(a, StringAttr)]
    return []


def int_attr(op: onnx.OnnxOp, name: str, default: int) -> int:
    attr = prop(op, name)
    return attr.value.data if isinstance(attr, IntegerAttr) else default


# The ensemble's matrices.


@dataclass
class Ensemble:
    """A tree ensemble as padded per-tree arrays (trees, nodes / leaves)."""

    features: np.ndarray
    """(trees, nodes) int64: the feature each internal node tests."""
    thresholds: np.ndarray
    """(trees, nodes) float64."""
    modes: np.ndarray
    """(trees, nodes) int: `MODES` index; padding is mode 0."""
    tracks: np.ndarray
    """(trees, nodes) bool: a NaN goes the true way."""
    members: np.ndarray
    """(trees, nodes, most members) float64, NaN-padded (BRANCH_MEMBER)."""
    paths: np.ndarray
    """(trees, nodes, leaves) float64: +1 true side, -1 false side."""
    turns: np.ndarray
    """(trees, leaves) float64: true turns to each leaf; -1 for padding."""
    weights: np.ndarray
    """(trees, leaves, targets) float64: each leaf's summed weights."""
    scored: np.ndarray
    """(trees, leaves, targets) bool: the leaf has a weight for the target."""


@dataclass
class Node:
    feature: int
    threshold: float
    mode: int
    tracks: bool
    members: tuple[float, ...]
    true: tuple[bool, int]
    """(is a leaf, index)."""
    false: tuple[bool, int]


def _ensemble(
    roots: Sequence[tuple[bool, int]],
    nodes: Sequence[Node],
    leaf_weights: Sequence[dict[int, float]],
    targets: int,
) -> Ensemble:
    """The matrices of the trees from `roots`; `leaf_weights[l]` maps a
    target to leaf `l`'s summed weight."""
    trees: list[tuple[list[int], list[tuple[int, list[tuple[int, int]]]]]] = []
    for root in roots:
        inner: list[int] = []
        leaves: list[tuple[int, list[tuple[int, int]]]] = []
        stack: list[tuple[tuple[bool, int], list[tuple[int, int]]]] = [(root, [])]
        while stack:
            (is_leaf, index), path = stack.pop()
            if is_leaf:
                leaves.append((index, path))
                continue
            if len(inner) > len(nodes):
                raise Unsupported("a tree has a cycle")
            local = len(inner)
            inner.append(index)
            node = nodes[index]
            stack.append((node.false, [*path, (local, -1)]))
            stack.append((node.true, [*path, (local, 1)]))
        trees.append((inner, leaves))
    count = len(trees)
    most_inner = max(1, *(len(i) for i, _ in trees))
    most_leaves = max(1, *(len(leaves) for _, leaves in trees))
    most_members = max([1, *(len(n.members) for n in nodes)])
    e = Ensemble(
        features=np.zeros((count, most_inner), np.int64),
        thresholds=np.zeros((count, most_inner)),
        modes=np.zeros((count, most_inner), np.int64),
        tracks=np.zeros((count, most_inner), bool),
        members=np.full((count, most_inner, most_members), np.nan),
        paths=np.zeros((count, most_inner, most_leaves)),
        turns=np.full((count, most_leaves), -1.0),
        weights=np.zeros((count, most_leaves, targets)),
        scored=np.zeros((count, most_leaves, targets), bool),
    )
    for t, (inner, leaves) in enumerate(trees):
        for i, index in enumerate(inner):
            node = nodes[index]
            e.features[t, i], e.thresholds[t, i] = node.feature, node.threshold
            e.modes[t, i], e.tracks[t, i] = node.mode, node.tracks
            e.members[t, i, : len(node.members)] = node.members
        for j, (leaf, path) in enumerate(leaves):
            for i, sign in path:
                e.paths[t, i, j] = sign
            e.turns[t, j] = sum(1 for _, sign in path if sign > 0)
            for target, weight in leaf_weights[leaf].items():
                if not 0 <= target < targets:
                    raise Unsupported(f"a leaf weight names target {target}")
                e.weights[t, j, target] += weight
                e.scored[t, j, target] = True
    return e


def v3_ensemble(
    op: onnx.TreeEnsembleRegressorOp | onnx.TreeEnsembleClassifierOp,
    prefix: str,
    targets: int,
) -> Ensemble:
    """TreeEnsembleRegressor's or Classifier's nodes (`prefix` `target` or
    `class`), keyed by (tree id, node id)."""
    tree_ids, node_ids = ints(op, "nodes_treeids"), ints(op, "nodes_nodeids")
    count = len(node_ids)
    modes = strings(op, "nodes_modes")
    features = ints(op, "nodes_featureids")
    values = floats(op, "nodes_values", "nodes_values_as_tensor")
    true_ids, false_ids = (
        ints(op, "nodes_truenodeids"),
        ints(op, "nodes_falsenodeids"),
    )
    tracks = ints(op, "nodes_missing_value_tracks_true")
    if any(len(a) != count for a in (tree_ids, modes, features, values)):
        raise Unsupported("the nodes_* attributes differ in length")
    if len(tracks) not in (0, count):
        raise Unsupported("nodes_missing_value_tracks_true differs in length")
    for mode in set(modes) - {"LEAF", *MODES[:6]}:
        raise Unsupported(f"node mode {mode} is not one of ONNX's")
    key = list(zip(tree_ids.tolist(), node_ids.tolist(), strict=True))
    if len(set(key)) != count:
        raise Unsupported("a (tree id, node id) pair is given twice")
    refs: dict[tuple[int, int], tuple[bool, int]] = {}
    leaves: list[dict[int, float]] = []
    inner: list[int] = []
    for n, (k, mode) in enumerate(zip(key, modes, strict=True)):
        if mode == "LEAF":
            refs[k] = (True, len(leaves))
            leaves.append({})
        else:
            refs[k] = (False, len(inner))
            inner.append(n)

    def child(tree: int, node: int) -> tuple[bool, int]:
        ref = refs.get((tree, node))
        if ref is None:
            raise Unsupported(f"tree {tree} names node {node}, which it lacks")
        return ref

    nodes = [
        Node(
            feature=int(features[n]),
            threshold=float(values[n]),
            mode=MODES.index(modes[n]),
            tracks=bool(tracks[n]) if len(tracks) else False,
            members=(),
            true=child(key[n][0], int(true_ids[n])),
            false=child(key[n][0], int(false_ids[n])),
        )
        for n in inner
    ]
    w_ids, w_nodes = ints(op, f"{prefix}_ids"), ints(op, f"{prefix}_nodeids")
    w_trees = ints(op, f"{prefix}_treeids")
    weights = floats(op, f"{prefix}_weights", f"{prefix}_weights_as_tensor")
    if any(len(a) != len(w_ids) for a in (w_nodes, w_trees, weights)):
        raise Unsupported(f"the {prefix}_* attributes differ in length")
    for target, tree, node, weight in zip(
        w_ids, w_trees, w_nodes, weights, strict=True
    ):
        is_leaf, index = child(int(tree), int(node))
        if not is_leaf:
            raise Unsupported(f"a weight is given to tree {tree}'s node {node}")
        leaves[index][int(target)] = leaves[index].get(int(target), 0.0) + weight
    children = {ref for n in nodes for ref in (n.true, n.false)}
    roots = [refs[k] for k in key if refs[k] not in children]
    if len({k[0] for k in key}) != len(roots):
        raise Unsupported("a tree has no single root")
    return _ensemble(roots, nodes, leaves, targets)


def tree_ensemble(op: onnx.TreeEnsembleOp) -> Ensemble:
    modes = ints(op, "nodes_modes")
    features = ints(op, "nodes_featureids")
    splits = floats(op, "nodes_splits")
    count = len(features)
    true_ids, false_ids = (
        ints(op, "nodes_truenodeids"),
        ints(op, "nodes_falsenodeids"),
    )
    true_leaf, false_leaf = ints(op, "nodes_trueleafs"), ints(op, "nodes_falseleafs")
    tracks = ints(op, "nodes_missing_value_tracks_true")
    arrays = (modes, splits, true_ids, false_ids, true_leaf, false_leaf)
    if any(len(a) != count for a in arrays) or len(tracks) not in (0, count):
        raise Unsupported("the nodes_* attributes differ in length")
    if any(not 0 <= m < len(MODES) for m in modes):
        raise Unsupported(f"a node mode is not in [0, {len(MODES)})")
    members = floats(op, "membership_values")
    sets: list[tuple[float, ...]] = []
    current: list[float] = []
    for value in members.tolist():  # sets end at a NaN
        if np.isnan(value):
            sets.append(tuple(current))
            current = []
        else:
            current.append(value)
    if current:
        sets.append(tuple(current))
    member_nodes = [n for n in range(count) if modes[n] == MODES.index("BRANCH_MEMBER")]
    if len(sets) < len(member_nodes):
        raise Unsupported("membership_values has fewer sets than BRANCH_MEMBER nodes")
    member_sets = dict(zip(member_nodes, sets, strict=False))
    nodes = [
        Node(
            feature=int(features[n]),
            threshold=float(splits[n]),
            mode=int(modes[n]),
            tracks=bool(tracks[n]) if len(tracks) else False,
            members=member_sets.get(n, ()),
            true=(bool(true_leaf[n]), int(true_ids[n])),
            false=(bool(false_leaf[n]), int(false_ids[n])),
        )
        for n in range(count)
    ]
    targets = int_attr(op, "n_targets", 0)
    target_ids = ints(op, "leaf_targetids")
    weights = floats(op, "leaf_weights")
    if len(target_ids) != len(weights):
        raise Unsupported("leaf_targetids and leaf_weights differ in length")
    leaves = [{int(t): float(w)} for t, w in zip(target_ids, weights, strict=True)]
    for n in nodes:
        for is_leaf, index in (n.true, n.false):
            limit = len(leaves) if is_leaf else count
            if not 0 <= index < limit:
                raise Unsupported(f"a node names {index}, out of range")
    roots = [(False, int(r)) for r in ints(op, "tree_roots")]
    if not roots:
        raise Unsupported("tree_roots is empty")
    return _ensemble(roots, nodes, leaves, targets)


def keys_or_values(op: onnx.OnnxOp, kind: str) -> tuple[np.ndarray, Attribute] | None:
    """LabelEncoder's keys or values and their element type: the tensor, or
    the int64 or float list."""
    tensor = op.properties.get(f"{kind}_tensor")
    if isinstance(tensor, DenseIntOrFPElementsAttr):
        element = cast(Attribute, tensor.get_element_type())  # pyright: ignore[reportUnknownMemberType]
        return np.asarray(tensor.get_values(), np.float64), element
    for suffix, element in (("int64s", i64), ("floats", f32)):
        if op.properties.get(f"{kind}_{suffix}") is not None:
            return floats(op, f"{kind}_{suffix}"), element
    return None


def label_default(op: onnx.OnnxOp, element: Attribute) -> float:
    tensor = op.properties.get("default_tensor")
    if isinstance(tensor, DenseIntOrFPElementsAttr):
        return float(np.asarray(tensor.get_values(), np.float64).reshape(-1)[0])
    if element == i64:
        return float(int_attr(op, "default_int64", -1))
    attr = op.properties.get("default_float")
    return attr.value.data if isinstance(attr, FloatAttr) else -0.0
