"""`hip.fused_elementwise`: a chain of elementwise ops run as one, put there by
`hip-fuse-elementwise` (never by the conversion).

    hip.fused_elementwise(%ctx) ins(%x, %c : memref<?x64xf32>, memref<f32>)
        outs(%y : memref<?x64xf32>) {body = "mul(x0, x1) : f32; erf(s0) : f32"}

Its `body` is the group's formulas composed, as a list of steps in the order
the ops ran: each step is an elementwise op's kind (its `FORMULA`), `cast`
or `copy`, applied to the op's `ins` (`x<i>`) or to earlier steps (`s<k>`),
with the op's `Param` values in brackets and the element type of its result.
The last step is the op's result. A step reused by several others is
computed once (a DAG, not a tree), and each step rounds to its own element
type, as the unfused op stored it: fused and unfused agree bit for bit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation
from xdsl.irdl import irdl_op_definition, prop_def
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.constraints import AnyShapedTypeConstr
from xhip.dialects.hip.base import (
    ElementwiseOp,
    HipComputeOp,
    Value,
    broadcast,
    fmt_shape,
    shape_of,
)
from xhip.dialects.hip.elementwise import OPS as ELEMENTWISE_FAMILY

KINDS: dict[str, type[ElementwiseOp]] = {
    op.kind(): op for op in ELEMENTWISE_FAMILY if issubclass(op, ElementwiseOp)
}
"""The elementwise kinds a step may name (each op's `FORMULA`)."""
CONVERSIONS = ("cast", "copy")
"""The steps that are no formula: `hip.cast`'s conversion and `hip.copy`."""


@dataclass(frozen=True, slots=True)
class Step:
    """One fused op: `kind(args)[params] : type`."""

    kind: str
    args: tuple[int, ...]
    """Each operand: `i < n_inputs` is input i, else step `i - n_inputs`."""
    params: tuple[float, ...]
    """The values of the formula's `Param`s, in `FORMULA.params()` order."""
    type: str
    """The element type of the result, as MLIR prints it (`f32`, `i1`, `ui8`)."""

    def arity(self) -> int:
        return 1 if self.kind in CONVERSIONS else KINDS[self.kind].arity()


@dataclass(frozen=True, slots=True)
class FusedAttributes:
    """`Runtime.fused_elementwise`'s `attrs`: the steps over `inputs`."""

    steps: tuple[Step, ...]


def format_body(steps: Sequence[Step], n_inputs: int) -> str:
    """The `body` property's text of these steps."""

    def ref(i: int) -> str:
        return f"x{i}" if i < n_inputs else f"s{i - n_inputs}"

    parts: list[str] = []
    for step in steps:
        params = f"[{', '.join(map(repr, step.params))}]" if step.params else ""
        args = ", ".join(map(ref, step.args))
        parts.append(f"{step.kind}{params}({args}) : {step.type}")
    return "; ".join(parts)


_STEP = re.compile(r"\s*(\w+)\s*(?:\[([^\]]*)\])?\s*\(([^)]*)\)\s*:\s*(\w+)\s*")


def parse_body(text: str, n_inputs: int) -> tuple[Step, ...]:
    """The steps of a `body`; ValueError naming the step that is wrong."""
    steps: list[Step] = []
    for k, part in enumerate(text.split(";")):
        m = _STEP.fullmatch(part)
        if m is None:
            raise ValueError(f"step {k} ({part.strip()!r}) is not kind(args) : type")
        kind, params, args, type_ = m.groups()
        if kind not in KINDS and kind not in CONVERSIONS:
            raise ValueError(f"step {k}: unknown kind {kind!r}")
        refs: list[int] = []
        for name in (a.strip() for a in args.split(",") if a.strip()):
            if not re.fullmatch(r"[xs]\d+", name):
                raise ValueError(f"step {k}: operand {name!r} is no x<i> or s<k>")
            i = int(name[1:])
            if (name[0] == "x" and i >= n_inputs) or (name[0] == "s" and i >= k):
                raise ValueError(f"step {k}: {name} is not defined before it")
            refs.append(i if name[0] == "x" else n_inputs + i)
        values = tuple(float(p) for p in params.split(",")) if params else ()
        step = Step(kind, tuple(refs), values, type_)
        if len(refs) != step.arity():
            raise ValueError(f"step {k}: {kind} takes {step.arity()} operands")
        if kind in KINDS and len(values) != len(KINDS[kind].FORMULA.params()):
            raise ValueError(
                f"step {k}: {kind} takes the params {KINDS[kind].FORMULA.params()}"
            )
        steps.append(step)
    return tuple(steps)


@irdl_op_definition
class FusedElementwiseOp(HipComputeOp):
    """The composed formula of a group of elementwise ops (`body`), over the
    group's outside operands broadcast to `outs` as numpy broadcasts."""

    name = "hip.fused_elementwise"
    INS: ClassVar[tuple[str, ...]] = ("inputs+",)
    RUNTIME_CALL: ClassVar[str] = "fused_elementwise"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False
    IN_PLACE: ClassVar[bool] = True

    body = prop_def(StringAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        inputs: Sequence[Value],
        out: Value,
        steps: Sequence[Step],
    ) -> Self:
        return cls._from_roles(
            ctx,
            {"inputs": inputs, "out": out},
            {"body": StringAttr(format_body(steps, len(inputs)))},
        )

    def steps(self) -> tuple[Step, ...]:
        return parse_body(self.body.data, len(self.inputs))

    def runtime_attributes(self) -> FusedAttributes:
        return FusedAttributes(self.steps())

    def verify_element_types(self) -> None:
        try:
            steps = self.steps()
        except ValueError as e:
            raise VerifyException(f"'{self.name}' body: {e}") from None
        out = self.outputs[0].type
        assert AnyShapedTypeConstr.verifies(out)
        last = str(out.get_element_type())
        if not steps or steps[-1].type != last:
            raise VerifyException(
                f"'{self.name}' body's last step must have the element type of "
                f"outs ({last})"
            )

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return None

    def verify_shapes(self) -> None:
        out = shape_of(self.outputs[0])
        for i, value in enumerate(self.inputs):
            shape = shape_of(value)
            joined = broadcast(shape, out)
            if joined is None or len(joined) != len(out):
                raise VerifyException(
                    f"'{self.name}' ins operand {i} ({fmt_shape(shape)}) does not "
                    f"broadcast to outs ({fmt_shape(out)})"
                )


OPS: tuple[type[Operation], ...] = (FusedElementwiseOp,)
"""This family's ops."""

__all__ = [
    "FusedAttributes",
    "FusedElementwiseOp",
    "Step",
    "format_body",
    "parse_body",
]
