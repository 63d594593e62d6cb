"""What the HIP and CUDA runtimes share: kernel launches on strided views, GEMM plans.

Both runtimes run the same kernels (`kernels/xhip_kernels.h`, compiled at run
time by hiprtc or NVRTC); a subclass only says how to allocate, copy, compile,
launch and call BLAS. GPU libraries are imported lazily, by the subclasses,
when the device is asked for.
"""

from __future__ import annotations

import math
import re
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

import numpy as np

from xhip.backend.elementwise import (
    BINARY_CODES,
    COPY_CODE,
    UNARY_CODES,
    generated_switches,
)
from xhip.backend.runtime import DeviceArray, Runtime

BLOCK = 256
"""Threads per block: a power of two (the softmax reduction needs one)."""
MAX_GRID = 1 << 16

KernelArg = tuple[Literal["ptr", "i32", "i64"], int]

_GENERATED = "// @XHIP_ELEMENTWISE_OPS@"


@cache
def kernel_source() -> str:
    """The HIP/CUDA C++ source of xhip's kernels, with the elementwise ops'
    switches generated from their formulas."""
    text = (
        resources.files("xhip.backend")
        .joinpath("kernels/xhip_kernels.h")
        .read_text(encoding="utf-8")
    )
    head, marker, tail = text.partition(_GENERATED)
    assert marker, f"kernels/xhip_kernels.h lost its {_GENERATED} line"
    return head + generated_switches() + tail.split("\n", 1)[1]


def kernel_names(source: str) -> tuple[str, ...]:
    """The `__global__` functions of a kernel source, in order."""
    return tuple(re.findall(r"__global__\s+void\s+(\w+)\s*\(", source))


KERNEL_NAMES = kernel_names(kernel_source())

CPU_ONLY: dict[str, str] = {}
"""hip ops the GPU runtimes do not run yet, by name, each with the reason: the
one list of exceptions (`tests/pytest/test_op_declarations.py` reads it)."""


def broadcast_strides(value: DeviceArray, shape: Sequence[int]) -> list[int]:
    """`value`'s strides seen from the broadcast shape: 0 on broadcast dims."""
    lead = len(shape) - len(value.shape)
    strides = [0] * lead
    for size, stride in zip(value.shape, value.strides):
        strides.append(0 if size == 1 else stride)
    return strides


def strided_meta(
    out: DeviceArray, *inputs: DeviceArray, input_strides: Sequence[int] | None = None
) -> np.ndarray:
    """The `meta` array of the strided kernels: shape, out strides, input strides."""
    rows = [list(out.shape), list(out.strides)]
    if input_strides is not None:
        rows.append(list(input_strides))
    rows += [broadcast_strides(x, out.shape) for x in inputs]
    flat = [v for row in rows for v in row] or [0]
    return np.asarray(flat, dtype=np.int64)


@dataclass(frozen=True)
class GemmCall:
    """One column-major strided-batched SGEMM computing a row-major matmul.

    Row-major C = A @ B is column-major C^T = B^T A^T, so BLAS gets B first.
    Offsets are in elements from each operand's first element.
    """

    trans_b: bool
    trans_a: bool
    n: int
    m: int
    k: int
    ldb: int
    stride_b: int
    lda: int
    stride_a: int
    ldc: int
    stride_c: int
    batch: int


def _matrix_layout(
    shape: Sequence[int], strides: Sequence[int]
) -> tuple[bool, int] | None:
    """(transposed, leading dim) of a 2-D row-major view for column-major BLAS."""
    rows, cols = shape
    rs, cs = strides
    if cs == 1 or cols == 1:
        return False, max(rs, cols, 1)
    if rs == 1 or rows == 1:
        return True, max(cs, rows, 1)
    return None


def _batch_stride(shape: Sequence[int], strides: Sequence[int]) -> int | None:
    """The one stride walking all batch dims in order, or None if there is none."""
    dims = [(n, s) for n, s in zip(shape, strides) if n != 1]
    if not dims:
        return 0
    for (_, outer), (n, inner) in zip(dims, dims[1:]):
        if outer != inner * n:
            return None
    return dims[-1][1]


def plan_gemm(a: DeviceArray, b: DeviceArray, out: DeviceArray) -> GemmCall | None:
    """A single strided-batched SGEMM for `out = a @ b` (rank >= 2), if one exists."""
    if min(len(a.shape), len(b.shape)) < 2:
        return None
    m, k = a.shape[-2:]
    n = b.shape[-1]
    batch_shape = out.shape[:-2]
    batch = math.prod(batch_shape)
    la = _matrix_layout(a.shape[-2:], a.strides[-2:])
    lb = _matrix_layout(b.shape[-2:], b.strides[-2:])
    lc = _matrix_layout(out.shape[-2:], out.strides[-2:])
    if la is None or lb is None or lc is None or lc[0]:
        return None
    strides: list[int] = []
    for x in (a, b, out):
        full = broadcast_strides(
            DeviceArray(x.buffer, 0, x.shape[:-2], x.strides[:-2], x.dtype), batch_shape
        )
        stride = _batch_stride(batch_shape, full)
        if stride is None:
            return None
        strides.append(stride)
    return GemmCall(
        lb[0],
        la[0],
        n,
        m,
        k,
        lb[1],
        strides[1],
        la[1],
        strides[0],
        lc[1],
        strides[2],
        batch,
    )


class KernelRuntime(Runtime):
    """A GPU runtime: xhip's kernels for everything but GEMM; float32 only."""

    @abstractmethod
    def _address(self, value: DeviceArray) -> int:
        """Device address of the value's element 0."""

    @abstractmethod
    def _device_meta(self, meta: np.ndarray) -> Any:
        """`meta` in device memory (cached by content), as a kernel pointer arg."""

    @abstractmethod
    def _launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> None: ...

    @staticmethod
    def _require_f32(*values: DeviceArray) -> None:
        for v in values:
            if v.dtype != np.float32:
                raise NotImplementedError(
                    f"the GPU runtimes run float32 only, got {v.dtype}"
                )

    def _grid(self, n: int) -> int:
        return max(1, min(MAX_GRID, -(-n // BLOCK)))

    def _strided(
        self,
        kernel: str,
        code: int,
        out: DeviceArray,
        meta: np.ndarray,
        *srcs: DeviceArray,
    ) -> None:
        n = out.size
        if n == 0:
            return
        args: list[KernelArg] = [
            ("i32", code),
            ("ptr", self._address(out)),
            *(("ptr", self._address(s)) for s in srcs),
            ("i32", len(out.shape)),
            ("ptr", self._device_meta(meta)),
            ("i64", n),
        ]
        self._launch(kernel, self._grid(n), BLOCK, 0, args)

    def binary(
        self, kind: str, a: DeviceArray, b: DeviceArray, out: DeviceArray
    ) -> None:
        self._require_f32(a, b, out)
        meta = strided_meta(out, a, b)
        self._strided("xhip_binary_f32", BINARY_CODES[kind], out, meta, a, b)

    def unary(self, kind: str, src: DeviceArray, out: DeviceArray) -> None:
        self._require_f32(src, out)
        meta = strided_meta(out, src)
        self._strided("xhip_unary_f32", UNARY_CODES[kind], out, meta, src)

    def copy(self, src: DeviceArray, out: DeviceArray) -> None:
        self._require_f32(src, out)
        self._strided("xhip_unary_f32", COPY_CODE, out, strided_meta(out, src), src)

    def cast(self, src: DeviceArray, out: DeviceArray) -> None:
        """Only float32 to float32 (a copy): the kernels take float32 only."""
        if src.dtype != np.float32 or out.dtype != np.float32:
            raise NotImplementedError(
                f"hip.cast from {src.dtype} to {out.dtype}: the GPU runtimes run "
                "float32 only"
            )
        self.copy(src, out)

    def permute(self, src: DeviceArray, out: DeviceArray, perm: Sequence[int]) -> None:
        self._require_f32(src, out)
        meta = strided_meta(out, input_strides=[src.strides[p] for p in perm])
        self._strided("xhip_unary_f32", COPY_CODE, out, meta, src)

    def softmax(
        self,
        src: DeviceArray,
        out: DeviceArray,
        axis: int = -1,
        scale: DeviceArray | None = None,
    ) -> None:
        self._require_f32(src, out, *([scale] if scale is not None else []))
        rank = len(src.shape)
        axis %= max(rank, 1)
        if rank and axis == rank - 1 and src.is_contiguous() and out.is_contiguous():
            self._softmax_rows(src, out, scale)
            return
        # Move the axis last into contiguous scratch, and back.
        perm = [d for d in range(rank) if d != axis] + [axis]
        shape = tuple(src.shape[p] for p in perm)
        scratch = self.empty(shape, src.dtype)
        self.permute(src, scratch, perm)
        self._softmax_rows(scratch, scratch, scale)
        back = [perm.index(d) for d in range(rank)]
        self.permute(scratch, out, back)
        self.free(scratch.buffer)

    def _softmax_rows(
        self, src: DeviceArray, out: DeviceArray, scale: DeviceArray | None
    ) -> None:
        n = src.shape[-1] if src.shape else 1
        rows = src.size // n if n else 0
        if rows == 0:
            return
        args: list[KernelArg] = [
            ("ptr", self._address(src)),
            ("ptr", self._address(out)),
            ("ptr", 0 if scale is None else self._address(scale)),
            ("i64", rows),
            ("i64", n),
        ]
        self._launch(
            "xhip_softmax_rows_f32", min(rows, MAX_GRID), BLOCK, BLOCK * 4, args
        )
