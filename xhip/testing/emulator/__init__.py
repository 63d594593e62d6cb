"""A CPU emulator of xhip's HIP/CUDA kernels, for tests on machines without a GPU.

`EmulatedKernels(kernel_source())` compiles the kernel source with the host
g++ against `emulator.h` (threads as fibers, real barriers, per-block shared
memory, warp shuffles at warp size 32 or 64) and launches its kernels on host
memory, stopping at a misaligned or out-of-bounds access (`MemoryFault`) and
flushing float32 subnormals where the runtime's compiler does. `EmulatedDevice` is a CPU stand-in of the GPU runtimes' device API
(`xhip.backend.device`) on top of it, so `CudaRuntime` and `HipRuntime` run
their host code here. See docs/runtime.md, "Kernels without a GPU".
"""

from xhip.testing.emulator.build import (
    CUDA_DEFAULT_SHARED,
    DeviceMemory,
    EmulatedKernels,
    EmulatorError,
    EmulatorUnavailable,
    Guarded,
    Kernel,
    MemoryFault,
    build,
    kernel_names,
    kernels,
    translation_unit,
)
from xhip.testing.emulator.device import (
    BlasError,
    DeviceError,
    EmulatedDevice,
    EmulatedGraph,
)

__all__ = [
    "BlasError",
    "DeviceError",
    "EmulatedDevice",
    "EmulatedGraph",
    "CUDA_DEFAULT_SHARED",
    "DeviceMemory",
    "EmulatedKernels",
    "EmulatorError",
    "EmulatorUnavailable",
    "Guarded",
    "Kernel",
    "MemoryFault",
    "build",
    "kernel_names",
    "kernels",
    "translation_unit",
]
