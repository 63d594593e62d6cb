"""The CPU runtime's Det: `np.linalg.det` (LAPACK's LU with partial
pivoting) over the whole batch at once, in the element type (float16 in
float32, which LAPACK lacks).

`CpuLinalg` is mixed into `CpuRuntime` (cpu.py).
"""

from __future__ import annotations

import numpy as np

from xhip.backend.cpu_host import CpuHost
from xhip.backend.runtime import DA


class CpuLinalg(CpuHost):
    """Mixed into `CpuRuntime`: `Runtime.det`."""

    def det(self, src: DA, out: DA) -> None:
        x, o = self.array(src), self.array(out)
        if o.size == 0:
            return
        if x.dtype == np.float16:
            x = x.astype(np.float32)
        np.copyto(o, np.linalg.det(x), casting="unsafe")
