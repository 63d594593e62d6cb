"""The GPU runtimes' Det: `xhip_det` of `kernels/linalg.h`.

`GpuLinalg` is mixed into `gpu.KernelRuntime`. One thread per matrix: it
copies its matrix (any strides) into a dense workspace and factors it there
(LU with partial pivoting), in double for float64 and float otherwise.
"""

from __future__ import annotations

import numpy as np

from xhip.backend.device import KernelArg
from xhip.backend.elementwise import TYPE_CODES
from xhip.backend.gpu_host import GpuHost
from xhip.backend.runtime import DA

FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


class GpuLinalg(GpuHost):
    """Mixed into `KernelRuntime`: `Runtime.det`."""

    def det(self, src: DA, out: DA) -> None:
        if src.dtype not in FLOATS or out.dtype != src.dtype:
            self.refuse(f"{src.dtype} operands (float16, float32, float64 only)")
        if out.size == 0:
            return
        n = src.shape[-1]
        batch = len(src.shape) - 2
        wide = src.dtype == np.float64
        work = self.empty(
            (out.size * n * n,), np.dtype(np.float64 if wide else np.float32), "Det"
        )
        rows = [list(src.shape[:batch]), list(src.strides[:batch]), list(out.strides)]
        meta = np.asarray([v for row in rows for v in row] or [0], np.int64)
        args: list[KernelArg] = [
            ("i32", TYPE_CODES[src.dtype]),
            ("i32", 1 if wide else 0),
            ("ptr", self._address(out)),
            ("ptr", self._address(src)),
            ("ptr", self._address(work)),
            ("i32", batch),
            ("ptr", self._device_meta(meta)),
            ("i64", out.size),
            ("i64", n),
            ("i64", src.strides[-2]),
            ("i64", src.strides[-1]),
        ]
        self._launch_1d("xhip_det", out.size, args)
        self.free(work.buffer)
