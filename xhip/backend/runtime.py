"""The Runtime protocol and the memref value model the interpreter works on.

A memref value is a `DeviceArray`: a `Buffer` (memory of one runtime), the byte
offset of MLIR's aligned pointer (`base`), the byte offset of element 0
(`offset`), a shape, strides in elements, and a numpy dtype. Views
(`memref.view`, `cast`, `reinterpret_cast`, `subview`, `collapse_shape`,
`expand_shape`) only make new `DeviceArray`s: no data moves.

A `Runtime` owns memory and runs the compute ops on `DeviceArray`s. Every op
writes into its `out` argument (destination-passing style, like the `hip`
dialect), so the memory plan the compiler made is the one that runs.
See docs/runtime.md for the contract.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar, NoReturn

import numpy as np

from xhip.backend.memory import AllocationOverlap, Allocations, MemoryLimitError
from xhip.dialects import hip


class DeviceUnavailable(RuntimeError):
    """A requested device, or the library it needs, is missing: one clear line."""


class NotImplementedOnDevice(NotImplementedError):
    """A runtime has no implementation of an op, or not for these operands: one
    clear line, `<op> is not implemented on <device>[: <detail>]`.

    A runtime raises it with the detail only (`Runtime.refuse`); the
    interpreter, which knows the op, names it (`naming`).
    """

    def __init__(self, device: str, detail: str = "", op: str = ""):
        super().__init__(
            f"{op or 'this call'} is not implemented on {device}"
            + (f": {detail}" if detail else "")
        )
        self.device = device
        self.detail = detail
        self.op = op

    def naming(self, op: str) -> NotImplementedOnDevice:
        """The same refusal, naming the op that was refused."""
        return NotImplementedOnDevice(self.device, self.detail, op)


class InputError(ValueError):
    """The inputs do not fit the model: one line naming the input and the dim
    (or, found while running, the op the inputs are too small for)."""


class IndexOutOfRange(InputError, IndexError):
    """An index the inputs give (a Gather's, a Scatter's) is outside its axis:
    ONNX Runtime fails the call too. An `IndexError` still, as the CPU kernels
    raise it, and an `InputError`, so `xhip run` says it in one line."""


class MemoryPlanError(RuntimeError):
    """Debug mode found a view outside its buffer, a use after free or an overlap."""


class Buffer:
    """One allocation of a runtime; `handle` is whatever that runtime needs."""

    __slots__ = ("handle", "nbytes", "owned", "freed")

    def __init__(self, handle: Any, nbytes: int, owned: bool = True):
        self.handle = handle
        self.nbytes = nbytes
        self.owned = owned
        """False for memory the runtime wraps but does not own (user arrays)."""
        self.freed = False


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides, in elements."""
    strides: list[int] = []
    step = 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


class DeviceArray:
    """A memref value: a strided view of a buffer. Cheap to make; never copies."""

    __slots__ = ("buffer", "base", "offset", "shape", "strides", "dtype", "native")

    def __init__(
        self,
        buffer: Buffer,
        offset: int,
        shape: tuple[int, ...],
        strides: tuple[int, ...],
        dtype: np.dtype[Any],
        base: int | None = None,
    ):
        self.buffer = buffer
        self.offset = offset
        """Byte offset of element (0, ..., 0) in the buffer."""
        self.base = offset if base is None else base
        """Byte offset of MLIR's aligned pointer; `reinterpret_cast` counts from it."""
        self.shape = shape
        self.strides = strides
        """In elements, like MLIR's strided layout."""
        self.dtype = dtype
        self.native: Any = None
        """The runtime's own array object for this view, made once on first use."""

    @classmethod
    def contiguous(
        cls, buffer: Buffer, offset: int, shape: tuple[int, ...], dtype: np.dtype[Any]
    ) -> DeviceArray:
        return cls(buffer, offset, shape, contiguous_strides(shape), dtype)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def __repr__(self) -> str:
        return (
            f"DeviceArray(shape={self.shape}, strides={self.strides}, "
            f"dtype={self.dtype}, offset={self.offset}, nbytes={self.buffer.nbytes})"
        )

    def byte_extent(self) -> tuple[int, int]:
        """[lo, hi) bytes of the buffer this view can touch; empty views give lo == hi."""
        if 0 in self.shape:
            return self.offset, self.offset
        lo = hi = self.offset
        for size, stride in zip(self.shape, self.strides):
            span = (size - 1) * stride * self.itemsize
            if span < 0:
                lo += span
            else:
                hi += span
        return lo, hi + self.itemsize

    def is_contiguous(self) -> bool:
        return all(
            size == 1 or stride == expected
            for size, stride, expected in zip(
                self.shape, self.strides, contiguous_strides(self.shape)
            )
        )

    # Views. Each returns a new DeviceArray over the same buffer.

    def view(
        self, byte_shift: int, shape: tuple[int, ...], dtype: np.dtype[Any]
    ) -> DeviceArray:
        """`memref.view`: a contiguous array at `byte_shift` into this byte buffer."""
        start = self.offset + byte_shift
        return DeviceArray(
            self.buffer, start, shape, contiguous_strides(shape), dtype, start
        )

    def with_type(self, shape: tuple[int, ...]) -> DeviceArray:
        """`memref.cast`: the same view; the shape must agree."""
        if shape != self.shape:
            raise MemoryPlanError(f"memref.cast from shape {self.shape} to {shape}")
        return self

    def reinterpret(
        self, offset: int, shape: tuple[int, ...], strides: tuple[int, ...]
    ) -> DeviceArray:
        """`memref.reinterpret_cast`: offset in elements from the aligned pointer."""
        return DeviceArray(
            self.buffer,
            self.base + offset * self.itemsize,
            shape,
            strides,
            self.dtype,
            self.base,
        )

    def subview(
        self,
        offsets: Sequence[int],
        sizes: Sequence[int],
        steps: Sequence[int],
        result_shape: tuple[int, ...],
    ) -> DeviceArray:
        """`memref.subview`; unit dims missing from `result_shape` are dropped.
        The view must lie within this one: offsets and sizes the inputs give (a
        Split's sizes, a Slice's bounds read at run time) may not, and ONNX
        Runtime fails such a call."""
        for offset, size, step, dim in zip(offsets, sizes, steps, self.shape):
            last = offset + (size - 1) * step
            if size and not (0 <= min(offset, last) and max(offset, last) < dim):
                raise InputError(
                    f"memref.subview: offsets {list(offsets)}, sizes {list(sizes)} "
                    f"and steps {list(steps)} reach outside a source of shape "
                    f"{list(self.shape)} (sizes the inputs give, as a Split's?)"
                )
        start = self.offset + sum(o * s for o, s in zip(offsets, self.strides)) * (
            self.itemsize
        )
        dims = [(n, s * st) for n, s, st in zip(sizes, self.strides, steps)]
        while len(dims) > len(result_shape):
            unit = next(
                i
                for i, (n, _) in enumerate(dims)
                if n == 1 and (i >= len(result_shape) or result_shape[i] != 1)
            )
            del dims[unit]
        return DeviceArray(
            self.buffer,
            start,
            tuple(n for n, _ in dims),
            tuple(s for _, s in dims),
            self.dtype,
            self.base,
        )

    def collapse(self, groups: Sequence[Sequence[int]]) -> DeviceArray:
        """`memref.collapse_shape`: each group of dims must be contiguous."""
        shape: list[int] = []
        strides: list[int] = []
        for group in groups:
            dims = [(self.shape[i], self.strides[i]) for i in group]
            size = math.prod(n for n, _ in dims)
            real = [(n, s) for n, s in dims if n != 1]
            for (_, outer), (n, inner) in zip(real, real[1:]):
                if outer != inner * n:
                    raise MemoryPlanError(
                        f"memref.collapse_shape of non-contiguous dims {list(group)} "
                        f"of {self!r}"
                    )
            shape.append(size)
            strides.append(real[-1][1] if real else 1)
        return DeviceArray(
            self.buffer,
            self.offset,
            tuple(shape),
            tuple(strides),
            self.dtype,
            self.base,
        )

    def expand(
        self, groups: Sequence[Sequence[int]], shape: tuple[int, ...]
    ) -> DeviceArray:
        """`memref.expand_shape`: each source dim splits into its group of dims,
        whose sizes must make it up (sizes the inputs give, as a Reshape's
        shape read at run time, may not: ONNX Runtime fails such a call)."""
        strides = [0] * len(shape)
        for group, size in zip(groups, self.shape):
            sizes = [shape[i] for i in group]
            if math.prod(sizes) != size:
                raise InputError(
                    f"memref.expand_shape: sizes {sizes} ({math.prod(sizes)} "
                    f"elements) do not make up a dim of {size} (a Reshape to a "
                    "shape the inputs give?)"
                )
        for group, stride in zip(groups, self.strides):
            for i in reversed(group):
                strides[i] = stride
                stride *= shape[i]
        return DeviceArray(
            self.buffer, self.offset, shape, tuple(strides), self.dtype, self.base
        )


DA = DeviceArray
"""Short for `DeviceArray` in the runtimes' signatures."""
OptDA = DeviceArray | None
"""An optional role's value: None where the op lacks it."""


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    return tuple(np.broadcast_shapes(*(tuple(s) for s in shapes)))


def overlaps(a: DeviceArray | None, b: DeviceArray) -> bool:
    """Whether two views may share bytes (same buffer, intersecting extents)."""
    if a is None or a.buffer is not b.buffer:
        return False
    a_lo, a_hi = a.byte_extent()
    b_lo, b_hi = b.byte_extent()
    return a_lo < b_hi and b_lo < a_hi


def check_view(value: DeviceArray, what: str = "view") -> None:
    """Debug mode: the view lies inside its live buffer."""
    if value.buffer.freed:
        raise MemoryPlanError(f"{what} {value!r} uses a freed buffer")
    lo, hi = value.byte_extent()
    if lo < 0 or hi > value.buffer.nbytes:
        raise MemoryPlanError(
            f"{what} {value!r} touches bytes [{lo}, {hi}) outside its buffer of "
            f"{value.buffer.nbytes} bytes"
        )


def check_inside(part: DeviceArray, whole: DeviceArray, what: str) -> None:
    """Debug mode: a runtime's internal write `part` lies inside the `whole`
    output it was carved from (concat's slices, a GEMM's rows)."""
    check_view(part, what)
    lo, hi = part.byte_extent()
    whole_lo, whole_hi = whole.byte_extent()
    if part.buffer is not whole.buffer or (
        lo < hi and (lo < whole_lo or hi > whole_hi)
    ):
        raise MemoryPlanError(
            f"{what}: writes bytes [{lo}, {hi}) outside its output's bytes "
            f"[{whole_lo}, {whole_hi})"
        )


def concat_slot(
    src: DeviceArray, out: DeviceArray, start: int, axis: int, debug: bool
) -> DeviceArray:
    """The view of `out` that Concat's input `src` fills, from `start` along
    `axis`. Debug mode first checks it fits: an `out` too short is the plan's
    bug (a `MemoryPlanError`), not the bad input `subview` would report."""
    rank = len(out.shape)
    offsets = [0] * rank
    offsets[axis] = start
    what = f"{hip.ConcatOp.name} input at {start} of axis {axis}"
    if debug and start + src.shape[axis] > out.shape[axis]:
        raise MemoryPlanError(
            f"{what}: its {src.shape[axis]} elements run past the output's "
            f"{out.shape[axis]}"
        )
    part = out.subview(offsets, src.shape, [1] * rank, src.shape)
    if debug:
        check_inside(part, out, what)
    return part


def check_span(value: DeviceArray, elements: int, what: str) -> None:
    """Debug mode: a library call writing `elements` consecutive-or-strided
    elements from `value`'s first one (BLAS's C) stays inside `value`."""
    check_view(value, what)
    lo, hi = value.byte_extent()
    end = value.offset + elements * value.itemsize
    if elements > 0 and (value.offset < lo or end > hi):
        raise MemoryPlanError(
            f"{what}: writes bytes [{value.offset}, {end}) outside its output's "
            f"bytes [{lo}, {hi})"
        )


def check_call(
    op: str,
    inputs: Sequence[DeviceArray],
    out: DeviceArray,
    inplace_ok: bool,
    copied: bool = False,
) -> None:
    """Debug mode: operands are live and in bounds; `out` overlaps no input.

    Library calls (hipBLASLt, MIOpen) do not promise anything when the output
    aliases an input; elementwise ops may run exactly in place; an op whose
    runtime writes through a copy where they overlap (`copies_overlaps`) may
    overlap any way.
    """
    check_view(out, f"{op} output")
    out_lo, out_hi = out.byte_extent()
    for i, value in enumerate(inputs):
        check_view(value, f"{op} input {i}")
        if copied or value.buffer is not out.buffer:
            continue
        lo, hi = value.byte_extent()
        if lo >= out_hi or out_lo >= hi:
            continue
        same = (
            inplace_ok
            and value.offset == out.offset
            and value.shape == out.shape
            and value.strides == out.strides
        )
        if not same:
            raise MemoryPlanError(
                f"{op}: output bytes [{out_lo}, {out_hi}) overlap input {i} bytes "
                f"[{lo}, {hi}) in the same buffer"
            )


class Runtime(ABC):
    """What the interpreter needs from a device: memory, transfers, compute.

    Compute ops write `out` and return nothing. Shapes are checked by the
    caller (the IR verifier and the session); a runtime may assume them.
    """

    name: ClassVar[str]
    fuses_conv_relu: ClassVar[bool] = False
    """Whether `conv` reads `ConvAttributes.relu`: the session then runs
    `hip-fuse-conv-relu` on what it executes."""

    def __init__(self, debug: bool = False):
        self.debug = debug
        """Poison fresh and freed memory with NaN; the interpreter checks views."""
        self.max_memory: int | None = None
        """Most bytes this runtime may own at once; `alloc` refuses more with
        `MemoryLimitError` before asking the device (None: no limit)."""
        self.allocations = Allocations[Buffer]()
        """The live owned buffers; in debug mode their ranges must not overlap."""

    # Memory.

    @abstractmethod
    def _allocate(self, nbytes: int) -> Any:
        """A handle to `nbytes` bytes of device memory, 256-byte aligned."""

    @abstractmethod
    def _release(self, handle: Any) -> None: ...

    @abstractmethod
    def fill_nan(self, buffer: Buffer) -> None:
        """Fill the whole buffer with a float NaN pattern (debug mode)."""

    def alloc(self, nbytes: int, what: str = "a buffer") -> Buffer:
        """`nbytes` of device memory; `what` names it in a `MemoryLimitError`."""
        self.allocations.check(nbytes, self.max_memory, what)
        try:
            handle = self._allocate(nbytes)
        except MemoryError:
            raise MemoryLimitError(
                f"{what} (refused by the {self.name} allocator)",
                nbytes,
                self.max_memory or nbytes,
                self.allocations.in_use,
            ) from None
        buffer = Buffer(handle, nbytes)
        try:
            self.allocations.add(buffer, self.debug)
        except AllocationOverlap as e:
            raise MemoryPlanError(str(e)) from None
        if self.debug:
            self.fill_nan(buffer)
        return buffer

    def free(self, buffer: Buffer) -> None:
        if buffer.freed:
            raise MemoryPlanError(f"double free of a buffer of {buffer.nbytes} bytes")
        if buffer.owned:
            if self.debug:
                self.fill_nan(buffer)
            self._release(buffer.handle)
            self.allocations.remove(buffer)
        buffer.freed = True

    def empty(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], what: str = "a buffer"
    ) -> DeviceArray:
        """A fresh contiguous array (poisoned in debug mode)."""
        nbytes = math.prod(shape) * dtype.itemsize
        return DeviceArray.contiguous(self.alloc(nbytes, what), 0, shape, dtype)

    @abstractmethod
    def upload(self, array: np.ndarray, copy: bool = False) -> DeviceArray:
        """Device memory holding `array`.

        Without `copy`, a host runtime may wrap the array's memory in place: the
        caller then keeps it alive and unchanged while the value is in use.
        """

    @abstractmethod
    def download(self, value: DeviceArray, out: np.ndarray | None = None) -> np.ndarray:
        """The value as a host array: into `out` if given, else a new array."""

    def write(self, value: DeviceArray, array: np.ndarray) -> None:
        """Copies host `array` into the contiguous device array `value` (same
        shape and dtype): how a bound plan takes each call's inputs."""
        staged = self.upload(array, copy=True)
        try:
            self.copy(staged, value)
        finally:
            self.free(staged.buffer)

    def synchronize(self) -> None:  # noqa: B027 (optional hook)
        """Wait for queued device work (no-op for synchronous runtimes)."""

    # Compute. A runtime implements only the ops it runs: the contract of each
    # is its hip op's declaration (`RUNTIME_CALL`, its operand roles and the
    # dataclass `runtime_attributes()` returns, passed as `attrs`), and the
    # interpreter calls the method by keyword.
    # A runtime without the method refuses the op, naming it
    # (`interpreter.runtime_call`).

    def bind_call(
        self, method: str, keywords: Mapping[str, Any]
    ) -> Callable[[], object]:
        """`method(**keywords)` as a call without arguments, for a bound plan
        (plan.py) to replay while its operands stay where they are.

        A runtime may offer `bind_<method>(**keywords)`, which does the
        per-operand work (numpy views, splits, parameters) once and returns
        the call; otherwise the method runs as it is, on each replay.
        """
        binder = getattr(self, "bind_" + method, None)
        if binder is not None:
            return binder(**keywords)
        return partial(getattr(self, method), **keywords)

    def refuse(self, detail: str) -> NoReturn:
        """Refuse this call's operands (a type without a kernel) in one line; the
        interpreter puts the op's name in front."""
        raise NotImplementedOnDevice(self.name, detail)

    @abstractmethod
    def copy(self, src: DeviceArray, out: DeviceArray) -> None:
        """Strided copy between same-shaped views."""

    @abstractmethod
    def permute(self, src: DA, out: DA, attrs: hip.PermuteAttributes) -> None:
        """out[i0, i1, ...] = src transposed by `perm` (out dim i is src dim perm[i])."""

    def transpose(self, src: DA, out: DA, dim0: int, dim1: int) -> None:
        perm = list(range(len(src.shape)))
        perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
        self.permute(src, out, hip.PermuteAttributes(tuple(perm)))

    def concat(self, inputs: Sequence[DA], out: DA, attrs: hip.AxisAttributes) -> None:
        """ONNX Concat along `axis` (in `[0, rank)`): each input copied into its
        slice of `out`, a strided view, so every runtime's `copy` serves."""
        axis, start = attrs.axis, 0
        for src in inputs:
            self.copy(src, concat_slot(src, out, start, axis, self.debug))
            start += src.shape[axis]

    def readback(self, src: DeviceArray) -> tuple[int, ...]:
        """The elements of a small int tensor on the host, after every queued
        write to it (`hip.readback`): a device-to-host copy after a sync."""
        self.synchronize()
        return tuple(int(v) for v in self.download(src).reshape(-1).tolist())

    def after_fork(self) -> None:  # noqa: B027 (optional hook)
        """In a forked child (`CompiledModel`'s fork hook): forget worker
        threads and handles the parent made, which the child lacks."""

    def close(self) -> None:  # noqa: B027 (optional hook)
        """Release library handles and worker threads."""
