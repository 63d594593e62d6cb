"""ONNX Runtime's contrib ops (`com.microsoft`, version 1) that its
transformers optimizer fuses into BERT/GPT-2/LLaMA graphs, as ORT's CPU EP
computes them; `onnx_to_hip/contrib.py` writes them as ops of this dialect.

They have no `onnx.defs` schema: each op's attribute defaults are its
`DEFAULTS` (ORT's `docs/ContribOperators.md`) and the domains ORT registers
it in are its `DOMAINS`. ORT's `com.microsoft.Gelu` is `onnx.Gelu` (erf).
"""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import CONTRIB_DOMAIN, AnyTensor, OnnxOp, Unary


class ContribOp(OnnxOp, ABC):
    """An ONNX Runtime contrib op: read from the `DOMAINS` ORT registers it in."""

    DOMAINS: ClassVar[tuple[str, ...]] = (CONTRIB_DOMAIN,)


@irdl_op_definition
class SimplifiedLayerNormalizationOp(ContribOp):
    """RMS normalization over the axes from `axis` on; ORT registers it in
    the default domain."""

    name = "onnx.SimplifiedLayerNormalization"
    DOMAINS: ClassVar[tuple[str, ...]] = ("", "ai.onnx", CONTRIB_DOMAIN)
    DEFAULTS: ClassVar[dict[str, object]] = {
        "axis": -1,
        "epsilon": 1e-5,
        "stash_type": 1,
    }

    X = operand_def(AnyTensor)
    scale = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    inv_std_var = opt_result_def(AnyTensor)
    axis = opt_prop_def(IntegerAttr)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    stash_type = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SkipLayerNormalizationOp(ContribOp):
    """LayerNormalization over the last axis of `input + skip (+ bias)`."""

    name = "onnx.SkipLayerNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {"epsilon": 1e-12}

    input = operand_def(AnyTensor)
    skip = operand_def(AnyTensor)
    gamma = operand_def(AnyTensor)
    beta = opt_operand_def(AnyTensor)
    bias = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    mean = opt_result_def(AnyTensor)
    inv_std_var = opt_result_def(AnyTensor)
    input_skip_bias_sum = opt_result_def(AnyTensor)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    traits = traits_def(NoMemoryEffect())
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
    )


@irdl_op_definition
class SkipSimplifiedLayerNormalizationOp(ContribOp):
    """SimplifiedLayerNormalization over the last axis of `input + skip (+ bias)`."""

    name = "onnx.SkipSimplifiedLayerNormalization"
    DEFAULTS: ClassVar[dict[str, object]] = {"epsilon": 1e-12}

    input = operand_def(AnyTensor)
    skip = operand_def(AnyTensor)
    gamma = operand_def(AnyTensor)
    bias = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    mean = opt_result_def(AnyTensor)
    inv_std_var = opt_result_def(AnyTensor)
    input_skip_bias_sum = opt_result_def(AnyTensor)
    epsilon = opt_prop_def(FloatAttr[AnyFloat])
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedResultSegments(as_property=True),)


@irdl_op_definition
class FastGeluOp(ContribOp):
    """Gelu's tanh approximation of `X (+ bias)`."""

    name = "onnx.FastGelu"

    X = operand_def(AnyTensor)
    bias = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class BiasGeluOp(ContribOp):
    """Gelu (erf) of `A + B`."""

    name = "onnx.BiasGelu"

    A = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    C = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class QuickGeluOp(ContribOp, Unary):
    """`x * sigmoid(alpha * x)`."""

    name = "onnx.QuickGelu"
    DEFAULTS: ClassVar[dict[str, object]] = {"alpha": 1.702}

    alpha = opt_prop_def(FloatAttr[AnyFloat])


@irdl_op_definition
class BiasAddOp(ContribOp):
    """`X + bias + skip`."""

    name = "onnx.BiasAdd"

    X = operand_def(AnyTensor)
    bias = operand_def(AnyTensor)
    skip = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    SimplifiedLayerNormalizationOp,
    SkipLayerNormalizationOp,
    SkipSimplifiedLayerNormalizationOp,
    FastGeluOp,
    BiasGeluOp,
    QuickGeluOp,
    BiasAddOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "BiasAddOp",
    "BiasGeluOp",
    "ContribOp",
    "FastGeluOp",
    "QuickGeluOp",
    "SimplifiedLayerNormalizationOp",
    "SkipLayerNormalizationOp",
    "SkipSimplifiedLayerNormalizationOp",
]
