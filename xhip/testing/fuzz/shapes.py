"""Generators of the shape values (`onnx_to_hip/shapes.py`; `onnx-fold-shapes`
folds them): each one's result feeds a float32 value."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, numpy_helper

from xhip.testing.fuzz.graph import Generator, Graph, Value


def _shape_of(g: Graph, x: Value, start: int = 0, end: int | None = None) -> Value:
    """`Shape(x)[start:end]`: an int64 shape value, for shape ops only."""
    rank = len(x.shape)
    stop = rank if end is None else end
    attrs: dict[str, object] = {"start": start} if start else {}
    if end is not None:
        attrs["end"] = end
    shape = g.add("Shape", [x.name], (len(range(rank)[start:stop]),), **attrs)
    g.values.pop()  # int64: only the shape ops here read it
    return shape


def _constant_of_shape(g: Graph) -> Value | None:
    """A fill of `x`'s shape (through Shape, so the fill's sizes are x's dims),
    added to `x`."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    shape = _shape_of(g, x)
    value = numpy_helper.from_array(np.array([g.rng.uniform(-2, 2)], np.float32))
    fill = g.add("ConstantOfShape", [shape.name], x.shape, value=value)
    return g.add("Add", [x.name, fill.name], x.shape)


def _size(g: Graph) -> Value | None:
    """`x / Size(x)` (the element count as a float)."""
    x = g.pick()
    if x is None:
        return None
    size = g.add("Size", [x.name], ())
    g.values.pop()
    count = g.add("Cast", [size.name], (), to=TensorProto.FLOAT)
    g.values.pop()
    return g.add("Div", [x.name, count.name], x.shape)


def _range(g: Graph) -> Value | None:
    """`x + Range(start, start + n*delta, delta)` along its last dim, n that
    dim's size from `Shape` (a run-time length for a dynamic dim)."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    rank = len(x.shape)
    n = _shape_of(g, x, rank - 1, rank)
    start = int(g.rng.integers(-3, 4))
    delta = int(g.rng.choice([-2, -1, 1, 2]))
    scaled = g.add(
        "Mul", [n.name, g.constant(np.array([delta], np.int64), "delta")], (1,)
    )
    g.values.pop()
    limit = g.add(
        "Add", [scaled.name, g.constant(np.array([start], np.int64), "start")], (1,)
    )
    g.values.pop()
    scalar = g.add(
        "Squeeze", [limit.name, g.constant(np.array([0], np.int64), "ax")], ()
    )
    g.values.pop()
    ramp = g.add(
        "Range",
        [
            g.constant(np.array(start, np.int64), "start"),
            scalar.name,
            g.constant(np.array(delta, np.int64), "delta"),
        ],
        (x.shape[-1],),
    )
    g.values.pop()
    as_float = g.add("Cast", [ramp.name], (x.shape[-1],), to=TensorProto.FLOAT)
    g.values.pop()
    return g.add("Add", [x.name, as_float.name], x.shape)


GENERATORS: dict[str, Generator] = {
    "Shape": _range,
    "Range": _range,
    "Size": _size,
    "ConstantOfShape": _constant_of_shape,
}
