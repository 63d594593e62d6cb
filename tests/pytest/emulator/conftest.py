"""Fixtures of the emulator tests: xhip's kernels built once per session, and
the GPU runtimes on the CPU stand-in of their device API."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from xhip.backend.cuda import CudaRuntime
from xhip.backend.gpu import KernelRuntime, kernel_source
from xhip.backend.hip import HipRuntime
from xhip.testing.emulator import EmulatedDevice, EmulatedKernels, EmulatorUnavailable

REAL_DEVICE = os.environ.get("XHIP_REAL_DEVICE", "")
"""`cuda` or `hip`: `make_gpu` makes that runtime on the real device instead of
the stand-in, one param in place of the three (docs/gpu.md)."""

GPUS = [(REAL_DEVICE, 0)] if REAL_DEVICE else [("cuda", 32), ("hip", 64), ("hip", 32)]
"""(runtime, warp size): NVIDIA's 32, AMD's CDNA 64 and RDNA 32; 0: the real
device's own."""

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


def _real_runtime(kind: str, debug: bool) -> KernelRuntime:
    """The runtime on the real device. What stops it (a missing library,
    header or driver; a kernel NVRTC refuses) fails the test with the
    library's message alone, never a traceback."""
    if kind not in RUNTIMES:
        pytest.fail(f"XHIP_REAL_DEVICE={kind}: expected one of {sorted(RUNTIMES)}")
    try:
        return RUNTIMES[kind](debug=debug)
    except Exception as e:  # DeviceUnavailable, ImportError, CuPy's own errors
        pytest.fail(f"XHIP_REAL_DEVICE={kind}: {e}", pytrace=False)


def _end_worker_if_sticky(made: list[KernelRuntime], case: str) -> None:
    """A sticky device error (an illegal address, say) spoils every later case
    of this process: name the case and end the process, so that pytest-xdist
    reports it and starts a fresh worker for the rest."""
    try:
        for runtime in made[-1:]:
            runtime.device.synchronize()
    except Exception as e:  # the vendor library's own error type
        os.write(2, f"\nsticky device error after {case}: {e}\n".encode())
        os._exit(70)


@pytest.fixture(
    params=GPUS, ids=[f"{r}-warp{w}" if w else f"{r}-real" for r, w in GPUS]
)
def make_gpu(request: pytest.FixtureRequest) -> Iterator[MakeGpu]:
    """Makes the runtime of this param on a fresh stand-in device (or, with
    XHIP_REAL_DEVICE, on the real one); closes them all."""
    kind, warp = request.param
    made: list[KernelRuntime] = []
    emulated: EmulatedKernels | None = (
        request.getfixturevalue("emulated") if warp else None
    )

    def make(debug: bool = False, **device_options: Any) -> KernelRuntime:
        if emulated is None:
            if device_options:
                pytest.skip(
                    f"the stand-in's {sorted(device_options)}: not on a real device"
                )
            runtime = _real_runtime(kind, debug)
        else:
            device = EmulatedDevice(
                warp, kernels=emulated, runtime=kind, **device_options
            )
            runtime = RUNTIMES[kind](debug=debug, device=device)
        made.append(runtime)
        return runtime

    yield make
    if not warp:
        _end_worker_if_sticky(made, request.node.nodeid)
    for runtime in made:
        runtime.close()


@pytest.fixture
def gpu(make_gpu: MakeGpu) -> KernelRuntime:
    return make_gpu()
