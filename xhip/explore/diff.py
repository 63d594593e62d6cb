"""The change between two stages: a unified diff for terminals, and HTML with
changed lines (and the changed parts of each line) highlighted for notebooks."""

from __future__ import annotations

import difflib
import html
import re
from dataclasses import dataclass, field
from typing import Protocol

STYLE = {
    "+": "background:#e6ffec",
    "-": "background:#ffebe9",
    "@": "color:#6f42c1;background:#f6f8fa",
    " ": "",
}
MARK = {"+": "background:#abf2bc", "-": "background:#ffb3ad"}
_TOKEN = re.compile(r"[%@#^]?[\w.$]+|\s+|.")


class HasText(Protocol):
    @property
    def title(self) -> str: ...
    @property
    def text(self) -> str: ...


@dataclass
class Diff:
    """`before` -> `after` as a unified diff with `context` lines around changes."""

    before: HasText
    after: HasText
    context: int = 3
    lines: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.lines = list(
            difflib.unified_diff(
                self.before.text.splitlines(),
                self.after.text.splitlines(),
                self.before.title,
                self.after.title,
                n=self.context,
                lineterm="",
            )
        )

    @property
    def changed(self) -> bool:
        return bool(self.lines)

    @property
    def added(self) -> int:
        return sum(1 for line in self.lines[2:] if line.startswith("+"))

    @property
    def removed(self) -> int:
        return sum(1 for line in self.lines[2:] if line.startswith("-"))

    @property
    def headline(self) -> str:
        if not self.changed:
            return f"{self.before.title} -> {self.after.title}: no change"
        return (
            f"{self.before.title} -> {self.after.title}: "
            f"+{self.added} -{self.removed} lines"
        )

    def __str__(self) -> str:
        return "\n".join(self.lines) if self.changed else self.headline

    def __repr__(self) -> str:
        return f"<Diff {self.headline}>"

    def _repr_html_(self) -> str:
        if not self.changed:
            return f"<p><i>{html.escape(self.headline)}</i></p>"
        body = self.lines[2:]
        rows: list[str] = []
        i = 0
        while i < len(body):
            # Pair a run of removed lines with the run of added lines after it,
            # so that the changed characters of each pair can be marked.
            j = i
            while j < len(body) and body[j].startswith("-"):
                j += 1
            k = j
            while k < len(body) and body[k].startswith("+"):
                k += 1
            if j > i and k > j:
                old, new = body[i:j], body[j:k]
                pairs = min(len(old), len(new))
                marked = [_mark_pair(o[1:], n[1:]) for o, n in zip(old, new)]
                rows += [_row("-", m[0]) for m in marked[:pairs]]
                rows += [_row("-", html.escape(o[1:])) for o in old[pairs:]]
                rows += [_row("+", m[1]) for m in marked[:pairs]]
                rows += [_row("+", html.escape(n[1:])) for n in new[pairs:]]
                i = k
                continue
            line = body[i]
            kind = line[0] if line[:1] in STYLE else " "
            text = line if kind == "@" else line[1:]
            rows.append(_row(kind, html.escape(text)))
            i += 1
        return (
            f"<p><b>{html.escape(self.headline)}</b></p>"
            "<pre style='font-size:80%;line-height:1.25;white-space:pre'>"
            + "".join(rows)
            + "</pre>"
        )

    def side_by_side_html(self, wrap: int = 90) -> str:
        """The two stages side by side (`difflib.HtmlDiff`), changes only."""
        table = difflib.HtmlDiff(wrapcolumn=wrap).make_table(
            self.before.text.splitlines(),
            self.after.text.splitlines(),
            self.before.title,
            self.after.title,
            context=True,
            numlines=self.context,
        )
        return f"<style>{_HTMLDIFF_STYLE}</style>{table}"


def _row(kind: str, escaped: str) -> str:
    sign = "" if kind == "@" else kind
    style = STYLE[kind]
    return f"<div style='{style}'>{html.escape(sign)}{escaped}</div>"


def _mark_pair(old: str, new: str) -> tuple[str, str]:
    """Both lines as HTML with the tokens that differ highlighted (tokens, not
    characters: `%alloc` -> `%18` is one change, not three)."""
    old_tokens, new_tokens = _TOKEN.findall(old), _TOKEN.findall(new)
    matcher = difflib.SequenceMatcher(None, old_tokens, new_tokens, autojunk=False)
    chunks: list[tuple[bool, str, str]] = []
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        a, b = "".join(old_tokens[a0:a1]), "".join(new_tokens[b0:b1])
        changed = tag != "equal"
        if chunks and (changed or not a.strip()) and chunks[-1][0]:
            # Join changes separated only by blanks into one mark.
            _, pa, pb = chunks.pop()
            a, b, changed = pa + a, pb + b, True
        chunks.append((changed, a, b))
    left = "".join(_marked(changed, a, "-") for changed, a, _ in chunks)
    right = "".join(_marked(changed, b, "+") for changed, _, b in chunks)
    return left, right


def _marked(changed: bool, text: str, kind: str) -> str:
    if not changed or not text:
        return html.escape(text)
    return f"<span style='{MARK[kind]}'>{html.escape(text)}</span>"


_HTMLDIFF_STYLE = (
    "table.diff {font-family:monospace;font-size:80%;border:medium}"
    ".diff_header {background-color:#e0e0e0}"
    "td.diff_header {text-align:right}"
    ".diff_next {background-color:#c0c0c0}"
    ".diff_add {background-color:#aaffaa}"
    ".diff_chg {background-color:#ffff77}"
    ".diff_sub {background-color:#ffaaaa}"
)
