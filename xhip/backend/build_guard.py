"""The builder of `hip.guard`: the values read back against those a
specialization was compiled for; a mismatch raises `GuardFailed`, which the
specializing model (`xhip.specialize`) answers by building the right one."""

from __future__ import annotations

from xhip.backend.build_env import BuildEnv, OpFn
from xhip.backend.build_hip import HIP
from xhip.dialects import hip


class GuardFailed(RuntimeError):
    """A specialization ran on values it was not built for: its outputs would
    be wrong, so the call stops."""

    def __init__(self, got: tuple[int, ...], expected: tuple[int, ...]):
        super().__init__(
            f"hip.guard: read {list(got)}, the specialization assumes {list(expected)}"
        )
        self.got = got
        self.expected = expected


@HIP.of(hip.GuardOp)
def _build_guard(op: hip.GuardOp, env: BuildEnv) -> OpFn:
    expected = op.expected_values()

    def guard(*values: int) -> None:
        if values != expected:
            raise GuardFailed(values, expected)

    return guard
