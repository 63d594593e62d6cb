"""Fixtures of the emulator tests: xhip's kernels built once per session, and
the GPU runtimes on the CPU stand-in of their device API."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from xhip.backend.cuda import CudaRuntime
from xhip.backend.gpu import KernelRuntime, kernel_source
from xhip.backend.hip import HipRuntime
from xhip.testing.emulator import EmulatedDevice, EmulatedKernels, EmulatorUnavailable

GPUS = [("cuda", 32), ("hip", 64), ("hip", 32)]
"""(runtime, warp size): NVIDIA's 32, AMD's CDNA 64 and RDNA 32."""

RUNTIMES: dict[str, type[KernelRuntime]] = {"cuda": CudaRuntime, "hip": HipRuntime}

MakeGpu = Callable[..., KernelRuntime]


def emulate(source: str, name: str) -> EmulatedKernels:
    """`source` built for the emulator; a skip only where no host compiler exists."""
    try:
        return EmulatedKernels(source, name)
    except EmulatorUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture(scope="session")
def emulated() -> EmulatedKernels:
    """xhip's kernel source, as the GPU runtimes compile it, on the CPU."""
    return emulate(kernel_source(), "xhip_kernels.h")


@pytest.fixture(params=GPUS, ids=[f"{r}-warp{w}" for r, w in GPUS])
def make_gpu(
    request: pytest.FixtureRequest, emulated: EmulatedKernels
) -> Iterator[MakeGpu]:
    """Makes the runtime of this param on a fresh stand-in device; closes them all."""
    kind, warp = request.param
    made: list[KernelRuntime] = []

    def make(debug: bool = False, **device_options: Any) -> KernelRuntime:
        device = EmulatedDevice(warp, kernels=emulated, **device_options)
        runtime = RUNTIMES[kind](debug=debug, device=device)
        made.append(runtime)
        return runtime

    yield make
    for runtime in made:
        runtime.close()


@pytest.fixture
def gpu(make_gpu: MakeGpu) -> KernelRuntime:
    return make_gpu()
