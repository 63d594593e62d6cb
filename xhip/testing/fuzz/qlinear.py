"""Generators of ONNX Runtime's quantized and fused-matmul ops
(`onnx_to_hip/qlinear.py`): the QLinear ops on a value quantized by a
constant scale and zero point (uint8 or int8), read back as float by a
DequantizeLinear; QGemm, DynamicQuantizeMatMul and MatMulIntegerToFloat by
random constant weights; FusedMatMul of floats."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.graph import (
    MS,
    Generator,
    Graph,
    Value,
    broadcast_partner,
    channels_first,
    contrib,
)
from xhip.testing.fuzz.quantize import dynamic

_TYPES = (np.uint8, np.int8)


def _type(g: Graph) -> type[np.integer]:
    return _TYPES[int(g.rng.integers(2))]


def _params(g: Graph, t: type[np.integer], span: float) -> list[str]:
    """A scale that maps about [-span, span] to t's range, a zero point near
    its middle."""
    info = np.iinfo(t)
    steps = int(info.max) - int(info.min)
    scale = np.asarray(g.rng.uniform(1.0, 1.5) * 2 * span / steps, np.float32)
    mid = (int(info.min) + int(info.max)) // 2
    zero = np.asarray(g.rng.integers(mid - steps // 8, mid + steps // 8), t)
    return [g.constant(scale, "scale"), g.constant(zero, "zp")]


def _quantize(g: Graph, name: str, t: type[np.integer], span: float = 3.0) -> list[str]:
    """QuantizeLinear of `name`: its [q, scale, zero point] names."""
    params = _params(g, t, span)
    q = g.add("QuantizeLinear", [name, *params], ())
    g.values.pop()
    return [q.name, *params]


def _dequantize(g: Graph, q: Value, params: list[str]) -> Value:
    g.values.pop()
    return g.add("DequantizeLinear", [q.name, *params], q.shape)


def _binary(op_type: str) -> Generator:
    """A value and a broadcast partner, both quantized."""

    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        other, shape = broadcast_partner(g, x)
        t = _type(g)
        out = _params(g, t, 6.0 if op_type == "QLinearAdd" else 9.0)
        names = [*_quantize(g, x.name, t), *_quantize(g, other, t), *out]
        return _dequantize(g, contrib(g, op_type, names, shape), out)

    return make


def _unary(op_type: str) -> Generator:
    """Sigmoid's output in [0, 1], LeakyRelu's with a drawn alpha."""

    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        t = _type(g)
        if op_type == "QLinearSigmoid":
            out = _params(g, t, 0.5)
            attributes: dict[str, object] = {}
        else:
            out = _params(g, t, 3.0)
            attributes = {"alpha": float(g.rng.uniform(0.01, 0.5))}
        names = [*_quantize(g, x.name, t), *out]
        return _dequantize(g, contrib(g, op_type, names, x.shape, **attributes), out)

    return make


def _softmax(g: Graph) -> Value | None:
    """Along an axis (opset 13) or from an axis on (opset 12's coerced 2-D),
    dims known only at run time among them; the output scale 1/256 from
    zero (ORT's requirement)."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    t = _type(g)
    low = 0 if t is np.uint8 else -128
    out = [
        g.constant(np.asarray(1 / 256, np.float32), "scale"),
        g.constant(np.asarray(low, t), "zp"),
    ]
    opset = int(g.rng.choice([12, 13]))
    axis = int(g.rng.integers(-len(x.shape), len(x.shape)))
    names = [*_quantize(g, x.name, t), *out]
    node = contrib(g, "QLinearSoftmax", names, x.shape, axis=axis, opset=opset)
    return _dequantize(g, node, out)


def _concat(g: Graph) -> Value | None:
    """Two or three values of one shape, each with its own scale."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    same = [v for v in g.values if v.shape == x.shape]
    count = int(g.rng.integers(2, 4))
    parts = [same[int(g.rng.integers(len(same)))] for _ in range(count)]
    static = [a for a, d in enumerate(x.shape) if isinstance(d, int)]
    if not static:
        return None
    axis = static[int(g.rng.integers(len(static)))]
    size = x.shape[axis]
    assert isinstance(size, int)
    shape = (*x.shape[:axis], size * count, *x.shape[axis + 1 :])
    t = _type(g)
    out = _params(g, t, 3.0)
    names = [*out]
    for v in parts:
        names += _quantize(g, v.name, t, float(g.rng.uniform(1.0, 4.0)))
    return _dequantize(g, contrib(g, "QLinearConcat", names, shape, axis=axis), out)


def _average_pool(g: Graph) -> Value | None:
    """A 1-D pool of 1 or 3 on a channels-first transpose, padded to keep
    the length, the pads counted or not."""
    x = channels_first(g)
    if x is None:
        return None
    g.values.pop()
    k = int(g.rng.choice([1, 3]))
    t = _type(g)
    out = _params(g, t, 3.0)
    names = [*_quantize(g, x.name, t), *out]
    node = contrib(
        g,
        "QLinearAveragePool",
        names,
        x.shape,
        kernel_shape=[k],
        pads=[k // 2, k // 2],
        count_include_pad=int(g.rng.integers(2)),
    )
    return _dequantize(g, node, out)


def _global_average_pool(g: Graph) -> Value | None:
    """Over (batch, channels, length) or, channels last, (batch, length,
    channels), the length static or known only at run time: a rank-3 value,
    or a matrix with a unit dim."""
    x = g.pick()
    if x is None or len(x.shape) not in (2, 3):
        return None
    last = g.rng.random() < 0.5
    if len(x.shape) == 2:
        axis = g.constant(np.asarray([2 if last else 1], np.int64), "axes")
        unit = (x.shape[0], x.shape[1], 1) if last else (x.shape[0], 1, x.shape[1])
        x = g.add("Unsqueeze", [x.name, axis], unit)
        g.values.pop()
    shape = (x.shape[0], 1, x.shape[2]) if last else (x.shape[0], x.shape[1], 1)
    t = _type(g)
    out = _params(g, t, 3.0)
    names = [*_quantize(g, x.name, t), *out]
    node = contrib(g, "QLinearGlobalAveragePool", names, shape, channels_last=int(last))
    return _dequantize(g, node, out)


def _weights(
    g: Graph, k: int, n: int, t: type[np.integer], per_column: bool
) -> tuple[str, str, str]:
    """Random (k, n) constant weights of t, their scale and zero point
    (per tensor or per column)."""
    info = np.iinfo(t)
    count = n if per_column else ()
    w = g.rng.integers(info.min, int(info.max) + 1, (k, n)).astype(t)
    scale = g.rng.uniform(0.001, 0.01, count).astype(np.float32)
    zero = g.rng.integers(info.min // 4, info.max // 4, count).astype(t)
    return g.constant(w, "w"), g.constant(scale, "w_scale"), g.constant(zero, "w_zp")


def _qgemm(g: Graph) -> Value | None:
    """A matrix quantized (uint8 or int8) by weights of int8 or uint8 (int8
    only for int8 A, as ORT's kernels go), transposed or not, an int32 bias
    or none, alpha; the output float or quantized in A's type."""
    x = g.pick(rank=2)
    if x is None or not isinstance(x.shape[1], int):
        return None
    rng = g.rng
    k, n = x.shape[1], int(rng.integers(1, 9))
    t = _type(g)
    a = _quantize(g, x.name, t)
    w_type = _type(g) if t is np.uint8 else np.int8
    w, scale, zero = _weights(g, k, n, w_type, rng.random() < 0.5)
    attributes: dict[str, object] = {"alpha": float(rng.choice([1.0, 0.5]))}
    if rng.random() < 0.5:
        w = g.add("Transpose", [w], (n, k), perm=[1, 0]).name
        g.values.pop()
        attributes["transB"] = 1
    names = [*a, w, scale, zero]
    if rng.random() < 0.5:
        names.append(g.constant(rng.integers(-2000, 2000, n).astype(np.int32), "bias"))
    else:
        names.append("")
    quantized = rng.random() < 0.5
    out = _params(g, t, 0.5 * np.sqrt(k)) if quantized else []
    names += out
    while names[-1] == "":
        names.pop()
    node = contrib(g, "QGemm", names, (x.shape[0], n), **attributes)
    return _dequantize(g, node, out) if quantized else node


def _dynamic_quantize_matmul(g: Graph) -> Value | None:
    """Float activations by int8 or uint8 weights, zero points or none, a
    bias or none."""
    x = g.pick()
    if x is None or len(x.shape) < 2 or not isinstance(x.shape[-1], int):
        return None
    k, n = x.shape[-1], int(g.rng.integers(1, 9))
    w, scale, zero = _weights(g, k, n, _type(g), g.rng.random() < 0.5)
    names = [x.name, w, scale, zero if g.rng.random() < 0.5 else ""]
    if g.rng.random() < 0.5:
        names.append(g.constant(g.rng.uniform(-1, 1, n).astype(np.float32), "bias"))
    while names[-1] == "":
        names.pop()
    return contrib(g, "DynamicQuantizeMatMul", names, (*x.shape[:-1], n))


def _matmul_integer_to_float(g: Graph) -> Value | None:
    """DynamicQuantizeLinear's uint8 activations by int8 or uint8 weights,
    both scales, the zero points, a bias or none."""
    x = g.pick()
    if x is None or len(x.shape) < 2 or not isinstance(x.shape[-1], int):
        return None
    k, n = x.shape[-1], int(g.rng.integers(1, 9))
    names = dynamic(g, x)
    w, scale, zero = _weights(g, k, n, _type(g), g.rng.random() < 0.5)
    inputs = [names[0], w, names[1], scale, names[2], zero]
    if g.rng.random() < 0.5:
        inputs.append(g.constant(g.rng.uniform(-1, 1, n).astype(np.float32), "bias"))
    return contrib(g, "MatMulIntegerToFloat", inputs, (*x.shape[:-1], n))


def _fused_matmul(g: Graph) -> Value | None:
    """alpha * A @ B with A given transposed (transA) or not, B constant
    transposed (transB) or not."""
    x = g.pick()
    if x is None or len(x.shape) < 2 or not isinstance(x.shape[-1], int):
        return None
    rng = g.rng
    k, n = x.shape[-1], int(rng.integers(1, 9))
    attributes: dict[str, object] = {"alpha": float(rng.choice([1.0, 0.5, -2.0]))}
    a = x.name
    if rng.random() < 0.5:
        perm = [*range(len(x.shape) - 2), len(x.shape) - 1, len(x.shape) - 2]
        a = g.add("Transpose", [a], (), perm=perm).name
        g.values.pop()
        attributes["transA"] = 1
    if rng.random() < 0.5:
        b = g.constant(rng.uniform(-1, 1, (n, k)).astype(np.float32), "w")
        attributes["transB"] = 1
    else:
        b = g.constant(rng.uniform(-1, 1, (k, n)).astype(np.float32), "w")
    return contrib(g, "FusedMatMul", [a, b], (*x.shape[:-1], n), **attributes)


GENERATORS: dict[str, Generator] = {
    f"{MS}.QLinearAdd": _binary("QLinearAdd"),
    f"{MS}.QLinearMul": _binary("QLinearMul"),
    f"{MS}.QLinearSigmoid": _unary("QLinearSigmoid"),
    f"{MS}.QLinearLeakyRelu": _unary("QLinearLeakyRelu"),
    f"{MS}.QLinearSoftmax": _softmax,
    f"{MS}.QLinearConcat": _concat,
    f"{MS}.QLinearAveragePool": _average_pool,
    f"{MS}.QLinearGlobalAveragePool": _global_average_pool,
    f"{MS}.QGemm": _qgemm,
    f"{MS}.DynamicQuantizeMatMul": _dynamic_quantize_matmul,
    f"{MS}.MatMulIntegerToFloat": _matmul_integer_to_float,
    f"{MS}.FusedMatMul": _fused_matmul,
}
