"""The printer's short `print_string` and `print_ssa_value`
(`xhip.transforms.xdsl_patches_printing`) print what xDSL's print: every stage
of `onnx-to-hip`, text with newlines, and a printer that writes its own way."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from xdsl.ir import Operation
from xdsl.printer import Printer

from xhip.context import make_context
from xhip.pipeline import onnx_to_hip_passes
from xhip.testing import parse_module
from xhip.transforms import xdsl_patches_printing as printing

from .test_compile_complexity import attention_layers


@pytest.fixture
def xdsl_printer(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """xDSL's own methods for the rest of the test."""
    monkeypatch.setattr(Printer, "print_string", printing.XDSL_PRINT_STRING)
    monkeypatch.setattr(Printer, "print_ssa_value", printing.XDSL_PRINT_SSA_VALUE)
    yield


def _printed(op: Operation, printer_type: type[Printer] = Printer) -> tuple[str, int]:
    stream = io.StringIO()
    printer = printer_type(stream)
    printer.print_op(op)
    printer.print_string("\n  tail\nend", indent=1)
    printer.print_string("x\ny", indent=0)
    return stream.getvalue(), printer._current_column  # pyright: ignore[reportPrivateUsage]


def _stage_texts(tmp_dir: str) -> list[tuple[str, int]]:
    ctx = make_context()
    module = parse_module(attention_layers(2))
    texts = [_printed(module)]
    for p in onnx_to_hip_passes(externalize_output_dir=tmp_dir):
        p.apply(ctx, module)
        texts.append(_printed(module))
    return texts


@pytest.fixture(scope="module")
def patched_texts(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, int]]:
    printing.fast_printing()
    return _stage_texts(str(tmp_path_factory.mktemp("patched")))


def test_stages_print_as_xdsl(
    patched_texts: list[tuple[str, int]], tmp_path: str, xdsl_printer: None
) -> None:
    """Every stage prints the same text, and the printer ends at the same
    column, with xDSL's methods and with the short ones."""
    assert Printer.print_string is printing.XDSL_PRINT_STRING
    assert _stage_texts(str(tmp_path)) == patched_texts


class _Recording(Printer):
    """A printer that writes through its own `_write`."""

    def __init__(self, stream: io.StringIO) -> None:
        super().__init__(stream=stream)
        self.pieces: list[str] = []

    def _write(self, content: str) -> None:
        self.pieces.append(content)
        self.stream.write(content)


def test_own_write_is_called() -> None:
    """A printer whose class writes its own way still gets every piece."""
    printing.fast_printing()
    module = parse_module(attention_layers(1))
    stream = io.StringIO()
    printer = _Recording(stream)
    printer.print_op(module)
    assert "".join(printer.pieces) == stream.getvalue()
    assert "onnx.Constant" in stream.getvalue()


def test_value_names_as_xdsl(xdsl_printer: None) -> None:
    """A value printed twice, with and without a name hint, gets xDSL's names
    (the first print names it, the second looks it up)."""
    module = parse_module(attention_layers(1))
    values = [r for op in module.walk() for r in op.results]
    values[1].name_hint = None

    def names(fn: object) -> list[str]:
        printer = Printer(io.StringIO())
        Printer.print_ssa_value = fn  # pyright: ignore[reportAttributeAccessIssue]
        out = [printer.print_ssa_value(v) for v in values + values[::-1]]
        return [*out, printer.stream.getvalue()]  # pyright: ignore[reportAttributeAccessIssue]

    assert names(printing._print_ssa_value) == names(printing.XDSL_PRINT_SSA_VALUE)  # pyright: ignore[reportPrivateUsage]
