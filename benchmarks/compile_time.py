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
    python benchmarks/compile_time.py --process --repeat 3
    python benchmarks/compile_time.py --process --transformer 12 --layers

`--process` times whole processes instead, as a user sees them: for N chained
attention layers written as `.onnx` files (8 ONNX nodes each, random weights),
`xhip compile <model> -o <dir>/out.mlir` against `mlir-opt-22` running the
seed's standard passes (`one-shot-bufferize` with function boundaries,
`buffer-results-to-out-params` with the seed's options, `expand-realloc`,
`canonicalize`, `buffer-deallocation-pipeline`, `canonicalize`, `cse`,
`canonicalize`) on the same model in pass-2 form (after `convert-onnx-to-hip`,
weights externalized), written to a file, best of `--repeat`, in the same run.
Upstream does not know the hip dialect and its bufferization refuses unknown
ops, so there each tensor-mode hip op is a `linalg.generic` with the same `ins`
and `outs` (one loop per operand dimension, so any shapes verify; a body that
uses every operand through `builtin.unrealized_conversion_cast`, so none is
dropped): an op upstream bufferizes, deallocates and cleans up as we do ours.
`--transformer B` adds a stack of B pre-LN transformer blocks
(`transformer_block.py`'s, d_model 256) to the models, xhip only.

The `(gc s)` column is the part of the pipeline's time spent in Python's cyclic
garbage collector: its full collections walk every live object, so they cost
more per pass on bigger models.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import resource
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
from typing import cast

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from xdsl.context import Context
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ModuleOp,
    TensorType,
    UnregisteredOp,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Region
from xdsl.ir.affine import AffineExpr, AffineMap
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


# --process: whole processes.

LINALG_STAND_IN_FLAGS = (
    "--allow-unregistered-dialect",
    "--mlir-disable-threading",
    "--one-shot-bufferize=bufferize-function-boundaries",
    "--buffer-results-to-out-params=hoist-static-allocs hoist-dynamic-allocs "
    "add-result-attr modify-public-functions",
    "--expand-realloc",
    "--canonicalize",
    "--buffer-deallocation-pipeline",
    "--canonicalize",
    "--cse",
    "--canonicalize",
)
"""The seed's standard passes (its stages 3-14 and 18-19) as `mlir-opt` flags."""


def attention_chain_onnx(layers: int, head: int = 64) -> onnx.ModelProto:
    """`layers` seed attention layers (8 ONNX nodes each) in a `.onnx` model,
    each feeding the next; random weights as initializers."""
    rng = np.random.default_rng(0)
    inits: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []
    src = "X"
    for i in range(layers):
        for j, name in enumerate("qkv"):
            w = (rng.standard_normal((head, head)) / np.sqrt(head)).astype(np.float32)
            inits.append(numpy_helper.from_array(w, f"w{j}_{i}"))
            nodes.append(
                helper.make_node("MatMul", [src, f"w{j}_{i}"], [f"{name}_{i}"])
            )
        scale = np.array(head**-0.5, np.float32)
        inits.append(numpy_helper.from_array(scale, f"scale_{i}"))
        nodes += [
            helper.make_node("Transpose", [f"k_{i}"], [f"kt_{i}"], perm=[0, 2, 1]),
            helper.make_node("MatMul", [f"q_{i}", f"kt_{i}"], [f"s_{i}"]),
            helper.make_node("Mul", [f"s_{i}", f"scale_{i}"], [f"ss_{i}"]),
            helper.make_node("Softmax", [f"ss_{i}"], [f"p_{i}"], axis=-1),
            helper.make_node("MatMul", [f"p_{i}", f"v_{i}"], [f"o_{i}"]),
        ]
        src = f"o_{i}"
    f = TensorProto.FLOAT
    graph = helper.make_graph(
        nodes,
        "attention_chain",
        [helper.make_tensor_value_info("X", f, ["batch", "seq", head])],
        [helper.make_tensor_value_info(src, f, ["batch", "seq", head])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def transformer_stack_onnx(
    blocks: int, d: int = 256, heads: int = 4
) -> onnx.ModelProto:
    """`blocks` of `transformer_block.py`'s block, each feeding the next."""
    # lazy: the run-time benchmark's module, only for this model
    from transformer_block import transformer_block

    one = transformer_block(d, heads).graph
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []
    src = "X"
    for b in range(blocks):
        names = {"X": src, "Y": f"b{b}_Y"}

        def rename(name: str, b: int = b, names: dict[str, str] = names) -> str:
            return names.get(name, f"b{b}_{name}") if name else name

        for n in one.node:
            copy = onnx.NodeProto()
            copy.CopyFrom(n)
            copy.input[:] = [rename(x) for x in n.input]
            copy.output[:] = [rename(x) for x in n.output]
            nodes.append(copy)
        for t in one.initializer:
            copy = onnx.TensorProto()
            copy.CopyFrom(t)
            copy.name = rename(t.name)
            inits.append(copy)
        src = names["Y"]
    f = TensorProto.FLOAT
    graph = helper.make_graph(
        nodes,
        "transformer_stack",
        [helper.make_tensor_value_info("X", f, ["batch", "seq", d])],
        [helper.make_tensor_value_info(src, f, ["batch", "seq", d])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def linalg_stand_in(module: ModuleOp) -> ModuleOp:
    """A copy whose tensor-mode hip ops are `linalg.generic`s of the same `ins`
    and `outs`, for upstream's bufferization (see the module's docstring)."""
    module = module.clone()
    use_all = UnregisteredOp.with_name("builtin.unrealized_conversion_cast")
    for op in list(module.walk()):
        if not (isinstance(op, hip.HipDPSOp) and op.is_tensor_mode):
            continue
        values = [*op.inputs, *op.outputs]  # pyright: ignore[reportAttributeAccessIssue]
        shaped = [cast(TensorType[Attribute], v.type) for v in values]
        loops = sum(t.get_num_dims() for t in shaped)
        maps: list[AffineMapAttr] = []
        first = 0
        for t in shaped:
            rank = t.get_num_dims()
            dims = tuple(AffineExpr.dimension(first + i) for i in range(rank))
            maps.append(AffineMapAttr(AffineMap(loops, 0, dims)))
            first += rank
        outputs = list(op.outputs)  # pyright: ignore[reportAttributeAccessIssue]
        block = Block(arg_types=[t.get_element_type() for t in shaped])
        body = use_all.create(
            operands=list(block.args),
            result_types=[
                cast(TensorType[Attribute], o.type).get_element_type() for o in outputs
            ],
        )
        block.add_ops([body, YieldOp(*body.results)])
        generic = GenericOp(
            list(op.inputs),  # pyright: ignore[reportAttributeAccessIssue]
            outputs,
            Region(block),
            maps,
            [IteratorTypeAttr.parallel()] * loops,
            [o.type for o in outputs],
        )
        Rewriter.replace_op(op, generic)
    return module


def xhip_command() -> list[str]:
    """The `xhip` command of this interpreter's environment."""
    script = Path(sys.executable).with_name("xhip")
    return [str(script)] if script.exists() else [sys.executable, "-m", "xhip.cli"]


def wall_seconds(command: Sequence[str], pythonpath: str | None = None) -> float:
    return timed_run(command, pythonpath)[0]


def timed_run(
    command: Sequence[str], pythonpath: str | None = None
) -> tuple[float, float]:
    """Wall seconds of `command` and its CPU seconds (user + system, children
    included), which other work on the machine moves much less."""
    env = None if pythonpath is None else {**os.environ, "PYTHONPATH": pythonpath}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=3600, env=env
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise RuntimeError(f"{command[0]} failed: {lines[-1] if lines else '?'}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def process_table(
    models: Sequence[tuple[str, onnx.ModelProto, bool]],
    repeat: int,
    against: str | None = None,
) -> int:
    """Whole-process wall seconds of `xhip compile` and `mlir-opt-22`, best of
    `repeat`, the two interleaved so that both see the same load; with
    `against`, also the same compile with that directory's `xhip` package
    (`git archive REV xhip | tar -x -C DIR`) first on the path. Then the same
    table in CPU seconds (user + system), which a loaded machine moves less."""
    upstream = shutil.which(MLIR_OPT)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"xhip: {' '.join(xhip_command())} compile MODEL.onnx -o DIR/out.mlir")
    print(f"{MLIR_OPT}: {' '.join(LINALG_STAND_IN_FLAGS)} PASS2.mlir -o DIR/out.mlir")
    base = f"{'against s':>11}{'ratio':>8}" if against else ""
    print(f"{'model':<16}{'nodes':>7}{'xhip s':>9}{'mlir-opt s':>12}{'ratio':>8}{base}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, model, compare in models:
            folder = Path(tmp) / name.replace(" ", "_")
            folder.mkdir()
            path = folder / "model.onnx"
            onnx.save(model, str(path))
            ours_cmd = [
                *xhip_command(),
                "compile",
                str(path),
                "-o",
                str(folder / "out.mlir"),
            ]
            theirs_cmd: list[str] | None = None
            if compare and upstream:
                pass2 = folder / "pass2.mlir"
                pass2.write_text(
                    generic_text(linalg_stand_in(pass_2_form(path, folder)))
                )
                theirs_cmd = [
                    upstream,
                    *LINALG_STAND_IN_FLAGS,
                    str(pass2),
                    "-o",
                    str(folder / "upstream.mlir"),
                ]
            runs: dict[str, list[tuple[float, float]]] = {
                "ours": [],
                "theirs": [],
                "before": [],
            }
            for _ in range(repeat):
                runs["ours"].append(timed_run(ours_cmd))
                if theirs_cmd:
                    runs["theirs"].append(timed_run(theirs_cmd))
                if against:
                    runs["before"].append(timed_run(ours_cmd, against))
            for kind in (0, 1):
                ours, theirs, before = (
                    [run[kind] for run in runs[key]]
                    for key in ("ours", "theirs", "before")
                )
                them = (
                    f"{min(theirs):12.3f}{min(ours) / min(theirs):7.2f}x"
                    if theirs
                    else f"{'n/a':>12}"
                )
                if before:
                    ratio = f"{min(before) / min(theirs):7.2f}x" if theirs else ""
                    them += f"{min(before):11.3f}{ratio}"
                label = name if kind == 0 else "  (CPU s)"
                print(f"{label:<16}{len(model.graph.node):>7}{min(ours):9.3f}{them}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


def pass_2_form(path: Path, folder: Path) -> ModuleOp:
    """The model after passes 1-2, constants externalized into `folder`."""
    # lazy: the ONNX importer, only for --process
    from xhip.frontend.onnx_importer import import_model

    module = import_model(str(path))
    ctx = make_context()
    for p in onnx_to_hip_passes(externalize_output_dir=str(folder))[:2]:
        p.apply(ctx, module)
    return module


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--layers", type=int, nargs="*", default=None)
    parser.add_argument("--no-upstream", action="store_true")
    parser.add_argument("--passes", action="store_true", help="time of every pass")
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs")
    parser.add_argument(
        "--process",
        action="store_true",
        help="whole `xhip compile` processes of .onnx models against mlir-opt-22",
    )
    parser.add_argument(
        "--transformer",
        type=int,
        default=0,
        metavar="B",
        help="with --process: also a stack of B transformer blocks",
    )
    parser.add_argument(
        "--against",
        metavar="DIR",
        help="with --process: also time another revision's xhip package in DIR",
    )
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="PASS",
        help="do not run this pass (one too slow for the big models)",
    )
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # the elided weights become zeros: expected
    if args.process:
        layers = [1, 10, 100] if args.layers is None else args.layers
        models = [(f"{n} layers", attention_chain_onnx(n), True) for n in layers]
        if args.transformer:
            stack = transformer_stack_onnx(args.transformer)
            models.append((f"{args.transformer} blocks", stack, False))
        return process_table(models, args.repeat, args.against)
    if args.layers is None:
        args.layers = [1, 10, 100, 1000]
    upstream = not args.no_upstream and shutil.which(MLIR_OPT) is not None
    if not args.no_upstream and not upstream:
        print(f"{MLIR_OPT} not found: upstream comparison skipped", file=sys.stderr)
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
