"""IRDL op classes that parse their `assembly_format` when first printed or
parsed, not when defined (`docs/xdsl-upstream.md`, issue 10).

xDSL 0.75's `irdl_op_definition` compiles every op's declarative format as the
class is made: some 90 formats, 20 ms of every compile's start-up, for the
handful of ops a compile prints. `defer_assembly_formats()` (run when this
module is imported, which `xhip.context` does before any xDSL dialect loads)
wraps `get_accessors_from_op_def`: the class gets `parse` and `print` that
compile the same `FormatProgram` at their first call and keep it. Op classes
defined before it ran keep xDSL's accessors; either way the text is the same.
A format that does not parse then fails at its first use rather than at the
class's definition (`tests/pytest/dialects/test_deferred_formats.py` compiles
every format of every dialect the Context knows).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xdsl.irdl import operations
from xdsl.utils.exceptions import ParseError, PyRDLOpDefinitionError

if TYPE_CHECKING:
    from xdsl.irdl.declarative_assembly_format import FormatProgram
    from xdsl.irdl.operations import IRDLOperation, OpDef
    from xdsl.parser import Parser
    from xdsl.printer import Printer

XDSL_GET_ACCESSORS: Callable[[OpDef, Any], dict[str, Any]] = (
    operations.get_accessors_from_op_def
)
"""xDSL's own, which compiles the format at once: the tests' reference."""


def compile_format(op_def: OpDef) -> FormatProgram:
    """`op_def`'s assembly format compiled, as `irdl_op_definition` does."""
    # lazy: the format parser, at the first op printed or parsed with a format
    from xdsl.irdl.declarative_assembly_format import FormatProgram

    assert op_def.assembly_format is not None
    try:
        return FormatProgram.from_str(op_def.assembly_format, op_def)
    except ParseError as e:
        raise PyRDLOpDefinitionError(
            "Error during the parsing of the assembly format: ", e.args
        ) from e


def deferred_accessors(op_def: OpDef, custom_verify: Any | None) -> dict[str, Any]:
    """`get_accessors_from_op_def`, with `parse` and `print` that compile the
    format at their first call."""
    text = op_def.assembly_format
    if text is None:
        return XDSL_GET_ACCESSORS(op_def, custom_verify)
    op_def.assembly_format = None
    try:
        new_attrs = XDSL_GET_ACCESSORS(op_def, custom_verify)
    finally:
        op_def.assembly_format = text
    compiled: list[FormatProgram] = []

    def program() -> FormatProgram:
        if not compiled:
            compiled.append(compile_format(op_def))
        return compiled[0]

    def parse_with_format(cls: type[IRDLOperation], parser: Parser) -> IRDLOperation:
        return program().parse(parser, cls)

    def print_with_format(self: IRDLOperation, printer: Printer) -> None:
        program().print(printer, self)

    new_attrs["parse"] = classmethod(parse_with_format)
    new_attrs["print"] = print_with_format
    return new_attrs


def defer_assembly_formats() -> None:
    """Make op classes defined from now on compile their formats at first use.
    Calling it again changes nothing."""
    operations.get_accessors_from_op_def = deferred_accessors


defer_assembly_formats()
