"""Linear algebra on the last two dims: Det (`onnx_to_hip/linalg.py`
converts it)."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.irdl import irdl_op_definition

from xhip.dialects.onnx.base import Unary


@irdl_op_definition
class DetOp(Unary):
    """The determinant of each square matrix of `X` (`[..., M, M]`)."""

    name = "onnx.Det"


OPS: tuple[type[Operation], ...] = (DetOp,)
"""This family's ops; a new op goes at the end."""

__all__ = ["DetOp"]
