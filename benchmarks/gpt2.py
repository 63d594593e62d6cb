"""Run time of the committed GPT-2 fixture: xhip CPU runtime vs ONNX Runtime CPU.

`tests/fixtures/models/gpt2.torchscript.onnx` (`--model` for another, e.g.
`gpt2.dynamo.onnx`): transformers' GPT2LMHeadModel as
`scripts/export_fixtures.py` writes it (2 layers, n_embd 32, 4 heads, vocab
128, at most 64 positions; random weights), on random token ids with a full
attention mask, at each `--shapes` (batch x seq). 2 threads each (xhip's
pool, ORT's intra-op threads). By default each side runs in fresh processes,
in turn (`fresh.py`: best and median per process, the ratio within each pair,
load before and after); `--paired` runs both in this process, one call of
each in turn (`paired.py`), after checking that their logits agree.

    .venv/bin/python benchmarks/gpt2.py [--shapes 1x16,1x64,8x64] [--rounds 3] [--calls 30] [--paired]
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

import fresh
import numpy as np
from paired import paired_seconds

import xhip
from xhip.backend.cpu import CpuRuntime

MODEL = (
    Path(__file__).resolve().parents[1] / "tests/fixtures/models/gpt2.torchscript.onnx"
)
SHAPES: tuple[str, ...] = ("1x16", "1x64", "8x64")


def _feeds(case: str) -> dict[str, np.ndarray]:
    batch, seq = (int(n) for n in case.split("x"))
    ids = np.random.default_rng(0).integers(0, 128, (batch, seq), dtype=np.int64)
    return {"input_ids": ids, "attention_mask": np.ones_like(ids)}


def make(kind: str, case: str, args: argparse.Namespace) -> Callable[[], object]:
    """One call of `kind` ("xhip" or "ort") at `case` ("8x64"), in a worker."""
    feeds = _feeds(case)
    if kind == "ort":
        return partial(fresh.ort_session(args.model, args.threads).run, None, feeds)
    runtime = CpuRuntime(threads=args.threads)
    return partial(xhip.compile(args.model, device="cpu", runtime=runtime), feeds)


def paired(args: argparse.Namespace, cases: list[str]) -> None:
    """Both in this process, one call of each in turn."""
    runtime = CpuRuntime(threads=args.threads)
    compiled = xhip.compile(args.model, device="cpu", runtime=runtime)
    session = fresh.ort_session(args.model, args.threads, spin=False)
    print(f"threads: {args.threads}, load average {os.getloadavg()[0]:.2f}")
    print(
        f"{'batch x seq':>12} {'xhip ms':>9} {'ort ms':>9} {'xhip/ort':>9} {'best of':>8}"
    )
    for case in cases:
        feeds = _feeds(case)
        got = compiled(feeds)["logits"]
        want = np.asarray(session.run(["logits"], feeds)[0])
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4)
        (ours, ours_best), (theirs, theirs_best) = paired_seconds(
            partial(compiled, feeds), partial(session.run, None, feeds), 2.0
        )
        print(
            f"{case:>12} {ours * 1e3:9.3f} {theirs * 1e3:9.3f} "
            f"{ours / theirs:9.2f} {ours_best / theirs_best:8.2f}"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    runtime.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model", default=str(MODEL), help="a GPT-2 .onnx")
    parser.add_argument("--shapes", help="batch x seq, comma-separated: 1x16,8x64")
    parser.add_argument("--paired", action="store_true", help="both in one process")
    fresh.add_arguments(parser, rounds=3, calls=30)
    args = parser.parse_args()
    cases = args.shapes.split(",") if args.shapes else list(SHAPES)
    if args.paired:
        paired(args, cases)
    else:
        fresh.main(make, args, cases, __file__, f"GPT-2, {Path(args.model).name}")


if __name__ == "__main__":
    main()
