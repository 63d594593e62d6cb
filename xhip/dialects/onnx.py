"""The `onnx` dialect, as onnx-mlir prints it (generic syntax).

Op-specific attributes are properties with the ONNX operator spec's names and
types (`axis = -1 : si64`, `perm = [0, 2, 1]`); `onnx_node_name` is a
discardable attribute; `onnx.Constant` keeps its `value` as an attribute, as
onnx-mlir prints it. Defaults are filled in by the importer, so an absent
property means "the spec's default" and `default_of` says what that is.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, Dialect, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xhip.dialects.constraints import AnyTensorTypeConstr

AnyTensor = base(TensorType)

DIM_PARAMS = "onnx.dim_params"
"""The argument and result attribute that names dynamic dims: `"0:batch,1:seq"`."""


def format_dim_params(names: Mapping[int, str]) -> str:
    """`{0: "batch", 1: "seq"}` as onnx-mlir writes it: `"0:batch,1:seq"`."""
    return ",".join(f"{dim}:{name}" for dim, name in sorted(names.items()))


def parse_dim_params(text: str) -> dict[int, str]:
    """`"0:batch,1:seq"` -> `{0: "batch", 1: "seq"}`."""
    names: dict[int, str] = {}
    for entry in filter(None, text.split(",")):
        dim, _, name = entry.partition(":")
        names[int(dim)] = name.strip()
    return names


class OnnxOp(IRDLOperation, ABC):
    """An ONNX node: `DEFAULTS` are the spec's attribute defaults."""

    DEFAULTS: ClassVar[dict[str, object]] = {}

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


class _Unary(OnnxOp, ABC):
    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


class _Binary(OnnxOp, ABC):
    A = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    C = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ConstantOp(OnnxOp):
    name = "onnx.Constant"

    value = opt_attr_def(Attribute)
    output = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class EntryPointOp(OnnxOp):
    """Names the function an ONNX model runs."""

    name = "onnx.EntryPoint"

    func = prop_def(SymbolRefAttr)


@irdl_op_definition
class MatMulOp(OnnxOp):
    name = "onnx.MatMul"

    A = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class AddOp(_Binary):
    name = "onnx.Add"


@irdl_op_definition
class SubOp(_Binary):
    name = "onnx.Sub"


@irdl_op_definition
class MulOp(_Binary):
    name = "onnx.Mul"


@irdl_op_definition
class DivOp(_Binary):
    name = "onnx.Div"


@irdl_op_definition
class PowOp(OnnxOp):
    name = "onnx.Pow"

    X = operand_def(AnyTensor)
    Y = operand_def(AnyTensor)
    Z = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ReluOp(_Unary):
    name = "onnx.Relu"


@irdl_op_definition
class SigmoidOp(_Unary):
    name = "onnx.Sigmoid"


@irdl_op_definition
class TanhOp(_Unary):
    name = "onnx.Tanh"


@irdl_op_definition
class ExpOp(_Unary):
    name = "onnx.Exp"


@irdl_op_definition
class SqrtOp(_Unary):
    name = "onnx.Sqrt"


@irdl_op_definition
class NegOp(_Unary):
    name = "onnx.Neg"


@irdl_op_definition
class AbsOp(_Unary):
    name = "onnx.Abs"


@irdl_op_definition
class IdentityOp(OnnxOp):
    name = "onnx.Identity"

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SoftmaxOp(OnnxOp):
    name = "onnx.Softmax"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": -1}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class TransposeOp(OnnxOp):
    """`perm` absent means "reverse the dims", as the spec says."""

    name = "onnx.Transpose"

    data = operand_def(AnyTensor)
    transposed = result_def(AnyTensor)
    perm = opt_prop_def(ArrayAttr[IntegerAttr])
    traits = traits_def(NoMemoryEffect())

    def permutation(self) -> list[int]:
        perm = self.get_ints("perm")
        if perm is not None:
            return perm
        assert AnyTensorTypeConstr.verifies(self.data.type)
        return list(reversed(range(self.data.type.get_num_dims())))

    def verify_(self) -> None:
        perm = self.get_ints("perm")
        if perm is None or not AnyTensorTypeConstr.verifies(self.data.type):
            return
        if sorted(perm) != list(range(self.data.type.get_num_dims())):
            raise VerifyException(
                f"'onnx.Transpose' perm {perm} is not a permutation of the "
                f"{self.data.type.get_num_dims()} dims of its input"
            )


@irdl_op_definition
class GemmOp(OnnxOp):
    name = "onnx.Gemm"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "alpha": 1.0,
        "beta": 1.0,
        "transA": 0,
        "transB": 0,
    }

    A = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    C = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    alpha = opt_prop_def(FloatAttr[AnyFloat])
    beta = opt_prop_def(FloatAttr[AnyFloat])
    transA = opt_prop_def(IntegerAttr)
    transB = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ReshapeOp(OnnxOp):
    name = "onnx.Reshape"
    DEFAULTS: ClassVar[dict[str, object]] = {"allowzero": 0}

    data = operand_def(AnyTensor)
    shape = operand_def(AnyTensor)
    reshaped = result_def(AnyTensor)
    allowzero = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class FlattenOp(OnnxOp):
    name = "onnx.Flatten"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": 1}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SqueezeOp(OnnxOp):
    """Opset 13+: `axes` is an optional input tensor."""

    name = "onnx.Squeeze"

    data = operand_def(AnyTensor)
    axes = opt_operand_def(AnyTensor)
    squeezed = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class UnsqueezeOp(OnnxOp):
    """Opset 13+: `axes` is an input tensor."""

    name = "onnx.Unsqueeze"

    data = operand_def(AnyTensor)
    axes = operand_def(AnyTensor)
    expanded = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ConcatOp(OnnxOp):
    name = "onnx.Concat"

    inputs = var_operand_def(AnyTensor)
    concat_result = result_def(AnyTensor)
    axis = prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class CastOp(OnnxOp):
    name = "onnx.Cast"
    DEFAULTS: ClassVar[dict[str, object]] = {"saturate": 1, "round_mode": "up"}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    to = prop_def(base(TypeAttribute))
    saturate = opt_prop_def(IntegerAttr)
    round_mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


ONNX = Dialect(
    "onnx",
    [
        value
        for value in list(globals().values())
        if isinstance(value, type)
        and issubclass(value, OnnxOp)
        and value.__module__ == __name__
        and "name" in vars(value)
    ],
)
"""Every op declared above: the importer accepts exactly these."""
