"""A differential fuzzer: random valid ONNX graphs, xhip against ONNX Runtime.

`generate(seed)` builds a graph of random ops over one or two float32 inputs
with named dynamic dims (`batch`, `seq`), with reused values and several
outputs; `check(seed)` compiles it with xhip, runs both on the same random
inputs at random dims and says how it went: `match`, `mismatch` (a wrong
answer: the thing this hunts), `refused` (xhip said in one line that it cannot
convert something: counted, not a failure) or `error` (any other exception:
a bug too). Each op type has one generator in `GENERATORS`; an op the importer
reads without a generator is listed by `unfuzzed_ops()`, which a test keeps
empty. `python scripts/fuzz.py --seeds 5000` is the long run.
"""

from __future__ import annotations

import math
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 20
"""The graphs' opset: the newest the drawn ops (Gelu) need."""

Shape = tuple[int | str, ...]
"""A value's shape: sizes, or the names of dynamic dims."""


@dataclass
class Value:
    name: str
    shape: Shape


@dataclass
class Graph:
    """What the generators build on: values so far, nodes, initializers."""

    rng: np.random.Generator
    values: list[Value] = field(default_factory=list[Value])
    nodes: list[onnx.NodeProto] = field(default_factory=list[onnx.NodeProto])
    initializers: list[TensorProto] = field(default_factory=list[TensorProto])
    counter: int = 0

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def pick(self, rank: int | None = None) -> Value | None:
        """A random value (of `rank` if given), preferring recent ones."""
        pool = [v for v in self.values if rank is None or len(v.shape) == rank]
        if not pool:
            return None
        weights = np.arange(1, len(pool) + 1, dtype=np.float64)
        return pool[int(self.rng.choice(len(pool), p=weights / weights.sum()))]

    def constant(self, array: np.ndarray, stem: str = "c") -> str:
        name = self.fresh(stem)
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def add(
        self, op_type: str, inputs: list[str], shape: Shape, **attributes: object
    ) -> Value:
        out = Value(self.fresh(op_type.lower()), shape)
        node = helper.make_node(op_type, inputs, [out.name], name=out.name)
        node.attribute.extend(
            helper.make_attribute(k, v) for k, v in sorted(attributes.items())
        )
        self.nodes.append(node)
        self.values.append(out)
        return out


Generator = Callable[[Graph], Value | None]
"""Adds one node of its op type to the graph, or None if nothing fits."""


POSITIVE_DOMAIN = frozenset({"Log", "Sqrt"})
"""Ops drawn on `Abs(x) + 0.1`: a NaN they would make for negative inputs
meets reductions and ArgMax, where ONNX Runtime's NaN handling follows the
order it visits elements in (see docs/fuzzing.md)."""


BOUNDED_DOMAIN = frozenset({"Sin", "Cos"})
"""Ops drawn on `Tanh(x)`: at |x| in the thousands (`Exp(Exp(x))`) one ulp
of the argument moves them by 1e-4, which is the input's rounding, not a bug."""


def _unary(op_type: str) -> Generator:
    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        if op_type in BOUNDED_DOMAIN:
            x = g.add("Tanh", [x.name], x.shape)
            g.values.pop()
        if op_type in POSITIVE_DOMAIN:
            shifted = g.add("Abs", [x.name], x.shape)
            g.values.pop()
            x = g.add(
                "Add", [shifted.name, g.constant(np.array(0.1, np.float32))], x.shape
            )
            g.values.pop()
        return g.add(op_type, [x.name], x.shape)

    return make


def _broadcast_partner(g: Graph, x: Value) -> tuple[str, Shape]:
    """Another operand for `x`: a value of its shape, or a constant that
    broadcasts (a suffix of its static dims, ones, or a scalar)."""
    same = [v for v in g.values if v.shape == x.shape and v is not x]
    if same and g.rng.random() < 0.5:
        return same[int(g.rng.integers(len(same)))].name, x.shape
    static = [d if isinstance(d, int) else 1 for d in x.shape]
    keep = int(g.rng.integers(0, len(static) + 1))
    shape = [1 if g.rng.random() < 0.3 else d for d in static[len(static) - keep :]]
    array = g.rng.uniform(0.5, 1.5, shape).astype(np.float32)
    return g.constant(array), x.shape


def _binary(op_type: str) -> Generator:
    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        other, shape = _broadcast_partner(g, x)
        inputs = [x.name, other] if g.rng.random() < 0.7 else [other, x.name]
        return g.add(op_type, inputs, shape)

    return make


def _pow(g: Graph) -> Value | None:
    x = g.pick()
    if x is None:
        return None
    exponent = np.float32(g.rng.choice([2.0, 3.0, -1.0]))  # no NaN: see POSITIVE_DOMAIN
    return g.add("Pow", [x.name, g.constant(np.array(exponent))], x.shape)


def _matmul(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape or not isinstance(x.shape[-1], int):
        return None
    n = int(g.rng.integers(1, 9))
    k = x.shape[-1]
    w = (g.rng.standard_normal((k, n)) / math.sqrt(k)).astype(np.float32)
    return g.add("MatMul", [x.name, g.constant(w, "w")], (*x.shape[:-1], n))


def _gemm(g: Graph) -> Value | None:
    x = g.pick(rank=2)
    if x is None or not isinstance(x.shape[1], int):
        return None
    trans_b = int(g.rng.integers(2))
    k, n = x.shape[1], int(g.rng.integers(1, 9))
    w = (g.rng.standard_normal((n, k) if trans_b else (k, n)) / math.sqrt(k)).astype(
        np.float32
    )
    inputs = [x.name, g.constant(w, "w")]
    if g.rng.random() < 0.7:
        inputs.append(g.constant(g.rng.standard_normal(n).astype(np.float32), "b"))
    alpha = float(g.rng.choice([1.0, 0.5]))
    return g.add("Gemm", inputs, (x.shape[0], n), transB=trans_b, alpha=alpha)


def _softmax(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape:
        return None
    axis = int(g.rng.integers(-len(x.shape), len(x.shape)))
    return g.add("Softmax", [x.name], x.shape, axis=axis)


def _transpose(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or len(x.shape) < 2:
        return None
    perm = [int(p) for p in g.rng.permutation(len(x.shape))]
    return g.add("Transpose", [x.name], tuple(x.shape[p] for p in perm), perm=perm)


def _concat(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape:
        return None
    axes = [i for i, d in enumerate(x.shape) if isinstance(d, int)]
    if not axes:
        return None
    axis = axes[int(g.rng.integers(len(axes)))]
    here = x.shape[axis]
    assert isinstance(here, int)
    static = [d for d in x.shape if isinstance(d, int)]
    if len(static) < len(x.shape):  # a dynamic dim: concatenate x with itself
        inputs, extra = [x.name, x.name], here
    else:
        extra = int(g.rng.integers(1, 4))
        shape = [extra if i == axis else d for i, d in enumerate(static)]
        array = g.rng.standard_normal(shape).astype(np.float32)
        inputs = [x.name, g.constant(array)]
    out = list(x.shape)
    out[axis] = here + extra
    return g.add("Concat", inputs, tuple(out), axis=axis)


def _flatten(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or len(x.shape) < 2:
        return None
    axis = int(g.rng.integers(1, len(x.shape)))
    head, tail = x.shape[:axis], x.shape[axis:]
    if not all(isinstance(d, int) for d in tail) or len(head) != 1:
        return None
    return g.add("Flatten", [x.name], (head[0], math.prod(tail)), axis=axis)  # pyright: ignore[reportArgumentType]


def _reshape(g: Graph) -> Value | None:
    """Split or merge the static trailing dims; keep the leading ones (`0`)."""
    x = g.pick()
    if x is None or len(x.shape) < 2 or not isinstance(x.shape[-1], int):
        return None
    last = x.shape[-1]
    factors = [f for f in range(2, last) if last % f == 0]
    lead = [0] * (len(x.shape) - 1)
    if factors:
        f = int(g.rng.choice(factors))
        target, shape = [*lead, f, -1], (*x.shape[:-1], f, last // f)
    elif isinstance(x.shape[-2], int):
        target, shape = [*lead[:-1], -1], (*x.shape[:-2], x.shape[-2] * last)
    else:
        return None
    shape_name = g.constant(np.array(target, np.int64), "shape")
    return g.add("Reshape", [x.name, shape_name], shape)


def _unsqueeze(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or len(x.shape) > 4:
        return None
    axis = int(g.rng.integers(-len(x.shape) - 1, len(x.shape) + 1))
    out = list(x.shape)
    out.insert(axis % (len(x.shape) + 1), 1)
    axes = g.constant(np.array([axis], np.int64), "axes")
    return g.add("Unsqueeze", [x.name, axes], tuple(out))


def _squeeze(g: Graph) -> Value | None:
    x = g.pick()
    ones = [] if x is None else [i for i, d in enumerate(x.shape) if d == 1]
    if x is None or not ones:
        return None
    axis = ones[int(g.rng.integers(len(ones)))]
    axes = g.constant(np.array([axis], np.int64), "axes")
    return g.add(
        "Squeeze", [x.name, axes], tuple(d for i, d in enumerate(x.shape) if i != axis)
    )


def _cast(g: Graph) -> Value | None:
    """Through float16 and back, or through float64: real conversions."""
    x = g.pick()
    if x is None:
        return None
    via = int(g.rng.choice([TensorProto.FLOAT16, TensorProto.DOUBLE]))
    mid = g.add("Cast", [x.name], x.shape, to=via)
    g.values.pop()  # not a float32 value: nothing else may read it
    return g.add("Cast", [mid.name], x.shape, to=TensorProto.FLOAT)


def _to_float(g: Graph, value: Value) -> Value:
    """`value` (bool or int64) cast back to float32, so later ops may read it."""
    g.values.pop()
    return g.add("Cast", [value.name], value.shape, to=TensorProto.FLOAT)


def _bool_result(op_type: str, arity: int) -> Generator:
    """A comparison or test: its bool result cast back to float32."""

    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        if arity == 1:
            return _to_float(g, g.add(op_type, [x.name], x.shape))
        other, shape = _broadcast_partner(g, x)
        return _to_float(g, g.add(op_type, [x.name, other], shape))

    return make


def _condition(g: Graph, x: Value) -> Value:
    """A bool value of `x`'s shape: `x > c` for a random constant `c`."""
    c = g.constant(np.array(g.rng.uniform(-0.5, 0.5), np.float32))
    cond = g.add("Greater", [x.name, c], x.shape)
    g.values.pop()
    return cond


def _logical(op_type: str, arity: int) -> Generator:
    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        operands = [_condition(g, x).name for _ in range(arity)]
        return _to_float(g, g.add(op_type, operands, x.shape))

    return make


def _where(g: Graph) -> Value | None:
    x = g.pick()
    if x is None:
        return None
    other, shape = _broadcast_partner(g, x)
    return g.add("Where", [_condition(g, x).name, x.name, other], shape)


def _variadic(op_type: str) -> Generator:
    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        inputs = [x.name]
        for _ in range(int(g.rng.integers(0, 3))):
            inputs.append(_broadcast_partner(g, x)[0])
        return g.add(op_type, inputs, x.shape)

    return make


def _clip(g: Graph) -> Value | None:
    x = g.pick()
    if x is None:
        return None
    low = g.constant(np.array(g.rng.uniform(-1.0, 0.0), np.float32))
    high = g.constant(np.array(g.rng.uniform(0.0, 1.0), np.float32))
    # Both bounds: with one missing, ONNX Runtime clamps to the float range,
    # so an infinity becomes +-FLT_MAX where the spec keeps it (docs/fuzzing.md).
    return g.add("Clip", [x.name, low, high], x.shape)


def _mod(g: Graph) -> Value | None:
    x = g.pick()
    if x is None:
        return None
    other, shape = _broadcast_partner(g, x)
    return g.add("Mod", [x.name, other], shape, fmod=1)


def _gelu(g: Graph) -> Value | None:
    x = g.pick()
    mode = str(g.rng.choice(["none", "tanh"]))
    return None if x is None else g.add("Gelu", [x.name], x.shape, approximate=mode)


def _prelu(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape or not isinstance(x.shape[-1], int):
        return None
    slope = g.constant(g.rng.uniform(0.0, 0.5, x.shape[-1]).astype(np.float32))
    return g.add("PRelu", [x.name, slope], x.shape)


def _cast_like(g: Graph) -> Value | None:
    x = g.pick()
    if x is None:
        return None
    like = g.constant(np.zeros((), np.float32))
    return g.add("CastLike", [x.name, like], x.shape)


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


def _reduce(op_type: str) -> Generator:
    """Opset 20: every reduction takes `axes` as an input."""

    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None or not x.shape:
            return None
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
        return _to_float(g, value)

    return make


def _layer_norm(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape or not isinstance(x.shape[-1], int):
        return None
    n = x.shape[-1]
    scale = g.constant(g.rng.uniform(0.5, 1.5, n).astype(np.float32))
    bias = g.constant(g.rng.standard_normal(n).astype(np.float32))
    return g.add("LayerNormalization", [x.name, scale, bias], x.shape, axis=-1)


def _dropout(g: Graph) -> Value | None:
    x = g.pick()
    return None if x is None else g.add("Dropout", [x.name], x.shape)


def _trilu(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or len(x.shape) < 2:
        return None
    k = g.constant(np.array(int(g.rng.integers(-3, 4)), np.int64), "k")
    return g.add("Trilu", [x.name, k], x.shape, upper=int(g.rng.integers(2)))


def _cumsum(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape:
        return None
    axis = g.constant(
        np.array(int(g.rng.integers(-len(x.shape), len(x.shape))), np.int64), "axis"
    )
    flags = {"exclusive": int(g.rng.integers(2)), "reverse": int(g.rng.integers(2))}
    return g.add("CumSum", [x.name, axis], x.shape, **flags)


def _scatter_elements(g: Graph) -> Value | None:
    """Indices in range of a static axis; size 1 in dynamic dims (any run-time
    size holds it); a reduction, so that duplicates are defined."""
    x = g.pick()
    static = [d for d, n in enumerate(x.shape) if isinstance(n, int)] if x else []
    if x is None or not static:
        return None
    axis = static[int(g.rng.integers(len(static)))]
    n = x.shape[axis]
    assert isinstance(n, int)
    shape = [s if isinstance(s, int) else 1 for s in x.shape]
    indices = g.constant(g.rng.integers(-n, n, shape).astype(np.int64), "idx")
    updates = g.constant(g.rng.uniform(0.5, 1.5, shape).astype(np.float32), "upd")
    reduction = str(g.rng.choice(["add", "mul", "max", "min"]))
    return g.add(
        "ScatterElements",
        [x.name, indices, updates],
        x.shape,
        axis=axis,
        reduction=reduction,
    )


def _scatter_nd(g: Graph) -> Value | None:
    """One row of dim 0 (0 or -1: there for any run-time size)."""
    x = g.pick()
    if x is None or not x.shape or not all(isinstance(n, int) for n in x.shape[1:]):
        return None
    rest = [int(n) for n in x.shape[1:]]
    indices = g.constant(np.array([[int(g.rng.choice([0, -1]))]], np.int64), "rows")
    updates = g.constant(g.rng.standard_normal([1, *rest]).astype(np.float32), "upd")
    reduction = str(g.rng.choice(["none", "add", "mul", "max", "min"]))
    return g.add("ScatterND", [x.name, indices, updates], x.shape, reduction=reduction)


def _one_hot(g: Graph) -> Value | None:
    """OneHot of an ArgMax over a static last dim, that many classes; rank >= 2,
    as ONNX Runtime refuses 0-D indices."""
    x = g.pick()
    if x is None or len(x.shape) < 2 or not isinstance(x.shape[-1], int):
        return None
    depth = x.shape[-1]
    best = g.add("ArgMax", [x.name], x.shape[:-1], axis=-1, keepdims=0)
    g.values.pop()
    axis = int(g.rng.integers(-len(x.shape), len(x.shape)))
    shape = list(x.shape[:-1])
    shape.insert(axis % len(x.shape), depth)
    depth_name = g.constant(np.array(float(depth), np.float32), "depth")
    values = g.constant(np.array([-0.5, 2.0], np.float32), "values")
    return g.add("OneHot", [best.name, depth_name, values], tuple(shape), axis=axis)


def _channels_first(g: Graph) -> Value | None:
    """A rank-3 value as (batch, channels, length): channels static, length
    whatever it is (a named dim included)."""
    x = g.pick(rank=3)
    if x is None or not isinstance(x.shape[2], int):
        return None
    return g.add(
        "Transpose", [x.name], (x.shape[0], x.shape[2], x.shape[1]), perm=[0, 2, 1]
    )


def _conv(g: Graph) -> Value | None:
    x = _channels_first(g)
    if x is None:
        return None
    channels = x.shape[1]
    assert isinstance(channels, int)
    group = int(g.rng.choice([d for d in (1, 2, channels) if channels % d == 0]))
    out = group * int(g.rng.integers(1, 3))
    k = int(g.rng.choice([1, 3]))
    w = (
        g.rng.standard_normal((out, channels // group, k)) / math.sqrt(k * channels)
    ).astype(np.float32)
    inputs = [x.name, g.constant(w, "w")]
    if g.rng.random() < 0.5:
        inputs.append(g.constant(g.rng.standard_normal(out).astype(np.float32), "b"))
    shape = (x.shape[0], out, x.shape[2])
    return g.add(
        "Conv", inputs, shape, group=group, kernel_shape=[k], pads=[k // 2, k // 2]
    )


def _pool(op_type: str) -> Generator:
    def make(g: Graph) -> Value | None:
        x = _channels_first(g)
        if x is None:
            return None
        if op_type.startswith("Global"):
            return g.add(op_type, [x.name], (x.shape[0], x.shape[1], 1))
        # kernel 2, stride 1, one pad at the end: the length is kept.
        shape = x.shape
        return g.add(op_type, [x.name], shape, kernel_shape=[2], pads=[0, 1])

    return make


def _conv_transpose(g: Graph) -> Value | None:
    """Kernel 3, stride 1, pads 1 and 1: the length is kept."""
    x = _channels_first(g)
    if x is None:
        return None
    channels = x.shape[1]
    assert isinstance(channels, int)
    group = int(g.rng.choice([d for d in (1, 2, channels) if channels % d == 0]))
    out = group * int(g.rng.integers(1, 3))
    w = (
        g.rng.standard_normal((channels, out // group, 3)) / math.sqrt(3 * channels)
    ).astype(np.float32)
    inputs = [x.name, g.constant(w, "w")]
    if g.rng.random() < 0.5:
        inputs.append(g.constant(g.rng.standard_normal(out).astype(np.float32), "b"))
    shape = (x.shape[0], out, x.shape[2])
    return g.add("ConvTranspose", inputs, shape, group=group, pads=[1, 1])


def _resize(g: Graph) -> Value | None:
    """The length doubled (a static one), linear or nearest."""
    x = _channels_first(g)
    if x is None or not isinstance(x.shape[2], int):
        return None
    scales = g.constant(np.asarray([1.0, 1.0, 2.0], np.float32), "scales")
    mode = str(g.rng.choice(["nearest", "linear"]))
    shape = (x.shape[0], x.shape[1], 2 * x.shape[2])
    return g.add("Resize", [x.name, "", scales], shape, mode=mode)


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


def _index_array(g: Graph, size: int | str, shape: tuple[int, ...]) -> np.ndarray:
    """Indices into a dim, negative ones too: `[-n, n)` for a static size, 0 or
    -1 (valid at every size) for a dynamic one."""
    if isinstance(size, int):
        return g.rng.integers(-size, size, shape).astype(np.int64)
    return g.rng.choice(np.array([0, -1], np.int64), shape)


def _gather(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape or len(x.shape) > 3:
        return None
    axis = int(g.rng.integers(-len(x.shape), len(x.shape)))
    here = axis % len(x.shape)
    shape = tuple(int(n) for n in g.rng.integers(1, 4, int(g.rng.integers(0, 3))))
    idx = _index_array(g, x.shape[here], shape).astype(
        np.int32 if g.rng.random() < 0.5 else np.int64
    )
    out = (*x.shape[:here], *shape, *x.shape[here + 1 :])
    return g.add("Gather", [x.name, g.constant(idx, "idx")], out, axis=axis)


def _gather_elements(g: Graph) -> Value | None:
    """Off the axis the indices are no larger than data: 1 on a dynamic dim."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    axis = int(g.rng.integers(-len(x.shape), len(x.shape)))
    here = axis % len(x.shape)
    shape = tuple(
        int(g.rng.integers(1, 4))
        if d == here
        else int(g.rng.integers(1, n + 1))
        if isinstance(n, int)
        else 1
        for d, n in enumerate(x.shape)
    )
    idx = _index_array(g, x.shape[here], shape)
    return g.add("GatherElements", [x.name, g.constant(idx, "idx")], shape, axis=axis)


def _gather_nd(g: Graph) -> Value | None:
    """batch_dims 0: constant indices cannot share a dynamic batch dim."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    k = int(g.rng.integers(1, len(x.shape) + 1))
    lead = tuple(int(n) for n in g.rng.integers(1, 4, int(g.rng.integers(1, 3))))
    idx = np.stack([_index_array(g, n, lead) for n in x.shape[:k]], -1)
    out = (*lead, *x.shape[k:])
    return g.add("GatherND", [x.name, g.constant(idx, "idx")], out)


def _topk(g: Graph) -> Value | None:
    """Along a static dim, K a constant; the indices cast back to float32."""
    x = g.pick()
    if x is None:
        return None
    axes = [d for d, n in enumerate(x.shape) if isinstance(n, int)]
    if not axes:
        return None
    axis = axes[int(g.rng.integers(len(axes)))]
    n = x.shape[axis]
    assert isinstance(n, int)
    k = int(g.rng.integers(1, n + 1))
    shape = tuple(k if d == axis else size for d, size in enumerate(x.shape))
    values = Value(g.fresh("topk"), shape)
    indices = Value(g.fresh("topk_i"), shape)
    node = helper.make_node(
        "TopK",
        [x.name, g.constant(np.array([k], np.int64), "k")],
        [values.name, indices.name],
        name=values.name,
        axis=axis - len(x.shape) if g.rng.random() < 0.5 else axis,
        largest=int(g.rng.integers(2)),
    )
    g.nodes.append(node)
    g.values.append(values)
    g.values.append(indices)
    return _to_float(g, indices)


def _einsum(g: Graph) -> Value | None:
    """A projection of the last dim by a constant (`...ij,jk->...ik`), a
    swap of the last two dims or a sum over the last one."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    last = x.shape[-1]
    kind = int(g.rng.integers(3))
    if kind == 0 and isinstance(last, int):
        k = int(g.rng.integers(1, 6))
        w = (g.rng.standard_normal((last, k)) / math.sqrt(last)).astype(np.float32)
        inputs = [x.name, g.constant(w, "w")]
        shape = (*x.shape[:-1], k)
        return g.add("Einsum", inputs, shape, equation="...j,jk->...k")
    if kind == 1 and len(x.shape) >= 2:
        shape = (*x.shape[:-2], x.shape[-1], x.shape[-2])
        return g.add("Einsum", [x.name], shape, equation="...ij->...ji")
    return g.add("Einsum", [x.name], x.shape[:-1], equation="...j->...")


def _batch_norm(g: Graph) -> Value | None:
    x = _channels_first(g)
    if x is None:
        return None
    c = x.shape[1]
    assert isinstance(c, int)
    stats = [
        g.rng.uniform(0.5, 1.5, c),
        g.rng.standard_normal(c),
        g.rng.standard_normal(c),
        g.rng.uniform(0.5, 2.0, c),
    ]
    names = [g.constant(a.astype(np.float32)) for a in stats]
    return g.add("BatchNormalization", [x.name, *names], x.shape)


def _pad(g: Graph) -> Value | None:
    """Pads on the static dims: a crop of 1 or a pad of up to 2 in constant
    mode; pads of 0 or 1 in the other modes, on dims of 2 or more."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    mode = str(g.rng.choice(["constant", "reflect", "edge", "wrap"]))
    rank = len(x.shape)
    pads = [0] * (2 * rank)
    for d, n in enumerate(x.shape):
        if not isinstance(n, int) or (mode != "constant" and n < 2):
            continue
        low = -1 if mode == "constant" and n > 2 else 0
        high = 2 if mode == "constant" else 1
        pads[d], pads[rank + d] = (int(v) for v in g.rng.integers(low, high + 1, 2))
    shape = tuple(
        n if isinstance(n, str) else n + pads[d] + pads[rank + d]
        for d, n in enumerate(x.shape)
    )
    inputs = [x.name, g.constant(np.array(pads, np.int64), "pads")]
    if mode == "constant":
        inputs.append(g.constant(np.array(g.rng.standard_normal(), np.float32)))
    return g.add("Pad", inputs, shape, mode=mode)


def _instance_norm(g: Graph) -> Value | None:
    x = _channels_first(g)
    if x is None:
        return None
    c = x.shape[1]
    assert isinstance(c, int)
    scale = g.constant(g.rng.uniform(0.5, 1.5, c).astype(np.float32))
    bias = g.constant(g.rng.standard_normal(c).astype(np.float32))
    return g.add("InstanceNormalization", [x.name, scale, bias], x.shape)


def _slice(g: Graph) -> Value | None:
    """A static dim sliced at random (out-of-range and negative starts and
    ends, negative steps), a dynamic one kept whole or reversed."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    axis = int(g.rng.integers(len(x.shape)))
    n, step = x.shape[axis], int(g.rng.choice([-2, -1, 1, 2]))
    if isinstance(n, str):
        start, end = (0, 2**63 - 1) if step > 0 else (-1, -(2**63))
        step, size = (1, n) if step > 0 else (-1, n)
    else:
        start, end = (int(v) for v in g.rng.integers(-n - 2, n + 3, 2))
        size = len(range(n)[start:end:step])
        if size == 0:
            return None
    names = [g.constant(np.array([v], np.int64), "s") for v in (start, end)]
    axes = g.constant(np.array([axis - len(x.shape)], np.int64), "axes")
    steps = g.constant(np.array([step], np.int64), "steps")
    shape = tuple(size if d == axis else m for d, m in enumerate(x.shape))
    return g.add("Slice", [x.name, *names, axes, steps], shape)


def _split(g: Graph) -> Value | None:
    """Two parts of a static dim: by `num_outputs` (an uneven last one) or by
    `split` sizes; both are values of the graph."""
    x = g.pick()
    axes = [] if x is None else [d for d, n in enumerate(x.shape) if n in range(2, 99)]
    if x is None or not axes:
        return None
    axis = axes[int(g.rng.integers(len(axes)))]
    n = x.shape[axis]
    assert isinstance(n, int)
    first = -(-n // 2) if g.rng.random() < 0.5 else int(g.rng.integers(1, n))
    outs = [Value(g.fresh("split"), x.shape), Value(g.fresh("split"), x.shape)]
    for value, size in zip(outs, (first, n - first), strict=True):
        value.shape = tuple(size if d == axis else m for d, m in enumerate(x.shape))
    if first == -(-n // 2):
        node = helper.make_node(
            "Split", [x.name], [v.name for v in outs], axis=axis, num_outputs=2
        )
    else:
        sizes = g.constant(np.array([first, n - first], np.int64), "split")
        node = helper.make_node("Split", [x.name, sizes], [v.name for v in outs])
        node.attribute.append(helper.make_attribute("axis", axis))
    g.nodes.append(node)
    g.values += outs
    return outs[-1]


def _tile(g: Graph) -> Value | None:
    """Static dims repeated 1 to 3 times; dynamic ones once."""
    x = g.pick()
    if x is None or len(x.shape) > 3:
        return None
    repeats = [1 if isinstance(n, str) else int(g.rng.integers(1, 4)) for n in x.shape]
    shape = tuple(n if r == 1 else n * r for n, r in zip(x.shape, repeats))  # pyright: ignore[reportOperatorIssue]
    name = g.constant(np.array(repeats, np.int64), "repeats")
    return g.add("Tile", [x.name, name], shape)


def _expand(g: Graph) -> Value | None:
    """numpy broadcasting both ways: a size-1 dim widened, a 1 in the shape
    keeping the input's dim, a new leading dim sometimes."""
    x = g.pick()
    if x is None or len(x.shape) > 3:
        return None
    lead = [int(g.rng.integers(1, 3))] if g.rng.random() < 0.5 else []
    target = lead + [int(g.rng.integers(1, 4)) if n == 1 else 1 for n in x.shape]
    shape = (*lead, *(t if n == 1 else n for n, t in zip(x.shape, target[len(lead) :])))
    name = g.constant(np.array(target, np.int64), "shape")
    return g.add("Expand", [x.name, name], shape)


def _elementwise_table() -> dict[str, Generator]:
    """A generator for every op of `compute.ELEMENTWISE`, from its formula:
    bool results are cast back to float32, bool operands are comparisons."""
    from xhip.dialects.formula import operand_types
    from xhip.transforms.onnx_to_hip.compute import ELEMENTWISE

    table: dict[str, Generator] = {}
    for onnx_type, hip_type in ELEMENTWISE.items():
        op_type = onnx_type.name.removeprefix("onnx.")
        formula = hip_type.FORMULA
        arity = formula.arity()
        bools = operand_types(formula, arity)
        if op_type == "Where":
            table[op_type] = _where
        elif any(bools):
            table[op_type] = _logical(op_type, arity)
        elif formula.is_bool():
            table[op_type] = _bool_result(op_type, arity)
        else:
            table[op_type] = _unary(op_type) if arity == 1 else _binary(op_type)
    return table


GENERATORS: dict[str, Generator] = {
    **_elementwise_table(),
    "Max": _variadic("Max"),
    "Min": _variadic("Min"),
    "Sum": _variadic("Sum"),
    "Mean": _variadic("Mean"),
    "Clip": _clip,
    "Mod": _mod,
    "Gelu": _gelu,
    "PRelu": _prelu,
    "CastLike": _cast_like,
    "LogSoftmax": _axis_op("LogSoftmax"),
    # With NaN, ORT's Hardmax depends on its SIMD lanes (docs/fuzzing.md).
    "Hardmax": _axis_op("Hardmax", nan_free=True),
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
    "ArgMax": _arg_reduce("ArgMax"),
    "ArgMin": _arg_reduce("ArgMin"),
    "LayerNormalization": _layer_norm,
    "Dropout": _dropout,
    "Trilu": _trilu,
    "CumSum": _cumsum,
    "ScatterElements": _scatter_elements,
    "ScatterND": _scatter_nd,
    "OneHot": _one_hot,
    "Conv": _conv,
    "MaxPool": _pool("MaxPool"),
    "AveragePool": _pool("AveragePool"),
    "GlobalAveragePool": _pool("GlobalAveragePool"),
    "GlobalMaxPool": _pool("GlobalMaxPool"),
    "LpPool": _pool("LpPool"),
    "ConvTranspose": _conv_transpose,
    "Resize": _resize,
    "BatchNormalization": _batch_norm,
    "Pad": _pad,
    "InstanceNormalization": _instance_norm,
    "Gather": _gather,
    "Shape": _range,
    "Range": _range,
    "Size": _size,
    "ConstantOfShape": _constant_of_shape,
    "GatherElements": _gather_elements,
    "GatherND": _gather_nd,
    "Add": _binary("Add"),
    "Sub": _binary("Sub"),
    "Mul": _binary("Mul"),
    "Div": _binary("Div"),
    "Pow": _pow,
    "Relu": _unary("Relu"),
    "Exp": _unary("Exp"),
    "Neg": _unary("Neg"),
    "Sigmoid": _unary("Sigmoid"),
    "Sqrt": _unary("Sqrt"),
    "Tanh": _unary("Tanh"),
    "Abs": _unary("Abs"),
    "Identity": _unary("Identity"),
    "MatMul": _matmul,
    "Gemm": _gemm,
    "Softmax": _softmax,
    "Transpose": _transpose,
    "Concat": _concat,
    "Flatten": _flatten,
    "Reshape": _reshape,
    "Unsqueeze": _unsqueeze,
    "Squeeze": _squeeze,
    "Cast": _cast,
    "Slice": _slice,
    "Split": _split,
    "Tile": _tile,
    "Expand": _expand,
    "TopK": _topk,
    "Einsum": _einsum,
}
"""One generator per ONNX op type the fuzzer draws from."""

NOT_DRAWN: dict[str, str] = {
    "Constant": "initializers stand in for it",
    "RMSNormalization": "an opset-23 op; the fuzzer's graphs are opset 20",
    "Attention": "an opset-23 op; the fuzzer's graphs are opset 20",
    "RotaryEmbedding": "an opset-23 op; the fuzzer's graphs are opset 20",
    "GroupNormalization": (
        "at the fuzzer's opset 20 it is GroupNormalization-18, which onnx's "
        "checker refuses as deprecated"
    ),
    "DepthToSpace": "4-D only; the fuzzer's values have rank 2 or 3",
    "LRN": "ONNX Runtime's LRN takes 4-D inputs only; the fuzzer's values have rank 2 or 3",
    "SpaceToDepth": "4-D only; the fuzzer's values have rank 2 or 3",
}
"""Ops the importer reads that the fuzzer does not draw, with the reason."""


def unfuzzed_ops() -> list[str]:
    """Ops the importer reads that the fuzzer has no generator for."""
    from xhip.frontend.onnx_importer import supported_ops

    return sorted(set(supported_ops()) - set(GENERATORS) - set(NOT_DRAWN))


@dataclass
class Case:
    model: onnx.ModelProto
    feeds: dict[str, np.ndarray]


def generate(seed: int, max_ops: int = 8) -> Case:
    """A random graph and inputs: the same ones for the same seed."""
    rng = np.random.default_rng(seed)
    g = Graph(rng)
    dims: dict[str, int] = {
        "batch": int(rng.integers(1, 4)),
        "seq": int(rng.integers(1, 6)),
    }
    features = int(rng.choice([1, 3, 4, 6, 8]))
    shapes: list[Shape] = [("batch", "seq", features), ("batch", features)]
    inputs: list[onnx.ValueInfoProto] = []
    feeds: dict[str, np.ndarray] = {}
    for i in range(int(rng.integers(1, 3))):
        shape = shapes[int(rng.integers(len(shapes)))]
        name = f"x{i}"
        g.values.append(Value(name, shape))
        inputs.append(
            helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape))
        )
        concrete = [dims[d] if isinstance(d, str) else d for d in shape]
        feeds[name] = rng.standard_normal(concrete).astype(np.float32)
    ops = sorted(GENERATORS)
    for _ in range(int(rng.integers(1, max_ops + 1))):
        for _attempt in range(8):
            if GENERATORS[ops[int(rng.integers(len(ops)))]](g) is not None:
                break
    produced = [v for v in g.values if v.name not in feeds]
    if not produced:
        produced = [g.add("Identity", [g.values[0].name], g.values[0].shape)]
    count = min(len(produced), int(rng.integers(1, 4)))
    chosen = sorted(
        {int(i) for i in rng.choice(len(produced), count, replace=False)}
        | {len(produced) - 1}
    )
    outputs = [
        helper.make_tensor_value_info(
            produced[i].name, TensorProto.FLOAT, list(produced[i].shape)
        )
        for i in chosen
    ]
    graph = helper.make_graph(g.nodes, f"fuzz{seed}", inputs, outputs, g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 9
    return Case(model, feeds)


Outcome = Literal["match", "mismatch", "refused", "error"]


@dataclass
class Result:
    seed: int
    outcome: Outcome
    detail: str = ""


RTOL, ATOL = 1e-4, 1e-5
"""float32 through a few ops: relative to each output's scale."""


def _differs(got: np.ndarray, want: np.ndarray) -> str | None:
    if got.shape != want.shape:
        return f"shape {got.shape} != {want.shape}"
    nan = np.isnan(want)
    if not np.array_equal(np.isnan(got), nan):
        return "NaN positions differ"
    finite = ~nan
    if not np.array_equal(np.isinf(got[finite]), np.isinf(want[finite])):
        return "infinities differ"
    ok = finite & ~np.isinf(want)
    if not ok.any():
        return None
    scale = max(float(np.max(np.abs(want[ok]))), 1.0)
    error = float(np.max(np.abs(got[ok].astype(np.float64) - want[ok])))
    if error > ATOL * scale + RTOL * scale:
        return f"max error {error:.3g} at scale {scale:.3g}"
    return None


def check(seed: int, device: str = "cpu") -> Result:
    """Compile and run the seed's graph with xhip and ONNX Runtime."""
    import onnxruntime as ort
    from xdsl.utils.exceptions import PassFailedException

    import xhip
    from xhip.frontend import OnnxImportError

    case = generate(seed)
    options = ort.SessionOptions()
    options.log_severity_level = 3  # not the unused-initializer notes
    session = ort.InferenceSession(
        case.model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    expected = session.run(None, case.feeds)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = xhip.compile(case.model, device=device)(case.feeds)
    except (OnnxImportError, PassFailedException) as e:
        return Result(seed, "refused", str(e).splitlines()[0])
    except Exception:
        return Result(seed, "error", traceback.format_exc(limit=-3))
    names = [o.name for o in case.model.graph.output]
    for name, want in zip(names, expected, strict=True):
        why = _differs(np.asarray(got[name]), np.asarray(want))
        if why is not None:
            return Result(seed, "mismatch", f"output {name}: {why}")
    return Result(seed, "match")
