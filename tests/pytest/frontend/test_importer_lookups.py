"""The importer's per-model lookups (`op_of`, `is_contrib` by domain and op
type) and value merges give what the plain computations give."""

from __future__ import annotations

import itertools

import onnx
from onnx import helper
from xdsl.dialects.builtin import DYNAMIC_INDEX

from xhip.dialects.family_index import CONTRIB_OPS, ONNX_OPS
from xhip.frontend.model_file import ONNX_DOMAINS
from xhip.frontend.onnx_importer import (
    ML_DOMAIN,
    _class_name,  # pyright: ignore[reportPrivateUsage]
    _contrib_name,  # pyright: ignore[reportPrivateUsage]
    _Importer,  # pyright: ignore[reportPrivateUsage]
)
from xhip.frontend.value_info import (
    ValueInfo,
    _merge,  # pyright: ignore[reportPrivateUsage]
    is_named,
)


def _importer() -> _Importer:
    graph = helper.make_graph([], "g", [], [])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return _Importer(model, "m.onnx", "")


def _plain_is_contrib(node: onnx.NodeProto) -> bool:
    return (
        node.domain != ML_DOMAIN
        and (node.domain not in ONNX_DOMAINS or node.op_type not in ONNX_OPS)
        and _contrib_name(node) is not None
    )


def test_lookups_by_domain_and_op_type():
    """One op type in two domains (Attention: ONNX's and ONNX Runtime's) is
    two ops; asking twice, or in another order, changes nothing."""
    importer = _importer()
    op_types = ["Attention", "Gelu", "Relu", "NoSuchOp", *list(ONNX_OPS)[:20]]
    for by_type in CONTRIB_OPS.values():
        op_types += list(by_type)[:5]
    domains = [*CONTRIB_OPS, "org.example"]
    for _ in range(2):
        for domain, op_type in itertools.product(domains, op_types):
            node = helper.make_node(op_type, [], ["y"], domain=domain)
            name = _class_name(node)
            op = importer.op_of(node)
            assert (op is None) == (name is None)
            assert op is None or op.__name__ == name
            assert importer.is_contrib(node) == _plain_is_contrib(node)
    ours = helper.make_node("Attention", [], ["y"])
    ms = helper.make_node("Attention", [], ["y"], domain="com.microsoft")
    assert importer.op_of(ours) is not importer.op_of(ms)
    assert not importer.is_contrib(ours) and importer.is_contrib(ms)


def _merge_loop(a: ValueInfo, b: ValueInfo) -> ValueInfo:
    """`_merge` of two ranked infos of one rank, as its loop says it."""
    assert a.shape is not None and b.shape is not None
    shape = [da if da != DYNAMIC_INDEX else db for da, db in zip(a.shape, b.shape)]
    params = [
        pa if is_named(pa) else pb if is_named(pb) else None
        for pa, pb in zip(a.params, b.params)
    ]
    return ValueInfo(a.elem or b.elem, shape, params)


def test_merge_of_equal_shapes_is_the_loops():
    dims = [2, DYNAMIC_INDEX]
    names = [None, "", "batch", "unk__3"]
    for shape_a, shape_b in itertools.product(
        itertools.product(dims, repeat=2), repeat=2
    ):
        for params_a, params_b in itertools.product(
            itertools.product(names, repeat=2), repeat=2
        ):
            a = ValueInfo(1, list(shape_a), list(params_a))
            b = ValueInfo(0, list(shape_b), list(params_b))
            merged = _merge(a, b)
            assert merged == _merge_loop(a, b)
            assert merged is not a and merged is not b
            assert merged is not None and merged.shape is not a.shape
