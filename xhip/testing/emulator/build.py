"""Build xhip's kernel source for the CPU emulator and launch its kernels.

The source is compiled by the host C++ compiler after `emulator.h`, which
defines the CUDA/HIP built-ins. `__shared__` declarations are rewritten (one
line each, so compiler messages keep the source's line numbers) into the
header's per-block shared memory, and one C entry point per `__global__`
kernel is appended: `xhip_emu_launch_<name>(grid x,y,z, block x,y,z, dynamic
shared bytes, warp size, order, seed, shared limit, flush mode, void** args)`,
args as in `cuLaunchKernel` (an array of pointers to each argument's value),
`xhip_emu_signature_<name>()`, the parameter kinds the compiler sees, and
`xhip_emu_alignments_<name>()`, the alignment each pointer parameter needs.

The unit is instrumented: -fsanitize=alignment reports a misaligned load or
store, -fsanitize=kernel-address calls a hook on every access that checks it
against the device-memory tables of the launch (`DeviceMemory`). Both
handlers are the header's own, so no sanitizer runtime is loaded.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal

import numpy as np

from xhip.backend.gpu import kernel_source

ArgKind = Literal["ptr", "i32", "i64", "f32", "f64"]
KernelArg = tuple[ArgKind, int | float]
Dims = int | Sequence[int]
Order = Literal["forward", "reverse", "shuffle"]

FLAGS = (
    "-std=c++17",
    "-O2",
    "-fPIC",
    "-Wall",
    "-Wextra",
    "-U_FORTIFY_SOURCE",
    "-fsanitize=alignment",
    "-fsanitize=kernel-address",
    "--param=asan-instrumentation-with-call-threshold=0",
    "--param=asan-stack=0",
    "--param=asan-globals=0",
)
"""g++ flags: -Wall -Wextra, so a warning in the header or a kernel shows in
`build_log`; no _FORTIFY_SOURCE, whose longjmp check refuses a jump to another
fiber's stack; the sanitizers whose handlers emulator.h defines, with every
access an outlined hook call (threshold 0) and no stack or global redzones.
Linked in a second step without them, so no sanitizer runtime is linked."""

CUDA_DEFAULT_SHARED = 48 * 1024
"""Shared memory a CUDA block gets without an opt-in (AMD: 64 KiB)."""

Denormals = Literal["keep", "flush", "flush-results"]
"""Float subnormals in a launch: kept (IEEE), flushed as inputs and results
(x86's MXCSR DAZ and FTZ), or flushed as results only (FTZ)."""

_ORDERS: dict[str, int] = {"forward": 0, "reverse": 1, "shuffle": 2}
_DENORMALS: dict[str, int] = {"keep": 0, "flush": 3, "flush-results": 1}
_ACCEPTS: dict[str, set[str]] = {
    "ptr": {"ptr"},
    "i32": {"i32", "u32"},
    "i64": {"i64", "u64"},
    "f32": {"f32"},
    "f64": {"f64"},
}
_CTYPES = {
    "ptr": ctypes.c_void_p,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
    "f32": ctypes.c_float,
    "f64": ctypes.c_double,
}
_BUILD_LOCK = threading.Lock()


class EmulatorError(RuntimeError):
    """A kernel did something a GPU would not run correctly (deadlock, bad launch, ...)."""


class EmulatorUnavailable(RuntimeError):
    """No host C++ compiler to build the emulator with."""


class MemoryFault(EmulatorError):
    """A kernel's load or store was misaligned or out of bounds (a GPU faults)."""

    def __init__(self, message: str, address: int):
        super().__init__(message)
        self.address = address


@dataclass(frozen=True)
class DeviceMemory:
    """Device memory as one launch sees it, for the bounds checks.

    `watched` is every live allocation with its guard bytes ([lo, hi) pairs,
    sorted); `extents[i]` the allocation ([lo, hi)) pointer argument i points
    into, None for the other arguments. An access inside `watched` but
    outside every extent stops the kernel; other addresses (stacks, shared
    memory, host arrays) are not checked.
    """

    watched: np.ndarray
    extents: Sequence[tuple[int, int] | None]


@dataclass(frozen=True)
class Kernel:
    """A `__global__` function of the source: its name and parameter names."""

    name: str
    params: tuple[str, ...]


_COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\])*"', re.S)


def strip_comments(source: str) -> str:
    """The source with comments blanked (newlines kept), strings left alone."""

    def blank(m: re.Match[str]) -> str:
        text = m.group(0)
        if text.startswith('"'):
            return text
        return re.sub(r"[^\n]", " ", text)

    return _COMMENT_OR_STRING.sub(blank, source)


_GLOBAL = re.compile(
    r"\b__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\(([^)]*)\)"
)


def kernels(source: str) -> list[Kernel]:
    """Every `__global__` function of `source`, in source order."""
    found: list[Kernel] = []
    code = strip_comments(source)
    for m in _GLOBAL.finditer(code):
        if re.search(
            r"\btemplate\s*<[^;{}]*$", code[max(0, m.start() - 200) : m.start()]
        ):
            raise EmulatorError(f"kernel {m.group(1)}: templates are not supported")
        params = tuple(
            re.findall(r"([A-Za-z_]\w*)\s*(?:\[\s*\])?\s*$", p.strip())[0]
            for p in m.group(2).split(",")
            if p.strip() and p.strip() != "void"
        )
        found.append(Kernel(m.group(1), params))
    return found


def kernel_names(source: str) -> list[str]:
    """The names of the `__global__` functions of `source`."""
    return [k.name for k in kernels(source)]


_DYNAMIC_SHARED = re.compile(
    r"\bextern\s+__shared__\s+(?:__align__\s*\(\s*\d+\s*\)\s*)?"
    r"([A-Za-z_][\w\s:*]*?)\s*\b([A-Za-z_]\w*)\s*\[\s*\]\s*;"
)
_STATIC_SHARED = re.compile(
    r"\b__shared__\s+(?:__align__\s*\(\s*\d+\s*\)\s*)?"
    r"([A-Za-z_][\w\s:*]*?)\s*\b([A-Za-z_]\w*)\s*((?:\[[^\]\n]+\]\s*)*);"
)


def rewrite_shared(source: str) -> str:
    """`__shared__` declarations made calls into the emulator's per-block memory."""
    code = strip_comments(source)

    def dynamic(m: re.Match[str]) -> str:
        ctype, name = " ".join(m.group(1).split()), m.group(2)
        return f"{ctype}* {name} = static_cast<{ctype}*>(::xhip_emu::dynamic_shared());"

    code = _DYNAMIC_SHARED.sub(dynamic, code)
    counter = iter(range(1 << 30))

    def static(m: re.Match[str]) -> str:
        if code[: m.start()].count("{") == code[: m.start()].count("}"):
            raise EmulatorError(
                f"file-scope __shared__ {m.group(2)}: the emulator supports "
                "__shared__ inside functions only"
            )
        ctype = " ".join(m.group(1).split())
        dims = "".join(m.group(3).split())
        return (
            f"auto& {m.group(2)} = "
            f"::xhip_emu::shared_static<{ctype}{dims}>({next(counter)});"
        )

    code = _STATIC_SHARED.sub(static, code)
    left = re.search(r"\b__shared__\b", code)
    if left:
        line = code.count("\n", 0, left.start()) + 1
        raise EmulatorError(
            f"line {line}: a __shared__ declaration the emulator cannot read"
        )
    return code


def translation_unit(source: str, name: str = "kernels.cu") -> str:
    """The C++ file g++ compiles: the header, the rewritten source, the entry points."""
    found = kernels(source)
    parts = [
        '#include "emulator.h"',
        f'#line 1 "{name}"',
        rewrite_shared(source),
        "",
        "// Entry points, one per kernel.",
    ]
    for k in found:
        parts.append(
            f'extern "C" int xhip_emu_launch_{k.name}(unsigned gx, unsigned gy, '
            "unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned long long "
            "shared, int warp_size, int order, unsigned seed, unsigned long long "
            "max_shared, int flush, void** args) {\n"
            f"  return ::xhip_emu::launch_kernel({k.name}, gx, gy, gz, bx, by, bz, "
            "shared, warp_size, order, seed, max_shared, flush, args);\n}\n"
            f'extern "C" const char* xhip_emu_signature_{k.name}(void) {{\n'
            f"  return ::xhip_emu::signature({k.name});\n}}\n"
            f'extern "C" const char* xhip_emu_alignments_{k.name}(void) {{\n'
            f"  return ::xhip_emu::alignments({k.name});\n}}"
        )
    parts += [
        'extern "C" const char* xhip_emu_error(void) { return ::xhip_emu::g.error.c_str(); }',
        'extern "C" unsigned long long xhip_emu_fault(void) { return ::xhip_emu::g.fault; }',
        'extern "C" void xhip_emu_set_memory(const unsigned long long* watched, '
        "unsigned long long watched_count, const unsigned long long* allowed, "
        "unsigned long long allowed_count) {\n"
        "  ::xhip_emu::set_memory(watched, watched_count, allowed, allowed_count);\n}",
    ]
    return "\n".join(parts) + "\n"


def header_dir() -> Path:
    """The folder of `emulator.h` (a real folder: the package is installed as files)."""
    return Path(str(resources.files("xhip.testing.emulator")))


def cache_dir() -> Path:
    """Where built libraries live: $XHIP_EMULATOR_CACHE, else a per-user temp folder."""
    env = os.environ.get("XHIP_EMULATOR_CACHE")
    if env:
        return Path(env)
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"xhip-emulator-{uid}"


def compiler() -> str:
    """The host C++ compiler: $CXX, else g++."""
    found = shutil.which(os.environ.get("CXX", "g++"))
    if found is None:
        raise EmulatorUnavailable(
            "the kernel emulator needs a host C++ compiler (apt-get install g++)"
        )
    return found


def build(source: str, name: str = "kernels.cu") -> tuple[Path, str]:
    """The shared library of `source` and the compiler's output, built once per content.

    Cached by a hash of the generated file, the header, the flags and the
    compiler's version; written under a temporary name and renamed, so
    parallel test workers never load a half-written library.
    """
    cxx = compiler()
    unit = translation_unit(source, name)
    header = (header_dir() / "emulator.h").read_bytes()
    version = subprocess.run(
        [cxx, "--version"], capture_output=True, text=True, check=False
    ).stdout
    key = hashlib.sha256(
        b"\0".join([unit.encode(), header, " ".join(FLAGS).encode(), version.encode()])
    ).hexdigest()[:24]
    folder = cache_dir()
    library, log = folder / f"kernels-{key}.so", folder / f"kernels-{key}.log"
    with _BUILD_LOCK:
        if library.exists() and log.exists():
            return library, log.read_text()
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            cpp, obj = Path(tmp) / "unit.cpp", Path(tmp) / "unit.o"
            cpp.write_text(unit)
            out = Path(tmp) / "unit.so"
            output = ""
            for command in (
                [cxx, *FLAGS, "-I", str(header_dir()), "-c", str(cpp), "-o", str(obj)],
                [cxx, "-shared", str(obj), "-o", str(out)],
            ):
                result = subprocess.run(
                    command, capture_output=True, text=True, check=False
                )
                output += result.stdout + result.stderr
                if result.returncode != 0:
                    raise EmulatorError(f"{cxx} failed on {name}:\n{output}")
            Path(tmp, "unit.log").write_text(output)
            os.replace(Path(tmp, "unit.log"), log)
            os.replace(out, library)
        return library, output


def _dims(value: Dims, what: str) -> tuple[int, int, int]:
    dims = (value,) if isinstance(value, int) else tuple(value)
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"{what}: 1 to 3 dims, got {value!r}")
    x, y, z = (*dims, 1, 1)[:3]
    return int(x), int(y), int(z)


class EmulatedKernels:
    """A kernel source run on the CPU: `launch` has the shape of `KernelRuntime._launch`.

    "ptr" arguments are host addresses (`array.ctypes.data`), so a runtime
    whose device memory is host memory can launch these in place of NVRTC's
    or hiprtc's module. Launches are serialised: the emulator has one state.
    """

    def __init__(
        self,
        source: str | None = None,
        name: str = "xhip_kernels.h",
        max_shared: int = CUDA_DEFAULT_SHARED,
    ):
        if source is None:
            source = kernel_source()
        self.source = source
        self.max_shared = max_shared
        self.kernels = {k.name: k for k in kernels(source)}
        self.library_path, self.build_log = build(source, name)
        self._library = ctypes.CDLL(str(self.library_path))
        self._library.xhip_emu_error.restype = ctypes.c_char_p
        self._library.xhip_emu_fault.restype = ctypes.c_ulonglong
        self._set_memory = self._library.xhip_emu_set_memory
        self._set_memory.restype = None
        self._set_memory.argtypes = [ctypes.c_void_p, ctypes.c_ulonglong] * 2
        self._lock = threading.Lock()
        self.signatures: dict[str, tuple[str, ...]] = {}
        self.alignments: dict[str, tuple[int, ...]] = {}
        """The alignment each pointer parameter's type needs (0: not a pointer)."""
        for kernel in self.kernels:
            self.signatures[kernel] = self._fields(f"xhip_emu_signature_{kernel}")
            self.alignments[kernel] = tuple(
                map(int, self._fields(f"xhip_emu_alignments_{kernel}"))
            )
            entry = getattr(self._library, f"xhip_emu_launch_{kernel}")
            entry.restype = ctypes.c_int
            entry.argtypes = [ctypes.c_uint] * 6 + [
                ctypes.c_ulonglong,
                ctypes.c_int,
                ctypes.c_int,
                ctypes.c_uint,
                ctypes.c_ulonglong,
                ctypes.c_int,
                ctypes.POINTER(ctypes.c_void_p),
            ]

    def _fields(self, function: str) -> tuple[str, ...]:
        """The comma-separated fields a `const char* f(void)` entry returns."""
        entry = getattr(self._library, function)
        entry.restype = ctypes.c_char_p
        text = entry().decode()
        return tuple(text.split(",")) if text else ()

    @property
    def names(self) -> list[str]:
        return list(self.kernels)

    def _values(
        self, kernel: str, args: Sequence[KernelArg]
    ) -> list[ctypes._SimpleCData]:
        want = self.signatures[kernel]
        params = self.kernels[kernel].params
        if len(args) != len(want):
            raise TypeError(f"{kernel} takes {len(want)} arguments, got {len(args)}")
        values: list[ctypes._SimpleCData] = []
        for i, ((kind, value), param) in enumerate(zip(args, want)):
            label = params[i] if i < len(params) else str(i)
            if kind not in _ACCEPTS or param not in _ACCEPTS[kind]:
                raise TypeError(
                    f"{kernel} argument {i} ({label}): a {param}, got {kind}"
                )
            align = self.alignments[kernel][i]
            if kind == "ptr" and align and int(value) % align:
                raise MemoryFault(
                    f"{kernel} argument {i} ({label}): {int(value):#x} is not "
                    f"{align}-byte aligned, as its pointer type needs (a GPU "
                    "faults on the access)",
                    int(value),
                )
            if kind in ("i32", "i64"):
                bits = 32 if kind == "i32" else 64
                low = 0 if param.startswith("u") else -(1 << (bits - 1))
                if not low <= int(value) < low + (1 << bits):
                    raise OverflowError(
                        f"{kernel} argument {i} ({label}): {value} is not a {param}"
                    )
            values.append(_CTYPES[kind](value))
        return values

    def launch(
        self,
        kernel: str,
        grid: Dims,
        block: Dims,
        shared: int,
        args: Sequence[KernelArg],
        warp_size: int = 32,
        *,
        order: Order = "forward",
        seed: int = 0,
        denormals: Denormals = "keep",
        memory: DeviceMemory | None = None,
    ) -> None:
        """Run `kernel` over the whole grid, every block with all its threads.

        `order` is the order a block's threads run between barriers: results
        that change with it reveal a race (a missing `__syncthreads`).
        `denormals` is how float subnormals behave; `memory`, when given,
        turns on the bounds checks of device-memory accesses.
        """
        if kernel not in self.kernels:
            raise KeyError(f"no kernel {kernel!r} in the source")
        values = self._values(kernel, args)
        pointers = (ctypes.c_void_p * max(1, len(values)))(
            *(ctypes.addressof(v) for v in values)
        )
        entry = getattr(self._library, f"xhip_emu_launch_{kernel}")
        watched = allowed = np.zeros((0, 2), np.uint64)
        if memory is not None:
            watched = np.ascontiguousarray(memory.watched, np.uint64)
            extents = sorted({e for e in memory.extents if e is not None})
            allowed = np.array(extents, np.uint64).reshape(-1, 2)
        with self._lock:
            self._set_memory(
                watched.ctypes.data, len(watched), allowed.ctypes.data, len(allowed)
            )
            status = entry(
                *_dims(grid, "grid"),
                *_dims(block, "block"),
                shared,
                warp_size,
                _ORDERS[order],
                seed & 0xFFFFFFFF,
                self.max_shared,
                _DENORMALS[denormals],
                pointers,
            )
            if status != 0:
                message = (self._library.xhip_emu_error() or b"").decode()
                fault = int(self._library.xhip_emu_fault())
                if fault:
                    blame = self._blame(kernel, args, fault, memory)
                    raise MemoryFault(f"{kernel}: {message}; {blame}", fault)
                raise EmulatorError(f"{kernel}: {message}")

    def _blame(
        self,
        kernel: str,
        args: Sequence[KernelArg],
        address: int,
        memory: DeviceMemory | None,
    ) -> str:
        """The pointer argument a faulting access at `address` most likely went
        through: the one whose allocation holds it or lies nearest, else (no
        allocations known) the nearest pointer at or below it."""
        params = self.kernels[kernel].params
        best: tuple[int, int] | None = None  # (distance, argument)
        for i, (kind, value) in enumerate(args):
            if kind != "ptr" or not value:
                continue
            extent = memory.extents[i] if memory is not None else None
            if extent is not None:
                distance = max(extent[0] - address, address - extent[1] + 1, 0)
            elif int(value) <= address:
                distance = address - int(value)
            else:
                continue
            if best is None or distance < best[0]:
                best = (distance, i)
        if best is None:
            return "no pointer argument points near it"
        i = best[1]
        label = params[i] if i < len(params) else str(i)
        value = int(args[i][1])
        text = f"through argument {i} ({label}) = {value:#x}"
        extent = memory.extents[i] if memory is not None else None
        if extent is not None:
            lo, hi = extent
            text += f", whose allocation is [{lo:#x}, {hi:#x}) ({hi - lo} bytes)"
            if address >= hi:
                text += f": {address - hi} bytes past its end"
            elif address < lo:
                text += f": {lo - address} bytes before its start"
        return text


class Guarded:
    """A host array with poisoned guard bytes on both sides, to catch stray writes.

    Pass `address` to a kernel (or `array`'s views); `check()` raises if a
    kernel wrote outside `array`.
    """

    GUARD = 256

    def __init__(self, array: np.ndarray):
        self._raw = np.full(array.nbytes + 2 * self.GUARD, 0xA5, dtype=np.uint8)
        self.array = (
            self._raw[self.GUARD : self.GUARD + array.nbytes]
            .view(array.dtype)
            .reshape(array.shape)
        )
        self.array[...] = array

    @property
    def address(self) -> int:
        return self._raw.ctypes.data + self.GUARD

    def check(self) -> None:
        head, tail = (
            self._raw[: self.GUARD],
            self._raw[self.GUARD + self.array.nbytes :],
        )
        if (head != 0xA5).any() or (tail != 0xA5).any():
            raise AssertionError("a kernel wrote outside its array")
