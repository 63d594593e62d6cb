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
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING

from xhip.progress import ProgressCallback

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp


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


YOUNG_COLLECTION_THRESHOLD = 10_000
"""A whole process's first-generation threshold (Python's is 700): 6% of the
passes' time at 100 attention layers went to collections (docs/benchmarks.md)."""


@contextlib.contextmanager
def collector_paused(freeze: bool = False) -> Iterator[None]:
    """Python's cyclic garbage collector off for the block, which loads modules:
    some half a million long-lived objects (xDSL builds every op class as its
    module loads) and next to no garbage. Its passes over them were about 0.1 s
    of the 8-node compile (docs/benchmarks.md, "Start-up").

    With `freeze`, what exists then is frozen out of the collector's view
    (`gc.freeze()`): all that the block made waits in the youngest generation,
    and the first collections after it would walk it all again. Frozen objects
    are never collected, so only a whole process (`xhip.cli.main()` run as the
    command) freezes; it also lets the youngest generation grow to
    `YOUNG_COLLECTION_THRESHOLD` objects before a collection, as the passes
    make millions of objects that mostly live as long as the module.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
            gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])
        if enabled:
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
