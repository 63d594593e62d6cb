"""`xhip compile MODEL`: run `onnx-to-hip` (or `--pipeline`) on a model and write
the final IR and, next to it, the constants file."""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from xhip.cli.common import (
    StageTimer,
    UserError,
    add_quiet_option,
    atomic_output,
    collector_paused,
    first_line,
    import_onnx,
    print_module,
    umask,
    whole_message,
    writable_dir,
)
from xhip.files import CONSTANTS_FILE
from xhip.progress import ProgressCallback, terminal_progress

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass

DEFAULT_PIPELINE = "onnx-to-hip"
CONSTANTS_OPTION = "externalize-output-dir"
MIN_ELEMENTS_OPTION = "externalize-min-num-elements"


def add_compile_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "compile",
        help="compile a model to HIP-dialect IR and a constants file",
        description=(
            "Import MODEL (an .onnx file, or onnx-dialect .mlir) and run the "
            "onnx-to-hip pipeline (or --pipeline) on it. Writes the final IR and, "
            f"next to it, the constants file ({CONSTANTS_FILE}) that the "
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
    p.add_argument(
        "--timing",
        action="store_true",
        help=(
            "print the wall and CPU seconds of every step (loading, each pass, "
            "the final verify, printing) to stderr, as mlir-opt's --mlir-timing"
        ),
    )
    add_quiet_option(p)
    p.set_defaults(func=cmd_compile, short_lived=True)


# Inputs.


def load_module(
    path: str, ctx: Context, progress: ProgressCallback | None = None
) -> ModuleOp:
    """An `.mlir` file parsed, or any other file imported as an ONNX model."""
    if Path(path).suffix == ".mlir":
        return parse_mlir(path, ctx)
    return import_onnx(path, progress)


def parse_mlir(path: str, ctx: Context) -> ModuleOp:
    """Parse and verify an MLIR file; errors name `path:line:col`."""
    # lazy: xDSL stays out of `xhip --help`
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
        raise UserError(f"{path}: invalid IR: {first_line(str(e))}") from None
    return module


def _parse_error_line(message: str) -> str:
    """`file:line:col: reason` from xDSL's multi-line ParseError text."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if len(lines) >= 2:
        return f"{lines[0].rstrip(':')}: {lines[-1]}"
    return lines[0] if lines else "parse error"


# Pipelines.


def build_passes(spec: str, options: dict[str, str | int]) -> list[ModulePass]:
    """`xhip.pipeline.build_pipeline`, composite passes expanded (which imports
    every pass module), its errors as `--pipeline` user errors."""
    # lazy: the passes stay out of the CLI's start-up
    from xhip.pipeline import PipelineError, PipelineSyntaxError, build_pipeline
    from xhip.transforms.composite import expand_composite_passes  # lazy: as above

    try:
        return list(expand_composite_passes(build_pipeline(spec, options)))
    except PipelineSyntaxError as e:
        raise UserError(f"--pipeline {e}") from None
    except PipelineError as e:
        raise UserError(f"--pipeline: {e}") from None


def run_pipeline(
    module: ModuleOp,
    ctx: Context,
    passes: Sequence[ModulePass],
    print_after: IO[str] | None = None,
    progress: ProgressCallback | None = None,
    timer: StageTimer | None = None,
) -> None:
    """Apply `passes`, stage by stage, then verify; pass failures are user
    errors naming the pass. `timer` hears every pass and the verify."""
    # lazy: xDSL and the passes stay out of `xhip --help`
    from xdsl.utils.exceptions import DiagnosticException

    from xhip.pipeline import run_passes  # lazy: as above

    def after(prev: ModulePass | None, op: ModuleOp, _next: ModulePass | None) -> None:
        if prev is not None and print_after is not None:
            print_after.write(f"// -----// IR Dump After {prev.name} //----- //\n")
            print_module(op, print_after)
            print_after.write("\n")

    current = "(start)"

    def track(prev: ModulePass | None, op: ModuleOp, nxt: ModulePass | None) -> None:
        nonlocal current
        if timer is not None:
            timer.between_passes(prev, op, nxt)
        after(prev, op, nxt)
        current = nxt.name if nxt is not None else current

    try:
        run_passes(ctx, module, passes, track, progress)
        with timer.step("verify") if timer is not None else contextlib.nullcontext():
            module.verify()
    except DiagnosticException as e:
        raise UserError(f"pass '{current}' failed: {whole_message(str(e))}") from None


def cmd_compile(args: argparse.Namespace) -> int:
    with terminal_progress(args.quiet) as progress:
        return compile_model(args, progress)


def compile_model(args: argparse.Namespace, progress: ProgressCallback) -> int:
    if args.externalize_output_dir is not None:
        final_dir = args.externalize_output_dir
    elif args.output not in (None, "-"):
        final_dir = os.path.dirname(os.path.abspath(args.output))
    else:
        final_dir = os.getcwd()
    writable_dir(final_dir)
    try:
        staging = tempfile.mkdtemp(prefix=".xhip-constants.", dir=final_dir)
    except OSError as e:
        raise UserError(f"{final_dir}: cannot write: {e.strerror}") from None
    try:
        options: dict[str, str | int] = {CONSTANTS_OPTION: staging}
        if args.externalize_min_num_elements is not None:
            options[MIN_ELEMENTS_OPTION] = args.externalize_min_num_elements
        # Every module the compile needs, loaded first; the model after them.
        with collector_paused(getattr(args, "whole_process", False)):
            # lazy: xDSL's plugin universe stays out of the CLI's start-up
            from xhip.context import make_context

            ctx = make_context()
            passes = build_passes(args.pipeline or DEFAULT_PIPELINE, options)
            if Path(args.model).suffix != ".mlir":
                # lazy: onnx, only for a model
                from xhip.frontend import onnx_importer  # noqa: F401
        timer = StageTimer() if getattr(args, "timing", False) else None
        timed = timer.step if timer is not None else _untimed
        with timed("load " + Path(args.model).suffix.lstrip(".")):
            module = load_module(args.model, ctx, progress)
        with atomic_output(args.output) as stream:
            print_after = sys.stderr if args.print_ir_after_all else None
            run_pipeline(module, ctx, passes, print_after, progress, timer)
            with timed("print"):
                print_module(module, stream)
            for name in os.listdir(staging):
                staged = os.path.join(staging, name)
                os.chmod(staged, 0o666 & ~umask())
                os.replace(staged, os.path.join(final_dir, name))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if timer is not None:
        timer.report(sys.stderr)
    return 0


def _untimed(_name: str) -> contextlib.AbstractContextManager[None]:
    return contextlib.nullcontext()
