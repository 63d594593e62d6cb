"""`onnx-fold-shapes`: shape computations on the onnx dialect -> index arithmetic.

Exporters compute shapes at run time: `Shape -> Gather -> Unsqueeze -> Concat
-> Reshape`, `Shape -> Gather -> Range`. Every such int64 (or bool) tensor of
rank 0 or 1 with a static length is a *shape value*: its elements are sizes,
each a number or an `index` expression in the dims of the model's tensors.
This pass computes them, in program order, with `IndexArith`: a `Shape` gives
`tensor.dim`s (or numbers, for static dims), and `Gather`, `Slice`, `Concat`,
`Unsqueeze`, `Squeeze`, `Reshape`, `Identity`, `Cast`, `Add`, `Sub`, `Mul`,
`Div`, `Mod`, `Neg`, `Abs`, `Max`, `Min`, `Equal`, `Less`(`OrEqual`),
`Greater`(`OrEqual`), `Not`, `And`, `Or`, `Where`, `Expand`, `Size` and
constant `Range`s on them give `arith` ops on `index`.

Each folded op is replaced by what its value is: an `onnx.Constant` when every
element is a number, else a `tensor.from_elements` of the elements
(`arith.index_cast` to the element type; bools as `arith.cmpi ne, %x, %c0`).
The ops that use shapes read their elements back from there
(`index_arith.index_values`), so `Reshape(x, Concat(Shape(x)[0:2], [4, 16]))`
becomes a view with sizes `tensor.dim %x, 0` and `1`, and `Range(0, seq)` gets
a length the memory planner sees. A shape value that real compute reads (a
`Cast` to float, a Range's start) stays a `tensor.from_elements`, which
`convert-onnx-to-hip` turns into `hip.from_elements`: the host writes it.
What is dead afterwards (the `Shape`s, their `Gather`s) is erased.

`convert-onnx-to-hip` runs this pass first, so the seed's 21 passes stay 21;
it is registered on its own for tests and for reading the folded IR.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, builtin, tensor
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import Rewriter

from xhip.dialects import onnx
from xhip.dialects.constraints import AnyTensorTypeConstr
from xhip.transforms.index_arith import (
    ConstantFolder,
    Index,
    IndexArith,
    index_values,
    named_dims,
)

MAX_ELEMENTS = 64
"""Longer int tensors are data, not shapes: they are not unrolled."""

INT64_MAX = 2**63 - 1


def _shape_value_type(
    value: SSAValue, dynamic: bool = False
) -> TensorType[Attribute] | None:
    """The type of `value` if it can be a shape value: int or bool, rank <= 1,
    static length of at most `MAX_ELEMENTS` (or, with `dynamic`, a 1-D length
    shape inference did not know: the fold may)."""
    t = value.type
    if not isinstance(t, TensorType):
        return None
    element = t.get_element_type()  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    if not isinstance(element, IntegerType):
        return None
    shape = t.get_shape()  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    if (
        len(shape) > 1
        or any(s < 0 for s in shape if not dynamic)
        or (shape and shape[0] > MAX_ELEMENTS)
    ):  # pyright: ignore[reportUnknownArgumentType]
        return None
    return t  # pyright: ignore[reportUnknownVariableType]


@dataclass
class Shaped:
    """A shape value: its elements, and whether it is a 0-D tensor."""

    elements: list[Index]
    scalar: bool


def _broadcast(values: Sequence[Shaped]) -> tuple[list[list[Index]], bool] | None:
    """Elementwise operands broadcast to one length (numpy rules, rank <= 1)."""
    lengths = {len(v.elements) for v in values if not v.scalar}
    lengths.discard(1)
    if len(lengths) > 1:
        return None
    n = (
        lengths.pop()
        if lengths
        else (0 if any(not v.scalar and not v.elements for v in values) else 1)
    )
    out: list[list[Index]] = []
    for v in values:
        if len(v.elements) == n:
            out.append(list(v.elements))
        elif len(v.elements) == 1:
            out.append(list(v.elements) * n)
        else:
            return None
    return out, all(v.scalar for v in values)


class ShapeFolder:
    """Computes shape values in program order and replaces the ops giving them."""

    def __init__(self, module: builtin.ModuleOp) -> None:
        self.module = module
        self.known: dict[SSAValue, Shaped] = {}
        self.folder = ConstantFolder()
        self.named = named_dims(module)

    def dim(self, a: IndexArith, value: SSAValue, i: int) -> Index:
        """Dim `i` of `value`; a named input dim (`batch`) is read from the
        first input that has it, since the session checks they agree."""
        return a.dim(*self.named.get((value, i), (value, i)))

    def get(self, value: SSAValue | None) -> Shaped | None:
        if value is None:
            return None
        if value in self.known:
            return self.known[value]
        t = _shape_value_type(value)
        if t is None:
            return None
        elements = index_values(value)
        if elements is None:
            return None
        shaped = Shaped(elements, len(t.get_shape()) == 0)
        self.known[value] = shaped
        return shaped

    def run(self) -> None:
        for op in list(self.module.walk()):
            if (
                op.parent is None
                or not op.name.startswith("onnx.")
                or len(op.results) != 1
            ):
                continue
            result = op.results[0]
            declared = _shape_value_type(result, dynamic=True)
            if declared is None or isinstance(op, onnx.ConstantOp):
                continue
            rule = RULES.get(op.name)
            if rule is None:
                continue
            rewriter = PatternRewriter(op)
            arith_ = IndexArith(rewriter, op, self.folder)
            folded = rule(self, op, arith_)
            if folded is None or len(folded.elements) > MAX_ELEMENTS:
                continue
            shape = declared.get_shape()
            if shape and shape[0] < 0:  # the fold knows the length
                t = TensorType(declared.get_element_type(), [len(folded.elements)])
            else:
                t = declared
                if len(folded.elements) != (shape[0] if shape else 1):
                    continue
            self._replace(op, rewriter, arith_, folded, t)
        _erase_dead(self.module)

    def _replace(
        self,
        op: Operation,
        rewriter: PatternRewriter,
        arith_: IndexArith,
        folded: Shaped,
        t: TensorType[Attribute],
    ) -> None:
        element = cast(IntegerType, t.get_element_type())
        width = element.bitwidth
        numbers = [e for e in folded.elements if isinstance(e, int)]
        if len(numbers) == len(folded.elements):
            if width == 1:
                numbers = [int(bool(e)) for e in numbers]
            new = onnx.ConstantOp.create(
                result_types=[t],
                attributes={
                    "value": DenseIntOrFPElementsAttr.from_list(
                        cast(TensorType[IntegerType], t), numbers
                    )
                },
            )
            rewriter.insert(new)
        else:
            parts: list[SSAValue] = []
            for e in folded.elements:
                if isinstance(e, int):
                    number = arith.ConstantOp(
                        IntegerAttr(int(bool(e)) if width == 1 else e, element)
                    )
                    rewriter.insert(number)
                    parts.append(number.result)
                    continue
                v = arith_.value(e)
                if width == 1:
                    converted = arith.CmpiOp(v, arith_.value(0), "ne")
                else:
                    converted = arith.IndexCastOp(v, element)
                rewriter.insert(converted)
                parts.append(converted.result)
            new = tensor.FromElementsOp(*parts, result_type=t)  # pyright: ignore[reportCallIssue]
            rewriter.insert(new)
        new.results[0].name_hint = op.results[0].name_hint
        self.known[new.results[0]] = folded
        value = new.results[0]
        declared = op.results[0].type
        if value.type != declared:  # as declared, for the users
            assert AnyTensorTypeConstr.verifies(declared)
            recast = tensor.CastOp(value, declared)
            rewriter.insert(recast)
            value = recast.results[0]
            self.known[value] = folded
        op.results[0].replace_all_uses_with(value)
        Rewriter.erase_op(op)


def _erase_dead(module: builtin.ModuleOp) -> None:
    """What only fed folded ops: Shapes, their Gathers, index arithmetic."""
    foldable = (
        tensor.DimOp,
        tensor.FromElementsOp,
        arith.IndexCastOp,
        arith.CmpiOp,
        arith.SelectOp,
        arith.AddiOp,
        arith.SubiOp,
        arith.MuliOp,
        arith.DivSIOp,
        arith.FloorDivSIOp,
        arith.CeilDivSIOp,
        arith.RemSIOp,
        arith.MaxSIOp,
        arith.MinSIOp,
        arith.ConstantOp,
        onnx.ConstantOp,
    )
    changed = True
    while changed:
        changed = False
        for op in reversed(list(module.walk())):
            dead_onnx = op.name in RULES and op.name != "onnx.Range"
            if (
                (isinstance(op, foldable) or dead_onnx)
                and all(not r.uses for r in op.results)
                and op.results
            ):
                Rewriter.erase_op(op)
                changed = True


# The rules: op -> its shape value, or None (not foldable).

Rule = Callable[[ShapeFolder, Operation, IndexArith], Shaped | None]
RULES: dict[str, Rule] = {}


def rule(*names: str) -> Callable[[Rule], Rule]:
    def register(f: Rule) -> Rule:
        for n in names:
            RULES[n] = f
        return f

    return register


def _int_prop(op: Operation, name: str, default: int | None) -> int | None:
    attr = op.properties.get(name)
    if isinstance(attr, IntegerAttr):
        return int(attr.value.data)  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType]
    return default


def _ranked(value: SSAValue) -> Sequence[int] | None:
    t = value.type
    if isinstance(t, TensorType):
        return list(t.get_shape())  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]
    return None


@rule("onnx.Shape")
def _shape(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    shape = _ranked(op.operands[0])
    if shape is None:
        return None
    rank = len(shape)
    start = _int_prop(op, "start", 0)
    end = _int_prop(op, "end", rank)
    assert start is not None and end is not None
    start = min(max(start + rank if start < 0 else start, 0), rank)
    end = min(max(end + rank if end < 0 else end, 0), rank)
    return Shaped([f.dim(a, op.operands[0], i) for i in range(start, end)], False)


@rule("onnx.Size")
def _size(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    shape = _ranked(op.operands[0])
    if shape is None:
        return None
    return Shaped(
        [a.product([f.dim(a, op.operands[0], i) for i in range(len(shape))])], True
    )


@rule("onnx.Identity")
def _identity(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    return f.get(op.operands[0])


@rule("onnx.Cast")
def _cast(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    x = f.get(op.operands[0])
    if x is None:
        return None
    to = op.results[0].type
    assert AnyTensorTypeConstr.verifies(to)
    element = to.get_element_type()
    if isinstance(element, IntegerType) and element.bitwidth == 1:
        return Shaped([a.compare("ne", e, 0) for e in x.elements], x.scalar)
    return x


@rule("onnx.Gather")
def _gather(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    data, indices = f.get(op.operands[0]), f.get(op.operands[1])
    if data is None or indices is None or data.scalar:
        return None
    if _int_prop(op, "axis", 0) not in (0, -1):
        return None
    n = len(data.elements)
    picked: list[Index] = []
    for i in indices.elements:
        if not isinstance(i, int) or not -n <= i < n:
            return None
        picked.append(data.elements[i % n])
    return Shaped(picked, indices.scalar)


def _slice_indices(n: int, start: int, end: int, step: int) -> list[int]:
    """ONNX Slice on one axis of size n (clamped as the spec says)."""
    if start < 0:
        start += n
    if end < 0:
        end += n
    if step > 0:
        start, end = min(max(start, 0), n), min(max(end, 0), n)
    else:
        start, end = min(max(start, 0), n - 1), min(max(end, -1), n - 1)
    return list(range(start, end, step))


@rule("onnx.Slice")
def _slice(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    data = f.get(op.operands[0])
    if data is None or data.scalar:
        return None
    params = [index_values(v) for v in op.operands[1:]]
    starts, ends = params[0], params[1]
    axes = params[2] if len(params) > 2 else [0]
    steps = params[3] if len(params) > 3 else [1]
    if starts is None or ends is None or axes is None or steps is None:
        return None
    if axes not in ([0], [-1]) or len(starts) != 1 or len(ends) != 1 or len(steps) != 1:
        return None
    start, end, step = starts[0], ends[0], steps[0]
    if (
        not (isinstance(start, int) and isinstance(end, int) and isinstance(step, int))
        or step == 0
    ):
        return None
    end = min(end, INT64_MAX)
    picked = _slice_indices(len(data.elements), start, end, step)
    return Shaped([data.elements[i] for i in picked], False)


@rule("onnx.Concat")
def _concat(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    parts = [f.get(v) for v in op.operands]
    if any(p is None or p.scalar for p in parts):
        return None
    return Shaped([e for p in parts if p is not None for e in p.elements], False)


@rule("onnx.Unsqueeze", "onnx.Squeeze", "onnx.Reshape", "onnx.Flatten")
def _view(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    x = f.get(op.operands[0])
    result = _ranked(op.results[0])
    if x is None or result is None or len(result) > 1:
        return None
    return Shaped(x.elements, len(result) == 0)


def _elementwise(
    f: ShapeFolder, op: Operation, compute: Callable[..., Index]
) -> Shaped | None:
    operands = [f.get(v) for v in op.operands]
    if any(o is None for o in operands):
        return None
    broadcast = _broadcast([o for o in operands if o is not None])
    if broadcast is None:
        return None
    columns, scalar = broadcast
    return Shaped([compute(*row) for row in zip(*columns)], scalar)


def _binary(name: str, method: str) -> None:
    def fold(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
        return _elementwise(f, op, getattr(a, method))

    RULES[name] = fold


for _name, _method in (
    ("onnx.Add", "add"),
    ("onnx.Sub", "sub"),
    ("onnx.Mul", "mul"),
    ("onnx.Div", "trunc_div"),
):
    _binary(_name, _method)


@rule("onnx.Mod")
def _mod(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    fmod = _int_prop(op, "fmod", 0)
    return _elementwise(f, op, a.trunc_mod if fmod else a.floor_mod)


def _variadic(method: str) -> Rule:
    def fold(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
        def reduce(*values: Index) -> Index:
            result = values[0]
            for v in values[1:]:
                result = getattr(a, method)(result, v)
            return result

        return _elementwise(f, op, reduce)

    return fold


RULES["onnx.Max"] = _variadic("max")
RULES["onnx.Min"] = _variadic("min")

for _name, _predicate in (
    ("onnx.Equal", "eq"),
    ("onnx.Less", "slt"),
    ("onnx.LessOrEqual", "sle"),
    ("onnx.Greater", "sgt"),
    ("onnx.GreaterOrEqual", "sge"),
):

    def _compare_rule(predicate: str) -> Rule:
        def fold(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
            def compare(x: Index, y: Index) -> Index:
                return a.compare(predicate, x, y)

            return _elementwise(f, op, compare)

        return fold

    RULES[_name] = _compare_rule(_predicate)


@rule("onnx.Neg")
def _neg(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    def neg(x: Index) -> Index:
        return a.sub(0, x)

    return _elementwise(f, op, neg)


@rule("onnx.Abs")
def _abs(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    def abs_(x: Index) -> Index:
        return a.max(x, a.sub(0, x))

    return _elementwise(f, op, abs_)


@rule("onnx.Not")
def _not(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    def not_(x: Index) -> Index:
        return a.compare("eq", x, 0)

    return _elementwise(f, op, not_)


@rule("onnx.And")
def _and(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    def and_(x: Index, y: Index) -> Index:
        return a.select(x, y, 0)

    return _elementwise(f, op, and_)


@rule("onnx.Or")
def _or(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    def or_(x: Index, y: Index) -> Index:
        return a.select(x, 1, y)

    return _elementwise(f, op, or_)


@rule("onnx.Where")
def _where(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    return _elementwise(f, op, a.select)


@rule("onnx.Expand")
def _expand(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    x = f.get(op.operands[0])
    result = _ranked(op.results[0])
    if x is None or result is None or len(result) != 1:
        return None
    n = result[0]
    if n < 0:  # a dynamic length: the shape operand's, broadcast with `x`'s
        shape = f.get(op.operands[1])
        if shape is None or len(shape.elements) != 1:
            return None
        (s,) = shape.elements
        if not isinstance(s, int) or (s != 1 and len(x.elements) not in (1, s)):
            return None
        n = len(x.elements) if s == 1 else s
    if len(x.elements) == n:
        return Shaped(x.elements, False)
    if len(x.elements) == 1:
        return Shaped(x.elements * n, False)
    return None


@rule("onnx.ConstantOfShape")
def _constant_of_shape(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    shape = f.get(op.operands[0])
    result = _ranked(op.results[0])
    value = op.properties.get("value")
    if shape is None or result is None or len(result) > 1:
        return None
    number = 0
    if value is not None:
        if not isinstance(value, DenseIntOrFPElementsAttr):
            return None
        values = list(value.get_values())  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]
        first: object = values[0] if len(values) == 1 else None  # pyright: ignore[reportUnknownArgumentType]
        if not isinstance(first, int):
            return None
        number = first
    if not result:
        return Shaped([number], True)
    if len(shape.elements) != 1 or not isinstance(shape.elements[0], int):
        return None
    return Shaped([number] * shape.elements[0], False)


@rule("onnx.Range")
def _range(f: ShapeFolder, op: Operation, a: IndexArith) -> Shaped | None:
    values = [f.get(v) for v in op.operands]
    numbers: list[int] = []
    for v in values:
        if v is None or not isinstance(v.elements[0], int):
            return None
        numbers.append(int(v.elements[0]))
    start, limit, delta = numbers
    if delta == 0:
        return None
    return Shaped(list(range(start, limit, delta)), False)


@dataclass(frozen=True)
class OnnxFoldShapesPass(ModulePass):
    name = "onnx-fold-shapes"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        ShapeFolder(op).run()
