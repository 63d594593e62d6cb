"""Walk an ONNX model through the pipeline and print what each stage holds.

    python -m xhip.explore examples/attention.onnx --dims batch=2,seq=128 \\
        -o docs/images/attention_memory_plan.png

prints the summary of every stage (ops, allocations, pool formula), the memory
plan of the final stage for the given dims, and saves its picture with `-o`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence

from xhip.explore.stages import Walkthrough
from xhip.frontend import OnnxImportError


def parse_dims(text: str) -> dict[str, int]:
    """`batch=2,seq=128` -> `{"batch": 2, "seq": 128}`."""
    dims: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, value = item.partition("=")
        if not sep or not value.strip().isdigit():
            raise argparse.ArgumentTypeError(f"expected NAME=SIZE, got {item!r}")
        dims[name.strip()] = int(value)
    return dims


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m xhip.explore", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("model", help="an .onnx file")
    parser.add_argument(
        "--dims", type=parse_dims, default={}, help="dim sizes, e.g. batch=2,seq=128"
    )
    parser.add_argument("-o", "--output", help="save the memory-plan picture here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="xhip-explore-") as scratch:
        try:
            walk = Walkthrough.from_onnx(
                args.model, errors="keep", externalize_output_dir=scratch
            )
        except OnnxImportError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    print(walk.summaries(args.dims))
    if walk.failure is not None:
        print(f"\nerror: {walk.failure}", file=sys.stderr)
        return 1
    try:
        plan = walk.final.memory_plan()
    except ValueError as error:
        print(f"\n{error}")
        return 0 if args.output is None else 1
    print()
    print(plan)
    if args.dims:
        placed = plan.evaluate(args.dims)
        print()
        print(placed)
        if args.output:
            placed.save(args.output)
            print(f"\nwrote {args.output}")
    elif args.output:
        print("error: --output needs --dims to draw the plan", file=sys.stderr)
        return 1
    return 0


__all__ = ["main", "parse_dims"]

if __name__ == "__main__":
    sys.exit(main())
