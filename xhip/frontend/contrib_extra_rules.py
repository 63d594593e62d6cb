"""Result types of ONNX Runtime's `com.microsoft` QuantizeLinear and
DequantizeLinear (what `quantize_static` writes with `UseQDQContribOps` or
16-bit activations), which `contrib_rules.RULES` takes in: x's shape, and
y_zero_point's type (uint8 without one) or x_scale's."""

from __future__ import annotations

from collections.abc import Sequence

from onnx import NodeProto, TensorProto

from xhip.frontend.value_info import ValueInfo


def _input(ins: Sequence[ValueInfo | None], i: int) -> ValueInfo | None:
    return ins[i] if i < len(ins) else None


def _like_x(ins: Sequence[ValueInfo | None], elem: int) -> list[ValueInfo | None]:
    x = _input(ins, 0)
    if x is None or x.shape is None or not elem:
        return [None]
    return [ValueInfo(elem, list(x.shape), list(x.params))]


def quantize_linear(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """y: x's shape, y_zero_point's type (uint8 when it is left out)."""
    del results
    has_zero = len(node.input) > 2 and bool(node.input[2])
    zero = _input(ins, 2) if has_zero else None
    if has_zero and zero is None:
        return [None]
    return _like_x(ins, zero.elem if zero is not None else TensorProto.UINT8)


def dequantize_linear(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """y: x's shape, x_scale's type."""
    del node, results
    scale = _input(ins, 1)
    return _like_x(ins, scale.elem if scale is not None else 0)


QDQ_RULES = {
    "QuantizeLinear": quantize_linear,
    "DequantizeLinear": dequantize_linear,
}
