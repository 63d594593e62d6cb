"""Sequences and optionals resolved away at compile time (`docs/sequences.md`).

No sequence or optional exists at run time: `resolve_sequences` follows each
through the ops that build it (SequenceEmpty, SequenceConstruct,
SequenceInsert, SequenceErase, SplitToSequence, Optional), as a list of
tensor values (or a present or absent value), and replaces each op that reads
one by what it reads: SequenceAt by the element, SequenceLength and
OptionalHasElement by constants, ConcatFromSequence by `onnx.Concat` (of
`onnx.Unsqueeze`s for `new_axis`), OptionalGetElement by the value held. The
function's sequence and optional results become their elements (named
`name[i]`; an absent optional, none). `unroll_control_flow` runs it between
unrolling loops and inlining Ifs, until nothing changes, so a loop-carried
sequence is resolved step by step. Positions must be known then (constants,
the iteration numbers of unrolled loops, or values `xhip.compile`
specializes on); an op left over is refused by its pattern with the reason.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.hints import isa

from xhip.dialects import onnx
from xhip.transforms.index_arith import index_values
from xhip.transforms.onnx_to_hip.support import OnnxPattern, Unsupported

Seq = list[SSAValue]
Held = SSAValue | None
"""What an optional holds: a tensor, a sequence value, or nothing."""


def _si64(value: int) -> IntegerAttr:
    return IntegerAttr(value, IntegerType(64, Signedness.SIGNED))


def _known_int(value: SSAValue | None) -> int | None:
    if value is None:
        return None
    known = index_values(value)
    if known is None or len(known) != 1 or not isinstance(known[0], int):
        return None
    return known[0]


def _shape(value: SSAValue) -> list[int]:
    t = value.type
    assert isinstance(t, TensorType)
    return list(t.get_shape())


def _element(value: SSAValue) -> Attribute:
    t = value.type
    assert isa(t, TensorType[Attribute])
    return t.get_element_type()


class _Resolver:
    """One function's sequences and optionals, as far as they are known."""

    def __init__(self) -> None:
        self.seqs: dict[SSAValue, Seq] = {}
        self.runs: dict[SSAValue, onnx.SplitToSequenceOp] = {}
        """Splits into as many pieces as a dim known only at run time."""
        self.opts: dict[SSAValue, Held] = {}
        self.changed = False

    def insert(self, op: Operation, before: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(before))
        return op.results[0]

    def constant(
        self,
        values: list[int],
        shape: list[int],
        before: Operation,
        element: IntegerType = i64,
    ) -> SSAValue:
        dense = DenseIntOrFPElementsAttr.from_list(TensorType(element, shape), values)
        return self.insert(
            onnx.ConstantOp.build(
                result_types=[dense.type], attributes={"value": dense}
            ),
            before,
        )

    def replace(self, op: Operation, value: SSAValue) -> None:
        """`op`'s one result replaced by `value` (a `tensor.cast` to its type
        where only static sizes differ; a rank onnx's inference got wrong for
        a sequence's element is left as the element has it)."""
        result = op.results[0]
        want, have = result.type, value.type
        if (
            want != have
            and isa(want, TensorType[Attribute])
            and isa(have, TensorType[Attribute])
            and len(want.get_shape()) == len(have.get_shape())
        ):
            value = self.insert(tensor.CastOp(value, want), op)
        Rewriter.replace_op(op, [], [value])
        self.changed = True

    def construct(self, op: Operation, sequences: list[Seq]) -> None:
        """`op`'s sequence results replaced by `onnx.SequenceConstruct`s of
        `sequences`: the form every known sequence takes, so a second visit
        finds nothing new to do."""
        built = [
            onnx.SequenceConstructOp.build(operands=[seq], result_types=[r.type])
            for seq, r in zip(sequences, op.results, strict=True)
        ]
        for new, seq in zip(built, sequences, strict=True):
            self.seqs[new.results[0]] = seq
        Rewriter.replace_op(op, built, [b.results[0] for b in built])
        self.changed = True

    def sequence(self, value: SSAValue) -> Seq | None:
        return self.seqs.get(value)

    def held(self, value: SSAValue) -> tuple[bool, Held]:
        """Whether it is known what `value` (an optional, tensor or
        sequence) holds, and what."""
        if isinstance(value.type, onnx.OptType):
            if value in self.opts:
                return True, self.opts[value]
            return False, None
        return True, value

    def visit(self, op: Operation) -> None:
        if isinstance(op, onnx.SequenceEmptyOp):
            self.seqs[op.output] = []
        elif isinstance(op, onnx.SequenceConstructOp):
            self.seqs[op.output_sequence] = list(op.inputs)
        elif isinstance(op, onnx.SequenceInsertOp):
            self._insert(op)
        elif isinstance(op, onnx.SequenceEraseOp):
            self._erase(op)
        elif isinstance(op, onnx.SequenceAtOp):
            seq = self.sequence(op.input_sequence)
            at = _position(op.position, seq)
            if seq is not None and at is not None:
                self.replace(op, seq[at])
            elif op.input_sequence in self.runs:
                piece = _run_at(op, self.runs[op.input_sequence], self)
                if piece is not None:
                    self.replace(op, piece)
        elif isinstance(op, onnx.SequenceLengthOp):
            seq = self.sequence(op.input_sequence)
            if seq is not None:
                self.replace(op, self.constant([len(seq)], [], op))
            elif op.input_sequence in self.runs:
                self.replace(op, _run_length(op, self.runs[op.input_sequence], self))
        elif isinstance(op, onnx.SplitToSequenceOp):
            pieces = _split(op, self)
            if pieces is not None:
                self.construct(op, [pieces])
        elif isinstance(op, onnx.SequenceMapOp):
            mapped = _map(op, self)
            if mapped is not None:
                self.construct(op, mapped)
        elif isinstance(op, onnx.IdentityOp) and onnx.is_structured(op.input.type):
            Rewriter.replace_op(op, [], [op.input])
            self.changed = True
        elif isinstance(op, onnx.ConcatFromSequenceOp):
            seq = self.sequence(op.input_sequence)
            if seq is not None:
                self.replace(op, _concat(op, seq, self))
            elif op.input_sequence in self.runs:
                self.replace(op, _run_concat(op, self.runs[op.input_sequence], self))
        elif isinstance(op, onnx.OptionalOp):
            self.opts[op.output] = op.input
        elif isinstance(op, onnx.OptionalHasElementOp):
            known, held = (True, None) if op.input is None else self.held(op.input)
            if known:
                self.replace(op, self.constant([int(held is not None)], [], op, i1))
        elif isinstance(op, onnx.OptionalGetElementOp):
            self._get(op)
        elif isinstance(op, onnx.NotOp):
            # OptionalHasElement's negation, folded for the If it decides.
            value = _known_int(op.X) if op.X.type == TensorType(i1, []) else None
            if value is not None and isinstance(op.X.owner, onnx.ConstantOp):
                self.replace(op, self.constant([0 if value else 1], [], op, i1))

    def _insert(self, op: onnx.SequenceInsertOp) -> None:
        seq = self.sequence(op.input_sequence)
        if seq is None:
            return
        if op.position is None:
            self.construct(op, [[*seq, op.tensor]])
            return
        at = _known_int(op.position)
        if at is None:
            return
        if not -len(seq) <= at <= len(seq):
            raise Unsupported(
                f"position {at} is out of range for a sequence of {len(seq)}"
            )
        if at < 0:  # counted from the back as ORT and list.insert do: -1 is
            at += len(seq)  # before the last element, not after it
        self.construct(op, [[*seq[:at], op.tensor, *seq[at:]]])

    def _erase(self, op: onnx.SequenceEraseOp) -> None:
        seq = self.sequence(op.input_sequence)
        at = _position(op.position, seq) if op.position is not None else -1
        if seq is None or at is None:
            return
        if not seq:
            raise Unsupported("erases from an empty sequence")
        at %= len(seq)
        self.construct(op, [[*seq[:at], *seq[at + 1 :]]])

    def _get(self, op: onnx.OptionalGetElementOp) -> None:
        known, held = self.held(op.input)
        if not known:
            return
        if held is None:
            raise Unsupported("the optional is empty")
        if isinstance(held.type, onnx.SeqType):
            Rewriter.replace_op(op, [], [held])
            self.changed = True
        else:
            self.replace(op, held)

    def expand_results(self, function: func.FuncOp) -> None:
        """The function's sequence and optional results as their elements."""
        returned = function.body.block.last_op
        assert isinstance(returned, func.ReturnOp)
        if not any(onnx.is_structured(v.type) for v in returned.arguments):
            return
        attrs = (
            list(function.res_attrs.data)
            if function.res_attrs is not None
            else [DictionaryAttr({})] * len(returned.arguments)
        )
        values: list[SSAValue] = []
        new_attrs: list[DictionaryAttr] = []
        for value, attr in zip(returned.arguments, attrs, strict=True):
            name = attr.data.get("onnx.name")
            base = name.data if isinstance(name, StringAttr) else "result"
            parts = self.elements(value)
            if parts is None:
                return  # not known yet (or never: the patterns refuse it)
            if not isinstance(parts, list):
                values.append(parts)
                new_attrs.append(attr)
                continue
            for i, part in enumerate(parts):
                values.append(part)
                new_attrs.append(
                    DictionaryAttr(
                        {**attr.data, "onnx.name": StringAttr(f"{base}[{i}]")}
                    )
                )
        returned.detach()
        returned.erase()
        function.body.block.add_op(func.ReturnOp(*values))
        function.function_type = FunctionType.from_lists(
            function.function_type.inputs.data, [v.type for v in values]
        )
        function.res_attrs = ArrayAttr(new_attrs)
        self.changed = True

    def elements(self, value: SSAValue) -> Seq | SSAValue | None:
        """A result's tensors: a tensor itself, a sequence's elements, an
        optional's (none where absent); None where not known."""
        if isinstance(value.type, onnx.OptType):
            known, held = self.held(value)
            if not known:
                return None
            return [] if held is None else self.elements(held)
        if isinstance(value.type, onnx.SeqType):
            return self.sequence(value)
        return value


def _position(position: SSAValue | None, seq: Seq | None) -> int | None:
    """The element a position picks, if the position and the length are known."""
    if seq is None:
        return None
    at = _known_int(position)
    if at is None:
        return None
    if not -len(seq) <= at < len(seq):
        raise Unsupported(f"position {at} is out of range for a sequence of {len(seq)}")
    return at % len(seq)


def _axis(op: onnx.SplitToSequenceOp) -> int:
    rank = len(_shape(op.input))
    axis = op.get_int("axis")
    if not -rank <= axis < rank:
        raise Unsupported(f"axis {axis} is out of range")
    return axis % rank


def _step(op: onnx.SplitToSequenceOp) -> int | None:
    """The size of each piece of a split of no `split` (1) or a scalar one;
    None for 1-D sizes or a scalar not known yet."""
    if op.split is None:
        return 1
    if _shape(op.split) != []:
        return None
    step = _known_int(op.split)
    if step is not None and step <= 0:
        raise Unsupported(f"split {step} is not positive")
    return step


def _split(op: onnx.SplitToSequenceOp, r: _Resolver) -> Seq | None:
    """The pieces, as `onnx.Split` (or `onnx.Gather`s where `keepdims = 0`
    drops the axis), once the split sizes are known. Pieces of a size (1,
    or a scalar `split`) along a dim known only at run time are as many as
    that dim decides: such a split is left for its readers (`_Resolver.runs`,
    read by `_run_at`, `_run_length`, `_run_concat`)."""
    shape = _shape(op.input)
    axis = _axis(op)
    size = shape[axis]
    if size < 0 and _step(op) is not None:
        r.runs[op.output_sequence] = op
        return None
    if op.split is None:
        if op.get_int("keepdims") == 0:
            parts: Seq = []
            for i in range(size):
                index = r.constant([i], [], op)
                rest = [d for k, d in enumerate(shape) if k != axis]
                parts.append(
                    r.insert(
                        onnx.GatherOp.build(
                            operands=[op.input, index],
                            result_types=[TensorType(_element(op.input), rest)],
                            properties={"axis": _si64(axis)},
                        ),
                        op,
                    )
                )
            return parts
        sizes = [1] * size
    else:
        known = index_values(op.split)
        if known is None or not all(isinstance(k, int) for k in known):
            return None
        given = [k for k in known if isinstance(k, int)]
        if _shape(op.split) == []:
            step = given[0]
            if step <= 0:
                raise Unsupported(f"split {step} is not positive")
            sizes = [min(step, size - s) for s in range(0, size, step)]
        else:
            sizes = given
        if any(s < 0 for s in sizes) or (size >= 0 and sum(sizes) != size):
            raise Unsupported(f"split sizes {sizes} do not add up to {size}")
    if not sizes:
        return []
    types = [
        TensorType(_element(op.input), [*shape[:axis], s, *shape[axis + 1 :]])
        for s in sizes
    ]
    split = onnx.SplitOp.build(
        operands=[op.input, [r.constant(sizes, [len(sizes)], op)]],
        result_types=[types],
        properties={"axis": _si64(axis)},
    )
    Rewriter.insert_op(split, InsertPoint.before(op))
    return list(split.results)


def _run_at(
    op: onnx.SequenceAtOp, split: onnx.SplitToSequenceOp, r: _Resolver
) -> SSAValue | None:
    """A piece of a split of run-time length: a `Gather` at the position
    (negative ones count from the back), or for pieces of a scalar `split`
    a `Slice` (the last piece may be shorter; from the back, its start
    `(count + position) * split` a shape value)."""
    at = _known_int(op.position)
    if at is None:
        return None
    x, axis, step = split.input, _axis(split), _step(split)
    shape = _shape(x)
    keep = split.split is not None or split.get_int("keepdims") != 0
    if step == 1:
        index = r.constant([at], [1] if keep else [], op)
        piece = [*shape[:axis], *([1] if keep else []), *shape[axis + 1 :]]
        gather = onnx.GatherOp.build(
            operands=[x, index],
            result_types=[TensorType(_element(x), piece)],
            properties={"axis": _si64(axis)},
        )
        return r.insert(gather, op)
    assert step is not None  # `_split` keeps only splits of a known step
    if at >= 0:
        start = r.constant([at * step], [1], op)
    else:
        count = _count(r, op, x, axis, step, [1])
        start = _arith(r, op, onnx.AddOp, count, at)
        start = _arith(r, op, onnx.MulOp, start, step)
    end = _arith(r, op, onnx.AddOp, start, step)
    piece = [*shape[:axis], DYNAMIC_INDEX, *shape[axis + 1 :]]
    cut = onnx.SliceOp.build(
        operands=[x, start, end, [r.constant([axis], [1], op)], []],
        result_types=[TensorType(_element(x), piece)],
    )
    return r.insert(cut, op)


def _arith(
    r: _Resolver, op: Operation, kind: type[onnx.OnnxOp], a: SSAValue, b: int
) -> SSAValue:
    """`kind` of an int64 shape value and a number (folded to index arithmetic
    by `onnx-fold-shapes`)."""
    dims = _shape(a)
    new = kind.build(operands=[a, r.constant([b], dims, op)], result_types=[a.type])
    return r.insert(new, op)


def _count(
    r: _Resolver, op: Operation, x: SSAValue, axis: int, step: int, dims: list[int]
) -> SSAValue:
    """The number of pieces, `ceil(dim / step)`, as an int64 shape value of
    `dims` (0-D or one element)."""
    rank = len(_shape(x))
    shape = onnx.ShapeOp.build(operands=[x], result_types=[TensorType(i64, [rank])])
    gather = onnx.GatherOp.build(
        operands=[r.insert(shape, op), r.constant([axis], dims, op)],
        result_types=[TensorType(i64, dims)],
        properties={"axis": _si64(0)},
    )
    n = r.insert(gather, op)
    if step == 1:
        return n
    return _arith(r, op, onnx.DivOp, _arith(r, op, onnx.AddOp, n, step - 1), step)


def _run_length(
    op: onnx.SequenceLengthOp, split: onnx.SplitToSequenceOp, r: _Resolver
) -> SSAValue:
    """The number of pieces, `ceil(dim / step)`, as a shape value."""
    step = _step(split)
    assert step is not None  # `_split` keeps only splits of a known step
    return _count(r, op, split.input, _axis(split), step, [])


def _run_concat(
    op: onnx.ConcatFromSequenceOp, split: onnx.SplitToSequenceOp, r: _Resolver
) -> SSAValue:
    """Size-1 pieces of a split of run-time length put back together: along
    the split axis the input itself; stacked on a new axis the split axis
    moved there (`Transpose`; an `Unsqueeze` for the pieces' 1 where they
    keep the axis); joined along another axis the split axis moved before
    that one and merged with it (`Transpose`, `Reshape`; `Unsqueeze` where
    the pieces keep it). Pieces of a scalar `split` only back along the
    split axis."""
    x, axis, step = split.input, _axis(split), _step(split)
    shape = _shape(x)
    keep = split.split is not None or split.get_int("keepdims") != 0
    new = op.get_int("new_axis") == 1
    top = len(shape) - (0 if keep else 1) + (1 if new else 0)
    at = op.get_int("axis")
    if not -top <= at < top:
        raise Unsupported(f"axis {at} is out of range for pieces stacked to rank {top}")
    at %= top
    if at == axis and keep != new:  # the pieces back as they were
        return x
    rest = [d for d in range(len(shape)) if d != axis]
    if step == 1 and new and not keep:  # the split axis moved to the new one
        return _transpose(r, op, x, [*rest[:at], axis, *rest[at:]])
    if step == 1 and new:  # the same, then the pieces' 1 put back
        one = axis + 1 if at <= axis else axis
        at = at - 1 if one < at else at
        moved = _transpose(r, op, x, [*rest[:at], axis, *rest[at:]])
        return _unsqueeze(r, op, moved, one)
    if step == 1 and not new:
        at = at - 1 if keep and at > axis else at  # among the dims but the axis
        moved = _transpose(r, op, x, [*rest[:at], axis, *rest[at:]])
        joined = _merge_next(r, op, moved, at)
        return _unsqueeze(r, op, joined, axis) if keep else joined
    raise Unsupported(
        "the pieces of a split by a scalar along a dim known only at run time "
        "are joined only back along the split axis"
    )


def _transpose(r: _Resolver, op: Operation, x: SSAValue, perm: list[int]) -> SSAValue:
    if perm == sorted(perm):
        return x
    shape = _shape(x)
    transpose = onnx.TransposeOp.build(
        operands=[x],
        result_types=[TensorType(_element(x), [shape[d] for d in perm])],
        properties={"perm": ArrayAttr([_si64(d) for d in perm])},
    )
    return r.insert(transpose, op)


def _unsqueeze(r: _Resolver, op: Operation, x: SSAValue, at: int) -> SSAValue:
    shape = _shape(x)
    unsqueeze = onnx.UnsqueezeOp.build(
        operands=[x, r.constant([at], [1], op)],
        result_types=[TensorType(_element(x), [*shape[:at], 1, *shape[at:]])],
    )
    return r.insert(unsqueeze, op)


def _merge_next(r: _Resolver, op: Operation, x: SSAValue, at: int) -> SSAValue:
    """x with dims `at` and `at + 1` as one: a `Reshape` to `[0, ..., -1,
    tail]` (0 keeps the input's dim), the tail read from the input where a
    dim of it is known only at run time."""
    shape = _shape(x)
    both = shape[at : at + 2]
    merged = DYNAMIC_INDEX if DYNAMIC_INDEX in both else both[0] * both[1]
    tail = shape[at + 2 :]
    out = [*shape[:at], merged, *tail]
    given = [0] * at + [-1]
    if DYNAMIC_INDEX in tail:
        rest = onnx.ShapeOp.build(
            operands=[x],
            result_types=[TensorType(i64, [len(tail)])],
            properties={"start": _si64(at + 2)},
        )
        dims = onnx.ConcatOp.build(
            operands=[[r.constant(given, [len(given)], op), r.insert(rest, op)]],
            result_types=[TensorType(i64, [len(out)])],
            properties={"axis": _si64(0)},
        )
        target = r.insert(dims, op)
    else:
        target = r.constant([*given, *tail], [len(out)], op)
    reshape = onnx.ReshapeOp.build(
        operands=[x, target], result_types=[TensorType(_element(x), out)]
    )
    return r.insert(reshape, op)


def _map(op: onnx.SequenceMapOp, r: _Resolver) -> list[Seq] | None:
    """The body cloned once per element (a sequence input's element, a
    tensor input whole), once the lengths are known: one sequence per body
    output."""
    inputs = [op.input_sequence, *op.additional_inputs]
    known: dict[SSAValue, Seq] = {}
    for value in inputs:
        if isinstance(value.type, onnx.SeqType):
            seq = r.sequence(value)
            if seq is None:
                return None
            known[value] = seq
    lengths = {len(seq) for seq in known.values()}
    if len(lengths) != 1:
        raise Unsupported("its sequences differ in length")
    body = op.body.block
    mapped: list[Seq] = [[] for _ in op.out_sequence]
    for i in range(lengths.pop()):
        args = [known[v][i] if v in known else v for v in inputs]
        mapping: dict[SSAValue, SSAValue] = dict(zip(body.args, args, strict=True))
        for inner in body.ops:
            if isinstance(inner, onnx.YieldOp):
                for k, value in enumerate(inner.outputs):
                    mapped[k].append(mapping.get(value, value))
                break
            Rewriter.insert_op(
                inner.clone(value_mapper=mapping), InsertPoint.before(op)
            )
    return mapped


def _concat(op: onnx.ConcatFromSequenceOp, seq: Seq, r: _Resolver) -> SSAValue:
    """`onnx.Concat` of the elements (each `onnx.Unsqueeze`d at `axis` first
    for `new_axis = 1`)."""
    if not seq:
        raise Unsupported("the sequence is empty")
    rank = len(_shape(seq[0]))
    new = op.get_int("new_axis") == 1
    axis = op.get_int("axis")
    top = rank + 1 if new else rank
    if not -top <= axis < top:
        raise Unsupported(f"axis {axis} is out of range for rank {rank}")
    axis %= top
    parts = list(seq)
    if new:
        axes = r.constant([axis], [1], op)
        unsqueezed: Seq = []
        for part in parts:
            shape = _shape(part)
            shape.insert(axis, 1)
            unsqueezed.append(
                r.insert(
                    onnx.UnsqueezeOp.build(
                        operands=[part, axes],
                        result_types=[TensorType(_element(part), shape)],
                    ),
                    op,
                )
            )
        parts = unsqueezed
    if len(parts) == 1:
        return parts[0]
    return r.insert(
        onnx.ConcatOp.build(
            operands=[parts],
            result_types=[op.concat_result.type],
            properties={"axis": _si64(axis)},
        ),
        op,
    )


def _erase_dead(function: func.FuncOp) -> None:
    """The family's ops whose results nothing reads any more."""
    for op in reversed(list(function.body.block.ops)):
        if isinstance(op, onnx.SequenceOpBase) and all(not r.uses for r in op.results):
            op.detach()
            op.erase()


def uses_sequences(module: Operation) -> bool:
    """Whether `module` has a sequence or optional op or value (the only
    modules `unroll_control_flow` resolves them in)."""
    for op in module.walk():
        if isinstance(op, onnx.SequenceOpBase):
            return True
        if isinstance(op, func.FuncOp) and any(
            onnx.is_structured(t)
            for t in (*op.function_type.inputs, *op.function_type.outputs)
        ):
            return True
    return False


def resolve_sequences(module: Operation) -> bool:
    """What can be resolved of the sequences and optionals of `module`'s
    functions (their top level: loops not unrolled yet keep theirs); whether
    anything changed."""
    changed = False
    for function in module.walk():
        if not isinstance(function, func.FuncOp):
            continue
        r = _Resolver()
        for op in list(function.body.block.ops):
            if UNRESOLVED in op.attributes:
                continue
            try:
                r.visit(op)
            except Unsupported as why:
                op.attributes[UNRESOLVED] = StringAttr(str(why))
        r.expand_results(function)
        _erase_dead(function)
        changed |= r.changed
    return changed


UNRESOLVED = "xhip.unresolved"
"""The attribute on an op `resolve_sequences` found wrong (a position out of
range, say): why, for its pattern to refuse it with."""

_WHY = (
    "sequences and optionals are resolved at compile time; this one's "
    "structure (its length, a position, or whether it holds a value) is not "
    "known then: it comes from a graph input, a loop that is not unrolled, or "
    "data (docs/sequences.md)"
)


def _refuse(
    self: OnnxPattern[Any], op: onnx.SequenceOpBase, rewriter: PatternRewriter
) -> None:
    """A sequence or optional op `resolve_sequences` left: refused, with why."""
    why = op.attributes.get(UNRESOLVED)
    if isinstance(why, StringAttr):
        raise Unsupported(why.data)
    if isinstance(
        op, onnx.SequenceConstructOp | onnx.SequenceEmptyOp | onnx.OptionalOp
    ):
        raise Unsupported("builds a value that an op which is not resolved reads")
    raise Unsupported(_WHY)


class ConvertSequenceEmpty(OnnxPattern[onnx.SequenceEmptyOp]):
    convert = _refuse


class ConvertSequenceConstruct(OnnxPattern[onnx.SequenceConstructOp]):
    convert = _refuse


class ConvertSequenceInsert(OnnxPattern[onnx.SequenceInsertOp]):
    convert = _refuse


class ConvertSequenceAt(OnnxPattern[onnx.SequenceAtOp]):
    convert = _refuse


class ConvertSequenceErase(OnnxPattern[onnx.SequenceEraseOp]):
    convert = _refuse


class ConvertSequenceLength(OnnxPattern[onnx.SequenceLengthOp]):
    convert = _refuse


class ConvertSplitToSequence(OnnxPattern[onnx.SplitToSequenceOp]):
    def convert(self, op: onnx.SplitToSequenceOp, rewriter: PatternRewriter) -> None:
        if UNRESOLVED not in op.attributes and _shape(op.input)[_axis(op)] < 0:
            raise Unsupported(
                "its length is the size of a dim known only at run time; only "
                "SequenceAt at a known position, SequenceLength and "
                "ConcatFromSequence read such a sequence"
            )
        _refuse(self, op, rewriter)


class ConvertConcatFromSequence(OnnxPattern[onnx.ConcatFromSequenceOp]):
    convert = _refuse


class ConvertSequenceMap(OnnxPattern[onnx.SequenceMapOp]):
    convert = _refuse


class ConvertOptional(OnnxPattern[onnx.OptionalOp]):
    convert = _refuse


class ConvertOptionalHasElement(OnnxPattern[onnx.OptionalHasElementOp]):
    convert = _refuse


class ConvertOptionalGetElement(OnnxPattern[onnx.OptionalGetElementOp]):
    convert = _refuse
