"""The `xdsl.universe` entry point: xhip's dialects, passes and the `onnx`
frontend for `xdsl-opt`.

xDSL refuses a second dialect named `memref` or `bufferization`, so instead of
declaring new ones `extend_xdsl_dialects()` (called when this module is
imported) swaps the factories of xDSL's own universe for ones that return the
same dialects extended with what the seed needs (see `docs/architecture.md`,
"Extending xDSL's dialects"). The Multiverse loads every plugin before it merges
them, so plain `xdsl-opt` sees the extended dialects. Likewise
`patch_xdsl_passes()` makes looking up a pass apply the speed patches of
`xhip.transforms.xdsl_patches` to xDSL (`docs/xdsl-upstream.md`), and
importing it fixes xDSL's parser of hexadecimal float elements
(`xhip.xdsl_fixes`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import XDSL_UNIVERSE, Universe
from xdsl.utils.frontend import Frontend

from xhip.xdsl_fixes import fix_dense_hex_floats

fix_dense_hex_floats()


def _dialect(module: str, attr: str) -> Callable[[], Dialect]:
    def factory() -> Dialect:
        return getattr(importlib.import_module(module), attr)

    return factory


def _patch_xdsl_passes() -> None:
    # lazy: xDSL's pass modules load when a pass is looked up, not with the plugin
    from xhip.transforms.xdsl_patches import (
        cache_canonicalization_patterns,
        cache_cse_effects,
        cache_dead_code_checks,
        cache_op_traits,
        cache_segment_sizes,
        scope_cse_known_ops,
    )
    from xhip.transforms.xdsl_patches_building import cache_op_building
    from xhip.transforms.xdsl_patches_cse import simplify_cse_operations
    from xhip.transforms.xdsl_patches_printing import fast_printing
    from xhip.transforms.xdsl_patches_verify import fast_op_verify
    from xhip.transforms.xdsl_patches_visits import plan_walker_visits

    scope_cse_known_ops()
    cache_segment_sizes()
    cache_op_traits()
    cache_dead_code_checks()
    cache_canonicalization_patterns()
    cache_op_building()
    cache_cse_effects()
    plan_walker_visits()
    simplify_cse_operations()
    fast_printing()
    fast_op_verify()


def _pass(name: str, module: str | None = None) -> Callable[[], type[ModulePass]]:
    """Import the pass lazily from `xhip.transforms.<name with underscores>`."""
    module = module or "xhip.transforms." + name.replace("-", "_")

    def factory() -> type[ModulePass]:
        _patch_xdsl_passes()
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
    "hip-plan-memory",
    "convert-bufferization-to-memref",
    "hip-lower-allocs",
    "hip-resolve-extern-constants",
    "hip-fuse-scaled-softmax",
    "hip-fuse-elementwise",
    "hip-fuse-conv-relu",
    "hip-fuse-attention",
    "hip-fold-attention-layouts",
    "hip-fold-attention-bias",
    "onnx-fold-shapes",
    "hip-guard-assumptions",
)


def _onnx_frontend() -> type[Frontend]:
    # lazy: onnx loads only when xdsl-opt reads a model, not with every plugin
    from xhip.frontend.xdsl_frontend import OnnxFrontend

    return OnnxFrontend


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
    all_frontends={"onnx": _onnx_frontend},
)
"""Found by xDSL through the `xdsl.universe` entry point in pyproject.toml."""

EXTENDED_XDSL_DIALECTS = {
    "memref": _dialect("xhip.dialects.memref", "MemRef"),
    "bufferization": _dialect("xhip.dialects.bufferization", "Bufferization"),
}
"""xDSL's dialects that xhip replaces by subclasses with more ops and syntax."""


def extend_xdsl_dialects() -> None:
    """Make every Context built from the Multiverse use our `memref` and
    `bufferization` (the one patch of xDSL's dialects).

    A plugin may not declare a dialect xDSL has (`Universe.get_multiverse()`
    raises "Duplicate definition"), and xDSL 0.75 has no way to extend or
    override one. So this replaces the factories in xDSL's own `XDSL_UNIVERSE`
    object, the one place `xdsl-opt` and `make_context()` look dialects up. It
    runs when this module is imported, which the Multiverse does (it loads every
    plugin) before it reads any factory. Calling it again changes nothing.
    """
    XDSL_UNIVERSE.all_dialects.update(EXTENDED_XDSL_DIALECTS)


extend_xdsl_dialects()


XDSL_PATCHED_PASSES = ("cse", "canonicalize")
"""xDSL's passes that `xhip.transforms.xdsl_patches` speeds up (our own passes
apply the patches when they load, for the `cse` and `canonicalize` they run
inside)."""


def patch_xdsl_passes() -> None:
    """Make looking up one of `XDSL_PATCHED_PASSES` apply
    `xhip.transforms.xdsl_patches` first (xhip's one patch of xDSL's passes:
    speed only, no output changes).

    Like `extend_xdsl_dialects()`, this wraps factories in xDSL's own
    `XDSL_UNIVERSE`; the patches load only when a pass is looked up. Calling
    it again changes nothing.
    """
    for name in XDSL_PATCHED_PASSES:
        factory = XDSL_UNIVERSE.all_passes[name]
        if getattr(factory, "patched", False):
            continue

        def patched(
            factory: Callable[[], type[ModulePass]] = factory,
        ) -> type[ModulePass]:
            _patch_xdsl_passes()
            return factory()

        patched.__dict__["patched"] = True
        XDSL_UNIVERSE.all_passes[name] = patched


patch_xdsl_passes()


if "xdsl.xdsl_opt_main" in sys.modules:
    # Lazy: only inside `xdsl-opt`, which reads `-p` before it imports any pass
    # module; importing `composite` teaches it unquoted pass-option values.
    import xhip.transforms.composite  # noqa: F401
