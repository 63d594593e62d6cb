"""`xhip verify-passes MODEL.onnx`: find the pass that breaks a model.

Runs the pipeline pass by pass; after each pass whose IR can be executed, runs
that IR on the same inputs (random, seeded, sized by `--dims`; or `--input`)
and compares its outputs with ONNX Runtime's. Prints one line per pass with
its max error; exits 1 naming the first pass whose result differs.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any

from xhip.cli.common import UserError
from xhip.cli.compile import build_passes
from xhip.cli.run import ATOL, RTOL, load_inputs, parse_dims

HIDDEN = argparse.SUPPRESS


def add_verify_passes_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "verify-passes",
        help="run the IR after every pass against ONNX Runtime; name the first bad pass",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    p.add_argument("model", metavar="MODEL.onnx", help="the ONNX model to verify")
    p.add_argument(
        "--dims",
        default="",
        metavar="batch=2,seq=128",
        help="sizes of named dynamic dims for the random inputs (others are 1)",
    )
    p.add_argument(
        "--input",
        "--inputs",
        action="append",
        default=[],
        metavar="NAME=FILE.npy",
        help="an input array from a .npy file (repeatable); the rest are random",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    p.add_argument(
        "--pipeline",
        metavar="'PASS,PASS{opt=v}'",
        help="passes to run instead of 'onnx-to-hip' (composite passes are expanded)",
    )
    p.add_argument(
        "--rtol", type=float, default=RTOL, help=f"relative tolerance (default {RTOL})"
    )
    p.add_argument(
        "--atol", type=float, default=ATOL, help=f"absolute tolerance (default {ATOL})"
    )
    p.add_argument(
        "--no-debug",
        action="store_true",
        help="run memref stages without the debug runtime's poisoning and checks",
    )
    # Test only: corrupt the module after pass N (constant: a float constant
    # x -> 2x+1; swap: the first two same-typed operands of an op swapped).
    p.add_argument("--inject-bug", metavar="N[:KIND]", help=HIDDEN)
    p.set_defaults(func=cmd_verify_passes)


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    if math.isinf(value):
        return "inf"
    return "0" if value == 0 else f"{value:.2e}"


def cmd_verify_passes(args: argparse.Namespace) -> int:
    # lazy: sessions, onnx and the verifier stay out of the CLI's start-up
    from xhip.backend.session import InputError
    from xhip.frontend import OnnxImportError
    from xhip.verify import Injection, VerifyError, verify_passes

    if not os.path.exists(args.model):
        raise UserError(f"{args.model}: no such file")
    if args.model.endswith(".mlir"):
        raise UserError(
            f"{args.model}: verify-passes needs an .onnx model (ONNX Runtime runs "
            "it as the reference)"
        )
    dims = parse_dims(args.dims)
    given = load_inputs(args.input)
    if args.pipeline is not None:
        build_passes(args.pipeline, {})  # a bad spec: one --pipeline error
    try:
        inject = Injection.parse(args.inject_bug) if args.inject_bug else None
        report = verify_passes(
            args.model,
            dims=dims,
            inputs=given,
            seed=args.seed,
            pipeline=args.pipeline,
            rtol=args.rtol,
            atol=args.atol,
            inject=inject,
            debug=not args.no_debug,
        )
    except (InputError, OnnxImportError, VerifyError) as e:
        raise UserError(str(e)) from None

    shapes = ", ".join(
        f"{name}: {a.dtype}{list(a.shape)}" for name, a in report.inputs.items()
    )
    print(f"{args.model}: inputs {shapes} (seed {args.seed}); reference ONNX Runtime")
    if report.injected:
        print(f"injected bug after pass {args.inject_bug}: {report.injected}")
    width = max([len(s.name) for s in report.stages] + [4])
    print(f"{'#':>3}  {'pass':<{width}}  {'max abs':>9}  {'max rel':>9}  result")
    for s in report.stages:
        result = s.status if s.status != "ok" else "ok"
        if s.engine and s.status in ("ok", "differs"):
            result += f" ({s.engine})"
        if s.detail:
            result += f": {s.detail}"
        print(
            f"{s.number:>3}  {s.name:<{width}}  {_number(s.max_abs):>9}  "
            f"{_number(s.max_rel):>9}  {result}"
        )
    bad = report.first_bad
    run = sum(s.status in ("ok", "differs") for s in report.stages)
    skipped = sum(s.status == "not run" for s in report.stages)
    if bad is None:
        print(f"every stage agrees with ONNX Runtime ({run} run, {skipped} not run)")
        return 0
    what = "differs from ONNX Runtime" if bad.status == "differs" else "fails"
    print(
        f"xhip verify-passes: pass {bad.number} ({bad.name}) is the first whose "
        f"result {what}: {bad.detail}",
        file=sys.stderr,
    )
    return 1
