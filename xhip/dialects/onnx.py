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
    var_result_def,
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
class EinsumOp(OnnxOp):
    """Opset 12: `equation` in numpy's notation (`bij,bjk->bik`, `...` for
    broadcast dims); no `->` means the output is the letters seen once, sorted."""

    name = "onnx.Einsum"

    Inputs = var_operand_def(AnyTensor)
    Output = result_def(AnyTensor)
    equation = prop_def(StringAttr)
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


# Gathers (onnx_to_hip/gather.py converts them): int32 or int64 indices,
# negative ones counted from the end.


@irdl_op_definition
class GatherOp(OnnxOp):
    """`data` indexed along `axis` by every element of `indices`."""

    name = "onnx.Gather"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": 0}

    data = operand_def(AnyTensor)
    indices = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class GatherElementsOp(OnnxOp):
    """`output[i...] = data[i... with i[axis] = indices[i...]]`."""

    name = "onnx.GatherElements"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": 0}

    data = operand_def(AnyTensor)
    indices = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class GatherNDOp(OnnxOp):
    """Slices of `data` at the index tuples of `indices`' last dim, after
    `batch_dims` leading dims the two share."""

    name = "onnx.GatherND"
    DEFAULTS: ClassVar[dict[str, object]] = {"batch_dims": 0}

    data = operand_def(AnyTensor)
    indices = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    batch_dims = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


# Slicing, splitting and broadcasting copies (onnx_to_hip/slice.py converts them).


@irdl_op_definition
class SliceOp(OnnxOp):
    """Opset 13: `starts`, `ends` and the optional `axes` and `steps` are inputs."""

    name = "onnx.Slice"

    data = operand_def(AnyTensor)
    starts = operand_def(AnyTensor)
    ends = operand_def(AnyTensor)
    axes = opt_operand_def(AnyTensor)
    steps = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class SplitOp(OnnxOp):
    """Opset 13: the optional `split` input; 18: or the `num_outputs` attribute
    (the last chunk smaller when the size does not divide)."""

    name = "onnx.Split"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": 0}

    input = operand_def(AnyTensor)
    split = opt_operand_def(AnyTensor)
    outputs = var_result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    num_outputs = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class TileOp(OnnxOp):
    name = "onnx.Tile"

    input = operand_def(AnyTensor)
    repeats = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ExpandOp(OnnxOp):
    """numpy broadcasting of `input` and `shape`, both ways."""

    name = "onnx.Expand"

    input = operand_def(AnyTensor)
    shape = operand_def(AnyTensor)
    output = result_def(AnyTensor)
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


# Shapes as values: `onnx-fold-shapes` folds them to index arithmetic.


@irdl_op_definition
class ShapeOp(OnnxOp):
    """The dims `start` to `end` of `data`, as a 1-D int64 tensor (opset 15)."""

    name = "onnx.Shape"
    DEFAULTS: ClassVar[dict[str, object]] = {"start": 0}

    data = operand_def(AnyTensor)
    shape = result_def(AnyTensor)
    start = opt_prop_def(IntegerAttr)
    end = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SizeOp(OnnxOp):
    """The number of elements of `data`, as a 0-D int64 tensor."""

    name = "onnx.Size"

    data = operand_def(AnyTensor)
    size = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ConstantOfShapeOp(OnnxOp):
    """A tensor of the shape `input` filled with `value` (default float 0)."""

    name = "onnx.ConstantOfShape"

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    value = opt_prop_def(Attribute)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class RangeOp(OnnxOp):
    """`start, start + delta, ...` up to `limit` (excluded); 0-D operands."""

    name = "onnx.Range"

    start = operand_def(AnyTensor)
    limit = operand_def(AnyTensor)
    delta = operand_def(AnyTensor)
    output = result_def(AnyTensor)
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
class TopKOp(OnnxOp):
    """Opset 11: `K` (a one-element int64 tensor) is an input; `Indices` int64."""

    name = "onnx.TopK"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": -1, "largest": 1, "sorted": 1}

    X = operand_def(AnyTensor)
    K = operand_def(AnyTensor)
    Values = result_def(AnyTensor)
    Indices = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    largest = opt_prop_def(IntegerAttr)
    sorted = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


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


# Pad, DepthToSpace, SpaceToDepth, InstanceNormalization, GroupNormalization
# and LRN (pad.py converts them).


@irdl_op_definition
class PadOp(OnnxOp):
    """Opset 13 (18: the `axes` input; 19: `wrap` mode): `pads` are all begins,
    then all ends, one pair per axis of `axes` (default: every dim)."""

    name = "onnx.Pad"
    DEFAULTS: ClassVar[dict[str, object]] = {"mode": "constant"}

    data = operand_def(AnyTensor)
    pads = operand_def(AnyTensor)
    constant_value = opt_operand_def(AnyTensor)
    axes = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class DepthToSpaceOp(OnnxOp):
    """Opset 13: (N, C, H, W) to (N, C / b^2, H * b, W * b); `mode` DCR or CRD."""

    name = "onnx.DepthToSpace"
    DEFAULTS: ClassVar[dict[str, object]] = {"mode": "DCR"}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    blocksize = opt_prop_def(IntegerAttr)
    mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SpaceToDepthOp(OnnxOp):
    """Opset 13: (N, C, H, W) to (N, C * b^2, H / b, W / b); opset 28 adds
    `mode` (DCR, CRD), the inverse of DepthToSpace's."""

    name = "onnx.SpaceToDepth"
    DEFAULTS: ClassVar[dict[str, object]] = {"mode": "DCR"}

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    blocksize = opt_prop_def(IntegerAttr)
    mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class InstanceNormalizationOp(OnnxOp):
    """Opset 6 (22: bfloat16): `scale` and `B` are (C)."""

    name = "onnx.InstanceNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {"epsilon": 1e-5}

    input = operand_def(AnyTensor)
    scale = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class GroupNormalizationOp(OnnxOp):
    """Opset 18: `scale` and `bias` are (num_groups); opset 21 (which adds
    `stash_type`, so its presence tells them apart): (C)."""

    name = "onnx.GroupNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {"epsilon": 1e-5, "stash_type": 1}

    X = operand_def(AnyTensor)
    scale = operand_def(AnyTensor)
    bias = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    num_groups = opt_prop_def(IntegerAttr)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    stash_type = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class LRNOp(OnnxOp):
    """Opset 13: local response normalization across channels."""

    name = "onnx.LRN"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 1e-4, "beta": 0.75, "bias": 1.0}

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    alpha = opt_prop_def(FloatAttr[AnyFloat])
    beta = opt_prop_def(FloatAttr[AnyFloat])
    bias = opt_prop_def(FloatAttr[AnyFloat])
    size = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


# Attention and rotary embeddings (onnx_to_hip/attention.py converts them).


@irdl_op_definition
class AttentionOp(OnnxOp):
    """Opsets 23 to 25: scaled dot-product attention over 3-D (with
    `q_num_heads`/`kv_num_heads`) or 4-D Q, K, V; `nonpad_kv_seqlen` is
    opset 24's, the window sizes opset 25's."""

    name = "onnx.Attention"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "is_causal": 0,
        "qk_matmul_output_mode": 0,
        "softcap": 0.0,
        "left_window_size": -1,
        "right_window_size": -1,
    }

    Q = operand_def(AnyTensor)
    K = operand_def(AnyTensor)
    V = operand_def(AnyTensor)
    attn_mask = opt_operand_def(AnyTensor)
    past_key = opt_operand_def(AnyTensor)
    past_value = opt_operand_def(AnyTensor)
    nonpad_kv_seqlen = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    present_key = opt_result_def(AnyTensor)
    present_value = opt_result_def(AnyTensor)
    qk_matmul_output = opt_result_def(AnyTensor)
    is_causal = opt_prop_def(IntegerAttr)
    kv_num_heads = opt_prop_def(IntegerAttr)
    q_num_heads = opt_prop_def(IntegerAttr)
    qk_matmul_output_mode = opt_prop_def(IntegerAttr)
    scale = opt_prop_def(FloatAttr[AnyFloat])
    softcap = opt_prop_def(FloatAttr[AnyFloat])
    softmax_precision = opt_prop_def(IntegerAttr)
    left_window_size = opt_prop_def(IntegerAttr)
    right_window_size = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
    )


@irdl_op_definition
class RotaryEmbeddingOp(OnnxOp):
    """Opset 23: RoPE of a 4-D (batch, heads, seq, head) or 3-D (batch, seq,
    hidden, with `num_heads`) input; `position_ids` index 2-D caches."""

    name = "onnx.RotaryEmbedding"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "interleaved": 0,
        "rotary_embedding_dim": 0,
        "num_heads": 0,
    }

    X = operand_def(AnyTensor)
    cos_cache = operand_def(AnyTensor)
    sin_cache = operand_def(AnyTensor)
    position_ids = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    interleaved = opt_prop_def(IntegerAttr)
    rotary_embedding_dim = opt_prop_def(IntegerAttr)
    num_heads = opt_prop_def(IntegerAttr)
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
class LpPoolOp(_Windowed):
    """Opset 11 (18: `ceil_mode`, `dilations`; 22): `(sum |x|^p)^(1/p)`."""

    name = "onnx.LpPool"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "auto_pad": "NOTSET",
        "ceil_mode": 0,
        "p": 2,
    }

    X = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    ceil_mode = opt_prop_def(IntegerAttr)
    p = opt_prop_def(IntegerAttr)


@irdl_op_definition
class ConvTransposeOp(_Windowed):
    """Opset 11 (22): `W` is (C, M/group, k...), `B` optional (M);
    `output_shape` (spatial) or `output_padding` decide the output size."""

    name = "onnx.ConvTranspose"
    DEFAULTS: ClassVar[dict[str, object]] = {"group": 1, "auto_pad": "NOTSET"}

    X = operand_def(AnyTensor)
    W = operand_def(AnyTensor)
    B = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    group = opt_prop_def(IntegerAttr)
    output_padding = opt_prop_def(ArrayAttr[IntegerAttr])
    output_shape = opt_prop_def(ArrayAttr[IntegerAttr])


@irdl_op_definition
class ResizeOp(OnnxOp):
    """Opsets 11, 13, 18 (`axes`, `antialias`, `keep_aspect_ratio_policy`), 19
    (`half_pixel_symmetric`): `roi`, `scales` (float) and `sizes` (int64) are
    optional inputs, one of `scales` and `sizes` given."""

    name = "onnx.Resize"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "antialias": 0,
        "coordinate_transformation_mode": "half_pixel",
        "cubic_coeff_a": -0.75,
        "exclude_outside": 0,
        "extrapolation_value": 0.0,
        "keep_aspect_ratio_policy": "stretch",
        "mode": "nearest",
        "nearest_mode": "round_prefer_floor",
    }

    X = operand_def(AnyTensor)
    roi = opt_operand_def(AnyTensor)
    scales = opt_operand_def(AnyTensor)
    sizes = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    antialias = opt_prop_def(IntegerAttr)
    axes = opt_prop_def(ArrayAttr[IntegerAttr])
    coordinate_transformation_mode = opt_prop_def(StringAttr)
    cubic_coeff_a = opt_prop_def(FloatAttr[AnyFloat])
    exclude_outside = opt_prop_def(IntegerAttr)
    extrapolation_value = opt_prop_def(FloatAttr[AnyFloat])
    keep_aspect_ratio_policy = opt_prop_def(StringAttr)
    mode = opt_prop_def(StringAttr)
    nearest_mode = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def get_string(self, name: str) -> str:
        attr = self.properties.get(name)
        if isinstance(attr, StringAttr):
            return attr.data
        value = self.DEFAULTS[name]
        assert isinstance(value, str)
        return value


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


# Scatters, Trilu, CumSum and OneHot (onnx_to_hip/scatter.py converts them):
# `k`, `axis` and `depth` must be known at compile time.


@irdl_op_definition
class ScatterNDOp(OnnxOp):
    """Opset 11 (16, 18: `reduction` none, add, mul, max, min)."""

    name = "onnx.ScatterND"
    DEFAULTS: ClassVar[dict[str, object]] = {"reduction": "none"}

    data = operand_def(AnyTensor)
    indices = operand_def(AnyTensor)
    updates = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    reduction = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ScatterElementsOp(OnnxOp):
    """Opset 11 (16, 18: `reduction`); int32 or int64 indices."""

    name = "onnx.ScatterElements"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": 0, "reduction": "none"}

    data = operand_def(AnyTensor)
    indices = operand_def(AnyTensor)
    updates = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    reduction = opt_prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class TriluOp(OnnxOp):
    """Opset 14; `k` is an optional 0-D int64 input."""

    name = "onnx.Trilu"
    DEFAULTS: ClassVar[dict[str, object]] = {"upper": 1}

    input = operand_def(AnyTensor)
    k = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    upper = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class CumSumOp(OnnxOp):
    """Opset 14; `axis` is a 0-D int32 or int64 input."""

    name = "onnx.CumSum"
    DEFAULTS: ClassVar[dict[str, object]] = {"exclusive": 0, "reverse": 0}

    x = operand_def(AnyTensor)
    axis = operand_def(AnyTensor)
    y = result_def(AnyTensor)
    exclusive = opt_prop_def(IntegerAttr)
    reverse = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class OneHotOp(OnnxOp):
    """Opset 11; `depth` a scalar of any numeric type, `values` [off, on]."""

    name = "onnx.OneHot"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": -1}

    indices = operand_def(AnyTensor)
    depth = operand_def(AnyTensor)
    values = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
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
