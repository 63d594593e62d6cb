"""A Context that knows every dialect and pass `xdsl-opt` knows with xhip installed."""

from __future__ import annotations

from functools import cache

# First: the xDSL op classes defined from here on compile their assembly
# formats when first used (`xhip.dialects.deferred_formats`).
import xhip.dialects.deferred_formats  # noqa: F401  # isort: skip
from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.universe import Universe

import xhip.universe  # noqa: F401  (swaps in the extended dialects)


@cache
def multiverse() -> Universe:
    """`Universe.get_multiverse()`, read once per process (each read looks
    through the entry points of every installed package)."""
    return Universe.get_multiverse()


def make_context(allow_unregistered: bool = False) -> Context:
    """The Context our tools and tests use: the same as plain `xdsl-opt`'s."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx


def parse_module(text: str, name: str = "<text>") -> ModuleOp:
    """Parse `text` with a fresh Context and forget earlier `dense_resource` keys.

    xDSL keeps resource keys in a process-wide store and renames a key it has
    seen before (`__elided__` becomes `__elided___0`), which would make two
    parses of the same text differ.
    """
    interface = Builtin.get_interface(OpAsmDialectInterface)
    if interface is not None:
        interface._blob_storage.clear()  # pyright: ignore[reportAttributeAccessIssue]
    return Parser(make_context(), text, name).parse_module()
