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

from xhip.backend.memory import AllocationOverlap, Allocations, MemoryLimitError


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

    @refused_by_default
    def slice(self, *operands: Any, steps: Sequence[int]) -> None:
        """`hip.slice`: `operands` are the start in each dim (ints), then `src`
        and `out`; `out[i] = src[start + i * step]` in each dim. Each start is
        in `[0, size)` of its dim wherever `out` is not empty."""
        self.not_implemented("hip.slice")

    @refused_by_default
    def tile(self, src: DeviceArray, out: DeviceArray) -> None:
        """ONNX Tile: `out[i] = src[i mod src.shape]` in each dim (each dim of
        `out` a multiple of `src`'s)."""
        self.not_implemented("hip.tile")

    @refused_by_default
    def expand(self, src: DeviceArray, out: DeviceArray) -> None:
        """ONNX Expand: `src` broadcast to `out`'s shape as numpy does."""
        self.not_implemented("hip.expand")

    def transpose(
        self, src: DeviceArray, out: DeviceArray, dim0: int, dim1: int
    ) -> None:
        perm = list(range(len(src.shape)))
        perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
        self.permute(src, out, perm)

    @refused_by_default
    def binary(
        self,
        kind: str,
        a: DeviceArray,
        b: DeviceArray,
        out: DeviceArray,
        params: Sequence[float] = (),
    ) -> None:
        """The binary elementwise hip op of this `kind()` (its `FORMULA`), with
        numpy broadcasting; `params` are the values of the formula's `Param`s."""
        self.not_implemented(f"hip.miopen.{kind}")

    @refused_by_default
    def unary(
        self,
        kind: str,
        src: DeviceArray,
        out: DeviceArray,
        params: Sequence[float] = (),
    ) -> None:
        """The unary elementwise hip op of this `kind()` (its `FORMULA`),
        between same-shaped views."""
        self.not_implemented(f"hip.miopen.{kind}")

    @refused_by_default
    def ternary(
        self,
        kind: str,
        a: DeviceArray,
        b: DeviceArray,
        c: DeviceArray,
        out: DeviceArray,
        params: Sequence[float] = (),
    ) -> None:
        """The ternary elementwise hip op of this `kind()` (`where`), the three
        broadcast as numpy does."""
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

    @refused_by_default
    def reduce(
        self, src: DeviceArray, out: DeviceArray, kind: str, axes: Sequence[int]
    ) -> None:
        """The reduction `kind` (a `hip.ReduceOp.kind()`: sum, mean, max, min,
        prod, l1, l2, log_sum_exp, sum_square) of `src` over `axes` (sorted;
        none: a copy). `out` has `src`'s rank (reduced dims of size 1) or
        drops the reduced dims. An empty reduction gives the kind's identity:
        0, 1 for prod, -inf for max and log_sum_exp, +inf for min, NaN for mean."""
        self.not_implemented(f"hip reduce_{kind}")

    @refused_by_default
    def arg_reduce(
        self,
        src: DeviceArray,
        out: DeviceArray,
        kind: str,
        axis: int,
        select_last: bool = False,
    ) -> None:
        """`hip.argmax`/`hip.argmin` (`kind` max or min) along `axis` into the
        int64 `out` (with or without the reduced dim); ties go to the first
        index, or the last with `select_last`; NaN is the extreme."""
        self.not_implemented(f"hip.arg{kind}")

    @refused_by_default
    def topk(
        self,
        src: DeviceArray,
        values: DeviceArray,
        indices: DeviceArray,
        axis: int,
        largest: bool = True,
    ) -> None:
        """`hip.topk`: the `k = values.shape[axis]` largest (or smallest)
        elements of `src` along `axis`, sorted, into `values`, and their
        positions along `axis` into the int64 `indices`; ties go to the lower
        index, NaN counts as larger than any number."""
        self.not_implemented("hip.topk")

    @refused_by_default
    def layer_norm(
        self,
        x: DeviceArray,
        scale: DeviceArray,
        bias: DeviceArray | None,
        out: DeviceArray,
        mean: DeviceArray | None,
        inv_std: DeviceArray | None,
        axis: int,
        epsilon: float,
    ) -> None:
        """ONNX LayerNormalization over the dims from `axis` on; `scale` and
        `bias` broadcast to those dims; `mean`/`inv_std` (the normalized dims
        of size 1) written when given."""
        self.not_implemented("hip.miopen.layer_norm")

    @refused_by_default
    def rms_norm(
        self,
        x: DeviceArray,
        scale: DeviceArray,
        out: DeviceArray,
        axis: int,
        epsilon: float,
    ) -> None:
        """ONNX RMSNormalization over the dims from `axis` on."""
        self.not_implemented("hip.rms_norm")

    @refused_by_default
    def log_softmax(self, src: DeviceArray, out: DeviceArray, axis: int) -> None:
        """Log of the softmax along `axis`, computed shifted by the max."""
        self.not_implemented("hip.miopen.log_softmax")

    @refused_by_default
    def hardmax(self, src: DeviceArray, out: DeviceArray, axis: int) -> None:
        """1 at the first largest element along `axis`, 0 elsewhere."""
        self.not_implemented("hip.hardmax")

    @refused_by_default
    def from_elements(self, *args: Any) -> None:
        """`from_elements(*values, out)`: the host ints `values` written into
        `out` (int or bool, at most 1-D, `len(values)` elements)."""
        self.not_implemented("hip.from_elements")

    @refused_by_default
    def range(self, start: DeviceArray, delta: DeviceArray, out: DeviceArray) -> None:
        """ONNX Range: `out[i] = start + i * delta` in `out`'s type; `start` and
        `delta` are 0-D."""
        self.not_implemented("hip.range")

    def readback(self, src: DeviceArray) -> tuple[int, ...]:
        """The elements of a small int tensor on the host, after every queued
        write to it (`hip.readback`): a device-to-host copy after a sync."""
        self.synchronize()
        return tuple(int(v) for v in self.download(src).reshape(-1).tolist())

    @refused_by_default
    def fill(self, out: DeviceArray, value: float) -> None:
        """Every element of `out` set to `value` (converted to its dtype)."""
        self.not_implemented("hip.fill")

    @refused_by_default
    def scatter_nd(
        self,
        data: DeviceArray,
        indices: DeviceArray,
        updates: DeviceArray,
        out: DeviceArray,
        reduction: str,
    ) -> None:
        """ONNX ScatterND: `out` = `data`, then each update slice combined
        (`reduction` none, add, mul, max, min) into `out[tuple(indices[i])]`,
        in order; int64 indices, negative ones counted from the end."""
        self.not_implemented("hip.scatter_nd")

    @refused_by_default
    def scatter_elements(
        self,
        data: DeviceArray,
        indices: DeviceArray,
        updates: DeviceArray,
        out: DeviceArray,
        reduction: str,
        axis: int,
    ) -> None:
        """ONNX ScatterElements along `axis` (in `[0, rank)`): `out` = `data`,
        then `updates[p]` combined into `out` at `p` with its `axis`
        coordinate replaced by `indices[p]` (int32 or int64, negative ones
        counted from the end), in order."""
        self.not_implemented("hip.scatter_elements")

    @refused_by_default
    def trilu(self, k: int, src: DeviceArray, out: DeviceArray, upper: bool) -> None:
        """ONNX Trilu on the last two dims: `src` where `col - row >= k`
        (`upper`) or `<= k`, else 0."""
        self.not_implemented("hip.trilu")

    @refused_by_default
    def cumsum(
        self,
        src: DeviceArray,
        out: DeviceArray,
        axis: int,
        exclusive: bool,
        reverse: bool,
    ) -> None:
        """ONNX CumSum along `axis`, in `src`'s element type, summed in order."""
        self.not_implemented("hip.cumsum")

    @refused_by_default
    def one_hot(
        self, indices: DeviceArray, values: DeviceArray, out: DeviceArray, axis: int
    ) -> None:
        """ONNX OneHot: `out` (depth = `out.shape[axis]`) is `values[1]` where
        the coordinate at `axis` equals the index (negative ones plus depth,
        float ones truncated), else `values[0]`."""
        self.not_implemented("hip.one_hot")

    @refused_by_default
    def attention_softmax(
        self,
        past: int,
        scores: DeviceArray,
        mask: DeviceArray | None,
        nonpad: DeviceArray | None,
        out: DeviceArray,
        scale: float,
        softcap: float,
        causal: bool,
        left_window: int,
        right_window: int,
        stage: str,
        wide: bool = False,
    ) -> None:
        """`hip.attention_softmax` of scores (B, H, S, T) into `out` (may be
        `scores` itself): `scale`, softcap, the bias (mask broadcast to (B, H,
        S, T'), keys from T' on masked; causal and window about i + offset,
        offset `past` or nonpad[b] - S; keys from nonpad[b] on masked), softmax
        over T with rows of all -inf bias zero; `stage` (`hip.ATTENTION_STAGES`)
        stops after that step. In `scores`' type; float16 in float32 if `wide`."""
        self.not_implemented("hip.attention_softmax")

    @refused_by_default
    def rotary_embedding(
        self,
        x: DeviceArray,
        cos: DeviceArray,
        sin: DeviceArray,
        position_ids: DeviceArray | None,
        out: DeviceArray,
        interleaved: bool,
        rotary_dim: int,
        num_heads: int,
    ) -> None:
        """ONNX RotaryEmbedding: x (B, H, S, D), or (B, S, H * D) with
        `num_heads`; cos/sin (B, S, R / 2), or (P, R / 2) rows picked by the
        int64 position_ids (B, S); R = `rotary_dim`."""
        self.not_implemented("hip.rotary_embedding")

    @refused_by_default
    def conv(
        self,
        x: DeviceArray,
        w: DeviceArray,
        bias: DeviceArray | None,
        out: DeviceArray,
        workspace: DeviceArray,
        strides: Sequence[int],
        dilations: Sequence[int],
        pads: Sequence[int],
        group: int,
    ) -> None:
        """ONNX Conv of x (N, C, s...) by w (M, C/group, k...), plus `bias` (M)
        if given, into out (N, M, o...). `pads` are the begins then the ends.
        `workspace` (1-D, from the memory plan) holds the im2col matrix of one
        image, `C * prod(k) * prod(o)` elements, or is empty where that matrix
        is the image itself; the runtime allocates nothing else for it."""
        self.not_implemented("hip.miopen.conv")

    @refused_by_default
    def pool(
        self,
        x: DeviceArray,
        out: DeviceArray,
        indices: DeviceArray | None,
        kind: str,
        kernel: Sequence[int] | None,
        strides: Sequence[int],
        dilations: Sequence[int],
        pads: Sequence[int],
        count_include_pad: bool = False,
        column_major: bool = False,
    ) -> None:
        """Max (`kind` "max") or average pooling of x (N, C, s...) into out (N,
        C, o...): window `o * stride - pad_begin + tap * dilation` along each
        spatial dim, `kernel` None meaning all of x's spatial dims. Max skips
        the padding; average divides by the window's elements inside x, or with
        `count_include_pad` inside the padded x. `indices` (int64, max only):
        each maximum's flat index into x (first one on ties), its spatial dims
        column-major under `column_major`."""
        self.not_implemented(f"hip.miopen.{kind}_pool")

    @refused_by_default
    def lp_pool(
        self,
        x: DeviceArray,
        out: DeviceArray,
        kernel: Sequence[int],
        strides: Sequence[int],
        dilations: Sequence[int],
        pads: Sequence[int],
        p: int,
    ) -> None:
        """ONNX LpPool of x (N, C, s...) into out (N, C, o...): `(sum |x|^p)^(1/p)`
        over each window's elements inside x (windows as in `pool`)."""
        self.not_implemented("hip.miopen.lp_pool")

    @refused_by_default
    def conv_transpose(
        self,
        x: DeviceArray,
        w: DeviceArray,
        bias: DeviceArray | None,
        out: DeviceArray,
        workspace: DeviceArray,
        strides: Sequence[int],
        dilations: Sequence[int],
        pads: Sequence[int],
        group: int,
    ) -> None:
        """ONNX ConvTranspose of x (N, C, s...) by w (C, M/group, k...), plus
        `bias` (M) if given, into out (N, M, o...): input `i` adds `x[i] * w[t]`
        at output `i * stride - pad_begin + t * dilation`, out's size deciding
        the end (output padding). `workspace` (1-D, from the memory plan) holds
        one image's column matrix, `M * prod(k) * prod(s)` elements, or is
        empty where the GEMM writes out itself."""
        self.not_implemented("hip.miopen.conv_transpose")

    @refused_by_default
    def resize(
        self,
        x: DeviceArray,
        out: DeviceArray,
        mode: str,
        coordinate_mode: str,
        nearest_mode: str,
        cubic_coeff_a: float,
        exclude_outside: bool,
        antialias: bool,
        extrapolation_value: float,
        scales: Sequence[float] | None,
        roi: Sequence[float] | None,
    ) -> None:
        """ONNX Resize of x into out (same rank): `scales` per dim (None: out /
        in), `roi` (begins, then ends) for tf_crop_and_resize; the taps and
        weights of each dim are `resize_taps` (cpu_resize.py)."""
        self.not_implemented("hip.resize")

    @refused_by_default
    def pad(
        self,
        x: DeviceArray,
        value: DeviceArray | None,
        out: DeviceArray,
        pads: Sequence[int],
        mode: str,
    ) -> None:
        """ONNX Pad of x into out: `pads` all begins then all ends, one pair per
        dim (negative: crop, which comes first); `mode` (`hip.PAD_MODES`)
        constant (the one-element `value`, 0 if None), reflect, edge or wrap,
        each of the latter extending the cropped input periodically."""
        self.not_implemented("hip.pad")

    @refused_by_default
    def group_norm(
        self,
        x: DeviceArray,
        scale: DeviceArray,
        bias: DeviceArray,
        out: DeviceArray,
        num_groups: int | None,
        epsilon: float,
        per_group: bool = False,
    ) -> None:
        """ONNX GroupNormalization (InstanceNormalization when `num_groups` is
        None: one group per channel) of x (N, C, ...): each group of C /
        num_groups channels of each image normalized, then times `scale` plus
        `bias`, (C) or, under `per_group`, (num_groups)."""
        self.not_implemented("hip.miopen.group_norm")

    @refused_by_default
    def lrn(
        self,
        src: DeviceArray,
        out: DeviceArray,
        size: int,
        alpha: float,
        beta: float,
        bias: float,
    ) -> None:
        """ONNX LRN across the channels (dim 1) of src (N, C, ...)."""
        self.not_implemented("hip.miopen.lrn")

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
            part = out.subview(offsets, src.shape, [1] * rank, src.shape)
            if self.debug:
                check_inside(part, out, f"hip.concat input at {start} of axis {axis}")
            self.copy(src, part)
            start += src.shape[axis]

    @refused_by_default
    def gather(
        self, data: DeviceArray, indices: DeviceArray, out: DeviceArray, axis: int
    ) -> None:
        """ONNX Gather along `axis` (in `[0, rank)`): `out` (shape `data[:axis]
        + indices + data[axis+1:]`) takes, per index (int32 or int64, in `[-n,
        n)` with n = data's size along `axis`, a negative one counted from the
        end), its slice of `data`. Out of range: the CPU raises IndexError, the
        GPU kernels clamp into `[0, n)` (ONNX Runtime fails)."""
        self.not_implemented("hip.gather")

    @refused_by_default
    def gather_elements(
        self, data: DeviceArray, indices: DeviceArray, out: DeviceArray, axis: int
    ) -> None:
        """ONNX GatherElements: `out[i] = data[i with i[axis] = indices[i]]`;
        `indices` and `out` of one shape, of data's rank; indices as `gather`'s."""
        self.not_implemented("hip.gather_elements")

    @refused_by_default
    def gather_nd(
        self,
        data: DeviceArray,
        indices: DeviceArray,
        out: DeviceArray,
        batch_dims: int = 0,
    ) -> None:
        """ONNX GatherND: each index tuple (indices' last dim, k) picks the slice
        `data[b..., i0, .., ik-1]` after the `batch_dims` leading dims b the two
        share; `out` is `indices[:-1] + data[batch_dims + k:]`; each index as
        `gather`'s, against its own dim."""
        self.not_implemented("hip.gather_nd")

    @refused_by_default
    def cast(self, src: DeviceArray, out: DeviceArray) -> None:
        """Copy converting to `out`'s element type, as ONNX Cast (C's casts:
        float to integer truncates toward zero)."""
        self.not_implemented("hip.cast")

    def close(self) -> None:  # noqa: B027 (optional hook)
        """Release library handles and worker threads."""
