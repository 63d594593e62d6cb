"""xDSL's printer, patched; `xhip.universe` installs it with the other patches
(`xhip.transforms.xdsl_patches`).

`fast_printing()`: every piece of text the printer writes (some 25,000 for
1,400 ops) goes through `print_string`, `print_content` (which counts the
newlines in it) and `_write`: three Python calls for a `", "`. Text without a
newline, from a printer that writes text as is, is now written in one; a value
already named is looked up once instead of twice.

Neither changes the text. The text for upstream is in `docs/xdsl-upstream.md`.
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import SSAValue
from xdsl.printer import Printer
from xdsl.utils.base_printer import BasePrinter
from xdsl.utils.identity import identity

XDSL_PRINT_STRING: Any = vars(BasePrinter)["print_string"]
"""xDSL's `BasePrinter.print_string`: the tests' reference."""

XDSL_PRINT_SSA_VALUE: Any = vars(Printer)["print_ssa_value"]
"""xDSL's `Printer.print_ssa_value`: the tests' reference."""

_BASE_WRITE: Any = vars(BasePrinter)["_write"]


def _print_string(self: Printer, text: str, *, indent: int | None = None) -> None:
    """xDSL's `print_string`; text without a newline is written directly
    (what `print_content` does with it), unless the printer encodes its text
    or writes it its own way."""
    # the private fields are xDSL's own method's
    if "\n" in text or self._encode is not identity:  # pyright: ignore[reportPrivateUsage]
        XDSL_PRINT_STRING(self, text, indent=indent)
        return
    self._current_column += len(text)  # pyright: ignore[reportPrivateUsage]
    if type(self)._write is _BASE_WRITE:  # pyright: ignore[reportPrivateUsage]
        self.stream.write(text)
    else:
        self._write(text)  # pyright: ignore[reportPrivateUsage]


def _print_ssa_value(self: Printer, value: SSAValue) -> str:
    """xDSL's `print_ssa_value`, with one lookup for a value already named."""
    name = self._ssa_values.get(value)  # pyright: ignore[reportPrivateUsage]
    if name is None:
        return XDSL_PRINT_SSA_VALUE(self, value)
    self.print_string(f"%{name}")
    return name


def fast_printing() -> None:
    """Give xDSL's `Printer` the shorter `print_string` and `print_ssa_value`.
    Calling it again changes nothing."""
    print_string: Any = _print_string
    Printer.print_string = print_string
    print_ssa_value: Any = _print_ssa_value
    Printer.print_ssa_value = print_ssa_value
