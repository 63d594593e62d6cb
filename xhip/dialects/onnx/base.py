"""What every onnx op shares: `OnnxOp` (the spec's attribute defaults), the
operand and result shapes of the unary and binary ops, `onnx.EntryPoint`
(which `convert-onnx-to-hip` itself removes), and the `onnx.dim_params`
attribute that names dynamic dims."""

from __future__ import annotations

import re
from abc import ABC
from collections.abc import Mapping
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect
from xdsl.utils.hints import isa

AnyTensor = base(TensorType)


CONTRIB_DOMAIN = "com.microsoft"
"""ONNX Runtime's contrib ops' domain (`contrib.ContribOp`)."""

ML_DOMAIN = "ai.onnx.ml"
"""The `ai.onnx.ml` ops' domain (`ml.MlOp`)."""

DIM_PARAMS = "onnx.dim_params"
"""The argument and result attribute that names dynamic dims: `"0:batch,1:seq"`."""


def format_dim_params(names: Mapping[int, str]) -> str:
    """`{0: "batch", 1: "seq"}` as onnx-mlir writes it: `"0:batch,1:seq"`."""
    return ",".join(f"{dim}:{name}" for dim, name in sorted(names.items()))


def parse_dim_params(text: str) -> dict[int, str]:
    """`"0:batch,1:seq"` -> `{0: "batch", 1: "seq"}`. A comma splits only
    before the next `<dim>:`: the dynamo exporter writes names such as
    `20*Min((s0//4), (s0//80))`."""
    names: dict[int, str] = {}
    for entry in filter(None, re.split(r",(?=\d+:)", text)):
        dim, _, name = entry.partition(":")
        names[int(dim)] = name.strip()
    return names


class OnnxOp(IRDLOperation, ABC):
    """An ONNX node: `DEFAULTS` are the spec's attribute defaults."""

    DEFAULTS: ClassVar[dict[str, object]] = {}
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ()
    """Operands that decide structure (a result's shape, a kernel's axes, the
    branch taken) and that `convert-onnx-to-hip` needs as numbers: where one is
    data, `xhip.compile` specializes on its value behind a `hip.guard`
    (`docs/shape-values.md`, "Guards")."""
    READS_BACK_INTEGERS: ClassVar[bool] = False
    """Whether the conversion reads integer `STRUCTURE_OPERANDS` back itself
    (`hip.readback`, a size): then only float ones are specialized on."""

    def get_int(self, name: str) -> int:
        attr = self.properties.get(name)
        if isinstance(attr, IntegerAttr):
            return attr.value.data
        value = self.DEFAULTS[name]
        assert isinstance(value, int)
        return value

    def get_float(self, name: str) -> float:
        attr = self.properties.get(name)
        if isinstance(attr, FloatAttr):
            return attr.value.data
        value = self.DEFAULTS[name]
        assert isinstance(value, float)
        return value

    def get_ints(self, name: str) -> list[int] | None:
        attr = self.properties.get(name)
        if isa(attr, ArrayAttr[Attribute]):
            return [a.value.data for a in attr.data if isinstance(a, IntegerAttr)]
        return None

    @property
    def node_name(self) -> str:
        attr = self.attributes.get("onnx_node_name")
        return attr.data if isinstance(attr, StringAttr) else "<unnamed>"


class Unary(OnnxOp, ABC):
    """`X` in, `Y` out: the unary ops (the elementwise ones, the global pools)."""

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


class Binary(OnnxOp, ABC):
    """`A` and `B` in, `C` out: the binary elementwise ops."""

    A = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    C = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class EntryPointOp(OnnxOp):
    """Names the function an ONNX model runs."""

    name = "onnx.EntryPoint"

    func = prop_def(SymbolRefAttr)


OPS: tuple[type[Operation], ...] = (
    EntryPointOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "CONTRIB_DOMAIN",
    "ML_DOMAIN",
    "AnyTensor",
    "DIM_PARAMS",
    "EntryPointOp",
    "OnnxOp",
    "format_dim_params",
    "parse_dim_params",
]
