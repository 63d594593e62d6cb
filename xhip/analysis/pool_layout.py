"""The memory pool of a function, evaluated for concrete input shapes.

After `hip-pool-allocs` the offsets and the pool size are `arith` index ops over
the inputs' dynamic dims. `evaluate_pool` runs that arithmetic for given
argument shapes and lists every view of the pool with its bytes and its live
range; `PoolLayout.problems` checks the plan: views inside the pool, aligned,
and no two views that are live at the same time sharing a byte. Works on the IR
after pass 16 and on the final IR (`hip.alloc` pool, constants-blob views).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.hints import isa

from xhip.analysis.liveness import BufferLiveness
from xhip.analysis.memory_plan import element_bytes
from xhip.dialects import hip
from xhip.dialects.constraints import AnyMemRefTypeConstr
from xhip.transforms.index_arith import INDEX_BINARY, INDEX_COMPARE


class PoolEvaluationError(ValueError):
    """The pool arithmetic could not be evaluated for the given shapes."""


@dataclass(frozen=True)
class ViewPlacement:
    """One view of the pool, for concrete shapes."""

    number: int
    """Position among the pool's views, in program order."""
    type: MemRefType
    shape: tuple[int, ...]
    offset: int
    size: int
    first_use: int
    last_use: int

    @property
    def end(self) -> int:
        return self.offset + self.size


@dataclass
class PoolLayout:
    """A pool's size and its views, for concrete shapes."""

    size: int
    views: list[ViewPlacement] = field(default_factory=list[ViewPlacement])

    def placements(self) -> list[tuple[int, int]]:
        """(offset, byte size) of each view, in program order."""
        return [(v.offset, v.size) for v in self.views]

    def problems(self, alignment: int = 256) -> list[str]:
        """Everything wrong with the layout; empty if it is sound."""
        found: list[str] = []
        for v in self.views:
            if v.offset % alignment:
                found.append(
                    f"view {v.number} at {v.offset} is not {alignment}-aligned"
                )
            if v.offset < 0 or v.end > self.size:
                found.append(
                    f"view {v.number} [{v.offset}, {v.end}) is outside the pool "
                    f"of {self.size} bytes"
                )
        for i, a in enumerate(self.views):
            for b in self.views[i + 1 :]:
                live_together = a.first_use <= b.last_use and b.first_use <= a.last_use
                share_bytes = (
                    a.offset < b.end and b.offset < a.end and a.size and b.size
                )
                if live_together and share_bytes:
                    found.append(
                        f"views {a.number} [{a.offset}, {a.end}) ops "
                        f"{a.first_use}-{a.last_use} and {b.number} [{b.offset}, "
                        f"{b.end}) ops {b.first_use}-{b.last_use} overlap while "
                        f"both are live"
                    )
        return found


def shapes_from_dim_params(
    function: func.FuncOp, dims: Mapping[str, int]
) -> dict[int, tuple[int, ...]]:
    """Argument shapes from their `onnx.dim_params` ("0:batch,1:seq")."""
    shapes: dict[int, tuple[int, ...]] = {}
    arg_attrs = function.arg_attrs.data if function.arg_attrs else ()
    for i, arg in enumerate(function.args):
        if not AnyMemRefTypeConstr.verifies(arg.type):
            continue
        named: dict[int, str] = {}
        attrs = arg_attrs[i] if i < len(arg_attrs) else None
        if isinstance(attrs, DictionaryAttr) and isinstance(
            params := attrs.data.get("onnx.dim_params"), StringAttr
        ):
            for item in params.data.split(","):
                axis, name = item.split(":")
                named[int(axis)] = name
        shape: list[int] = []
        for axis, d in enumerate(arg.type.get_shape()):
            if d != DYNAMIC_INDEX:
                shape.append(d)
            elif axis in named and named[axis] in dims:
                shape.append(dims[named[axis]])
            else:
                break
        else:
            shapes[i] = tuple(shape)
    return shapes


class _Evaluator:
    """Runs the index arithmetic of a block for known argument shapes."""

    def __init__(self, block: Block, shapes: Mapping[int, Sequence[int]]):
        self.ints: dict[SSAValue, int] = {}
        self.shapes: dict[SSAValue, tuple[int, ...]] = {
            block.args[i]: tuple(s) for i, s in shapes.items()
        }
        for op in block.ops:
            self.visit(op)

    def visit(self, op: Operation) -> None:
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            self.ints[op.result] = op.value.value.data
        elif isinstance(op, arith.IndexCastOp | arith.CmpiOp | arith.SelectOp) or (
            type(op) in INDEX_BINARY
        ):
            if all(o in self.ints for o in op.operands):
                self.ints[op.results[0]] = self._arith(op)
        elif isinstance(op, memref.DimOp):
            shape = self.shapes.get(op.source)
            if shape is not None and op.index in self.ints:
                self.ints[op.result] = shape[self.ints[op.index]]
        elif isinstance(op, memref.AllocOp | hip.AllocOp | memref.ViewOp):
            self._shape_from_sizes(op.results[0], op.operands)
        elif isinstance(op, memref.CastOp) and op.source in self.shapes:
            self.shapes[op.dest] = self.shapes[op.source]

    def _arith(self, op: Operation) -> int:
        """`arith` on index values: `index_arith`'s one semantics of it."""
        values = [self.ints[o] for o in op.operands]
        if isinstance(op, arith.CmpiOp):
            compare = list(INDEX_COMPARE.values())[op.predicate.value.data]
            return int(compare(*values))
        if isinstance(op, arith.SelectOp):
            return values[1] if values[0] else values[2]
        if isinstance(op, arith.IndexCastOp):
            return values[0]
        return INDEX_BINARY[type(op)](*values)

    def _shape_from_sizes(self, result: SSAValue, operands: Sequence[SSAValue]) -> None:
        assert AnyMemRefTypeConstr.verifies(result.type)
        sizes = [self.ints.get(o) for o in operands if isinstance(o.type, IndexType)]
        if isinstance(result.owner, memref.ViewOp):
            sizes = sizes[1:]
        shape = list(result.type.get_shape())
        dynamic = [i for i, d in enumerate(shape) if d == DYNAMIC_INDEX]
        if len(dynamic) != len(sizes) or any(s is None for s in sizes):
            return
        for i, s in zip(dynamic, sizes):
            assert s is not None
            shape[i] = s
        self.shapes[result] = tuple(shape)

    def int_of(self, value: SSAValue, what: str) -> int:
        if value not in self.ints:
            raise PoolEvaluationError(f"cannot evaluate the {what}")
        return self.ints[value]


def _is_pool(value: SSAValue) -> bool:
    owner = value.owner
    return (
        isinstance(owner, memref.AllocOp | hip.AllocOp)
        and AnyMemRefTypeConstr.verifies(value.type)
        and value.type.get_shape() == (DYNAMIC_INDEX,)
    )


def evaluate_pool(
    function: func.FuncOp, shapes: Mapping[int, Sequence[int]]
) -> PoolLayout:
    """The pool of `function` for these argument shapes (by argument index)."""
    block = function.body.blocks[0]
    evaluator = _Evaluator(block, shapes)
    liveness = BufferLiveness(block)
    pools = [
        op.results[0]
        for op in block.ops
        if op.results
        and _is_pool(op.results[0])
        and any(isinstance(u.operation, memref.ViewOp) for u in op.results[0].uses)
    ]
    if len(pools) != 1:
        raise PoolEvaluationError(f"expected one pool, found {len(pools)}")
    pool = pools[0]
    size_operand = pool.owner.operands[-1]
    layout = PoolLayout(evaluator.int_of(size_operand, "pool size"))
    views = [
        op for op in block.ops if isinstance(op, memref.ViewOp) and op.source is pool
    ]
    for number, view in enumerate(views):
        mtype = view.result.type
        assert isinstance(mtype, MemRefType)
        shape = evaluator.shapes.get(view.result)
        elt = element_bytes(mtype.get_element_type())
        if shape is None or elt is None:
            raise PoolEvaluationError(f"cannot evaluate the shape of view {number}")
        uses = liveness.value_uses(view.result) or [liveness.index[view]]
        layout.views.append(
            ViewPlacement(
                number,
                mtype,
                shape,
                evaluator.int_of(view.byte_shift, f"offset of view {number}"),
                math.prod(shape) * elt,
                uses[0],
                uses[-1],
            )
        )
    return layout


def buffer_offsets(function: func.FuncOp) -> list[int] | None:
    """The `hipdnn.buffer_offsets` the function carries, if any."""
    attr = function.attributes.get("hipdnn.buffer_offsets")
    if not isa(attr, ArrayAttr[Attribute]):
        return None
    return [a.value.data for a in attr.data if isinstance(a, IntegerAttr)]


__all__ = [
    "PoolEvaluationError",
    "PoolLayout",
    "ViewPlacement",
    "buffer_offsets",
    "evaluate_pool",
    "shapes_from_dim_params",
]
