"""Checks of a call's operands that every runtime makes: one place, one message.

The IR verifier checks what the types decide; these are what only run-time
sizes show (a `k` larger than its axis, padding an axis cropped to nothing,
reading from an empty dim). The CPU and GPU parts of an op both call the one
check here, so they refuse the same calls with the same words, and each
message names its op from the op's declaration.
"""

from __future__ import annotations

from collections.abc import Sequence

from xhip.backend.runtime import DeviceArray, IndexOutOfRange, InputError
from xhip.dialects import hip


def topk(src: DeviceArray, values: DeviceArray, axis: int) -> int:
    """`k`, the size of `values` along `axis`, if `src` has that many elements."""
    n, k = src.shape[axis], values.shape[axis]
    if k > n:
        raise InputError(
            f"{hip.TopKOp.name}: k = {k} is larger than the {n} elements along "
            f"axis {axis}"
        )
    return k


def slice_within(
    src: DeviceArray, starts: Sequence[int], steps: Sequence[int], out: DeviceArray
) -> None:
    """Every element `out` takes lies within `src`: a Split's sizes or a
    Slice's bounds read at run time may reach past it (ONNX Runtime fails
    such a call; a GPU kernel would read outside the buffer)."""
    if out.size == 0:
        return
    for start, step, n, size in zip(starts, steps, out.shape, src.shape):
        if not (0 <= start < size and 0 <= start + (n - 1) * step < size):
            raise InputError(
                f"{hip.SliceOp.name}: {n} elements from {start} by {step} reach "
                f"outside a dim of {size} (sizes the inputs give, as a Split's?)"
            )


def pad_crops(shape: Sequence[int], pads: Sequence[int]) -> list[tuple[int, int]]:
    """Per dim, (the crop at the begin, the length kept) of an input of `shape`
    cropped by the negative `pads` (all begins, then all ends)."""
    rank = len(shape)
    crops: list[tuple[int, int]] = []
    for d in range(rank):
        lo = max(-pads[d], 0)
        crops.append((lo, shape[d] - lo - max(-pads[rank + d], 0)))
    return crops


def pad(x: DeviceArray, out: DeviceArray, pads: Sequence[int], mode: str) -> None:
    """Only constant padding may extend a dim cropped to nothing."""
    if mode == "constant" or out.size == 0:
        return
    if any(kept <= 0 for _, kept in pad_crops(x.shape, pads)):
        raise InputError(f"{hip.PadOp.name}: {mode} padding of an empty dim")


def resize(x: DeviceArray, out: DeviceArray) -> None:
    """A non-empty `out` needs an input element to read."""
    if out.size and 0 in x.shape:
        raise IndexOutOfRange(
            f"{hip.ResizeOp.name}: no input element to resize {x.shape} into "
            f"{out.shape}"
        )


def gathered_dims(
    op: type[hip.HipDPSOp], data: DeviceArray, sizes: Sequence[int], out: DeviceArray
) -> None:
    """A non-empty `out` gathers from dims of `data` (`sizes`) that have an
    element: any index into a dim of size 0 is out of range."""
    if out.size and 0 in sizes:
        raise IndexOutOfRange(
            f"{op.name}: every index is out of range of a dim of size 0 of data "
            f"{data.shape}"
        )
