"""Generators of the quantization ops (`onnx_to_hip/quantize.py`): each
quantizes a float value and reads it back as float, so later ops may use it.
A per-axis scale runs along a static dim; the zero points are constants."""

from __future__ import annotations

import numpy as np
from onnx import helper

from xhip.testing.fuzz.graph import MS, Generator, Graph, Value, to_float

_TYPES = (np.uint8, np.int8)


def _qdq(g: Graph, domain: str = "") -> Value | None:
    """QuantizeLinear then DequantizeLinear, per tensor or per axis, to uint8
    or int8 (16-bit types need opset 21), with a scale that keeps most values
    in range; ai.onnx's or ONNX Runtime's (`domain`)."""
    x = g.pick()
    if x is None:
        return None
    t = _TYPES[int(g.rng.integers(len(_TYPES)))]
    info = np.iinfo(t)
    axes = [d for d, n in enumerate(x.shape) if isinstance(n, int)]
    per_axis = bool(axes) and g.rng.random() < 0.5
    count = 1
    axis = 0
    if per_axis:
        axis = axes[int(g.rng.integers(len(axes)))]
        size = x.shape[axis]
        assert isinstance(size, int)
        count = size
    steps = int(info.max) - int(info.min)
    scale = (g.rng.uniform(4.0, 8.0, count) / steps).astype(np.float32)
    mid = (int(info.min) + int(info.max)) // 2
    zero = g.rng.integers(mid - steps // 8, mid + steps // 8, count).astype(t)
    shape = (count,) if per_axis else ()
    names = [
        g.constant(scale.reshape(shape), "scale"),
        g.constant(zero.reshape(shape), "zp"),
    ]
    attrs = (
        {"axis": axis - len(x.shape) if g.rng.random() < 0.5 else axis}
        if per_axis
        else {}
    )
    q = g.add("QuantizeLinear", [x.name, *names], x.shape, **attrs)
    q_node = g.nodes[-1]
    g.values.pop()
    out = g.add("DequantizeLinear", [q.name, *names], x.shape, **attrs)
    q_node.domain = g.nodes[-1].domain = domain
    return out


def _ms_qdq(g: Graph) -> Value | None:
    return _qdq(g, MS)


def dynamic(g: Graph, x: Value) -> tuple[str, str, str]:
    """DynamicQuantizeLinear of `x`: its (y, scale, zero) names."""
    names = [g.fresh("dq"), g.fresh("dq_scale"), g.fresh("dq_zp")]
    g.nodes.append(
        helper.make_node("DynamicQuantizeLinear", [x.name], names, name=names[0])
    )
    return names[0], names[1], names[2]


def _dynamic_qdq(g: Graph) -> Value | None:
    """DynamicQuantizeLinear, then DequantizeLinear with its scale and zero point."""
    x = g.pick()
    if x is None:
        return None
    y, scale, zero = dynamic(g, x)
    return g.add("DequantizeLinear", [y, scale, zero], x.shape)


def _matmul_integer(g: Graph) -> Value | None:
    """uint8 activations (DynamicQuantizeLinear) times int8 or uint8 constant
    weights, with constant zero points (scalar or per column); int32 cast
    back to float."""
    x = g.pick()
    if x is None or len(x.shape) < 2 or not isinstance(x.shape[-1], int):
        return None
    y, _, zero = dynamic(g, x)
    k, n = x.shape[-1], int(g.rng.integers(1, 9))
    assert isinstance(k, int)
    t = _TYPES[int(g.rng.integers(2))]
    info = np.iinfo(t)
    weights = g.rng.integers(info.min, int(info.max) + 1, (k, n)).astype(t)
    per_column = g.rng.random() < 0.5
    b_zero = g.rng.integers(
        info.min // 4, info.max // 4, n if per_column else ()
    ).astype(t)
    inputs = [y, g.constant(weights, "w"), zero, g.constant(b_zero, "zp")]
    out = g.add("MatMulInteger", inputs, (*x.shape[:-1], n))
    return to_float(g, out)


def _qlinear_matmul(g: Graph) -> Value | None:
    """uint8 activations (DynamicQuantizeLinear) times int8 or uint8 constant
    weights, b's scale and zero point per tensor or per column, the result
    uint8 with a constant scale and zero point, read back as float."""
    x = g.pick()
    if x is None or len(x.shape) < 2 or not isinstance(x.shape[-1], int):
        return None
    y, scale, zero = dynamic(g, x)
    k, n = x.shape[-1], int(g.rng.integers(1, 9))
    assert isinstance(k, int)
    t = _TYPES[int(g.rng.integers(2))]
    info = np.iinfo(t)
    weights = g.rng.integers(info.min, int(info.max) + 1, (k, n)).astype(t)
    count = n if g.rng.random() < 0.5 else ()
    b_scale = g.rng.uniform(0.001, 0.01, count).astype(np.float32)
    b_zero = g.rng.integers(info.min // 4, info.max // 4, count).astype(t)
    y_scale = np.asarray(g.rng.uniform(0.01, 0.1) * np.sqrt(k), np.float32)
    y_zero = np.asarray(g.rng.integers(96, 160), np.uint8)
    out_params = [g.constant(y_scale, "y_scale"), g.constant(y_zero, "y_zp")]
    inputs = [
        y,
        scale,
        zero,
        g.constant(weights, "w"),
        g.constant(b_scale, "w_scale"),
        g.constant(b_zero, "w_zp"),
        *out_params,
    ]
    q = g.add("QLinearMatMul", inputs, (*x.shape[:-1], n))
    g.values.pop()
    return g.add("DequantizeLinear", [q.name, *out_params], q.shape)


def _conv_integer(g: Graph) -> Value | None:
    """uint8 activations (DynamicQuantizeLinear of a matrix as (batch, 1,
    length)) by uint8 constant weights (ORT's types), a kernel of 1 to 3,
    random pads, w's zero point absent or a constant; int32 cast back to
    float."""
    x = g.pick(rank=2)
    if x is None or not isinstance(x.shape[1], int):
        return None
    axes = g.constant(np.asarray([1], np.int64), "axes")
    x = g.add("Unsqueeze", [x.name, axes], (x.shape[0], 1, x.shape[1]))
    c, length = 1, x.shape[2]
    assert isinstance(length, int)
    m, k = int(g.rng.integers(1, 5)), int(g.rng.integers(1, 4))
    pads = [int(p) for p in g.rng.integers(0, k, 2)]
    out_length = length + sum(pads) - k + 1
    if out_length < 1:
        return None
    y, _, zero = dynamic(g, x)
    weights = g.rng.integers(0, 256, (m, c, k)).astype(np.uint8)
    inputs = [y, g.constant(weights, "w"), zero]
    if g.rng.random() < 0.5:
        inputs.append(g.constant(np.asarray(g.rng.integers(0, 256), np.uint8), "zp"))
    out = g.add("ConvInteger", inputs, (x.shape[0], m, out_length), pads=pads)
    return to_float(g, out)


def _qlinear_conv(g: Graph) -> Value | None:
    """uint8 activations (DynamicQuantizeLinear of a matrix as (batch, 1,
    length)) by int8 constant weights with a per-tensor or per-channel scale
    (zero point 0, as ORT wants for int8 weights), an int32 bias or none,
    the result uint8 with a constant scale and zero point, read back as
    float."""
    x = g.pick(rank=2)
    if x is None or not isinstance(x.shape[1], int):
        return None
    axes = g.constant(np.asarray([1], np.int64), "axes")
    x = g.add("Unsqueeze", [x.name, axes], (x.shape[0], 1, x.shape[1]))
    length = x.shape[2]
    assert isinstance(length, int)
    m, k = int(g.rng.integers(1, 5)), int(g.rng.integers(1, 4))
    pads = [int(p) for p in g.rng.integers(0, k, 2)]
    out_length = length + sum(pads) - k + 1
    if out_length < 1:
        return None
    y, scale, zero = dynamic(g, x)
    count = m if g.rng.random() < 0.5 else ()
    out_params = [
        g.constant(np.asarray(g.rng.uniform(0.02, 0.2), np.float32), "y_scale"),
        g.constant(np.asarray(g.rng.integers(96, 160), np.uint8), "y_zp"),
    ]
    inputs = [
        y,
        scale,
        zero,
        g.constant(g.rng.integers(-128, 128, (m, 1, k)).astype(np.int8), "w"),
        g.constant(g.rng.uniform(0.001, 0.01, count).astype(np.float32), "w_scale"),
        g.constant(np.zeros(count, np.int8), "w_zp"),
        *out_params,
    ]
    if g.rng.random() < 0.5:
        bias = g.rng.integers(-2000, 2000, m).astype(np.int32)
        inputs.append(g.constant(bias, "bias"))
    q = g.add("QLinearConv", inputs, (x.shape[0], m, out_length), pads=pads)
    g.values.pop()
    return g.add("DequantizeLinear", [q.name, *out_params], q.shape)


GENERATORS: dict[str, Generator] = {
    "QuantizeLinear": _qdq,
    "DequantizeLinear": _qdq,
    f"{MS}.QuantizeLinear": _ms_qdq,
    f"{MS}.DequantizeLinear": _ms_qdq,
    "DynamicQuantizeLinear": _dynamic_qdq,
    "MatMulInteger": _matmul_integer,
    "QLinearMatMul": _qlinear_matmul,
    "ConvInteger": _conv_integer,
    "QLinearConv": _qlinear_conv,
}
