"""hipBLASLt calls: `hip.hipblaslt.matmul` and `hip.hipblaslt.gemm` (converted by
`onnx_to_hip/compute.py`; CPU in `backend/cpu.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    FloatAttr,
    UnitAttr,
)
from xdsl.ir import Operation
from xdsl.irdl import (
    irdl_op_definition,
    opt_prop_def,
)
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.hip.base import (
    HipComputeOp,
    Value,
    broadcast,
    f32_attr,
    fmt_shape,
    shape_of,
    static_mismatch,
    unit_attr,
)


@dataclass(frozen=True, slots=True)
class GemmAttributes:
    """`alpha * op(A) @ op(B) + beta * C`, op transposing where asked."""

    trans_a: bool
    trans_b: bool
    alpha: float
    beta: float


@irdl_op_definition
class MatmulOp(HipComputeOp):
    """numpy `matmul`: batched, with broadcasting of the batch dims."""

    name = "hip.hipblaslt.matmul"
    INS: ClassVar[tuple[str, ...]] = ("a", "b")
    RUNTIME_CALL: ClassVar[str] = "matmul"

    @classmethod
    def make(cls, ctx: Value, /, *, a: Value, b: Value, out: Value) -> Self:
        return cls._from_roles(ctx, {"a": a, "b": b, "out": out})

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        a, b = shapes
        a2 = (1, *a) if len(a) == 1 else a
        b2 = (*b, 1) if len(b) == 1 else b
        batch = broadcast(a2[:-2], b2[:-2])
        if batch is None:
            return None
        shape = [*batch, *a2[-2:-1], *b2[-1:]]
        if len(b) == 1:
            shape.pop()
        if len(a) == 1:
            shape.pop(-1 if len(b) == 1 else -2)
        return tuple(shape)

    def verify_shapes(self) -> None:
        a, b = (shape_of(v) for v in self.inputs)
        out = shape_of(self.outputs[0])
        if len(a) == 0 or len(b) == 0:
            raise VerifyException(f"'{self.name}' ins operands must have rank >= 1")
        k_b = b[-2] if len(b) >= 2 else b[-1]
        if static_mismatch(a[-1], k_b):
            raise VerifyException(
                f"'{self.name}' K mismatch: ins operand 0 ({fmt_shape(a)}) has K = "
                f"{a[-1]} but ins operand 1 ({fmt_shape(b)}) has K = {k_b}"
            )
        batch = broadcast(a[:-2], b[:-2])
        if batch is None:
            raise VerifyException(
                f"'{self.name}' batch dims of {fmt_shape(a)} and {fmt_shape(b)} do not broadcast"
            )
        expected = list(batch)
        if len(a) >= 2:
            expected.append(a[-2])
        if len(b) >= 2:
            expected.append(b[-1])
        if len(expected) != len(out) or any(map(static_mismatch, expected, out)):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)} but "
                f"{fmt_shape(a)} x {fmt_shape(b)} gives {fmt_shape(expected)}"
            )


@irdl_op_definition
class GemmOp(HipComputeOp):
    """ONNX Gemm: `out = alpha * op(A) @ op(B) + beta * C`, C optional."""

    name = "hip.hipblaslt.gemm"
    INS: ClassVar[tuple[str, ...]] = ("a", "b", "c?")
    RUNTIME_CALL: ClassVar[str] = "gemm"

    trans_a = opt_prop_def(UnitAttr)
    trans_b = opt_prop_def(UnitAttr)
    alpha = opt_prop_def(FloatAttr)
    beta = opt_prop_def(FloatAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        a: Value,
        b: Value,
        c: Value | None = None,
        out: Value,
        trans_a: bool = False,
        trans_b: bool = False,
        alpha: float = 1.0,
        beta: float = 1.0,
    ) -> Self:
        """Attributes at their defaults are left out (`beta` without `c` too)."""
        return cls._from_roles(
            ctx,
            {"a": a, "b": b, "c": c, "out": out},
            {
                "trans_a": unit_attr(trans_a),
                "trans_b": unit_attr(trans_b),
                "alpha": f32_attr(alpha) if alpha != 1.0 else None,
                "beta": f32_attr(beta) if beta != 1.0 and c is not None else None,
            },
        )

    def runtime_attributes(self) -> GemmAttributes:
        return GemmAttributes(
            trans_a=self.trans_a is not None,
            trans_b=self.trans_b is not None,
            alpha=1.0 if self.alpha is None else float(self.alpha.value.data),
            beta=1.0 if self.beta is None else float(self.beta.value.data),
        )

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        a, b = shapes[0], shapes[1]
        m = a[1] if self.trans_a is not None else a[0]
        return (m, b[0] if self.trans_b is not None else b[1])

    def verify_shapes(self) -> None:
        a, b = shape_of(self.inputs[0]), shape_of(self.inputs[1])
        if len(a) != 2 or len(b) != 2:
            raise VerifyException(f"'{self.name}' A and B must be 2-D")
        m, k = (a[1], a[0]) if self.trans_a else a
        k_b, n = (b[1], b[0]) if self.trans_b else b
        if static_mismatch(k, k_b):
            raise VerifyException(
                f"'{self.name}' K mismatch: A gives K = {k} but B gives K = {k_b}"
            )
        out = shape_of(self.outputs[0])
        if len(out) != 2 or static_mismatch(out[0], m) or static_mismatch(out[1], n):
            raise VerifyException(
                f"'{self.name}' outs operand 0 has shape {fmt_shape(out)}, expected "
                f"{fmt_shape((m, n))}"
            )


OPS: tuple[type[Operation], ...] = (
    MatmulOp,
    GemmOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "GemmAttributes",
    "GemmOp",
    "MatmulOp",
]
