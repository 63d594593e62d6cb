"""GroupQueryAttention's own pieces: the positions of a step and its KV cache
(converted by `onnx_to_hip/gqa.py`; CPU in `backend/cpu_gqa.py`, kernels in
`backend/kernels/gqa.h`). The attention itself is `hip.attention_softmax`
between two matmuls, the rotation `hip.rotary_embedding`."""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.constraints import AnyShapedTypeConstr
from xhip.dialects.hip.base import (
    HipComputeOp,
    HipIndexedComputeOp,
    Value,
    fmt_shape,
    shape_of,
    static_mismatch,
)


def _element(value: SSAValue) -> Attribute:
    shaped = value.type
    assert AnyShapedTypeConstr.verifies(shaped)
    return shaped.get_element_type()


@irdl_op_definition
class GqaPositionsOp(HipIndexedComputeOp):
    """Where each query row of a GroupQueryAttention step is: `ins` (seqlens
    (B,) i32, ORT's `seqlens_k`, the keys after the step minus one), `outs`
    (positions (B, S) i64, lengths (B,) i64). Batch b had `past` = 0 keys
    before the step if `first` (the first prompt) and else seqlens[b] + 1 -
    S; positions[b, s] = past + s and lengths[b] = past + S."""

    name = "hip.gqa_positions"
    INDEX: ClassVar[tuple[str, ...]] = ("first",)
    INS: ClassVar[tuple[str, ...]] = ("seqlens",)
    OUTS: ClassVar[tuple[str, ...]] = ("positions", "lengths")
    RUNTIME_CALL: ClassVar[str] = "gqa_positions"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        seqlens: Value,
        positions: Value,
        lengths: Value,
        first: Value,
    ) -> Self:
        roles = {"seqlens": seqlens, "positions": positions, "lengths": lengths}
        return cls._from_roles(ctx, {**roles, "first": first})

    def verify_element_types(self) -> None:
        want = (IntegerType(32), IntegerType(64), IntegerType(64))
        for value, element in zip((*self.inputs, *self.outputs), want, strict=True):
            if _element(value) != element:
                raise VerifyException(
                    f"'{self.name}' takes i32 seqlens and gives i64 positions and "
                    f"lengths, not {_element(value)}"
                )

    def verify_shapes(self) -> None:
        seqlens, positions, lengths = (
            shape_of(v) for v in (*self.inputs, *self.outputs)
        )
        if (
            len(seqlens) != 1
            or len(positions) != 2
            or len(lengths) != 1
            or static_mismatch(seqlens[0], positions[0])
            or static_mismatch(seqlens[0], lengths[0])
        ):
            raise VerifyException(
                f"'{self.name}' needs seqlens (B), positions (B, S) and lengths "
                f"(B), not {fmt_shape(seqlens)}, {fmt_shape(positions)}, "
                f"{fmt_shape(lengths)}"
            )


@irdl_op_definition
class KvCacheUpdateOp(HipComputeOp):
    """A GroupQueryAttention step's present KV cache, as ORT's CPU EP writes
    it: `ins` (new (B, S, H, D), lengths (B,) i64[, past (B, H, P, D)]),
    `outs` (present (B, H, T, D)). With past_b = lengths[b] - S, present
    holds past's first past_b rows, then new's S, then zeros."""

    name = "hip.kv_cache_update"
    INS: ClassVar[tuple[str, ...]] = ("new", "lengths", "past?")
    OUTS: ClassVar[tuple[str, ...]] = ("present",)
    RUNTIME_CALL: ClassVar[str] = "kv_cache_update"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        new: Value,
        lengths: Value,
        past: Value | None = None,
        present: Value,
    ) -> Self:
        roles = {"new": new, "lengths": lengths, "past": past}
        return cls._from_roles(ctx, {**roles, "present": present})

    def verify_element_types(self) -> None:
        elt = _element(self.outputs[0])
        caches = [self.inputs[0], *self.inputs[2:]]
        if any(_element(v) != elt for v in caches):
            raise VerifyException(
                f"'{self.name}' new and past must have the element type of "
                f"present, {elt}"
            )
        if _element(self.inputs[1]) != IntegerType(64):
            raise VerifyException(f"'{self.name}' lengths must be i64")

    def verify_shapes(self) -> None:
        new, lengths = shape_of(self.inputs[0]), shape_of(self.inputs[1])
        present = shape_of(self.outputs[0])
        bnsh = (
            (present[0], present[2], present[1], present[3])
            if len(present) == 4
            else ()
        )
        if (
            len(new) != 4
            or len(present) != 4
            or len(lengths) != 1
            or any(
                static_mismatch(a, b)
                for i, (a, b) in enumerate(zip(new, bnsh))
                if i != 1
            )
            or static_mismatch(lengths[0], present[0])
        ):
            raise VerifyException(
                f"'{self.name}' needs new (B, S, H, D), lengths (B) and present "
                f"(B, H, T, D), not {fmt_shape(new)}, {fmt_shape(lengths)}, "
                f"{fmt_shape(present)}"
            )
        if len(self.inputs) == 3:
            past = shape_of(self.inputs[2])
            if len(past) != 4 or any(
                static_mismatch(past[i], present[i]) for i in (0, 1, 3)
            ):
                raise VerifyException(
                    f"'{self.name}' past {fmt_shape(past)} must be (B, H, P, D) of "
                    f"present {fmt_shape(present)}"
                )


OPS: tuple[type[Operation], ...] = (GqaPositionsOp, KvCacheUpdateOp)
"""This family's ops, in the order the dialect lists them."""

__all__ = ["GqaPositionsOp", "KvCacheUpdateOp"]
