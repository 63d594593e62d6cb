"""The generators of the data-sized ops (`onnx_to_hip/select.py`): NonZero,
Compress, Unique, NonMaxSuppression.

Each result whose size is data is reduced (or gathered) to a value of a known
shape before other generators may read it, so later nodes never take a size
that only the call knows.
"""

from __future__ import annotations

import math

import numpy as np
from onnx import TensorProto

from xhip.testing.fuzz.graph import Generator, Graph, Value


def _hidden(g: Graph, op_type: str, inputs: list[str], **attributes: object) -> Value:
    """A node whose result other generators must not read (its size is data)."""
    value = g.add(op_type, inputs, (g.fresh("n"),), **attributes)
    g.values.pop()
    return value


def _sum(
    g: Graph, x: Value, axes: list[int] | None, shape: tuple[int | str, ...]
) -> Value:
    """ReduceSum of a float value over `axes` (all of them if None)."""
    inputs = [x.name]
    if axes is not None:
        inputs.append(g.constant(np.array(axes, np.int64), "axes"))
    return g.add("ReduceSum", inputs, shape, keepdims=0)


def _as_float(g: Graph, x: Value) -> Value:
    return _hidden(g, "Cast", [x.name], to=TensorProto.FLOAT)


def _nonzero(g: Graph) -> Value | None:
    """NonZero of Relu(x) (about half zeros), the indices summed per dim.
    Not of a scalar: ONNX Runtime and onnx's reference give (1, n) (numpy's
    `atleast_1d`), onnx's shape inference (0, n) (seed 170992)."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    relu = _hidden(g, "Relu", [x.name])
    rows = _hidden(g, "NonZero", [relu.name])
    return _sum(g, _as_float(g, rows), [1], (len(x.shape),))


def _compress(g: Graph) -> Value | None:
    """Along a static dim (or the flattened input, when all are static), by
    a constant condition no longer than it, with at least one true."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    static = [d for d, n in enumerate(x.shape) if isinstance(n, int) and n > 0]
    flat = len(static) == len(x.shape) and g.rng.random() < 0.3
    if not static:
        return None
    axis = None if flat else static[int(g.rng.integers(len(static)))]
    size = math.prod(int(n) for n in x.shape) if axis is None else int(x.shape[axis])
    length = int(g.rng.integers(1, size + 1))
    condition = g.rng.random(length) < 0.5
    condition[int(g.rng.integers(length))] = True
    kept = int(condition.sum())
    shape = (
        (kept,)
        if axis is None
        else tuple(kept if d == axis else n for d, n in enumerate(x.shape))
    )
    attributes: dict[str, object] = {}
    if axis is not None:
        attributes["axis"] = axis - len(x.shape) if g.rng.random() < 0.5 else axis
    inputs = [x.name, g.constant(condition, "cond")]
    return g.add("Compress", inputs, shape, **attributes)


def _unique(g: Graph) -> Value | None:
    """Unique of Round(2x) (repeats), flattened or along a dim: the inverse
    indices (their size is the input's) plus the sums of the distinct values
    and of the first indices (data-sized)."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    flat = all(isinstance(n, int) for n in x.shape) and g.rng.random() < 0.5
    two = g.constant(np.array(2.0, np.float32))
    doubled = g.add("Mul", [x.name, two], x.shape)
    g.values.pop()
    rounded = g.add("Round", [doubled.name], x.shape)
    g.values.pop()
    attributes: dict[str, object] = {"sorted": int(g.rng.integers(2))}
    if flat:
        length: int | str = math.prod(int(n) for n in x.shape)
    else:
        axis = int(g.rng.integers(len(x.shape)))
        length = x.shape[axis]
        attributes["axis"] = axis - len(x.shape) if g.rng.random() < 0.5 else axis
    names = [g.fresh("unique") for _ in range(4)]
    g.add("Unique", [rounded.name], (), **attributes)
    node = g.nodes[-1]
    g.values.pop()
    node.output[:] = names
    inverse = g.add("Cast", [names[2]], (length,), to=TensorProto.FLOAT)
    g.values.pop()
    first = g.add("Cast", [names[1]], (g.fresh("n"),), to=TensorProto.FLOAT)
    g.values.pop()
    total = _sum(g, Value(names[0], ()), None, ())
    g.values.pop()
    firsts = _sum(g, first, None, ())
    g.values.pop()
    partial = g.add("Add", [inverse.name, total.name], (length,))
    g.values.pop()
    return g.add("Add", [partial.name, firsts.name], (length,))


def _nms(g: Graph) -> Value | None:
    """NonMaxSuppression of constant boxes by scores moved by the mean of a
    value: the (batch, class, box) rows summed per column."""
    x = g.pick()
    if x is None:
        return None
    batches, classes, boxes = 2, 2, 7
    corner = g.rng.uniform(0, 3, (batches, boxes, 2))
    size = g.rng.uniform(0.5, 2.5, (batches, boxes, 2))
    center = int(g.rng.integers(2))
    box_array = (
        np.concatenate([corner + size / 2, size], -1)
        if center
        else np.concatenate([corner, corner + size], -1)
    ).astype(np.float32)
    mean = g.add("ReduceMean", [x.name], (), keepdims=0)
    g.values.pop()
    noise = g.rng.normal(0, 1, (batches, classes, boxes)).astype(np.float32)
    logits = g.add("Add", [g.constant(noise), mean.name], (batches, classes, boxes))
    g.values.pop()
    scores = g.add("Sigmoid", [logits.name], (batches, classes, boxes))
    g.values.pop()
    inputs = [
        g.constant(box_array, "boxes"),
        scores.name,
        g.constant(np.array([int(g.rng.integers(1, 5))], np.int64), "max_out"),
        g.constant(np.array([g.rng.uniform(0.2, 0.7)], np.float32), "iou"),
        g.constant(np.array([g.rng.uniform(0.1, 0.6)], np.float32), "score_min"),
    ]
    selected = _hidden(g, "NonMaxSuppression", inputs, center_point_box=center)
    return _sum(g, _as_float(g, selected), [0], (3,))


GENERATORS: dict[str, Generator] = {
    "NonZero": _nonzero,
    "Compress": _compress,
    "NonMaxSuppression": _nms,
}

CPU_ONLY_GENERATORS: dict[str, Generator] = {"Unique": _unique}
"""Generators of ops the GPU runtimes refuse (`gpu.CPU_ONLY`): not drawn
(`driver.NOT_DRAWN` says why), since the emulated-GPU fixed seeds must
draw only what the GPU kernels run; `check` runs this one on the CPU."""
