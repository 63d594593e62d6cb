"""Our own result shapes, for what `onnx.shape_inference` leaves open.

Inference gives a value nothing when one input's rank is unknown to it (an
`Unsqueeze` whose axes are computed, even from constants), and everything
downstream of it follows: the `Shape -> Slice -> Concat -> Reshape` of an
exported flatten is then rank-less too. These rules know at least the rank of
the common ops' results from their inputs' ranks, the lengths of their shape
operands and constant operands; every dim they cannot prove is dynamic
(`DYNAMIC_INDEX`), and the conversion sizes it at run time.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
from onnx import AttributeProto, NodeProto, TensorProto
from xdsl.dialects.builtin import DYNAMIC_INDEX

Known = tuple[int, list[int]]
"""What a rule knows of a value: element type (0: unknown) and dims."""

Input = tuple[int, list[int] | None] | None
"""An input as the rules see it: None when absent or untyped, dims None
when the rank is unknown."""

D = DYNAMIC_INDEX

_SAME_SHAPE = {
    *"Abs Acos Acosh Asin Asinh Atan Atanh BitwiseNot Ceil Celu Clip Cos Cosh "
    "CumSum Dropout Elu Erf Exp FastGelu Floor Gelu HardSigmoid HardSwish "
    "Hardmax Identity InstanceNormalization LRN LayerNormalization LeakyRelu "
    "Log LogSoftmax Mish Neg QuickGelu RMSNormalization Reciprocal Relu Round "
    "Selu Shrink Sigmoid Sign SimplifiedLayerNormalization Sin Sinh Softmax "
    "Softplus Softsign Sqrt Swish Tan Tanh ThresholdedRelu Trilu "
    "BatchNormalization GroupNormalization".split()
}
_BOOL_SAME_SHAPE = {"Not", "IsNaN", "IsInf"}
_BROADCAST = {
    *"Add Sub Mul Div Pow Mod Max Min Sum Mean PRelu BitShift BitwiseAnd "
    "BitwiseOr BitwiseXor".split()
}
_COMPARE = {*"Equal Less LessOrEqual Greater GreaterOrEqual And Or Xor".split()}
_REDUCE = {
    *"ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceMax ReduceMean "
    "ReduceMin ReduceProd ReduceSum ReduceSumSquare".split()
}


def attr_int(node: NodeProto, name: str, default: int) -> int:
    for a in node.attribute:
        if a.name == name and a.type == AttributeProto.INT:
            return a.i
    return default


def attr_ints(node: NodeProto, name: str) -> list[int] | None:
    for a in node.attribute:
        if a.name == name and a.type == AttributeProto.INTS:
            return list(a.ints)
    return None


def broadcast(shapes: Sequence[list[int]]) -> list[int]:
    """numpy's broadcast of `shapes`, dynamic where a dim is not known."""
    rank = max(len(s) for s in shapes)
    out: list[int] = []
    for i in range(rank):
        dims = [s[i - rank + len(s)] for s in shapes if i - rank + len(s) >= 0]
        known = {d for d in dims if d not in (1, D)}
        if known:
            out.append(known.pop())
        elif D in dims:
            out.append(D)
        else:
            out.append(1)
    return out


def own_shape(
    node: NodeProto, ins: Sequence[Input], consts: Mapping[str, np.ndarray]
) -> Known | None:
    """The first result of `node` as far as our rules know it, or None."""
    rule = _RULES.get(node.op_type)
    if rule is None or not ins or ins[0] is None:
        return None
    return rule(node, ins, _Consts(node, consts))


class _Consts:
    """The node's inputs whose values are known before the run."""

    def __init__(self, node: NodeProto, consts: Mapping[str, np.ndarray]):
        self.node = node
        self.consts = consts

    def ints(self, i: int) -> list[int] | None:
        names = self.node.input
        if i >= len(names) or names[i] not in self.consts:
            return None
        return [int(v) for v in self.consts[names[i]].reshape(-1)]


Rule = Callable[[NodeProto, Sequence[Input], _Consts], Known | None]


def _dims(x: Input) -> list[int] | None:
    return None if x is None or x[1] is None else list(x[1])


def _elem(x: Input) -> int:
    return 0 if x is None else x[0]


def _length(x: Input) -> int | None:
    """The static length of a 1-D operand (a shape, axes), else None."""
    d = _dims(x)
    return d[0] if d is not None and len(d) == 1 and d[0] != D else None


def _same(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d = _dims(ins[0])
    return None if d is None else (_elem(ins[0]), d)


def _same_bool(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d = _dims(ins[0])
    return None if d is None else (TensorProto.BOOL, d)


def _broadcasting(elem: Callable[[Sequence[Input]], int]) -> Rule:
    def rule(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
        shapes = [_dims(x) for x in ins if x is not None]
        if not shapes or any(s is None for s in shapes):
            return None
        return elem(ins), broadcast([s for s in shapes if s is not None])

    return rule


def _shape(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d = _dims(ins[0])
    if d is None:
        return None
    start, end = attr_int(node, "start", 0), attr_int(node, "end", len(d))
    return TensorProto.INT64, [len(range(len(d))[start:end])]


def _cast(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d = _dims(ins[0])
    elem = _elem(ins[1]) if node.op_type == "CastLike" else attr_int(node, "to", 0)
    return None if d is None else (elem, d)


def _gather(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d, idx = _dims(ins[0]), _dims(ins[1]) if len(ins) > 1 else None
    if d is None or idx is None or not d:
        return None
    axis = attr_int(node, "axis", 0) % len(d)
    return _elem(ins[0]), [*d[:axis], *idx, *d[axis + 1 :]]


def _concat(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    shapes = [_dims(x) for x in ins]
    if not shapes or any(s is None or not s for s in shapes):
        return None
    known = [s for s in shapes if s is not None]
    rank = len(known[0])
    if any(len(s) != rank for s in known):
        return None
    axis = attr_int(node, "axis", 0) % rank
    out = [next((s[i] for s in known if s[i] != D), D) for i in range(rank)]
    sizes = [s[axis] for s in known]
    out[axis] = D if D in sizes else sum(sizes)
    return _elem(ins[0]), out


def _unsqueeze(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d = _dims(ins[0])
    axes = c.ints(1) if len(ins) > 1 else attr_ints(node, "axes")
    if d is None:
        return None
    if axes is None:
        k = _length(ins[1]) if len(ins) > 1 else None
        if k is None:
            return None
        # Where the 1s go is known only at run time, unless every dim is 1.
        ones = all(s == 1 for s in d)
        return _elem(ins[0]), [1 if ones else D] * (len(d) + k)
    rank = len(d) + len(axes)
    ones = {a % rank for a in axes}
    rest = iter(d)
    return _elem(ins[0]), [1 if i in ones else next(rest) for i in range(rank)]


def _squeeze(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d = _dims(ins[0])
    if d is None:
        return None
    axes = c.ints(1) if len(ins) > 1 and ins[1] is not None else None
    if axes is not None:
        drop = {a % len(d) for a in axes} if d else set[int]()
        return _elem(ins[0]), [s for i, s in enumerate(d) if i not in drop]
    if len(ins) > 1 and ins[1] is not None:
        k = _length(ins[1])
        return None if k is None else (_elem(ins[0]), [D] * (len(d) - k))
    # A dynamic dim is taken as not 1 (torch.compile's 0/1 specialization);
    # the conversion guards it (`ConvertSqueeze`).
    return _elem(ins[0]), [s for s in d if s != 1]


def _reshape(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d = _dims(ins[0])
    target = c.ints(1)
    if target is None:
        n = _length(ins[1]) if len(ins) > 1 else None
        return None if n is None else (_elem(ins[0]), [D] * n)
    copy = not attr_int(node, "allowzero", 0)
    out = [
        t
        if t > 0
        else d[i]
        if t == 0 and copy and d is not None and i < len(d)
        else 0
        if t == 0 and not copy
        else D
        for i, t in enumerate(target)
    ]
    if target.count(-1) == 1 and d is not None and D not in d:
        rest = [s for i, s in enumerate(out) if target[i] != -1]
        if D not in rest and (whole := int(np.prod(rest, dtype=np.int64))):
            out[target.index(-1)] = int(np.prod(d, dtype=np.int64)) // whole
    return _elem(ins[0]), out


def _flatten(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d = _dims(ins[0])
    if d is None:
        return _elem(ins[0]), [D, D]
    axis = attr_int(node, "axis", 1) % (len(d) + 1) if d else 0

    def prod(s: list[int]) -> int:
        return D if D in s else int(np.prod(s, dtype=np.int64))

    return _elem(ins[0]), [prod(d[:axis]), prod(d[axis:])]


def _expand(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d, target = _dims(ins[0]), c.ints(1)
    if d is None:
        return None
    if target is not None:
        return _elem(ins[0]), broadcast([d, target])
    n = _length(ins[1]) if len(ins) > 1 else None
    return None if n is None else (_elem(ins[0]), [D] * max(n, len(d)))


def _slice(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    """Exact on the axes whose size and bounds are known, dynamic elsewhere."""
    d = _dims(ins[0])
    if d is None:
        return None
    starts, ends = c.ints(1), c.ints(2)
    axes = c.ints(3) if len(ins) > 3 and ins[3] is not None else None
    steps = c.ints(4) if len(ins) > 4 and ins[4] is not None else None
    if starts is None or ends is None or len(starts) != len(ends):
        known_axes = axes if axes is not None else range(len(d))
        sliced = {a % len(d) for a in known_axes} if d else set[int]()
        return _elem(ins[0]), [D if i in sliced else s for i, s in enumerate(d)]
    axes = axes if axes is not None else list(range(len(starts)))
    steps = steps if steps is not None else [1] * len(starts)
    out = list(d)
    for a, b, e, k in zip(axes, starts, ends, steps, strict=False):
        a %= len(d)
        out[a] = D if d[a] == D or not k else len(range(d[a])[slice(b, e, k)])
    return _elem(ins[0]), out


def _constant_of_shape(
    node: NodeProto, ins: Sequence[Input], c: _Consts
) -> Known | None:
    elem = next(
        (a.t.data_type for a in node.attribute if a.name == "value"),
        TensorProto.FLOAT,
    )
    if (target := c.ints(0)) is not None:
        return elem, target
    n = _length(ins[0])
    return None if n is None else (elem, [D] * n)


def _dynamic_same_rank(
    node: NodeProto, ins: Sequence[Input], c: _Consts
) -> Known | None:
    """Pad, Tile, Resize: the rank is kept, the sizes are computed."""
    d = _dims(ins[0])
    return None if d is None else (_elem(ins[0]), [D] * len(d))


def _reduce(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d = _dims(ins[0])
    if d is None:
        return None
    computed = len(ins) > 1 and ins[1] is not None
    axes = c.ints(1) if computed else attr_ints(node, "axes")
    keep = attr_int(node, "keepdims", 1)
    if computed and axes is None:
        # Axes known only at run time (xhip.compile specializes on them): the
        # rank follows from keepdims or their length, which dims are reduced
        # does not.
        if keep:
            return _elem(ins[0]), [1 if s == 1 else D for s in d]
        k = _length(ins[1])
        if k is None:
            return None
        if k == 0:
            return None  # all dims or none, by noop_with_empty_axes
        return _elem(ins[0]), [D] * (len(d) - k)
    if not axes:
        everything = not attr_int(node, "noop_with_empty_axes", 0)
        reduced = set(range(len(d))) if everything else set[int]()
    else:
        reduced = {a % len(d) for a in axes} if d else set[int]()
    out = [(1 if i in reduced else s) for i, s in enumerate(d)]
    return _elem(ins[0]), out if keep else [
        s for i, s in enumerate(d) if i not in reduced
    ]


def _split(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    """Each part: the input's dims, its size along `axis` dynamic unless the
    split sizes are constants and all equal."""
    d = _dims(ins[0])
    if d is None or not d:
        return None
    axis = attr_int(node, "axis", 0) % len(d)
    sizes = c.ints(1) if len(ins) > 1 and ins[1] is not None else None
    size = sizes[0] if sizes and len(set(sizes)) == 1 else D
    return _elem(ins[0]), [size if i == axis else s for i, s in enumerate(d)]


EVERY_OUTPUT = {"Split"}
"""Ops whose rule gives the type of each of their results, not only the first."""


def _range(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    return _elem(ins[0]), [D]


def _transpose(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    d = _dims(ins[0])
    if d is None:
        return None
    perm = attr_ints(node, "perm") or list(reversed(range(len(d))))
    if sorted(perm) != list(range(len(d))):
        return None
    return _elem(ins[0]), [d[p] for p in perm]


def _compress(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    """A condition known before the run keeps its true entries of the axis's
    (static) length; the rest of the condition is dropped (the spec)."""
    d = _dims(ins[0])
    condition = c.ints(1)
    if d is None or condition is None:
        return None
    axis = next((a.i for a in node.attribute if a.name == "axis"), None)
    if axis is None:
        length, out = math.prod(d) if D not in d else D, [D]
    else:
        axis %= max(len(d), 1)
        length, out = d[axis], list(d)
    if length == D:
        return None
    kept = sum(1 for v in condition[:length] if v)
    if axis is None:
        return _elem(ins[0]), [kept]
    out[axis] = kept
    return _elem(ins[0]), out


def _matmul(node: NodeProto, ins: Sequence[Input], c: _Consts) -> Known | None:
    a, b = _dims(ins[0]), _dims(ins[1]) if len(ins) > 1 else None
    if a is None or b is None or len(a) < 2 or len(b) < 2:
        return None
    batch = broadcast([a[:-2], b[:-2]]) if len(a) > 2 or len(b) > 2 else []
    return _elem(ins[0]), [*batch, a[-2], b[-1]]


_RULES: dict[str, Rule] = {
    **dict.fromkeys(_SAME_SHAPE, _same),
    **dict.fromkeys(_BOOL_SAME_SHAPE, _same_bool),
    **dict.fromkeys(_BROADCAST, _broadcasting(lambda ins: _elem(ins[0]))),
    **dict.fromkeys(_COMPARE, _broadcasting(lambda ins: TensorProto.BOOL)),
    "Where": _broadcasting(lambda ins: _elem(ins[1]) if len(ins) > 1 else 0),
    **dict.fromkeys(_REDUCE, _reduce),
    **dict.fromkeys(("Pad", "Tile", "Resize"), _dynamic_same_rank),
    "Slice": _slice,
    "Split": _split,
    "Shape": _shape,
    "Size": lambda node, ins, c: (TensorProto.INT64, []),
    "Cast": _cast,
    "CastLike": _cast,
    "Gather": _gather,
    "Concat": _concat,
    "Unsqueeze": _unsqueeze,
    "Squeeze": _squeeze,
    "Reshape": _reshape,
    "Flatten": _flatten,
    "Expand": _expand,
    "ConstantOfShape": _constant_of_shape,
    "Range": _range,
    "Transpose": _transpose,
    "MatMul": _matmul,
    "Compress": _compress,
}
