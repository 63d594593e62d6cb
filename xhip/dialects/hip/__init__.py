"""The `hip` dialect: GPU library calls in destination-passing style.

One module per op family, named as the conversion (`xhip/transforms/onnx_to_hip/`)
and the backend (`cpu_X.py`, `gpu_X.py`, `kernels/X.h`) name theirs; `base`
holds what they share. Each family module lists its ops (`OPS`) and
public names (`__all__`); this module puts the families in a written-down order
and derives the dialect's op list from theirs. A new op is declared, listed and
exported in its family's module only (then `python -m
xhip.dialects.family_index_gen` rewrites the index of names).

No family loads with this package: the first read of a name loads the family
that defines it, and the tables below load them all (`xhip.dialects.families`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from xdsl.ir import Dialect, Operation

from xhip.dialects import family_index
from xhip.dialects.families import LazyFamilies

if TYPE_CHECKING:
    from types import ModuleType

    from xhip.dialects.hip import (
        attention,
        base,
        conv,
        elementwise,
        fused,
        gather,
        gqa,
        guard,
        image,
        linalg,
        linear_attention,
        matmul,
        movement,
        nbits,
        quantize,
        reduce,
        resize,
        sampling,
        scatter,
        select,
        shapes,
        topk,
        window,
    )
    from xhip.dialects.hip.attention import *  # noqa: F403
    from xhip.dialects.hip.base import *  # noqa: F403
    from xhip.dialects.hip.conv import *  # noqa: F403
    from xhip.dialects.hip.elementwise import *  # noqa: F403
    from xhip.dialects.hip.fused import *  # noqa: F403
    from xhip.dialects.hip.gather import *  # noqa: F403
    from xhip.dialects.hip.gqa import *  # noqa: F403
    from xhip.dialects.hip.guard import *  # noqa: F403
    from xhip.dialects.hip.image import *  # noqa: F403
    from xhip.dialects.hip.linalg import *  # noqa: F403
    from xhip.dialects.hip.linear_attention import *  # noqa: F403
    from xhip.dialects.hip.matmul import *  # noqa: F403
    from xhip.dialects.hip.movement import *  # noqa: F403
    from xhip.dialects.hip.nbits import *  # noqa: F403
    from xhip.dialects.hip.quantize import *  # noqa: F403
    from xhip.dialects.hip.reduce import *  # noqa: F403
    from xhip.dialects.hip.resize import *  # noqa: F403
    from xhip.dialects.hip.sampling import *  # noqa: F403
    from xhip.dialects.hip.scatter import *  # noqa: F403
    from xhip.dialects.hip.select import *  # noqa: F403
    from xhip.dialects.hip.shapes import *  # noqa: F403
    from xhip.dialects.hip.topk import *  # noqa: F403
    from xhip.dialects.hip.window import *  # noqa: F403

    FAMILIES: tuple[ModuleType, ...]
    OPS: tuple[type[Operation], ...]
    COMPUTE_OPS: tuple[type[HipDPSOp], ...]  # noqa: F405
    ELEMENTWISE_OPS: tuple[type[ElementwiseOp], ...]  # noqa: F405
    HIP: Dialect

FAMILY_NAMES = (
    "matmul",
    "elementwise",
    "reduce",
    "movement",
    "gather",
    "attention",
    "topk",
    "shapes",
    "image",
    "scatter",
    "base",
    "conv",
    "window",
    "resize",
    "quantize",
    "fused",
    "select",
    "nbits",
    "guard",
    "sampling",
    "gqa",
    "linalg",
    "linear_attention",
)
"""The families in the order the dialect lists them: the elementwise ops'
order inside `elementwise` numbers the kernels' op codes."""


def _families() -> tuple[ModuleType, ...]:
    """`FAMILIES`: every family module, in `FAMILY_NAMES`' order."""
    return _lazy.all_families()


def _ops() -> tuple[type[Operation], ...]:
    """`OPS`: every op of the dialect, family by family."""
    return tuple(op for family in _families() for op in family.OPS)


def _compute_ops() -> tuple[type[HipDPSOp], ...]:  # noqa: F405
    """`COMPUTE_OPS`: every compute op, derived from `OPS`."""
    base = _lazy.family("base")
    ops = tuple(op for op in _ops() if base.HipDPSOp in op.__mro__)
    return cast("tuple[type[HipDPSOp], ...]", ops)  # noqa: F405


def _elementwise_ops() -> tuple[type[ElementwiseOp], ...]:  # noqa: F405
    """`ELEMENTWISE_OPS`: the ops a `formula` defines; the backend's kernels
    number them in this order."""
    base = _lazy.family("base")
    ops = tuple(op for op in _compute_ops() if base.ElementwiseOp in op.__mro__)
    return cast("tuple[type[ElementwiseOp], ...]", ops)  # noqa: F405


def _dialect() -> Dialect:
    """`HIP`, the `Dialect` of every op."""
    return Dialect("hip", list(_ops()), [_lazy.family("base").ContextType])


_lazy = LazyFamilies(
    __name__,
    globals(),
    FAMILY_NAMES,
    family_index.HIP_NAMES,
    {
        "FAMILIES": _families,
        "OPS": _ops,
        "COMPUTE_OPS": _compute_ops,
        "ELEMENTWISE_OPS": _elementwise_ops,
        "HIP": _dialect,
    },
)


def __getattr__(name: str) -> object:
    return _lazy.get(name)


if TYPE_CHECKING:
    __all__ = [
        "COMPUTE_OPS",
        "ELEMENTWISE_OPS",
        "FAMILIES",
        "FAMILY_NAMES",
        "HIP",
        "OPS",
    ]
    __all__ += attention.__all__
    __all__ += base.__all__
    __all__ += conv.__all__
    __all__ += elementwise.__all__
    __all__ += fused.__all__
    __all__ += gather.__all__
    __all__ += gqa.__all__
    __all__ += guard.__all__
    __all__ += image.__all__
    __all__ += linalg.__all__
    __all__ += linear_attention.__all__
    __all__ += matmul.__all__
    __all__ += movement.__all__
    __all__ += nbits.__all__
    __all__ += quantize.__all__
    __all__ += reduce.__all__
    __all__ += resize.__all__
    __all__ += sampling.__all__
    __all__ += scatter.__all__
    __all__ += select.__all__
    __all__ += shapes.__all__
    __all__ += topk.__all__
    __all__ += window.__all__
else:
    __all__ = [
        "COMPUTE_OPS",
        "ELEMENTWISE_OPS",
        "FAMILIES",
        "FAMILY_NAMES",
        "HIP",
        "OPS",
        *(name for names in family_index.HIP_NAMES.values() for name in names),
    ]
