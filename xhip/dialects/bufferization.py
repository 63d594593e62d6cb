"""xDSL's `bufferization` dialect, extended with what the pipeline uses."""

from __future__ import annotations

from xdsl.dialects import bufferization as xbufferization
from xdsl.ir import Dialect, Operation

_EXTRA: tuple[type[Operation], ...] = ()

Bufferization = Dialect(
    "bufferization",
    [*xbufferization.Bufferization.operations, *_EXTRA],
    list(xbufferization.Bufferization.attributes),
)
