"""Shared fixtures: where the seed lives, and a fresh xhip Context."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from xdsl.context import Context

from xhip.context import make_context

if TYPE_CHECKING:
    from xhip.backend.cuda import CudaRuntime

REPO = Path(__file__).resolve().parents[2]
SEED = Path(os.environ.get("XHIP_SEED", REPO.parent / "shared" / "seed"))
STAGES = SEED / "stages"


@pytest.fixture
def ctx() -> Context:
    return make_context()


@pytest.fixture(autouse=True)
def scratch_cwd(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test runs in a scratch folder of its own, so whatever writes to the
    current directory (`xhip compile` to stdout puts the constants file there)
    lands there, never in the source tree."""
    cwd = tmp_path_factory.mktemp("cwd")
    monkeypatch.chdir(cwd)
    return cwd


@pytest.fixture(scope="module")
def emulated_cuda() -> Iterator[CudaRuntime]:
    """The CUDA runtime on the strict emulated device (warp 32), one a test
    module; skips, with the reason, where the emulator cannot build."""
    from xhip.backend.cuda import CudaRuntime  # lazy: only emulator tests need it
    from xhip.backend.gpu import kernel_source  # lazy: as above
    from xhip.testing.emulator import (  # lazy: as above
        EmulatedDevice,
        EmulatedKernels,
        EmulatorUnavailable,
    )

    try:
        kernels = EmulatedKernels(kernel_source(), "xhip_kernels.h")
    except EmulatorUnavailable as e:
        pytest.skip(str(e))
    device = EmulatedDevice(32, kernels=kernels, runtime="cuda")
    runtime = CudaRuntime(debug=True, device=device)
    yield runtime
    runtime.close()
