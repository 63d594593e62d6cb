"""The `xhip` command line: `import`, `compile` and `run` a model.

One module per subcommand (`import_`, `compile`, `run`), each adding its parser;
`common` holds what they share. This module wires them together and turns a
`UserError` into its one line and exit code 1.

Every error a user can cause ends as one line on stderr naming the file (and the
node or pass) and the reason, with exit code 1; outputs are written to a
temporary file next to their destination and renamed into place only once
complete, so a failed command leaves nothing half-written behind.
Set `XHIP_TRACEBACK=1` to see the Python traceback of such an error.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence
from typing import NoReturn, TextIO

from xhip import dataclass_code_cache
from xhip.cli.common import UserError
from xhip.cli.compile import add_compile_parser
from xhip.cli.import_ import add_import_parser
from xhip.cli.run import add_run_parser
from xhip.cli.verify_passes import add_verify_passes_parser

# Before xDSL loads (none of the modules above imports it): the dataclass
# methods of xDSL's classes compiled by an earlier command are reused. Both
# commands (`xhip`, `hip-mlir-opt`) import this package first; a library
# user's `import xhip` does not.
dataclass_code_cache.install()


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 1, not 2, on a bad command line."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="xhip",
        description="xhip: compile ONNX models to HIP-dialect IR and run them.",
        epilog="Run `xhip COMMAND --help` for the options of each command.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_import_parser(sub)
    add_compile_parser(sub)
    add_run_parser(sub)
    add_verify_passes_parser(sub)
    return parser


def show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
    *,
    prog: str = "xhip",
) -> None:
    """A warning as one `xhip: warning: ...` line: a user needs the message,
    not the file and line of the Python code that raised it."""
    text = " ".join(part.strip() for part in str(message).splitlines() if part.strip())
    print(f"{prog}: warning: {text}", file=file or sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    Called without `argv` (the `xhip` command itself), `compile` and `import`
    end the process once their output is flushed (`exit_now`).
    """
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    whole_process = argv is None and getattr(args, "short_lived", False)
    if whole_process and "numpy" not in sys.modules:
        # onnx loads numpy, and OpenBLAS starts a thread per core as it loads
        # (20-40 ms here); a compile does no linear algebra worth them.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    args.whole_process = whole_process
    code = _run(args)
    dataclass_code_cache.save()
    if whole_process:
        exit_now(code)
    return code


def _run(args: argparse.Namespace) -> int:
    try:
        with warnings.catch_warnings():
            warnings.showwarning = show_warning
            code = args.func(args)
    except UserError as e:
        if os.environ.get("XHIP_TRACEBACK"):
            raise
        print(f"xhip {args.command}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return code if isinstance(code, int) else 0


def exit_now(code: int) -> None:
    """End the process with `os._exit` once stdout and stderr are flushed.

    The interpreter's own exit tears down every module and object the compiler
    made (a few hundred thousand, xDSL's op classes and the IR): about 0.1 s
    of an 8-node compile, for nothing, as the commands that call this hold no
    open file, temporary directory or thread by then. Returns (and lets the
    interpreter exit as usual) where that teardown matters: under coverage, or
    when flushing fails (a closed pipe reports as it would otherwise).
    """
    if "coverage" in sys.modules:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


__all__ = ["UserError", "build_parser", "main"]
