"""Fixtures of the emulator tests: xhip's kernels built once per session."""

from __future__ import annotations

import pytest

from xhip.backend.gpu import kernel_source
from xhip.testing.emulator import EmulatedKernels, EmulatorUnavailable


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
