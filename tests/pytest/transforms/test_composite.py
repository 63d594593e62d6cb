"""Composite passes: expansion, and the one patch of xDSL's `xdsl-opt` driver."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.passes import ModulePass
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)
from xdsl.xdsl_opt_main import xDSLOptMain

from xhip.transforms.composite import (
    CompositePass,
    expand_composite_passes,
    teach_xdsl_opt_composite_passes,
)


@dataclass(frozen=True)
class _Inner(CompositePass):
    name = "test-inner"

    def parts(self) -> list[ModulePass]:
        return [CommonSubexpressionElimination(), CanonicalizePass()]


@dataclass(frozen=True)
class _Outer(CompositePass):
    name = "test-outer"

    def parts(self) -> list[ModulePass]:
        return [_Inner(), CommonSubexpressionElimination()]


def test_expansion_is_recursive_and_keeps_other_passes() -> None:
    passes = [CanonicalizePass(), _Outer()]
    assert [p.name for p in expand_composite_passes(passes)] == [
        "canonicalize",
        "cse",
        "canonicalize",
        "cse",
    ]


def test_xdsl_opt_is_taught_once() -> None:
    """Importing the module wraps `apply_passes`; calling it again does not wrap
    the wrapper (the behaviour is tested in tests/pytest/test_pipeline.py)."""
    wrapped = xDSLOptMain.apply_passes
    assert getattr(wrapped, "expands_composite_passes", False)
    teach_xdsl_opt_composite_passes()
    assert xDSLOptMain.apply_passes is wrapped
