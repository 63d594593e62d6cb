"""Composite passes: a pass that is a fixed sequence of other passes.

`onnx-to-hip` and `buffer-deallocation-pipeline` are composite. Our own tools
run their stages one by one with `expand_composite_passes`. For `xdsl-opt`,
importing this module calls `teach_xdsl_opt_composite_passes()`: xdsl-opt
imports a pass's module when it looks the pass up, while it parses `-p`, so
every composite pass is expanded before xdsl-opt applies its pipeline.

`quote_pass_option_values` lets a pass-option value be an unquoted path, as in
MLIR (`onnx-to-hip{externalize-output-dir=/tmp}`), where xDSL's lexer wants
`"/tmp"`; `teach_xdsl_opt_unquoted_option_values()` applies it to `xdsl-opt -p`.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import replace

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass, PassPipeline
from xdsl.xdsl_opt_main import xDSLOptMain


class CompositePass(ModulePass, ABC):
    """A pass that is a fixed sequence of other passes."""

    @abstractmethod
    def parts(self) -> Iterable[ModulePass]: ...

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PassPipeline(tuple(self.parts())).apply(ctx, op)


def expand_composite_passes(passes: Iterable[ModulePass]) -> Iterator[ModulePass]:
    """The passes with every composite pass replaced, recursively, by its parts."""
    for p in passes:
        if isinstance(p, CompositePass):
            yield from expand_composite_passes(p.parts())
        else:
            yield p


def teach_xdsl_opt_composite_passes() -> None:
    """Make `xdsl-opt` run every `CompositePass` of its pipeline part by part.

    `--print-between-passes`, `--time-passes` and verification work through the
    callback of the `PassPipeline` xdsl-opt builds, which sees a composite pass
    as one step; xDSL (0.75 included) has no hook to expand a pass into several.
    So this wraps `xDSLOptMain.apply_passes` to replace the composite passes of
    `self.pipeline` by their parts first. Pipelines without composite passes run
    unchanged; calling it again does nothing.
    """
    apply_passes = xDSLOptMain.apply_passes
    if getattr(apply_passes, "expands_composite_passes", False):
        return

    def apply_passes_expanded(self: xDSLOptMain, prog: builtin.ModuleOp) -> None:
        passes = tuple(expand_composite_passes(self.pipeline.passes))
        self.pipeline = replace(self.pipeline, passes=passes)
        apply_passes(self, prog)

    # The marker `getattr` reads above, set through the function's own dict.
    apply_passes_expanded.__dict__["expands_composite_passes"] = True
    xDSLOptMain.apply_passes = apply_passes_expanded


_PLAIN_VALUE = re.compile(r"[-+]?[0-9]+(\.[0-9]*([eE][-+]?[0-9]+)?)?|[A-Za-z0-9_-]+")
"""A value xDSL's pass-option lexer reads as one token (a number or an identifier)."""

_RAW_VALUE = re.compile(r"[^\s,{}\"']+")
"""An unquoted value: up to a space, a comma (xDSL's list separator) or a brace."""


def quote_pass_option_values(spec: str) -> str:
    """`spec` with every pass-option value xDSL's lexer cannot read made a string.

    An unquoted value that is not one number or identifier (`/tmp`, `./out`,
    `a.b`) becomes `"/tmp"`, and a single-quoted one (`'a b'`, MLIR's other
    quotes) a double-quoted one. Any spec that parses already is returned
    unchanged: a value is quoted only where xDSL would stop with "Unknown
    token" or "Malformed pass arguments".
    """
    out: list[str] = []
    i, depth, n = 0, 0, len(spec)
    while i < n:
        c = spec[i]
        if c == "[" and depth == 0:  # `mlir-opt[...]`: MLIR's own pipeline text
            end = spec.find("]", i)
            end = n if end < 0 else end + 1
            out.append(spec[i:end])
            i = end
            continue
        if c == '"':  # a string literal: copied up to its closing quote
            j = i + 1
            while j < n and spec[j] != '"':
                j += 2 if spec[j] == "\\" else 1
            out.append(spec[i : j + 1])
            i = j + 1
            continue
        out.append(c)
        i += 1
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth == 0 or c not in "=,":
            continue
        if i < n and spec[i] == "'":
            end = spec.find("'", i + 1)
            if end < 0:
                continue  # left for xDSL to report
            out.append(_string_literal(spec[i + 1 : end]))
            i = end + 1
        elif (raw := _RAW_VALUE.match(spec, i)) is not None:
            value = raw.group()
            plain = _PLAIN_VALUE.fullmatch(value) is not None
            out.append(value if plain else _string_literal(value))
            i = raw.end()
    return "".join(out)


def _string_literal(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def teach_xdsl_opt_unquoted_option_values() -> None:
    """Make `xdsl-opt -p` accept unquoted paths as pass-option values.

    xDSL (0.75 included) lexes `-p` with a fixed token list and has no hook to
    extend it, so this wraps `xDSLOptMain.setup_pipeline` to pass `-p` through
    `quote_pass_option_values` first. It must run before xdsl-opt parses `-p`:
    `xhip.universe`, which xdsl-opt imports to find xhip's passes, calls it when
    xdsl-opt is running. Calling it again does nothing.
    """
    setup_pipeline = xDSLOptMain.setup_pipeline
    if getattr(setup_pipeline, "quotes_option_values", False):
        return

    def setup_pipeline_quoted(self: xDSLOptMain) -> None:
        self.args.passes = quote_pass_option_values(self.args.passes)
        setup_pipeline(self)

    setup_pipeline_quoted.__dict__["quotes_option_values"] = True
    xDSLOptMain.setup_pipeline = setup_pipeline_quoted


teach_xdsl_opt_composite_passes()
teach_xdsl_opt_unquoted_option_values()
