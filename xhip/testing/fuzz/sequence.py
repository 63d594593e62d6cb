"""Generators of the sequence and optional ops (`onnx_to_hip/sequence.py`):
each builds a sequence (or optional) from values of one shape and reads a
tensor back from it, so later ops may use the result."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper

from xhip.testing.fuzz.graph import Generator, Graph, Value


def _node(g: Graph, op_type: str, inputs: list[str], **attributes: object) -> str:
    """A node whose one result (a sequence, an optional or a tensor no
    other generator reads) is not a value of the graph's."""
    name = g.fresh(op_type.lower())
    node = helper.make_node(op_type, inputs, [name], name=name)
    node.attribute.extend(
        helper.make_attribute(k, v) for k, v in sorted(attributes.items())
    )
    g.nodes.append(node)
    return name


def _int(g: Graph, value: int) -> str:
    return g.constant(np.array(value, np.int64), "i")


def _members(g: Graph) -> tuple[Value, list[str]] | None:
    """A value and one to three values of its shape (repeats allowed)."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    same = [v for v in g.values if v.shape == x.shape]
    count = int(g.rng.integers(1, 4))
    return x, [same[int(g.rng.integers(len(same)))].name for _ in range(count)]


def _static_axis(g: Graph, x: Value) -> int | None:
    axes = [a for a, d in enumerate(x.shape) if isinstance(d, int)]
    return None if not axes else axes[int(g.rng.integers(len(axes)))]


def _concat(g: Graph, x: Value, sequence: str, count: int) -> Value | None:
    """ConcatFromSequence of `count` tensors of x's shape: along a static
    axis, or stacked on a new one (`new_axis`)."""
    if g.rng.random() < 0.5:
        axis = int(g.rng.integers(0, len(x.shape) + 1))
        shape = (*x.shape[:axis], count, *x.shape[axis:])
        return g.add("ConcatFromSequence", [sequence], shape, axis=axis, new_axis=1)
    axis = _static_axis(g, x)
    if axis is None:
        return None
    size = x.shape[axis]
    assert isinstance(size, int)
    shape = (*x.shape[:axis], size * count, *x.shape[axis + 1 :])
    return g.add("ConcatFromSequence", [sequence], shape, axis=axis)


def _construct(g: Graph) -> Value | None:
    """SequenceConstruct of values of one shape, concatenated back."""
    drawn = _members(g)
    if drawn is None:
        return None
    x, names = drawn
    return _concat(g, x, _node(g, "SequenceConstruct", names), len(names))


def _at(g: Graph) -> Value | None:
    """One of them, at a position from the front or (negative) the back."""
    drawn = _members(g)
    if drawn is None:
        return None
    x, names = drawn
    position = int(g.rng.integers(-len(names), len(names)))
    sequence = _node(g, "SequenceConstruct", names)
    return g.add("SequenceAt", [sequence, _int(g, position)], x.shape)


def _length(g: Graph) -> Value | None:
    """A value times its sequence's length (cast to float)."""
    drawn = _members(g)
    if drawn is None:
        return None
    x, names = drawn
    length = _node(g, "SequenceLength", [_node(g, "SequenceConstruct", names)])
    scale = _node(g, "Cast", [length], to=TensorProto.FLOAT)
    return g.add("Mul", [x.name, scale], x.shape)


def _insert(g: Graph) -> Value | None:
    """A value inserted at a drawn position (or appended), concatenated."""
    drawn = _members(g)
    if drawn is None:
        return None
    x, names = drawn
    inputs = [_node(g, "SequenceConstruct", names), x.name]
    if g.rng.random() < 0.7:
        inputs.append(_int(g, int(g.rng.integers(-len(names), len(names) + 1))))
    return _concat(g, x, _node(g, "SequenceInsert", inputs), len(names) + 1)


def _erase(g: Graph) -> Value | None:
    """One of two or more erased (at a position, or the last), concatenated."""
    drawn = _members(g)
    if drawn is None:
        return None
    x, names = drawn
    if len(names) < 2:
        names.append(x.name)
    inputs = [_node(g, "SequenceConstruct", names)]
    if g.rng.random() < 0.7:
        inputs.append(_int(g, int(g.rng.integers(-len(names), len(names)))))
    return _concat(g, x, _node(g, "SequenceErase", inputs), len(names) - 1)


def _empty(g: Graph) -> Value | None:
    """An empty float sequence, a value inserted, read back."""
    x = g.pick()
    if x is None:
        return None
    empty = _node(g, "SequenceEmpty", [], dtype=TensorProto.FLOAT)
    sequence = _node(g, "SequenceInsert", [empty, x.name])
    return g.add("SequenceAt", [sequence, _int(g, 0)], x.shape)


def _split_run_time(g: Graph, x: Value, axis: int) -> Value:
    """Split along a dim known only at run time, so into as many pieces as
    it decides: a piece from the front or the back; of a split by a scalar,
    the first or the last piece (a dim of its own) or the length (times the
    value); size-1 pieces (keeping the axis or not) joined along an axis
    (back along the split axis: the value) or stacked on a new one."""
    kind = int(g.rng.integers(4))
    if kind == 0:
        keepdims = int(g.rng.integers(2))
        sequence = _node(g, "SplitToSequence", [x.name], axis=axis, keepdims=keepdims)
        part = (*x.shape[:axis], *([1] if keepdims else []), *x.shape[axis + 1 :])
        index = _int(g, int(g.rng.choice([0, -1])))
        return g.add("SequenceAt", [sequence, index], part)
    if kind == 1:
        step = _int(g, int(g.rng.integers(1, 4)))
        sequence = _node(g, "SplitToSequence", [x.name, step], axis=axis)
        if g.rng.random() < 0.5:  # the first or the last, of a size of its own
            index = _int(g, int(g.rng.choice([0, -1])))
            part = (*x.shape[:axis], g.fresh("piece"), *x.shape[axis + 1 :])
            return g.add("SequenceAt", [sequence, index], part)
        length = _node(g, "SequenceLength", [sequence])
        scale = _node(g, "Cast", [length], to=TensorProto.FLOAT)
        return g.add("Mul", [x.name, scale], x.shape)
    keepdims = int(g.rng.integers(2))
    new = kind == 3
    if len(x.shape) == 1 and not new:
        keepdims = 1  # 0-D pieces have no axis to be joined along
    sequence = _node(g, "SplitToSequence", [x.name], axis=axis, keepdims=keepdims)
    part = [*x.shape[:axis], *([1] if keepdims else []), *x.shape[axis + 1 :]]
    at = int(g.rng.integers(len(part) + new))
    if new:
        shape = (*part[:at], x.shape[axis], *part[at:])
    elif keepdims and at == axis:
        shape = x.shape
    else:  # joined along `at`: a size known only at run time
        shape = (*part[:at], g.fresh("joined"), *part[at + 1 :])
    return g.add("ConcatFromSequence", [sequence], shape, axis=at, new_axis=int(new))


def _split(g: Graph) -> Value | None:
    """A value split along an axis: a static one into ones or by drawn
    sizes, read back by SequenceAt or concatenated; one known only at run
    time as `_split_run_time` reads it."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    axis = int(g.rng.integers(len(x.shape)))
    size = x.shape[axis]
    if not isinstance(size, int):
        return _split_run_time(g, x, axis)
    if g.rng.random() < 0.5:
        keepdims = int(g.rng.integers(2))
        sequence = _node(g, "SplitToSequence", [x.name], axis=axis, keepdims=keepdims)
        part = (*x.shape[:axis], *([1] if keepdims else []), *x.shape[axis + 1 :])
        index = _int(g, int(g.rng.integers(-size, size)))
        return g.add("SequenceAt", [sequence, index], part)
    cuts = sorted({int(c) for c in g.rng.integers(1, size, 2)}) if size > 1 else []
    sizes = np.diff([0, *cuts, size]).astype(np.int64)
    split = g.constant(sizes, "split")
    sequence = _node(g, "SplitToSequence", [x.name, split], axis=axis)
    return g.add("ConcatFromSequence", [sequence], x.shape, axis=axis)


def _map(g: Graph) -> Value | None:
    """SequenceMap of a body that squashes each tensor (Tanh or Sigmoid)."""
    drawn = _members(g)
    if drawn is None:
        return None
    x, names = drawn
    op_type = str(g.rng.choice(["Tanh", "Sigmoid"]))
    body = helper.make_graph(
        [helper.make_node(op_type, ["in"], ["out"])],
        g.fresh("body"),
        [helper.make_tensor_value_info("in", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)],
    )
    sequence = _node(g, "SequenceConstruct", names)
    mapped = _node(g, "SequenceMap", [sequence], body=body)
    return _concat(g, x, mapped, len(names))


def _optional(g: Graph) -> Value | None:
    """Optional of a value, its element read back."""
    x = g.pick()
    if x is None:
        return None
    optional = _node(g, "Optional", [x.name])
    return g.add("OptionalGetElement", [optional], x.shape)


def _has_element(g: Graph) -> Value | None:
    """A value plus whether its optional (or an empty one) has an element."""
    x = g.pick()
    if x is None:
        return None
    if g.rng.random() < 0.5:
        optional = _node(g, "Optional", [x.name])
    else:
        kind = helper.make_tensor_type_proto(TensorProto.FLOAT, None)
        optional = _node(g, "Optional", [], type=kind)
    has = _node(g, "OptionalHasElement", [optional])
    return g.add(
        "Add", [x.name, _node(g, "Cast", [has], to=TensorProto.FLOAT)], x.shape
    )


GENERATORS: dict[str, Generator] = {
    "SequenceConstruct": _construct,
    "ConcatFromSequence": _construct,
    "SequenceAt": _at,
    "SequenceLength": _length,
    "SequenceInsert": _insert,
    "SequenceErase": _erase,
    "SequenceEmpty": _empty,
    "SplitToSequence": _split,
    "SequenceMap": _map,
    "Optional": _optional,
    "OptionalGetElement": _optional,
    "OptionalHasElement": _has_element,
}
