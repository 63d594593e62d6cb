"""The Einsum generator (`onnx_to_hip/einsum.py`)."""

from __future__ import annotations

import math

import numpy as np

from xhip.testing.fuzz.graph import Generator, Graph, Value


def _einsum(g: Graph) -> Value | None:
    """A projection of the last dim by a constant (`...ij,jk->...ik`), a
    swap of the last two dims or a sum over the last one."""
    x = g.pick()
    if x is None or not x.shape:
        return None
    last = x.shape[-1]
    kind = int(g.rng.integers(3))
    if kind == 0 and isinstance(last, int):
        k = int(g.rng.integers(1, 6))
        w = (g.rng.standard_normal((last, k)) / math.sqrt(last)).astype(np.float32)
        inputs = [x.name, g.constant(w, "w")]
        shape = (*x.shape[:-1], k)
        return g.add("Einsum", inputs, shape, equation="...j,jk->...k")
    if kind == 1 and len(x.shape) >= 2:
        shape = (*x.shape[:-2], x.shape[-1], x.shape[-2])
        return g.add("Einsum", [x.name], shape, equation="...ij->...ji")
    return g.add("Einsum", [x.name], x.shape[:-1], equation="...j->...")


GENERATORS: dict[str, Generator] = {"Einsum": _einsum}
