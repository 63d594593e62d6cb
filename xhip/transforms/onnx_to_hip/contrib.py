"""ONNX Runtime's contrib ops -> the onnx ops they are made of, each then
converted by its own pattern right away (`_Parts.finish`): the pass walks
once and would not visit them.

- `SkipLayerNormalization`: `input + skip (+ bias)`, then `LayerNormalization`
  over the last axis (with `beta`); `mean`, `inv_std_var` are its statistics
  and `input_skip_bias_sum` the sum.
- `SkipSimplifiedLayerNormalization`: the same sum, then `RMSNormalization`
  over the last axis; ORT writes zeros for its `mean` and xhip has no RMS
  statistics output, so neither may be used.
- `SimplifiedLayerNormalization` is `RMSNormalization` (no `inv_std_var`).
- `FastGelu`: `X (+ bias)`, then `Gelu` with `approximate = "tanh"`;
  `BiasGelu`: `A + B`, then `Gelu` (erf); `BiasAdd`: `X + bias + skip`.
- `QuickGelu` is `hip.miopen.swish` (`x * sigmoid(alpha * x)`) itself.

float16: each op in float32 between casts, rounded once (`widen.py`), as
ORT's CPU EP computes it; QuickGelu's alpha rounded to float16 first (ORT
inlines its function, whose constant is float16). FastGelu's function
constants are float16 in ORT too, which xhip's Gelu kernel does not copy: a
float16 FastGelu may differ from ORT's by 1 ulp.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    f32,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.compute import ConvertElementwise, emit_elementwise
from xhip.transforms.onnx_to_hip.elementwise import ConvertGelu
from xhip.transforms.onnx_to_hip.reduce import (
    ConvertLayerNormalization,
    ConvertRMSNormalization,
)
from xhip.transforms.onnx_to_hip.support import OnnxPattern, Unsupported
from xhip.transforms.onnx_to_hip.widen import convert_widened, widened


class _Parts:
    """The onnx ops one contrib op is made of, inserted before it in order
    (past the walker, which never sees them) and each converted in place."""

    def __init__(
        self, pattern: OnnxPattern[Any], op: onnx.OnnxOp, rewriter: PatternRewriter
    ) -> None:
        self.pattern, self.op, self.rewriter = pattern, op, rewriter
        self.ops: list[onnx.OnnxOp] = []

    def insert(
        self,
        op_type: type[onnx.OnnxOp],
        operands: Sequence[SSAValue | Sequence[SSAValue]],
        result_types: Sequence[Attribute | Sequence[Attribute]],
        properties: dict[str, Attribute] | None = None,
    ) -> onnx.OnnxOp:
        """An `op_type`, named as the contrib op is in messages."""
        name = self.op.attributes.get("onnx_node_name")
        new = op_type.build(
            operands=operands,
            result_types=result_types,
            properties=properties or {},
            attributes={"onnx_node_name": name} if name is not None else {},
        )
        block = self.op.parent_block()
        assert block is not None  # a pattern's op is in a function
        block.insert_op_before(new, self.op)
        self.ops.append(new)
        return new

    def add(self, terms: Sequence[SSAValue], result: Attribute) -> SSAValue:
        """`terms` added left to right, each sum of type `result`."""
        total = terms[0]
        for term in terms[1:]:
            total = self.insert(onnx.AddOp, [total, term], [result]).results[0]
        return total

    def finish(self, values: Sequence[SSAValue]) -> None:
        """The contrib op's results are `values`; each part is converted (its
        uses, these included, move to its hip ops), then the contrib op goes."""
        for result, value in zip(self.op.results, values, strict=True):
            self.rewriter.replace_all_uses_with(result, value)
        state = self.pattern.state
        for part in self.ops:
            here = PatternRewriter(part)  # what it inserts goes before it
            if isinstance(part, onnx.AddOp):
                ConvertElementwise(state, onnx.AddOp, hip.AddOp).convert(part, here)
            elif isinstance(part, onnx.GeluOp):
                ConvertGelu(state).convert(part, here)
            elif isinstance(part, onnx.LayerNormalizationOp):
                ConvertLayerNormalization(state).convert(part, here)
            elif isinstance(part, onnx.RMSNormalizationOp):
                ConvertRMSNormalization(state).convert(part, here)
        self.rewriter.erase(self.op)


def _epsilon(op: onnx.OnnxOp) -> FloatAttr:
    return FloatAttr(op.get_float("epsilon"), f32)


def _present(value: SSAValue | None) -> list[SSAValue]:
    """An optional operand as the list of what is there."""
    return [value] if value is not None else []


def _axis(axis: int) -> IntegerAttr:
    return IntegerAttr(axis, IntegerType(64, Signedness.SIGNED))


LAST_AXIS = _axis(-1)


class ConvertSkipLayerNormalization(OnnxPattern[onnx.SkipLayerNormalizationOp]):
    def convert(
        self, op: onnx.SkipLayerNormalizationOp, rewriter: PatternRewriter
    ) -> None:
        if convert_widened(self, op, rewriter):
            return
        parts = _Parts(self, op, rewriter)
        total = parts.add([op.input, op.skip, *_present(op.bias)], op.input.type)
        stats = [[r.type] if r is not None else [] for r in (op.mean, op.inv_std_var)]
        norm = parts.insert(
            onnx.LayerNormalizationOp,
            [total, op.gamma, _present(op.beta)],
            [op.output.type, *stats],
            {"axis": LAST_AXIS, "epsilon": _epsilon(op)},
        )
        values: list[SSAValue] = list(norm.results)
        if op.input_skip_bias_sum is not None:
            values.append(total)
        parts.finish(values)


class ConvertSkipSimplifiedLayerNormalization(
    OnnxPattern[onnx.SkipSimplifiedLayerNormalizationOp]
):
    def convert(
        self, op: onnx.SkipSimplifiedLayerNormalizationOp, rewriter: PatternRewriter
    ) -> None:
        if convert_widened(self, op, rewriter):
            return
        if op.mean is not None or op.inv_std_var is not None:
            raise Unsupported("the 'mean' and 'inv_std_var' outputs are not supported")
        parts = _Parts(self, op, rewriter)
        total = parts.add([op.input, op.skip, *_present(op.bias)], op.input.type)
        norm = parts.insert(
            onnx.RMSNormalizationOp,
            [total, op.gamma],
            [op.output.type],
            {"axis": LAST_AXIS, "epsilon": _epsilon(op)},
        )
        values: list[SSAValue] = [norm.results[0]]
        if op.input_skip_bias_sum is not None:
            values.append(total)
        parts.finish(values)


class ConvertSimplifiedLayerNormalization(
    OnnxPattern[onnx.SimplifiedLayerNormalizationOp]
):
    def convert(
        self, op: onnx.SimplifiedLayerNormalizationOp, rewriter: PatternRewriter
    ) -> None:
        if convert_widened(self, op, rewriter):
            return
        if op.inv_std_var is not None:
            raise Unsupported("the 'inv_std_var' output is not supported")
        parts = _Parts(self, op, rewriter)
        norm = parts.insert(
            onnx.RMSNormalizationOp,
            [op.X, op.scale],
            [op.Y.type],
            {"axis": _axis(op.get_int("axis")), "epsilon": _epsilon(op)},
        )
        parts.finish(norm.results)


def _gelu(
    pattern: OnnxPattern[Any],
    op: onnx.OnnxOp,
    rewriter: PatternRewriter,
    terms: Sequence[SSAValue],
    approximate: str,
) -> None:
    """`op` replaced by the Gelu of the sum of `terms`."""
    parts = _Parts(pattern, op, rewriter)
    result = op.results[0].type
    total = parts.add(terms, result)
    gelu = parts.insert(
        onnx.GeluOp, [total], [result], {"approximate": StringAttr(approximate)}
    )
    parts.finish(gelu.results)


class ConvertFastGelu(OnnxPattern[onnx.FastGeluOp]):
    def convert(self, op: onnx.FastGeluOp, rewriter: PatternRewriter) -> None:
        if convert_widened(self, op, rewriter):
            return
        _gelu(self, op, rewriter, [op.X, *_present(op.bias)], "tanh")


class ConvertBiasGelu(OnnxPattern[onnx.BiasGeluOp]):
    def convert(self, op: onnx.BiasGeluOp, rewriter: PatternRewriter) -> None:
        if convert_widened(self, op, rewriter):
            return
        _gelu(self, op, rewriter, [op.A, op.B], "none")


class ConvertQuickGelu(OnnxPattern[onnx.QuickGeluOp]):
    def convert(self, op: onnx.QuickGeluOp, rewriter: PatternRewriter) -> None:
        wide = widened(self, op, rewriter)
        if wide is not None:
            # ORT inlines QuickGelu's function: alpha a float16 constant.
            alpha = float(np.float16(op.get_float("alpha")))
            wide.properties["alpha"] = FloatAttr(alpha, f32)
            op = wide
            rewriter = PatternRewriter(wide)
        emit_elementwise(self, op, rewriter, hip.SwishOp, [op.X])


class ConvertBiasAdd(OnnxPattern[onnx.BiasAddOp]):
    def convert(self, op: onnx.BiasAddOp, rewriter: PatternRewriter) -> None:
        if convert_widened(self, op, rewriter):
            return
        parts = _Parts(self, op, rewriter)
        parts.finish([parts.add([op.X, op.bias, op.skip], op.Y.type)])
