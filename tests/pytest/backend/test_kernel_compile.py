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
from xhip.backend.gpu_fused import fused_kernel
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
    arch: str, options: tuple[str, ...] = CUDA_OPTIONS, source_text: str | None = None
) -> tuple[int, str, str]:
    """(status, log, PTX) of NVRTC on `source_text` (`kernel_source()`) for `arch`."""
    lib = _nvrtc()
    program = ctypes.c_void_p()
    source = (kernel_source() if source_text is None else source_text).encode()
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
    # with or without the option (PTX has no other rcp.approx.f64); so has
    # rsqrt.approx.ftz.f64, the seed of its float64 asin, acos, asinh, acosh
    # (NVRTC writes it with -ftz=false too).
    seeds = ("rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64")
    flushing_f64 = [
        line
        for line in ptx.splitlines()
        if ".ftz" in line and ".f64" in line and ".f32" not in line
        if not any(seed in line for seed in seeds)
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


FUSED = fused_kernel(
    (
        ("mul", (0, 1), 0, "f32"),
        ("add", (2, 0), 0, "f32"),
        ("leaky_relu", (3,), 1, "f32"),
        ("cast", (4,), 0, "f16"),
        ("mul", (5, 5), 0, "f16"),
        ("cast", (6,), 0, "f64"),
        ("mul", (7, 7), 0, "f64"),
        ("add", (8, 7), 0, "f64"),
    ),
    ("f32", "f32"),
)
"""A generated `hip.fused_elementwise` kernel (gpu_fused.py): a multiply in
one step and an add in the next, in float32 and float64."""


@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
def test_nvrtc_compiles_a_fused_kernel_with_no_fma_across_steps(arch: str) -> None:
    """No warning; each float step's result goes through volatile shared
    memory (`xhip_step`), so neither NVVM nor ptxas fuses a step's multiply
    with the next step's add: there is no FMA, where without the fence
    NVVM already makes one."""
    status, log, ptx = nvrtc_compile(arch, source_text=FUSED.source)
    assert status == 0, log
    assert log.strip() == "", log
    assert set(re.findall(r"\.entry\s+(\w+)", ptx)) == {FUSED.name}
    assert not re.findall(r"\bfma\.", ptx)
    assert re.search(r"ld\.volatile\.shared\.f32", ptx)
    assert re.search(r"ld\.volatile\.shared\.f64", ptx)
    unfenced = FUSED.source.replace("= xhip_step(", "= (")
    status, log, ptx = nvrtc_compile(arch, source_text=unfenced)
    assert status == 0, log
    assert re.search(r"\bfma\.rn\.ftz\.f32", ptx) and re.search(r"\bfma\.rn\.f64", ptx)


FLOAT_FMA = re.compile(
    r"\bv_(?:fma|fmac|mad|mac)_(?:legacy_)?f(?:32|64)(?:_e32|_e64)?\b"
)
"""An AMD float multiply-add instruction (not the integer v_mad_u64_u32)."""


def _hipcc_assembly(source: str, arch: str, tmp_path: Path) -> tuple[str, str]:
    """(the compiler's output, the ISA) of hipcc on `source` for `arch`."""
    hipcc = shutil.which("hipcc")
    if hipcc is None:
        pytest.skip("hipcc not installed (apt-get install hipcc; .ci/run does)")
    path = tmp_path / "k.hip"
    path.write_text("#include <hip/hip_runtime.h>\n" + source)
    asm = tmp_path / "k.s"
    result = subprocess.run(
        [
            hipcc,
            f"--offload-arch={arch}",
            "--cuda-device-only",
            *COMPILE_OPTIONS["hip"],
            "-Wall",
            "-Wextra",
            "-Wno-unused-command-line-argument",  # hipcc's link flags, unused by -S
            "-S",
            str(path),
            "-o",
            str(asm),
        ],
        env={**os.environ, "HIP_PLATFORM": "amd"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return (result.stdout + result.stderr).strip(), asm.read_text()


@pytest.mark.parametrize("arch", ["gfx90a", "gfx1030"])
def test_hipcc_compiles_a_fused_kernel_with_no_fma_across_steps(
    arch: str, tmp_path: Path
) -> None:
    """No warning; the empty asm each float step's result passes keeps clang
    from contracting a step's multiply with the next step's add: the
    multiplies stay (v_mul_f32, v_mul_f64), and there are fewer multiply-adds
    than without the fence (the 64-bit index division has its own)."""
    output, isa = _hipcc_assembly(FUSED.source, arch, tmp_path)
    assert output == ""
    assert FUSED.name in isa
    assert re.search(r"\bv_mul_f32", isa) and re.search(r"\bv_mul_f64", isa)
    unfenced = FUSED.source.replace("= xhip_step(", "= (")
    _, without = _hipcc_assembly(unfenced, arch, tmp_path)
    assert len(FLOAT_FMA.findall(isa)) < len(FLOAT_FMA.findall(without))
