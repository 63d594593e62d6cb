"""The rewrite patterns of `convert-onnx-to-hip`, one module per kind of op.

`patterns()` is the pass's pattern list, derived from the modules: every
concrete `OnnxPattern` subclass, and one `ConvertElementwise` per entry of
`compute.ELEMENTWISE`. A new pattern class is in the list by being written
(then `python -m xhip.transforms.onnx_to_hip.converter_index_gen` rewrites the
index of which modules convert which op).

The pass itself loads only the modules its ops need (`Converters`): the
generated `converter_index` says which modules hold a pattern that can match
each onnx op, and the list of the modules loaded so far, in `MODULE_NAMES`'
order, gives each op the same patterns in the same order as the whole list.
"""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType
from typing import Any, TypeGuard

from xhip.transforms.onnx_to_hip.converter_index import CONVERTERS
from xhip.transforms.onnx_to_hip.support import ConversionState, OnnxPattern

MODULE_NAMES = (
    "compute",
    "control_flow",
    "reshape",
    "constants",
    "reduce",
    "elementwise",
    "conv",
    "conv_transpose",
    "resize",
    "shapes",
    "gather",
    "slice",
    "einsum",
    "topk",
    "attention",
    "scatter",
    "pad",
    "quantize",
    "contrib",
    "nbits",
    "qlinear",
    "loss",
    "select",
    "rnn",
    "gqa",
    "bert",
    "composed",
    "sampling",
    "linalg",
    "linear_attention",
    "sequence",
    "ml",
    "ml_svm",
)
"""The pattern modules, in the order their patterns are tried."""

ELEMENTWISE_MODULE = "compute"
"""The module whose `ELEMENTWISE` table makes one pattern an entry, tried
after every module's pattern classes."""

_BUILT_OTHERWISE = ("ConvertElementwise", "ConvertConstant")
"""Made with more than the state: one per table entry, and with the policy."""


def module(name: str) -> ModuleType:
    """The pattern module `name` (of `MODULE_NAMES`), imported if it is not yet."""
    return importlib.import_module(f"{__name__}.{name}")


def _is_pattern_class(value: object) -> TypeGuard[type[OnnxPattern[Any]]]:
    # The MRO, not `issubclass`: for each class that is not one, the ABC's
    # check walks every pattern class (9 ms of every compile's start).
    return inspect.isclass(value) and OnnxPattern in value.__mro__


def module_pattern_classes(name: str) -> list[type[OnnxPattern[Any]]]:
    """The concrete pattern classes module `name` defines that take only the
    state, in the order it defines them."""
    mod = module(name)
    return [
        value
        for value in vars(mod).values()
        if _is_pattern_class(value)
        and value.__module__ == mod.__name__
        and not inspect.isabstract(value)
        and value.__name__ not in _BUILT_OTHERWISE
    ]


def elementwise_patterns(state: ConversionState) -> list[OnnxPattern[Any]]:
    """One `ConvertElementwise` per entry of `compute.ELEMENTWISE`."""
    compute = module(ELEMENTWISE_MODULE)
    return [
        compute.ConvertElementwise(state, onnx_type, hip_type)
        for onnx_type, hip_type in compute.ELEMENTWISE.items()
    ]


def pattern_classes() -> list[type[OnnxPattern[Any]]]:
    """The concrete pattern classes of every module that take only the state."""
    return [cls for name in MODULE_NAMES for cls in module_pattern_classes(name)]


def patterns(state: ConversionState) -> list[OnnxPattern[Any]]:
    """Every op pattern but `ConvertConstant`, which takes the constants policy
    (every module loaded)."""
    return [*(cls(state) for cls in pattern_classes()), *elementwise_patterns(state)]


class Converters:
    """The pattern list of the modules loaded so far, each module loaded when
    an op it converts is first met (`load_for`).

    For an op of a listed name, the index names every module with a pattern
    that can match it, so once those are loaded the list holds every pattern
    that can match the op, in the whole list's order (`patterns()`): a
    `TypedPatternApplier` over it gives the op the same patterns.
    """

    def __init__(self, state: ConversionState) -> None:
        self.state = state
        self.loaded: dict[str, list[OnnxPattern[Any]]] = {}
        self.elementwise: list[OnnxPattern[Any]] = []

    def load_for(self, op_name: str) -> bool:
        """Load the modules that convert ops named `op_name`; whether any was new."""
        new = [m for m in CONVERTERS.get(op_name, ()) if m not in self.loaded]
        for name in new:
            self.loaded[name] = [
                cls(self.state) for cls in module_pattern_classes(name)
            ]
            if name == ELEMENTWISE_MODULE:
                self.elementwise = elementwise_patterns(self.state)
        return bool(new)

    def patterns(self) -> list[OnnxPattern[Any]]:
        """The loaded modules' patterns, in the whole list's order."""
        return [
            *(p for name in MODULE_NAMES for p in self.loaded.get(name, ())),
            *self.elementwise,
        ]
