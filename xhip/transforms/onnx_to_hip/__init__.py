"""The rewrite patterns of `convert-onnx-to-hip`, one module per kind of op."""
