"""What the subcommands share: the user error, reading a model, writing outputs.

Outputs are written to a temporary file next to their destination and renamed
into place only once complete, so a failed command leaves nothing half-written.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING

from xhip.progress import ProgressCallback

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass


class UserError(Exception):
    """Something the user can fix; its message is the one line they see."""


def add_quiet_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help=(
            "no progress line (an import or compile that takes more than 2 s "
            "otherwise shows its step on stderr, when stderr is a terminal)"
        ),
    )


def first_line(message: str) -> str:
    """The first non-blank line of `message`, stripped."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    return lines[0] if lines else "(no message)"


def whole_message(message: str) -> str:
    """Every non-blank line of `message` on one line: a header and its list
    (`convert-onnx-to-hip: 2 op(s) cannot be converted: a; b`)."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if not lines:
        return "(no message)"
    head, *rest = lines
    return f"{head} {'; '.join(rest)}" if rest else head


def import_onnx(path: str, progress: ProgressCallback | None = None) -> ModuleOp:
    """The `onnx`-dialect module of an `.onnx` file; import errors are user errors."""
    # lazy: onnx and the importer stay out of the CLI's start-up
    from xhip.frontend.onnx_importer import OnnxImportError, import_model

    try:
        return import_model(path, progress=progress)
    except OnnxImportError as e:
        raise UserError(str(e)) from e


@contextlib.contextmanager
def atomic_output(path: str | None) -> Iterator[IO[str]]:
    """A text stream that becomes `path` only if the block succeeds.

    `None` or `-` is stdout.
    """
    if path is None or path == "-":
        yield sys.stdout
        return
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise UserError(f"{path}: directory {directory} does not exist")
    if os.path.isdir(path):
        raise UserError(f"{path}: is a directory; give a file name")
    try:
        fd, tmp = tempfile.mkstemp(
            dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp"
        )
    except OSError as e:
        raise UserError(f"{path}: cannot write: {e.strerror}") from None
    try:
        with os.fdopen(fd, "w") as stream:
            yield stream
        os.chmod(tmp, 0o666 & ~umask())
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise UserError(f"{path}: cannot write: {e.strerror}") from None
        raise


@contextlib.contextmanager
def collector_paused(whole_process: bool = False) -> Iterator[None]:
    """Python's cyclic garbage collector off for the block, which loads modules:
    some half a million long-lived objects (xDSL builds every op class as its
    module loads) and next to no garbage. Its passes over them were about 0.1 s
    of the 8-node compile (docs/benchmarks.md, "Start-up").

    A `whole_process` (`xhip.cli.main()` run as the command, which ends with
    `os._exit`) leaves it off for good: the passes make millions of objects
    that mostly live as long as the module, and the cycles they leave (erased
    ops) are about 3 MB per 1,000 ONNX nodes, while collecting them took 3-4%
    of the 800-node compile. A library caller's collector is restored.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled and not whole_process:
            gc.enable()


def umask() -> int:
    """The process's umask (mkstemp makes files 0600; outputs should not be)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def print_module(module: ModuleOp, stream: IO[str]) -> None:
    from xdsl.printer import Printer  # lazy: xDSL stays out of `xhip --help`

    Printer(stream=stream).print_op(module)
    stream.write("\n")


def writable_dir(path: str) -> str:
    """`path`, created if missing, or a UserError saying why it cannot be."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise UserError(f"{path}: exists and is not a directory")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise UserError(f"{path}: cannot create directory: {e.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UserError(f"{path}: directory is not writable")
    return path


@dataclass
class StageTimer:
    """Wall and CPU seconds of each step of a compile, for `--timing` (MLIR's
    `--mlir-timing`): where a compile's time goes, pass by pass, without a
    profiler's distortion. CPU seconds are the thread's, so other processes on
    the machine do not count."""

    rows: list[tuple[str, float, float]] = field(default_factory=list)
    """(step, wall s, CPU s), in the order the steps ran."""

    _mark: tuple[float, float] | None = None

    @staticmethod
    def _now() -> tuple[float, float]:
        return time.perf_counter(), time.thread_time()

    @contextlib.contextmanager
    def step(self, name: str) -> Iterator[None]:
        """Time the block as the step `name`."""
        wall, cpu = self._now()
        try:
            yield
        finally:
            end_wall, end_cpu = self._now()
            self.rows.append((name, end_wall - wall, end_cpu - cpu))

    def between_passes(
        self, prev: ModulePass | None, _op: ModuleOp, _next: ModulePass | None
    ) -> None:
        """`PassPipeline`'s callback: the time since the last call is `prev`'s."""
        now = self._now()
        if prev is not None and self._mark is not None:
            number = sum(1 for row in self.rows if row[0][:1] == "#") + 1
            self.rows.append(
                (
                    f"#{number} {prev.name}",
                    now[0] - self._mark[0],
                    now[1] - self._mark[1],
                )
            )
        self._mark = self._now()

    def report(self, stream: IO[str]) -> None:
        """The table, in the order the steps ran, and the total."""
        wall = sum(row[1] for row in self.rows)
        cpu = sum(row[2] for row in self.rows)
        stream.write(f"{'wall s':>9} {'cpu s':>8} {'cpu %':>6}  step\n")
        for name, w, c in self.rows:
            share = 100 * c / cpu if cpu else 0.0
            stream.write(f"{w:9.4f} {c:8.4f} {share:5.1f}%  {name}\n")
        stream.write(f"{wall:9.4f} {cpu:8.4f} {100.0:5.1f}%  total\n")
        stream.write(
            f"{'':9} {time.process_time():8.4f} {'':6}  the whole process so far "
            "(start-up and imports included)\n"
        )
