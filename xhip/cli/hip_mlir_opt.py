"""`hip-mlir-opt`: the seed's command line, verbatim.

    hip-mlir-opt attention.onnx.mlir --allow-unregistered-dialect \\
        --onnx-to-hip-pipeline='externalize-min-num-elements=256 externalize-output-dir=/tmp' \\
        --mlir-elide-elementsattrs-if-larger=4 --mlir-print-ir-after-all

It takes the flags of the MLIR tool the seed was made with, with their meaning
there: the pipeline's options in MLIR's pass-option syntax (unquoted paths
included), IR dumps headed as MLIR heads them, element attributes elided as MLIR
elides them. Errors are `xhip`'s: one line, exit 1 (2 for a bad command line).
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    ModuleOp,
)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException

from xhip import dataclass_code_cache
from xhip.cli import exit_now, show_warning
from xhip.cli.common import (
    UserError,
    atomic_output,
    collector_paused,
    import_onnx,
    whole_message,
)
from xhip.cli.compile import parse_mlir
from xhip.context import make_context

PROG = "hip-mlir-opt"
PIPELINE = "onnx-to-hip-pipeline"

FUNCTION_PASSES = frozenset(
    {"hip-optimize-memrefs", "hip-pool-allocs", "hip-lower-allocs"}
)
"""Passes the seed's tool anchors on `func.func`: their dumps show each function
alone, not the module (the seed's stages 15, 16 and 20)."""

HELP = f"""\
OVERVIEW: xhip's MLIR-style driver: the onnx-to-hip pipeline with mlir-opt's flags

USAGE: {PROG} [options] <input file>

  <input file>                            .mlir (any stage of the pipeline) or
                                          .onnx; '-' or none reads MLIR from stdin

OPTIONS:
  --allow-unregistered-dialect            Allow operations of unknown dialects
  --{PIPELINE}[='k=v k=v']   Run the 21 passes of onnx-to-hip; options
                                          (MLIR pass-option syntax):
      externalize-min-num-elements=N        constants with at least N elements go
                                            to the constants file (default 256)
      externalize-output-dir=DIR            where model.constants.bin is written
                                            (default: the current directory)
  --mlir-elide-elementsattrs-if-larger=N  Print element attributes with more than
                                          N elements as dense_resource<__elided__>
  --mlir-print-ir-after-all               Print the IR after each pass, to stderr
  -o <filename>                           Output file (default: stdout)
  --help                                  Show this help

Without --{PIPELINE} the input is printed back (an .onnx model imported).
"""


class CommandLineError(Exception):
    """A bad command line: one line, exit 2."""


@dataclass
class Options:
    input: str = "-"
    output: str | None = None
    pipeline: str | None = None
    """The text after `--onnx-to-hip-pipeline=`; None without the flag."""
    elide_limit: int | None = None
    print_ir_after_all: bool = False
    allow_unregistered: bool = False
    help: bool = False


_FLAGS = {
    "allow-unregistered-dialect": "allow_unregistered",
    "mlir-print-ir-after-all": "print_ir_after_all",
}
"""The boolean flags, by the `Options` field they set."""


def parse_command_line(argv: Sequence[str]) -> Options:
    """The options of `argv`, parsed as LLVM's command line library does for
    these flags: `-flag` or `--flag`, `--opt=value` or `--opt value`, and the
    pipeline's options only after `=`."""
    options = Options()
    inputs: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "-" or not arg.startswith("-"):
            inputs.append(arg)
            continue
        if arg == "--":
            inputs.extend(args)
            break
        name, has_value, value = arg.lstrip("-").partition("=")
        if name in ("help", "h"):
            options.help = True
            return options
        if name in _FLAGS:
            if has_value and value not in ("true", "false", "1", "0"):
                raise CommandLineError(
                    f"for the --{name} option: '{value}' is invalid value for "
                    "boolean argument! Try 0 or 1"
                )
            setattr(options, _FLAGS[name], value not in ("false", "0"))
        elif name == PIPELINE:
            options.pipeline = value
        elif name in ("mlir-elide-elementsattrs-if-larger", "o"):
            if not has_value:
                value = next(args, None)
                if value is None:
                    raise CommandLineError(f"for the -{name} option: requires a value!")
            if name == "o":
                options.output = value
            elif not (value.isascii() and value.isdigit()):
                raise CommandLineError(
                    f"for the --{name} option: '{value}' value invalid for uint "
                    "argument!"
                )
            else:
                options.elide_limit = int(value)
        else:
            raise CommandLineError(
                f"Unknown command line argument '{arg}'.  Try: '{PROG} --help'"
            )
    if len(inputs) > 1:
        raise CommandLineError(
            f"Too many positional arguments specified! Can specify at most 1 "
            f"(got {', '.join(inputs)})"
        )
    options.input = inputs[0] if inputs else "-"
    return options


def pipeline_passes(text: str | None) -> list[ModulePass]:
    """The 21 passes `--onnx-to-hip-pipeline=text` runs (none without the flag)."""
    if text is None:
        return []
    # lazy: only --onnx-to-hip-pipeline needs the passes
    from xhip.pipeline import PipelineError, build_pipeline
    from xhip.transforms.composite import (
        expand_composite_passes,
        quote_pass_option_values,
    )

    spec = f"{PIPELINE}{{{text}}}" if text.strip() else PIPELINE
    try:
        passes = build_pipeline(quote_pass_option_values(spec))
    except PipelineError as e:
        raise CommandLineError(f"for the --{PIPELINE} option: {e}") from None
    return list(expand_composite_passes(passes))


# Printing.


class ElidingPrinter(Printer):
    """xDSL's printer, with MLIR's `--mlir-elide-elementsattrs-if-larger`: a
    dense elements attribute with more than `limit` elements, unless all are
    equal (a splat), prints as `dense_resource<__elided__>`."""

    def __init__(self, stream: IO[str], limit: int | None) -> None:
        super().__init__(stream=stream)
        self.limit = limit

    def elides(self, attribute: Attribute) -> bool:
        if self.limit is None or not isinstance(attribute, DenseIntOrFPElementsAttr):
            return False
        count = len(attribute)
        if count <= self.limit:
            return False
        data = attribute.data.data
        size = len(data) // count
        return data != data[:size] * count  # a splat prints as one value

    def print_attribute(self, attribute: Attribute) -> None:
        if self.elides(attribute):
            assert isinstance(attribute, DenseIntOrFPElementsAttr)
            self.print_string("dense_resource<__elided__> : ")
            self.print_attribute(attribute.type)
            return
        super().print_attribute(attribute)

    def print_op(self, op: Operation) -> None:
        """Ops without operands, results or regions (`memref.global`) may print
        their attributes with a printer of their own: they are printed from a
        copy whose elided attributes are elided resources."""
        if self.limit is None or op.operands or op.results or op.regions:
            return super().print_op(op)
        props = {k: v for k, v in op.properties.items() if self.elides(v)}
        attrs = {k: v for k, v in op.attributes.items() if self.elides(v)}
        if not props and not attrs:
            return super().print_op(op)
        copy = op.clone()
        for table, elided in ((copy.properties, props), (copy.attributes, attrs)):
            for name, value in elided.items():
                assert isinstance(value, DenseIntOrFPElementsAttr)
                table[name] = DenseResourceAttr.from_params("__elided__", value.type)
        super().print_op(copy)


def print_ir(op: Operation, stream: IO[str], limit: int | None) -> None:
    ElidingPrinter(stream, limit).print_op(op)
    stream.write("\n")


def dump_after(
    p: ModulePass, module: ModuleOp, stream: IO[str], limit: int | None
) -> None:
    """The IR after `p` as `mlir-opt --mlir-print-ir-after-all` prints it: the
    module, or each function for a function pass, under MLIR's header."""
    header = f"// -----// IR Dump After {type(p).__name__} ({p.name}) //----- //\n"
    if p.name in FUNCTION_PASSES:
        for function in module.ops:
            if isinstance(function, func.FuncOp):
                stream.write(header)
                ElidingPrinter(stream, limit).print_op(function)
                stream.write("\n\n")
        return
    stream.write(header)
    print_ir(module, stream, limit)
    stream.write("\n\n")


# Running.


def load(path: str, ctx: Context) -> ModuleOp:
    """An `.onnx` model imported, anything else parsed as MLIR (`-`: stdin)."""
    if path.endswith(".onnx"):
        return import_onnx(path)
    return parse_mlir("/dev/stdin" if path == "-" else path, ctx)


def run(
    module: ModuleOp,
    ctx: Context,
    passes: Sequence[ModulePass],
    dumps: IO[str] | None,
    limit: int | None,
) -> None:
    """Apply and verify the passes one by one, dumping the IR after each to
    `dumps`; a failing pass is a user error naming it."""
    for p in passes:
        try:
            p.apply(ctx, module)
            module.verify()
        except DiagnosticException as e:
            raise UserError(
                f"pass '{p.name}' failed: {whole_message(str(e))}"
            ) from None
        if dumps is not None:
            dump_after(p, module, dumps, limit)


def hip_mlir_opt(options: Options, whole_process: bool = False) -> None:
    with collector_paused(whole_process):  # the passes' modules load
        passes = pipeline_passes(options.pipeline)
        ctx = make_context(allow_unregistered=options.allow_unregistered)
    module = load(options.input, ctx)
    with atomic_output(options.output) as stream:
        dumps = sys.stderr if options.print_ir_after_all else None
        run(module, ctx, passes, dumps, options.elide_limit)
        print_ir(module, stream, options.elide_limit)


def main(argv: Sequence[str] | None = None) -> int:
    """Run `hip-mlir-opt`; returns the exit code (without `argv`, the command
    itself, it ends the process as `xhip compile` does: `exit_now`)."""
    code = _main(argv)
    dataclass_code_cache.save()
    if argv is None:
        exit_now(code)
    return code


def _main(argv: Sequence[str] | None) -> int:
    try:
        options = parse_command_line(sys.argv[1:] if argv is None else argv)
        if options.help:
            print(HELP, end="")
            return 0
        with warnings.catch_warnings():
            warnings.showwarning = functools.partial(show_warning, prog=PROG)
            hip_mlir_opt(options, whole_process=argv is None)
    except CommandLineError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    except UserError as e:
        if os.environ.get("XHIP_TRACEBACK"):
            raise
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
