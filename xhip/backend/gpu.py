"""What the HIP and CUDA runtimes share: all their host code.

Both runtimes run the same kernels (`kernels/xhip_kernels.h`, compiled at run
time by hiprtc or NVRTC) and the same GEMM plans, through a `DeviceAPI`
(device.py): memory, copies, kernel launches, one strided-batched GEMM. A
subclass only names its vendor library's API, imported lazily when the
device is asked for; tests give the CPU stand-in instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from xhip.backend.device import KernelArg
from xhip.backend.elementwise import (
    OPS,
    codes,
    expected_dtypes,
    kernel_for,
    value_type,
)
from xhip.backend.gpu_attention import GpuAttention
from xhip.backend.gpu_conv import GpuConvolutions
from xhip.backend.gpu_fused import GpuFused
from xhip.backend.gpu_gather import GpuGathers
from xhip.backend.gpu_gqa import GpuGqa
from xhip.backend.gpu_host import (
    BLOCK,
    FLOAT_TYPES,
    KERNEL_NAMES,
    MAX_GRID,
    GemmCall,
    broadcast_view,
    grid_for,
    insert_unit_dim,
    kernel_source,
    plan_gemm,
    strided_meta,
    transposed,
    type_suffix,
)
from xhip.backend.gpu_image import GpuImage
from xhip.backend.gpu_linalg import GpuLinalg
from xhip.backend.gpu_linear_attention import GpuLinearAttention
from xhip.backend.gpu_movement import GpuMovement
from xhip.backend.gpu_nbits import GpuNBits
from xhip.backend.gpu_quantize import GpuQuantize
from xhip.backend.gpu_reduce import GpuReductions
from xhip.backend.gpu_resize import GpuResize
from xhip.backend.gpu_sampling import GpuSampling
from xhip.backend.gpu_scatter import GpuScatters
from xhip.backend.gpu_select import GpuSelect
from xhip.backend.gpu_topk import GpuTopK
from xhip.backend.gpu_window import GpuWindows
from xhip.backend.runtime import DA, DeviceArray, OptDA, check_call, overlaps
from xhip.dialects.hip import (
    AxisAttributes,
    ElementwiseAttributes,
    GemmAttributes,
    PermuteAttributes,
)

__all__ = [
    "BLOCK",
    "CPU_ONLY",
    "KERNEL_NAMES",
    "MAX_GRID",
    "GemmCall",
    "KernelRuntime",
    "kernel_source",
    "plan_gemm",
    "strided_meta",
]

RANGE_KERNELS = {
    np.dtype(np.float32): "xhip_range_f32",
    np.dtype(np.float64): "xhip_range_f64",
    np.dtype(np.int32): "xhip_range_i32",
    np.dtype(np.int64): "xhip_range_i64",
}

CPU_ONLY: dict[str, str] = {
    **{
        name: (
            "Unique has no GPU kernel yet: it sorts slices lexicographically "
            "and numbers them by first occurrence (cpu_select.py)"
        )
        for name in ("hip.unique_count", "hip.unique")
    },
}
"""hip ops the GPU runtimes do not run yet, by name, each with the reason: the
one list of exceptions (`tests/pytest/test_op_declarations.py` reads it)."""


@cache
def formula_kernel(
    kind: str, dtypes: tuple[np.dtype[Any], ...]
) -> tuple[str, int] | str:
    """The elementwise kernel and op code of `kind` on operands and result of
    these dtypes, or why there is none: worked out once per kind and dtypes,
    not per launch (profiled: a third of an unbound call's host time)."""
    op = OPS[kind]
    dtype = value_type(op, dtypes)
    kernel = kernel_for(kind, dtype)
    if kernel is None:
        return f"{dtype} operands"
    wanted = expected_dtypes(op, dtype)
    if list(dtypes) != wanted:
        return f"element types {list(dtypes)}, expected {wanted}"
    return kernel.name, codes(op)[kind]


class KernelRuntime(
    GpuAttention,
    GpuConvolutions,
    GpuReductions,
    GpuGathers,
    GpuTopK,
    GpuMovement,
    GpuImage,
    GpuScatters,
    GpuWindows,
    GpuResize,
    GpuQuantize,
    GpuNBits,
    GpuFused,
    GpuSelect,
    GpuSampling,
    GpuGqa,
    GpuLinalg,
    GpuLinearAttention,
):
    """A GPU runtime: xhip's kernels for everything but GEMM, one strided-batched
    BLAS GEMM for that (float16 with float32 accumulation, float32, float64).
    Elementwise ops, copies, permutes and casts run on every element type of
    `elementwise.ELEMENT_TYPES`; the rest on float32.

    Each family of ops is a part (`gpu_*.py`), all standing on `GpuHost`
    (gpu_host.py). A subclass only says which library is the device when none
    is given.
    """

    def _formula(
        self, inputs: Sequence[DA], out: DA, attrs: ElementwiseAttributes
    ) -> None:
        """The elementwise kernel of `kind` for the call's element type, its
        formula's `Param` values as a float64 array (null when none)."""
        params = attrs.params
        found = formula_kernel(attrs.kind, tuple([v.dtype for v in (*inputs, out)]))
        if isinstance(found, str):
            self.refuse(found)
        kernel, code = found
        values = 0
        if params:
            values = self._device_meta(np.asarray(params, np.float64))
        self._launch_strided(
            kernel,
            [("i32", code)],
            out,
            strided_meta(out, *inputs),
            inputs,
            [("ptr", values)],
        )

    def unary(self, src: DA, out: DA, attrs: ElementwiseAttributes) -> None:
        self._formula([src], out, attrs)

    def binary(self, a: DA, b: DA, out: DA, attrs: ElementwiseAttributes) -> None:
        self._formula([a, b], out, attrs)

    def ternary(
        self, a: DA, b: DA, c: DA, out: DA, attrs: ElementwiseAttributes
    ) -> None:
        self._formula([a, b, c], out, attrs)

    def from_elements(self, values: Sequence[int], out: DA) -> None:
        host = np.array(values, dtype=np.int64).astype(out.dtype).reshape(out.shape)
        if host.nbytes:
            self.copy(self._constant_view(host), out)

    def range(self, start: DA, delta: DA, out: DA) -> None:
        kernel = RANGE_KERNELS.get(out.dtype)
        if kernel is None:
            self.refuse(f"on {out.dtype}")
        n = out.size
        if n == 0:
            return
        args: list[KernelArg] = [
            ("ptr", self._address(out)),
            ("ptr", self._address(start)),
            ("ptr", self._address(delta)),
            ("i64", n),
        ]
        self.device.launch(kernel, grid_for(n), BLOCK, 0, args)

    def permute(self, src: DA, out: DA, attrs: PermuteAttributes) -> None:
        kernel = self._copy_kernel(src, out)
        meta = strided_meta(out, input_strides=[src.strides[p] for p in attrs.perm])
        self._launch_strided(kernel, [], out, meta, [src])

    def softmax(self, src: DA, scale: OptDA, out: DA, attrs: AxisAttributes) -> None:
        given = [src, out, *([scale] if scale is not None else [])]
        self._suffix(FLOAT_TYPES, *given)
        rank = len(src.shape)
        axis = attrs.axis % max(rank, 1)
        if rank and axis == rank - 1 and src.is_contiguous() and out.is_contiguous():
            self._softmax_rows(src, out, scale)
            return
        # Move the axis last into contiguous scratch, and back.
        perm = [d for d in range(rank) if d != axis] + [axis]
        shape = tuple(src.shape[p] for p in perm)
        scratch = self.empty(shape, src.dtype)
        self.permute(src, scratch, PermuteAttributes(tuple(perm)))
        self._softmax_rows(scratch, scratch, scale)
        back = tuple(perm.index(d) for d in range(rank))
        self.permute(scratch, out, PermuteAttributes(back))
        self.free(scratch.buffer)

    def _softmax_rows(
        self, src: DeviceArray, out: DeviceArray, scale: DeviceArray | None
    ) -> None:
        n = src.shape[-1] if src.shape else 1
        rows = src.size // n if n else 0
        if rows == 0:
            return
        suffix = type_suffix(src.dtype)
        kernel = f"xhip_softmax_rows_{suffix}"  # f32: xhip_kernels.h, else reduce.h
        if self.debug:
            inputs = (src,) if scale is None else (src, scale)
            check_call(kernel, inputs, out, inplace_ok=True)
        args: list[KernelArg] = [
            ("ptr", self._address(src)),
            ("ptr", self._address(out)),
            ("ptr", 0 if scale is None else self._address(scale)),
            ("i64", rows),
            ("i64", n),
        ]
        grid = min(rows, MAX_GRID)
        shared = BLOCK * (8 if suffix == "f64" else 4)
        self.device.launch(kernel, grid, BLOCK, shared, args)

    def matmul(self, a: DA, b: DA, out: DA) -> None:
        """numpy `matmul`; 1-D operands get a unit dim, as numpy gives them."""
        self._require_gemm_type(a, b, out)
        if len(a.shape) == 1:
            a = insert_unit_dim(a, 0)
            out = insert_unit_dim(out, len(out.shape) - (len(b.shape) > 1))
        if len(b.shape) == 1:
            b = insert_unit_dim(b, 1)
            out = insert_unit_dim(out, len(out.shape))
        self._gemm(a, b, out, 1.0, 0.0)

    def gemm(self, a: DA, b: DA, c: OptDA, out: DA, attrs: GemmAttributes) -> None:
        """ONNX Gemm: C broadcast into `out` first, then BLAS's beta adds it."""
        self._require_gemm_type(a, b, out, *([c] if c is not None else []))
        alpha, beta = attrs.alpha, attrs.beta
        if attrs.trans_a:
            a = transposed(a)
        if attrs.trans_b:
            b = transposed(b)
        if c is None or beta == 0.0:
            self._gemm(a, b, out, alpha, 0.0)
            return
        bias = self._dense(c) if overlaps(c, out) else c
        self.copy(broadcast_view(bias, out.shape), out)
        if bias is not c:
            self.free(bias.buffer)
        self._gemm(a, b, out, alpha, beta)
