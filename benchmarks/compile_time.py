"""Compile time of the `onnx-to-hip` pipeline, pass by pass, against upstream MLIR.

Models: the seed's attention model and N chained copies of its attention layer
(N = 1, 10, 100, 1000 by default), generated as ONNX-dialect text. For each, the
time of every pass and of the whole pipeline (parsing apart). Where `mlir-opt-22`
is installed, upstream MLIR runs the same standard passes on the same IR in the
same run, timed by its own `--mlir-timing` (parsing and printing apart):

- canonicalize on the input of pass 6, cse on the input of pass 18: the IR in
  generic form, hip ops unregistered (`--allow-unregistered-dialect`);
- the deallocation step (passes 7-14 = `buffer-deallocation-pipeline`, `cse`,
  `canonicalize`) on the input of pass 7. Upstream's ownership-based deallocation
  rejects ops with unknown memory effects, which unregistered ops have, so there
  each hip op becomes one `test.buffer_based in(%input) out(%output)` per input
  (MLIR's test op that reads its input and writes its output): the same buffers,
  uses and lifetimes.

    python benchmarks/compile_time.py                 # everything
    python benchmarks/compile_time.py --layers 1 10   # fewer models
    python benchmarks/compile_time.py --no-upstream --passes
    python benchmarks/compile_time.py --skip hip-pool-allocs

The `(gc s)` column is the part of the pipeline's time spent in Python's cyclic
garbage collector: its full collections walk every live object, so they cost
more per pass on bigger models.
"""

from __future__ import annotations

import argparse
import gc
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.rewriter import Rewriter

from xhip.context import make_context
from xhip.dialects import hip
from xhip.pipeline import onnx_to_hip_passes

REPO = Path(__file__).resolve().parents[1]
ATTENTION = REPO / "tests" / "filecheck" / "Inputs" / "attention.onnx.mlir"
MLIR_OPT = "mlir-opt-22"

DEALLOC_STEP = range(7, 15)
"""Passes 7-14, numbered from 1: the buffer deallocation pipeline and its cleanup."""


def attention_layers(layers: int, head: int = 64) -> str:
    """ONNX-dialect text of `layers` seed attention layers, each feeding the next."""
    x = f"tensor<?x?x{head}xf32>"
    w = f"tensor<{head}x{head}xf32>"
    s = "tensor<?x?x?xf32>"
    kt = f"tensor<?x{head}x?xf32>"
    lines: list[str] = []
    src = "%arg0"
    for i in range(layers):
        lines += [
            *(
                f'%w{j}_{i} = "onnx.Constant"() {{value = dense_resource<__elided__> '
                f": {w}}} : () -> {w}"
                for j in range(3)
            ),
            f'%sc_{i} = "onnx.Constant"() {{value = dense<{head**-0.5:e}> : '
            "tensor<f32>} : () -> tensor<f32>",
            f'%q_{i} = "onnx.MatMul"({src}, %w0_{i}) : ({x}, {w}) -> {x}',
            f'%k_{i} = "onnx.MatMul"({src}, %w1_{i}) : ({x}, {w}) -> {x}',
            f'%v_{i} = "onnx.MatMul"({src}, %w2_{i}) : ({x}, {w}) -> {x}',
            f'%kt_{i} = "onnx.Transpose"(%k_{i}) <{{perm = [0, 2, 1]}}> : ({x}) -> {kt}',
            f'%s_{i} = "onnx.MatMul"(%q_{i}, %kt_{i}) : ({x}, {kt}) -> {s}',
            f'%ss_{i} = "onnx.Mul"(%s_{i}, %sc_{i}) : ({s}, tensor<f32>) -> {s}',
            f'%p_{i} = "onnx.Softmax"(%ss_{i}) <{{axis = -1 : si64}}> : ({s}) -> {s}',
            f'%o_{i} = "onnx.MatMul"(%p_{i}, %v_{i}) : ({s}, {x}) -> {x}',
        ]
        src = f"%o_{i}"
    body = "\n    ".join(lines)
    dims = '{onnx.dim_params = "0:batch,1:seq", onnx.name = "X"}'
    return f"""module {{
  func.func @main_graph(%arg0: {x} {dims}) -> ({x} {dims}) {{
    {body}
    return {src} : {x}
  }}
  "onnx.EntryPoint"() <{{func = @main_graph}}> : () -> ()
}}
"""


@dataclass
class Upstream:
    """Upstream MLIR's time for one of our steps, on that step's input."""

    step: str
    ours: float
    theirs: float | None = None
    error: str | None = None


@dataclass
class Result:
    model: str
    ops: int
    parse: float
    passes: list[tuple[str, float]] = field(default_factory=list[tuple[str, float]])
    upstream: list[Upstream] = field(default_factory=list[Upstream])
    cpu: float = 0.0
    """Process time of the whole pipeline: robust to other load on the machine."""
    gc: float = 0.0
    """Process time of the garbage collector's runs during the pipeline."""

    @property
    def total(self) -> float:
        return sum(t for _, t in self.passes)

    @property
    def dealloc(self) -> float:
        return sum(self.passes[i - 1][1] for i in DEALLOC_STEP)


def generic_text(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    return out.getvalue()


def with_buffer_based_ops(module: ModuleOp) -> ModuleOp:
    """A copy whose hip ops are `test.buffer_based` ops, one per input."""
    module = module.clone()
    buffer_based = UnregisteredOp.with_name("test.buffer_based")
    for op in list(module.walk()):
        if isinstance(op, hip.HipDPSOp):
            (output,) = op.outputs  # pyright: ignore[reportAttributeAccessIssue]
            new = [
                buffer_based.create(operands=[i, output])
                for i in op.inputs  # pyright: ignore[reportAttributeAccessIssue]
            ]
            Rewriter.replace_op(op, new, [])
    return module


_TIMING_LINE = re.compile(r"^\s*([0-9.]+)\s+\(\s*[0-9.]+%\)\s+(.+?)\s*$")
_NOT_PASSES = {"root", "Parser", "Output", "Rest", "Total"}


def mlir_opt_seconds(text: str, flags: Sequence[str]) -> float:
    """Upstream's own wall time for its passes on `text` (no parsing/printing)."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
        f.write(text)
        f.flush()
        done = subprocess.run(
            [
                MLIR_OPT,
                f.name,
                "--allow-unregistered-dialect",
                "--mlir-disable-threading",
                "--mlir-timing",
                "--mlir-timing-display=list",
                "-o",
                "/dev/null",
                *flags,
            ],
            capture_output=True,
            text=True,
            timeout=3600,
        )
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[0])
    seconds = 0.0
    for line in done.stderr.splitlines():
        if (m := _TIMING_LINE.match(line)) and m.group(2) not in _NOT_PASSES:
            seconds += float(m.group(1))
    return seconds


class GCTimer:
    """Adds up the process time of the garbage collector's runs while active."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.paused = False
        self._start = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.process_time()
        elif not self.paused:
            self.seconds += time.process_time() - self._start

    def __enter__(self) -> GCTimer:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._callback)


def measure(
    name: str,
    text: str,
    upstream: bool,
    out_dir: Path,
    skip: Sequence[str] = (),
    ctx: Context | None = None,
) -> Result:
    ctx = ctx or make_context()
    start = time.perf_counter()
    module = Parser(ctx, text).parse_module()
    result = Result(name, sum(1 for _ in module.walk()), time.perf_counter() - start)
    passes: list[ModulePass] = onnx_to_hip_passes(externalize_output_dir=str(out_dir))
    inputs: dict[int, ModuleOp] = {}
    with GCTimer() as gc_timer:
        cpu_start = time.process_time()
        for number, p in enumerate(passes, 1):
            if upstream and number in (6, 7, 18):
                gc_timer.paused = True
                inputs[number] = module.clone()
                gc_timer.paused = False
            if p.name in skip:
                result.passes.append((f"{p.name} (skipped)", 0.0))
                continue
            start = time.perf_counter()
            p.apply(ctx, module)
            result.passes.append((p.name, time.perf_counter() - start))
        result.cpu = time.process_time() - cpu_start
    result.gc = gc_timer.seconds
    if upstream:
        steps = [
            ("canonicalize", 6, result.passes[5][1], ["--canonicalize"]),
            (
                "dealloc (7-14)",
                7,
                result.dealloc,
                ["--buffer-deallocation-pipeline", "--cse", "--canonicalize"],
            ),
            ("cse", 18, result.passes[17][1], ["--cse"]),
        ]
        for step, number, ours, flags in steps:
            entry = Upstream(step, ours)
            source = inputs[number]
            if number == 7:
                source = with_buffer_based_ops(source)
            try:
                entry.theirs = mlir_opt_seconds(generic_text(source), flags)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                entry.error = str(e)
            result.upstream.append(entry)
    return result


def report(results: list[Result], per_pass: bool) -> None:
    if per_pass:
        names = [n for n, _ in results[0].passes]
        head = f"{'#':>2} {'pass':<38}" + "".join(f"{r.model:>12}" for r in results)
        print(head)
        for i, n in enumerate(names):
            row = "".join(f"{r.passes[i][1]:12.4f}" for r in results)
            print(f"{i + 1:>2} {n:<38}{row}")
        print()
    print(
        f"{'model':<14}{'ops':>8}{'parse s':>10}{'pipeline s':>12}{'(cpu s)':>9}"
        f"{'(gc s)':>8}{'dealloc s':>11}{'  upstream (ours s / upstream s = ratio)'}"
    )
    for r in results:
        ups = "  ".join(
            f"{u.step}: {u.ours:.4f}/"
            + (f"{u.theirs:.4f}={u.ours / u.theirs:.2f}x" if u.theirs else "n/a")
            + (f" ({u.error})" if u.error else "")
            for u in r.upstream
        )
        print(
            f"{r.model:<14}{r.ops:>8}{r.parse:>10.3f}{r.total:>12.3f}{r.cpu:>9.3f}"
            f"{r.gc:>8.3f}{r.dealloc:>11.3f}  {ups}"
        )
    by_name = {r.model: r for r in results}
    if "10 layers" in by_name and "100 layers" in by_name:
        growth = by_name["100 layers"].total / by_name["10 layers"].total
        print(f"\npipeline time, 100 layers / 10 layers: {growth:.1f}x (linear: 10x)")
    if "100 layers" in by_name and "1000 layers" in by_name:
        growth = by_name["1000 layers"].total / by_name["100 layers"].total
        print(f"pipeline time, 1000 layers / 100 layers: {growth:.1f}x (linear: 10x)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, nargs="*", default=[1, 10, 100, 1000])
    parser.add_argument("--no-upstream", action="store_true")
    parser.add_argument("--passes", action="store_true", help="time of every pass")
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs")
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="PASS",
        help="do not run this pass (one too slow for the big models)",
    )
    args = parser.parse_args(argv)
    upstream = not args.no_upstream and shutil.which(MLIR_OPT) is not None
    if not args.no_upstream and not upstream:
        print(f"{MLIR_OPT} not found: upstream comparison skipped", file=sys.stderr)
    warnings.simplefilter("ignore")  # the elided weights become zeros: expected
    models = [("attention", ATTENTION.read_text())] + [
        (f"{n} layers", attention_layers(n)) for n in args.layers
    ]
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in models:
            runs = [
                measure(name, text, upstream, Path(tmp), args.skip)
                for _ in range(args.repeat)
            ]
            results.append(min(runs, key=lambda r: r.total))
    report(results, args.passes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
