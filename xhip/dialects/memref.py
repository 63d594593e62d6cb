"""xDSL's `memref` dialect, extended with what the seed uses and xDSL lacks.

The ops here subclass xDSL's (so `isinstance` checks in xDSL keep working) and
add MLIR's custom syntax and the canonicalizations the pipeline relies on.
`MemRef` is xDSL's dialect with these ops swapped in; `xhip.universe` makes
`xdsl-opt` use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from io import StringIO

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    I64,
    AnyDenseElement,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.pattern_rewriter import RewritePattern
from xdsl.printer import Printer
from xdsl.traits import (
    HasCanonicalizationPatternsTrait,
    MemoryAllocEffect,
    MemoryFreeEffect,
    NoMemoryEffect,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa


class _CastCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        # lazy: breaks the dialect <-> canonicalization-patterns cycle
        from xhip.transforms.canonicalization_patterns.memref import (
            FoldCastOfCast,
            FoldIdentityCast,
        )

        return (FoldIdentityCast(), FoldCastOfCast())


class _DimCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        # lazy: breaks the dialect <-> canonicalization-patterns cycle
        from xhip.transforms.canonicalization_patterns.memref import (
            FoldDimOfAllocLike,
            FoldDimOfCast,
            FoldDimOfCollapseShape,
            FoldDimOfStaticDim,
        )

        return (
            FoldDimOfStaticDim(),
            FoldDimOfAllocLike(),
            FoldDimOfCast(),
            FoldDimOfCollapseShape(),
        )


def _print_untyped_dense(printer: Printer, value: DenseIntOrFPElementsAttr) -> None:
    """Print `dense<...>` without its ` : type` suffix, as MLIR does in globals."""
    text = StringIO()
    Printer(stream=text).print_attribute(value)
    literal = text.getvalue()
    printer.print_string(literal[: literal.rindex(" : ")])


@irdl_op_definition
class GlobalOp(xmemref.GlobalOp):
    """`memref.global` in MLIR's syntax; the initial value may be absent.

    memref.global "private" constant @c : memref<f32> = dense<1.0> {alignment = 64 : i64}
    memref.global "private" @w : memref<64x64xf32> {hip.external_data = {...}}
    """

    name = "memref.global"

    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = prop_def(StringAttr)
    type = prop_def(MemRefType)
    initial_value = opt_prop_def(UnitAttr | DenseIntOrFPElementsAttr)
    constant = opt_prop_def(UnitAttr)
    alignment = opt_prop_def(IntegerAttr[I64])

    traits = traits_def(SymbolOpInterface(), MemoryAllocEffect())

    def __init__(
        self,
        sym_name: str,
        type: MemRefType[Attribute],
        initial_value: UnitAttr | DenseIntOrFPElementsAttr | None = None,
        *,
        visibility: str = "private",
        constant: bool = False,
        alignment: int | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super(xmemref.GlobalOp, self).__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "sym_visibility": StringAttr(visibility),
                "type": type,
                "initial_value": initial_value,
                "constant": UnitAttr() if constant else None,
                "alignment": None if alignment is None else IntegerAttr(alignment, i64),
            },
            attributes=attributes,
        )

    def verify_(self) -> None:
        # Replaces xDSL's, which insists on an initial value.
        if self.alignment is not None:
            value = self.alignment.value.data
            if value <= 0 or value & (value - 1):
                raise VerifyException(
                    f"'memref.global' alignment {value} is not a power of 2"
                )

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        visibility = parser.parse_optional_str_literal() or "public"
        constant = parser.parse_optional_keyword("constant") is not None
        sym_name = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        mtype = parser.parse_type()
        initial: Attribute | None = None
        if parser.parse_optional_punctuation("="):
            if parser.parse_optional_keyword("uninitialized"):
                initial = UnitAttr()
            elif parser.parse_optional_keyword("dense"):
                # MLIR elides the literal's type: it is the memref's, as a tensor.
                assert isa(mtype, MemRefType[AnyDenseElement])
                initial = parser.parse_dense_int_or_fp_elements_attr(
                    TensorType(mtype.element_type, mtype.get_shape())
                )
            else:
                initial = parser.parse_attribute()
        attrs = parser.parse_optional_attr_dict()
        alignment = attrs.pop("alignment", None)
        op = cls.__new__(cls)
        IRDLOperation.__init__(
            op,
            properties={
                "sym_name": sym_name,
                "sym_visibility": StringAttr(visibility),
                "type": mtype,
                "initial_value": initial,
                "constant": UnitAttr() if constant else None,
                "alignment": alignment,
            },
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility.data != "public":
            printer.print_string(" ")
            printer.print_string_literal(self.sym_visibility.data)
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(f" @{self.sym_name.data} : ")
        printer.print_attribute(self.type)
        if isinstance(self.initial_value, UnitAttr):
            printer.print_string(" = uninitialized")
        elif self.initial_value is not None:
            printer.print_string(" = ")
            _print_untyped_dense(printer, self.initial_value)
        extra: dict[str, Attribute] = {}
        if self.alignment is not None:
            extra["alignment"] = self.alignment
        printer.print_op_attributes({**extra, **self.attributes})


@irdl_op_definition
class CastOp(xmemref.CastOp):
    """`memref.cast %m : A to B` between compatible memref types."""

    name = "memref.cast"

    source = operand_def(base(MemRefType) | base(UnrankedMemRefType))
    dest = result_def(base(MemRefType) | base(UnrankedMemRefType))

    traits = traits_def(NoMemoryEffect(), _CastCanonicalization())

    def __init__(self, source: SSAValue | Operation, dest: Attribute):
        super(xmemref.CastOp, self).__init__(operands=[source], result_types=[dest])

    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"
    # xDSL takes Operation's own `parse`, by identity, to mean "parse with the
    # assembly format"; this undoes xmemref's override, which no type can say.
    parse = classmethod(Operation.parse.__func__)  # pyright: ignore[reportAssignmentType]
    print = Operation.print


@irdl_op_definition
class DimOp(xmemref.DimOp):
    """`memref.dim`, with the folds `canonicalize` needs for allocs, views and reshapes."""

    name = "memref.dim"

    source = operand_def(base(MemRefType) | base(UnrankedMemRefType))
    index = operand_def(IndexType)
    result = result_def(IndexType)

    traits = traits_def(NoMemoryEffect(), _DimCanonicalization())

    assembly_format = "$source `,` $index attr-dict `:` type($source)"
    # xDSL takes Operation's own `parse`, by identity, to mean "parse with the
    # assembly format"; this undoes xmemref's override, which no type can say.
    parse = classmethod(Operation.parse.__func__)  # pyright: ignore[reportAssignmentType]
    print = Operation.print


@irdl_op_definition
class ReallocOp(IRDLOperation):
    """`memref.realloc %src(%size) : A to B`: grow or shrink a 1-D buffer."""

    name = "memref.realloc"

    source = operand_def(MemRefType)
    dynamic_result_size = opt_operand_def(IndexType)
    alignment = opt_prop_def(Attribute)
    result = result_def(MemRefType)

    traits = traits_def(MemoryAllocEffect(), MemoryFreeEffect())
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        source: SSAValue | Operation,
        result_type: MemRefType[Attribute],
        dynamic_result_size: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[
                source,
                [] if dynamic_result_size is None else [dynamic_result_size],
            ],
            result_types=[result_type],
        )

    assembly_format = (
        "$source (`(` $dynamic_result_size^ `)`)? attr-dict "
        "`:` type($source) `to` type($result)"
    )


_REPLACED: dict[str, type[Operation]] = {
    op.name: op for op in (GlobalOp, CastOp, DimOp, ReallocOp)
}

MemRef = Dialect(
    "memref",
    [
        *(_REPLACED.get(op.name, op) for op in xmemref.MemRef.operations),
        *(
            op
            for name, op in _REPLACED.items()
            if name not in {o.name for o in xmemref.MemRef.operations}
        ),
    ],
    list(xmemref.MemRef.attributes),
)

__all__ = ["MemRef", "GlobalOp", "CastOp", "DimOp", "ReallocOp", "SymbolRefAttr"]
