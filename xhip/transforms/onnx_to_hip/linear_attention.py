"""The recurrent-state ops of ai.onnx opset 27.

- `LinearAttention` -> `hip.linear_attention`, the recurrence itself: no
  library call updates a state token by token. The rule is the op's decay
  (gated) and beta (delta) operands; a zero `scale` is `1 / sqrt(dk)`.
- `CausalConvWithState` is the composition its spec states
  (`compose.Parts`): the input after past_state (a Concat) or after k - 1
  zeros (a Pad), a depthwise Conv (`group` = channels) with the bias, a
  Swish for the `silu`/`swish` activation (one rounding, as onnx's reference
  rounds the activated value once), and present_state the last k - 1 steps
  of the padded input (a Slice). A float16 conv runs in float32 between two
  Casts (the GPU runtimes' conv is float32 only), rounded once, as the
  reference rounds its conv output.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    FloatAttr,
    TensorType,
    f16,
    f32,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip.compose import Parts, PatternFactory, si64
from xhip.transforms.onnx_to_hip.compute import (
    ConvertCast,
    ConvertConcat,
    elementwise_pattern,
)
from xhip.transforms.onnx_to_hip.conv import ConvertConv
from xhip.transforms.onnx_to_hip.pad import ConvertPad
from xhip.transforms.onnx_to_hip.slice import ConvertSlice
from xhip.transforms.onnx_to_hip.support import (
    OnnxPattern,
    Unsupported,
    build_init,
    context_of,
    ranked,
)

UPDATE_RULES = {
    "linear": (False, False),
    "gated": (True, False),
    "delta": (False, True),
    "gated_delta": (True, True),
}
"""LinearAttention's `update_rule`s: whether each decays (gated) and
corrects by the retrieved value (delta)."""

ACTIVATIONS = ("none", "silu", "swish")
"""CausalConvWithState's `activation`s (`swish` is `silu`'s other name)."""


def _float_tensor(value: SSAValue, what: str) -> TensorType[Attribute]:
    tensor_type = ranked(value, what)
    if not isinstance(tensor_type.get_element_type(), AnyFloat):
        raise Unsupported(f"{what} must be a float tensor, got {value.type}")
    return tensor_type


def _static_last(tensor_type: TensorType[Attribute], what: str) -> int:
    shape = tensor_type.get_shape()
    if len(shape) != 3 or shape[2] == DYNAMIC_INDEX:
        raise Unsupported(
            f"{what} must be 3-D with a static last dim, got {tensor_type}"
        )
    return shape[2]


class ConvertLinearAttention(OnnxPattern[onnx.LinearAttentionOp]):
    def convert(self, op: onnx.LinearAttentionOp, rewriter: PatternRewriter) -> None:
        rule = op.get_update_rule()
        if rule not in UPDATE_RULES:
            raise Unsupported(
                f"update_rule {rule!r} is not one of {', '.join(UPDATE_RULES)}"
            )
        gated, delta = UPDATE_RULES[rule]
        for given, wanted, name in (
            (op.decay, gated, "decay"),
            (op.beta, delta, "beta"),
        ):
            if (given is not None) != wanted:
                need = "needs" if wanted else "takes no"
                raise Unsupported(f"update_rule {rule!r} {need} {name}")
        if op.q_num_heads is None or op.kv_num_heads is None:
            raise Unsupported("q_num_heads and kv_num_heads are required")
        hq, hkv = op.get_int("q_num_heads"), op.get_int("kv_num_heads")
        if hq <= 0 or hkv <= 0 or hq % hkv:
            raise Unsupported(
                f"q_num_heads ({hq}) must be a positive multiple of kv_num_heads "
                f"({hkv})"
            )
        query = _float_tensor(op.query, "query")
        element = query.get_element_type()
        operands = [op.query, op.key, op.value, op.past_state, op.decay, op.beta]
        names = ("query", "key", "value", "past_state", "decay", "beta")
        for value, name in zip(operands, names, strict=True):
            if value is not None and _float_tensor(value, name).get_element_type() != (
                element
            ):
                raise Unsupported(
                    f"{name} has element type {ranked(value, name).get_element_type()}"
                    f", not query's {element} (a state type other than the "
                    "inputs' is not supported)"
                )
        qd = _static_last(query, "query")
        kd = _static_last(ranked(op.key, "key"), "key")
        vd = _static_last(ranked(op.value, "value"), "value")
        if qd % hq or kd % hkv or vd % hkv or qd // hq != kd // hkv:
            raise Unsupported(
                f"query's last dim {qd} and key's {kd} must be q_num_heads ({hq}) "
                f"and kv_num_heads ({hkv}) heads of one size, value's {vd} "
                f"kv_num_heads heads"
            )
        dk = qd // hq
        if op.decay is not None:
            last = _static_last(ranked(op.decay, "decay"), "decay")
            if last not in (hkv, hkv * dk):
                raise Unsupported(
                    f"decay's last dim {last} must be kv_num_heads ({hkv}) or "
                    f"kv_num_heads * dk ({hkv * dk})"
                )
        if op.beta is not None:
            last = _static_last(ranked(op.beta, "beta"), "beta")
            if last not in (hkv, 1):
                raise Unsupported(
                    f"beta's last dim {last} must be kv_num_heads ({hkv}) or 1"
                )
        scale = op.get_float("scale") or 1.0 / math.sqrt(dk)
        out_type = _float_tensor(op.output, "the output")
        present_type = _float_tensor(op.present_state, "present_state")
        out = build_init(
            rewriter, self.state, op, out_type, [(op.query, 0), (op.query, 1)]
        )
        present = build_init(rewriter, self.state, op, present_type, [(op.query, 0)])
        new = hip.LinearAttentionOp.make(
            context_of(op),
            query=op.query,
            key=op.key,
            value=op.value,
            past=op.past_state,
            decay=op.decay,
            beta=op.beta,
            out=out,
            present=present,
            q_num_heads=hq,
            kv_num_heads=hkv,
            scale=scale,
        )
        rewriter.replace(op, [new], list(new.results))


PATTERNS: dict[type[onnx.OnnxOp], PatternFactory] = {
    onnx.ConcatOp: ConvertConcat,
    onnx.PadOp: ConvertPad,
    onnx.ConvOp: ConvertConv,
    onnx.SwishOp: elementwise_pattern(onnx.SwishOp),
    onnx.SliceOp: ConvertSlice,
    onnx.CastOp: ConvertCast,
}
"""The ops CausalConvWithState is made of, and their patterns."""


def _to_f32(parts: Parts, value: SSAValue) -> SSAValue:
    shape = ranked(value, "an operand").get_shape()
    return parts.insert(onnx.CastOp, [value], TensorType(f32, shape), {"to": f32})


class ConvertCausalConvWithState(OnnxPattern[onnx.CausalConvWithStateOp]):
    def convert(
        self, op: onnx.CausalConvWithStateOp, rewriter: PatternRewriter
    ) -> None:
        activation = op.get_activation()
        if activation not in ACTIVATIONS:
            raise Unsupported(
                f"activation {activation!r} is not one of {', '.join(ACTIVATIONS)}"
            )
        x = _float_tensor(op.input, "the input")
        w = ranked(op.weight, "weight").get_shape()
        shape = x.get_shape()
        if len(shape) != 3 or len(w) != 3 or w[1] != 1 or w[2] == DYNAMIC_INDEX:
            raise Unsupported(
                f"the input must be (B, C, L) and weight (C, 1, k) with a static k, "
                f"got {op.input.type} and {op.weight.type}"
            )
        channels, k = shape[1], w[2]
        if channels == DYNAMIC_INDEX:
            raise Unsupported("the channel dim must be static (Conv's group)")
        if k < 1:
            raise Unsupported(f"the kernel size must be at least 1, got {k}")
        element = x.get_element_type()
        parts = Parts(self, op, rewriter, PATTERNS)
        length = shape[2] + k - 1 if shape[2] != DYNAMIC_INDEX else DYNAMIC_INDEX
        padded_type = TensorType(element, [shape[0], channels, length])
        padded = op.input
        if k > 1 and op.past_state is not None:
            padded = parts.insert(
                onnx.ConcatOp,
                [[op.past_state, op.input]],
                padded_type,
                {"axis": si64(2)},
            )
        elif k > 1:
            pads = parts.ints([0, 0, k - 1, 0, 0, 0])
            padded = parts.insert(onnx.PadOp, [op.input, pads, [], []], padded_type)
        conv_in, weight, bias = padded, op.weight, op.bias
        if element == f16:  # the GPU runtimes' conv is float32; one rounding
            conv_in, weight = _to_f32(parts, padded), _to_f32(parts, op.weight)
            bias = None if bias is None else _to_f32(parts, bias)
        output = parts.insert(
            onnx.ConvOp,
            [conv_in, weight, [] if bias is None else [bias]],
            TensorType(ranked(conv_in, "the input").get_element_type(), shape),
            {"group": si64(channels), "kernel_shape": ArrayAttr([si64(k)])},
        )
        if element == f16:
            output = parts.insert(onnx.CastOp, [output], op.output.type, {"to": f16})
        if activation != "none":
            alpha: dict[str, Attribute] = {"alpha": FloatAttr(1.0, f32)}
            output = parts.insert(onnx.SwishOp, [output], op.output.type, alpha)
        end = 2**63 - 1  # the last k - 1 steps; none for k = 1
        starts, ends, axes = (parts.ints([v]) for v in (1 - k or end, end, 2))
        present = parts.insert(
            onnx.SliceOp,
            [padded, starts, ends, [axes], []],
            op.present_state.type,
        )
        parts.finish([output, present])
