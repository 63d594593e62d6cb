"""What the generators build on: the graph so far, its values and constants,
and the helpers several families share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 20
"""The graphs' base opset; an op newer than it declares the opset it needs in
its family's `OPSETS`, and a graph that draws it imports that one."""

MS = "com.microsoft"
"""ONNX Runtime's contrib domain (version 1): its ops' generators are named
`com.microsoft.<op type>`."""


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


def contrib(
    g: Graph, op_type: str, inputs: list[str], shape: Shape, **attributes: object
) -> Value:
    """`Graph.add` of ONNX Runtime's contrib op `op_type` (`MS`)."""
    out = g.add(op_type, inputs, shape, **attributes)
    g.nodes[-1].domain = MS
    return out


Generator = Callable[[Graph], Value | None]
"""Adds one node of its op type to the graph, or None if nothing fits."""


def broadcast_partner(g: Graph, x: Value) -> tuple[str, Shape]:
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


def to_float(g: Graph, value: Value) -> Value:
    """`value` (bool or int64) cast back to float32, so later ops may read it."""
    g.values.pop()
    return g.add("Cast", [value.name], value.shape, to=TensorProto.FLOAT)


def channels_first(g: Graph) -> Value | None:
    """A rank-3 value as (batch, channels, length): channels static, length
    whatever it is (a named dim included)."""
    x = g.pick(rank=3)
    if x is None or not isinstance(x.shape[2], int):
        return None
    return g.add(
        "Transpose", [x.name], (x.shape[0], x.shape[2], x.shape[1]), perm=[0, 2, 1]
    )


def image(g: Graph) -> Value | None:
    """A 4-D value (batch, channels, height, width): `channels_first`'s
    (batch, C, L) with a height of 1, 2 or 4 whose rows a constant scales, so
    they differ; the channels static, the width whatever L is. The steps are
    not offered to later generators."""
    x = channels_first(g)
    if x is None:
        return None
    height = int(g.rng.choice([1, 2, 4]))
    axes = g.constant(np.array([2], np.int64), "axes")
    tall = g.add("Unsqueeze", [x.name, axes], (x.shape[0], x.shape[1], 1, x.shape[2]))
    rows = g.constant(g.rng.uniform(0.5, 1.5, (1, 1, height, 1)).astype(np.float32))
    shape = (x.shape[0], x.shape[1], height, x.shape[2])
    out = g.add("Mul", [tall.name, rows], shape)
    del g.values[-2:]
    return out


def to_integers(g: Graph, x: Value, unsigned: bool = False) -> Value:
    """`x` as int32 in [-63, 63] (uint32 in [0, 63] if `unsigned`): NaN made
    0, squashed by Tanh (Sigmoid), scaled by 63.5 and truncated, so the float
    to integer conversion is one ONNX Runtime and xhip make alike: no NaN or
    out-of-range values (C leaves them undefined), and no integer at the
    ends, where Tanh's 1 - 1e-7 (numpy) and 1 (ONNX Runtime) would part."""
    zero = g.constant(np.array(0.0, np.float32))
    steps = [
        ("IsNaN", [x.name]),
        ("Where", [None, zero, x.name]),
        ("Sigmoid" if unsigned else "Tanh", [None]),
        ("Mul", [None, g.constant(np.array(63.5, np.float32))]),
    ]
    value = x
    for op_type, inputs in steps:
        value = g.add(op_type, [n or value.name for n in inputs], x.shape)
        g.values.pop()  # not a value other generators may read
    to = TensorProto.UINT32 if unsigned else TensorProto.INT32
    cast = g.add("Cast", [value.name], x.shape, to=to)
    g.values.pop()
    return cast


def integer_partner(g: Graph, x: Value, unsigned: bool = False) -> str:
    """Another integer operand for `x` (see `to_integers`): a constant that
    broadcasts, or an integer of a value of its shape."""
    same = [v for v in g.values if v.shape == x.shape and v is not x]
    if same and g.rng.random() < 0.5:
        return to_integers(g, same[int(g.rng.integers(len(same)))], unsigned).name
    static = [d if isinstance(d, int) else 1 for d in x.shape]
    keep = int(g.rng.integers(0, len(static) + 1))
    shape = [1 if g.rng.random() < 0.3 else d for d in static[len(static) - keep :]]
    low = 0 if unsigned else -64
    array = g.rng.integers(low, 65, shape).astype(np.uint32 if unsigned else np.int32)
    return g.constant(array)
