"""Run time of a pre-LN transformer block: xhip CPU runtime vs ONNX Runtime CPU.

The block (built with `onnx.helper`, random weights, dynamic batch and seq):
LayerNormalization -> multi-head self-attention (Q, K, V projections,
Reshape/Transpose to heads, MatMul, scale, Softmax, MatMul, output
projection) -> residual Add -> LayerNormalization -> MLP (4x, erf GELU) ->
residual Add. `xhip.compile(model, device="cpu")` (plan engine) against an
ONNX Runtime session (CPU execution provider), 2 threads each (xhip's pool,
BLAS held at one thread; ORT's intra-op threads, inter-op 1, sequential).

By default each side runs in fresh processes, in turn (`fresh.py`: issue 25's
protocol; best and median per process, the ratio taken within each pair of
processes, load before and after). `--paired` runs both in this one process,
one call of each in turn (`paired.py`), after checking that their outputs
agree; there ONNX Runtime's pool does not spin (it would take the next xhip
call's second core).

    .venv/bin/python benchmarks/transformer_block.py [--d-model 512] [--heads 8] \
        [--rounds 3] [--calls 10] [--paired [--quick]]

`--layers N` runs a stack of N such blocks instead (`big_model.py`'s model,
written to a temporary folder), `--shapes 1x128,4x128` other (batch, seq):

    .venv/bin/python benchmarks/transformer_block.py --d-model 256 --heads 4 \
        --layers 12 --shapes 1x128,4x128
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import tempfile
from collections.abc import Callable
from functools import partial
from typing import Any

import fresh
import numpy as np
import onnx
from big_model import write_big_model
from onnx import TensorProto, helper, numpy_helper
from paired import paired_seconds

import xhip
from xhip.backend.cpu import CpuRuntime

SHAPES = ((8, 128), (4, 512))


def transformer_block(d: int, heads: int, seed: int = 0) -> onnx.ModelProto:
    """The pre-LN block on X [batch, seq, d], MLP hidden 4 * d."""
    rng = np.random.default_rng(seed)
    head, hidden = d // heads, 4 * d
    initializers: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def const(name: str, value: object) -> str:
        array = np.asarray(value)
        if array.dtype == np.float64:
            array = array.astype(np.float32)
        initializers.append(numpy_helper.from_array(array, name))
        return name

    def weight(name: str, *shape: int) -> str:
        return const(name, rng.standard_normal(shape) / np.sqrt(shape[0]))

    def node(op: str, inputs: list[str], output: str, **attrs: Any) -> str:
        nodes.append(helper.make_node(op, inputs, [output], **attrs))
        return output

    def linear(x: str, name: str, d_in: int, d_out: int) -> str:
        y = node("MatMul", [x, weight(f"{name}_w", d_in, d_out)], f"{name}_mm")
        return node("Add", [y, const(f"{name}_b", rng.normal(0, 0.1, d_out))], name)

    def layer_norm(x: str, name: str) -> str:
        scale = const(f"{name}_g", rng.uniform(0.5, 1.5, d))
        bias = const(f"{name}_beta", rng.normal(0, 0.1, d))
        return node("LayerNormalization", [x, scale, bias], name, epsilon=1e-5)

    const("split", np.array([0, 0, heads, head], np.int64))
    const("merge", np.array([0, 0, d], np.int64))
    ln1 = layer_norm("X", "ln1")
    q = node("Reshape", [linear(ln1, "q", d, d), "split"], "q_heads")
    k = node("Reshape", [linear(ln1, "k", d, d), "split"], "k_heads")
    v = node("Reshape", [linear(ln1, "v", d, d), "split"], "v_heads")
    q = node("Transpose", [q], "q_t", perm=[0, 2, 1, 3])
    k = node("Transpose", [k], "k_t", perm=[0, 2, 3, 1])
    v = node("Transpose", [v], "v_t", perm=[0, 2, 1, 3])
    scores = node("MatMul", [q, k], "scores")
    scaled = node("Mul", [scores, const("scale", 1 / math.sqrt(head))], "scaled")
    probs = node("Softmax", [scaled], "probs", axis=-1)
    context = node("MatMul", [probs, v], "context")
    context = node("Transpose", [context], "context_t", perm=[0, 2, 1, 3])
    context = node("Reshape", [context, "merge"], "context_m")
    r1 = node("Add", ["X", linear(context, "o", d, d)], "r1")
    h = linear(layer_norm(r1, "ln2"), "fc1", d, hidden)
    e = node("Erf", [node("Div", [h, const("sqrt2", math.sqrt(2))], "g1")], "g2")
    g = node("Mul", [node("Add", [e, const("one", 1.0)], "g3"), h], "g4")
    g = node("Mul", [g, const("half", 0.5)], "gelu")
    node("Add", [r1, linear(g, "fc2", hidden, d)], "Y")
    f = TensorProto.FLOAT
    graph = helper.make_graph(
        nodes,
        "transformer_block",
        [helper.make_tensor_value_info("X", f, ["batch", "seq", d])],
        [helper.make_tensor_value_info("Y", f, ["batch", "seq", d])],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    onnx.checker.check_model(model)
    return model


def _model(args: argparse.Namespace, folder: str) -> onnx.ModelProto | str:
    """The one block, or the stack of `--layers` written to `folder`."""
    if args.layers > 1:
        return write_big_model(folder, args.layers, args.d_model, args.heads)
    return transformer_block(args.d_model, args.heads)


def _shape(case: str) -> tuple[int, int]:
    batch, seq = case.split("x")
    return int(batch), int(seq)


def _feeds(args: argparse.Namespace, case: str) -> dict[str, np.ndarray]:
    batch, seq = _shape(case)
    x = np.random.default_rng(0).standard_normal((batch, seq, args.d_model))
    return {"X": x.astype(np.float32)}


def make(kind: str, case: str, args: argparse.Namespace) -> Callable[[], object]:
    """One call of `kind` ("xhip" or "ort") at `case` ("8x128"), in a worker."""
    folder = tempfile.mkdtemp(prefix="xhip-bench-")
    model = _model(args, folder)
    feeds = _feeds(args, case)
    if kind == "ort":
        source = model if isinstance(model, str) else model.SerializeToString()
        return partial(fresh.ort_session(source, args.threads).run, None, feeds)
    compiled = xhip.compile(
        model, device="cpu", runtime=CpuRuntime(threads=args.threads)
    )
    shutil.rmtree(folder)  # the compiled model holds its weights
    return partial(compiled, feeds)


def paired(args: argparse.Namespace, cases: list[str]) -> None:
    """xhip and ORT in this one process, one call of each in turn
    (`paired.py`); checks that their outputs agree."""
    budget = 1.0 if args.quick else 3.0
    folder = tempfile.TemporaryDirectory()
    model = _model(args, folder.name)
    runtime = CpuRuntime(threads=args.threads)
    compiled = xhip.compile(model, device="cpu", runtime=runtime)
    source = model if isinstance(model, str) else model.SerializeToString()
    session = fresh.ort_session(source, args.threads, spin=False)
    print(
        f"cpus: {os.cpu_count()}, threads: {args.threads} (xhip workers, ORT "
        f"intra-op), load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"{'batch x seq':>12} {'xhip ms':>9} {'ort ms':>9} {'xhip/ort':>9} {'best of':>8}"
    )
    for case in cases:
        feeds = _feeds(args, case)
        got = compiled(feeds)["Y"]
        want = np.asarray(session.run(None, feeds)[0])
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4)
        (ours, ours_best), (theirs, theirs_best) = paired_seconds(
            partial(compiled, feeds), partial(session.run, None, feeds), 2 * budget
        )
        print(
            f"{case:>12} {ours * 1e3:9.3f} {theirs * 1e3:9.3f} "
            f"{ours / theirs:9.2f} {ours_best / theirs_best:8.2f}"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    runtime.close()
    folder.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    parser.add_argument("--d-model", type=int, default=512)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--layers", type=int, default=1, help="blocks in a stack")
    parser.add_argument("--shapes", help="batch x seq, comma-separated: 1x128,4x128")
    parser.add_argument("--paired", action="store_true", help="both in one process")
    fresh.add_arguments(parser, rounds=3, calls=10)
    args = parser.parse_args()
    cases = args.shapes.split(",") if args.shapes else [f"{b}x{s}" for b, s in SHAPES]
    if args.paired:
        paired(args, cases)
    else:
        title = (
            f"{args.layers} block(s): d_model {args.d_model}, {args.heads} heads, "
            f"MLP {4 * args.d_model}"
        )
        fresh.main(make, args, cases, __file__, title)


if __name__ == "__main__":
    main()
