"""An ONNX op made of other ONNX ops, each converted by its own pattern.

`Parts` builds the ops, then inserts them before the composed one and
converts them in order when it is done (`finish`): the pass walks once and
would not visit ops inserted after it started. An `Unsupported` before
`finish` leaves the IR as it was (but for constants); a part's is the
composed op's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import onnx
from xhip.transforms.onnx_to_hip.support import OnnxPattern, recast

PatternFactory = Callable[[Any], OnnxPattern[Any]]
"""A pattern made from the conversion state."""


def si64(value: int) -> IntegerAttr:
    """An ONNX int attribute."""
    return IntegerAttr(value, IntegerType(64, Signedness.SIGNED))


class Parts:
    """The onnx ops one op is made of, inserted before it in order when done
    and each converted in place by the pattern `patterns` gives for its type."""

    def __init__(
        self,
        pattern: OnnxPattern[Any],
        op: onnx.OnnxOp,
        rewriter: PatternRewriter,
        patterns: Mapping[type[onnx.OnnxOp], PatternFactory],
    ) -> None:
        self.pattern, self.op, self.rewriter = pattern, op, rewriter
        self.patterns = patterns
        self.ops: list[onnx.OnnxOp] = []

    def insert(
        self,
        op_type: type[onnx.OnnxOp],
        operands: Sequence[SSAValue | Sequence[SSAValue]],
        result_type: Attribute,
        properties: dict[str, Attribute] | None = None,
    ) -> SSAValue:
        """An `op_type` of one result, named as the composed op is in messages
        (inserted by `finish`)."""
        name = self.op.attributes.get("onnx_node_name")
        new = op_type.build(
            operands=operands,
            result_types=[result_type],
            properties=properties or {},
            attributes={"onnx_node_name": name} if name is not None else {},
        )
        self.ops.append(new)
        return new.results[0]

    def constant(self, values: np.ndarray, element: Attribute) -> SSAValue:
        """A constant tensor of `values`' shape with `element` type."""
        shape = values.shape
        attr: DenseIntOrFPElementsAttr
        if isinstance(element, AnyFloat):
            floats = [float(v) for v in values.reshape(-1)]
            attr = DenseIntOrFPElementsAttr.from_list(
                TensorType(element, shape), floats
            )
        else:
            integer = cast("IntegerType[int, Signedness]", element)
            ints = [int(v) for v in values.reshape(-1)]
            attr = DenseIntOrFPElementsAttr.from_list(TensorType(integer, shape), ints)
        return self.pattern.state.folder.get(self.rewriter, self.op, attr)

    def ints(self, values: Sequence[int]) -> SSAValue:
        """A 1-D int64 constant (axes, starts, pads)."""
        return self.constant(np.asarray(values, np.int64), i64)

    def finish(self, values: Sequence[SSAValue]) -> None:
        """The op's results are `values` (recast where the op's result knows
        a dim the parts leave dynamic); each part is converted (its uses,
        these included, move to its hip ops), then the op goes."""
        block = self.op.parent_block()
        assert block is not None  # a pattern's op is in a function
        block.insert_ops_before(self.ops, self.op)
        for result, value in zip(self.op.results, values, strict=True):
            cast_ = recast(value, result, "the composed value")
            if cast_ is not None:
                block.insert_op_before(cast_, self.op)
                value = cast_.dest
            self.rewriter.replace_all_uses_with(result, value)
        for part in self.ops:
            here = PatternRewriter(part)  # what it inserts goes before it
            self.patterns[type(part)](self.pattern.state).convert(part, here)
        self.rewriter.erase(self.op)
