"""What the importer knows of each value's type, and where it learns it.

Three sources, in this order: the model's own declarations, `onnx.shape_inference`
(static where known, `?` where not), and our rules for what it leaves open
(`shape_rules`: at least the rank, dims it cannot prove dynamic, sized at run
time). Where inference contradicts a declaration, the error names both types;
a declared static dim where inference carries a graph input's dynamic dim is
that dim again (ONNX Runtime reads declarations as hints).
Inference runs on a copy of the model
without its weights' data, so a model with 100 MB of weights costs no copy;
small initializers kept in external data are loaded into that copy only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeGuard, cast

import numpy as np
import onnx
from onnx import AttributeProto, ModelProto, TensorProto, TypeProto, ValueInfoProto
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute

from xhip.frontend.data_sizes import data_sized_outputs
from xhip.frontend.shape_rules import (
    EVERY_OUTPUT,
    Input,
    Known,
    attr_int,
    attr_ints,
    own_shape,
)

D = DYNAMIC_INDEX

_SHAPE_INFERENCE_KEEP = 1 << 16
"""Initializers up to this many elements keep their data for shape inference
(shapes, axes); larger ones (weights) are passed to it as typed inputs only."""


def _element_types() -> dict[int, Attribute]:
    u = Signedness.UNSIGNED
    return {
        TensorProto.FLOAT: Float32Type(),
        TensorProto.DOUBLE: Float64Type(),
        TensorProto.FLOAT16: Float16Type(),
        TensorProto.BOOL: IntegerType(1),
        TensorProto.INT8: IntegerType(8),
        TensorProto.INT16: IntegerType(16),
        TensorProto.INT32: IntegerType(32),
        TensorProto.INT64: IntegerType(64),
        TensorProto.UINT8: IntegerType(8, u),
        TensorProto.UINT16: IntegerType(16, u),
        TensorProto.UINT32: IntegerType(32, u),
        TensorProto.UINT64: IntegerType(64, u),
        TensorProto.INT4: IntegerType(4),
        TensorProto.UINT4: IntegerType(4, u),
        TensorProto.FLOAT8E4M3FN: Float8E4M3FNType(),
        TensorProto.FLOAT8E4M3FNUZ: Float8E4M3FNUZType(),
        TensorProto.FLOAT8E5M2: Float8E5M2Type(),
        TensorProto.FLOAT8E5M2FNUZ: Float8E5M2FNUZType(),
    }


ELEMENT_TYPES: dict[int, Attribute] = _element_types()
"""ONNX element types we import, and their MLIR types as onnx-mlir spells them
(signed ONNX integers are signless, unsigned ones `ui`)."""


PACKED_TYPES = frozenset({TensorProto.INT4, TensorProto.UINT4})
"""Types a TensorProto stores two a byte (the first element in the low
nibble); in the IR (xDSL's i4 and ui4) and at run time (ml_dtypes' int4 and
uint4) one a byte."""


def proto_bytes(elem_type: int, numel: int, size: int) -> int:
    """The bytes of a TensorProto's data of `numel` elements of `size` bytes."""
    return (numel + 1) // 2 if elem_type in PACKED_TYPES else numel * size


def unpack_nibbles(raw: bytes | memoryview, elem_type: int, numel: int) -> bytes:
    """A packed INT4 or UINT4 tensor's data, one element a byte: INT4 sign
    extended, as xDSL stores an i4 constant."""
    packed = np.frombuffer(raw, np.uint8)
    nibbles = np.stack([packed & 0xF, packed >> 4], axis=-1).reshape(-1)[:numel]
    if elem_type == TensorProto.INT4:
        return ((nibbles.astype(np.int8) ^ 8) - 8).astype(np.int8).tobytes()
    return nibbles.tobytes()


def dtype_name(elem_type: int) -> str:
    """`FLOAT`, `BFLOAT16`, ... or the number when ONNX does not know it either."""
    try:
        return TensorProto.DataType.Name(elem_type)
    except ValueError:
        return str(elem_type)


class InferenceFailure(ValueError):
    """The model fails onnx's checker or shape inference; the message is one line."""


@dataclass
class ValueInfo:
    """What we know of one value: element type (0: unknown) and dims.

    `shape` is None when even the rank is unknown; a dim is `DYNAMIC_INDEX` when
    unknown, and `params[i]` its symbolic name when the model gives one.
    """

    elem: int = 0
    shape: list[int] | None = None
    params: list[str | None] = field(default_factory=lambda: [])

    def named_dims(self) -> dict[int, str]:
        """The dims the model names (`batch`), not those onnx made up (`unk__3`)."""
        return {i: p for i, p in enumerate(self.params) if is_named(p)}


def is_named(param: str | None) -> TypeGuard[str]:
    """Whether a dim_param is a model's name, not one onnx made up (`unk__3`)."""
    return bool(param) and not param.startswith("unk__")


def value_info(tp: TypeProto) -> ValueInfo | None:
    """What a declared type says; None for anything but a tensor."""
    if tp.WhichOneof("value") != "tensor_type":
        return None
    tt = tp.tensor_type
    if not tt.HasField("shape"):
        return ValueInfo(tt.elem_type)
    shape: list[int] = []
    params: list[str | None] = []
    for dim in tt.shape.dim:
        kind = dim.WhichOneof("value")  # one read of the dim's oneof
        # onnx's inference may give -1 in a branch no input takes (a Split
        # of 5 into 4 in an expanded AffineGrid's 2-D branch): unknown.
        if kind == "dim_value" and (size := dim.dim_value) >= 0:
            shape.append(size)
            params.append(None)
        else:
            shape.append(DYNAMIC_INDEX)
            params.append(dim.dim_param if kind == "dim_param" else None)
    return ValueInfo(tt.elem_type, shape, params)


def infer_value_infos(
    model: ModelProto,
    load: Callable[[TensorProto], TensorProto] = lambda t: t,
    filled: set[str] | None = None,
) -> dict[str, ValueInfo]:
    """Types of every value: the model's, onnx's inference, then our own.

    `load` gives a small initializer with its data in the proto (the importer
    reads external data); inference needs the values of shapes and axes.
    `filled`, if given, is told the values onnx left rank-less and our rules
    ranked, or whose `?` dims they sized.
    """
    weights = _unread_weights(model)
    skeleton = _skeleton(model, load, weights)
    still_open = _shape_open_outputs(skeleton)
    _free_input_dims(skeleton, weights)
    try:
        # onnx annotates `model` with a bare `os.PathLike`: strict reads it as
        # partially unknown.
        cast(Callable[[ModelProto], None], onnx.checker.check_model)(
            _with_shapes_stated(skeleton, still_open)
        )
    except onnx.checker.ValidationError as e:
        raise InferenceFailure(f"invalid ONNX model: {first_line(str(e))}") from None
    try:
        inferred = onnx.shape_inference.infer_shapes(
            skeleton, check_type=True, strict_mode=True, data_prop=True
        )
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError) as e:
        if (disagreement := _disagreement(skeleton)) is not None:
            raise InferenceFailure(disagreement) from None
        reason = first_line(str(e))
        for noise in (
            "[ShapeInferenceError] ",
            "[TypeInferenceError] ",
            "Inference error(s): ",
        ):
            reason = reason.replace(noise, "")
        raise InferenceFailure(f"shape inference failed: {reason}") from None
    return _collect(inferred, model.graph, _constants(skeleton.graph), filled)


def _shape_open_outputs(skeleton: ModelProto) -> set[str]:
    """Graph outputs declared as tensors without a shape (`make_tensor_value_info(
    name, type, None)`) or without a type: ONNX Runtime runs such models, onnx's
    checker wants the fields. They get what a lenient inference gives them.

    Returns those it leaves without a shape (after a function onnx cannot
    expand, such as GroupNormalization-21 on a run-time dim): our rules type
    those."""
    open_ = [o for o in skeleton.graph.output if _is_open(o)]
    if not open_:
        return set()
    typeless = {o.name for o in open_ if not o.HasField("type")}
    for output in open_:
        output.type.tensor_type.SetInParent()
    try:
        inferred = onnx.shape_inference.infer_shapes(skeleton, data_prop=True)
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
        return {o.name for o in open_}
    types = {
        v.name: v.type
        for v in [*inferred.graph.value_info, *inferred.graph.output]
        if v.HasField("type")
    }
    for output in open_:
        if output.name not in types:
            continue
        if output.name in typeless:
            output.type.CopyFrom(types[output.name])
        elif types[output.name].tensor_type.HasField("shape"):
            output.type.tensor_type.shape.CopyFrom(types[output.name].tensor_type.shape)
    return {o.name for o in open_ if _is_open(o)}


def _is_open(output: ValueInfoProto) -> bool:
    return not output.HasField("type") or (
        output.type.WhichOneof("value") == "tensor_type"
        and not output.type.tensor_type.HasField("shape")
    )


def _with_shapes_stated(skeleton: ModelProto, open_: set[str]) -> ModelProto:
    """A copy for onnx's checker, which wants every graph output's type and
    shape fields, where the outputs still `open_` state empty ones: the checker
    reads only that the fields are there, and inference keeps them open."""
    if not open_:
        return skeleton
    checked = ModelProto()
    checked.CopyFrom(skeleton)
    for output in checked.graph.output:
        if output.name in open_:
            output.type.tensor_type.shape.SetInParent()
            if not output.type.tensor_type.elem_type:
                output.type.tensor_type.elem_type = TensorProto.FLOAT
    return checked


_INPUT_DIM = "unk__xhip_input_dim"
"""The name a bare inference gives an input's unnamed dynamic dim, to follow
it; `unk__`, so no type ever shows it as a model's name."""


def _free_input_dims(skeleton: ModelProto, weights: Collection[str]) -> None:
    """A declared static dim (value_info, outputs) where onnx's inference,
    without the declarations, carries a graph input's dynamic dim, or leaves
    open on a graph output whose size is data (a Range of graph inputs:
    `data_sizes`), is that dim again: ONNX Runtime takes a
    declaration as a hint and runs any size the input allows, and a `3`
    would size the value's buffer for one input only. `weights`: the
    skeleton's inputs that are initializers (`_unread_weights`)."""
    g = skeleton.graph
    declared = [
        v
        for v in [*g.value_info, *g.output]
        if v.type.WhichOneof("value") == "tensor_type"
        and any(d.HasField("dim_value") for d in v.type.tensor_type.shape.dim)
    ]
    if not declared:
        return
    bare = ModelProto()
    bare.CopyFrom(skeleton)
    for value in [*bare.graph.value_info, *bare.graph.output]:
        for dim in value.type.tensor_type.shape.dim:
            dim.Clear()
    inputs: set[str] = set()
    for i, value in enumerate(bare.graph.input):
        for j, dim in enumerate(value.type.tensor_type.shape.dim):
            if not dim.HasField("dim_value"):
                if not dim.dim_param:
                    dim.dim_param = f"{_INPUT_DIM}{i}_{j}"
                inputs.add(dim.dim_param)
    data_sized = data_sized_outputs(g, weights)
    if not inputs and not data_sized:
        return
    try:
        inferred = onnx.shape_inference.infer_shapes(
            bare, check_type=True, strict_mode=False, data_prop=True
        )
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
        return
    carried = {
        v.name: v.type.tensor_type.shape.dim
        for v in [*inferred.graph.value_info, *inferred.graph.output]
    }
    for value in declared:
        dims = value.type.tensor_type.shape.dim
        got = carried.get(value.name)
        if not got and value.name in data_sized:  # rank-less
            for dim in dims:
                if dim.HasField("dim_value"):
                    dim.Clear()
            continue
        if got is None or len(got) != len(dims):
            continue
        for dim, free in zip(dims, got, strict=True):
            if dim.HasField("dim_value") and (
                free.dim_param in inputs
                or (value.name in data_sized and not free.HasField("dim_value"))
            ):
                dim.Clear()
                if not free.dim_param.startswith(_INPUT_DIM):
                    dim.dim_param = free.dim_param


def lenient_infos(model: ModelProto) -> dict[str, ValueInfo]:
    """Types of a model the checker may refuse (a subgraph taken out as a
    model of its own, `control_flow_rules`): onnx's inference, not strict,
    then our rules; nothing where inference fails."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
        return {}
    return _collect(inferred, model.graph, _constants(model.graph))


def _collect(
    inferred: ModelProto,
    graph: onnx.GraphProto,
    consts: Mapping[str, np.ndarray],
    filled: set[str] | None = None,
) -> dict[str, ValueInfo]:
    """What inference gave `inferred`'s values, then our rules' results."""
    infos: dict[str, ValueInfo] = {}
    g = inferred.graph
    weights = {t.name for t in graph.initializer}
    for value in [*g.input, *g.value_info, *g.output]:
        name = value.name
        if name in weights and value.type.WhichOneof("value") == "tensor_type":
            infos.setdefault(name, _PLACEHOLDER)  # its initializer types it below
            continue
        merged = _merge(infos.get(name), value_info(value.type))
        if merged is not None:
            infos[name] = merged
    for tensor in graph.initializer:
        infos[tensor.name] = ValueInfo(
            tensor.data_type, list(tensor.dims), [None] * len(tensor.dims)
        )
    _fill(graph, infos, consts, filled)
    return infos


_PLACEHOLDER = ValueInfo()
"""Keeps a weight's place in `_collect`'s dict until its initializer types it."""


def _fill(
    graph: onnx.GraphProto,
    infos: dict[str, ValueInfo],
    consts: Mapping[str, np.ndarray],
    filled: set[str] | None = None,
) -> None:
    """Our rules' results into `infos` where onnx left a value rank-less
    (their names into `filled`, and those of values whose `?` a rule made a
    size).

    The rules work on their own refined view (`known`: a Slice's length where
    onnx says `?`, so a Reshape downstream gets its rank), but a value onnx
    ranks keeps onnx's dims: only `_REFINE` ops refine those, from `infos`.
    """
    known = dict(infos)
    for node in graph.node:
        names = node.output if node.op_type in EVERY_OUTPUT else node.output[:1]
        if not any(names):
            continue
        ins = [_input(known, n) for n in node.input]
        own = first = own_shape(node, ins, consts)
        for name in names:
            if not name:
                continue
            known[name] = _merge(known.get(name), _info(own)) or ValueInfo()
            out = infos.get(name)
            if out is None or out.shape is None:
                if known[name].shape is not None:
                    infos[name] = known[name]
                    if filled is not None:
                        filled.add(name)
            elif node.op_type in _REFINE:
                # The rules are functions of the inputs: where onnx's view of
                # them is the refined one, the answer is the one above.
                refine = [_input(infos, n) for n in node.input]
                own = first if refine == ins else own_shape(node, refine, consts)
                infos[name] = _merge(out, _info(own)) or out
                if filled is not None and infos[name].shape != out.shape:
                    filled.add(name)


_REFINE = {
    *"Relu Sigmoid Tanh Exp Sqrt Neg Identity Softmax".split(),
    *"Add Sub Mul Div Pow MatMul Transpose Reshape Compress".split(),
}
"""Ops whose rules refine the dims onnx gives (a `?` the operands' dims
settle), as they did before the other rules came. Reshape: onnx reads a target
only from an initializer or a Constant, not through an Identity of one (the
TorchScript exporter's weight-standardized convs: BiT). Compress: a
condition known before the run fixes the length it keeps."""


def _info(known: Known | None) -> ValueInfo | None:
    return (
        None if known is None else ValueInfo(known[0], known[1], [None] * len(known[1]))
    )


def _input(infos: Mapping[str, ValueInfo], name: str) -> Input:
    """None for an absent input; an untyped one has an unknown rank."""
    if not name:
        return None
    info = infos.get(name)
    return (0, None) if info is None else (info.elem, info.shape)


def _skeleton(
    model: ModelProto,
    load: Callable[[TensorProto], TensorProto],
    weights: Collection[str] = (),
) -> ModelProto:
    """The model without its weights' data, for the checker and inference.

    Large initializers, and `weights` (`_unread_weights`), become typed graph
    inputs, so neither tool copies their bytes; other small ones (shapes,
    axes) keep their data for inference.
    """
    m = ModelProto()
    m.ir_version = model.ir_version
    m.opset_import.extend(model.opset_import)
    m.functions.extend(model.functions)
    g = m.graph
    g.name = model.graph.name
    g.node.extend(model.graph.node)
    for node in g.node:
        _state_function_defaults(node)
    _cast_eyelike_dtypes(g)
    g.input.extend(model.graph.input)
    g.output.extend(model.graph.output)
    # A Constant's value is its type: ONNX Runtime ignores a declaration that
    # contradicts it, and onnxruntime-genai's builder writes such ones.
    constants = {
        o for n in model.graph.node if n.op_type == "Constant" for o in n.output
    }
    g.value_info.extend(v for v in model.graph.value_info if v.name not in constants)
    declared = {v.name for v in model.graph.input}
    for tensor in model.graph.initializer:
        numel = math.prod(tensor.dims)
        if numel <= _SHAPE_INFERENCE_KEEP and tensor.name not in weights:
            g.initializer.append(load(tensor))
        elif tensor.name not in declared:
            typed_input(g.input.add(), tensor.name, tensor.data_type, tensor.dims)
    return m


def typed_input(
    value: ValueInfoProto, name: str, elem_type: int, dims: Sequence[int]
) -> None:
    """`value` made what `onnx.helper.make_tensor_value_info(name, elem_type,
    dims)` makes, in place: the helper builds and copies a `TypeProto`, and
    the skeleton has one such input per weight."""
    value.name = name
    tensor_type = value.type.tensor_type
    tensor_type.elem_type = elem_type
    shape = tensor_type.shape
    shape.SetInParent()
    for d in dims:
        shape.dim.add().dim_value = d


_UNREAD_OPS = frozenset({"MatMul", "Gemm", "Conv", "Add", "Sub", "Mul", "Div"})
"""Ops whose onnx inference, at every opset, reads no input's values: only
Add to Div propagate values, and those of int32 and int64 tensors only
(`DataPropagationContextImpl::getInputData`)."""

_WEIGHT_SIZES: dict[int, int] = {
    TensorProto.FLOAT: 4,
    TensorProto.FLOAT16: 2,
    TensorProto.DOUBLE: 8,
}

_WEIGHT_FIELDS = frozenset({"name", "doc_string", "data_type", "dims", "raw_data"})
"""The fields a weight `_plain_weight` accepts may set: no other data field,
no external data."""

_SUBGRAPH_OPS = frozenset({"If", "Loop", "Scan", "SequenceMap"})
"""The default domain's ops with graph attributes (the checker refuses one
on any other op of that domain, and inference ignores it)."""


def _unread_weights(model: ModelProto) -> set[str]:
    """The small initializers the checker and inference can be given as typed
    inputs, with the same outcome and no copy of their bytes: float data in
    `raw_data` of the size its type needs (the checker accepts it), read only
    by `_UNREAD_OPS` nodes of the main graph (inference never reads it), and
    no graph input, output, value_info, other initializer or subgraph's name
    (where it would be one value with a declared type, or shadowed). A node
    result of its name is the checker's same error either way. A model of IR
    version 3 or less, or with local functions, keeps them all."""
    g = model.graph
    if model.ir_version < 4 or model.functions:
        return set()
    candidates = [t.name for t in g.initializer if _plain_weight(t)]
    if not candidates:
        return set()
    named = {v.name for v in [*g.input, *g.output, *g.value_info]}
    seen: set[str] = set()
    for tensor in g.initializer:
        (named if tensor.name in seen else seen).add(tensor.name)
    for node in g.node:
        default = node.domain in ("", "ai.onnx")
        op_type = node.op_type
        if not default or op_type not in _UNREAD_OPS:
            named.update(node.input)
        if not default or op_type in _SUBGRAPH_OPS:
            for sub in _graphs_of(node):
                named |= _names_in(sub)
    return {name for name in candidates if name not in named}


def _plain_weight(tensor: TensorProto) -> bool:
    """Whether onnx's checker accepts `tensor` wherever it is: a float type,
    positive dims, at most `_SHAPE_INFERENCE_KEEP` elements (larger ones are
    inputs anyway) and exactly their bytes in `raw_data`."""
    size = _WEIGHT_SIZES.get(tensor.data_type)
    if size is None:
        return False
    fields = {f.name: v for f, v in tensor.ListFields()}
    dims: list[int] = fields.get("dims", [])
    numel = math.prod(dims)
    return (
        fields.keys() <= _WEIGHT_FIELDS
        and bool(tensor.name)
        and bool(dims)
        and all(d > 0 for d in dims)
        and numel <= _SHAPE_INFERENCE_KEEP
        and len(fields.get("raw_data", b"")) == numel * size
    )


def _graphs_of(node: onnx.NodeProto) -> list[onnx.GraphProto]:
    graphs: list[onnx.GraphProto] = []
    for attr in node.attribute:
        if attr.type == AttributeProto.GRAPH:
            graphs.append(attr.g)
        elif attr.type == AttributeProto.GRAPHS:
            graphs.extend(attr.graphs)
    return graphs


def _names_in(graph: onnx.GraphProto) -> set[str]:
    """Every name a subgraph, or one nested in it, reads or defines."""
    names = {v.name for v in [*graph.input, *graph.output, *graph.value_info]}
    names |= {t.name for t in graph.initializer}
    for node in graph.node:
        names.update(node.input)
        names.update(node.output)
        for sub in _graphs_of(node):
            names |= _names_in(sub)
    return names


_FUNCTION_DEFAULTS = {"MeanVarianceNormalization": ("axes", [0, 2, 3])}
"""Attributes onnx's inference needs stated: its function body of
MeanVarianceNormalization-13 reads `axes` without the default, and fails."""


def _state_function_defaults(node: onnx.NodeProto) -> None:
    default = _FUNCTION_DEFAULTS.get(node.op_type)
    if default is None or node.domain not in ("", "ai.onnx"):
        return
    name, value = default
    if all(a.name != name for a in node.attribute):
        node.attribute.append(onnx.helper.make_attribute(name, value))


_EYELIKE = "__xhip_eyelike"
"""The suffix of an EyeLike's result before its Cast (`_cast_eyelike_dtypes`)."""


def _cast_eyelike_dtypes(g: onnx.GraphProto) -> None:
    """Each EyeLike with a `dtype` as EyeLike without one, then a Cast to it:
    onnx 1.23's inference of EyeLike with a `dtype` crashes the process
    (SIGSEGV) where its input has no type yet (a contrib op's result, before
    the importer states it; fuzz seed 70135). A Cast to `dtype` gives the
    same type, shape and value."""
    if not any(n.op_type == "EyeLike" for n in g.node):
        return
    nodes: list[onnx.NodeProto] = []
    for node in g.node:
        dtype = next((a for a in node.attribute if a.name == "dtype"), None)
        nodes.append(new := onnx.NodeProto())
        new.CopyFrom(node)
        if node.op_type != "EyeLike" or node.domain not in ("", "ai.onnx"):
            continue
        if dtype is None or not node.output or not node.output[0]:
            continue
        out = node.output[0]
        new.output[0] = out + _EYELIKE
        del new.attribute[:]
        new.attribute.extend(a for a in node.attribute if a.name != "dtype")
        nodes.append(onnx.helper.make_node("Cast", [new.output[0]], [out], to=dtype.i))
    del g.node[:]
    g.node.extend(nodes)


def _merge(a: ValueInfo | None, b: ValueInfo | None) -> ValueInfo | None:
    """The most we know from two descriptions of one value: static dims win."""
    if a is None or b is None:
        return a or b
    elem = a.elem or b.elem
    if a.shape is None or b.shape is None or len(a.shape) != len(b.shape):
        base = a if a.shape is not None else b
        return ValueInfo(elem, base.shape, base.params)
    if a.shape == b.shape and not any(a.params) and not any(b.params):
        # the usual case: the loop below would give these
        return ValueInfo(elem, list(a.shape), [None] * len(a.shape))
    shape: list[int] = []
    params: list[str | None] = []
    for da, db, pa, pb in zip(a.shape, b.shape, a.params, b.params, strict=True):
        shape.append(da if da != DYNAMIC_INDEX else db)
        params.append(pa if is_named(pa) else pb if is_named(pb) else None)
    return ValueInfo(elem, shape, params)


def _constants(graph: onnx.GraphProto) -> dict[str, np.ndarray]:
    """Small integer values known before the run (initializers, Constant
    nodes), for the shape rules' axes, starts and target shapes."""
    consts: dict[str, np.ndarray] = {}
    tensors = [(t.name, t) for t in graph.initializer]
    for node in graph.node:
        if node.op_type == "Constant" and node.output and len(node.attribute) == 1:
            attr = node.attribute[0]
            if attr.name == "value":
                tensors.append((node.output[0], attr.t))
            elif attr.name == "value_ints":
                consts[node.output[0]] = np.array(attr.ints, np.int64)
            elif attr.name == "value_int":
                consts[node.output[0]] = np.array(attr.i, np.int64)
    for name, t in tensors:
        small = math.prod(t.dims) <= 64
        if small and t.data_type in _INDEX_TYPES and t.data_location != t.EXTERNAL:
            consts[name] = onnx.numpy_helper.to_array(t)
    for node in graph.node:  # integer arithmetic on constants, computed
        if node.output and (value := _folded(node, consts)) is not None:
            consts[node.output[0]] = value
    return consts


_FOLDS: dict[str, Callable[..., np.ndarray]] = {
    "Add": np.add,
    "Sub": np.subtract,
    "Mul": np.multiply,
    "Mod": np.mod,  # fmod=0: the divisor's sign, as Python's %
    "Neg": np.negative,
    "Max": np.maximum,
    "Min": np.minimum,
    "Identity": np.asarray,
}


def _folded(
    node: onnx.NodeProto, consts: Mapping[str, np.ndarray]
) -> np.ndarray | None:
    """`node`'s value when it is small integer arithmetic on constants.

    torch's `unflatten` (nn.MultiheadAttention's packed projection, TorchScript
    export) bounds the split dim with `Mod` of constants: onnx's inference does
    not compute it, and the Reshape to `Concat(Slice(Shape(x), 0, Mod(2, 3)),
    ...)` is then rank-less."""
    args = [consts.get(name) for name in node.input]
    known = [a for a in args if a is not None]
    op = node.op_type
    if not known or len(known) != len(args) or any(a.dtype.kind != "i" for a in known):
        return None
    try:
        if op == "Mod" and (attr_int(node, "fmod", 0) or not known[1].all()):
            return None
        if op in _FOLDS:
            out = _FOLDS[op](*known)
        elif op == "Reshape" and len(known) == 2:
            keep = not attr_int(node, "allowzero", 0)
            dims = known[0].shape
            target = [d if t == 0 and keep else t for t, d in zip(known[1], dims)]
            out = known[0].reshape(target + list(known[1][len(target) :]))
        elif op in ("Unsqueeze", "Squeeze"):
            axes = known[1].tolist() if len(known) > 1 else attr_ints(node, "axes")
            if op == "Squeeze":
                out = np.squeeze(known[0], axis=None if axes is None else tuple(axes))
            else:
                rank = known[0].ndim + len(axes or [])
                out = np.expand_dims(known[0], tuple(a % rank for a in axes or []))
        elif op == "Concat":
            out = np.concatenate(known, axis=attr_int(node, "axis", 0))
        else:
            return None
    except (ValueError, IndexError):
        return None
    return out if out.dtype.kind == "i" and out.size <= 64 else None


_INDEX_TYPES = {TensorProto.INT64, TensorProto.INT32, TensorProto.BOOL}
"""Constants the rules read: shapes, axes, starts; and conditions (Compress)."""


def _disagreement(model: ModelProto) -> str | None:
    """The first value whose declared type (value_info, outputs) onnx's
    inference contradicts, said with both types; None when none does."""
    declared = {
        v.name: info
        for v in [*model.graph.value_info, *model.graph.output]
        if (info := value_info(v.type)) is not None and info.shape is not None
    }
    bare = ModelProto()
    bare.CopyFrom(model)
    del bare.graph.value_info[:]
    for out in bare.graph.output:
        out.type.tensor_type.ClearField("shape")
    try:
        inferred = onnx.shape_inference.infer_shapes(
            bare, strict_mode=False, data_prop=True
        )
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
        return None
    for v in [*inferred.graph.value_info, *inferred.graph.output]:
        want, got = declared.get(v.name), value_info(v.type)
        if want is None or got is None or got.shape is None:
            continue
        if disagree(want, got):
            return (
                f"'{v.name}': the model declares {describe(want)} but shape "
                f"inference gives {describe(got if got.elem else _with_elem(got, want))}"
            )
    return None


def disagree(want: ValueInfo, got: ValueInfo) -> bool:
    """Whether two ranked types of one value contradict each other: element
    types, ranks, or a dim both know."""
    assert want.shape is not None and got.shape is not None
    return bool(
        (want.elem and got.elem and want.elem != got.elem)
        or len(want.shape) != len(got.shape)
        or any(D not in (a, b) and a != b for a, b in zip(want.shape, got.shape))
    )


def _with_elem(info: ValueInfo, like: ValueInfo) -> ValueInfo:
    return ValueInfo(like.elem, info.shape, info.params)


def describe(info: ValueInfo | None) -> str:
    """`float32[batch, 3, ?]`: a type as the messages spell it."""
    if info is None:
        return "?"
    elem = (
        onnx.helper.tensor_dtype_to_np_dtype(info.elem).name
        if info.elem in ELEMENT_TYPES
        else dtype_name(info.elem).lower()
    )
    if info.shape is None:
        return f"{elem}[...]"
    dims = [
        str(d) if d != D else (p if is_named(p) else "?")
        for d, p in zip(info.shape, info.params or [None] * len(info.shape))
    ]
    return f"{elem}[{', '.join(dims)}]"


def first_line(message: str) -> str:
    """The first non-blank line of a library's multi-line message."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    return lines[0] if lines else "(no message)"
