"""Running the final IR: runtimes (cpu, hip, cuda), the interpreter, sessions.

`runtime_for(device)` is the one place that maps a device name to a runtime
and applies the fallback rules (docs/runtime.md):

- `cpu`, `hip`, `cuda`: that runtime, or `DeviceUnavailable` with one line
  saying what is missing;
- `auto`: the first of hip, cuda that works, else cpu, with a note to stderr.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from xhip.backend.runtime import DeviceUnavailable, Runtime

DEVICES = ("cpu", "hip", "cuda", "auto")


def __getattr__(name: str) -> Any:
    """`DeviceUnavailable` and `Runtime` on first use: `xhip --help` reads
    `DEVICES` from here, and the runtime module brings the hip dialect."""
    if name in ("DeviceUnavailable", "Runtime"):
        from xhip.backend import runtime  # lazy: see the docstring

        return getattr(runtime, name)
    raise AttributeError(f"module 'xhip.backend' has no attribute {name!r}")


def runtime_for(
    device: str = "cpu",
    debug: bool = False,
    notes: TextIO | None = None,
    graphs: bool = True,
) -> Runtime:
    """The runtime for `device`; GPU libraries are imported only here, lazily.
    `graphs=False`: a GPU replays bound plans call by call, never as a device
    graph (docs/runtime.md)."""
    # lazy: the runtime module brings the hip dialect (see `__getattr__`)
    from xhip.backend.runtime import DeviceUnavailable

    if device == "cpu":
        # lazy: `xhip --help` imports this package; a runtime loads when chosen
        from xhip.backend.cpu import CpuRuntime

        return CpuRuntime(debug=debug)
    if device == "hip":
        from xhip.backend.hip import HipRuntime  # lazy: loads when chosen

        return HipRuntime(debug=debug, graphs=graphs)
    if device == "cuda":
        from xhip.backend.cuda import CudaRuntime  # lazy: loads when chosen

        return CudaRuntime(debug=debug, graphs=graphs)
    if device == "auto":
        reasons: list[str] = []
        for gpu in ("hip", "cuda"):
            try:
                return runtime_for(gpu, debug, graphs=graphs)
            except DeviceUnavailable as e:
                reasons.append(str(e))
        print(
            "xhip: --device auto: no GPU runtime available, running on the CPU "
            f"({'; '.join(reasons)})",
            file=notes or sys.stderr,
        )
        return runtime_for("cpu", debug)
    raise DeviceUnavailable(
        f"--device {device}: unknown device; choose one of {', '.join(DEVICES)}"
    )


__all__ = ["DEVICES", "DeviceUnavailable", "Runtime", "runtime_for"]
