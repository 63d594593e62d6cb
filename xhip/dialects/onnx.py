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
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
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


# The elementwise family (xhip/transforms/onnx_to_hip/compute.py's ELEMENTWISE
# and the patterns after it).


class _Alpha(_Unary, ABC):
    """A unary activation with a float `alpha`."""

    alpha = opt_prop_def(FloatAttr[AnyFloat])


@irdl_op_definition
class GeluOp(_Unary):
    name = "onnx.Gelu"
    DEFAULTS: ClassVar[dict[str, object]] = {"approximate": "none"}

    approximate = opt_prop_def(StringAttr)


@irdl_op_definition
class ErfOp(_Unary):
    name = "onnx.Erf"


@irdl_op_definition
class SoftplusOp(_Unary):
    name = "onnx.Softplus"


@irdl_op_definition
class SoftsignOp(_Unary):
    name = "onnx.Softsign"


@irdl_op_definition
class EluOp(_Alpha):
    name = "onnx.Elu"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 1.0}


@irdl_op_definition
class SeluOp(_Alpha):
    name = "onnx.Selu"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "alpha": 1.67326319217681884765625,
        "gamma": 1.05070102214813232421875,
    }

    gamma = opt_prop_def(FloatAttr[AnyFloat])


@irdl_op_definition
class CeluOp(_Alpha):
    name = "onnx.Celu"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 1.0}


@irdl_op_definition
class MishOp(_Unary):
    name = "onnx.Mish"


@irdl_op_definition
class LeakyReluOp(_Alpha):
    name = "onnx.LeakyRelu"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 0.01}


@irdl_op_definition
class HardSigmoidOp(_Alpha):
    name = "onnx.HardSigmoid"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 0.2, "beta": 0.5}

    beta = opt_prop_def(FloatAttr[AnyFloat])


@irdl_op_definition
class HardSwishOp(_Unary):
    name = "onnx.HardSwish"


@irdl_op_definition
class ThresholdedReluOp(_Alpha):
    name = "onnx.ThresholdedRelu"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 1.0}


@irdl_op_definition
class PReluOp(OnnxOp):
    name = "onnx.PRelu"

    X = operand_def(AnyTensor)
    slope = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class LogOp(_Unary):
    name = "onnx.Log"


@irdl_op_definition
class ReciprocalOp(_Unary):
    name = "onnx.Reciprocal"


@irdl_op_definition
class FloorOp(_Unary):
    name = "onnx.Floor"


@irdl_op_definition
class CeilOp(_Unary):
    name = "onnx.Ceil"


@irdl_op_definition
class RoundOp(_Unary):
    name = "onnx.Round"


@irdl_op_definition
class SinOp(_Unary):
    name = "onnx.Sin"


@irdl_op_definition
class CosOp(_Unary):
    name = "onnx.Cos"


@irdl_op_definition
class SignOp(_Unary):
    name = "onnx.Sign"


class _Variadic(OnnxOp, ABC):
    """1 to N inputs, broadcast together."""

    data_0 = var_operand_def(AnyTensor)
    result = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class MaxOp(_Variadic):
    name = "onnx.Max"


@irdl_op_definition
class MinOp(_Variadic):
    name = "onnx.Min"


@irdl_op_definition
class SumOp(_Variadic):
    name = "onnx.Sum"


@irdl_op_definition
class MeanOp(_Variadic):
    name = "onnx.Mean"


@irdl_op_definition
class ClipOp(OnnxOp):
    """Opset 13: `min` and `max` are optional scalar inputs."""

    name = "onnx.Clip"

    input = operand_def(AnyTensor)
    min = opt_operand_def(AnyTensor)
    max = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class ModOp(_Binary):
    name = "onnx.Mod"
    DEFAULTS: ClassVar[dict[str, object]] = {"fmod": 0}

    fmod = opt_prop_def(IntegerAttr)


@irdl_op_definition
class EqualOp(_Binary):
    name = "onnx.Equal"


@irdl_op_definition
class LessOp(_Binary):
    name = "onnx.Less"


@irdl_op_definition
class LessOrEqualOp(_Binary):
    name = "onnx.LessOrEqual"


@irdl_op_definition
class GreaterOp(_Binary):
    name = "onnx.Greater"


@irdl_op_definition
class GreaterOrEqualOp(_Binary):
    name = "onnx.GreaterOrEqual"


@irdl_op_definition
class NotOp(_Unary):
    name = "onnx.Not"


@irdl_op_definition
class AndOp(_Binary):
    name = "onnx.And"


@irdl_op_definition
class OrOp(_Binary):
    name = "onnx.Or"


@irdl_op_definition
class XorOp(_Binary):
    name = "onnx.Xor"


@irdl_op_definition
class IsNaNOp(_Unary):
    name = "onnx.IsNaN"


@irdl_op_definition
class IsInfOp(_Unary):
    name = "onnx.IsInf"
    DEFAULTS: ClassVar[dict[str, object]] = {"detect_negative": 1, "detect_positive": 1}

    detect_negative = opt_prop_def(IntegerAttr)
    detect_positive = opt_prop_def(IntegerAttr)


@irdl_op_definition
class CastLikeOp(OnnxOp):
    """Cast to the element type of `target_type` (the function bodies of the
    activations use it)."""

    name = "onnx.CastLike"
    DEFAULTS: ClassVar[dict[str, object]] = {"saturate": 1, "round_mode": "up"}

    input = operand_def(AnyTensor)
    target_type = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    saturate = opt_prop_def(IntegerAttr)
    round_mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class WhereOp(OnnxOp):
    name = "onnx.Where"

    condition = operand_def(AnyTensor)
    X = operand_def(AnyTensor)
    Y = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


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


# Reductions, normalizations, the softmax family and Dropout (reduce.py
# converts them).


class ReduceBase(OnnxOp, ABC):
    """`ReduceX`: `axes` is an attribute up to opset 17 (ReduceSum: 12), an
    optional input from 18 (ReduceSum: 13); the operand is `axes_input`, since
    a field cannot share the attribute's name."""

    DEFAULTS: ClassVar[dict[str, object]] = {"keepdims": 1, "noop_with_empty_axes": 0}

    data = operand_def(AnyTensor)
    axes_input = opt_operand_def(AnyTensor)
    reduced = result_def(AnyTensor)
    axes = opt_prop_def(ArrayAttr[IntegerAttr])
    keepdims = opt_prop_def(IntegerAttr)
    noop_with_empty_axes = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ReduceMeanOp(ReduceBase):
    name = "onnx.ReduceMean"


@irdl_op_definition
class ReduceSumOp(ReduceBase):
    name = "onnx.ReduceSum"


@irdl_op_definition
class ReduceMaxOp(ReduceBase):
    name = "onnx.ReduceMax"


@irdl_op_definition
class ReduceMinOp(ReduceBase):
    name = "onnx.ReduceMin"


@irdl_op_definition
class ReduceProdOp(ReduceBase):
    name = "onnx.ReduceProd"


@irdl_op_definition
class ReduceL1Op(ReduceBase):
    name = "onnx.ReduceL1"


@irdl_op_definition
class ReduceL2Op(ReduceBase):
    name = "onnx.ReduceL2"


@irdl_op_definition
class ReduceLogSumExpOp(ReduceBase):
    name = "onnx.ReduceLogSumExp"


@irdl_op_definition
class ReduceSumSquareOp(ReduceBase):
    name = "onnx.ReduceSumSquare"


class _ArgReduce(OnnxOp, ABC):
    DEFAULTS: ClassVar[dict[str, object]] = {
        "axis": 0,
        "keepdims": 1,
        "select_last_index": 0,
    }

    data = operand_def(AnyTensor)
    reduced = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    keepdims = opt_prop_def(IntegerAttr)
    select_last_index = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ArgMaxOp(_ArgReduce):
    name = "onnx.ArgMax"


@irdl_op_definition
class ArgMinOp(_ArgReduce):
    name = "onnx.ArgMin"


@irdl_op_definition
class LayerNormalizationOp(OnnxOp):
    """Opset 17; `Mean` and `InvStdDev` are optional results."""

    name = "onnx.LayerNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "axis": -1,
        "epsilon": 1e-5,
        "stash_type": 1,
    }

    X = operand_def(AnyTensor)
    Scale = operand_def(AnyTensor)
    B = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    Mean = opt_result_def(AnyTensor)
    InvStdDev = opt_result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    stash_type = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedResultSegments(as_property=True),)


@irdl_op_definition
class RMSNormalizationOp(OnnxOp):
    """Opset 23."""

    name = "onnx.RMSNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "axis": -1,
        "epsilon": 1e-5,
        "stash_type": 1,
    }

    X = operand_def(AnyTensor)
    scale = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    stash_type = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class LogSoftmaxOp(OnnxOp):
    name = "onnx.LogSoftmax"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": -1}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class HardmaxOp(OnnxOp):
    name = "onnx.Hardmax"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": -1}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class DropoutOp(OnnxOp):
    """Opset 13+: `ratio` and `training_mode` are optional inputs, `mask` an
    optional result."""

    name = "onnx.Dropout"

    data = operand_def(AnyTensor)
    ratio = opt_operand_def(AnyTensor)
    training_mode = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    mask = opt_result_def(AnyTensor)
    seed = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


# Convolution, pooling and batch normalization (conv.py converts them).


class _Windowed(OnnxOp, ABC):
    """What Conv and the pooling ops share: `kernel_shape`, `strides`,
    `dilations`, `pads` (all begins, then all ends) and `auto_pad`."""

    X = operand_def(AnyTensor)
    auto_pad = opt_prop_def(StringAttr)
    dilations = opt_prop_def(ArrayAttr[IntegerAttr])
    kernel_shape = opt_prop_def(ArrayAttr[IntegerAttr])
    pads = opt_prop_def(ArrayAttr[IntegerAttr])
    strides = opt_prop_def(ArrayAttr[IntegerAttr])
    traits = traits_def(NoMemoryEffect())

    def get_auto_pad(self) -> str:
        return self.auto_pad.data if self.auto_pad is not None else "NOTSET"


@irdl_op_definition
class ConvOp(_Windowed):
    """Opset 11 (22: more types): `W` is (M, C/group, k...), `B` optional (M)."""

    name = "onnx.Conv"
    DEFAULTS: ClassVar[dict[str, object]] = {"group": 1, "auto_pad": "NOTSET"}

    X = operand_def(AnyTensor)
    W = operand_def(AnyTensor)
    B = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    group = opt_prop_def(IntegerAttr)


@irdl_op_definition
class MaxPoolOp(_Windowed):
    """Opset 12 (22); `Indices` (int64, flat indices into X) is optional."""

    name = "onnx.MaxPool"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "auto_pad": "NOTSET",
        "ceil_mode": 0,
        "storage_order": 0,
    }

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    Indices = opt_result_def(AnyTensor)
    ceil_mode = opt_prop_def(IntegerAttr)
    storage_order = opt_prop_def(IntegerAttr)


@irdl_op_definition
class AveragePoolOp(_Windowed):
    """Opset 11 (19: dilations; 22)."""

    name = "onnx.AveragePool"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "auto_pad": "NOTSET",
        "ceil_mode": 0,
        "count_include_pad": 0,
    }

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    ceil_mode = opt_prop_def(IntegerAttr)
    count_include_pad = opt_prop_def(IntegerAttr)


@irdl_op_definition
class GlobalAveragePoolOp(_Unary):
    name = "onnx.GlobalAveragePool"


@irdl_op_definition
class GlobalMaxPoolOp(_Unary):
    name = "onnx.GlobalMaxPool"


@irdl_op_definition
class BatchNormalizationOp(OnnxOp):
    """Opsets 9 (five outputs, the last four for training), 14 and 15 (three:
    `running_mean` and `running_var` in training mode only)."""

    name = "onnx.BatchNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "epsilon": 1e-5,
        "momentum": 0.9,
        "training_mode": 0,
    }

    X = operand_def(AnyTensor)
    scale = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    input_mean = operand_def(AnyTensor)
    input_var = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    running_mean = opt_result_def(AnyTensor)
    running_var = opt_result_def(AnyTensor)
    saved_mean = opt_result_def(AnyTensor)
    saved_var = opt_result_def(AnyTensor)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    momentum = opt_prop_def(FloatAttr[AnyFloat])
    training_mode = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedResultSegments(as_property=True),)


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
