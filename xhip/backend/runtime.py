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
from collections.abc import Sequence
from typing import Any, ClassVar, NoReturn

import numpy as np


class DeviceUnavailable(RuntimeError):
    """A requested device, or the library it needs, is missing: one clear line."""


class NotImplementedOnDevice(NotImplementedError):
    """A runtime has no implementation of an op (yet): one clear line."""


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
        """`memref.subview`; unit dims missing from `result_shape` are dropped."""
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
        """`memref.expand_shape`: each source dim splits into its group of dims."""
        strides = [0] * len(shape)
        for group, stride in zip(groups, self.strides):
            for i in reversed(group):
                strides[i] = stride
                stride *= shape[i]
        return DeviceArray(
            self.buffer, self.offset, shape, tuple(strides), self.dtype, self.base
        )


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    return tuple(np.broadcast_shapes(*(tuple(s) for s in shapes)))


def matmul_shape(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """numpy `matmul`'s result shape, incl. 1-D operands and broadcast batch dims."""
    if not a or not b:
        raise ValueError("matmul operands must have rank >= 1")
    a2 = (1, *a) if len(a) == 1 else tuple(a)
    b2 = (*b, 1) if len(b) == 1 else tuple(b)
    if a2[-1] != b2[-2]:
        raise ValueError(f"matmul K mismatch: {tuple(a)} x {tuple(b)}")
    shape = [*broadcast_shapes(a2[:-2], b2[:-2]), a2[-2], b2[-1]]
    if len(b) == 1:
        shape.pop()
    if len(a) == 1:
        shape.pop(-1 if len(b) == 1 else -2)
    return tuple(shape)


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


def check_call(
    op: str, inputs: Sequence[DeviceArray], out: DeviceArray, inplace_ok: bool
) -> None:
    """Debug mode: operands are live and in bounds; `out` overlaps no input.

    Library calls (hipBLASLt, MIOpen) do not promise anything when the output
    aliases an input; elementwise ops may run exactly in place.
    """
    check_view(out, f"{op} output")
    out_lo, out_hi = out.byte_extent()
    for i, value in enumerate(inputs):
        check_view(value, f"{op} input {i}")
        if value.buffer is not out.buffer:
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


def refused_by_default(method: Any) -> Any:
    """Marks a `Runtime` method whose default refuses: a runtime that does not
    override it lacks the op (the declaration test reads the mark)."""
    method.refused_by_default = True
    return method


def implements(runtime: type[Runtime], method: str) -> bool:
    """Whether `runtime` has its own implementation of `method`."""
    return not getattr(getattr(runtime, method), "refused_by_default", False)


class Runtime(ABC):
    """What the interpreter needs from a device: memory, transfers, compute.

    Compute ops write `out` and return nothing. Shapes are checked by the
    caller (the IR verifier and the session); a runtime may assume them.
    """

    name: ClassVar[str]

    def __init__(self, debug: bool = False):
        self.debug = debug
        """Poison fresh and freed memory with NaN; the interpreter checks views."""

    # Memory.

    @abstractmethod
    def _allocate(self, nbytes: int) -> Any:
        """A handle to `nbytes` bytes of device memory, 256-byte aligned."""

    @abstractmethod
    def _release(self, handle: Any) -> None: ...

    @abstractmethod
    def fill_nan(self, buffer: Buffer) -> None:
        """Fill the whole buffer with a float NaN pattern (debug mode)."""

    def alloc(self, nbytes: int) -> Buffer:
        buffer = Buffer(self._allocate(nbytes), nbytes)
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
        buffer.freed = True

    def empty(self, shape: tuple[int, ...], dtype: np.dtype[Any]) -> DeviceArray:
        """A fresh contiguous array (poisoned in debug mode)."""
        nbytes = math.prod(shape) * dtype.itemsize
        return DeviceArray.contiguous(self.alloc(nbytes), 0, shape, dtype)

    @abstractmethod
    def upload(self, array: np.ndarray, copy: bool = False) -> DeviceArray:
        """Device memory holding `array`.

        Without `copy`, a host runtime may wrap the array's memory in place: the
        caller then keeps it alive and unchanged while the value is in use.
        """

    @abstractmethod
    def download(self, value: DeviceArray, out: np.ndarray | None = None) -> np.ndarray:
        """The value as a host array: into `out` if given, else a new array."""

    def synchronize(self) -> None:  # noqa: B027 (optional hook)
        """Wait for queued device work (no-op for synchronous runtimes)."""

    # Compute. Each method's default refuses, naming the op and the device, so
    # an op can land on one runtime before the others.

    def not_implemented(self, op: str, detail: str = "") -> NoReturn:
        raise NotImplementedOnDevice(
            f"{op} is not implemented on {self.name}"
            + (f": {detail}" if detail else "")
        )

    @refused_by_default
    def matmul(self, a: DeviceArray, b: DeviceArray, out: DeviceArray) -> None:
        """numpy `matmul`, batched, with broadcasting of the batch dims."""
        self.not_implemented("hip.hipblaslt.matmul")

    @refused_by_default
    def gemm(
        self,
        a: DeviceArray,
        b: DeviceArray,
        c: DeviceArray | None,
        out: DeviceArray,
        trans_a: bool = False,
        trans_b: bool = False,
        alpha: float = 1.0,
        beta: float = 1.0,
    ) -> None:
        """ONNX Gemm: alpha * op(A) @ op(B) + beta * C (C broadcast to (M, N))."""
        self.not_implemented("hip.hipblaslt.gemm")

    @refused_by_default
    def permute(self, src: DeviceArray, out: DeviceArray, perm: Sequence[int]) -> None:
        """out[i0, i1, ...] = src transposed by `perm` (out dim i is src dim perm[i])."""
        self.not_implemented("hip.permute")

    def transpose(
        self, src: DeviceArray, out: DeviceArray, dim0: int, dim1: int
    ) -> None:
        perm = list(range(len(src.shape)))
        perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
        self.permute(src, out, perm)

    @refused_by_default
    def binary(
        self, kind: str, a: DeviceArray, b: DeviceArray, out: DeviceArray
    ) -> None:
        """The binary elementwise hip op of this `kind()` (its `FORMULA`), with
        numpy broadcasting."""
        self.not_implemented(f"hip.miopen.{kind}")

    @refused_by_default
    def unary(self, kind: str, src: DeviceArray, out: DeviceArray) -> None:
        """The unary elementwise hip op of this `kind()` (its `FORMULA`),
        between same-shaped views."""
        self.not_implemented(f"hip.miopen.{kind}")

    @refused_by_default
    def softmax(
        self,
        src: DeviceArray,
        out: DeviceArray,
        axis: int = -1,
        scale: DeviceArray | None = None,
    ) -> None:
        """Softmax along `axis` of `src`, times the one-element `scale` first."""
        self.not_implemented("hip.miopen.softmax")

    @abstractmethod
    def copy(self, src: DeviceArray, out: DeviceArray) -> None:
        """Strided copy between same-shaped views."""

    def concat(
        self, inputs: Sequence[DeviceArray], out: DeviceArray, axis: int
    ) -> None:
        """ONNX Concat along `axis` (in `[0, rank)`): each input copied into its
        slice of `out`, a strided view, so every runtime's `copy` serves."""
        rank = len(out.shape)
        start = 0
        for src in inputs:
            offsets = [0] * rank
            offsets[axis] = start
            self.copy(src, out.subview(offsets, src.shape, [1] * rank, src.shape))
            start += src.shape[axis]

    @refused_by_default
    def cast(self, src: DeviceArray, out: DeviceArray) -> None:
        """Copy converting to `out`'s element type, as ONNX Cast (C's casts:
        float to integer truncates toward zero)."""
        self.not_implemented("hip.cast")

    def close(self) -> None:  # noqa: B027 (optional hook)
        """Release library handles and worker threads."""
