"""The `onnx` dialect, as onnx-mlir prints it (generic syntax).

Op-specific attributes are properties with the ONNX operator spec's names and
types (`axis = -1 : si64`, `perm = [0, 2, 1]`); `onnx_node_name` is a
discardable attribute; `onnx.Constant` keeps its `value` as an attribute, as
onnx-mlir prints it. Defaults are filled in by the importer, so an absent
property means "the spec's default", which the op's `DEFAULTS` say.

One module per family of ops, named like the `onnx_to_hip` module that
converts it; `base` holds what they share. Each family module lists its ops
(`OPS`) and public names (`__all__`); this module puts the families in a
written-down order and derives the dialect's op list from theirs, so a new op is
declared, listed and exported in its family's module only (then `python -m
xhip.dialects.family_index_gen` rewrites the index of names).

No family loads with this package: the first read of a name loads the family
that defines it, and the tables below load them all (`xhip.dialects.families`);
the importer finds a node's op class through the index, loading only the
families a model uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from xdsl.ir import Dialect, Operation

from xhip.dialects import family_index
from xhip.dialects.families import LazyFamilies

if TYPE_CHECKING:
    from types import ModuleType

    from xhip.dialects.onnx import (
        attention,
        base,
        bert,
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
        signal,
        slice,
        topk,
    )
    from xhip.dialects.onnx.attention import *  # noqa: F403
    from xhip.dialects.onnx.base import *  # noqa: F403
    from xhip.dialects.onnx.bert import *  # noqa: F403
    from xhip.dialects.onnx.compute import *  # noqa: F403
    from xhip.dialects.onnx.constants import *  # noqa: F403
    from xhip.dialects.onnx.contrib import *  # noqa: F403
    from xhip.dialects.onnx.control_flow import *  # noqa: F403
    from xhip.dialects.onnx.conv import *  # noqa: F403
    from xhip.dialects.onnx.conv_transpose import *  # noqa: F403
    from xhip.dialects.onnx.einsum import *  # noqa: F403
    from xhip.dialects.onnx.elementwise import *  # noqa: F403
    from xhip.dialects.onnx.gather import *  # noqa: F403
    from xhip.dialects.onnx.gqa import *  # noqa: F403
    from xhip.dialects.onnx.linalg import *  # noqa: F403
    from xhip.dialects.onnx.linear_attention import *  # noqa: F403
    from xhip.dialects.onnx.loss import *  # noqa: F403
    from xhip.dialects.onnx.ml import *  # noqa: F403
    from xhip.dialects.onnx.nbits import *  # noqa: F403
    from xhip.dialects.onnx.pad import *  # noqa: F403
    from xhip.dialects.onnx.qlinear import *  # noqa: F403
    from xhip.dialects.onnx.quantize import *  # noqa: F403
    from xhip.dialects.onnx.reduce import *  # noqa: F403
    from xhip.dialects.onnx.reshape import *  # noqa: F403
    from xhip.dialects.onnx.resize import *  # noqa: F403
    from xhip.dialects.onnx.rnn import *  # noqa: F403
    from xhip.dialects.onnx.sampling import *  # noqa: F403
    from xhip.dialects.onnx.scatter import *  # noqa: F403
    from xhip.dialects.onnx.select import *  # noqa: F403
    from xhip.dialects.onnx.sequence import *  # noqa: F403
    from xhip.dialects.onnx.shapes import *  # noqa: F403
    from xhip.dialects.onnx.signal import *  # noqa: F403
    from xhip.dialects.onnx.slice import *  # noqa: F403
    from xhip.dialects.onnx.topk import *  # noqa: F403

    FAMILIES: tuple[ModuleType, ...]
    OPS: tuple[type[Operation], ...]
    ONNX: Dialect

FAMILY_NAMES = (
    "constants",
    "base",
    "compute",
    "elementwise",
    "einsum",
    "reshape",
    "gather",
    "slice",
    "shapes",
    "reduce",
    "topk",
    "select",
    "pad",
    "attention",
    "conv",
    "conv_transpose",
    "resize",
    "scatter",
    "quantize",
    "contrib",
    "nbits",
    "qlinear",
    "gqa",
    "bert",
    "loss",
    "sampling",
    "rnn",
    "signal",
    "control_flow",
    "linalg",
    "linear_attention",
    "sequence",
    "ml",
)
"""The families in the order the dialect lists them."""


def _families() -> tuple[ModuleType, ...]:
    """`FAMILIES`: every family module, in `FAMILY_NAMES`' order."""
    return _lazy.all_families()


def _ops() -> tuple[type[Operation], ...]:
    """`OPS`: every op of the dialect, family by family: what the importer reads."""
    return tuple(op for family in _families() for op in family.OPS)


def _dialect() -> Dialect:
    """`ONNX`, the `Dialect` of every op and the sequence types."""
    return Dialect("onnx", list(_ops()), list(_lazy.family("sequence").TYPES))


_lazy = LazyFamilies(
    __name__,
    globals(),
    FAMILY_NAMES,
    family_index.ONNX_NAMES,
    {"FAMILIES": _families, "OPS": _ops, "ONNX": _dialect},
)


def __getattr__(name: str) -> object:
    return _lazy.get(name)


def family_loaded(family: str) -> bool:
    """Whether `family` is loaded: an op or type of one that is not cannot
    exist yet, so what looks for them can skip the search."""
    return _lazy.is_loaded(family)


def loaded(*names: str) -> tuple[type[Operation], ...]:
    """The op classes of `names` whose families are loaded, for an
    `isinstance` that loads no family: it answers as against all of them."""
    return cast("tuple[type[Operation], ...]", _lazy.loaded(names))


if TYPE_CHECKING:
    __all__ = [
        "FAMILIES",
        "FAMILY_NAMES",
        "ONNX",
        "OPS",
        "family_loaded",
        "loaded",
    ]
    __all__ += attention.__all__
    __all__ += base.__all__
    __all__ += bert.__all__
    __all__ += compute.__all__
    __all__ += constants.__all__
    __all__ += contrib.__all__
    __all__ += control_flow.__all__
    __all__ += conv.__all__
    __all__ += conv_transpose.__all__
    __all__ += einsum.__all__
    __all__ += elementwise.__all__
    __all__ += gather.__all__
    __all__ += gqa.__all__
    __all__ += linalg.__all__
    __all__ += linear_attention.__all__
    __all__ += loss.__all__
    __all__ += ml.__all__
    __all__ += nbits.__all__
    __all__ += pad.__all__
    __all__ += qlinear.__all__
    __all__ += quantize.__all__
    __all__ += reduce.__all__
    __all__ += reshape.__all__
    __all__ += resize.__all__
    __all__ += rnn.__all__
    __all__ += sampling.__all__
    __all__ += scatter.__all__
    __all__ += select.__all__
    __all__ += sequence.__all__
    __all__ += shapes.__all__
    __all__ += signal.__all__
    __all__ += slice.__all__
    __all__ += topk.__all__
else:
    __all__ = [
        "FAMILIES",
        "FAMILY_NAMES",
        "ONNX",
        "OPS",
        "family_loaded",
        "loaded",
        *(name for names in family_index.ONNX_NAMES.values() for name in names),
    ]
