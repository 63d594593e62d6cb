"""Reshape, Flatten, Squeeze, Unsqueeze -> `tensor.collapse_shape`/`expand_shape`.

These only change how a contiguous buffer is indexed, so they become views
(the backend reads `memref.collapse_shape`/`expand_shape` as zero-copy). Each
dimension is tracked as a product of a static factor and run-time input sizes
(`Dim`), which finds the reassociation even with dynamic dims; a reshape with
no reassociation (e.g. 2x3 -> 3x2) collapses to 1-D and expands from there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index, IndexArith, index_values
from xhip.transforms.onnx_to_hip.shapes import shape_operand
from xhip.transforms.onnx_to_hip.support import (
    ConversionState,
    OnnxPattern,
    Unsupported,
    ranked,
)


@dataclass(frozen=True)
class Dim:
    """A size: `static` times the run-time input dims `symbols` (indices).

    `rest` marks the size a Reshape's `-1` leaves when it is not such a
    product; it matches whatever the other sizes leave over.
    """

    static: int = 1
    symbols: tuple[int, ...] = ()
    rest: bool = False
    opaque: tuple[SSAValue, ...] = ()
    """Run-time sizes that are no input dim (a shape value's element)."""

    def __mul__(self, other: Dim) -> Dim:
        return Dim(
            self.static * other.static,
            tuple(sorted(self.symbols + other.symbols)),
            self.rest or other.rest,
            self.opaque + other.opaque,
        )

    @property
    def is_static(self) -> bool:
        return not self.symbols and not self.rest and not self.opaque

    @staticmethod
    def product(dims: Sequence[Dim]) -> Dim:
        result = Dim()
        for dim in dims:
            result = result * dim
        return result


def input_dims(shape: Sequence[int]) -> list[Dim]:
    return [Dim(1, (i,)) if s == DYNAMIC_INDEX else Dim(s) for i, s in enumerate(shape)]


def _symbols_left(whole: Dim, part: Dim) -> Counter[int] | None:
    """The run-time dims of `whole` that `part` lacks; None if `part` has others."""
    if part.opaque or whole.opaque:
        return None
    left = Counter(whole.symbols)
    left.subtract(part.symbols)
    return None if any(n < 0 for n in left.values()) else +left


def _sizes_match(a: Dim, b: Dim) -> bool:
    if a.rest and b.rest:
        return True
    if not a.rest and not b.rest:
        return a == b
    wild, known = (a, b) if a.rest else (b, a)
    left = _symbols_left(known, wild)
    return left is not None and (bool(left) or known.static % wild.static == 0)


def reassociate(small: Sequence[Dim], big: Sequence[Dim]) -> list[list[int]] | None:
    """Contiguous groups of `big`, one per `small` dim with the same size."""
    if not small:
        return [] if all(d == Dim(1) for d in big) else None

    def groups_from(k: int, start: int) -> list[list[int]] | None:
        if k == len(small) - 1:
            group = big[start:]
            if group and _sizes_match(small[k], Dim.product(group)):
                return [list(range(start, len(big)))]
            return None
        for end in range(start + 1, len(big) - (len(small) - k - 1) + 1):
            if _sizes_match(small[k], Dim.product(big[start:end])):
                tail = groups_from(k + 1, end)
                if tail is not None:
                    return [list(range(start, end)), *tail]
        return None

    return groups_from(0, 0)


def _shape_of(dims: Sequence[Dim]) -> list[int]:
    return [d.static if d.is_static else DYNAMIC_INDEX for d in dims]


def _reassociation_attr(groups: list[list[int]]) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


@dataclass
class ViewBuilder:
    """Emits the view ops of one reshape of `source` to `target` dims."""

    state: ConversionState
    op: Operation
    rewriter: PatternRewriter
    source: SSAValue

    def index(self, value: int) -> SSAValue:
        return self.state.folder.index(self.rewriter, self.op, value)

    def insert(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op)
        return op.results[0]

    def dim(self, value: SSAValue, index: int) -> SSAValue:
        size = tensor.DimOp(value, self.index(index))
        size.result.name_hint = "dim"
        return self.insert(size)

    def runtime_size(self, dim: Dim) -> SSAValue:
        """The value of a `Dim` without `rest`, as an index."""
        factors = [self.dim(self.source, i) for i in dim.symbols] + list(dim.opaque)
        if dim.static != 1 or not factors:
            factors.append(self.index(dim.static))
        value = factors[0]
        for factor in factors[1:]:
            value = self.insert(arith.MuliOp(value, factor))
        return value

    def collapse(
        self, value: SSAValue, groups: list[list[int]], dims: Sequence[Dim]
    ) -> SSAValue:
        src_type = ranked(value, "the input")
        result_type = TensorType(src_type.get_element_type(), _shape_of(dims))
        return self.insert(
            tensor.CollapseShapeOp.create(
                operands=[value],
                result_types=[result_type],
                properties={"reassociation": _reassociation_attr(groups)},
            )
        )

    def expand(
        self,
        value: SSAValue,
        value_dims: Sequence[Dim],
        groups: list[list[int]],
        dims: Sequence[Dim],
    ) -> SSAValue:
        src_type = ranked(value, "the input")
        shape = _shape_of(dims)
        sizes: list[SSAValue] = []
        for k, group in enumerate(groups):
            for j in group:
                if shape[j] != DYNAMIC_INDEX:
                    continue
                if not dims[j].rest:
                    sizes.append(self.runtime_size(dims[j]))
                    continue
                whole = (
                    self.index(value_dims[k].static)
                    if value_dims[k].is_static
                    else self.dim(value, k)
                )
                others = Dim.product([dims[i] for i in group if i != j])
                if others != Dim():
                    whole = self.insert(arith.DivUIOp(whole, self.runtime_size(others)))
                sizes.append(whole)
        result_type = TensorType(src_type.get_element_type(), shape)
        source_shape = list(src_type.get_shape())
        loosened = [
            DYNAMIC_INDEX if any(shape[j] == DYNAMIC_INDEX for j in group) else size
            for size, group in zip(source_shape, groups)
        ]
        if loosened != source_shape:  # a static dim expanded into dynamic ones
            value = self.insert(
                tensor.CastOp(value, TensorType(src_type.get_element_type(), loosened))
            )
        return self.insert(
            tensor.ExpandShapeOp(
                value,
                sizes,
                _reassociation_attr(groups),
                DenseArrayBase.from_list(i64, shape),
                result_type,
            )
        )

    def reshape(self, source_dims: list[Dim], target: list[Dim]) -> SSAValue:
        if len(target) == len(source_dims) and all(
            _sizes_match(a, b) for a, b in zip(source_dims, target)
        ):
            return self.source
        if len(target) < len(source_dims):
            groups = reassociate(target, source_dims)
            if groups is not None:
                return self.collapse(self.source, groups, target)
        elif len(target) > len(source_dims):
            groups = reassociate(source_dims, target)
            if groups is not None:
                return self.expand(self.source, source_dims, groups, target)
        flat = [Dim.product(source_dims)]
        value = self.source
        if len(source_dims) != 1:
            value = self.collapse(value, [list(range(len(source_dims)))], flat)
        return self.expand(value, flat, [list(range(len(target)))], target)


def _replace_with_view(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    source: SSAValue,
    source_dims: list[Dim],
    target: list[Dim],
) -> None:
    result_type = ranked(op.results[0], "the result")
    expected = _shape_of(target)
    actual = result_type.get_shape()
    if len(expected) != len(actual) or any(
        e != DYNAMIC_INDEX and a != DYNAMIC_INDEX and e != a
        for e, a in zip(expected, actual)
    ):
        raise Unsupported(
            f"result type {result_type} does not match the computed shape "
            f"{'x'.join('?' if e == DYNAMIC_INDEX else str(e) for e in expected)}"
        )
    builder = ViewBuilder(pattern.state, op, rewriter, source)
    value = builder.reshape(source_dims, target)
    if value.type != result_type:
        value = builder.insert(tensor.CastOp(value, result_type))
    rewriter.replace(op, [], [value])


def _constant_axes(value: SSAValue) -> list[int]:
    axes = index_values(value)
    if axes is None or not all(isinstance(a, int) for a in axes):
        raise Unsupported("the axes operand must be known at compile time")
    return [a for a in axes if isinstance(a, int)]


def _normalized(axes: list[int], rank: int) -> list[int]:
    """`axes` counted from the front, sorted."""
    if any(not -rank <= a < rank for a in axes):
        raise Unsupported(f"axes {axes} out of range for rank {rank}")
    return sorted(a % rank for a in axes)


def _run_time_axes_view(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    data: SSAValue,
    axes_value: SSAValue,
    squeeze: bool,
) -> None:
    """Squeeze or Unsqueeze by axes read back at run time: the result's sizes
    are selects over the input's dims; the view is a collapse and an expand."""
    a = IndexArith(rewriter, op, pattern.state.folder)
    in_rank = len(ranked(data, "the input").get_shape())
    out_rank = len(ranked(op.results[0], "the result").get_shape())
    axes_rank = in_rank if squeeze else out_rank
    axes = [
        a.normalize_axis_index(x, axes_rank)
        for x in shape_operand(pattern, op, rewriter, axes_value, "the axes operand")
    ]
    if (in_rank - len(axes) if squeeze else in_rank + len(axes)) != out_rank:
        raise Unsupported(
            f"{len(axes)} axes do not take rank {in_rank} to rank {out_rank}"
        )

    def named(i: int) -> Index:
        flag: Index = 0
        for x in axes:
            flag = a.select(a.compare("eq", x, i), 1, flag)
        return flag

    dims = [a.dim(data, i) for i in range(in_rank)]
    sizes: list[Index] = []
    if squeeze:
        kept = [a.compare("eq", named(i), 0) for i in range(in_rank)]
        for j in range(out_rank):
            size: Index = 1
            position: Index = 0
            for i in range(in_rank):
                here = a.select(kept[i], a.compare("eq", position, j), 0)
                size = a.select(here, dims[i], size)
                position = a.add(position, kept[i])
            sizes.append(size)
    else:
        inserted: Index = 0
        for j in range(out_rank):
            new = named(j)
            size = 1
            for i in range(in_rank):
                size = a.select(a.compare("eq", a.add(i, inserted), j), dims[i], size)
            sizes.append(a.select(new, 1, size))
            inserted = a.add(inserted, new)
    target = [Dim(s) if isinstance(s, int) else Dim(opaque=(s,)) for s in sizes]
    _replace_with_view(
        pattern,
        op,
        rewriter,
        data,
        input_dims(ranked(data, "the input").get_shape()),
        target,
    )


class ConvertReshape(OnnxPattern[onnx.ReshapeOp]):
    """`onnx.Reshape` with a constant shape -> views."""

    def convert(self, op: onnx.ReshapeOp, rewriter: PatternRewriter) -> None:
        data_shape = ranked(op.data, "the input").get_shape()
        if 0 in data_shape:
            # No element to view: the result is an empty tensor of its type.
            result = ranked(op.reshaped, "the result")
            if DYNAMIC_INDEX in result.get_shape():
                _reshape_empty(self, op, rewriter, result)
                return
            if 0 not in result.get_shape():
                raise Unsupported(f"the input {op.data.type} is empty")
            rewriter.replace(op, tensor.EmptyOp([], result))
            return
        source = input_dims(data_shape)
        elements = shape_operand(self, op, rewriter, op.shape, "the shape operand")
        allow_zero = op.get_int("allowzero")
        if any(
            isinstance(e, SSAValue) and isinstance(e.owner, hip.ReadbackOp)
            for e in elements
        ):
            elements = _resolve_run_time_shape(self, op, rewriter, elements, allow_zero)
        numbers = [e for e in elements if isinstance(e, int)]
        target: list[Dim] = []
        for i, size in enumerate(elements):
            if isinstance(size, SSAValue):
                target.append(_dim_of(op.data, size))
            elif size > 0:
                target.append(Dim(size))
            elif size == 0 and not allow_zero and i < len(source):
                target.append(source[i])
            elif size == -1 and numbers.count(-1) == 1:
                target.append(Dim(rest=True))
            else:
                raise Unsupported(f"unsupported shape {_show(elements)}")
        if any(d.rest for d in target):
            target = _resolve_rest(source, target)
        _replace_with_view(self, op, rewriter, op.data, source, target)


def _reshape_empty(
    pattern: OnnxPattern[Any],
    op: onnx.ReshapeOp,
    rewriter: PatternRewriter,
    result: TensorType[Attribute],
) -> None:
    """An empty input to a result of run-time sizes: an empty tensor of the
    shape's elements, `0` copying the input's dim (unless `allowzero`) and
    `-1` what is left of no elements, 0 (numpy's answer where the others are
    not 0)."""
    elements = shape_operand(pattern, op, rewriter, op.shape, "the shape operand")
    shape = result.get_shape()
    if len(elements) != len(shape):
        raise Unsupported(
            f"the shape has {len(elements)} elements for a result of rank {len(shape)}"
        )
    a = IndexArith(rewriter, op, pattern.state.folder)
    rank = len(ranked(op.data, "the input").get_shape())
    dynamic: list[SSAValue] = []
    for i, (e, declared) in enumerate(zip(elements, shape, strict=True)):
        if not op.get_int("allowzero") and i < rank:
            e = a.select(a.compare("eq", e, 0), a.dim(op.data, i), e)
        e = a.select(a.compare("eq", e, -1), 0, e)
        if declared == DYNAMIC_INDEX:
            dynamic.append(a.value(e))
    rewriter.replace(op, tensor.EmptyOp(dynamic, result))


def _show(elements: Sequence[Index]) -> str:
    return (
        "[" + ", ".join(str(e) if isinstance(e, int) else "?" for e in elements) + "]"
    )


def _dim_of(source: SSAValue, size: SSAValue) -> Dim:
    """A shape value's element as a `Dim`: a dim of the reshaped tensor, a
    product of them, or an opaque run-time size."""
    owner = size.owner
    if isinstance(owner, tensor.DimOp) and owner.source is source:
        index = index_values(owner.index)
        if index is not None and isinstance(index[0], int):
            return Dim(1, (index[0],))
    if isinstance(owner, arith.MuliOp):
        return _dim_of(source, owner.lhs) * _dim_of(source, owner.rhs)
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return Dim(owner.value.value.data)
    return Dim(opaque=(size,))


def _resolve_run_time_shape(
    pattern: OnnxPattern[Any],
    op: onnx.ReshapeOp,
    rewriter: PatternRewriter,
    elements: list[Index],
    allow_zero: int,
) -> list[Index]:
    """A shape read back at run time may hold ONNX's `0` (copy the input's
    dim) and `-1` (what is left): both resolved with index arithmetic."""
    a = IndexArith(rewriter, op, pattern.state.folder)
    rank = len(ranked(op.data, "the input").get_shape())
    sizes: list[Index] = []
    for i, e in enumerate(elements):
        if not allow_zero and i < rank and isinstance(e, SSAValue):
            e = a.select(a.compare("eq", e, 0), a.dim(op.data, i), e)
        sizes.append(e)
    total = a.product([a.dim(op.data, i) for i in range(rank)])
    known = a.product([a.select(a.compare("eq", e, -1), 1, e) for e in sizes])
    # A 0 among the others: no -1 to size (or an ambiguous one, taken as 0),
    # but the division runs anyway.
    rest = a.trunc_div(total, a.max(known, 1))
    return [a.select(a.compare("eq", e, -1), rest, e) for e in sizes]


def _resolve_rest(source: list[Dim], target: list[Dim]) -> list[Dim]:
    """The `-1` as a product of input sizes where it is one."""
    total = Dim.product(source)
    known = Dim.product([d for d in target if not d.rest])
    left = _symbols_left(total, known)
    if left is None or total.static % known.static:
        return target
    rest = Dim(total.static // known.static, tuple(sorted(left.elements())))
    return [rest if d.rest else d for d in target]


class ConvertFlatten(OnnxPattern[onnx.FlattenOp]):
    """`onnx.Flatten` -> a 2-D view: dims before `axis`, dims from `axis`."""

    def convert(self, op: onnx.FlattenOp, rewriter: PatternRewriter) -> None:
        source = input_dims(ranked(op.input, "the input").get_shape())
        axis = op.get_int("axis")
        if not -len(source) <= axis <= len(source):
            raise Unsupported(f"axis {axis} out of range for rank {len(source)}")
        if axis < 0:
            axis += len(source)
        target = [Dim.product(source[:axis]), Dim.product(source[axis:])]
        _replace_with_view(self, op, rewriter, op.input, source, target)


class ConvertSqueeze(OnnxPattern[onnx.SqueezeOp]):
    """`onnx.Squeeze` -> a view without the size-1 dims."""

    def convert(self, op: onnx.SqueezeOp, rewriter: PatternRewriter) -> None:
        shape = ranked(op.data, "the input").get_shape()
        if op.axes is None:
            axes = [i for i, s in enumerate(shape) if s == 1]
            _guard_not_one(self, op, rewriter, shape)
        elif index_values(op.axes) is None:
            _run_time_axes_view(self, op, rewriter, op.data, op.axes, squeeze=True)
            return
        else:
            axes = _normalized(_constant_axes(op.axes), len(shape))
        if any(shape[a] not in (1, DYNAMIC_INDEX) for a in axes):
            raise Unsupported(f"cannot squeeze axes {axes} of shape {list(shape)}")
        # A dynamic dim named in `axes` is 1 by the model's word.
        source = [Dim(1) if i in axes else d for i, d in enumerate(input_dims(shape))]
        target = [d for i, d in enumerate(source) if i not in axes]
        _replace_with_view(self, op, rewriter, op.data, source, target)


def _guard_not_one(
    pattern: OnnxPattern[Any],
    op: onnx.SqueezeOp,
    rewriter: PatternRewriter,
    shape: Sequence[int],
) -> None:
    """Without axes, a dynamic dim is kept: taken as not 1 (as the
    importer's rules type the result), which a `hip.guard` checks each call."""
    a = IndexArith(rewriter, op, pattern.state.folder)
    ones = [
        a.compare("eq", a.dim(op.data, i), 1)
        for i, size in enumerate(shape)
        if size == DYNAMIC_INDEX
    ]
    values = [v for v in ones if isinstance(v, SSAValue)]
    if values:
        rewriter.insert(hip.GuardOp(values, [0] * len(values)))


class ConvertUnsqueeze(OnnxPattern[onnx.UnsqueezeOp]):
    """`onnx.Unsqueeze` -> a view with size-1 dims inserted."""

    def convert(self, op: onnx.UnsqueezeOp, rewriter: PatternRewriter) -> None:
        source = input_dims(ranked(op.data, "the input").get_shape())
        if index_values(op.axes) is None:
            _run_time_axes_view(self, op, rewriter, op.data, op.axes, squeeze=False)
            return
        given = _constant_axes(op.axes)
        rank = len(source) + len(given)
        axes = _normalized(given, rank)
        if len(set(axes)) != len(axes):
            raise Unsupported(f"repeated axes {axes}")
        rest = iter(source)
        target = [Dim(1) if i in axes else next(rest) for i in range(rank)]
        _replace_with_view(self, op, rewriter, op.data, source, target)
