"""Import a real `.onnx` model into the `onnx` dialect, the way onnx-mlir does.

The module we build is the input of the seed's pass 1: module attributes for the
target and the symbol postfix, `func.func @main_graph` with `onnx.name` and
`onnx.dim_params` on its arguments and results, initializers first (graph order)
as `onnx.Constant`, one op per node with `onnx_node_name` and every attribute
the operator spec gives a default for, and an `onnx.EntryPoint`.

Result types come from `onnx.shape_inference` (static where known, `?` where
not), refined by what we know of our own ops. Weights go from the protobuf's
`raw_data` straight into a `DenseIntOrFPElementsAttr`'s bytes: one copy, no
Python floats, so a model with 100 MB of weights imports in well under a second.

Everything a model's author can get wrong raises `OnnxImportError`, whose
message is one line naming the file and, where there is one, the node.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import numpy as np
import onnx
from google.protobuf.message import DecodeError
from onnx import (
    AttributeProto,
    ModelProto,
    NodeProto,
    TensorProto,
    TypeProto,
    numpy_helper,
)
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    f32,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import OptOperandDef, VarOperandDef

from xhip.dialects import onnx as onnx_dialect

MIN_OPSET = 13
"""The oldest default-domain opset we import: the one the dialect's ops follow."""

ONNX_DOMAINS = ("", "ai.onnx")

DATA_LAYOUT = (
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
)
TARGET_TRIPLE = "x86_64-unknown-linux-gnu"

_SHAPE_INFERENCE_KEEP = 1 << 16
"""Initializers up to this many elements keep their data for shape inference
(shapes, axes); larger ones (weights) are passed to it as typed inputs only."""


class OnnxImportError(Exception):
    """A model we cannot import, for a reason its author can fix: one line."""


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


def supported_ops() -> dict[str, type[onnx_dialect.OnnxOp]]:
    """ONNX op type -> dialect op class, for every op the dialect defines."""
    ops: dict[str, type[onnx_dialect.OnnxOp]] = {}
    for op in onnx_dialect.ONNX.operations:
        if issubclass(op, onnx_dialect.OnnxOp) and op is not onnx_dialect.EntryPointOp:
            ops[op.name.removeprefix("onnx.")] = op
    return ops


@dataclass
class _Info:
    """What we know of one value: element type (0: unknown) and dims.

    `shape` is None when even the rank is unknown; a dim is `DYNAMIC_INDEX` when
    unknown, and `params[i]` its symbolic name when the model gives one.
    """

    elem: int = 0
    shape: list[int] | None = None
    params: list[str | None] = field(default_factory=lambda: [])


def _is_named(param: str | None) -> bool:
    """Whether a dim_param is a model's name, not one onnx made up (`unk__3`)."""
    return bool(param) and not cast(str, param).startswith("unk__")


def _info_of(tp: TypeProto) -> _Info | None:
    if tp.WhichOneof("value") != "tensor_type":
        return None
    tt = tp.tensor_type
    info = _Info(elem=tt.elem_type)
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


def _merge(a: _Info | None, b: _Info | None) -> _Info | None:
    """The most we know from two descriptions of one value: static dims win."""
    if a is None or b is None:
        return a or b
    elem = a.elem or b.elem
    if a.shape is None or b.shape is None or len(a.shape) != len(b.shape):
        base = a if a.shape is not None else b
        return _Info(elem, base.shape, base.params)
    shape: list[int] = []
    params: list[str | None] = []
    for da, db, pa, pb in zip(a.shape, b.shape, a.params, b.params, strict=True):
        shape.append(da if da != DYNAMIC_INDEX else db)
        params.append(pa if _is_named(pa) else pb if _is_named(pb) else None)
    return _Info(elem, shape, params)


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


def _own_shape(node: NodeProto, ins: Sequence[_Info | None]) -> _Info | None:
    """Our own shape rule for the result of `node`, for what onnx leaves open."""
    if not ins or any(i is None or i.shape is None for i in ins):
        return None
    infos = cast(list[_Info], list(ins))
    shapes = [cast(list[int], i.shape) for i in infos]
    elem = infos[0].elem
    op = node.op_type
    if op in {"Relu", "Sigmoid", "Tanh", "Exp", "Sqrt", "Neg", "Identity", "Softmax"}:
        return _Info(elem, shapes[0], [None] * len(shapes[0]))
    if op in {"Add", "Sub", "Mul", "Div", "Pow"}:
        out = _broadcast(shapes)
        return _Info(elem, out, [None] * len(out))
    if op == "MatMul" and len(shapes[0]) >= 2 and len(shapes[1]) >= 2:
        batch = (
            _broadcast([shapes[0][:-2], shapes[1][:-2]])
            if (len(shapes[0]) > 2 or len(shapes[1]) > 2)
            else []
        )
        out = [*batch, shapes[0][-2], shapes[1][-1]]
        return _Info(elem, out, [None] * len(out))
    if op == "Transpose":
        perm = _node_ints(node, "perm") or list(reversed(range(len(shapes[0]))))
        if sorted(perm) == list(range(len(shapes[0]))):
            out = [shapes[0][p] for p in perm]
            return _Info(elem, out, [None] * len(out))
    return None


def _node_ints(node: NodeProto, name: str) -> list[int] | None:
    for attr in node.attribute:
        if attr.name == name and attr.type == AttributeProto.INTS:
            return list(attr.ints)
    return None


class _Importer:
    """One import: the model, where it came from, and the values built so far."""

    def __init__(self, model: ModelProto, source: str, base_dir: str):
        self.model = model
        self.graph = model.graph
        self.source = source
        self.base_dir = base_dir
        self.ops = supported_ops()
        self.opset = self._opset()
        self.initializers = {t.name: t for t in self.graph.initializer}
        self.values: dict[str, SSAValue] = {}
        self.infos: dict[str, _Info] = {}

    def fail(self, message: str) -> OnnxImportError:
        return OnnxImportError(f"{self.source}: {message}")

    @staticmethod
    def label(node: NodeProto) -> str:
        name = node.name or (node.output[0] if node.output else "")
        return f"node '{name}' ({node.op_type})"

    # Checks, in the order a user wants to hear about them.

    def _opset(self) -> int:
        versions = [
            o.version for o in self.model.opset_import if o.domain in ONNX_DOMAINS
        ]
        if not versions:
            raise self.fail("the model imports no version of the default ONNX opset")
        opset = versions[0]
        newest = onnx.defs.onnx_opset_version()
        if opset < MIN_OPSET:
            raise self.fail(
                f"opset {opset} is older than the oldest xhip imports ({MIN_OPSET}); "
                f"convert it first with onnx.version_converter.convert_version"
            )
        if opset > newest:
            raise self.fail(
                f"opset {opset} is newer than this onnx package knows ({newest})"
            )
        return opset

    def check_ops(self) -> None:
        """Fail with every unsupported op type and the nodes that use it."""
        unsupported: dict[str, list[str]] = {}
        for node in self.graph.node:
            if node.domain not in ONNX_DOMAINS or node.op_type not in self.ops:
                key = (
                    node.op_type
                    if node.domain in ONNX_DOMAINS
                    else (f"{node.domain}.{node.op_type}")
                )
                unsupported.setdefault(key, []).append(
                    node.name or (node.output[0] if node.output else "?")
                )
        if unsupported:
            listed = "; ".join(
                f"{op} ({', '.join(names)})"
                for op, names in sorted(unsupported.items())
            )
            raise self.fail(f"unsupported ONNX ops at opset {self.opset}: {listed}")

    def check_signature(self) -> None:
        for value in self.graph.input:
            if value.name in self.initializers:
                continue
            info = _info_of(value.type)
            if info is None:
                raise self.fail(f"input '{value.name}' is not a tensor")
            self._check_elem(info.elem, f"input '{value.name}'")
            if info.shape is None:
                raise self.fail(
                    f"input '{value.name}' has no shape; give it one (dims may be "
                    f"names such as 'batch')"
                )
        for value in self.graph.output:
            info = _info_of(value.type)
            if info is None and value.type.WhichOneof("value") is not None:
                raise self.fail(f"output '{value.name}' is not a tensor")
            if info is not None and info.elem:
                self._check_elem(info.elem, f"output '{value.name}'")

    def _check_elem(self, elem: int, what: str) -> None:
        if elem not in ELEMENT_TYPES:
            raise self.fail(f"{what} has unsupported element type {dtype_name(elem)}")

    # Types.

    def infer(self) -> None:
        """Types of every value: the model's, onnx's inference, then our own."""
        skeleton = self._skeleton()
        try:
            onnx.checker.check_model(skeleton)
        except onnx.checker.ValidationError as e:
            raise self.fail(f"invalid ONNX model: {_first_line(str(e))}") from None
        try:
            inferred = onnx.shape_inference.infer_shapes(
                skeleton, check_type=True, strict_mode=True, data_prop=True
            )
        except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError) as e:
            reason = _first_line(str(e))
            for noise in (
                "[ShapeInferenceError] ",
                "[TypeInferenceError] ",
                "Inference error(s): ",
            ):
                reason = reason.replace(noise, "")
            raise self.fail(f"shape inference failed: {reason}") from None
        g = inferred.graph
        for value in [*g.input, *g.value_info, *g.output]:
            info = _info_of(value.type)
            merged = _merge(self.infos.get(value.name), info)
            if merged is not None:
                self.infos[value.name] = merged
        for tensor in self.graph.initializer:
            self.infos[tensor.name] = _Info(
                tensor.data_type, list(tensor.dims), [None] * len(tensor.dims)
            )
        for node in self.graph.node:
            if not node.output:
                continue
            ins = [self.infos.get(name) for name in node.input if name]
            merged = _merge(self.infos.get(node.output[0]), _own_shape(node, ins))
            if merged is not None:
                self.infos[node.output[0]] = merged

    def _skeleton(self) -> ModelProto:
        """The model without its weights' data, for the checker and inference.

        Large initializers become typed graph inputs, so neither tool copies
        their bytes; small ones (shapes, axes) keep their data for inference.
        """
        m = ModelProto()
        m.ir_version = self.model.ir_version
        m.opset_import.extend(self.model.opset_import)
        m.functions.extend(self.model.functions)
        g = m.graph
        g.name = self.graph.name
        g.node.extend(self.graph.node)
        g.input.extend(self.graph.input)
        g.output.extend(self.graph.output)
        g.value_info.extend(self.graph.value_info)
        declared = {v.name for v in self.graph.input}
        for tensor in self.graph.initializer:
            numel = int(np.prod(tensor.dims, dtype=np.int64))
            if numel <= _SHAPE_INFERENCE_KEEP:
                g.initializer.append(tensor)
            elif tensor.name not in declared:
                g.input.append(
                    onnx.helper.make_tensor_value_info(
                        tensor.name, tensor.data_type, list(tensor.dims)
                    )
                )
        return m

    def tensor_type(self, name: str, what: str) -> TensorType[Attribute]:
        info = self.infos.get(name)
        if info is None or info.shape is None:
            raise self.fail(f"{what}: cannot infer the shape of '{name}'")
        if not info.elem:
            raise self.fail(f"{what}: cannot infer the element type of '{name}'")
        self._check_elem(info.elem, f"{what}: '{name}'")
        return TensorType(ELEMENT_TYPES[info.elem], info.shape)

    def arg_attrs(self, name: str) -> DictionaryAttr:
        attrs: dict[str, Attribute] = {}
        info = self.infos.get(name)
        if info is not None:
            params = [f"{i}:{p}" for i, p in enumerate(info.params) if _is_named(p)]
            if params:
                attrs["onnx.dim_params"] = StringAttr(",".join(params))
        attrs["onnx.name"] = StringAttr(name)
        return DictionaryAttr(attrs)

    # Constants.

    def dense(self, tensor: TensorProto, what: str) -> DenseIntOrFPElementsAttr:
        """The tensor's bytes as they are: `raw_data` is little-endian, like ours."""
        self._check_elem(tensor.data_type, what)
        elem = ELEMENT_TYPES[tensor.data_type]
        shape = list(tensor.dims)
        numel = int(np.prod(shape, dtype=np.int64))
        size = cast(Float32Type, elem).compile_time_size
        if tensor.HasField("raw_data") and tensor.data_location != TensorProto.EXTERNAL:
            raw = tensor.raw_data
        else:
            try:
                array = numpy_helper.to_array(tensor, self.base_dir)
            except (OSError, ValueError, TypeError) as e:
                raise self.fail(f"{what}: cannot read its data: {e}") from None
            raw = np.ascontiguousarray(
                array, dtype=array.dtype.newbyteorder("<")
            ).tobytes()
        if len(raw) != numel * size:
            raise self.fail(
                f"{what}: has {len(raw)} bytes of data, its type "
                f"{dtype_name(tensor.data_type)}{shape} needs {numel * size}"
            )
        return DenseIntOrFPElementsAttr(
            TensorType(cast(Float32Type, elem), shape), BytesAttr(raw)
        )

    def constant_node_value(self, node: NodeProto) -> DenseIntOrFPElementsAttr:
        """A Constant node's value, whichever of its attributes carries it."""
        what = self.label(node)
        if len(node.attribute) != 1:
            raise self.fail(f"{what}: needs exactly one value attribute")
        attr = node.attribute[0]
        if attr.name == "value":
            return self.dense(attr.t, what)
        values: dict[str, Callable[[], TensorProto]] = {
            "value_float": lambda: numpy_helper.from_array(
                np.array(attr.f, np.float32)
            ),
            "value_floats": lambda: numpy_helper.from_array(
                np.array(attr.floats, np.float32)
            ),
            "value_int": lambda: numpy_helper.from_array(np.array(attr.i, np.int64)),
            "value_ints": lambda: numpy_helper.from_array(
                np.array(attr.ints, np.int64)
            ),
        }
        if attr.name not in values:
            raise self.fail(
                f"{what}: constants of kind '{attr.name}' are not supported"
            )
        return self.dense(values[attr.name](), what)

    # Ops.

    def properties(
        self, node: NodeProto, op: type[onnx_dialect.OnnxOp]
    ) -> dict[str, Attribute]:
        """The node's attributes, and the spec's defaults for those it leaves out."""
        schema = onnx.defs.get_schema(node.op_type, self.opset, "")
        given = {a.name: a for a in node.attribute}
        declared = op.get_irdl_definition().properties
        props: dict[str, Attribute] = {}
        for name, spec in sorted(schema.attributes.items()):
            attr = given.get(name)
            if attr is None and spec.default_value.name:
                attr = spec.default_value
            if attr is None:
                continue
            if name not in declared:
                raise self.fail(
                    f"{self.label(node)}: attribute '{name}' is not supported"
                )
            props[name] = self._property(node, op, attr)
        return props

    def _property(
        self, node: NodeProto, op: type[onnx_dialect.OnnxOp], attr: AttributeProto
    ) -> Attribute:
        if op is onnx_dialect.CastOp and attr.name == "to":
            self._check_elem(attr.i, f"{self.label(node)}: 'to'")
            return ELEMENT_TYPES[attr.i]
        if attr.type == AttributeProto.INT:
            return IntegerAttr(attr.i, IntegerType(64, Signedness.SIGNED))
        if attr.type == AttributeProto.FLOAT:
            return FloatAttr(attr.f, f32)
        if attr.type == AttributeProto.INTS:
            return ArrayAttr([IntegerAttr(v, 64) for v in attr.ints])
        if attr.type == AttributeProto.STRING:
            return StringAttr(attr.s.decode())
        raise self.fail(
            f"{self.label(node)}: attribute '{attr.name}' of kind "
            f"{AttributeProto.AttributeType.Name(attr.type)} is not supported"
        )

    def operands(
        self, node: NodeProto, op: type[onnx_dialect.OnnxOp]
    ) -> list[SSAValue | list[SSAValue]]:
        """The node's inputs, grouped the way the op's operand definitions say."""
        inputs = list(node.input)
        grouped: list[SSAValue | list[SSAValue]] = []
        i = 0
        for name, definition in op.get_irdl_definition().operands:
            if isinstance(definition, OptOperandDef):
                present = i < len(inputs) and inputs[i]
                grouped.append([self.value(node, inputs[i])] if present else [])
                i += 1
            elif isinstance(definition, VarOperandDef):
                grouped.append([self.value(node, n) for n in inputs[i:] if n])
                i = len(inputs)
            else:
                if i >= len(inputs) or not inputs[i]:
                    raise self.fail(f"{self.label(node)}: input '{name}' is missing")
                grouped.append(self.value(node, inputs[i]))
                i += 1
        if any(inputs[i:]):
            raise self.fail(
                f"{self.label(node)}: has {len(inputs)} inputs, xhip supports {i}"
            )
        return grouped

    def value(self, node: NodeProto, name: str) -> SSAValue:
        if name not in self.values:
            raise self.fail(
                f"{self.label(node)}: input '{name}' is not defined before it"
            )
        return self.values[name]

    def node(self, node: NodeProto, block: Block) -> None:
        op = self.ops[node.op_type]
        if len(node.output) != 1 or not node.output[0]:
            raise self.fail(
                f"{self.label(node)}: has {len(node.output)} outputs, xhip supports 1"
            )
        result_type = self.tensor_type(node.output[0], self.label(node))
        attributes: dict[str, Attribute] = {
            "onnx_node_name": StringAttr(node.name or node.output[0])
        }
        if op is onnx_dialect.ConstantOp:
            value = self.constant_node_value(node)
            built = op.build(
                result_types=[value.type], attributes={"value": value, **attributes}
            )
        else:
            built = op.build(
                operands=self.operands(node, op),
                result_types=[result_type],
                properties=self.properties(node, op),
                attributes=attributes,
            )
        block.add_op(built)
        self.values[node.output[0]] = built.results[0]

    # The module.

    def build(self) -> ModuleOp:
        self.check_ops()
        self.check_signature()
        self.infer()
        g = self.graph
        inputs = [v.name for v in g.input if v.name not in self.initializers]
        outputs = [v.name for v in g.output]

        arg_types = [self.tensor_type(n, f"input '{n}'") for n in inputs]
        block = Block(arg_types=arg_types)
        for i, (name, arg) in enumerate(zip(inputs, block.args, strict=True)):
            arg.name_hint = f"arg{i}"
            self.values[name] = arg

        used = {n for node in g.node for n in node.input} | set(outputs)
        for tensor in g.initializer:
            if tensor.name in used and tensor.name not in self.values:
                value = self.dense(tensor, f"initializer '{tensor.name}'")
                const = onnx_dialect.ConstantOp.build(
                    result_types=[value.type], attributes={"value": value}
                )
                block.add_op(const)
                self.values[tensor.name] = const.results[0]

        for node in g.node:
            self.node(node, block)

        results: list[SSAValue] = []
        for name in outputs:
            if name not in self.values:
                raise self.fail(f"output '{name}' is not computed by any node")
            results.append(self.values[name])
        result_types = [self.tensor_type(n, f"output '{n}'") for n in outputs]
        block.add_op(func.ReturnOp(*results))

        function = func.FuncOp(
            "main_graph",
            (arg_types, result_types),
            Region(block),
            arg_attrs=ArrayAttr([self.arg_attrs(n) for n in inputs]),
            res_attrs=ArrayAttr([self.arg_attrs(n) for n in outputs]),
        )
        entry = onnx_dialect.EntryPointOp.build(
            properties={"func": SymbolRefAttr("main_graph")}
        )
        module = ModuleOp([function, entry])
        module.attributes["llvm.data_layout"] = StringAttr(DATA_LAYOUT)
        module.attributes["llvm.target_triple"] = StringAttr(TARGET_TRIPLE)
        module.attributes["onnx-mlir.symbol-postfix"] = StringAttr(
            symbol_postfix(g.name or Path(self.source).stem)
        )
        return module


def _first_line(message: str) -> str:
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    return lines[0] if lines else "(no message)"


def symbol_postfix(name: str) -> str:
    """The graph's name as a symbol suffix, as onnx-mlir writes it."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name) or "model"


def load_model(path: str | os.PathLike[str]) -> ModelProto:
    """Read an `.onnx` file, with its external data; bad files are one line."""
    source = os.fspath(path)
    if not os.path.exists(source):
        raise OnnxImportError(f"{source}: no such file")
    if os.path.isdir(source):
        raise OnnxImportError(f"{source}: is a directory, not an ONNX model")
    try:
        model = onnx.load(source)
    except DecodeError as e:
        raise OnnxImportError(
            f"{source}: not an ONNX model (protobuf parse failed: {_first_line(str(e))}; "
            f"is the file truncated or corrupt?)"
        ) from None
    except (OSError, onnx.checker.ValidationError, ValueError) as e:
        raise OnnxImportError(f"{source}: cannot read: {_first_line(str(e))}") from None
    if not model.HasField("graph") or not model.ir_version:
        raise OnnxImportError(
            f"{source}: not an ONNX model (no graph or IR version in the file)"
        )
    return model


def import_model(
    model: str | os.PathLike[str] | ModelProto, *, source: str | None = None
) -> ModuleOp:
    """The `onnx`-dialect module of a model file or `ModelProto`.

    `source` names the model in messages (default: its path, or its graph name).
    """
    if isinstance(model, ModelProto):
        base_dir = ""
        source = source or model.graph.name or "<model>"
        if not model.HasField("graph"):
            raise OnnxImportError(f"{source}: the model has no graph")
    else:
        base_dir = os.path.dirname(os.fspath(model))
        source = source or os.fspath(model)
        model = load_model(model)
    return _Importer(model, source, base_dir).build()
