"""Generators of the reductions, normalizations, the softmax family and
Dropout (`onnx_to_hip/reduce.py`)."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value, to_float


def _axis_op(op_type: str, nan_free: bool = False) -> Generator:
    """An op along one axis (`axis` attribute, the shape kept); with `nan_free`
    drawn on `Where(IsNaN(x), 0, x)`."""

    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None or not x.shape:
            return None
        axis = int(g.rng.integers(-len(x.shape), len(x.shape)))
        if nan_free:
            nan = g.add("IsNaN", [x.name], x.shape)
            g.values.pop()  # bool: not a value the generators draw on
            zero = g.constant(np.zeros((), np.float32))
            x = g.add("Where", [nan.name, zero, x.name], x.shape)
        return g.add(op_type, [x.name], x.shape, axis=axis)

    return make


def _reduce(op_type: str, positive: bool = False) -> Generator:
    """Opset 20: every reduction takes `axes` as an input; one in eight is
    `noop_with_empty_axes` without axes (the element function, no reduction).
    With `positive` drawn on `Abs(x) + 0.1` (ReduceLogSum: the log of a sum
    near 0 is NaN or not by the order of the additions)."""

    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None or not x.shape:
            return None
        if positive:
            x = g.add("Abs", [x.name], x.shape)
            g.values.pop()
            one_tenth = g.constant(np.array(0.1, np.float32))
            x = g.add("Add", [x.name, one_tenth], x.shape)
            g.values.pop()
        if g.rng.random() < 1 / 8:
            return g.add(op_type, [x.name], x.shape, noop_with_empty_axes=1)
        count = int(g.rng.integers(1, len(x.shape) + 1))
        axes = sorted(int(a) for a in g.rng.choice(len(x.shape), count, replace=False))
        keep = int(g.rng.integers(2))
        shape = tuple(
            1 if i in axes else d
            for i, d in enumerate(x.shape)
            if keep or i not in axes
        )
        axes_name = g.constant(np.array(axes, np.int64), "axes")
        return g.add(op_type, [x.name, axes_name], shape, keepdims=keep)

    return make


def _arg_reduce(op_type: str) -> Generator:
    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None or not x.shape:
            return None
        axis = int(g.rng.integers(len(x.shape)))
        shape = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
        last = int(g.rng.integers(2))
        value = g.add(op_type, [x.name], shape, axis=axis, select_last_index=last)
        return to_float(g, value)

    return make


def _layer_norm(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape or not isinstance(x.shape[-1], int):
        return None
    n = x.shape[-1]
    scale = g.constant(g.rng.uniform(0.5, 1.5, n).astype(np.float32))
    bias = g.constant(g.rng.standard_normal(n).astype(np.float32))
    return g.add("LayerNormalization", [x.name, scale, bias], x.shape, axis=-1)


def _rms_norm(g: Graph) -> Value | None:
    """RMSNormalization over the axes from a static one on (the last, or the
    last two where both are static), a scale of those axes' shape."""
    x = g.pick()
    if x is None or not x.shape or not isinstance(x.shape[-1], int):
        return None
    axis = -1
    if len(x.shape) > 1 and isinstance(x.shape[-2], int) and g.rng.random() < 0.5:
        axis = -2
    static = [d for d in x.shape[axis:] if isinstance(d, int)]
    scale = g.constant(g.rng.uniform(0.5, 1.5, static).astype(np.float32))
    epsilon = float(g.rng.choice([1e-5, 1e-2]))
    return g.add(
        "RMSNormalization", [x.name, scale], x.shape, axis=axis, epsilon=epsilon
    )


def _dropout(g: Graph) -> Value | None:
    x = g.pick()
    return None if x is None else g.add("Dropout", [x.name], x.shape)


GENERATORS: dict[str, Generator] = {
    **{
        op: _reduce(op)
        for op in (
            "ReduceMean",
            "ReduceSum",
            "ReduceMax",
            "ReduceMin",
            "ReduceProd",
            "ReduceL1",
            "ReduceL2",
            "ReduceLogSumExp",
            "ReduceSumSquare",
        )
    },
    "ReduceLogSum": _reduce("ReduceLogSum", positive=True),
    "LogSoftmax": _axis_op("LogSoftmax"),
    # With NaN, ORT's Hardmax depends on its SIMD lanes (docs/fuzzing.md).
    "Hardmax": _axis_op("Hardmax", nan_free=True),
    "ArgMax": _arg_reduce("ArgMax"),
    "ArgMin": _arg_reduce("ArgMin"),
    "LayerNormalization": _layer_norm,
    "RMSNormalization": _rms_norm,
    "Dropout": _dropout,
}

OPSETS: dict[str, int] = {"RMSNormalization": 23}
"""The opset RMSNormalization came in."""
