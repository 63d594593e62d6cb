"""A CPU emulator of xhip's HIP/CUDA kernels, for tests on machines without a GPU.

`EmulatedKernels(kernel_source())` compiles the kernel source with the host
g++ against `emulator.h` (threads as fibers, real barriers, per-block shared
memory, warp shuffles at warp size 32 or 64) and launches its kernels on host
memory. See docs/runtime.md, "Kernels without a GPU".
"""

from xhip.testing.emulator.build import (
    CUDA_DEFAULT_SHARED,
    EmulatedKernels,
    EmulatorError,
    EmulatorUnavailable,
    Guarded,
    Kernel,
    build,
    kernel_names,
    kernels,
    translation_unit,
)

__all__ = [
    "CUDA_DEFAULT_SHARED",
    "EmulatedKernels",
    "EmulatorError",
    "EmulatorUnavailable",
    "Guarded",
    "Kernel",
    "build",
    "kernel_names",
    "kernels",
    "translation_unit",
]
