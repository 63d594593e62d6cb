"""`xhip import MODEL.onnx`: the model in the onnx dialect, as onnx-mlir prints it."""

from __future__ import annotations

import argparse
from typing import Any

from xhip.cli.common import (
    add_quiet_option,
    atomic_output,
    collector_paused,
    import_onnx,
    print_module,
)
from xhip.progress import terminal_progress


def add_import_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
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
    add_quiet_option(p)
    p.set_defaults(func=cmd_import, short_lived=True)


def cmd_import(args: argparse.Namespace) -> int:
    with (
        terminal_progress(args.quiet) as progress,
        collector_paused(getattr(args, "whole_process", False)),
    ):
        module = import_onnx(args.model, progress)
    with atomic_output(args.output) as stream:
        print_module(module, stream)
    return 0
