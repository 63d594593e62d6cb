"""The window functions of ONNX's signal ops (`onnx_to_hip/composed.py`
converts them): a window of `size` points, `output_datatype` elements."""

from __future__ import annotations

from abc import ABC
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


class WindowOp(OnnxOp, ABC):
    """Opset 17: `size` a 0-D int32 or int64; `periodic` divides by `size`
    (else `size - 1`); `output_datatype` an ONNX type code (default float)."""

    DEFAULTS: ClassVar[dict[str, object]] = {"periodic": 1, "output_datatype": 1}

    size = operand_def(AnyTensor)
    output = result_def(AnyTensor)
    periodic = opt_prop_def(IntegerAttr)
    output_datatype = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class HannWindowOp(WindowOp):
    name = "onnx.HannWindow"


@irdl_op_definition
class HammingWindowOp(WindowOp):
    name = "onnx.HammingWindow"


@irdl_op_definition
class BlackmanWindowOp(WindowOp):
    name = "onnx.BlackmanWindow"


OPS: tuple[type[Operation], ...] = (
    HannWindowOp,
    HammingWindowOp,
    BlackmanWindowOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "BlackmanWindowOp",
    "HammingWindowOp",
    "HannWindowOp",
    "WindowOp",
]
