"""A Context that knows every dialect and pass `xdsl-opt` knows with xhip installed."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.universe import Universe


def make_context(allow_unregistered: bool = False) -> Context:
    """The Context our tools and tests use: the same as plain `xdsl-opt`'s."""
    import xhip.universe  # noqa: F401  (swaps in the extended dialects)

    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx
