"""The kernel source compiled by the real device compilers, which need no GPU:
NVRTC (the `nvidia-cuda-nvrtc-cu12` wheel of the dev extra, the same library
CuPy compiles with at run time) for the H200's sm_90 and the A100's sm_80, and
Debian's hipcc for AMD targets, with the options the runtimes compile with
(float32 subnormals flushed on NVIDIA, kept on AMD, as the emulator runs them).
Each must accept it with no warning at all."""

from __future__ import annotations

import ctypes
import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from xhip.backend.gpu import kernel_source
from xhip.testing.emulator import kernel_names
from xhip.testing.emulator.device import COMPILE_OPTIONS, flushes_denormals

pytestmark = pytest.mark.kernel_compile

CUDA_OPTIONS = COMPILE_OPTIONS["cuda"]
"""What NVRTC gets under `CudaRuntime`: cuda.NVRTC_OPTIONS and what CuPy's
RawModule appends (-ftz=true)."""


def _nvrtc() -> ctypes.CDLL:
    """libnvrtc from the wheel; failing, not skipping, on Linux, where the dev
    extra installs it."""
    try:
        import nvidia.cuda_nvrtc  # pyright: ignore[reportMissingImports]
    except ImportError:
        if not sys.platform.startswith("linux"):
            pytest.skip("the nvidia-cuda-nvrtc-cu12 wheel exists for Linux only")
        pytest.fail("NVRTC missing: pip install -e '.[dev]' (nvidia-cuda-nvrtc-cu12)")
    folder = Path(next(iter(nvidia.cuda_nvrtc.__path__))) / "lib"
    libraries = sorted(folder.glob("libnvrtc.so*")) + sorted(
        folder.glob("nvrtc64*.dll")
    )
    assert libraries, f"no libnvrtc in {folder}"
    return ctypes.CDLL(str(libraries[0]))


@functools.cache
def nvrtc_compile(
    arch: str, options: tuple[str, ...] = CUDA_OPTIONS
) -> tuple[int, str, str]:
    """(status, log, PTX) of NVRTC on `kernel_source()` for `arch`."""
    lib = _nvrtc()
    program = ctypes.c_void_p()
    source = kernel_source().encode()
    status = lib.nvrtcCreateProgram(
        ctypes.byref(program), source, b"xhip_kernels.cu", 0, None, None
    )
    assert status == 0, f"nvrtcCreateProgram: {status}"
    try:
        flags = [f"--gpu-architecture={arch}".encode(), *(o.encode() for o in options)]
        array = (ctypes.c_char_p * len(flags))(*flags)
        status = lib.nvrtcCompileProgram(program, len(flags), array)
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(program, log)
        ptx = b""
        if status == 0:
            lib.nvrtcGetPTXSize(program, ctypes.byref(size))
            text = ctypes.create_string_buffer(size.value)
            lib.nvrtcGetPTX(program, text)
            ptx = text.value
        return status, log.value.decode(errors="replace"), ptx.decode(errors="replace")
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(program))


@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
def test_nvrtc_compiles_the_kernels_without_a_warning(arch: str) -> None:
    status, log, ptx = nvrtc_compile(arch)
    assert status == 0, log
    assert log.strip() == "", log
    entries = set(re.findall(r"\.entry\s+(\w+)", ptx))
    assert entries == set(kernel_names(kernel_source()))


def test_nvrtc_flushes_float32_subnormals_as_the_emulator_does() -> None:
    """The runtime's options make NVRTC flush float32 operations (`.ftz.f32`,
    and the float64-to-float32 conversion's result) and no float64 one, which
    is what the emulator does for CudaRuntime (`flushes_denormals`)."""
    status, log, ptx = nvrtc_compile("sm_90")
    assert status == 0, log
    assert flushes_denormals(CUDA_OPTIONS)
    assert re.search(r"\bmul\.ftz\.f32\b", ptx), "no flushing float32 multiply"
    assert "cvt.rn.ftz.f32.f64" in ptx  # xhip_cast from float64: result
    assert "cvt.ftz.f64.f32" in ptx  # and to float64: input
    # rcp.approx.ftz.f64, the seed of libdevice's float64 division, has .ftz
    # with or without the option (PTX has no other rcp.approx.f64).
    flushing_f64 = [
        line
        for line in ptx.splitlines()
        if ".ftz" in line and ".f64" in line and ".f32" not in line
        if "rcp.approx.ftz.f64" not in line
    ]
    assert not flushing_f64, flushing_f64[:3]


def test_nvrtc_reports_errors() -> None:
    """The harness sees a failure: a bad option is refused with status and log."""
    status, log, _ = nvrtc_compile("sm_90", ("--no-such-option",))
    assert status != 0 and "no-such-option" in log


HIP_TARGETS = ["gfx908", "gfx90a", "gfx1030", "gfx940"]
"""What Debian's hipcc (HIP 5.2, clang 15) builds. Refused there: gfx1100 and
gfx1101 ("cannot find ROCm device library": Debian ships none for RDNA3),
gfx942 ("invalid target ID": newer than this clang)."""


@pytest.mark.parametrize("arch", HIP_TARGETS)
def test_hipcc_compiles_the_kernels_without_a_warning(
    arch: str, tmp_path: Path
) -> None:
    hipcc = shutil.which("hipcc")
    if hipcc is None:
        pytest.skip("hipcc not installed (apt-get install hipcc; .ci/run does)")
    source = tmp_path / "k.hip"
    source.write_text("#include <hip/hip_runtime.h>\n" + kernel_source())
    result = subprocess.run(
        [
            hipcc,
            f"--offload-arch={arch}",
            "--cuda-device-only",
            *COMPILE_OPTIONS["hip"],
            "-Wall",
            "-Wextra",
            "-c",
            str(source),
            "-o",
            str(tmp_path / "k.co"),
        ],
        env={**os.environ, "HIP_PLATFORM": "amd"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert (result.stdout + result.stderr).strip() == ""
