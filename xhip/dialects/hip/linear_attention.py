"""`hip.linear_attention`: ONNX LinearAttention's recurrence (converted by
`onnx_to_hip/linear_attention.py`; CPU in `backend/cpu_linear_attention.py`,
the kernel in `backend/kernels/linear_attention.h`). A state per KV head is
updated token by token, which no library call does; CausalConvWithState
needs no op of its own (it is a Concat, a depthwise Conv and a Slice)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, UnitAttr
from xdsl.ir import Operation
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.constraints import AnyShapedTypeConstr
from xhip.dialects.hip.base import (
    HipComputeOp,
    Value,
    f64_attr,
    fmt_shape,
    i64_attr,
    shape_of,
    static_mismatch,
    unit_attr,
)


@dataclass(frozen=True, slots=True)
class LinearAttentionAttributes:
    """The head counts, the output scale, and the update rule as its two
    halves: `gated` (decay the state by exp(decay) first) and `delta` (write
    beta * (v - S^T k) rather than v)."""

    q_num_heads: int
    kv_num_heads: int
    scale: float
    gated: bool
    delta: bool


@irdl_op_definition
class LinearAttentionOp(HipComputeOp):
    """ONNX LinearAttention: `ins` (query (B, T, Hq * dk), key (B, T, Hkv *
    dk), value (B, T, Hkv * dv)[, past (B, Hkv, dk, dv)][, decay (B, T, Hkv *
    dk or Hkv) if `gated`][, beta (B, T, Hkv or 1) if `delta`]), `outs` (out
    (B, T, Hq * dv), present (B, Hkv, dk, dv)). Per step t:
    S = exp(g_t) * S (gated); v = beta_t * (v_t - S^T k_t) (delta);
    S += k_t v^T; o_t = scale * q_t^T S, query head h reading KV head
    h / (Hq / Hkv). The state is float32 (float64 for float64 operands)."""

    name = "hip.linear_attention"
    INS: ClassVar[tuple[str, ...]] = (
        "query",
        "key",
        "value",
        "past?",
        "decay?",
        "beta?",
    )
    OUTS: ClassVar[tuple[str, ...]] = ("out", "present")
    RUNTIME_CALL: ClassVar[str] = "linear_attention"

    q_num_heads = prop_def(IntegerAttr)
    kv_num_heads = prop_def(IntegerAttr)
    scale = prop_def(FloatAttr[AnyFloat])
    with_past = opt_prop_def(UnitAttr)
    gated = opt_prop_def(UnitAttr)
    delta = opt_prop_def(UnitAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        query: Value,
        key: Value,
        value: Value,
        past: Value | None = None,
        decay: Value | None = None,
        beta: Value | None = None,
        out: Value,
        present: Value,
        q_num_heads: int,
        kv_num_heads: int,
        scale: float,
    ) -> Self:
        """The rule follows from which of decay and beta are given."""
        roles = {
            "query": query,
            "key": key,
            "value": value,
            "past": past,
            "decay": decay,
            "beta": beta,
        }
        return cls._from_roles(
            ctx,
            {**roles, "out": out, "present": present},
            {
                "q_num_heads": i64_attr(q_num_heads),
                "kv_num_heads": i64_attr(kv_num_heads),
                "scale": f64_attr(scale),
                "with_past": unit_attr(past is not None),
                "gated": unit_attr(decay is not None),
                "delta": unit_attr(beta is not None),
            },
        )

    def absent_roles(self) -> frozenset[str]:
        """Told by the properties: the past, the decay (gated), the beta (delta)."""
        flags = {"past": self.with_past, "decay": self.gated, "beta": self.delta}
        return frozenset(role for role, flag in flags.items() if flag is None)

    def runtime_attributes(self) -> LinearAttentionAttributes:
        return LinearAttentionAttributes(
            q_num_heads=self.q_num_heads.value.data,
            kv_num_heads=self.kv_num_heads.value.data,
            scale=self.scale.value.data,
            gated=self.gated is not None,
            delta=self.delta is not None,
        )

    def verify_element_types(self) -> None:
        elt = self.outputs[0].type
        assert AnyShapedTypeConstr.verifies(elt)
        element = elt.get_element_type()
        for i, value in enumerate((*self.inputs, self.outputs[1])):
            assert AnyShapedTypeConstr.verifies(value.type)
            if value.type.get_element_type() != element:
                raise VerifyException(
                    f"'{self.name}' operand {i} has element type "
                    f"{value.type.get_element_type()} but out has {element}"
                )

    def verify_shapes(self) -> None:
        hq, hkv = self.q_num_heads.value.data, self.kv_num_heads.value.data
        if hq <= 0 or hkv <= 0 or hq % hkv:
            raise VerifyException(
                f"'{self.name}' q_num_heads ({hq}) must be a positive multiple of "
                f"kv_num_heads ({hkv})"
            )
        q, k, v = (shape_of(x) for x in self.inputs[:3])
        out, present = (shape_of(x) for x in self.outputs)
        if len(q) != 3 or len(k) != 3 or len(v) != 3 or len(out) != 3:
            raise VerifyException(
                f"'{self.name}' needs 3-D query, key, value and out, not "
                f"{fmt_shape(q)}, {fmt_shape(k)}, {fmt_shape(v)}, {fmt_shape(out)}"
            )
        if len(present) != 4 or any(
            static_mismatch(a, b)
            for a, b in ((q[0], k[0]), (q[0], v[0]), (q[0], out[0]), (q[1], out[1]))
        ):
            raise VerifyException(
                f"'{self.name}' query {fmt_shape(q)}, key {fmt_shape(k)}, value "
                f"{fmt_shape(v)}, out {fmt_shape(out)} and present "
                f"{fmt_shape(present)} disagree on B or T"
            )
        if self.with_past is not None:
            past = shape_of(self.inputs[3])
            if len(past) != 4 or any(map(static_mismatch, past, present)):
                raise VerifyException(
                    f"'{self.name}' past {fmt_shape(past)} must be present's "
                    f"{fmt_shape(present)}"
                )


OPS: tuple[type[Operation], ...] = (LinearAttentionOp,)
"""This family's ops, in the order the dialect lists them."""

__all__ = ["LinearAttentionAttributes", "LinearAttentionOp"]
