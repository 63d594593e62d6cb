"""Progress of a long import or compile: events, and a line on the terminal.

The importer and the pipeline call a `ProgressCallback` with a
`ProgressEvent` at each step (`xhip.compile(..., progress=...)` takes one).
`TerminalProgress` is the callback the command line uses: it says nothing
for the first `delay` seconds, so a quick compile prints nothing, and then
keeps one line on stderr up to date (phase, step, how far), from a thread so
that the line ticks on while one long pass runs. It writes only to a terminal,
and `--quiet` turns it off (`terminal_progress`). Nothing here imports xDSL:
the command line builds it before it knows whether it will compile.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import TextIO


@dataclass(frozen=True)
class ProgressEvent:
    """`done` of `total` steps of `phase` are finished; `step` is the one
    running now (a pass name, or what the importer is doing)."""

    phase: str
    """"import" or "compile"."""

    step: str
    done: int
    total: int

    def describe(self) -> str:
        """`compile: pass 3/21 one-shot-bufferize`, `import: node 812/1585 MatMul`."""
        unit = "pass" if self.phase == "compile" else "node" if self.total > 1 else ""
        count = f"{unit} {min(self.done + 1, self.total)}/{self.total} " if unit else ""
        return f"{self.phase}: {count}{self.step}".rstrip()


ProgressCallback = Callable[[ProgressEvent], None]

DELAY_ENV = "XHIP_PROGRESS_DELAY"
"""Seconds of silence before the line appears (default 2; tests set 0)."""


class TerminalProgress:
    """One line on `stream`, rewritten in place, once a run has taken `delay`
    seconds; cleared when the run ends. Use it as a context manager."""

    def __init__(
        self, stream: TextIO, delay: float = 2.0, interval: float = 0.25
    ) -> None:
        self.stream = stream
        self.delay = delay
        self.interval = interval
        self.latest: ProgressEvent | None = None
        self.shown = False
        self._start = time.monotonic()
        self._written = -interval
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)

    def __call__(self, event: ProgressEvent) -> None:
        self.latest = event
        if time.monotonic() - self._written >= self.interval:
            self._show()

    def __enter__(self) -> TerminalProgress:
        self._start = time.monotonic()
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()
        with self._lock:
            if self.shown:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
                self.shown = False

    def _tick(self) -> None:
        """Rewrite the line now and then, so it ticks on during a long pass."""
        while not self._stop.wait(self.interval):
            self._show()

    def _show(self) -> None:
        with self._lock:
            now = time.monotonic()
            elapsed = now - self._start
            event = self.latest
            if event is None or elapsed < self.delay or self._stop.is_set():
                return
            self.stream.write(f"\r\x1b[Kxhip: {event.describe()} ({elapsed:.0f} s)")
            self.stream.flush()
            self.shown = True
            self._written = now


class _Silent:
    """The do-nothing stand-in for `TerminalProgress` (quiet, or no terminal)."""

    def __call__(self, event: ProgressEvent) -> None:
        pass

    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def terminal_progress(
    quiet: bool = False, stream: TextIO | None = None
) -> TerminalProgress | _Silent:
    """The command line's progress line on stderr: silent when `quiet` or when
    stderr is not a terminal (a pipe or a log file gets no `\\r` noise)."""
    out: TextIO = sys.stderr if stream is None else stream
    if quiet or not out.isatty():
        return _Silent()
    delay = float(os.environ.get(DELAY_ENV, "2"))
    return TerminalProgress(out, delay=delay)


__all__ = [
    "DELAY_ENV",
    "ProgressCallback",
    "ProgressEvent",
    "TerminalProgress",
    "terminal_progress",
]
