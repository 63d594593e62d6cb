"""The recurrent layers LSTM, GRU and RNN (`onnx_to_hip/rnn.py` converts them).

All three share their inputs up to `initial_h` and their attributes but
`input_forget` (LSTM) and `linear_before_reset` (GRU); every output is
optional. `activations` is a list of names (`ArrayAttr` of `StringAttr`),
`activation_alpha`/`activation_beta` lists of floats.
"""

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
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp

_DEFAULTS: dict[str, object] = {
    "direction": "forward",
    "layout": 0,
}


class RecurrentOp(OnnxOp, ABC):
    """What LSTM, GRU and RNN share: X (seq, batch, input) or, under layout 1,
    (batch, seq, input); W, R and B stacked per direction."""

    X = operand_def(AnyTensor)
    W = operand_def(AnyTensor)
    R = operand_def(AnyTensor)
    B = opt_operand_def(AnyTensor)
    sequence_lens = opt_operand_def(AnyTensor)
    initial_h = opt_operand_def(AnyTensor)
    Y = opt_result_def(AnyTensor)
    Y_h = opt_result_def(AnyTensor)
    activation_alpha = opt_prop_def(ArrayAttr[FloatAttr[AnyFloat]])
    activation_beta = opt_prop_def(ArrayAttr[FloatAttr[AnyFloat]])
    activations = opt_prop_def(ArrayAttr[StringAttr])
    clip = opt_prop_def(FloatAttr[AnyFloat])
    direction = opt_prop_def(StringAttr)
    hidden_size = opt_prop_def(IntegerAttr)
    layout = opt_prop_def(IntegerAttr)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
    )

    GATES: ClassVar[int] = 1
    """Gates stacked in W, R and B (each `hidden_size` rows)."""
    ACTIVATIONS: ClassVar[tuple[str, ...]] = ("Tanh",)
    """The activation functions of one direction, by default."""


@irdl_op_definition
class LSTMOp(RecurrentOp):
    """Gates i, o, f, c; peepholes P (num_directions, 3 * hidden) for i, o, f."""

    name = "onnx.LSTM"
    DEFAULTS: ClassVar[dict[str, object]] = {**_DEFAULTS, "input_forget": 0}
    GATES: ClassVar[int] = 4
    ACTIVATIONS: ClassVar[tuple[str, ...]] = ("Sigmoid", "Tanh", "Tanh")

    X = operand_def(AnyTensor)
    W = operand_def(AnyTensor)
    R = operand_def(AnyTensor)
    B = opt_operand_def(AnyTensor)
    sequence_lens = opt_operand_def(AnyTensor)
    initial_h = opt_operand_def(AnyTensor)
    initial_c = opt_operand_def(AnyTensor)
    P = opt_operand_def(AnyTensor)
    Y = opt_result_def(AnyTensor)
    Y_h = opt_result_def(AnyTensor)
    Y_c = opt_result_def(AnyTensor)
    input_forget = opt_prop_def(IntegerAttr)


@irdl_op_definition
class GRUOp(RecurrentOp):
    """Gates z, r, h; `linear_before_reset` applies r after the recurrence."""

    name = "onnx.GRU"
    DEFAULTS: ClassVar[dict[str, object]] = {**_DEFAULTS, "linear_before_reset": 0}
    GATES: ClassVar[int] = 3
    ACTIVATIONS: ClassVar[tuple[str, ...]] = ("Sigmoid", "Tanh")

    linear_before_reset = opt_prop_def(IntegerAttr)


@irdl_op_definition
class RNNOp(RecurrentOp):
    """One gate: `H = f(X W^T + H R^T + Wb + Rb)`."""

    name = "onnx.RNN"
    DEFAULTS: ClassVar[dict[str, object]] = dict(_DEFAULTS)


OPS: tuple[type[Operation], ...] = (
    LSTMOp,
    GRUOp,
    RNNOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "GRUOp",
    "LSTMOp",
    "RNNOp",
    "RecurrentOp",
]
