"""ONNX Runtime's block-quantized weight ops (`com.microsoft` version 1):
MatMulNBits (int4/int8 LLM linear layers) and GatherBlockQuantized
(quantized embeddings); `onnx_to_hip/nbits.py` converts them."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor
from xhip.dialects.onnx.contrib import ContribOp

REQUIRED = -1
"""The default of a required attribute: the conversion refuses a node without it."""


@irdl_op_definition
class MatMulNBitsOp(ContribOp):
    """`A @ dequantize(B)^T (+ bias)`: B (N, k_blocks, blob) holds `bits`-bit
    weights packed low bits first, blocked along K; `scales` (N, k_blocks),
    `zero_points` packed like B or of A's type, default `2^(bits-1)`."""

    name = "onnx.MatMulNBits"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "K": REQUIRED,
        "N": REQUIRED,
        "block_size": REQUIRED,
        "bits": 4,
        "accuracy_level": 0,
        "weight_prepacked": 0,
    }

    A = operand_def(AnyTensor)
    B = operand_def(AnyTensor)
    scales = operand_def(AnyTensor)
    zero_points = opt_operand_def(AnyTensor)
    g_idx = opt_operand_def(AnyTensor)
    bias = opt_operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    K = opt_prop_def(IntegerAttr)
    N = opt_prop_def(IntegerAttr)
    bits = opt_prop_def(IntegerAttr)
    block_size = opt_prop_def(IntegerAttr)
    accuracy_level = opt_prop_def(IntegerAttr)
    weight_prepacked = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class GatherBlockQuantizedOp(ContribOp):
    """Gather along `gather_axis` of `data` block-quantized along
    `quantize_axis`, dequantized with `scales` (the result's type) and
    `zero_points`; uint8 data packs `8 / bits` values per byte along the
    last axis. An index out of range gives zeros."""

    name = "onnx.GatherBlockQuantized"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "bits": 4,
        "block_size": 128,
        "gather_axis": 0,
        "quantize_axis": 1,
    }

    data = operand_def(AnyTensor)
    indices = operand_def(AnyTensor)
    scales = operand_def(AnyTensor)
    zero_points = opt_operand_def(AnyTensor)
    output = result_def(AnyTensor)
    bits = opt_prop_def(IntegerAttr)
    block_size = opt_prop_def(IntegerAttr)
    gather_axis = opt_prop_def(IntegerAttr)
    quantize_axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (MatMulNBitsOp, GatherBlockQuantizedOp)
"""This family's ops; a new op goes at the end."""

__all__ = ["REQUIRED", "GatherBlockQuantizedOp", "MatMulNBitsOp"]
