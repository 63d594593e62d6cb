"""What the importer knows of each value's type, and where it learns it.

Three sources, in this order: the model's own declarations, `onnx.shape_inference`
(static where known, `?` where not), and our rules for what it leaves open
(elementwise ops, MatMul, Transpose). Inference runs on a copy of the model
without its weights' data, so a model with 100 MB of weights costs no copy;
small initializers kept in external data are loaded into that copy only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeGuard, cast

import numpy as np
import onnx
from onnx import AttributeProto, ModelProto, NodeProto, TensorProto, TypeProto
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute

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
    }


ELEMENT_TYPES: dict[int, Attribute] = _element_types()
"""ONNX element types we import, and their MLIR types as onnx-mlir spells them
(signed ONNX integers are signless, unsigned ones `ui`)."""


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
    info = ValueInfo(elem=tt.elem_type)
    if tt.HasField("shape"):
        info.shape = []
        for dim in tt.shape.dim:
            if dim.HasField("dim_value"):
                info.shape.append(dim.dim_value)
                info.params.append(None)
            else:
                info.shape.append(DYNAMIC_INDEX)
                info.params.append(dim.dim_param if dim.HasField("dim_param") else None)
    return info


def infer_value_infos(
    model: ModelProto, load: Callable[[TensorProto], TensorProto] = lambda t: t
) -> dict[str, ValueInfo]:
    """Types of every value: the model's, onnx's inference, then our own.

    `load` gives a small initializer with its data in the proto (the importer
    reads external data); inference needs the values of shapes and axes.
    """
    skeleton = _skeleton(model, load)
    try:
        # onnx annotates `model` with a bare `os.PathLike`: strict reads it as
        # partially unknown.
        cast(Callable[[ModelProto], None], onnx.checker.check_model)(skeleton)
    except onnx.checker.ValidationError as e:
        raise InferenceFailure(f"invalid ONNX model: {first_line(str(e))}") from None
    try:
        inferred = onnx.shape_inference.infer_shapes(
            skeleton, check_type=True, strict_mode=True, data_prop=True
        )
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError) as e:
        reason = first_line(str(e))
        for noise in (
            "[ShapeInferenceError] ",
            "[TypeInferenceError] ",
            "Inference error(s): ",
        ):
            reason = reason.replace(noise, "")
        raise InferenceFailure(f"shape inference failed: {reason}") from None
    infos: dict[str, ValueInfo] = {}
    g = inferred.graph
    for value in [*g.input, *g.value_info, *g.output]:
        merged = _merge(infos.get(value.name), value_info(value.type))
        if merged is not None:
            infos[value.name] = merged
    for tensor in model.graph.initializer:
        infos[tensor.name] = ValueInfo(
            tensor.data_type, list(tensor.dims), [None] * len(tensor.dims)
        )
    for node in model.graph.node:
        if not node.output:
            continue
        ins = [infos.get(name) for name in node.input if name]
        merged = _merge(infos.get(node.output[0]), _own_shape(node, ins))
        if merged is not None:
            infos[node.output[0]] = merged
    return infos


def _skeleton(
    model: ModelProto, load: Callable[[TensorProto], TensorProto]
) -> ModelProto:
    """The model without its weights' data, for the checker and inference.

    Large initializers become typed graph inputs, so neither tool copies
    their bytes; small ones (shapes, axes) keep their data for inference.
    """
    m = ModelProto()
    m.ir_version = model.ir_version
    m.opset_import.extend(model.opset_import)
    m.functions.extend(model.functions)
    g = m.graph
    g.name = model.graph.name
    g.node.extend(model.graph.node)
    g.input.extend(model.graph.input)
    g.output.extend(model.graph.output)
    g.value_info.extend(model.graph.value_info)
    declared = {v.name for v in model.graph.input}
    for tensor in model.graph.initializer:
        numel = int(np.prod(tensor.dims, dtype=np.int64))
        if numel <= _SHAPE_INFERENCE_KEEP:
            g.initializer.append(load(tensor))
        elif tensor.name not in declared:
            g.input.append(
                onnx.helper.make_tensor_value_info(
                    tensor.name, tensor.data_type, list(tensor.dims)
                )
            )
    return m


def _merge(a: ValueInfo | None, b: ValueInfo | None) -> ValueInfo | None:
    """The most we know from two descriptions of one value: static dims win."""
    if a is None or b is None:
        return a or b
    elem = a.elem or b.elem
    if a.shape is None or b.shape is None or len(a.shape) != len(b.shape):
        base = a if a.shape is not None else b
        return ValueInfo(elem, base.shape, base.params)
    shape: list[int] = []
    params: list[str | None] = []
    for da, db, pa, pb in zip(a.shape, b.shape, a.params, b.params, strict=True):
        shape.append(da if da != DYNAMIC_INDEX else db)
        params.append(pa if is_named(pa) else pb if is_named(pb) else None)
    return ValueInfo(elem, shape, params)


def _broadcast(shapes: Sequence[list[int]]) -> list[int]:
    rank = max(len(s) for s in shapes)
    out: list[int] = []
    for i in range(rank):
        dims = [s[i - rank + len(s)] for s in shapes if i - rank + len(s) >= 0]
        known = {d for d in dims if d not in (1, DYNAMIC_INDEX)}
        if known:
            out.append(known.pop())
        elif DYNAMIC_INDEX in dims:
            out.append(DYNAMIC_INDEX)
        else:
            out.append(1)
    return out


def _own_shape(node: NodeProto, ins: Sequence[ValueInfo | None]) -> ValueInfo | None:
    """Our own shape rule for the result of `node`, for what onnx leaves open."""
    if not ins or any(i is None or i.shape is None for i in ins):
        return None
    infos = cast(list[ValueInfo], list(ins))
    shapes = [cast(list[int], i.shape) for i in infos]
    elem = infos[0].elem
    op = node.op_type
    if op in {"Relu", "Sigmoid", "Tanh", "Exp", "Sqrt", "Neg", "Identity", "Softmax"}:
        return ValueInfo(elem, shapes[0], [None] * len(shapes[0]))
    if op in {"Add", "Sub", "Mul", "Div", "Pow"}:
        out = _broadcast(shapes)
        return ValueInfo(elem, out, [None] * len(out))
    if op == "MatMul" and len(shapes[0]) >= 2 and len(shapes[1]) >= 2:
        batch = (
            _broadcast([shapes[0][:-2], shapes[1][:-2]])
            if (len(shapes[0]) > 2 or len(shapes[1]) > 2)
            else []
        )
        out = [*batch, shapes[0][-2], shapes[1][-1]]
        return ValueInfo(elem, out, [None] * len(out))
    if op == "Transpose":
        perm = _node_ints(node, "perm") or list(reversed(range(len(shapes[0]))))
        if sorted(perm) == list(range(len(shapes[0]))):
            out = [shapes[0][p] for p in perm]
            return ValueInfo(elem, out, [None] * len(out))
    return None


def _node_ints(node: NodeProto, name: str) -> list[int] | None:
    for attr in node.attribute:
        if attr.name == name and attr.type == AttributeProto.INTS:
            return list(attr.ints)
    return None


def first_line(message: str) -> str:
    """The first non-blank line of a library's multi-line message."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    return lines[0] if lines else "(no message)"
