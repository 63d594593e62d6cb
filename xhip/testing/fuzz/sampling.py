"""The sampling generators (`onnx_to_hip/sampling.py`), on images made of a
(batch, channels, length) value unsqueezed to (batch, channels, 1, length):

- GridSample at points in [-1.2, 1.2] (some outside), every mode, padding
  mode and `align_corners`, the constant grid expanded to the batch;
- AffineGrid of a theta projected from a (batch, features) value, the size's
  batch a shape value;
- Col2Im of a (batch, channels, blocks) value's columns (a (batch,
  features) value as one block), `block` (1, k) for k dividing the channels,
  strides, dilations and pads drawn, the image width what they give;
- CenterCropPad of any value along any of its dims, each cropped or padded;
- MaxUnpool of a MaxPool's values and indices (static shapes);
- DeformConv of the image by a (1, k) kernel, strides, dilations, pads,
  group and offset_group drawn, constant offsets in [-1.5, 1.5] (some taps
  outside) expanded to the batch, a bias and a mask or not.

TensorScatter (opset 24) is not drawn: the graphs are opset 20.
"""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper

from xhip.testing.fuzz.graph import Generator, Graph, Value, channels_first


def _hidden(
    g: Graph,
    op_type: str,
    inputs: list[str],
    shape: tuple[int | str, ...],
    **attributes: object,
) -> str:
    """A node's output that no other generator reads."""
    value = g.add(op_type, inputs, shape, **attributes)
    g.values.pop()
    return value.name


def _ints(g: Graph, values: list[int]) -> str:
    return g.constant(np.asarray(values, np.int64), "ints")


def _batch(g: Graph, x: Value) -> str:
    """x's dim 0 as a one-element int64 tensor (a shape value)."""
    return _hidden(g, "Shape", [x.name], (1,), end=1)


def _grid_sample(g: Graph) -> Value | None:
    x = channels_first(g)
    if x is None:
        return None
    n, c, length = x.shape
    image = _hidden(g, "Unsqueeze", [x.name, _ints(g, [2])], (n, c, 1, length))
    rows, cols = (int(k) for k in g.rng.integers(1, 4, 2))
    points = g.rng.uniform(-1.2, 1.2, (1, rows, cols, 2)).astype(np.float32)
    sizes = _hidden(
        g, "Concat", [_batch(g, x), _ints(g, [rows, cols, 2])], (4,), axis=0
    )
    grid = _hidden(g, "Expand", [g.constant(points, "grid"), sizes], (n, rows, cols, 2))
    return g.add(
        "GridSample",
        [image, grid],
        (n, c, rows, cols),
        mode=str(g.rng.choice(["linear", "nearest", "cubic"])),
        padding_mode=str(g.rng.choice(["zeros", "border", "reflection"])),
        align_corners=int(g.rng.integers(0, 2)),
    )


def _affine_grid(g: Graph) -> Value | None:
    x = g.pick(rank=2)
    if x is None:
        return None
    n, features = x.shape
    if not isinstance(features, int):
        return None
    weights = g.rng.uniform(-0.5, 0.5, (features, 6)).astype(np.float32)
    flat = _hidden(g, "MatMul", [x.name, g.constant(weights, "theta")], (n, 6))
    theta = _hidden(g, "Reshape", [flat, _ints(g, [-1, 2, 3])], (n, 2, 3))
    rows, cols = (int(k) for k in g.rng.integers(1, 5, 2))
    size = _hidden(g, "Concat", [_batch(g, x), _ints(g, [1, rows, cols])], (4,), axis=0)
    return g.add(
        "AffineGrid",
        [theta, size],
        (n, rows, cols, 2),
        align_corners=int(g.rng.integers(0, 2)),
    )


def _col2im(g: Graph) -> Value | None:
    x = g.pick(rank=3)
    if x is None or not all(isinstance(d, int) for d in x.shape[1:]):
        flat = g.pick(rank=2)
        if flat is None or not isinstance(flat.shape[1], int):
            return None
        shape = (*flat.shape, 1)
        x = Value(_hidden(g, "Unsqueeze", [flat.name, _ints(g, [2])], shape), shape)
    n, channels, blocks = x.shape
    assert isinstance(channels, int) and isinstance(blocks, int)
    k = int(g.rng.choice([d for d in range(1, channels + 1) if channels % d == 0]))
    stride, dilation = (int(v) for v in g.rng.integers(1, 3, 2))
    pads = [0, int(g.rng.integers(0, 2)), 0, int(g.rng.integers(0, 2))]
    width = (blocks - 1) * stride + dilation * (k - 1) + 1 - pads[1] - pads[3]
    if width < 1:
        return None
    return g.add(
        "Col2Im",
        [x.name, _ints(g, [1, width]), _ints(g, [1, k])],
        (n, channels // k, 1, width),
        strides=[1, stride],
        dilations=[1, dilation],
        pads=pads,
    )


def _center_crop_pad(g: Graph) -> Value | None:
    """Any axes: a named dim's size, known only at run time, cropped or
    padded to a drawn size."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    rank = len(x.shape)
    count = int(g.rng.integers(1, rank + 1))
    axes = sorted(int(a) for a in g.rng.choice(rank, count, replace=False))
    shape = list(x.shape)
    sizes: list[int] = []
    for a in axes:
        size = shape[a]
        top = size + 3 if isinstance(size, int) else 6
        sizes.append(int(g.rng.integers(1, top)))
        shape[a] = sizes[-1]
    return g.add("CenterCropPad", [x.name, _ints(g, sizes)], tuple(shape), axes=axes)


def _max_unpool(g: Graph) -> Value | None:
    """MaxPool's values and indices of a static (1, 1, F) image (a
    (batch, F) value's first row), unpooled (overlapping windows give
    repeated indices)."""
    row = g.pick(rank=2)
    if row is None or not isinstance(row.shape[1], int):
        return None
    n, c, length = 1, 1, row.shape[1]
    first = _hidden(
        g, "Slice", [row.name, _ints(g, [0]), _ints(g, [1]), _ints(g, [0])], (1, length)
    )
    image = _hidden(g, "Unsqueeze", [first, _ints(g, [1])], (1, 1, length))
    x = Value(image, (n, c, length))
    kernel = int(g.rng.integers(1, min(length, 3) + 1))
    stride = int(g.rng.integers(1, 3))
    pooled = (length - kernel) // stride + 1
    pool = g.add(
        "MaxPool", [x.name], (n, c, pooled), kernel_shape=[kernel], strides=[stride]
    )
    g.values.pop()
    node = g.nodes[-1]
    indices = g.fresh("indices")
    node.output.append(indices)
    out = (pooled - 1) * stride + kernel
    return g.add(
        "MaxUnpool",
        [pool.name, indices],
        (n, c, out),
        kernel_shape=[kernel],
        strides=[stride],
    )


def _deform_conv(g: Graph) -> Value | None:
    x = channels_first(g)
    if x is None or not isinstance(x.shape[2], int):
        # The graphs' rank-3 values end in the named `seq`: a (batch,
        # features) one as one channel of static length instead.
        flat = g.pick(rank=2)
        if flat is None or not isinstance(flat.shape[1], int):
            return None
        x = g.add(
            "Unsqueeze",
            [flat.name, _ints(g, [1])],
            (flat.shape[0], 1, flat.shape[1]),
        )
    n, c, length = x.shape
    assert isinstance(c, int) and isinstance(length, int)
    image = _hidden(g, "Unsqueeze", [x.name, _ints(g, [2])], (n, c, 1, length))
    divisors = [d for d in range(1, c + 1) if c % d == 0]
    group, offset_group = (int(g.rng.choice(divisors)) for _ in range(2))
    k, stride, dilation = (int(v) for v in g.rng.integers(1, 4, 3))
    pads = [0, int(g.rng.integers(0, 2)), 0, int(g.rng.integers(0, 2))]
    width = (length + pads[1] + pads[3] - dilation * (k - 1) - 1) // stride + 1
    if width < 1:
        return None
    m = group * int(g.rng.integers(1, 3))
    weight = g.rng.uniform(-1, 1, (m, c // group, 1, k)).astype(np.float32)
    moves = g.rng.uniform(-1.5, 1.5, (1, offset_group * k * 2, 1, width))
    sizes = _hidden(
        g,
        "Concat",
        [_batch(g, x), _ints(g, [offset_group * k * 2, 1, width])],
        (4,),
        axis=0,
    )
    offset = _hidden(
        g,
        "Expand",
        [g.constant(moves.astype(np.float32), "offset"), sizes],
        (n, offset_group * k * 2, 1, width),
    )
    inputs = [image, g.constant(weight, "weight"), offset]
    if g.rng.integers(0, 2):
        bias = g.rng.uniform(-1, 1, (m,)).astype(np.float32)
        inputs.append(g.constant(bias, "bias"))
    if g.rng.integers(0, 2):
        if len(inputs) == 3:
            inputs.append("")
        scale = g.rng.uniform(0, 1, (1, offset_group * k, 1, width))
        mask_sizes = _hidden(
            g,
            "Concat",
            [_batch(g, x), _ints(g, [offset_group * k, 1, width])],
            (4,),
            axis=0,
        )
        inputs.append(
            _hidden(
                g,
                "Expand",
                [g.constant(scale.astype(np.float32), "mask"), mask_sizes],
                (n, offset_group * k, 1, width),
            )
        )
    return g.add(
        "DeformConv",
        inputs,
        (n, m, 1, width),
        kernel_shape=[1, k],
        strides=[1, stride],
        dilations=[1, dilation],
        pads=pads,
        group=group,
        offset_group=offset_group,
    )


def _tensor_scatter(g: Graph) -> Value | None:
    """A value written along a static axis (not the batch) into a cache of
    it padded there by 0 to 3 (xhip wants the update's length and the cache's
    static), at one drawn position for every batch entry, linear (in range)
    or circular."""
    x = g.pick()
    if x is None or len(x.shape) < 2:
        return None
    axes = [a for a in range(1, len(x.shape)) if isinstance(x.shape[a], int)]
    if not axes:
        return None
    axis = axes[int(g.rng.integers(len(axes)))]
    length = x.shape[axis]
    assert isinstance(length, int)
    extra = int(g.rng.integers(0, 4))
    pads = [0] * (2 * len(x.shape))
    pads[len(x.shape) + axis] = extra
    shape = (*x.shape[:axis], length + extra, *x.shape[axis + 1 :])
    cache = _hidden(g, "Pad", [x.name, _ints(g, pads)], shape)
    circular = g.rng.random() < 0.5
    top = length + extra if circular else extra + 1
    at = helper.make_tensor("at", TensorProto.INT64, [1], [int(g.rng.integers(0, top))])
    index = _hidden(g, "ConstantOfShape", [_batch(g, x)], (x.shape[0],), value=at)
    update = [v for v in g.values if v.shape == x.shape]
    names = [cache, update[int(g.rng.integers(len(update)))].name, index]
    mode = "circular" if circular else "linear"
    return g.add("TensorScatter", names, shape, axis=axis, mode=mode)


GENERATORS: dict[str, Generator] = {
    "TensorScatter": _tensor_scatter,
    "GridSample": _grid_sample,
    "AffineGrid": _affine_grid,
    "Col2Im": _col2im,
    "CenterCropPad": _center_crop_pad,
    "MaxUnpool": _max_unpool,
    "DeformConv": _deform_conv,
}

OPSETS: dict[str, int] = {"TensorScatter": 24}
"""The opset TensorScatter came in."""
