"""What every part of a GPU runtime stands on: memory, transfers, launches.

`GpuHost` is the base of each family of ops (`gpu_*.py`) and so of
`gpu.KernelRuntime`, which is made of them: a family calls the host's helpers
(`_address`, `_device_meta`, `_launch_strided`, `_gemm`, `copy`, ...) as its
own methods, declared once, here. Everything runs through `self.device`
(device.py), so the same code runs on a GPU and on the CPU stand-in.
"""

from __future__ import annotations

import math
import re
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, cast

import numpy as np

from xhip.backend.device import (
    GEMM_COMPUTE,
    DeviceAPI,
    GemmType,
    KernelArg,
    StridedGemm,
)
from xhip.backend.elementwise import (
    CAST_KERNEL,
    COPY_KERNELS,
    TYPE_CODES,
    TYPE_OF,
    generated_switches,
)
from xhip.backend.gpu_replay import BoundCall, Segment
from xhip.backend.runtime import (
    Buffer,
    DeviceArray,
    Runtime,
    check_call,
    check_span,
    contiguous_strides,
)

BLOCK = 256
"""Threads per block: a power of two (the softmax reduction needs one)."""
MAX_GRID = 1 << 16

_GENERATED = "// @XHIP_ELEMENTWISE_OPS@"


@cache
def kernel_source() -> str:
    """The HIP/CUDA C++ source of xhip's kernels: `kernels/xhip_kernels.h` (the
    shared helpers, with the elementwise ops' switches generated from their
    formulas), then every other `kernels/*.h`, one per family of ops, by name."""
    folder = resources.files("xhip.backend").joinpath("kernels")
    text = folder.joinpath("xhip_kernels.h").read_text(encoding="utf-8")
    head, marker, tail = text.partition(_GENERATED)
    assert marker, f"kernels/xhip_kernels.h lost its {_GENERATED} line"
    parts = [head + generated_switches() + tail.split("\n", 1)[1]]
    others = sorted(
        (f for f in folder.iterdir() if f.name.endswith(".h")), key=lambda f: f.name
    )
    parts += [
        f.read_text(encoding="utf-8") for f in others if f.name != "xhip_kernels.h"
    ]
    return "\n".join(parts)


def kernel_names(source: str) -> tuple[str, ...]:
    """The `__global__` functions of a kernel source, in order."""
    return tuple(re.findall(r"__global__\s+void\s+(\w+)\s*\(", source))


KERNEL_NAMES = kernel_names(kernel_source())


FLOAT_TYPES = frozenset({"f16", "f32", "f64"})
"""The suffixes of the float kernels (normalizations, softmax, attention)."""


def type_suffix(dtype: np.dtype[Any]) -> str | None:
    """The kernels' suffix for `dtype` (`f32`, `i64`, ...), None if none."""
    t = TYPE_OF.get(np.dtype(dtype))
    return None if t is None else t.name


def block_for(n: int) -> int:
    """The smallest power of two >= n, at most `BLOCK` (at least 1): the
    threads of a block reducing or sorting n elements."""
    return min(BLOCK, 1 << max(0, n - 1).bit_length())


def grid_for(n: int) -> int:
    """Blocks of `BLOCK` threads for a grid-stride loop over n elements."""
    return max(1, min(MAX_GRID, -(-n // BLOCK)))


def view_of(
    value: DeviceArray, shape: Sequence[int], strides: Sequence[int], offset: int = 0
) -> DeviceArray:
    """Another view of `value`'s buffer, `offset` elements further."""
    return DeviceArray(
        value.buffer,
        value.offset + offset * value.itemsize,
        tuple(shape),
        tuple(strides),
        value.dtype,
        value.base,
    )


def dense_view(value: DeviceArray, shape: Sequence[int]) -> DeviceArray:
    """A contiguous `value` seen with another shape of the same size."""
    return view_of(value, shape, contiguous_strides(tuple(shape)))


def broadcast_strides(value: DeviceArray, shape: Sequence[int]) -> list[int]:
    """`value`'s strides seen from the broadcast shape: 0 on broadcast dims.

    A dim that neither is 1 nor matches is refused as numpy refuses it (a
    run-time size the compiler could not unify), not read out of bounds.
    """
    lead = len(shape) - len(value.shape)
    strides = [0] * lead
    for d, (size, stride) in enumerate(zip(value.shape, value.strides)):
        if size not in (1, shape[lead + d]):
            raise ValueError(
                f"operands could not be broadcast together: shape "
                f"{tuple(value.shape)} into {tuple(shape)}"
            )
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
    """One column-major strided-batched GEMM computing a row-major matmul.

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
    """(transposed, leading dim) of a 2-D row-major view for column-major BLAS.

    Rows with unit column stride are a column-major (cols x rows) matrix with
    ld = the row stride ("N"); a unit row stride is its transpose ("T"). BLAS
    needs ld >= max(1, rows of the stored matrix); a dim of one element has no
    stride to honour, and an empty matrix none at all.
    """
    rows, cols = shape
    rs, cs = strides
    if rows == 0 or cols == 0:
        return False, max(cols, 1)
    if cs == 1 or cols == 1:
        ld = rs if rows > 1 else cols
        if ld >= cols:
            return False, ld
    if rs == 1 or rows == 1:
        ld = cs if cols > 1 else rows
        if ld >= rows:
            return True, ld
    return None


def _batch_stride(shape: Sequence[int], strides: Sequence[int]) -> int | None:
    """The one stride (>= 0) walking all batch dims in order, or None if none."""
    dims = [(n, s) for n, s in zip(shape, strides) if n != 1]
    if not dims:
        return 0
    for (_, outer), (n, inner) in zip(dims, dims[1:]):
        if outer != inner * n:
            return None
    return dims[-1][1] if dims[-1][1] >= 0 else None


def _operand_layout(
    x: DeviceArray, batch_shape: Sequence[int]
) -> tuple[bool, int, int] | None:
    """(transposed, leading dim, batch stride) of a matmul operand, if BLAS can
    read it as it is."""
    layout = _matrix_layout(x.shape[-2:], x.strides[-2:])
    if layout is None:
        return None
    lead = DeviceArray(x.buffer, 0, x.shape[:-2], x.strides[:-2], x.dtype)
    stride = _batch_stride(batch_shape, broadcast_strides(lead, batch_shape))
    return None if stride is None else (*layout, stride)


def plan_gemm(a: DeviceArray, b: DeviceArray, out: DeviceArray) -> GemmCall | None:
    """A single strided-batched GEMM for `out = a @ b` (rank >= 2), if one exists."""
    if min(len(a.shape), len(b.shape), len(out.shape)) < 2:
        return None
    m, k = a.shape[-2:]
    n = b.shape[-1]
    batch_shape = out.shape[:-2]
    la = _operand_layout(a, batch_shape)
    lb = _operand_layout(b, batch_shape)
    lc = _operand_layout(out, batch_shape)
    if la is None or lb is None or lc is None or lc[0]:
        return None
    return GemmCall(
        lb[0],
        la[0],
        n,
        m,
        k,
        lb[1],
        lb[2],
        la[1],
        la[2],
        lc[1],
        lc[2],
        math.prod(batch_shape),
    )


def broadcast_view(value: DeviceArray, shape: tuple[int, ...]) -> DeviceArray:
    """`value` broadcast to `shape` with stride-0 dims (read-only use)."""
    strides = broadcast_strides(value, shape)
    return DeviceArray(
        value.buffer, value.offset, shape, tuple(strides), value.dtype, value.base
    )


def transposed(value: DeviceArray) -> DeviceArray:
    """The 2-D view with its dims swapped."""
    return DeviceArray(
        value.buffer,
        value.offset,
        value.shape[::-1],
        value.strides[::-1],
        value.dtype,
        value.base,
    )


def insert_unit_dim(value: DeviceArray, axis: int) -> DeviceArray:
    """The view with a size-1 dim inserted at `axis` (1-D matmul operands)."""
    shape = (*value.shape[:axis], 1, *value.shape[axis:])
    strides = (*value.strides[:axis], 1, *value.strides[axis:])
    return DeviceArray(
        value.buffer, value.offset, shape, strides, value.dtype, value.base
    )


class GpuHost(Runtime, ABC):
    """The host side of a GPU runtime, shared by all its families of ops."""

    def __init__(
        self,
        debug: bool = False,
        device: DeviceAPI | None = None,
        graphs: bool = True,
    ):
        super().__init__(debug)
        self.device = self.open_device() if device is None else device
        self.device.load_kernels(kernel_source(), KERNEL_NAMES)
        self._meta: dict[bytes, int] = {}
        self._closed = False
        self.graphs = graphs
        """Whether bound plans replay as device graphs where the device has
        them (`begin_capture`); False: their prepared calls one by one."""
        self.can_graph = hasattr(self.device, "begin_capture")
        self.replay_stamp = 0
        """Bumped by every device use outside bound calls (transfers, syncs)
        and by bound calls a graph cannot hold: bound calls recorded under
        one stamp are back to back, one graph (gpu_replay.py)."""
        self.last_bound: tuple[weakref.ref[Segment], int] | None = None
        """The segment of the last bound call recorded, with its stamp."""

    def bind_call(
        self, method: str, keywords: Mapping[str, Any]
    ) -> Callable[[], object]:
        """The call as its device calls, recorded on its first run
        (gpu_replay.py): replays do no host work but those calls."""
        return BoundCall(self, method, keywords)

    @classmethod
    @abstractmethod
    def open_device(cls) -> DeviceAPI:
        """The vendor library's device API; `DeviceUnavailable` when it or a
        device is missing (one line)."""

    def _allocate(self, nbytes: int) -> int:
        return self.device.malloc(max(nbytes, 1))

    def _release(self, handle: Any) -> None:
        self.device.free(handle)

    def fill_nan(self, buffer: Buffer) -> None:
        if buffer.nbytes:
            self.device.memset(buffer.handle, 0xFF, buffer.nbytes)

    def _address(self, value: DeviceArray) -> int:
        """Device address of the value's element 0."""
        return int(value.buffer.handle) + value.offset

    def _device_meta(self, meta: np.ndarray) -> int:
        """`meta` (or a parameter array) in device memory, uploaded once per
        content and dtype."""
        key = meta.dtype.char.encode() + meta.tobytes()
        address = self._meta.get(key)
        if address is None:
            device = getattr(self.device, "base", self.device)  # not recorded
            address = self._meta[key] = device.malloc(meta.nbytes)
            device.copy_to_device(address, meta)
        return address

    def upload(self, array: np.ndarray, copy: bool = False) -> DeviceArray:
        host = np.asarray(array)
        host = np.ascontiguousarray(host).reshape(host.shape)
        value = self.empty(host.shape, host.dtype)
        self.replay_stamp += 1
        if host.nbytes:
            self.device.copy_to_device(value.buffer.handle, host)
        return value

    def write(self, value: DeviceArray, array: np.ndarray) -> None:
        host = np.ascontiguousarray(array)
        self.replay_stamp += 1
        if host.nbytes:
            self.device.copy_to_device(self._address(value), host)

    def download(self, value: DeviceArray, out: np.ndarray | None = None) -> np.ndarray:
        if not value.is_contiguous():
            dense = self.empty(value.shape, value.dtype)
            try:
                self.copy(value, dense)
                return self.download(dense, out)
            finally:
                self.free(dense.buffer)
        host = np.empty(value.shape, value.dtype)
        self.replay_stamp += 1
        if host.nbytes:
            self.device.copy_to_host(host, self._address(value))
        if out is None:
            return host
        np.copyto(out, host)
        return out

    def synchronize(self) -> None:
        self.replay_stamp += 1
        self.device.synchronize()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for address in self._meta.values():
            self.device.free(address)
        self._meta.clear()
        self.device.close()

    def _require_f32(self, *values: DeviceArray) -> None:
        for v in values:
            if v.dtype != np.float32:
                self.refuse(f"{v.dtype} operands (the GPU runtimes run float32 only)")

    def _suffix(self, types: frozenset[str], *values: DeviceArray) -> str:
        """The kernels' suffix of `values`' one element type, if in `types`;
        else a refusal naming the type."""
        dtypes = {v.dtype for v in values}
        if len(dtypes) != 1:
            names = ", ".join(sorted(str(d) for d in dtypes))
            self.refuse(f"mixed {names} operands (one type only)")
        dtype = next(iter(dtypes))
        suffix = type_suffix(dtype)
        if suffix is None or suffix not in types:
            self.refuse(f"{dtype} operands (no kernel for that type)")
        return suffix

    def _launch_1d(self, kernel: str, n: int, args: Sequence[KernelArg]) -> None:
        """`kernel` on `grid_for(n)` blocks of `BLOCK` threads."""
        self.device.launch(kernel, grid_for(n), BLOCK, 0, list(args))

    def _launch_strided(
        self,
        kernel: str,
        leading: Sequence[KernelArg],
        out: DeviceArray,
        meta: np.ndarray,
        srcs: Sequence[DeviceArray],
        trailing: Sequence[KernelArg] = (),
    ) -> None:
        """A grid-stride kernel over `out`'s elements: (*leading, out, *srcs,
        rank, meta, n, *trailing)."""
        n = out.size
        if n == 0:
            return
        if self.debug:  # every kernel write of the runtime, scratch included
            check_call(kernel, srcs, out, inplace_ok=True)
        args: list[KernelArg] = [
            *leading,
            ("ptr", self._address(out)),
            *(("ptr", self._address(s)) for s in srcs),
            ("i32", len(out.shape)),
            ("ptr", self._device_meta(meta)),
            ("i64", n),
            *trailing,
        ]
        self.device.launch(kernel, grid_for(n), BLOCK, 0, args)

    def _copy_kernel(self, src: DeviceArray, out: DeviceArray) -> str:
        kernel = COPY_KERNELS.get(src.itemsize)
        if src.dtype != out.dtype or kernel is None:
            self.refuse(f"from {src.dtype} to {out.dtype}")
        return kernel

    def _constant_view(self, host: np.ndarray) -> DeviceArray:
        """`host` in device memory (uploaded once per content, like `meta`)."""
        address = self._device_meta(np.ascontiguousarray(host).reshape(-1))
        return DeviceArray.contiguous(
            Buffer(address, host.nbytes), 0, tuple(host.shape), host.dtype
        )

    def copy(self, src: DeviceArray, out: DeviceArray) -> None:
        """Any element type: each element's bytes (`xhip_copy_<size>`)."""
        kernel = self._copy_kernel(src, out)
        self._launch_strided(kernel, [], out, strided_meta(out, src), [src])

    def cast(self, src: DeviceArray, out: DeviceArray) -> None:
        """Between any two element types (`xhip_cast`, as C converts); to the
        same type, a copy."""
        if src.dtype == out.dtype:
            self.copy(src, out)
            return
        source, target = TYPE_CODES.get(src.dtype), TYPE_CODES.get(out.dtype)
        if source is None or target is None:
            self.refuse(f"from {src.dtype} to {out.dtype}")
        leading: list[KernelArg] = [("i32", source), ("i32", target)]
        self._launch_strided(CAST_KERNEL, leading, out, strided_meta(out, src), [src])

    def _require_gemm_type(self, *values: DeviceArray) -> None:
        """One element type BLAS multiplies (`device.GEMM_COMPUTE`) for all `values`."""
        dtype = values[0].dtype
        for v in values:
            if v.dtype.name not in GEMM_COMPUTE or v.dtype != dtype:
                self.refuse(
                    f"{v.dtype} operands (the GPU GEMMs run float16, float32 "
                    "and float64, all operands of one type)"
                )

    def _dense(self, value: DeviceArray, keep: bool = True) -> DeviceArray:
        """A contiguous copy of `value` (uninitialised unless `keep`)."""
        dense = self.empty(value.shape, value.dtype)
        if keep:
            self.copy(value, dense)
        return dense

    def _gemm(
        self,
        a: DeviceArray,
        b: DeviceArray,
        out: DeviceArray,
        alpha: float,
        beta: float,
    ) -> None:
        """`out = alpha a @ b + beta out`; operands BLAS cannot stride over are
        copied dense first (broadcast batch dims materialised)."""
        if out.size == 0:
            return  # nothing to write; BLAS may refuse a zero batch count
        batch = out.shape[:-2]
        scratch: list[DeviceArray] = []
        if _operand_layout(a, batch) is None:
            a = self._dense(broadcast_view(a, (*batch, *a.shape[-2:])))
            scratch.append(a)
        if _operand_layout(b, batch) is None:
            b = self._dense(broadcast_view(b, (*batch, *b.shape[-2:])))
            scratch.append(b)
        target = out
        layout = _operand_layout(out, batch)
        if layout is None or layout[0]:
            target = self._dense(out, keep=beta != 0.0)
            scratch.append(target)
        call = plan_gemm(a, b, target)
        assert call is not None, "dense operands always have a GEMM plan"
        dtype = cast(GemmType, target.dtype.name)
        assert dtype in GEMM_COMPUTE and a.dtype == b.dtype == target.dtype
        if self.debug:
            check_call("gemm", (a, b), target, inplace_ok=False)
            rows = (call.batch - 1) * call.stride_c + (call.m - 1) * call.ldc
            check_span(target, rows + call.n, "gemm output")
        self.device.gemm_strided_batched(
            StridedGemm(
                dtype,
                "T" if call.trans_b else "N",
                "T" if call.trans_a else "N",
                call.n,
                call.m,
                call.k,
                alpha,
                self._address(b),
                call.ldb,
                call.stride_b,
                self._address(a),
                call.lda,
                call.stride_a,
                beta,
                self._address(target),
                call.ldc,
                call.stride_c,
                call.batch,
            )
        )
        if target is not out:
            self.copy(target, out)
        for s in scratch:
            self.free(s.buffer)
