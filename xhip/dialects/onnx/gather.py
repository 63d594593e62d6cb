"""Gathers (`onnx_to_hip/gather.py` converts them): int32 or int64 indices,
negative ones counted from the end."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


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


@irdl_op_definition
class ReverseSequenceOp(OnnxOp):
    """The first `sequence_lens[b]` elements along `time_axis` of each batch
    entry `b` (along `batch_axis`) reversed, the rest kept."""

    name = "onnx.ReverseSequence"
    DEFAULTS: ClassVar[dict[str, object]] = {"batch_axis": 1, "time_axis": 0}

    input = operand_def(AnyTensor)
    sequence_lens = operand_def(AnyTensor)
    Y = result_def(AnyTensor)
    batch_axis = opt_prop_def(IntegerAttr)
    time_axis = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


OPS: tuple[type[Operation], ...] = (
    GatherOp,
    GatherElementsOp,
    GatherNDOp,
    ReverseSequenceOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "GatherElementsOp",
    "GatherNDOp",
    "GatherOp",
    "ReverseSequenceOp",
]
