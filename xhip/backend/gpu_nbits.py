"""The GPU runtimes' block-quantized weight ops: the kernels of
`kernels/nbits.h`.

`GpuNBits` is mixed into `gpu.KernelRuntime`. MatMulNBits is one kernel
that dequantizes each weight at its load (or, at accuracy level 4,
quantizes A's blocks to int8 and dots them in integers, as ONNX Runtime's
CPU kernel): no float copy of the weights. GatherBlockQuantized is one
kernel that dequantizes the gathered values. The packed operands are read
dense (constants are; any other is copied dense first).
"""

from __future__ import annotations

import numpy as np

from xhip.backend.device import KernelArg
from xhip.backend.gpu_host import BLOCK, GpuHost, grid_for
from xhip.backend.runtime import DA, OptDA, check_call
from xhip.dialects.hip import GatherQuantizedAttributes, NBitsAttributes


class GpuNBits(GpuHost):
    """Mixed into `KernelRuntime`: `Runtime.matmul_nbits`,
    `gather_block_quantized`."""

    def _dense_all(self, *values: DA) -> list[DA]:
        return [v if v.is_contiguous() else self._dense(v) for v in values]

    def _free_copies(self, given: tuple[DA, ...], used: list[DA]) -> None:
        for g, u in zip(given, used, strict=True):
            if u is not g:
                self.free(u.buffer)

    def matmul_nbits(
        self,
        a: DA,
        b: DA,
        scales: DA,
        zero_points: DA,
        bias: OptDA,
        out: DA,
        attrs: NBitsAttributes,
    ) -> None:
        self._require_f32(a, scales, out)
        if b.dtype != np.uint8 or zero_points.dtype not in (np.uint8, np.float32):
            self.refuse(f"b of {b.dtype} and zero points of {zero_points.dtype}")
        given = (a, b, scales, zero_points)
        used = self._dense_all(*given)
        dense_bias = None if bias is None else self._dense_all(bias)[0]
        meta = np.asarray([*out.shape, *out.strides], dtype=np.int64)
        trailing: list[KernelArg] = [
            ("i64", attrs.k),
            ("i64", attrs.n),
            ("i32", attrs.bits),
            ("i64", attrs.block_size),
            ("i32", int(zero_points.dtype == np.uint8)),
            ("ptr", 0 if dense_bias is None else self._address(dense_bias)),
            ("i32", int(attrs.int8)),
        ]
        self._launch_strided("xhip_matmul_nbits", [], out, meta, used, trailing)
        self._free_copies(given, used)
        if bias is not None and dense_bias is not bias:
            assert dense_bias is not None
            self.free(dense_bias.buffer)

    def gather_block_quantized(
        self,
        data: DA,
        indices: DA,
        scales: DA,
        zero_points: OptDA,
        out: DA,
        attrs: GatherQuantizedAttributes,
    ) -> None:
        self._require_f32(scales, out)
        if data.dtype != np.uint8 or indices.dtype not in (np.int32, np.int64):
            self.refuse(f"data of {data.dtype} and indices of {indices.dtype}")
        given = (data, indices, scales)
        used = self._dense_all(*given)
        zero = None if zero_points is None else self._dense_all(zero_points)[0]
        shape = data.shape
        inner = 1
        for size in shape[1:-1]:
            inner *= size
        meta = np.asarray([*out.shape, *out.strides] or [0], dtype=np.int64)
        trailing: list[KernelArg] = [
            ("i32", int(indices.dtype == np.int64)),
            ("i64", shape[0]),
            ("i64", inner),
            ("i64", shape[-1]),
            ("i32", attrs.bits),
            ("i64", attrs.block_size),
        ]
        n = out.size
        if n:
            if self.debug:
                check_call("xhip_gather_block_quantized", used, out, inplace_ok=True)
            data_d, indices_d, scales_d = used
            args: list[KernelArg] = [
                ("ptr", self._address(out)),
                ("ptr", self._address(data_d)),
                ("ptr", self._address(indices_d)),
                ("ptr", self._address(scales_d)),
                ("ptr", 0 if zero is None else self._address(zero)),
                ("i32", len(out.shape)),
                ("ptr", self._device_meta(meta)),
                ("i64", n),
                *trailing,
            ]
            self.device.launch(
                "xhip_gather_block_quantized", grid_for(n), BLOCK, 0, args
            )
        self._free_copies(given, used)
        if zero is not None and zero is not zero_points:
            self.free(zero.buffer)
