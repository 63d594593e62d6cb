"""xhip: an ONNX-to-HIP compiler on xDSL.

`xhip.compile(model, device="cpu")` is the one-call API (see `xhip.api`); it is
imported on first use, so `import xhip` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xhip.api import compile, compile_to_ir

__all__ = ["compile", "compile_to_ir"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from xhip import api  # lazy: `import xhip` stays light until the API is used

        return getattr(api, name)
    raise AttributeError(f"module 'xhip' has no attribute {name!r}")
