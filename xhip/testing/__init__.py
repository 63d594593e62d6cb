"""Helpers for tests that compare IR: parse text into a module the same way every time."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType

from xdsl.dialects.builtin import ModuleOp

from xhip.context import parse_module

__all__ = ["count_calls", "parse_module", "structurally_equal"]


def structurally_equal(a: str | ModuleOp, b: str | ModuleOp) -> bool:
    """Modules equal up to SSA names (each side re-parsed from text if given as text)."""
    left = parse_module(a) if isinstance(a, str) else a
    right = parse_module(b) if isinstance(b, str) else b
    return left.is_structurally_equivalent(right)


def count_calls(action: Callable[[], object]) -> int:
    """How many Python function calls `action` makes.

    A deterministic measure of work for tests that guard a pass's complexity:
    timing would fail on a loaded machine, a count does not.
    """
    calls = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(previous)
    return calls
