"""Attention and rotary embeddings (converted by `onnx_to_hip/attention.py`;
CPU in `backend/cpu_attention.py`, kernels in `backend/kernels/attention.h`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    opt_prop_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from xhip.dialects.constraints import AnyShapedTypeConstr
from xhip.dialects.hip.base import (
    HipComputeOp,
    HipIndexedComputeOp,
    Value,
    broadcast,
    f64_attr,
    fmt_shape,
    i64_attr,
    shape_of,
    static_mismatch,
    unit_attr,
)

ATTENTION_STAGES = ("scaled", "softcapped", "biased", "softmax")
"""What `hip.attention_softmax` writes, by its `stage`: ONNX Attention's
`qk_matmul_output_mode` 0 to 3."""


@dataclass(frozen=True, slots=True)
class AttentionAttributes:
    """`hip.attention_softmax`'s: `softcap` 0 for none, a window -1 for
    unbounded, `stage` one of `ATTENTION_STAGES`."""

    scale: float
    softcap: float
    causal: bool
    left_window: int
    right_window: int
    stage: str
    wide: bool


@dataclass(frozen=True, slots=True)
class RotaryAttributes:
    """`hip.rotary_embedding`'s: `num_heads` 0 where x is 4-D."""

    interleaved: bool
    rotary_dim: int
    num_heads: int


@irdl_op_definition
class AttentionSoftmaxOp(HipIndexedComputeOp):
    """ONNX Attention between its two matmuls, on scores (B, H, S, T): times
    `scale`, then `softcap * tanh(x / softcap)` (if `softcap`), plus the bias,
    then softmax along T. The bias is the mask (ins[1] if not i64: a bool one
    gives 0 where true and -inf where false, a float one is added; broadcast
    to (B, H, S, T') with T' <= T, the keys past T' masked), the causal
    frontier (`is_causal`: query i sees key j iff j <= i + offset) and the
    window (`left_window`/`right_window`, -1 unbounded, about i + offset),
    and `nonpad` (the i64 (B,) ins: key j of batch b masked from nonpad[b]
    on). offset is the one index operand (the cached keys) or, given
    nonpad, nonpad[b] - S. A row whose whole bias is -inf gives zeros.
    `stage` stops early (`ATTENTION_STAGES`). It computes in the element
    type, float16 in float32 under `wide` (`softmax_precision`)."""

    name = "hip.attention_softmax"
    INDEX: ClassVar[tuple[str, ...]] = ("past",)
    INS: ClassVar[tuple[str, ...]] = ("scores", "mask?", "nonpad?")
    RUNTIME_CALL: ClassVar[str] = "attention_softmax"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False
    IN_PLACE: ClassVar[bool] = True

    scale = prop_def(FloatAttr)
    softcap = opt_prop_def(FloatAttr)
    is_causal = opt_prop_def(UnitAttr)
    left_window = opt_prop_def(IntegerAttr)
    right_window = opt_prop_def(IntegerAttr)
    stage = opt_prop_def(IntegerAttr)
    wide = opt_prop_def(UnitAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        scores: Value,
        mask: Value | None = None,
        nonpad: Value | None = None,
        out: Value,
        past: Value,
        scale: float,
        softcap: float = 0.0,
        is_causal: bool = False,
        left_window: int = -1,
        right_window: int = -1,
        wide: bool = False,
        stage: int = len(ATTENTION_STAGES) - 1,
    ) -> Self:
        """Attributes at their defaults (no softcap, unbounded windows, the
        last stage) are left out."""
        roles = {"scores": scores, "mask": mask, "nonpad": nonpad, "out": out}
        return cls._from_roles(
            ctx,
            {**roles, "past": past},
            {
                "scale": f64_attr(scale),
                "softcap": f64_attr(softcap) if softcap > 0 else None,
                "is_causal": unit_attr(is_causal),
                "left_window": i64_attr(left_window) if left_window >= 0 else None,
                "right_window": i64_attr(right_window) if right_window >= 0 else None,
                "wide": unit_attr(wide),
                "stage": None
                if stage == len(ATTENTION_STAGES) - 1
                else i64_attr(stage),
            },
        )

    def absent_roles(self) -> frozenset[str]:
        """The mask and nonpad are told apart by type: nonpad alone is ins[1]."""
        return frozenset(["mask"] if self.mask() is None else [])

    def mask(self) -> SSAValue | None:
        return next((v for v in self.inputs[1:] if not _is_i64(v)), None)

    def nonpad(self) -> SSAValue | None:
        return next((v for v in self.inputs[1:] if _is_i64(v)), None)

    def stage_index(self) -> int:
        if self.stage is None:
            return len(ATTENTION_STAGES) - 1
        return self.stage.value.data

    def runtime_attributes(self) -> AttentionAttributes:
        left, right = self.left_window, self.right_window
        return AttentionAttributes(
            scale=self.scale.value.data,
            softcap=0.0 if self.softcap is None else self.softcap.value.data,
            causal=self.is_causal is not None,
            left_window=-1 if left is None else left.value.data,
            right_window=-1 if right is None else right.value.data,
            stage=ATTENTION_STAGES[self.stage_index()],
            wide=self.wide is not None,
        )

    def result_shape(self, *args: Any) -> tuple[int, ...] | None:
        """For (past, scores' shape, ...): the index value comes first."""
        return args[1]

    def verify_element_types(self) -> None:
        out = self.outputs[0].type
        assert AnyShapedTypeConstr.verifies(out)
        elt = out.get_element_type()
        types = [_attention_element(v) for v in self.inputs]
        if types[0] != elt:
            raise VerifyException(
                f"'{self.name}' ins operand 0 has element type {types[0]} but outs "
                f"operand 0 has {elt}"
            )
        masks = [t for t in types[1:] if t != IntegerType(64)]
        if len(masks) > 1 or len(types) - 1 - len(masks) > 1:
            raise VerifyException(
                f"'{self.name}' takes at most one mask and one i64 nonpad operand"
            )
        if masks and masks[0] not in (IntegerType(1), elt):
            raise VerifyException(
                f"'{self.name}' mask has element type {masks[0]}; i1 or {elt} is needed"
            )

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if len(src) != 4 or len(out) != 4 or any(map(static_mismatch, src, out)):
            raise VerifyException(
                f"'{self.name}' ins operand 0 ({fmt_shape(src)}) and outs operand 0 "
                f"({fmt_shape(out)}) must be the same 4-D shape"
            )
        mask, nonpad = self.mask(), self.nonpad()
        if mask is not None and mask is not self.inputs[1]:
            raise VerifyException(f"'{self.name}' the mask comes before nonpad")
        if mask is not None:
            shape = shape_of(mask)
            head = broadcast(src[:-1], shape[:-1])
            if not 1 <= len(shape) <= 4 or head is None or len(head) != 3:
                raise VerifyException(
                    f"'{self.name}' mask shape {fmt_shape(shape)} does not broadcast to "
                    f"{fmt_shape(src)}"
                )
        if nonpad is not None and len(shape_of(nonpad)) != 1:
            raise VerifyException(f"'{self.name}' nonpad must be 1-D")
        if not 0 <= self.stage_index() < len(ATTENTION_STAGES):
            raise VerifyException(f"'{self.name}' stage must be 0 to 3")


@dataclass(frozen=True, slots=True)
class FusedAttentionAttributes:
    """`hip.fused_attention`'s: the scores divided by `scale` (else times it)."""

    divide: bool


@irdl_op_definition
class FusedAttentionOp(HipComputeOp):
    """`softmax(q @ k * scale + mask) @ v` in one op, the scores never stored:
    q (..., S, D), k (..., D, T) (the keys transposed, as the first matmul
    takes them), v (..., T, Dv), out (..., S, Dv), batch dims broadcast as
    in `hip.hipblaslt.matmul`. The one-element `scale` multiplies the scores
    (`scaling = "mul"`) or divides them (`"div"`); the mask is added,
    broadcast to (..., S, T); softmax along T; under `nan_fill`, NaNs of the
    softmax (the rows it leaves all NaN: a fully masked row) become the
    one-element `fill`, as a `where(isnan(p), fill, p)` would make them.
    `biased` names the operands (of "qkv") read with a bias added, the
    bias broadcast to the operand as the mask is to the scores: the Q, K, V
    projections' bias adds that `hip-fold-attention-bias` folds in.
    Made only by `hip-fuse-attention` (docs/passes.md)."""

    name = "hip.fused_attention"
    INS: ClassVar[tuple[str, ...]] = (
        "q",
        "k",
        "v",
        "scale?",
        "mask?",
        "fill?",
        "q_bias?",
        "k_bias?",
        "v_bias?",
    )
    RUNTIME_CALL: ClassVar[str] = "fused_attention"
    IN_PLACE: ClassVar[bool] = True
    """The memory plan may give `outs` the buffer of q, dead after the first
    matmul: the runtimes copy an input that overlaps `outs` first."""

    scaling = opt_prop_def(StringAttr)
    nan_fill = opt_prop_def(UnitAttr)
    biased = opt_prop_def(StringAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        q: Value,
        k: Value,
        v: Value,
        scale: Value | None = None,
        divide: bool = False,
        mask: Value | None = None,
        fill: Value | None = None,
        q_bias: Value | None = None,
        k_bias: Value | None = None,
        v_bias: Value | None = None,
        out: Value,
    ) -> Self:
        roles = {"q": q, "k": k, "v": v, "scale": scale, "mask": mask, "fill": fill}
        biases = {"q_bias": q_bias, "k_bias": k_bias, "v_bias": v_bias}
        biased = "".join(r[0] for r, x in biases.items() if x is not None)
        scaling = None if scale is None else StringAttr("div" if divide else "mul")
        return cls._from_roles(
            ctx,
            {**roles, **biases, "out": out},
            {
                "scaling": scaling,
                "nan_fill": unit_attr(fill is not None),
                "biased": StringAttr(biased) if biased else None,
            },
        )

    def absent_roles(self) -> frozenset[str]:
        """The scale and the fill are told by properties, the mask by the count."""
        absent = {"scale"} if self.scaling is None else set[str]()
        if self.nan_fill is None:
            absent.add("fill")
        biased = self.biased_operands()
        absent.update(f"{x}_bias" for x in "qkv" if x not in biased)
        if len(self.inputs) == 3 + (self.scaling is not None) + (
            self.nan_fill is not None
        ) + len(biased):
            absent.add("mask")
        return frozenset(absent)

    def biased_operands(self) -> str:
        """Which of q, k, v are read with a bias added ("" when none)."""
        return "" if self.biased is None else self.biased.data

    def runtime_attributes(self) -> FusedAttentionAttributes:
        scaling = self.scaling
        return FusedAttentionAttributes(
            divide=scaling is not None and scaling.data == "div"
        )

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        q, _, v = shapes[:3]
        return (*q[:-1], v[-1])

    def verify_element_types(self) -> None:
        elt = _attention_element(self.outputs[0])
        if not isinstance(elt, AnyFloat):
            raise VerifyException(f"'{self.name}' computes in floats, not {elt}")
        for i, value in enumerate(self.inputs):
            if _attention_element(value) != elt:
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has element type "
                    f"{_attention_element(value)} but outs operand 0 has {elt}"
                )

    def verify_shapes(self) -> None:
        if self.scaling is not None and self.scaling.data not in ("mul", "div"):
            raise VerifyException(f'\'{self.name}\' scaling must be "mul" or "div"')
        biased = self.biased_operands()
        if self.biased is not None and (
            not biased or "".join(x for x in "qkv" if x in biased) != biased
        ):
            raise VerifyException(
                f"'{self.name}' biased must name some of q, k, v in order"
            )
        extra = len(self.inputs) - 3
        if extra < (self.scaling is not None) + (self.nan_fill is not None) + len(
            biased
        ):
            raise VerifyException(
                f"'{self.name}' lacks the operands its properties name"
            )
        roles = self.bound_roles()
        q, k, v = (shape_of(self.inputs[i]) for i in range(3))
        out = shape_of(self.outputs[0])
        if not (len(q) == len(k) == len(v) == len(out) >= 2):
            raise VerifyException(
                f"'{self.name}' q, k, v and out must have one rank >= 2, not "
                f"{', '.join(map(fmt_shape, (q, k, v, out)))}"
            )
        pairs = ((q[-1], k[-2], "D"), (k[-1], v[-2], "T"), (q[-2], out[-2], "S"))
        for a, b, what in (*pairs, (v[-1], out[-1], "Dv")):
            if static_mismatch(a, b):
                raise VerifyException(f"'{self.name}' {what} mismatch: {a} and {b}")
        for role in ("scale", "fill"):
            value = roles[role]
            if isinstance(value, SSAValue) and any(d != 1 for d in shape_of(value)):
                raise VerifyException(f"'{self.name}' {role} must have one element")
        for name, operand in (("q", q), ("k", k), ("v", v)):
            bias = roles[f"{name}_bias"]
            if isinstance(bias, SSAValue) and (
                len(shape_of(bias)) > len(operand)
                or broadcast(operand, shape_of(bias)) is None
            ):
                raise VerifyException(
                    f"'{self.name}' {name} bias shape {fmt_shape(shape_of(bias))} "
                    f"does not broadcast to {name} {fmt_shape(operand)}"
                )
        mask = roles["mask"]
        if isinstance(mask, SSAValue):
            shape = shape_of(mask)
            scores = (*out[:-1], k[-1])
            if len(shape) > len(scores) or broadcast(scores, shape) is None:
                raise VerifyException(
                    f"'{self.name}' mask shape {fmt_shape(shape)} does not broadcast "
                    f"to the scores {fmt_shape(scores)}"
                )


@irdl_op_definition
class RotaryEmbeddingOp(HipComputeOp):
    """ONNX RotaryEmbedding: `ins` (x, cos, sin[, position_ids (B, S) i64]),
    x (B, H, S, D) or, with `num_heads`, (B, S, H * D); cos and sin (B, S,
    R / 2), or (P, R / 2) indexed by position_ids. The first `rotary_dim`
    (R) of each head's D rotate, pairs (k, k + R / 2), or (2k, 2k + 1)
    `interleaved`; the rest are copied."""

    name = "hip.rotary_embedding"
    INS: ClassVar[tuple[str, ...]] = ("x", "cos", "sin", "position_ids?")
    RUNTIME_CALL: ClassVar[str] = "rotary_embedding"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False

    interleaved = opt_prop_def(UnitAttr)
    rotary_dim = prop_def(IntegerAttr)
    num_heads = opt_prop_def(IntegerAttr)

    @classmethod
    def make(
        cls,
        ctx: Value,
        /,
        *,
        x: Value,
        cos: Value,
        sin: Value,
        position_ids: Value | None = None,
        out: Value,
        interleaved: bool = False,
        rotary_dim: int,
        num_heads: int | None = None,
    ) -> Self:
        """`num_heads` only for a 3-D `x` (B, S, H * D)."""
        roles = {"x": x, "cos": cos, "sin": sin, "position_ids": position_ids}
        return cls._from_roles(
            ctx,
            {**roles, "out": out},
            {
                "interleaved": unit_attr(interleaved),
                "rotary_dim": i64_attr(rotary_dim),
                "num_heads": None if num_heads is None else i64_attr(num_heads),
            },
        )

    def runtime_attributes(self) -> RotaryAttributes:
        return RotaryAttributes(
            interleaved=self.interleaved is not None,
            rotary_dim=self.rotary_dim.value.data,
            num_heads=0 if self.num_heads is None else self.num_heads.value.data,
        )

    def result_shape(self, *shapes: tuple[int, ...]) -> tuple[int, ...] | None:
        return shapes[0]

    def verify_element_types(self) -> None:
        elt = _attention_element(self.outputs[0])
        for i, value in enumerate(self.inputs[:3]):
            if _attention_element(value) != elt:
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has element type "
                    f"{_attention_element(value)} but outs operand 0 has {elt}"
                )
        if len(self.inputs) == 4 and _attention_element(self.inputs[3]) != IntegerType(
            64
        ):
            raise VerifyException(f"'{self.name}' position_ids must be i64")

    def verify_shapes(self) -> None:
        src, out = shape_of(self.inputs[0]), shape_of(self.outputs[0])
        if (
            len(src) not in (3, 4)
            or len(src) != len(out)
            or any(map(static_mismatch, src, out))
        ):
            raise VerifyException(
                f"'{self.name}' ins operand 0 ({fmt_shape(src)}) and outs operand 0 "
                f"({fmt_shape(out)}) must be the same 3-D or 4-D shape"
            )
        if len(src) == 3 and (self.num_heads is None or self.num_heads.value.data < 1):
            raise VerifyException(f"'{self.name}' a 3-D input needs num_heads")
        rotary = self.rotary_dim.value.data
        if rotary < 2 or rotary % 2:
            raise VerifyException(f"'{self.name}' rotary_dim must be even and >= 2")
        want = 2 if len(self.inputs) == 4 else 3
        for i in (1, 2):
            shape = shape_of(self.inputs[i])
            if len(shape) != want or static_mismatch(shape[-1], rotary // 2):
                raise VerifyException(
                    f"'{self.name}' ins operand {i} has shape {fmt_shape(shape)}; "
                    f"{want}-D with last dim {rotary // 2} is needed"
                )


def _attention_element(value: SSAValue) -> Attribute:
    shaped = value.type
    assert AnyShapedTypeConstr.verifies(shaped)
    return shaped.get_element_type()


def _is_i64(value: SSAValue) -> bool:
    return _attention_element(value) == IntegerType(64)


OPS: tuple[type[Operation], ...] = (
    AttentionSoftmaxOp,
    RotaryEmbeddingOp,
    FusedAttentionOp,
)
"""This family's ops, in the order the dialect lists them (a new op goes at
the end: the kernels number elementwise ops in this order)."""

__all__ = [
    "ATTENTION_STAGES",
    "AttentionAttributes",
    "AttentionSoftmaxOp",
    "FusedAttentionAttributes",
    "FusedAttentionOp",
    "RotaryAttributes",
    "RotaryEmbeddingOp",
]
