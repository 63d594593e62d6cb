"""The onnx dialect's package: its written-out op list holds every op its
family modules declare, once, and re-exports them all."""

from __future__ import annotations

import importlib
import pkgutil

from xdsl.irdl import IRDLOperation

from xhip.dialects import onnx


def _declared_ops() -> dict[str, type[IRDLOperation]]:
    """Every op class the package's modules define, by class name."""
    ops: dict[str, type[IRDLOperation]] = {}
    for info in pkgutil.iter_modules(onnx.__path__):
        module = importlib.import_module(f"{onnx.__name__}.{info.name}")
        for name, value in vars(module).items():
            if (
                isinstance(value, type)
                and issubclass(value, onnx.OnnxOp)
                and value.__module__ == module.__name__
                and "name" in vars(value)
            ):
                ops[name] = value
    return ops


def test_the_dialect_lists_every_declared_op_once() -> None:
    listed = list(onnx.ONNX.operations)
    assert len(listed) == len(set(listed))
    assert set(listed) == set(_declared_ops().values())


def test_the_package_exports_every_op() -> None:
    for name, op in _declared_ops().items():
        assert getattr(onnx, name) is op
        assert name in onnx.__all__
