"""The CPU runtime's block-quantized weight ops, as ONNX Runtime computes them.

`CpuNBits` is mixed into `CpuRuntime` (cpu.py). MatMulNBits runs numba
kernels on the packed bytes (`cpu_nbits_kernels.py`, imported on first use):
in float32 each weight is `(q - zero) * scale` in float32, as ORT
dequantizes; its int8 form (accuracy level 4) is MLAS's CompInt8
arithmetic: each block of a row of A quantized to int8 (`scale = amax /
127`, `q = rint(a * (127 / amax))`, ties to even), each block's dot with
`q_b - zero` in integers, and the dots summed times `scale_a * scale_b`
(float32) in float64. ORT sums those in float32 in its own order, so results
differ from it by float32 rounding only. GatherBlockQuantized gathers the
packed rows first, then dequantizes `float(q - zero) * scale` in float32, as
ORT.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from xhip.backend.cpu_host import (
    BLAS_PARALLEL_MIN_MACS,
    CpuHost,
    contiguous,
    run_all,
)
from xhip.backend.runtime import DA, OptDA
from xhip.dialects.hip import GatherQuantizedAttributes, NBitsAttributes


def unpack(packed: np.ndarray, bits: int) -> np.ndarray:
    """The `bits`-bit values of u8 `packed`, low bits first, `8 / bits` per
    byte along the last axis."""
    per_byte = 8 // bits
    if per_byte == 1:
        return packed
    shifts = np.arange(0, 8, bits, dtype=np.uint8)
    values = (packed[..., None] >> shifts) & np.uint8((1 << bits) - 1)
    return values.reshape(*packed.shape[:-1], packed.shape[-1] * per_byte)


class CpuNBits(CpuHost):
    """Mixed into `CpuRuntime`: `Runtime.matmul_nbits`,
    `gather_block_quantized`."""

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
        """`hip.matmul_nbits`."""
        self.bind_matmul_nbits(a, b, scales, zero_points, bias, out, attrs)()

    def bind_matmul_nbits(
        self,
        a: DA,
        b: DA,
        scales: DA,
        zero_points: DA,
        bias: OptDA,
        out: DA,
        attrs: NBitsAttributes,
    ) -> Callable[[], object]:
        """The numba kernel on the packed bytes (`cpu_nbits_kernels`), its
        operands' views made once."""
        # lazy: numba (about 0.2 s to import) loads only for a model with MatMulNBits
        from xhip.backend.cpu_nbits_kernels import matmul_nbits

        calls: list[Callable[[], object]] = []
        n, blocks = attrs.n, attrs.blocks
        rows = contiguous(self.array(a), calls).reshape(-1, attrs.k)
        weight = contiguous(self.array(b), calls).reshape(n, blocks, -1)
        s = contiguous(self.array(scales), calls).reshape(n, blocks)
        zero = contiguous(self.array(zero_points), calls)
        zero = zero.reshape(n, attrs.zero_bytes if zero.dtype == np.uint8 else blocks)
        shift = None if bias is None else contiguous(self.array(bias), calls)
        # Small products on this thread alone: waking numba's workers costs
        # more, and on a loaded machine a parallel region waits for its
        # slowest thread (a scheduler time slice).
        macs = rows.shape[0] * n * attrs.k
        threads = self.threads if macs >= BLAS_PARALLEL_MIN_MACS else 1
        target = self.array(out)
        y = target if target.flags.c_contiguous else np.empty(target.shape, np.float32)
        calls.append(
            partial(
                matmul_nbits,
                threads,
                rows,
                weight,
                s,
                zero,
                None if shift is None else shift.reshape(-1),
                attrs.bits,
                attrs.k,
                attrs.int8,
                y.reshape(-1, n),
            )
        )
        if y is not target:
            calls.append(partial(np.copyto, target, y))
        return calls[0] if len(calls) == 1 else partial(run_all, calls)

    def gather_block_quantized(
        self,
        data: DA,
        indices: DA,
        scales: DA,
        zero_points: OptDA,
        out: DA,
        attrs: GatherQuantizedAttributes,
    ) -> None:
        """`hip.gather_block_quantized`: the gathered rows dequantized."""
        table = self.array(data)
        rows = table.shape[0]
        idx = self.array(indices).astype(np.int64)
        valid = (idx >= -rows) & (idx < rows)
        picked = np.where(valid, np.where(idx < 0, idx + rows, idx), 0).reshape(-1)
        values = unpack(table[picked], attrs.bits).astype(np.int32)
        width = values.shape[-1]
        s = self.array(scales)[picked]
        if zero_points is not None:
            z = unpack(self.array(zero_points)[picked], attrs.bits)[..., : s.shape[-1]]
            z = z.astype(np.int32)
        else:
            z = np.full(s.shape, 1 << (attrs.bits - 1), np.int32)
        spread = np.repeat(s, attrs.block_size, axis=-1)[..., :width]
        zeros = np.repeat(z, attrs.block_size, axis=-1)[..., :width]
        y = np.multiply((values - zeros).astype(np.float32), spread, dtype=np.float32)
        y[~valid.reshape(-1)] = 0
        np.copyto(self.array(out), y.reshape(out.shape))
