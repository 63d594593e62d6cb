"""Generators of the elementwise ops with their own patterns
(`onnx_to_hip/elementwise.py`): the variadic ones, Clip, Mod, Gelu, PRelu,
CastLike, BitShift, Shrink."""

from __future__ import annotations

import numpy as np

from xhip.testing.fuzz.graph import (
    MS,
    Generator,
    Graph,
    Value,
    broadcast_partner,
    contrib,
    to_float,
    to_integers,
)


def _variadic(op_type: str) -> Generator:
    def make(g: Graph) -> Value | None:
        x = g.pick()
        if x is None:
            return None
        inputs = [x.name]
        for _ in range(int(g.rng.integers(0, 3))):
            inputs.append(broadcast_partner(g, x)[0])
        return g.add(op_type, inputs, x.shape)

    return make


def _clip(g: Graph) -> Value | None:
    x = g.pick()
    if x is None:
        return None
    low = g.constant(np.array(g.rng.uniform(-1.0, 0.0), np.float32))
    high = g.constant(np.array(g.rng.uniform(0.0, 1.0), np.float32))
    # Both bounds: with one missing, ONNX Runtime clamps to the float range,
    # so an infinity becomes +-FLT_MAX where the spec keeps it (docs/fuzzing.md).
    return g.add("Clip", [x.name, low, high], x.shape)


def _mod(g: Graph) -> Value | None:
    x = g.pick()
    if x is None:
        return None
    other, shape = broadcast_partner(g, x)
    return g.add("Mod", [x.name, other], shape, fmod=1)


def _gelu(g: Graph) -> Value | None:
    x = g.pick()
    mode = str(g.rng.choice(["none", "tanh"]))
    return None if x is None else g.add("Gelu", [x.name], x.shape, approximate=mode)


def _ms_gelu(g: Graph) -> Value | None:
    """com.microsoft's Gelu (erf), ai.onnx's before opset 20."""
    x = g.pick()
    return None if x is None else contrib(g, "Gelu", [x.name], x.shape)


def _prelu(g: Graph) -> Value | None:
    x = g.pick()
    if x is None or not x.shape or not isinstance(x.shape[-1], int):
        return None
    slope = g.constant(g.rng.uniform(0.0, 0.5, x.shape[-1]).astype(np.float32))
    return g.add("PRelu", [x.name, slope], x.shape)


def _cast_like(g: Graph) -> Value | None:
    x = g.pick()
    if x is None:
        return None
    like = g.constant(np.zeros((), np.float32))
    return g.add("CastLike", [x.name, like], x.shape)


def _bit_shift(g: Graph) -> Value | None:
    """uint32 (BitShift-11, the graphs' opset, takes unsigned types) by a
    constant under 8: ONNX Runtime's shift by the width or more is C's,
    undefined."""
    x = g.pick()
    if x is None:
        return None
    last = x.shape[len(x.shape) - int(g.rng.integers(0, 2)) :]  # a scalar or per column
    static = [d if isinstance(d, int) else 1 for d in last]
    amount = g.constant(g.rng.integers(0, 8, static).astype(np.uint32))
    direction = str(g.rng.choice(["LEFT", "RIGHT"]))
    value = to_integers(g, x, unsigned=True)
    shifted = g.add("BitShift", [value.name, amount], x.shape, direction=direction)
    return to_float(g, shifted)


def _shrink(g: Graph) -> Value | None:
    x = g.pick()
    if x is None:
        return None
    lambd, bias = (float(np.float32(g.rng.uniform(0.0, 1.0))) for _ in range(2))
    return g.add("Shrink", [x.name], x.shape, lambd=lambd, bias=bias)


GENERATORS: dict[str, Generator] = {
    "Max": _variadic("Max"),
    "Min": _variadic("Min"),
    "Sum": _variadic("Sum"),
    "Mean": _variadic("Mean"),
    "Clip": _clip,
    "Mod": _mod,
    "Gelu": _gelu,
    f"{MS}.Gelu": _ms_gelu,
    "PRelu": _prelu,
    "CastLike": _cast_like,
    "BitShift": _bit_shift,
    "Shrink": _shrink,
}
