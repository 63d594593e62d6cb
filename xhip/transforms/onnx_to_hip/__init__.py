"""The rewrite patterns of `convert-onnx-to-hip`, one module per kind of op.

`patterns()` is the pass's pattern list, derived from the modules: every
concrete `OnnxPattern` subclass, and one `ConvertElementwise` per entry of
`compute.ELEMENTWISE`. A new pattern class is in the list by being written.
"""

from __future__ import annotations

import inspect
from typing import Any, TypeGuard

from xhip.transforms.onnx_to_hip import (
    attention,
    bert,
    composed,
    compute,
    constants,
    contrib,
    control_flow,
    conv,
    conv_transpose,
    einsum,
    elementwise,
    gather,
    gqa,
    linalg,
    linear_attention,
    loss,
    ml,
    ml_svm,
    nbits,
    pad,
    qlinear,
    quantize,
    reduce,
    reshape,
    resize,
    rnn,
    sampling,
    scatter,
    select,
    sequence,
    shapes,
    slice,
    topk,
)
from xhip.transforms.onnx_to_hip.support import ConversionState, OnnxPattern

MODULES = (
    compute,
    control_flow,
    reshape,
    constants,
    reduce,
    elementwise,
    conv,
    conv_transpose,
    resize,
    shapes,
    gather,
    slice,
    einsum,
    topk,
    attention,
    scatter,
    pad,
    quantize,
    contrib,
    nbits,
    qlinear,
    loss,
    select,
    rnn,
    gqa,
    bert,
    composed,
    sampling,
    linalg,
    linear_attention,
    sequence,
    ml,
    ml_svm,
)

_BUILT_OTHERWISE = (compute.ConvertElementwise, constants.ConvertConstant)
"""Made with more than the state: one per table entry, and with the policy."""


def _is_pattern_class(value: object) -> TypeGuard[type[OnnxPattern[Any]]]:
    # The MRO, not `issubclass`: for each class that is not one, the ABC's
    # check walks every pattern class (9 ms of every compile's start).
    return inspect.isclass(value) and OnnxPattern in value.__mro__


def pattern_classes() -> list[type[OnnxPattern[Any]]]:
    """The concrete pattern classes of `MODULES` that take only the state."""
    return [
        value
        for module in MODULES
        for value in vars(module).values()
        if _is_pattern_class(value)
        and value.__module__ == module.__name__
        and not inspect.isabstract(value)
        and value not in _BUILT_OTHERWISE
    ]


def patterns(state: ConversionState) -> list[OnnxPattern[Any]]:
    """Every op pattern but `ConvertConstant`, which takes the constants policy."""
    return [
        *(cls(state) for cls in pattern_classes()),
        *(
            compute.ConvertElementwise(state, onnx_type, hip_type)
            for onnx_type, hip_type in compute.ELEMENTWISE.items()
        ),
    ]
