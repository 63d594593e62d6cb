"""The printed text of the tensor and memref types hip compute ops print,
kept: the final IR prints some 3 types per compute op, each some 15 printer
calls, and a model has few distinct ones."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import MemRefType, NoneAttr, StridedLayoutAttr, TensorType
from xdsl.ir import Attribute
from xdsl.printer import Printer

_TYPE_TEXT: dict[Attribute, str] = {}
"""The printed text of each tensor or memref type a compute op has printed.

The final IR prints some 3 types per compute op, each some 15 printer calls
(`memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>`), and a model has few
distinct ones: one dict lookup each instead."""

_TYPE_TEXT_LIMIT = 4096
"""At most this many kept: a long-lived process printing many models."""


_TYPE_TEXT_BY_ID: dict[int, tuple[Attribute, str | None]] = {}
"""`_type_text` by the type object's `id`, the object kept (so the `id` stays
its own): a model's values share a few type objects, and a `dict` keyed by
the type hashes each of its parameters in Python."""


def _type_text(type_: Attribute) -> str | None:
    entry = _TYPE_TEXT_BY_ID.get(id(type_))
    if entry is not None and entry[0] is type_:
        return entry[1]
    text = _type_text_of(type_)
    if len(_TYPE_TEXT_BY_ID) >= _TYPE_TEXT_LIMIT:
        _TYPE_TEXT_BY_ID.clear()
    _TYPE_TEXT_BY_ID[id(type_)] = (type_, text)
    return text


def _type_text_of(type_: Attribute) -> str | None:
    """`type_` as `Printer.print_attribute` prints it, for a tensor type
    without an encoding or a memref type with no layout but a strided one and
    no memory space (equal types of those print alike); None for any other."""
    text = _TYPE_TEXT.get(type_)
    if text is not None:
        return text
    if type(type_) is MemRefType:
        if not isinstance(type_.layout, NoneAttr | StridedLayoutAttr) or not (
            isinstance(type_.memory_space, NoneAttr)
        ):
            return None
    elif type(type_) is not TensorType or not isinstance(type_.encoding, NoneAttr):
        return None
    stream = io.StringIO()
    Printer(stream=stream).print_attribute(type_)
    text = stream.getvalue()
    if "\n" in text:
        return None
    if len(_TYPE_TEXT) >= _TYPE_TEXT_LIMIT:
        _TYPE_TEXT.clear()
    _TYPE_TEXT[type_] = text
    return text


def print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """`printer.print_list(types, printer.print_attribute)`, the same text,
    with each plain tensor or memref type's text kept (`_type_text`)."""
    texts = [_type_text(t) for t in types]
    if None in texts:
        printer.print_list(types, printer.print_attribute)
    else:
        printer.print_string(", ".join(cast(list[str], texts)))
