"""Frontends: real model files in, `onnx`-dialect IR out.

`xhip.frontend.xdsl_frontend.OnnxFrontend` is the same importer as `xdsl-opt`'s
`onnx` frontend (registered in `xhip.universe`).
"""

from xhip.frontend.onnx_importer import (
    OnnxImportError,
    import_model,
    load_model,
)

__all__ = ["OnnxImportError", "import_model", "load_model"]
