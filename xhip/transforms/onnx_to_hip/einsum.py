"""Einsum -> existing hip ops: permutes, views, `hip.hipblaslt.matmul`,
`hip.miopen.mul`, `hip.miopen.reduce_sum`; no kernel of its own.

The equation is numpy's: a term per operand, `...` for broadcast dims
(right-aligned, as numpy broadcasts them), `->` and the output's letters, or
without it the letters seen once, sorted, after the broadcast dims. Each
`...` dim becomes a letter of its own, so what follows works on letters only:

- a letter repeated within an operand (a diagonal, `ii->i`, `...ii->...i`)
  is `hip.miopen.where` of a constant identity mask, then a sum over the
  second copy: the letter's size must be static (at most `DIAGONAL_MAX`);
- a letter of one operand only that the rest do not need is summed away
  first (`hip.miopen.reduce_sum`);
- operands are contracted two at a time, left to right: letters in both and
  still needed are batch dims, letters in both and no longer needed are
  contracted, the others belong to one side. The operands are permuted to
  (batch, own, contracted) and (batch, contracted, own), each group viewed
  as one dim, multiplied by one batched matmul whose batch dims broadcast as
  numpy's do, and the result viewed back to the letters. Without contracted
  letters (an outer or elementwise product) it is a broadcast `hip.miopen.mul`;
- the result is permuted to the output's order.

So `bhqd,bhkd->bhqk` is a `hip.transpose` of the second operand and one
matmul, `ij->ji` one transpose, `ij->i` one sum.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerType,
    Signedness,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index, IndexArith
from xhip.transforms.onnx_to_hip.reshape import Dim, ViewBuilder
from xhip.transforms.onnx_to_hip.support import (
    ConversionState,
    OnnxPattern,
    Unsupported,
    context_of,
    ranked,
)

DIAGONAL_MAX = 512
"""The largest size of a repeated letter: its mask is a constant of size^2."""

ELLIPSIS = "."
"""Letters of `...` dims are `.0`, `.1`, ...: no equation letter looks so."""


@dataclass(frozen=True)
class Equation:
    """An einsum equation with each `...` dim as a letter of its own."""

    inputs: tuple[tuple[str, ...], ...]
    output: tuple[str, ...]


def _term(text: str, rank: int, broadcast: int, what: str) -> tuple[str, ...]:
    """The letters of one operand's term, `...` dims right-aligned among the
    `broadcast` dims of the widest `...`."""
    if text.count("...") > 1 or text.replace("...", "").count(".") > 0:
        raise Unsupported(f"{what} '{text}' has a misplaced '.'")
    head, dots, tail = text.partition("...")
    for letter in head + tail:
        if not letter.isalpha():
            raise Unsupported(f"{what} '{text}' has the character '{letter}'")
    if not dots:
        if len(text) != rank:
            raise Unsupported(f"{what} '{text}' names {len(text)} dims of {rank}")
        return tuple(text)
    extra = rank - len(head) - len(tail)
    if extra < 0:
        raise Unsupported(f"{what} '{text}' names more dims than its rank {rank}")
    dims = tuple(f"{ELLIPSIS}{broadcast - extra + j}" for j in range(extra))
    return (*head, *dims, *tail)


def parse_equation(equation: str, ranks: Sequence[int]) -> Equation:
    """`equation` for operands of these ranks; `Unsupported` says what is wrong."""
    text = equation.replace(" ", "")
    lhs, arrow, rhs = text.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        raise Unsupported(f"{len(terms)} operand terms for {len(ranks)} inputs")
    broadcast = max(
        (
            rank - len(term.replace("...", ""))
            for term, rank in zip(terms, ranks)
            if "..." in term
        ),
        default=0,
    )
    inputs = tuple(
        _term(term, rank, broadcast, f"operand {i}'s term")
        for i, (term, rank) in enumerate(zip(terms, ranks))
    )
    dots = tuple(f"{ELLIPSIS}{j}" for j in range(broadcast))
    if arrow:
        output = _term(
            rhs, len(rhs.replace("...", "")) + broadcast, broadcast, "the output"
        )
    else:
        counts = Counter(letter for term in inputs for letter in term)
        once = sorted(
            letter for letter, n in counts.items() if n == 1 and ELLIPSIS not in letter
        )
        output = (*dots, *once)
    if len(set(output)) != len(output):
        raise Unsupported("the output names a letter twice")
    seen = {letter for term in inputs for letter in term}
    for letter in output:
        if letter not in seen:
            raise Unsupported(f"the output letter '{letter}' is in no operand")
    return Equation(inputs, output)


class _LetterViews(ViewBuilder):
    """Views whose dims are products of letters: `Dim.symbols` are letter
    numbers, their run-time sizes given by `size_of`."""

    def __init__(
        self,
        state: ConversionState,
        op: Operation,
        rewriter: PatternRewriter,
        source: SSAValue,
        size_of: Callable[[int], Index],
        arith: IndexArith,
    ) -> None:
        super().__init__(state, op, rewriter, source)
        self.size_of = size_of
        self.arith = arith

    def runtime_size(self, dim: Dim) -> SSAValue:
        size: Index = dim.static
        for symbol in dim.symbols:
            size = self.arith.mul(size, self.size_of(symbol))
        return self.arith.value(size)


@dataclass
class Term:
    """A value and the letter of each of its dims."""

    value: SSAValue
    letters: tuple[str, ...]


@dataclass
class _Lowering:
    """Emits the ops of one Einsum node."""

    pattern: ConvertEinsum
    op: onnx.EinsumOp
    rewriter: PatternRewriter
    arith: IndexArith
    element: Attribute
    static: dict[str, int] = field(default_factory=dict[str, int])
    """The letters of a static size."""
    dynamic: dict[str, tuple[SSAValue, int]] = field(
        default_factory=dict[str, tuple[SSAValue, int]]
    )
    """The others: the operand dim that gives the size."""
    numbers: dict[str, int] = field(default_factory=dict[str, int])
    dims: dict[tuple[SSAValue, int], Index] = field(
        default_factory=dict[tuple[SSAValue, int], Index]
    )
    """`tensor.dim`s made so far, each made once."""

    # Sizes.

    def learn_sizes(self, terms: Sequence[Term]) -> None:
        """Each letter's size: a static one other than 1 if any operand has
        it (the others broadcast), else 1 if all are 1, else a run-time dim."""
        static: dict[str, set[int]] = {}
        dynamic: dict[str, tuple[SSAValue, int]] = {}
        for term in terms:
            shape = ranked(term.value, "an operand").get_shape()
            for d, letter in enumerate(term.letters):
                self.numbers.setdefault(letter, len(self.numbers))
                if shape[d] == DYNAMIC_INDEX:
                    dynamic.setdefault(letter, (term.value, d))
                else:
                    static.setdefault(letter, set()).add(shape[d])
        for letter in self.numbers:
            known = static.get(letter, set())
            big = known - {1}
            if len(big) > 1:
                raise Unsupported(
                    f"the letter '{letter}' has the sizes {sorted(known)} in different "
                    "operands"
                )
            if big:
                self.static[letter] = big.pop()
            elif letter in dynamic:
                self.dynamic[letter] = dynamic[letter]
            else:
                self.static[letter] = 1

    def operand_dim(self, value: SSAValue, d: int) -> Index:
        key = (value, d)
        if key not in self.dims:
            self.dims[key] = self.arith.dim(value, d)
        return self.dims[key]

    def size(self, letter: str) -> Index:
        if letter in self.static:
            return self.static[letter]
        return self.operand_dim(*self.dynamic[letter])

    def size_of_number(self, number: int) -> Index:
        letter = next(x for x, n in self.numbers.items() if n == number)
        return self.size(letter)

    def dim(self, letters: Sequence[str]) -> Dim:
        result = Dim()
        for letter in letters:
            result = result * (
                Dim(self.static[letter])
                if letter in self.static
                else Dim(1, (self.numbers[letter],))
            )
        return result

    def tensor_type(self, letters: Sequence[str]) -> TensorType[Attribute]:
        shape = [self.static.get(letter, DYNAMIC_INDEX) for letter in letters]
        return TensorType(self.element, shape)

    def empty(self, letters: Sequence[str]) -> SSAValue:
        dynamic = [
            self.arith.value(self.size(letter))
            for letter in letters
            if letter not in self.static
        ]
        empty = tensor.EmptyOp(dynamic, self.tensor_type(letters))
        self.rewriter.insert(empty)
        return empty.tensor

    # Ops.

    def emit(self, new: hip.HipDPSOp) -> SSAValue:
        self.rewriter.insert(new)
        return new.res[0]

    def permute(self, term: Term, letters: Sequence[str]) -> Term:
        perm = [term.letters.index(letter) for letter in letters]
        moved = [i for i, p in enumerate(perm) if i != p]
        if not moved:
            return term
        ctx = context_of(self.op)
        init = self.empty_like(term, perm)
        if len(moved) == 2:
            dim0, dim1 = (
                self.pattern.state.folder.index(self.rewriter, self.op, i)
                for i in moved
            )
            new: hip.HipDPSOp = hip.TransposeOp.make(
                ctx, src=term.value, out=init, dim0=dim0, dim1=dim1
            )
        else:
            new = hip.PermuteOp.make(ctx, src=term.value, out=init, perm=perm)
        return Term(self.emit(new), tuple(letters))

    def empty_like(self, term: Term, perm: Sequence[int]) -> SSAValue:
        """An init of `term`'s dims in the order `perm`, sized from `term`."""
        shape = ranked(term.value, "an operand").get_shape()
        result = TensorType(self.element, [shape[p] for p in perm])
        dynamic = [
            self.arith.value(self.operand_dim(term.value, p))
            for p in perm
            if shape[p] == DYNAMIC_INDEX
        ]
        empty = tensor.EmptyOp(dynamic, result)
        self.rewriter.insert(empty)
        return empty.tensor

    def sum(self, term: Term, letters: set[str]) -> Term:
        """`term` summed over `letters`."""
        axes = [d for d, letter in enumerate(term.letters) if letter in letters]
        if not axes:
            return term
        kept = tuple(letter for letter in term.letters if letter not in letters)
        init = self.empty_sized_like(term, kept)
        new = hip.ReduceSumOp.make(
            context_of(self.op), src=term.value, out=init, axes=axes
        )
        return Term(self.emit(new), kept)

    def empty_sized_like(self, term: Term, kept: Sequence[str]) -> SSAValue:
        """An init of `term`'s dims of these letters, in this order."""
        return self.empty_like(term, [term.letters.index(letter) for letter in kept])

    def term_dims(self, term: Term) -> dict[str, Dim]:
        """Each of `term`'s dims as a `Dim`: a broadcast dim of size 1 is 1."""
        shape = ranked(term.value, "an operand").get_shape()
        return {
            letter: Dim(size)
            if size != DYNAMIC_INDEX
            else Dim(1, (self.numbers[letter],))
            for letter, size in zip(term.letters, shape)
        }

    def view(self, term: Term, groups: Sequence[Sequence[str]]) -> SSAValue:
        """`term` with each group of its letters as one dim (in its order)."""
        dims = self.term_dims(term)
        where = {self.numbers[letter]: d for d, letter in enumerate(term.letters)}
        source = [dims[letter] for letter in term.letters]
        target = [Dim.product([dims[x] for x in group]) for group in groups]
        return self.regroup(
            term.value,
            source,
            target,
            lambda number: self.operand_dim(term.value, where[number]),
        )

    def ungroup(self, value: SSAValue, groups: Sequence[Sequence[str]]) -> SSAValue:
        """`value`, whose dims are these groups of letters, with a dim per letter."""
        source = [self.dim(group) for group in groups]
        target = [self.dim([x]) for group in groups for x in group]
        return self.regroup(value, source, target, self.size_of_number)

    def regroup(
        self,
        value: SSAValue,
        source: list[Dim],
        target: list[Dim],
        size_of: Callable[[int], Index],
    ) -> SSAValue:
        views = _LetterViews(
            self.pattern.state, self.op, self.rewriter, value, size_of, self.arith
        )
        return views.reshape(source, target)

    # Diagonals.

    def diagonal(self, term: Term) -> Term:
        """`term` with each repeated letter kept once: its diagonal."""
        while True:
            counts = Counter(term.letters)
            repeated = [letter for letter in term.letters if counts[letter] > 1]
            if not repeated:
                return term
            letter = repeated[0]
            first = term.letters.index(letter)
            second = term.letters.index(letter, first + 1)
            term = self._one_diagonal(term, letter, first, second)

    def _one_diagonal(self, term: Term, letter: str, first: int, second: int) -> Term:
        shape = ranked(term.value, "an operand").get_shape()
        n = next((shape[d] for d in (first, second) if shape[d] != DYNAMIC_INDEX), None)
        if n is None or n > DIAGONAL_MAX:
            raise Unsupported(
                f"the repeated letter '{letter}' (a diagonal) needs a static size "
                f"of at most {DIAGONAL_MAX}"
            )
        mask_shape = [1] * len(shape)
        mask_shape[first] = mask_shape[second] = n
        eye = [1 if i == j else 0 for i in range(n) for j in range(n)]
        folder = self.pattern.state.folder
        mask = folder.get(
            self.rewriter,
            self.op,
            DenseIntOrFPElementsAttr.from_list(TensorType(i1, mask_shape), eye),
        )
        ones = [1] * len(shape)
        zeros: DenseIntOrFPElementsAttr
        if isinstance(self.element, IntegerType):
            integer = cast("IntegerType[int, Signedness]", self.element)
            zeros = DenseIntOrFPElementsAttr.from_list(TensorType(integer, ones), [0])
        elif isinstance(self.element, AnyFloat):
            zeros = DenseIntOrFPElementsAttr.from_list(
                TensorType(self.element, ones), [0.0]
            )
        else:
            raise Unsupported(f"a diagonal of {self.element} values")
        zero = folder.get(self.rewriter, self.op, zeros)
        init = self.empty_like(term, range(len(shape)))
        masked = self.emit(
            hip.WhereOp.make(context_of(self.op), mask, term.value, zero, out=init)
        )
        marked = (*term.letters[:second], "", *term.letters[second + 1 :])
        summed = self.sum(Term(masked, marked), {""})
        return summed

    # Contraction.

    def contract(self, a: Term, b: Term, needed: set[str]) -> Term:
        """`a` times `b` summed over their shared letters not in `needed`;
        the result's letters are (batch, a's own, b's own)."""
        a = self.sum(a, set(a.letters) - set(b.letters) - needed)
        b = self.sum(b, set(b.letters) - set(a.letters) - needed)
        a, b = self.broadcast_contracted(a, b, needed)
        batch = [x for x in a.letters if x in b.letters and x in needed]
        inner = [x for x in a.letters if x in b.letters and x not in needed]
        m = [x for x in a.letters if x not in b.letters]
        n = [x for x in b.letters if x not in a.letters]
        out = (*batch, *m, *n)
        if not inner:
            a = self.permute(a, [*batch, *m])
            b = self.permute(b, [*batch, *n])
            units = [[x] for x in batch]
            a_view = self.view(a, [*units, *([x] for x in m), *([] for _ in n)])
            b_view = self.view(b, [*units, *([] for _ in m), *([x] for x in n)])
            init = self.empty(out)
            product = self.emit(
                hip.MulOp.make(context_of(self.op), a_view, b_view, out=init)
            )
            return Term(product, out)
        a = self.permute(a, [*batch, *m, *inner])
        b = self.permute(b, [*batch, *inner, *n])
        units = [[x] for x in batch]
        # Without batch dims a missing side is numpy's 1-D matmul operand;
        # with them, a unit dim.
        own_a = [m] if m or batch else []
        own_b = [n] if n or batch else []
        a_view = self.view(a, [*units, *own_a, inner])
        b_view = self.view(b, [*units, inner, *own_b])
        groups = [*units, *own_a, *own_b]
        init = self.empty_grouped(groups)
        product = self.emit(
            hip.MatmulOp.make(context_of(self.op), a=a_view, b=b_view, out=init)
        )
        return Term(self.ungroup(product, groups), out)

    def broadcast_contracted(
        self, a: Term, b: Term, needed: set[str]
    ) -> tuple[Term, Term]:
        """A contracted letter of size 1 in one operand only broadcasts, as in
        numpy and ONNX Runtime (the other's size may be known only at run
        time): sum_x a[x] * b[0] = (sum_x a[x]) * b[0], so the other operand
        is summed over it and the size-1 one drops it."""
        a_dims, b_dims = self.term_dims(a), self.term_dims(b)
        for x in [x for x in a.letters if x in b.letters and x not in needed]:
            if a_dims[x] == b_dims[x] or Dim(1) not in (a_dims[x], b_dims[x]):
                continue
            if b_dims[x] == Dim(1):
                a, b = self.sum(a, {x}), self.drop(b, x)
            else:
                a, b = self.drop(a, x), self.sum(b, {x})
        return a, b

    def drop(self, term: Term, letter: str) -> Term:
        """`term` without its dim of `letter`, of size 1."""
        kept = tuple(x for x in term.letters if x != letter)
        return Term(self.view(term, [[x] for x in kept]), kept)

    def empty_grouped(self, groups: Sequence[Sequence[str]]) -> SSAValue:
        """An init whose dims are these groups of letters."""
        dims = [self.dim(group) for group in groups]
        result = TensorType(
            self.element, [d.static if d.is_static else DYNAMIC_INDEX for d in dims]
        )
        dynamic = [
            self.arith.value(self.arith.product([self.size(x) for x in group]))
            for group, d in zip(groups, dims)
            if not d.is_static
        ]
        empty = tensor.EmptyOp(dynamic, result)
        self.rewriter.insert(empty)
        return empty.tensor


class ConvertEinsum(OnnxPattern[onnx.EinsumOp]):
    """`onnx.Einsum` -> permutes, views, matmuls, products and sums (see the
    module's docstring)."""

    def convert(self, op: onnx.EinsumOp, rewriter: PatternRewriter) -> None:
        try:
            self._convert(op, rewriter)
        except Unsupported as error:
            raise Unsupported(f"equation '{op.equation.data}': {error}") from None

    def _convert(self, op: onnx.EinsumOp, rewriter: PatternRewriter) -> None:
        equation = op.equation.data
        result = ranked(op.Output, "the result")
        element = result.get_element_type()
        if not op.Inputs:
            raise Unsupported("Einsum needs at least one input")
        for value in op.Inputs:
            if ranked(value, "an input").get_element_type() != element:
                raise Unsupported(
                    f"input type {value.type} differs from the result's element "
                    f"type {element}"
                )
        if element == i1:
            raise Unsupported("Einsum of i1 (bool) values is not supported")
        ranks = [len(ranked(v, "an input").get_shape()) for v in op.Inputs]
        parsed = parse_equation(equation, ranks)
        if len(parsed.output) != len(result.get_shape()):
            raise Unsupported(
                f"the result type {result} does not have the {len(parsed.output)} "
                "dims of the output"
            )
        arith = IndexArith(rewriter, op, self.state.folder)
        lowering = _Lowering(self, op, rewriter, arith, element)
        terms = [Term(v, letters) for v, letters in zip(op.Inputs, parsed.inputs)]
        lowering.learn_sizes(terms)
        terms = [lowering.diagonal(term) for term in terms]
        output = set(parsed.output)
        acc = terms[0]
        for i, term in enumerate(terms[1:], 1):
            later = {x for t in terms[i + 1 :] for x in t.letters}
            acc = lowering.contract(acc, term, output | later)
        acc = lowering.sum(acc, set(acc.letters) - output)
        acc = lowering.permute(acc, parsed.output)
        value = acc.value
        if value.type != result:
            cast = tensor.CastOp(value, result)
            rewriter.insert(cast)
            value = cast.results[0]
        rewriter.replace(op, [], [value])
