"""ONNX sequence and optional types as `!onnx.Seq<T>` and `!onnx.Opt<T>`.

The importer's `value_info` reads tensors only; a value whose type is a
sequence or an optional (a graph input, a node's result, a subgraph's value)
takes its type from here: the model's declarations and onnx's shape
inference, which types sequences through their ops and subgraphs. A
sequence's element type is `tensor<*xT>` where its rank is unknown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
import onnx
from onnx import AttributeProto, GraphProto, ModelProto, TypeProto, helper
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, UnrankedTensorType
from xdsl.ir import Attribute

from xhip.dialects import onnx as onnx_dialect
from xhip.dialects.family_index import ONNX_NAMES, ONNX_OPS
from xhip.frontend.value_info import ELEMENT_TYPES, ValueInfo, dtype_name

SEQUENCE_OPS = frozenset(
    op_type for op_type, name in ONNX_OPS.items() if name in ONNX_NAMES["sequence"]
)
"""The ONNX op types of the sequence family (from the index: the family
loads only for a model that has sequences)."""


class UnsupportedType(ValueError):
    """A type xhip cannot read: one line."""


def xdsl_type(tp: TypeProto) -> Attribute | None:
    """`tp` as an xDSL type, or None where it says too little (no element
    type). A tensor without a shape is unranked."""
    kind = tp.WhichOneof("value")
    if kind == "tensor_type":
        elem = tp.tensor_type.elem_type
        if not elem:
            return None
        if elem not in ELEMENT_TYPES:
            raise UnsupportedType(f"unsupported element type {dtype_name(elem)}")
        element = ELEMENT_TYPES[elem]
        if not tp.tensor_type.HasField("shape"):
            return UnrankedTensorType(element)
        dims = [
            d.dim_value
            if d.HasField("dim_value") and d.dim_value >= 0
            else DYNAMIC_INDEX
            for d in tp.tensor_type.shape.dim
        ]
        return TensorType(element, dims)
    if kind == "sequence_type":
        inner = xdsl_type(tp.sequence_type.elem_type)
        return None if inner is None else onnx_dialect.SeqType(inner)
    if kind == "optional_type":
        inner = xdsl_type(tp.optional_type.elem_type)
        return None if inner is None else onnx_dialect.OptType(inner)
    if kind is None:
        return None
    raise UnsupportedType(f"is a {kind.removesuffix('_type')}, not a tensor")


def is_structured(tp: TypeProto) -> bool:
    """Whether `tp` is a sequence or optional type."""
    return tp.WhichOneof("value") in ("sequence_type", "optional_type")


def uses_structured(model: ModelProto) -> bool:
    """Whether the model has a sequence or optional anywhere (a node of the
    family, or a value declared as one), so that its types are read here."""
    return _uses(model.graph)


def _uses(graph: GraphProto) -> bool:
    values = [*graph.input, *graph.output, *graph.value_info]
    if any(is_structured(v.type) for v in values):
        return True
    return any(
        node.op_type in SEQUENCE_OPS or any(_uses(g) for g in _subgraphs(node))
        for node in graph.node
    )


def structured_types(
    model: ModelProto, infos: Mapping[str, ValueInfo]
) -> dict[str, Attribute]:
    """Every sequence- or optional-typed value's type, by name, in the graph
    and its subgraphs: from onnx's inference, told the tensors' types the
    importer knows (`infos`: contrib ops' results, which onnx cannot infer),
    where it succeeds; else the model's declarations."""
    seeded = ModelProto()
    seeded.CopyFrom(model)
    graph = seeded.graph
    stated = {v.name for v in [*graph.input, *graph.output, *graph.value_info]}
    stated |= {t.name for t in graph.initializer}
    for name, info in infos.items():
        if name not in stated and info.shape is not None and info.elem:
            dims = [None if d == DYNAMIC_INDEX else d for d in info.shape]
            graph.value_info.append(
                helper.make_tensor_value_info(name, info.elem, dims)
            )
    try:
        inferred = onnx.shape_inference.infer_shapes(seeded)
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
        inferred = model
    types: dict[str, Attribute] = {}
    pending = [inferred.graph]
    while pending:
        graph = pending.pop()
        for value in [*graph.input, *graph.value_info, *graph.output]:
            if is_structured(value.type) and value.name not in types:
                typ = xdsl_type(value.type)
                if typ is not None:
                    types[value.name] = typ
        pending += [g for n in graph.node for g in _subgraphs(n)]
    return types


def sequence_hints(
    graph: GraphProto, infos: Mapping[str, ValueInfo]
) -> list[onnx.ValueInfoProto]:
    """The types of SequenceEmpty results that onnx leaves without element
    shapes: the join of the tensors later inserted into them (equal dims
    kept, others dynamic; none where the ranks differ), so that a SequenceAt
    of such a sequence gets a shape. Only names not stated yet."""
    stated = {v.name for v in graph.value_info}
    root: dict[str, str] = {}
    joined: dict[str, ValueInfo | None] = {}
    for node in graph.node:
        if node.domain or not node.output:
            continue
        out = node.output[0]
        if node.op_type == "SequenceEmpty":
            root[out] = out
        elif node.op_type in ("SequenceInsert", "SequenceErase", "Identity"):
            if node.input and node.input[0] in root:
                root[out] = root[node.input[0]]
                if node.op_type == "SequenceInsert" and len(node.input) > 1:
                    start = root[out]
                    joined[start] = _join(
                        joined.get(start, _BOTTOM), infos.get(node.input[1])
                    )
    hints: list[onnx.ValueInfoProto] = []
    # A tensor put in a sequence that only our rules type (a contrib op's
    # result): stated, so that onnx types the sequence and its SequenceAt.
    given = stated | {v.name for v in graph.input} | {t.name for t in graph.initializer}
    for node in graph.node:
        if node.domain or node.op_type not in ("SequenceConstruct", "SequenceInsert"):
            continue
        for name in node.input[1:] if node.op_type == "SequenceInsert" else node.input:
            info = infos.get(name)
            if (
                name
                and name not in given
                and info is not None
                and info.shape is not None
            ):
                dims = [None if d == DYNAMIC_INDEX else d for d in info.shape]
                hints.append(helper.make_tensor_value_info(name, info.elem, dims))
                given.add(name)
    for name, info in joined.items():
        if name in stated or info is None or info is _BOTTOM or info.shape is None:
            continue
        dims = [None if d == DYNAMIC_INDEX else d for d in info.shape]
        hints.append(helper.make_tensor_sequence_value_info(name, info.elem, dims))
    return hints


_BOTTOM = ValueInfo()
"""What nothing inserted yet joins as."""


def _join(a: ValueInfo | None, b: ValueInfo | None) -> ValueInfo | None:
    if a is _BOTTOM:
        return b
    if a is None or b is None or a.shape is None or b.shape is None:
        return None
    if a.elem != b.elem or len(a.shape) != len(b.shape):
        return None
    shape = [x if x == y else DYNAMIC_INDEX for x, y in zip(a.shape, b.shape)]
    return ValueInfo(a.elem, shape, [None] * len(shape))


def _subgraphs(node: onnx.NodeProto) -> list[GraphProto]:
    return [a.g for a in node.attribute if a.type == AttributeProto.GRAPH]


Given = Any
"""A graph input's value as a caller gives it: an array, a list of arrays (a
sequence), or None (an absent optional)."""


def element_name(name: str, index: int) -> str:
    """The name of a sequence's element as a tensor input or output."""
    return f"{name}[{index}]"


def structure_key(model: ModelProto, inputs: Mapping[str, Given]) -> tuple[Any, ...]:
    """What a model with sequence or optional inputs is compiled for: each
    such input's presence, length and elements' dtypes and shapes."""
    key: list[Any] = []
    for value in model.graph.input:
        if not is_structured(value.type):
            continue
        given = inputs.get(value.name)
        if given is None:
            key.append((value.name, None))
        elif isinstance(given, list | tuple):
            items = cast(Sequence[Any], given)
            arrays = [np.asarray(a) for a in items]
            key.append((value.name, tuple((a.dtype.str, a.shape) for a in arrays)))
        else:
            array = np.asarray(given)
            key.append((value.name, (array.dtype.str, array.shape)))
    return tuple(key)


def with_tensor_inputs(
    model: ModelProto, inputs: Mapping[str, Given]
) -> tuple[ModelProto, dict[str, Any]]:
    """`model` with each sequence or optional input replaced by the tensors
    this call gives (`name[i]`, typed as given) and the nodes that rebuild it
    (SequenceConstruct or SequenceEmpty, then Optional where it is one); the
    inputs renamed to match. Its length (and presence) is then known at
    compile time, and the sequence resolves away."""
    result = ModelProto()
    result.CopyFrom(model)
    graph = result.graph
    kept: list[onnx.ValueInfoProto] = []
    added: list[onnx.ValueInfoProto] = []
    nodes: list[onnx.NodeProto] = []
    arrays: dict[str, Any] = {}
    for value in graph.input:
        name = value.name
        if not is_structured(value.type):
            kept.append(value)
            if name in inputs:
                arrays[name] = inputs[name]
            continue
        given = inputs.get(name)
        tp = value.type
        optional = tp.WhichOneof("value") == "optional_type"
        inner = tp.optional_type.elem_type if optional else tp
        if optional and given is None:
            nodes.append(helper.make_node("Optional", [], [name], type=inner))
            continue
        held = f"{name}.held" if optional else name
        if inner.WhichOneof("value") == "sequence_type":
            if not isinstance(given, list | tuple):
                raise ValueError(f"input '{name}' is a sequence: give a list of arrays")
            items = [np.asarray(a) for a in cast(Sequence[Any], given)]
            names = [element_name(name, i) for i in range(len(items))]
            for part, array in zip(names, items, strict=True):
                added.append(_tensor_info(part, array))
                arrays[part] = array
            elem = inner.sequence_type.elem_type.tensor_type.elem_type
            nodes.append(
                helper.make_node("SequenceConstruct", names, [held])
                if items
                else helper.make_node("SequenceEmpty", [], [held], dtype=elem)
            )
        else:
            array = np.asarray(given)
            part = element_name(name, 0)
            added.append(_tensor_info(part, array))
            arrays[part] = array
            nodes.append(helper.make_node("Identity", [part], [held]))
        if optional:
            nodes.append(helper.make_node("Optional", [held], [name]))
    del graph.input[:]
    graph.input.extend([*kept, *added])
    rest = list(graph.node)
    del graph.node[:]
    graph.node.extend([*nodes, *rest])
    return result, arrays


def _tensor_info(name: str, array: np.ndarray) -> onnx.ValueInfoProto:
    elem = helper.np_dtype_to_tensor_dtype(array.dtype)
    return helper.make_tensor_value_info(name, elem, list(array.shape))


def gather_outputs(model: ModelProto, outputs: Mapping[str, Any]) -> list[Any]:
    """The graph's outputs in order, a sequence as the list of its elements
    (`name[i]`), an absent optional as None, from the compiled model's
    tensors."""
    gathered: list[Any] = []
    for value in model.graph.output:
        name = value.name
        tp = value.type
        optional = tp.WhichOneof("value") == "optional_type"
        inner = tp.optional_type.elem_type if optional else tp
        if inner.WhichOneof("value") == "sequence_type":
            count = 0
            while element_name(name, count) in outputs:
                count += 1
            items = [outputs[element_name(name, i)] for i in range(count)]
            gathered.append(None if optional and not items else items)
        else:
            gathered.append(outputs.get(name))
    return gathered
