"""`TypedPatternApplier`: xDSL's `GreedyRewritePatternApplier` that tries on an
op only the patterns that can match its class.

xDSL's applier calls every pattern in turn on every op until one acts, and
most patterns start with `isinstance(op, T)` and return (the ones written with
`op_type_rewrite_pattern`, and `convert-onnx-to-hip`'s `OnnxPattern`s, one
per ONNX op type): at 100 attention layers, 20,000 calls in
`convert-onnx-to-hip` and 22,000 in `one-shot-bufferize` for some 4,000 ops
that one pattern each converts. Here each op class gets, once, the patterns
that can match it, in their order: the same first pattern acts, so the output
is the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import UnionType
from typing import Any, Union, get_args, get_origin

from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
)
from xdsl.transforms import dead_code_elimination


def matched_types(pattern: RewritePattern) -> tuple[type[Operation], ...] | None:
    """The op classes `pattern` can act on, where it says so: its
    `matched_op_types()` if it has one, or the type of its
    `op_type_rewrite_pattern` method; None: any op."""
    declared = getattr(pattern, "matched_op_types", None)
    if callable(declared):
        return _as_types(declared())
    return op_type_pattern_types(pattern)


def op_type_pattern_types(
    pattern: RewritePattern,
) -> tuple[type[Operation], ...] | None:
    """The op classes of `pattern`'s `op_type_rewrite_pattern` method, which
    returns at once for an op of any other class; None for another method."""
    method: Any = type(pattern).match_and_rewrite
    code = getattr(method, "__code__", None)
    closure = getattr(method, "__closure__", None)
    if (
        code is None
        or closure is None
        or getattr(method, "__qualname__", "")
        != "op_type_rewrite_pattern.<locals>.impl"
        or "expected_type" not in code.co_freevars
    ):
        return None
    return _as_types(closure[code.co_freevars.index("expected_type")].cell_contents)


def _as_types(expected: object) -> tuple[type[Operation], ...] | None:
    if expected is None:
        return None
    if isinstance(expected, tuple):
        members: tuple[object, ...] = expected  # pyright: ignore[reportUnknownVariableType]
    elif get_origin(expected) in (Union, UnionType):
        members = get_args(expected)
    else:
        members = (expected,)
    if not all(isinstance(t, type) and issubclass(t, Operation) for t in members):
        return None
    return tuple(t for t in members if isinstance(t, type))


class TypedPatternApplier(GreedyRewritePatternApplier):
    """`GreedyRewritePatternApplier` (no folding) trying, per op class, only
    the patterns `matched_types` says can match it, in the list's order."""

    def __init__(
        self, rewrite_patterns: Sequence[RewritePattern], *, dce_enabled: bool = True
    ) -> None:
        super().__init__(list(rewrite_patterns), dce_enabled=dce_enabled)
        self._types = [matched_types(p) for p in self.rewrite_patterns]
        self._by_class: dict[type[Operation], tuple[RewritePattern, ...]] = {}

    def extend(self, rewrite_patterns: Sequence[RewritePattern]) -> None:
        """Take `rewrite_patterns`, the list so far with patterns added
        anywhere in it, none of which can match an op class already met (so
        the patterns each such class was given stay right)."""
        types = {id(p): t for p, t in zip(self.rewrite_patterns, self._types)}
        self.rewrite_patterns = list(rewrite_patterns)
        self._types = [
            types[id(p)] if id(p) in types else matched_types(p)
            for p in self.rewrite_patterns
        ]

    def has_met(self, cls: type[Operation]) -> bool:
        """Whether the patterns for op class `cls` have been picked."""
        return cls in self._by_class

    def patterns_for(self, cls: type[Operation]) -> tuple[RewritePattern, ...]:
        """The patterns that can match an op of class `cls`, in order."""
        found = self._by_class.get(cls)
        if found is None:
            found = self._by_class[cls] = tuple(
                pattern
                for pattern, types in zip(self.rewrite_patterns, self._types)
                if types is None or issubclass(cls, types)
            )
        return found

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if self.dce_enabled and dead_code_elimination.is_trivially_dead(op):
            rewriter.erase(op)
            return
        for pattern in self.patterns_for(type(op)):
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return
