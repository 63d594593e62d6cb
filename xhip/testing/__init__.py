"""Helpers for tests that compare IR: parse text into a module the same way every time."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from types import FrameType

from xdsl.dialects.builtin import ModuleOp

from xhip.context import parse_module

__all__ = ["calls_by_function", "count_calls", "parse_module", "structurally_equal"]


def structurally_equal(a: str | ModuleOp, b: str | ModuleOp) -> bool:
    """Modules equal up to SSA names (each side re-parsed from text if given as text)."""
    left = parse_module(a) if isinstance(a, str) else a
    right = parse_module(b) if isinstance(b, str) else b
    return left.is_structurally_equivalent(right)


def calls_by_function(action: Callable[[], object]) -> Counter[tuple[str, str]]:
    """How many times `action` calls each Python function, by (file, name).

    A deterministic measure of work for tests that guard a pass's complexity
    or a replay's emptiness: timing would fail on a loaded machine, a count
    does not.
    """
    seen: Counter[tuple[str, str]] = Counter()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            code = frame.f_code
            seen[code.co_filename, code.co_name] += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(previous)
    return seen


def count_calls(action: Callable[[], object]) -> int:
    """How many Python function calls `action` makes (`calls_by_function`)."""
    return sum(calls_by_function(action).values())
