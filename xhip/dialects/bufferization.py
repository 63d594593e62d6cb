"""xDSL's `bufferization` dialect, extended with what the pipeline uses."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import bufferization as xbufferization
from xdsl.dialects.builtin import (
    I1,
    AnyUnrankedMemRefTypeConstr,
    DenseArrayBase,
    IntegerType,
    MemRefType,
    i1,
    i32,
)
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.pattern_rewriter import RewritePattern
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait
from xdsl.utils.exceptions import VerifyException


class _DeallocCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        # lazy: breaks the dialect <-> canonicalization-patterns cycle
        from xhip.transforms.canonicalization_patterns.bufferization import (
            DEALLOC_CANONICALIZATION_PATTERNS,
        )

        return DEALLOC_CANONICALIZATION_PATTERNS


_SEGMENT_SIZES: dict[tuple[int, int, int], DenseArrayBase[IntegerType]] = {}
"""`operandSegmentSizes` of a `bufferization.dealloc`, by its three counts."""


@irdl_op_definition
class DeallocOp(IRDLOperation):
    """Free each memref whose condition holds, unless a retained value aliases it.

    %r:2 = bufferization.dealloc (%a, %b : memref<f32>, memref<f32>) if (%c0, %c1)
                          retain (%x, %y : memref<4xf32>, memref<?xf32>)

    One `i1` result per retained memref: whether the op handed its ownership on,
    i.e. the disjunction of the conditions of the memrefs that alias it.
    """

    name = "bufferization.dealloc"

    memrefs = var_operand_def(MemRefType.constr() | AnyUnrankedMemRefTypeConstr)
    conditions = var_operand_def(I1)
    retained = var_operand_def(MemRefType.constr() | AnyUnrankedMemRefTypeConstr)
    updated_conditions = var_result_def(I1)

    traits = traits_def(_DeallocCanonicalization())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        memrefs: Sequence[SSAValue | Operation],
        conditions: Sequence[SSAValue | Operation],
        retained: Sequence[SSAValue | Operation] = (),
    ):
        # What `IRDLOperation.__init__` builds, without its generic argument
        # handling: the deallocation passes make one per freed buffer.
        values = [SSAValue.get(v) for v in (*memrefs, *conditions, *retained)]
        sizes = (len(memrefs), len(conditions), len(retained))
        segments = _SEGMENT_SIZES.get(sizes)
        if segments is None:
            segments = _SEGMENT_SIZES[sizes] = DenseArrayBase.from_list(i32, sizes)
        Operation.__init__(
            self,
            operands=values,
            result_types=[i1] * len(retained),
            properties={"operandSegmentSizes": segments},
        )

    @classmethod
    def parse(cls, parser: Parser) -> DeallocOp:
        memrefs: list[SSAValue] = []
        conditions: list[SSAValue] = []
        retained: list[SSAValue] = []
        if parser.parse_optional_punctuation("(") is not None:
            memrefs = _parse_typed_operands(parser)
            parser.parse_keyword("if")
            conditions = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN,
                lambda: parser.resolve_operand(parser.parse_unresolved_operand(), i1),
            )
        if parser.parse_optional_keyword("retain") is not None:
            parser.parse_punctuation("(")
            retained = _parse_typed_operands(parser)
        op = cls(memrefs, conditions, retained)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        if self.memrefs:
            printer.print_string(" (")
            _print_typed_operands(printer, self.memrefs)
            printer.print_string(") if (")
            printer.print_list(self.conditions, printer.print_operand)
            printer.print_string(")")
        if self.retained:
            printer.print_string(" retain (")
            _print_typed_operands(printer, self.retained)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if len(self.memrefs) != len(self.conditions):
            raise VerifyException(
                "'bufferization.dealloc' needs one condition per memref, got "
                f"{len(self.memrefs)} memrefs and {len(self.conditions)} conditions"
            )
        if len(self.retained) != len(self.updated_conditions):
            raise VerifyException(
                "'bufferization.dealloc' needs one result per retained memref"
            )


def _parse_typed_operands(parser: Parser) -> list[SSAValue]:
    """`%a, %b : T1, T2)`, after the opening parenthesis."""
    names = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(f"expected {len(names)} types, got {len(types)}")
    return [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]


def _print_typed_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)
    printer.print_string(" : ")
    printer.print_list((v.type for v in values), printer.print_attribute)


_EXTRA: tuple[type[Operation], ...] = (DeallocOp,)

Bufferization = Dialect(
    "bufferization",
    [*xbufferization.Bufferization.operations, *_EXTRA],
    list(xbufferization.Bufferization.attributes),
)
