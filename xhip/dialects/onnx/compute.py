"""The ops `onnx_to_hip/compute.py` converts: MatMul, Gemm, every op of its
`ELEMENTWISE` table (arithmetic, activations, comparisons, logic, Where),
Pow, Softmax, Transpose, Cast, Concat and Identity."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
)
from xdsl.ir import Operation, TypeAttribute
from xdsl.irdl import (
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.constraints import AnyTensorTypeConstr
from xhip.dialects.onnx.base import AnyTensor, Binary, OnnxOp, Unary


@irdl_op_definition
class MatMulOp(OnnxOp):
    name = "onnx.MatMul"

    A = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class AddOp(Binary):
    name = "onnx.Add"


@irdl_op_definition
class SubOp(Binary):
    name = "onnx.Sub"


@irdl_op_definition
class MulOp(Binary):
    name = "onnx.Mul"


@irdl_op_definition
class DivOp(Binary):
    name = "onnx.Div"


@irdl_op_definition
class PowOp(OnnxOp):
    name = "onnx.Pow"

    X = operand_def(AnyTensor)
    Y = operand_def(AnyTensor)
    Z = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class ReluOp(Unary):
    name = "onnx.Relu"


@irdl_op_definition
class SigmoidOp(Unary):
    name = "onnx.Sigmoid"


@irdl_op_definition
class TanhOp(Unary):
    name = "onnx.Tanh"


@irdl_op_definition
class ExpOp(Unary):
    name = "onnx.Exp"


@irdl_op_definition
class SqrtOp(Unary):
    name = "onnx.Sqrt"


@irdl_op_definition
class NegOp(Unary):
    name = "onnx.Neg"


@irdl_op_definition
class AbsOp(Unary):
    name = "onnx.Abs"


class _Alpha(Unary, ABC):
    """A unary activation with a float `alpha`."""

    alpha = opt_prop_def(FloatAttr[AnyFloat])


@irdl_op_definition
class ErfOp(Unary):
    name = "onnx.Erf"


@irdl_op_definition
class SoftplusOp(Unary):
    name = "onnx.Softplus"


@irdl_op_definition
class SoftsignOp(Unary):
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
class MishOp(Unary):
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
class HardSwishOp(Unary):
    name = "onnx.HardSwish"


@irdl_op_definition
class ThresholdedReluOp(_Alpha):
    name = "onnx.ThresholdedRelu"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 1.0}


@irdl_op_definition
class SwishOp(_Alpha):
    name = "onnx.Swish"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 1.0}


@irdl_op_definition
class LogOp(Unary):
    name = "onnx.Log"


@irdl_op_definition
class ReciprocalOp(Unary):
    name = "onnx.Reciprocal"


@irdl_op_definition
class FloorOp(Unary):
    name = "onnx.Floor"


@irdl_op_definition
class CeilOp(Unary):
    name = "onnx.Ceil"


@irdl_op_definition
class RoundOp(Unary):
    name = "onnx.Round"


@irdl_op_definition
class SinOp(Unary):
    name = "onnx.Sin"


@irdl_op_definition
class CosOp(Unary):
    name = "onnx.Cos"


@irdl_op_definition
class SignOp(Unary):
    name = "onnx.Sign"


@irdl_op_definition
class TanOp(Unary):
    name = "onnx.Tan"


@irdl_op_definition
class AsinOp(Unary):
    name = "onnx.Asin"


@irdl_op_definition
class AcosOp(Unary):
    name = "onnx.Acos"


@irdl_op_definition
class AtanOp(Unary):
    name = "onnx.Atan"


@irdl_op_definition
class SinhOp(Unary):
    name = "onnx.Sinh"


@irdl_op_definition
class CoshOp(Unary):
    name = "onnx.Cosh"


@irdl_op_definition
class AsinhOp(Unary):
    name = "onnx.Asinh"


@irdl_op_definition
class AcoshOp(Unary):
    name = "onnx.Acosh"


@irdl_op_definition
class AtanhOp(Unary):
    name = "onnx.Atanh"


@irdl_op_definition
class EqualOp(Binary):
    name = "onnx.Equal"


@irdl_op_definition
class LessOp(Binary):
    name = "onnx.Less"


@irdl_op_definition
class LessOrEqualOp(Binary):
    name = "onnx.LessOrEqual"


@irdl_op_definition
class GreaterOp(Binary):
    name = "onnx.Greater"


@irdl_op_definition
class GreaterOrEqualOp(Binary):
    name = "onnx.GreaterOrEqual"


@irdl_op_definition
class NotOp(Unary):
    name = "onnx.Not"


@irdl_op_definition
class AndOp(Binary):
    name = "onnx.And"


@irdl_op_definition
class OrOp(Binary):
    name = "onnx.Or"


@irdl_op_definition
class XorOp(Binary):
    name = "onnx.Xor"


@irdl_op_definition
class BitwiseAndOp(Binary):
    name = "onnx.BitwiseAnd"


@irdl_op_definition
class BitwiseOrOp(Binary):
    name = "onnx.BitwiseOr"


@irdl_op_definition
class BitwiseXorOp(Binary):
    name = "onnx.BitwiseXor"


@irdl_op_definition
class BitwiseNotOp(Unary):
    name = "onnx.BitwiseNot"


@irdl_op_definition
class IsNaNOp(Unary):
    name = "onnx.IsNaN"


@irdl_op_definition
class IsInfOp(Unary):
    name = "onnx.IsInf"
    DEFAULTS: ClassVar[dict[str, object]] = {"detect_negative": 1, "detect_positive": 1}

    detect_negative = opt_prop_def(IntegerAttr)
    detect_positive = opt_prop_def(IntegerAttr)


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


@irdl_op_definition
class BitCastOp(OnnxOp):
    """Opset 26: `input`'s bytes as elements of `to` (an ONNX type code) of
    the same width."""

    name = "onnx.BitCast"

    input = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    to = prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    MatMulOp,
    AddOp,
    SubOp,
    MulOp,
    DivOp,
    PowOp,
    ReluOp,
    SigmoidOp,
    TanhOp,
    ExpOp,
    SqrtOp,
    NegOp,
    AbsOp,
    ErfOp,
    SoftplusOp,
    SoftsignOp,
    EluOp,
    SeluOp,
    CeluOp,
    MishOp,
    LeakyReluOp,
    HardSigmoidOp,
    HardSwishOp,
    ThresholdedReluOp,
    LogOp,
    ReciprocalOp,
    FloorOp,
    CeilOp,
    RoundOp,
    SinOp,
    CosOp,
    SignOp,
    EqualOp,
    LessOp,
    LessOrEqualOp,
    GreaterOp,
    GreaterOrEqualOp,
    NotOp,
    AndOp,
    OrOp,
    XorOp,
    IsNaNOp,
    IsInfOp,
    WhereOp,
    IdentityOp,
    SoftmaxOp,
    TransposeOp,
    GemmOp,
    ConcatOp,
    CastOp,
    BitCastOp,
    TanOp,
    AsinOp,
    AcosOp,
    AtanOp,
    SinhOp,
    CoshOp,
    AsinhOp,
    AcoshOp,
    AtanhOp,
    BitwiseAndOp,
    BitwiseOrOp,
    BitwiseXorOp,
    BitwiseNotOp,
    SwishOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "AbsOp",
    "AcosOp",
    "AcoshOp",
    "AddOp",
    "AndOp",
    "AsinOp",
    "AsinhOp",
    "AtanOp",
    "AtanhOp",
    "BitwiseAndOp",
    "BitwiseNotOp",
    "BitwiseOrOp",
    "BitwiseXorOp",
    "BitCastOp",
    "CastOp",
    "CeilOp",
    "CeluOp",
    "ConcatOp",
    "CosOp",
    "CoshOp",
    "DivOp",
    "EluOp",
    "EqualOp",
    "ErfOp",
    "ExpOp",
    "FloorOp",
    "GemmOp",
    "GreaterOp",
    "GreaterOrEqualOp",
    "HardSigmoidOp",
    "HardSwishOp",
    "IdentityOp",
    "IsInfOp",
    "IsNaNOp",
    "LeakyReluOp",
    "LessOp",
    "LessOrEqualOp",
    "LogOp",
    "MatMulOp",
    "MishOp",
    "MulOp",
    "NegOp",
    "NotOp",
    "OrOp",
    "PowOp",
    "ReciprocalOp",
    "ReluOp",
    "RoundOp",
    "SeluOp",
    "SigmoidOp",
    "SignOp",
    "SinOp",
    "SinhOp",
    "SoftmaxOp",
    "SoftplusOp",
    "SoftsignOp",
    "SqrtOp",
    "SubOp",
    "SwishOp",
    "TanOp",
    "TanhOp",
    "ThresholdedReluOp",
    "TransposeOp",
    "WhereOp",
    "XorOp",
]
