"""The `xdsl.universe` entry point: xhip's dialects and passes for `xdsl-opt`.

xDSL refuses a second dialect named `memref` or `bufferization`, so instead of
declaring new ones we swap the factories of xDSL's own universe for ones that
return the same dialects extended with what the seed needs (see
`docs/architecture.md`, "Extending xDSL's dialects"). The Multiverse loads every
plugin before it merges them, so plain `xdsl-opt` sees the extended dialects.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import XDSL_UNIVERSE, Universe


def _dialect(module: str, attr: str) -> Callable[[], Dialect]:
    def factory() -> Dialect:
        return getattr(importlib.import_module(module), attr)

    return factory


def _pass(name: str, module: str | None = None) -> Callable[[], type[ModulePass]]:
    """Import the pass lazily from `xhip.transforms.<name with underscores>`."""
    module = module or "xhip.transforms." + name.replace("-", "_")

    def factory() -> type[ModulePass]:
        mod = importlib.import_module(module)
        for value in vars(mod).values():
            if (
                isinstance(value, type)
                and issubclass(value, ModulePass)
                and getattr(value, "name", None) == name
            ):
                return value
        raise ImportError(f"{module} defines no pass named {name!r}")

    return factory


PASS_NAMES = (
    "hip-add-context-arg",
    "convert-onnx-to-hip",
    "one-shot-bufferize",
    "buffer-results-to-out-params",
    "expand-realloc",
    "ownership-based-buffer-deallocation",
    "buffer-deallocation-simplification",
    "bufferization-lower-deallocations",
    "buffer-deallocation-pipeline",
    "hip-optimize-memrefs",
    "hip-pool-allocs",
    "convert-bufferization-to-memref",
    "hip-lower-allocs",
    "hip-resolve-extern-constants",
)

XHIP_UNIVERSE = Universe(
    all_dialects={
        "hip": _dialect("xhip.dialects.hip", "HIP"),
        "onnx": _dialect("xhip.dialects.onnx", "ONNX"),
    },
    all_passes={
        **{name: _pass(name) for name in PASS_NAMES},
        "onnx-to-hip": _pass("onnx-to-hip", "xhip.pipeline"),
        "onnx-to-hip-pipeline": _pass("onnx-to-hip-pipeline", "xhip.pipeline"),
    },
)

XDSL_UNIVERSE.all_dialects["memref"] = _dialect("xhip.dialects.memref", "MemRef")
XDSL_UNIVERSE.all_dialects["bufferization"] = _dialect(
    "xhip.dialects.bufferization", "Bufferization"
)
