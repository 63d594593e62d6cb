"""Op classes compile their assembly format at first use
(`xhip.dialects.deferred_formats`, `docs/xdsl-upstream.md` issue 10): the
text printed and parsed must be xDSL's, every format of every dialect must
still compile, and a bad one must still fail."""

from __future__ import annotations

import subprocess
import sys
from io import StringIO

import pytest
from xdsl.dialects.builtin import IntegerType, i32
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    operations,
    result_def,
)
from xdsl.irdl.operations import IRDLOperation as _IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import PyRDLOpDefinitionError
from xdsl.utils.test_value import create_ssa_value

from tests.pytest.conftest import REPO
from xhip.context import make_context
from xhip.dialects import deferred_formats

FORMAT = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($out)"


def _op_class(name: str, assembly_format: str) -> type[IRDLOperation]:
    class _Op(IRDLOperation):
        lhs = operand_def(IntegerType)
        rhs = operand_def(IntegerType)
        out = result_def(IntegerType)

    _Op.name = name
    _Op.assembly_format = assembly_format
    return irdl_op_definition(_Op)


def _printed(op: IRDLOperation) -> str:
    stream = StringIO()
    Printer(stream=stream).print_op(op)
    return stream.getvalue()


def test_the_patch_is_in_place() -> None:
    assert operations.get_accessors_from_op_def is deferred_formats.deferred_accessors


def test_deferred_text_is_xdsls(monkeypatch: pytest.MonkeyPatch) -> None:
    deferred = _op_class("test.deferred", FORMAT)
    monkeypatch.setattr(
        operations, "get_accessors_from_op_def", deferred_formats.XDSL_GET_ACCESSORS
    )
    eager = _op_class("test.eager", FORMAT)
    monkeypatch.undo()
    values = [create_ssa_value(i32), create_ssa_value(i32)]
    ours = deferred.create(operands=values, result_types=[i32])
    theirs = eager.create(operands=values, result_types=[i32])
    text = _printed(ours)
    assert text == _printed(theirs).replace("test.eager", "test.deferred")
    assert text == "%0 = test.deferred %1, %2 : i32, i32 -> i32"

    ctx = make_context()
    ctx.load_op(deferred)
    source = '%a, %b = "test.op"() : () -> (i32, i32)\n%c = test.deferred %a, %b : i32, i32 -> i32'
    ctx.allow_unregistered = True
    parsed = Parser(ctx, source).parse_module()
    assert isinstance(parsed.body.block.last_op, deferred)


def test_a_bad_format_fails_at_its_first_use() -> None:
    bad = _op_class("test.bad", "$lhs `,` $nope attr-dict")
    op = bad.create(
        operands=[create_ssa_value(i32), create_ssa_value(i32)], result_types=[i32]
    )
    with pytest.raises(PyRDLOpDefinitionError, match="assembly format"):
        _printed(op)


def test_every_format_of_every_dialect_compiles() -> None:
    """What `irdl_op_definition` checked before: each format parses."""
    ctx = make_context()
    compiled = 0
    for name in list(ctx.registered_dialect_names):
        for op in ctx.get_dialect(name).operations:
            if not issubclass(op, _IRDLOperation):
                continue
            op_def = op.get_irdl_definition()
            if op_def.assembly_format is not None:
                deferred_formats.compile_format(op_def)
                compiled += 1
    assert compiled > 100


def test_a_compile_defers_the_formats() -> None:
    """`xhip.context` installs the patch before xDSL's dialects load."""
    code = (
        "import xhip.context\n"
        "from xdsl.dialects import arith\n"
        "print(arith.AddiOp.print.__qualname__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    ).stdout
    assert out.strip() == "deferred_accessors.<locals>.print_with_format"
