"""ScatterND, ScatterElements, Trilu, CumSum, CumProd and OneHot -> hip DPS ops in
tensor mode.

- `ScatterND` -> `hip.scatter_nd`, `ScatterElements` -> `hip.scatter_elements`
  (`axis` in `[0, rank)`): an init of data's type; `reduction` as a string.
- `Trilu` -> `hip.trilu` with `k` (default 0) as its index operand: a number
  or a shape-derived index (`index_values`); `upper` a unit attribute.
- `CumSum`, `CumProd` -> `hip.cumsum`, `hip.cumprod`: `axis` must be known now (a constant, negative
  ones counted from the end); `exclusive`, `reverse` unit attributes.
- `OneHot` -> `hip.one_hot`: `depth` (any numeric scalar, a float one
  truncated) decides the size of the new dim, so it must be known at compile
  time; where the result type leaves that dim dynamic, the init is sized by
  it. `axis` in `[0, rank + 1)`.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.utils.hints import isa

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index, IndexArith, index_values
from xhip.transforms.onnx_to_hip.shapes import shape_operand
from xhip.transforms.onnx_to_hip.support import (
    DimSource,
    OnnxPattern,
    Unsupported,
    build_init,
    constant_scalar,
    context_of,
    ranked,
)


def _same_type(value: SSAValue, result: SSAValue, what: str) -> TensorType[Attribute]:
    got = ranked(value, what)
    want = ranked(result, "the result")
    if got.get_element_type() != want.get_element_type():
        raise Unsupported(
            f"{what} type {value.type} differs from the result's element type "
            f"{want.get_element_type()}"
        )
    return got


def _index_element(value: SSAValue, what: str, widths: tuple[int, ...]) -> None:
    element = ranked(value, what).get_element_type()
    if not (
        isa(element, IntegerType[int, Signedness])
        and hip.element_kind(element) == "i"
        and element.width.data in widths
    ):
        allowed = " or ".join(f"int{w}" for w in widths)
        raise Unsupported(f"{what} must be {allowed}, got {element}")


def _axis(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise Unsupported(f"axis {axis} is out of range for rank {rank}")
    return axis % rank


def _scalar(value: SSAValue, what: str) -> Index:
    """The one element of a compile-time integer operand."""
    values = index_values(value)
    if values is None:
        raise Unsupported(
            f"{what} must be known at compile time (a constant or a shape value); "
            "it is run-time data here"
        )
    if len(values) != 1:
        raise Unsupported(f"{what} must have one element, got {len(values)}")
    return values[0]


def _one(values: list[Index], what: str) -> Index:
    if len(values) != 1:
        raise Unsupported(f"{what} must have one element, got {len(values)}")
    return values[0]


def _reduction(op: onnx.ScatterNDOp | onnx.ScatterElementsOp) -> str:
    attr = op.reduction
    reduction = attr.data if attr is not None else "none"
    if reduction not in hip.SCATTER_REDUCTIONS:
        raise Unsupported(
            f"reduction '{reduction}' is not one of "
            + ", ".join(hip.SCATTER_REDUCTIONS)
        )
    return reduction


def _same_shape_init(
    pattern: OnnxPattern[Any],
    op: Operation,
    rewriter: PatternRewriter,
    like: SSAValue,
    result: SSAValue,
) -> SSAValue:
    rank = len(ranked(like, "the input").get_shape())
    sources: list[DimSource | None] = [(like, d) for d in range(rank)]
    return build_init(
        rewriter, pattern.state, op, ranked(result, "the result"), sources
    )


class ConvertScatterND(OnnxPattern[onnx.ScatterNDOp]):
    def convert(self, op: onnx.ScatterNDOp, rewriter: PatternRewriter) -> None:
        data = _same_type(op.data, op.output, "data")
        _same_type(op.updates, op.output, "updates")
        _index_element(op.indices, "indices", (64,))
        indices = ranked(op.indices, "indices").get_shape()
        if not indices or indices[-1] == DYNAMIC_INDEX:
            raise Unsupported(
                "indices must have rank >= 1 and a static last dim (the number of "
                "coordinates)"
            )
        if indices[-1] > len(data.get_shape()):
            raise Unsupported(
                f"indices have {indices[-1]} coordinates but data has rank "
                f"{len(data.get_shape())}"
            )
        k = indices[-1]
        want = (*indices[:-1], *data.get_shape()[k:])
        updates = ranked(op.updates, "updates").get_shape()
        if len(updates) != len(want) or any(
            a != b and DYNAMIC_INDEX not in (a, b) for a, b in zip(updates, want)
        ):
            raise Unsupported(
                f"updates have shape {list(updates)}, expected {list(want)}"
            )
        reduction = _reduction(op)
        init = _same_shape_init(self, op, rewriter, op.data, op.output)
        new = hip.ScatterNDOp.make(
            context_of(op),
            data=op.data,
            indices=op.indices,
            updates=op.updates,
            out=init,
            reduction=reduction,
        )
        rewriter.replace(op, new)


class ConvertScatterElements(OnnxPattern[onnx.ScatterElementsOp]):
    def convert(self, op: onnx.ScatterElementsOp, rewriter: PatternRewriter) -> None:
        data = _same_type(op.data, op.output, "data")
        _same_type(op.updates, op.output, "updates")
        _index_element(op.indices, "indices", (32, 64))
        rank = len(data.get_shape())
        if rank == 0:
            raise Unsupported("data must have rank >= 1")
        axis = _axis(op.get_int("axis"), rank)
        indices = ranked(op.indices, "indices").get_shape()
        updates = ranked(op.updates, "updates").get_shape()
        if (
            len(indices) != rank
            or len(updates) != rank
            or any(
                a != b and DYNAMIC_INDEX not in (a, b) for a, b in zip(indices, updates)
            )
        ):
            raise Unsupported(
                f"indices ({list(indices)}) and updates ({list(updates)}) must have "
                f"one shape, of data's rank {rank}"
            )
        reduction = _reduction(op)
        init = _same_shape_init(self, op, rewriter, op.data, op.output)
        new = hip.ScatterElementsOp.make(
            context_of(op),
            data=op.data,
            indices=op.indices,
            updates=op.updates,
            out=init,
            axis=axis,
            reduction=reduction,
        )
        rewriter.replace(op, new)


class ConvertTrilu(OnnxPattern[onnx.TriluOp]):
    def convert(self, op: onnx.TriluOp, rewriter: PatternRewriter) -> None:
        x = _same_type(op.input, op.output, "the input")
        if len(x.get_shape()) < 2:
            raise Unsupported("the input must have rank >= 2")
        k: Index = 0
        if op.k is not None:
            _index_element(op.k, "k", (64,))
            k = _one(shape_operand(self, op, rewriter, op.k, "k"), "k")
        arith_ = IndexArith(rewriter, op, self.state.folder)
        k_value = arith_.value(k)
        init = _same_shape_init(self, op, rewriter, op.input, op.output)
        new = hip.TriluOp.make(
            context_of(op),
            src=op.input,
            out=init,
            k=k_value,
            upper=bool(op.get_int("upper")),
        )
        rewriter.replace(op, new)


SCANS: dict[type[onnx.ScanOp], type[hip.ScanOp]] = {
    onnx.CumSumOp: hip.CumSumOp,
    onnx.CumProdOp: hip.CumProdOp,
}


class ConvertCumSum(OnnxPattern[onnx.CumSumOp]):
    def convert(self, op: onnx.CumSumOp, rewriter: PatternRewriter) -> None:
        _convert_scan(self, op, rewriter)


class ConvertCumProd(OnnxPattern[onnx.CumProdOp]):
    def convert(self, op: onnx.CumProdOp, rewriter: PatternRewriter) -> None:
        _convert_scan(self, op, rewriter)


def _convert_scan(
    pattern: OnnxPattern[Any], op: onnx.ScanOp, rewriter: PatternRewriter
) -> None:
    """`onnx.CumSum`, `onnx.CumProd` -> `hip.cumsum`, `hip.cumprod`."""
    x = _same_type(op.x, op.y, "the input")
    rank = len(x.get_shape())
    if rank == 0:
        raise Unsupported("the input must have rank >= 1")
    _index_element(op.axis, "axis", (32, 64))
    axis = _scalar(op.axis, "axis")
    if not isinstance(axis, int):
        raise Unsupported("axis must be a constant: it decides the kernel's shape")
    axis = _axis(axis, rank)
    init = _same_shape_init(pattern, op, rewriter, op.x, op.y)
    new = SCANS[type(op)].make(
        context_of(op),
        src=op.x,
        out=init,
        axis=axis,
        exclusive=bool(op.get_int("exclusive")),
        reverse=bool(op.get_int("reverse")),
    )
    rewriter.replace(op, new)


class ConvertOneHot(OnnxPattern[onnx.OneHotOp]):
    def convert(self, op: onnx.OneHotOp, rewriter: PatternRewriter) -> None:
        result = ranked(op.output, "the result")
        indices = ranked(op.indices, "indices").get_shape()
        if hip.element_kind(ranked(op.indices, "indices").get_element_type()) not in (
            "f",
            "i",
            "u",
        ):
            raise Unsupported(f"indices must be numeric, got {op.indices.type}")
        values = _same_type(op.values, op.output, "values").get_shape()
        if len(values) != 1 or values[0] not in (2, DYNAMIC_INDEX):
            raise Unsupported(f"values must have shape [2], got {op.values.type}")
        rank = len(indices) + 1
        if len(result.get_shape()) != rank:
            raise Unsupported(f"the result type {result} must have rank {rank}")
        axis = _axis(op.get_int("axis"), rank)
        depth = self._depth(op, rewriter)
        if isinstance(depth, int) and depth < 1:
            raise Unsupported(f"depth {depth} must be at least 1")
        size = result.get_shape()[axis]
        if isinstance(depth, int) and size not in (depth, DYNAMIC_INDEX):
            raise Unsupported(
                f"the result type {result} has {size} in dim {axis}, but depth is "
                f"{depth}"
            )
        arith_ = IndexArith(rewriter, op, self.state.folder)
        sizes: list[SSAValue] = []
        for d, n in enumerate(result.get_shape()):
            if n != DYNAMIC_INDEX:
                continue
            if d == axis:
                sizes.append(arith_.value(depth))
            else:
                sizes.append(arith_.value(arith_.dim(op.indices, d - (d > axis))))
        empty = tensor.EmptyOp(sizes, result)
        rewriter.insert(empty)
        new = hip.OneHotOp.make(
            context_of(op),
            indices=op.indices,
            values=op.values,
            out=empty.tensor,
            axis=axis,
        )
        rewriter.replace(op, new)

    def _depth(self, op: onnx.OneHotOp, rewriter: PatternRewriter) -> Index:
        number = constant_scalar(op.depth)
        if number is not None:
            if number != number or abs(number) > 2**62:
                raise Unsupported(f"depth {number} is not a size")
            return int(number)
        return _one(shape_operand(self, op, rewriter, op.depth, "depth"), "depth")
