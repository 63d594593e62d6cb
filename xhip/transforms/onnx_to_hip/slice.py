"""Slicing, splitting and broadcasting copies -> hip DPS ops in tensor mode.

- `Slice` -> `hip.slice`: ONNX's starts and ends normalized per sliced dim
  (negative ones counted from the end, then clamped to `[0, size]`, or to
  `[0, size - 1]` and `[-1, size - 1]` for a negative step), the count per dim
  `max(0, ceil((end - start) / step))`. Starts and ends are compile-time index
  values (constants, or shape values `onnx-fold-shapes` made); axes and steps
  constants.
- `Split` -> one `hip.slice` per output, along `axis`: the sizes from the
  `split` input, or `num_outputs` (opset 18) chunks of `ceil(size / n)` with a
  smaller last one, or equal parts.
- `Tile` -> `hip.tile` (the output size `size * repeat` per dim), `Expand` ->
  `hip.expand` (numpy broadcasting of the input's shape and `shape`: a 1 on
  either side takes the other, a run-time size against a number the number,
  two run-time sizes `b if a == 1 else a` as `support.broadcast_size` sizes
  every broadcast, or their max where one is proven the broadcast of both).

Index arithmetic is `IndexArith`'s: nothing is emitted for what is known at
compile time, so a static slice is a `hip.slice` of constants.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index, IndexArith, index_values
from xhip.transforms.onnx_to_hip.shapes import shape_operand
from xhip.transforms.onnx_to_hip.support import (
    OnnxPattern,
    Unsupported,
    broadcast_size,
    context_of,
    proven_broadcast,
    ranked,
)


def _known(value: SSAValue, what: str) -> list[Index]:
    """The elements of an int operand known at compile time."""
    values = index_values(value)
    if values is None:
        raise Unsupported(
            f"{what} must be known at compile time (a constant or a shape value); "
            "it is data known only at run time"
        )
    return values


def _ints(value: SSAValue, what: str) -> list[int]:
    values = _known(value, what)
    numbers = [v for v in values if isinstance(v, int)]
    if len(numbers) != len(values):
        raise Unsupported(f"{what} must be constants")
    return numbers


def _same_element_type(source: SSAValue, result: TensorType[Attribute]) -> None:
    element = ranked(source, "the input").get_element_type()
    if element != result.get_element_type():
        raise Unsupported(
            f"input element type {element} differs from the result's "
            f"{result.get_element_type()}"
        )


def _empty(
    rewriter: PatternRewriter,
    arith: IndexArith,
    result: TensorType[Attribute],
    sizes: Sequence[Index],
) -> SSAValue:
    """`tensor.empty` of `result`, its dynamic dims sized by `sizes`. A size
    known here must be the result type's static one."""
    dynamic: list[SSAValue] = []
    for d, (want, size) in enumerate(zip(result.get_shape(), sizes, strict=True)):
        if want == DYNAMIC_INDEX:
            dynamic.append(arith.value(size))
        elif isinstance(size, int) and size != want:
            raise Unsupported(f"result dim {d} has size {want} but the op gives {size}")
    empty = tensor.EmptyOp(dynamic, result)
    rewriter.insert(empty)
    return empty.tensor


def _slice(
    op: Operation,
    rewriter: PatternRewriter,
    arith: IndexArith,
    source: SSAValue,
    result: TensorType[Attribute],
    starts: Sequence[Index],
    sizes: Sequence[Index],
    steps: Sequence[int],
) -> hip.SliceOp:
    init = _empty(rewriter, arith, result, sizes)
    new = hip.SliceOp.make(
        context_of(op),
        src=source,
        out=init,
        starts=[arith.value(s) for s in starts],
        steps=steps,
    )
    rewriter.insert(new)
    return new


def _axis(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise Unsupported(f"axis {axis} is out of range for rank {rank}")
    return axis % rank


class ConvertSlice(OnnxPattern[onnx.SliceOp]):
    def convert(self, op: onnx.SliceOp, rewriter: PatternRewriter) -> None:
        result = ranked(op.output, "the result")
        _same_element_type(op.data, result)
        rank = ranked(op.data, "the input").get_num_dims()
        starts = shape_operand(self, op, rewriter, op.starts, "starts")
        ends = shape_operand(self, op, rewriter, op.ends, "ends")
        axes = (
            list(range(len(starts)))
            if op.axes is None
            else [_axis(a, rank) for a in _ints(op.axes, "axes")]
        )
        steps = [1] * len(starts) if op.steps is None else _ints(op.steps, "steps")
        if not len(starts) == len(ends) == len(axes) == len(steps):
            raise Unsupported(
                f"starts, ends, axes and steps have {len(starts)}, {len(ends)}, "
                f"{len(axes)} and {len(steps)} elements; they must agree"
            )
        if len(set(axes)) != len(axes):
            raise Unsupported(f"axes {axes} repeat an axis")
        if 0 in steps:
            raise Unsupported("a step of 0")
        arith = IndexArith(rewriter, op, self.state.folder)
        dims = [arith.dim(op.data, d) for d in range(rank)]
        first: list[Index] = [0] * rank
        sizes: list[Index] = list(dims)
        step_of = [1] * rank
        for axis, start, end, step in zip(axes, starts, ends, steps, strict=True):
            n = dims[axis]
            start = arith.normalize_axis_index(start, n)
            end = arith.normalize_axis_index(end, n)
            if step > 0:
                start = arith.clamp(start, 0, n)
                end = arith.clamp(end, 0, n)
            else:
                start = arith.clamp(start, 0, arith.sub(n, 1))
                end = arith.clamp(end, -1, arith.sub(n, 1))
            count = arith.ceil_div(arith.sub(end, start), step)
            first[axis] = start
            sizes[axis] = arith.max(count, 0)
            step_of[axis] = step
        new = _slice(op, rewriter, arith, op.data, result, first, sizes, step_of)
        rewriter.replace(op, [], new.results)


class ConvertSplit(OnnxPattern[onnx.SplitOp]):
    def convert(self, op: onnx.SplitOp, rewriter: PatternRewriter) -> None:
        source = ranked(op.input, "the input")
        results = [ranked(r, f"result {i}") for i, r in enumerate(op.outputs)]
        for result in results:
            _same_element_type(op.input, result)
        rank = source.get_num_dims()
        axis = _axis(op.get_int("axis"), rank)
        arith = IndexArith(rewriter, op, self.state.folder)
        dims = [arith.dim(op.input, d) for d in range(rank)]
        n, count = dims[axis], len(results)
        if op.split is not None:
            parts = shape_operand(self, op, rewriter, op.split, "split")
            if len(parts) != count:
                raise Unsupported(f"split has {len(parts)} sizes for {count} outputs")
        else:
            if op.num_outputs is not None and op.num_outputs.value.data != count:
                raise Unsupported(
                    f"num_outputs is {op.num_outputs.value.data} but the node has "
                    f"{count} outputs"
                )
            parts = self._chunks(arith, n, count, op.num_outputs is not None)
        if any(isinstance(part, int) and part < 0 for part in parts):
            raise Unsupported(f"a negative size in split {parts}")
        new: list[Operation] = []
        offset: Index = 0
        for i, (part, result) in enumerate(zip(parts, results, strict=True)):
            if i:
                offset = arith.add(offset, parts[i - 1])
            starts: list[Index] = [0] * rank
            starts[axis] = offset
            sizes = list(dims)
            sizes[axis] = part
            steps = [1] * rank
            new.append(
                _slice(op, rewriter, arith, op.input, result, starts, sizes, steps)
            )
        rewriter.replace(op, [], [r for each in new for r in each.results])

    @staticmethod
    def _chunks(arith: IndexArith, n: Index, count: int, uneven: bool) -> list[Index]:
        """`count` parts of `n`: equal ones (opset 13), or under `num_outputs`
        chunks of `ceil(n / count)`, the last one what is left."""
        if not uneven:
            if isinstance(n, int) and n % count:
                raise Unsupported(f"size {n} does not split into {count} equal parts")
            return [arith.floor_div(n, count)] * count
        chunk = arith.ceil_div(n, count)
        return [chunk] + [
            arith.clamp(arith.sub(n, arith.mul(chunk, i)), 0, chunk)
            for i in range(1, count)
        ]


class ConvertTile(OnnxPattern[onnx.TileOp]):
    def convert(self, op: onnx.TileOp, rewriter: PatternRewriter) -> None:
        result = ranked(op.output, "the result")
        _same_element_type(op.input, result)
        rank = ranked(op.input, "the input").get_num_dims()
        repeats = shape_operand(self, op, rewriter, op.repeats, "repeats")
        if len(repeats) != rank:
            raise Unsupported(f"{len(repeats)} repeats for rank {rank}")
        if any(isinstance(r, int) and r < 0 for r in repeats):
            raise Unsupported(f"a negative repeat in {repeats}")
        arith = IndexArith(rewriter, op, self.state.folder)
        sizes = [arith.mul(arith.dim(op.input, d), r) for d, r in enumerate(repeats)]
        init = _empty(rewriter, arith, result, sizes)
        new = hip.TileOp.make(context_of(op), src=op.input, out=init)
        rewriter.replace(op, new)


class ConvertExpand(OnnxPattern[onnx.ExpandOp]):
    def convert(self, op: onnx.ExpandOp, rewriter: PatternRewriter) -> None:
        result = ranked(op.output, "the result")
        _same_element_type(op.input, result)
        rank = ranked(op.input, "the input").get_num_dims()
        shape = shape_operand(self, op, rewriter, op.shape, "shape")
        out_rank = max(rank, len(shape))
        if result.get_num_dims() != out_rank:
            raise Unsupported(
                f"the result has rank {result.get_num_dims()}, broadcasting gives "
                f"{out_rank}"
            )
        arith = IndexArith(rewriter, op, self.state.folder)
        sizes: list[Index] = []
        for i in range(out_rank):
            j, k = i - (out_rank - rank), i - (out_rank - len(shape))
            a = arith.dim(op.input, j) if j >= 0 else 1
            b = shape[k] if k >= 0 else 1
            sizes.append(self._broadcast(arith, a, b, i))
        init = _empty(rewriter, arith, result, sizes)
        new = hip.ExpandOp.make(context_of(op), src=op.input, out=init)
        rewriter.replace(op, new)

    def _broadcast(self, arith: IndexArith, a: Index, b: Index, dim: int) -> Index:
        """numpy's rule for one dim: a 1 takes the other side; a number against
        a run-time size is the number; two run-time sizes, `broadcast_size`'s
        `b if a == 1 else a` (0 against 1 is 0), or their `max` where one is
        proven the broadcast of both (it is that one; the IR the golden tests
        hold)."""
        if a == 1:
            return b
        if b == 1:
            return a
        if isinstance(a, int) and isinstance(b, int):
            if a != b:
                raise Unsupported(f"sizes {a} and {b} of dim {dim} do not broadcast")
            return a
        if isinstance(a, int):
            return a
        if isinstance(b, int):
            return b
        if proven_broadcast(self.state, arith.anchor, (a, b)) is not None:
            return arith.max(a, b)
        return broadcast_size(arith.rewriter, self.state, arith.anchor, (a, b))
