"""The `xhip` command line: `import`, `compile` and `run` a model.

Every error a user can cause ends as one line on stderr naming the file (and the
node or pass) and the reason, with exit code 1; outputs are written to a
temporary file next to their destination and renamed into place only once
complete, so a failed command leaves nothing half-written behind.
Set `XHIP_TRACEBACK=1` to see the Python traceback of such an error.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, NoReturn, TextIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer

DEFAULT_PIPELINE = "onnx-to-hip"
CONSTANTS_OPTION = "externalize-output-dir"
MIN_ELEMENTS_OPTION = "externalize-min-num-elements"


class UserError(Exception):
    """Something the user can fix; its message is the one line they see."""


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 1, not 2, on a bad command line."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


# Inputs.


def load_module(path: str, ctx: Context) -> ModuleOp:
    """An `.mlir` file parsed, or any other file imported as an ONNX model."""
    if Path(path).suffix == ".mlir":
        return parse_mlir(path, ctx)
    return import_onnx(path)


def import_onnx(path: str) -> ModuleOp:
    from xhip.frontend.onnx_importer import OnnxImportError, import_model

    try:
        return import_model(path)
    except OnnxImportError as e:
        raise UserError(str(e)) from e


def parse_mlir(path: str, ctx: Context) -> ModuleOp:
    """Parse and verify an MLIR file; errors name `path:line:col`."""
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError, VerifyException

    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"{path}: cannot read: {e}") from None
    try:
        module = Parser(ctx, text, name=path).parse_module()
    except ParseError as e:
        raise UserError(f"malformed MLIR: {_parse_error_line(str(e))}") from None
    try:
        module.verify()
    except VerifyException as e:
        raise UserError(f"{path}: invalid IR: {_first_line(str(e))}") from None
    return module


def _parse_error_line(message: str) -> str:
    """`file:line:col: reason` from xDSL's multi-line ParseError text."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if len(lines) >= 2:
        return f"{lines[0].rstrip(':')}: {lines[-1]}"
    return lines[0] if lines else "parse error"


def _first_line(message: str) -> str:
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    return lines[0] if lines else "(no message)"


# Outputs.


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
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise UserError(f"{path}: cannot write: {e.strerror}") from None
        raise


def _umask() -> int:
    """The process's umask (mkstemp makes files 0600; outputs should not be)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def print_module(module: ModuleOp, stream: IO[str]) -> None:
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


# Pipelines.


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass `xdsl-opt` knows with xhip installed."""
    from xdsl.universe import Universe

    import xhip.universe  # noqa: F401  (registers the extended dialects first)

    return dict(Universe.get_multiverse().all_passes)


def build_pipeline(
    spec: str, options: Mapping[str, str | int]
) -> tuple[ModulePass, ...]:
    """Parse `spec` with xDSL's pipeline parser; unknown passes are user errors.

    `options` fill in pass options the spec leaves out, for the passes that
    have them (the constants directory, for `onnx-to-hip`).
    """
    from xdsl.utils.arg_spec import parse_pipeline
    from xdsl.utils.exceptions import ArgSpecParseError

    passes = available_passes()
    try:
        specs = list(parse_pipeline(spec))
    except (ArgSpecParseError, ValueError) as e:
        raise UserError(f"--pipeline '{spec}': {_parse_error_line(str(e))}") from None
    unknown = [s.name for s in specs if s.name not in passes]
    if unknown:
        raise UserError(
            f"--pipeline: unknown pass{'es' if len(unknown) > 1 else ''} "
            f"{', '.join(repr(n) for n in unknown)} (see `xdsl-opt --help` for "
            f"the passes there are)"
        )
    built: list[ModulePass] = []
    for s in specs:
        cls = passes[s.name]()
        fields = {f.replace("_", "-") for f in getattr(cls, "__dataclass_fields__", {})}
        for option, value in options.items():
            if option in fields and option not in s.parameters:
                s.parameters[option] = (value,)
        try:
            built.append(cls.from_spec(s))
        except (ValueError, TypeError) as e:
            raise UserError(f"--pipeline: pass '{s.name}': {e}") from None
    return tuple(built)


def expand(passes: Sequence[ModulePass]) -> tuple[ModulePass, ...]:
    """Composite passes (`onnx-to-hip`) replaced by their stages, recursively."""
    try:
        from xhip.pipeline import expand_composite_passes
    except ModuleNotFoundError:
        return tuple(passes)
    return tuple(expand_composite_passes(passes))


def run_pipeline(
    module: ModuleOp,
    ctx: Context,
    passes: Sequence[ModulePass],
    print_after: IO[str] | None = None,
) -> None:
    """Apply `passes`; pass failures are user errors naming the pass."""
    from xdsl.utils.exceptions import DiagnosticException

    def after(prev: ModulePass | None, op: ModuleOp, _next: ModulePass | None) -> None:
        if prev is not None and print_after is not None:
            print_after.write(f"// -----// IR Dump After {prev.name} //----- //\n")
            print_module(op, print_after)
            print_after.write("\n")

    current = "(start)"

    def track(prev: ModulePass | None, op: ModuleOp, nxt: ModulePass | None) -> None:
        nonlocal current
        after(prev, op, nxt)
        current = nxt.name if nxt is not None else current

    try:
        PassPipeline(tuple(passes), track).apply(ctx, module)
        module.verify()
    except DiagnosticException as e:
        raise UserError(f"pass '{current}' failed: {_first_line(str(e))}") from None


# Subcommands.


def cmd_import(args: argparse.Namespace) -> int:
    module = import_onnx(args.model)
    with atomic_output(args.output) as stream:
        print_module(module, stream)
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    from xhip.context import make_context

    ctx = make_context()
    if args.externalize_output_dir is not None:
        final_dir = args.externalize_output_dir
    elif args.output not in (None, "-"):
        final_dir = os.path.dirname(os.path.abspath(args.output))
    else:
        final_dir = os.getcwd()
    writable_dir(final_dir)
    module = load_module(args.model, ctx)

    staging = tempfile.mkdtemp(prefix=".xhip-constants.", dir=final_dir)
    try:
        options: dict[str, str | int] = {CONSTANTS_OPTION: staging}
        if args.externalize_min_num_elements is not None:
            options[MIN_ELEMENTS_OPTION] = args.externalize_min_num_elements
        passes = build_pipeline(args.pipeline or DEFAULT_PIPELINE, options)
        if args.print_ir_after_all:
            passes = expand(passes)
        with atomic_output(args.output) as stream:
            run_pipeline(
                module, ctx, passes, sys.stderr if args.print_ir_after_all else None
            )
            print_module(module, stream)
            for name in os.listdir(staging):
                staged = os.path.join(staging, name)
                os.chmod(staged, 0o666 & ~_umask())
                os.replace(staged, os.path.join(final_dir, name))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="xhip",
        description="xhip: compile ONNX models to HIP-dialect IR and run them.",
        epilog="Run `xhip COMMAND --help` for the options of each command.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser(
        "import",
        help="translate an .onnx model to onnx-dialect MLIR",
        description=(
            "Translate an .onnx model to the onnx dialect, as onnx-mlir does: "
            "@main_graph with onnx.name/onnx.dim_params on arguments and results, "
            "weights as onnx.Constant, inferred result types."
        ),
    )
    p.add_argument("model", metavar="MODEL.onnx", help="the ONNX model to import")
    p.add_argument(
        "-o", "--output", metavar="OUT.mlir", help="output file (default: stdout)"
    )
    p.set_defaults(func=cmd_import)

    p = sub.add_parser(
        "compile",
        help="compile a model to HIP-dialect IR and a constants file",
        description=(
            "Import MODEL (an .onnx file, or onnx-dialect .mlir) and run the "
            "onnx-to-hip pipeline (or --pipeline) on it. Writes the final IR and, "
            "next to it, the constants file (model.constants.bin) that the "
            "compiled model reads its large weights from."
        ),
    )
    p.add_argument(
        "model", metavar="MODEL.onnx", help="an .onnx model, or an .mlir file"
    )
    p.add_argument(
        "-o", "--output", metavar="OUT.mlir", help="output file (default: stdout)"
    )
    p.add_argument(
        "--externalize-output-dir",
        metavar="DIR",
        help=(
            "where the constants file goes (default: the directory of -o, or the "
            "current directory when writing to stdout); created if missing"
        ),
    )
    p.add_argument(
        "--externalize-min-num-elements",
        metavar="N",
        type=int,
        help="constants with at least N elements go to the constants file",
    )
    p.add_argument(
        "--print-ir-after-all",
        action="store_true",
        help="print the IR after every pass to stderr (pipelines are expanded)",
    )
    p.add_argument(
        "--pipeline",
        metavar="'PASS,PASS{opt=v}'",
        help=(
            f"passes to run instead of '{DEFAULT_PIPELINE}', in xdsl-opt's "
            f"syntax; any xdsl-opt pass may be named"
        ),
    )
    p.set_defaults(func=cmd_compile)

    add_run_parser = _run_parser_hook()
    if add_run_parser is not None:
        add_run_parser(sub)
    return parser


def _run_parser_hook() -> (
    Callable[[argparse._SubParsersAction[_Parser]], object] | None
):
    """The backend's `xhip run`, when the backend provides one."""
    try:
        from xhip.backend.cli_run import add_run_parser
    except ModuleNotFoundError as e:
        if e.name in ("xhip.backend.cli_run", "xhip.backend"):
            return None
        raise
    return add_run_parser


def show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A warning as one `xhip: warning: ...` line: a user needs the message,
    not the file and line of the Python code that raised it."""
    text = " ".join(part.strip() for part in str(message).splitlines() if part.strip())
    print(f"xhip: warning: {text}", file=file or sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
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


if __name__ == "__main__":
    sys.exit(main())
