"""The `hip` dialect: GPU library calls in destination-passing style.

One module per op family, named as the conversion (`xhip/transforms/onnx_to_hip/`)
and the backend (`cpu_X.py`, `gpu_X.py`, `kernels/X.h`) name theirs; `base`
holds what they share. Each family module lists its ops (`OPS`) and
public names (`__all__`); this module puts the families in a written-down order
and derives the dialect's op list from theirs. A new op is declared, listed and
exported in its family's module only.
"""

from __future__ import annotations

from xdsl.ir import Dialect, Operation

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

FAMILIES = (
    matmul,
    elementwise,
    reduce,
    movement,
    gather,
    attention,
    topk,
    shapes,
    image,
    scatter,
    base,
    conv,
    window,
    resize,
    quantize,
    fused,
    select,
    nbits,
    guard,
    sampling,
    gqa,
    linalg,
    linear_attention,
)
"""The families in the order the dialect lists them: the elementwise ops'
order inside `elementwise` numbers the kernels' op codes."""

OPS: tuple[type[Operation], ...] = tuple(op for family in FAMILIES for op in family.OPS)
"""Every op of the dialect, family by family."""

COMPUTE_OPS: tuple[type[HipDPSOp], ...] = tuple(  # noqa: F405
    op
    for op in OPS
    if issubclass(op, HipDPSOp)  # noqa: F405
)
"""Every compute op, derived from the list above."""

ELEMENTWISE_OPS: tuple[type[ElementwiseOp], ...] = tuple(  # noqa: F405
    op
    for op in COMPUTE_OPS
    if issubclass(op, ElementwiseOp)  # noqa: F405
)
"""The ops a `formula` defines; the backend's kernels number them in this order."""

HIP = Dialect("hip", list(OPS), [ContextType])  # noqa: F405

__all__ = ["COMPUTE_OPS", "ELEMENTWISE_OPS", "FAMILIES", "HIP", "OPS"]
__all__ += attention.__all__
__all__ += base.__all__
__all__ += conv.__all__
__all__ += elementwise.__all__
__all__ += fused.__all__
__all__ += gather.__all__
__all__ += linalg.__all__
__all__ += linear_attention.__all__
__all__ += gqa.__all__
__all__ += guard.__all__
__all__ += image.__all__
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
