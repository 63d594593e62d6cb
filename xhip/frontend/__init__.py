"""Frontends: real model files in, `onnx`-dialect IR out."""

from xhip.frontend.onnx_importer import (
    OnnxImportError,
    import_model,
    load_model,
)

__all__ = ["OnnxImportError", "import_model", "load_model"]
