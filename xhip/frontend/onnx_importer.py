"""Import a real `.onnx` model into the `onnx` dialect, the way onnx-mlir does.

The module we build is the input of the seed's pass 1: module attributes for the
target and the symbol postfix, `func.func @main_graph` with `onnx.name` and
`onnx.dim_params` on its arguments and results, initializers first (graph order)
as `onnx.Constant`, one op per node with `onnx_node_name` and every attribute
the operator spec gives a default for, and an `onnx.EntryPoint`.

Result types come from `xhip.frontend.value_info`: the model's declarations,
`onnx.shape_inference`, then our own rules. ONNX Runtime's contrib ops
(`xhip.dialects.onnx.contrib`, domain `com.microsoft` version 1) have no onnx
schema: their attribute defaults are the ops' `DEFAULTS`, and their result
types come from `contrib_rules` for inference to carry on from. Weights go from the protobuf's
`raw_data` straight into a `DenseIntOrFPElementsAttr`'s bytes: one copy, no
Python floats, so a model with 100 MB of weights imports in well under a second.
External data is not read at all: each file is mapped (`xhip.mapped`) and a
large tensor's bytes are a `memoryview` of the mapping, which the constants
file later copies in the kernel; a model's weights never pass through Python.

Everything a model's author can get wrong raises `OnnxImportError`, whose
message is one line naming the file and, where there is one, the node.

Reading the file and upgrading old opsets live in `model_file`, tensors and
external data in `tensor_data`; their public names are re-exported here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import onnx
from onnx import (
    AttributeProto,
    ModelProto,
    NodeProto,
    ValueInfoProto,
    helper,
)
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
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
from xdsl.irdl import (
    OptionalDef,
    OptOperandDef,
    OptResultDef,
    VariadicDef,
    VarOperandDef,
    VarResultDef,
)

from xhip.dialects import onnx as onnx_dialect
from xhip.dialects.family_index import CONTRIB_OPS, ONNX_OPS
from xhip.frontend.contrib_rules import result_infos
from xhip.frontend.control_flow_rules import (
    Scope,
    contradiction,
    control_flow_hints,
    inner_outputs,
)
from xhip.frontend.graph_check import graph_problem
from xhip.frontend.ml_rules import ml_hints
from xhip.frontend.model_file import (
    MIN_OPSET,
    ONNX_DOMAINS,
    OnnxImportError,
    OpsetConversionWarning,
    default_opset,
    load_model,
    upgrade_opset,
)
from xhip.frontend.sequence_types import (
    UnsupportedType,
    sequence_hints,
    structured_types,
    uses_structured,
    xdsl_type,
)
from xhip.frontend.tensor_data import MAP_MIN_BYTES, TensorReader
from xhip.frontend.value_info import (
    ELEMENT_TYPES,
    InferenceFailure,
    ValueInfo,
    infer_value_infos,
    is_named,
    value_info,
)
from xhip.progress import ProgressCallback, ProgressEvent

__all__ = [
    "MAP_MIN_BYTES",
    "MIN_OPSET",
    "OnnxImportError",
    "OpsetConversionWarning",
    "contrib_ops",
    "default_opset",
    "import_model",
    "load_model",
    "supported_ops",
    "symbol_postfix",
    "upgrade_opset",
]

ML_DOMAIN = onnx_dialect.ML_DOMAIN
CONTRIB_DOMAIN = onnx_dialect.CONTRIB_DOMAIN
CONTRIB_VERSION = 1
"""The `com.microsoft` opset the contrib ops follow (ORT's only one)."""

DATA_LAYOUT = (
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
)
TARGET_TRIPLE = "x86_64-unknown-linux-gnu"


CONTRIB_ALIASES: dict[tuple[str, str], str] = {
    (CONTRIB_DOMAIN, "Gelu"): "GeluOp",
    (CONTRIB_DOMAIN, "RotaryEmbedding"): "MsRotaryEmbeddingOp",
    (CONTRIB_DOMAIN, "Attention"): "MsAttentionOp",
    (CONTRIB_DOMAIN, "QuantizeLinear"): "QuantizeLinearOp",
    (CONTRIB_DOMAIN, "DequantizeLinear"): "DequantizeLinearOp",
}
"""ONNX Runtime's contrib ops read as an op of another domain or name (their
classes' `DOMAINS` do not list `com.microsoft`): (domain, op type) -> the
class's name in `xhip.dialects.onnx`."""


def _op_class(name: str) -> type[onnx_dialect.OnnxOp]:
    """The onnx op class of that name, its family loaded if it is not yet."""
    return cast("type[onnx_dialect.OnnxOp]", getattr(onnx_dialect, name))


def supported_ops() -> dict[str, type[onnx_dialect.OnnxOp]]:
    """ONNX op type -> dialect op class, for every op the dialect defines
    (every family loaded: the importer itself loads them as nodes need)."""
    return {op_type: _op_class(name) for op_type, name in ONNX_OPS.items()}


def contrib_ops() -> dict[tuple[str, str], type[onnx_dialect.OnnxOp]]:
    """(domain, op type) -> dialect op class, for ONNX Runtime's contrib ops."""
    ops = {key: _op_class(name) for key, name in CONTRIB_ALIASES.items()}
    for domain, by_type in CONTRIB_OPS.items():
        ops.update({(domain, t): _op_class(name) for t, name in by_type.items()})
    return ops


def _contrib_name(node: NodeProto) -> str | None:
    alias = CONTRIB_ALIASES.get((node.domain, node.op_type))
    return alias or CONTRIB_OPS.get(node.domain, {}).get(node.op_type)


def _class_name(node: NodeProto) -> str | None:
    """The name of the onnx op class a node is read as, from the index
    (`xhip.dialects.family_index`): no family is loaded to know it."""
    if node.domain in ONNX_DOMAINS and node.op_type in ONNX_OPS:
        return ONNX_OPS[node.op_type]
    return _contrib_name(node)


_SI64 = IntegerType(64, Signedness.SIGNED)
_I64 = IntegerType(64)
"""The attributes' integer types, built once: xDSL verifies each new one."""


def _stated(name: str, info: ValueInfo) -> ValueInfoProto:
    """`info` as a graph's value_info for onnx's inference: its named dims by
    name, its other run-time dims unnamed."""
    dims: list[str | int | None] = [
        p if is_named(p) else None if d == DYNAMIC_INDEX else d
        for d, p in zip(info.shape or [], info.params, strict=True)
    ]
    return helper.make_tensor_value_info(name, info.elem, dims)


class _Importer(TensorReader):
    """One import: the model, where it came from, and the values built so far."""

    def __init__(
        self,
        model: ModelProto,
        source: str,
        base_dir: str,
        progress: ProgressCallback | None = None,
    ):
        super().__init__(source, base_dir)
        self.progress = progress
        self.model = model
        self.graph = model.graph
        self.classes: dict[str, type[onnx_dialect.OnnxOp]] = {}
        """The op classes read so far, by name: each is looked up once."""
        self.ops: dict[tuple[str, str], type[onnx_dialect.OnnxOp] | None] = {}
        """`op_of` by (domain, op type): a model repeats its few op types."""
        self.contribs: dict[tuple[str, str], bool] = {}
        """`is_contrib` by (domain, op type)."""
        self.results: dict[
            type[onnx_dialect.OnnxOp], tuple[Sequence[tuple[str, object]], bool]
        ] = {}
        """Each op class's result definitions, and whether the last takes any
        number of outputs (`node`)."""
        self.defaults: dict[
            tuple[type[onnx_dialect.OnnxOp], str, str, bool],
            list[tuple[str, AttributeProto]],
        ] = {}
        """Each op's attribute defaults (`_defaults`), read once per op type:
        onnx copies every default out of its schema on each read."""
        self.plain_ops: dict[type[onnx_dialect.OnnxOp], bool] = {}
        """Whether each op class read so far is `_plain`."""
        self.int_attrs: dict[tuple[int, IntegerType], IntegerAttr] = {}
        """The integer attributes made so far, by value and type (`_int`)."""
        self.opset = self._opset()
        self.initializers = {t.name: t for t in self.graph.initializer}
        self.values: dict[str, SSAValue] = {}
        self.infos: dict[str, ValueInfo] = {}
        self.structured: dict[str, Attribute] = {}
        """Sequence- and optional-typed values' types (`sequence_types`)."""
        self.taken: dict[str, str] = {}
        """The branch each If imported as its ops takes (`inline`), by the
        If's first output."""
        self.scoped: dict[tuple[str, ...], dict[str, ValueInfo]] = {}
        """Each subgraph's own types, by its node's outputs and attribute:
        sibling subgraphs may reuse names (two SequenceMap bodies' `in`)."""

    def report(self, step: str, done: int = 0, total: int = 1) -> None:
        if self.progress is not None:
            self.progress(ProgressEvent("import", step, done, total))

    # Checks, in the order a user wants to hear about them.

    def _opset(self) -> int:
        versions = [
            o.version for o in self.model.opset_import if o.domain in ONNX_DOMAINS
        ]
        nodes = self.graph.node
        if not versions and nodes and all(n.domain == ML_DOMAIN for n in nodes):
            return MIN_OPSET  # only ai.onnx.ml ops: no default-domain op to version
        if not versions:
            raise self.fail("the model imports no version of the default ONNX opset")
        opset = versions[0]
        newest = onnx.defs.onnx_opset_version()
        if opset > newest:
            raise self.fail(
                f"opset {opset} is newer than this onnx package knows ({newest})"
            )
        return opset

    def op_of(self, node: NodeProto) -> type[onnx_dialect.OnnxOp] | None:
        """The dialect op a node is, if xhip reads it (its family loaded then)."""
        key = (node.domain, node.op_type)
        try:
            return self.ops[key]
        except KeyError:
            pass
        name = _class_name(node)
        op = None
        if name is not None:
            op = self.classes.get(name)
            if op is None:
                op = self.classes[name] = _op_class(name)
        self.ops[key] = op
        return op

    def is_contrib(self, node: NodeProto) -> bool:
        """Whether the node is a contrib op, without an onnx schema."""
        key = (domain, op_type) = (node.domain, node.op_type)
        contrib = self.contribs.get(key)
        if contrib is None:
            contrib = self.contribs[key] = (
                domain != ML_DOMAIN
                and (domain not in ONNX_DOMAINS or op_type not in ONNX_OPS)
                and _contrib_name(node) is not None
            )
        return contrib

    def check_ops(self) -> None:
        """Fail with every unsupported op type and the nodes that use it."""
        contrib = onnx_dialect.CONTRIB_DOMAIN
        if any(n.domain == contrib for n in self.graph.node):
            versions = [
                o.version for o in self.model.opset_import if o.domain == contrib
            ]
            if versions and versions[0] != CONTRIB_VERSION:
                raise self.fail(
                    f"imports {contrib} version {versions[0]}; xhip reads "
                    f"version {CONTRIB_VERSION}"
                )
        unsupported: dict[str, list[str]] = {}
        for node in self.graph.node:
            if self.op_of(node) is None:
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
            info = value_info(value.type)
            if info is None and self._structured(value, "input"):
                continue
            if info is None:
                raise self.fail(f"input '{value.name}' is not a tensor")
            self._check_elem(info.elem, f"input '{value.name}'")
            if info.shape is None:
                raise self.fail(
                    f"input '{value.name}' has no shape; give it one (dims may be "
                    f"names such as 'batch')"
                )
        for value in self.graph.output:
            info = value_info(value.type)
            if info is None and self._structured(value, "output"):
                continue
            if info is None and value.type.WhichOneof("value") is not None:
                raise self.fail(f"output '{value.name}' is not a tensor")
            if info is not None and info.elem:
                self._check_elem(info.elem, f"output '{value.name}'")

    def _structured(self, value: ValueInfoProto, what: str) -> bool:
        """Whether `value` is a sequence or optional of a type xhip reads."""
        if value.type.WhichOneof("value") not in ("sequence_type", "optional_type"):
            return False
        try:
            xdsl_type(value.type)
        except UnsupportedType as e:
            raise self.fail(f"{what} '{value.name}' {e}") from None
        return True

    # Types.

    def infer(self) -> None:
        """Every value's type. onnx infers no contrib op's results (and its
        checker rejects one in the default domain): during inference such a
        node is moved to `com.microsoft`, and the results of each contrib
        node whose input is known are stated, until nothing new is learned."""
        model = self.model
        moved = [
            (n, n.domain)
            for n in self.graph.node
            if n.domain in ONNX_DOMAINS and self.is_contrib(n)
        ]
        contrib = onnx_dialect.CONTRIB_DOMAIN
        opsets, stated = len(model.opset_import), len(self.graph.value_info)
        try:
            for node, _ in moved:
                node.domain = contrib
            if moved and all(o.domain != contrib for o in model.opset_import):
                model.opset_import.append(helper.make_opsetid(contrib, CONTRIB_VERSION))
            while True:
                filled: set[str] = set()
                self.infos = infer_value_infos(model, self.loaded, filled)
                new = self._contrib_infos() + sequence_hints(self.graph, self.infos)
                new += ml_hints(self.graph, self.infos)
                if not self._all_ranked():
                    new += control_flow_hints(model, self.infos, self.loaded)
                ours = self._rule_infos(filled, {v.name for v in new})
                new += ours
                self.graph.value_info.extend(new)
                if not new or (self._all_ranked() and not ours):
                    break
            self.subgraph_infos()  # told what the rounds stated
        except InferenceFailure as e:
            raise self.fail(str(e)) from None
        finally:
            for node, domain in moved:
                node.domain = domain
            del model.opset_import[opsets:]
            del self.graph.value_info[stated:]

    def _all_ranked(self) -> bool:
        """Whether every node's result is ranked already: stating contrib
        results then teaches another round of inference nothing it needs."""
        infos = self.infos
        return all(
            (info := infos.get(name)) is not None and info.shape is not None
            for node in self.graph.node
            for name in node.output
            if name
        )

    def _contrib_infos(self) -> list[ValueInfoProto]:
        """The types of the contrib results not stated to onnx yet that their
        op's rule (`contrib_rules`) can give from what is known now. A result
        our own rules already rank is stated too: onnx's inference never sees
        those, so the ops after it would stay untyped."""
        new: list[ValueInfoProto] = []
        contribs = [
            (node, op)
            for node in self.graph.node
            if (op := self.op_of(node)) is not None and self.is_contrib(node)
        ]
        if not contribs:
            return new
        stated = {
            v.name
            for v in self.graph.value_info
            if (info := value_info(v.type)) is not None and info.shape is not None
        }
        for node, op in contribs:
            ins = [self.infos.get(name) if name else None for name in node.input]
            results = [name for name, _ in op.get_irdl_definition().results]
            infos = result_infos(node, ins, results)
            for info, name in zip(infos, node.output, strict=False):
                if not name or info is None or info.shape is None or not info.elem:
                    continue
                if name in stated:
                    continue
                new.append(_stated(name, info))
        return new

    def _rule_infos(self, filled: set[str], stating: set[str]) -> list[ValueInfoProto]:
        """The types our rules gave where onnx's inference gave none (the
        result of a function op it could not expand, GroupNormalization-21's
        on a run-time dim) or a `?` they proved (Compress's kept length),
        stated so the next round types the ops after them, which have no rule
        of ours (QuantizeLinear, TensorScatter) or none that refines
        (RotaryEmbedding). Each is stated once, so the rounds end."""
        new: list[ValueInfoProto] = []
        if not filled:  # the usual round: onnx typed everything itself
            return new
        stated = {v.name for v in self.graph.value_info}
        for node in self.graph.node:
            for name in node.output:
                info = self.infos.get(name)
                if name not in filled or name in stating or info is None:
                    continue
                if name in stated:
                    continue
                if info.shape is not None and info.elem:
                    new.append(_stated(name, info))
        return new

    def tensor_type(self, name: str, what: str) -> TensorType[Attribute]:
        info = self.infos.get(name)
        if info is None or info.shape is None:
            raise self.fail(f"{what}: cannot infer the shape of '{name}'")
        if not info.elem:
            raise self.fail(f"{what}: cannot infer the element type of '{name}'")
        self._check_elem(info.elem, f"{what}: '{name}'")
        return self.shared_tensor_type(info.elem, info.shape)

    def value_type(self, name: str, what: str) -> Attribute:
        """A value's type: a sequence or optional one, else a tensor's."""
        structured = self.structured.get(name)
        return structured if structured is not None else self.tensor_type(name, what)

    def arg_attrs(self, name: str) -> DictionaryAttr:
        attrs: dict[str, Attribute] = {}
        info = self.infos.get(name)
        if info is not None and (named := info.named_dims()):
            attrs[onnx_dialect.DIM_PARAMS] = StringAttr(
                onnx_dialect.format_dim_params(named)
            )
        attrs["onnx.name"] = StringAttr(name)
        return DictionaryAttr(attrs)

    # Ops.

    def properties(
        self, node: NodeProto, op: type[onnx_dialect.OnnxOp]
    ) -> dict[str, Attribute]:
        """The node's attributes, and the spec's defaults for those it leaves out."""
        given = {a.name: a for a in node.attribute}
        definition = op.get_irdl_definition()
        declared = definition.properties
        contrib = self.is_contrib(node)
        if contrib:
            for name in sorted(given.keys() - op.DEFAULTS.keys()):
                raise self.fail(
                    f"{self.label(node)}: attribute '{name}' is not supported"
                )
        key = (op, node.domain, node.op_type, contrib)
        defaults = self.defaults.get(key)
        if defaults is None:
            defaults = self.defaults[key] = self._defaults(node, op, contrib)
        props: dict[str, Attribute] = {}
        regions = {name for name, _ in definition.regions}
        for name, default in defaults:
            attr = given.get(name)
            if attr is None and default.name:
                attr = default
            if attr is None or name in regions:  # a subgraph: `branches`
                continue
            if name not in declared:
                raise self.fail(
                    f"{self.label(node)}: attribute '{name}' is not supported"
                )
            props[name] = self._property(node, op, attr)
        return props

    def _int(self, value: int, type_: IntegerType) -> IntegerAttr:
        """`IntegerAttr(value, type_)`, one per distinct pair (xDSL checks each
        new one's range; a model repeats its axes and perms)."""
        key = (value, type_)
        found = self.int_attrs.get(key)
        if found is None:
            found = self.int_attrs[key] = IntegerAttr(value, type_)
        return found

    def _defaults(
        self, node: NodeProto, op: type[onnx_dialect.OnnxOp], contrib: bool
    ) -> list[tuple[str, AttributeProto]]:
        """The attributes' defaults of the node's op, sorted by name: a contrib
        op's `DEFAULTS`, else its schema's at the model's opset."""
        if contrib:
            defaults = {
                name: helper.make_attribute(name, value)
                for name, value in op.DEFAULTS.items()
            }
        else:
            schema = (  # ai.onnx.ml: its newest schema, whose defaults all share
                onnx.defs.get_schema(node.op_type, domain=node.domain)
                if node.domain == ML_DOMAIN
                else onnx.defs.get_schema(node.op_type, self.opset, "")
            )
            defaults = {
                name: spec.default_value for name, spec in schema.attributes.items()
            }
        return sorted(defaults.items())

    def _property(
        self, node: NodeProto, op: type[onnx_dialect.OnnxOp], attr: AttributeProto
    ) -> Attribute:
        if op is onnx_dialect.CastOp and attr.name == "to":
            self._check_elem(attr.i, f"{self.label(node)}: 'to'")
            return ELEMENT_TYPES[attr.i]
        if attr.type == AttributeProto.INT:
            return self._int(attr.i, _SI64)
        if attr.type == AttributeProto.FLOAT:
            return FloatAttr(attr.f, f32)
        if attr.type == AttributeProto.INTS:
            return ArrayAttr([self._int(v, _I64) for v in attr.ints])
        if attr.type == AttributeProto.STRING:
            return StringAttr(attr.s.decode())
        if attr.type == AttributeProto.FLOATS:  # the RNNs' activation_alpha
            return ArrayAttr([FloatAttr(v, f32) for v in attr.floats])
        if attr.type == AttributeProto.STRINGS:  # the RNNs' activations
            return ArrayAttr([StringAttr(v.decode()) for v in attr.strings])
        if attr.type == AttributeProto.TENSOR:
            return self.dense(attr.t, f"{self.label(node)}: attribute '{attr.name}'")
        if attr.type == AttributeProto.TYPE_PROTO:  # Optional's `type`
            try:
                typ = xdsl_type(attr.tp)
            except UnsupportedType as e:
                raise self.fail(f"{self.label(node)}: '{attr.name}' {e}") from None
            if typ is not None:
                return typ
        raise self.fail(
            f"{self.label(node)}: attribute '{attr.name}' of kind "
            f"{AttributeProto.AttributeType.Name(attr.type)} is not supported"
        )

    def operands(
        self, node: NodeProto, op: type[onnx_dialect.OnnxOp]
    ) -> list[SSAValue | list[SSAValue]]:
        """The node's inputs, grouped the way the op's operand definitions say."""
        inputs = list(node.input)
        if (
            self._plain(op)
            and len(inputs) == len(op.get_irdl_definition().operands)
            and all(inputs)
        ):  # one value per definition, as the loop below gives them
            try:
                return [self.values[name] for name in inputs]
            except KeyError:
                pass  # the loop below says which
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
        op = self.op_of(node)
        assert op is not None  # check_ops has failed on every other node
        found = self.results.get(op)
        if found is None:
            results = op.get_irdl_definition().results
            found = self.results[op] = (
                results,
                any(
                    isinstance(d, VarResultDef) and not isinstance(d, OptResultDef)
                    for _, d in results
                ),
            )  # Split: any number of outputs
        definitions, variadic = found
        outputs = node.output
        most = len(outputs) if variadic else len(definitions)
        if not 1 <= len(outputs) <= most or not any(outputs):
            raise self.fail(
                f"{self.label(node)}: has {len(outputs)} outputs, xhip supports "
                f"{len(definitions)}"
            )
        if self.taken and node.op_type == "If" and outputs[0] in self.taken:
            self.inline(node, self.taken[outputs[0]], block)
            return
        if self._plain(op) and len(outputs) == len(definitions) and all(outputs):
            names = list(outputs)  # one type per definition, as below
            result_types = [self._result_type(node, name) for name in names]
        else:
            result_types, names = self.result_types(node, definitions)
        attributes: dict[str, Attribute] = {
            "onnx_node_name": StringAttr(node.name or outputs[0] or max(outputs))
        }
        if op is onnx_dialect.ConstantOp:
            value = self.constant_node_value(node)
            built = op.build(
                result_types=[value.type], attributes={"value": value, **attributes}
            )
        else:
            operands = self.operands(node, op)
            properties = self.properties(node, op)
            regions = self.branches(node, op)
            if self._plain(op):
                # no `typing.cast`: a real call per node on this hot path
                built = op.create(
                    operands=operands,  # pyright: ignore[reportArgumentType]
                    result_types=result_types,  # pyright: ignore[reportArgumentType]
                    properties=properties,
                    attributes=attributes,
                )
            else:
                built = op.build(
                    operands=operands,
                    result_types=result_types,
                    properties=properties,
                    attributes=attributes,
                    regions=regions,
                )
        block.add_op(built)
        for name, result in zip(names, built.results, strict=True):
            self.values[name] = result

    def _plain(self, op: type[onnx_dialect.OnnxOp]) -> bool:
        """Whether `op`'s builder only hands its arguments on: one operand
        and one result per definition, no regions, successors or options
        (segment sizes). `create` then makes the same op (`operands` and
        `result_types` checked the arity, every property and attribute is
        set) without the builder's grouping of each argument."""
        plain = self.plain_ops.get(op)
        if plain is None:
            d = op.get_irdl_definition()
            plain = self.plain_ops[op] = (
                not d.regions
                and not d.successors
                and not d.options
                and not any(
                    isinstance(x, VariadicDef | OptionalDef)
                    for _, x in [*d.operands, *d.results]
                )
            )
        return plain

    def inline(self, node: NodeProto, name: str, block: Block) -> None:
        """An If whose condition is known before the run, and whose other
        branch nothing can type (its ranks follow from data it never sees),
        as the ops of the branch `name` it takes."""
        branch = next(a.g for a in node.attribute if a.name == name)
        self.infos.update(self.scoped.get((*node.output, name), {}))
        self.graph_ops(node, name, branch, block)
        for result, out in zip(node.output, branch.output, strict=False):
            if result:
                self.values[result] = self.value(node, out.name)

    def graph_ops(
        self, node: NodeProto, name: str, graph: onnx.GraphProto, block: Block
    ) -> None:
        """The initializers and nodes of `node`'s subgraph `name`, into `block`."""
        for tensor in graph.initializer:
            value = self.dense(tensor, f"initializer '{tensor.name}'")
            const = onnx_dialect.ConstantOp.build(
                result_types=[value.type], attributes={"value": value}
            )
            block.add_op(const)
            self.values[tensor.name] = const.results[0]
        for inner in graph.node:
            if self.op_of(inner) is None:
                raise self.fail(
                    f"{self.label(inner)} in '{name}' of {self.label(node)}: "
                    f"unsupported ONNX op at opset {self.opset}"
                )
            self.node(inner, block)

    def branches(self, node: NodeProto, op: type[onnx_dialect.OnnxOp]) -> list[Region]:
        """The op's regions (If's branches, Scan's and Loop's bodies) from the
        node's subgraphs: each a block whose arguments are the subgraph's
        inputs, of its nodes, ending in `onnx.Yield` of its outputs; values of
        the enclosing graphs are used directly (outer scope)."""
        definitions = op.get_irdl_definition().regions
        if not definitions:  # most ops: no need to read the node's attributes
            return []
        graphs = {a.name: a.g for a in node.attribute if a.type == AttributeProto.GRAPH}
        regions: list[Region] = []
        for name, _ in definitions:
            if name not in graphs:
                raise self.fail(f"{self.label(node)}: attribute '{name}' is missing")
            graph = graphs[name]
            self.infos.update(self.scoped.get((*node.output, name), {}))
            inputs = [i.name for i in graph.input]
            body = Block(
                arg_types=[self.value_type(i, self.label(node)) for i in inputs]
            )
            self.values.update(zip(inputs, body.args, strict=True))
            self.graph_ops(node, name, graph, body)
            body.add_op(
                onnx_dialect.YieldOp([self.value(node, o.name) for o in graph.output])
            )
            regions.append(Region(body))
        return regions

    def subgraph_infos(self) -> None:
        """The types of the values inside subgraphs (If's branches, loop
        bodies), which onnx infers into each subgraph, for a model that has
        any."""
        if not any(_subgraphs(n) for n in self.graph.node):
            return
        problem = contradiction(self.model, self.infos, self.loaded)
        if problem is not None:
            raise self.fail(problem)
        try:
            inferred = onnx.shape_inference.infer_shapes(self.model)
        except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
            return  # the outputs' declared types still serve
        pending = list(inferred.graph.node)
        while pending:
            node = pending.pop()
            for a in node.attribute:
                if a.type != AttributeProto.GRAPH:
                    continue
                own = self.scoped.setdefault((*node.output, a.name), {})
                for value in [*a.g.input, *a.g.value_info, *a.g.output]:
                    info = value_info(value.type)
                    if info is not None and info.shape is not None:
                        self.infos.setdefault(value.name, info)
                        own[value.name] = info
                pending += a.g.node
        self.carried_infos(inferred.graph)
        if any(
            not self._typed(o) for n in self.graph.node for o in inner_outputs(n)
        ):  # onnx left a value inside open: our rules, per subgraph
            scope = Scope(self.model, self.graph, self.infos, self.loaded)
            for name, info in list(scope.walk()):
                if not self._typed(name) and info.shape is not None:
                    self.infos[name] = info
            self.taken = scope.taken_branches(self._typed)

    def _typed(self, name: str) -> bool:
        info = self.infos.get(name)
        return info is not None and info.shape is not None

    def carried_infos(self, graph: onnx.GraphProto) -> None:
        """A Loop's or Scan's final loop-carried values typed as their initial
        ones where onnx leaves them rank-less (it does for a Loop's)."""
        for node in graph.node:
            for sub in _subgraphs(node):
                self.carried_infos(sub)
            if node.op_type not in ("Loop", "Scan") or node.domain not in ONNX_DOMAINS:
                continue
            first = 2 if node.op_type == "Loop" else 0
            scans = next(
                (a.i for a in node.attribute if a.name == "num_scan_inputs"), 0
            )
            initials = node.input[first : len(node.input) - scans]
            for name, result in zip(initials, node.output):
                initial, final = self.infos.get(name), self.infos.get(result)
                if (
                    initial is not None
                    and initial.shape is not None
                    and (final is None or final.shape is None)
                ):
                    self.infos[result] = initial

    def result_types(
        self, node: NodeProto, definitions: Sequence[tuple[str, object]]
    ) -> tuple[list[Attribute | list[Attribute]], list[str]]:
        """The node's result types, grouped as the op's result definitions say
        (an optional result is absent where its output name is empty), and the
        names of the outputs present, in order."""
        grouped: list[Attribute | list[Attribute]] = []
        names: list[str] = []
        outputs = list(node.output)
        for i, (_, definition) in enumerate(definitions):
            name = outputs[i] if i < len(outputs) else ""
            if isinstance(definition, VarResultDef) and not isinstance(
                definition, OptResultDef
            ):  # the last definition takes the remaining outputs
                rest = [n for n in outputs[i:] if n]
                if len(rest) != len(outputs) - i:
                    raise self.fail(f"{self.label(node)}: an output is missing")
                grouped.append([self._result_type(node, n) for n in rest])
                names += rest
                break
            if isinstance(definition, OptResultDef):
                grouped.append([self._result_type(node, name)] if name else [])
            elif name:
                grouped.append(self._result_type(node, name))
            else:
                raise self.fail(f"{self.label(node)}: output {i} is missing")
            if name:
                names.append(name)
        return grouped, names

    def _result_type(self, node: NodeProto, name: str) -> Attribute:
        """`value_type(name, label(node))`, the label made only for a message."""
        structured = self.structured.get(name)
        if structured is not None:
            return structured
        info = self.infos.get(name)
        if (
            info is not None
            and info.shape is not None
            and info.elem
            and info.elem in ELEMENT_TYPES
        ):
            return self.shared_tensor_type(info.elem, info.shape)
        return self.value_type(name, self.label(node))

    # The module.

    def build(self) -> ModuleOp:
        if (problem := graph_problem(self.graph)) is not None:
            raise self.fail(problem)
        self.check_ops()
        self.check_signature()
        self.report("inferring shapes")
        self.infer()
        if uses_structured(self.model):
            self.structured = structured_types(self.model, self.infos)
        g = self.graph
        inputs = [v.name for v in g.input if v.name not in self.initializers]
        outputs = [v.name for v in g.output]

        arg_types = [self.value_type(n, f"input '{n}'") for n in inputs]
        block = Block(arg_types=arg_types)
        for i, (name, arg) in enumerate(zip(inputs, block.args, strict=True)):
            arg.name_hint = f"arg{i}"
            self.values[name] = arg

        used = _used(g) | set(outputs)
        self.report("reading weights")
        for tensor in g.initializer:
            if tensor.name in used and tensor.name not in self.values:
                value = self.dense(tensor, f"initializer '{tensor.name}'")
                const = onnx_dialect.ConstantOp.build(
                    result_types=[value.type], attributes={"value": value}
                )
                block.add_op(const)
                self.values[tensor.name] = const.results[0]

        for i, node in enumerate(g.node):
            self.report(node.op_type, i, len(g.node))
            self.node(node, block)

        results: list[SSAValue] = []
        for name in outputs:
            if name not in self.values:
                raise self.fail(f"output '{name}' is not computed by any node")
            results.append(self.values[name])
        result_types = [self.value_type(n, f"output '{n}'") for n in outputs]
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


def _subgraphs(node: NodeProto) -> list[onnx.GraphProto]:
    return [a.g for a in node.attribute if a.type == AttributeProto.GRAPH]


def _used(graph: onnx.GraphProto) -> set[str]:
    """The names the graph's nodes read, their subgraphs' nodes included."""
    used = {n for node in graph.node for n in node.input}
    for node in graph.node:
        for sub in _subgraphs(node):
            used |= _used(sub) | {o.name for o in sub.output}
    return used


def symbol_postfix(name: str) -> str:
    """The graph's name as a symbol suffix, as onnx-mlir writes it."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name) or "model"


def import_model(
    model: str | os.PathLike[str] | ModelProto,
    *,
    source: str | None = None,
    progress: ProgressCallback | None = None,
    base_dir: str = "",
) -> ModuleOp:
    """The `onnx`-dialect module of a model file or `ModelProto`.

    `source` names the model in messages (default: its path, or its graph name);
    `progress` hears each step (reading, shape inference, weights, each node).
    A `ModelProto`'s external data is mapped from `base_dir` (default: the
    current directory); a file's, from the file's directory.
    """
    if isinstance(model, ModelProto):
        source = source or model.graph.name or "<model>"
        if not model.HasField("graph"):
            raise OnnxImportError(f"{source}: the model has no graph")
    else:
        path = os.fspath(model)
        base_dir = os.path.dirname(path)
        source = source or path
        if progress is not None:
            progress(ProgressEvent("import", f"reading {source}", 0, 1))
        model = load_model(model)
    return _Importer(upgrade_opset(model, source), source, base_dir, progress).build()
