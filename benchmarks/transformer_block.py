"""Run time of a pre-LN transformer block: xhip CPU runtime vs ONNX Runtime CPU.

The block (built with `onnx.helper`, random weights, dynamic batch and seq):
LayerNormalization -> multi-head self-attention (Q, K, V projections,
Reshape/Transpose to heads, MatMul, scale, Softmax, MatMul, output
projection) -> residual Add -> LayerNormalization -> MLP (4x, erf GELU) ->
residual Add. `xhip.compile(model, device="cpu")` (plan engine) and an ONNX
Runtime session (CPU execution provider) run in the same process on the same
inputs, one call of each in turn (`paired.py`); prints the median time per
call after a warm-up and the ratio (and the best-of ratio), and checks that
the two outputs agree.

Threads: xhip's CPU runtime uses its default, min(cpus, 8) workers (GEMMs and
large elementwise ops split over them, BLAS held at one thread each); ONNX
Runtime gets intra_op_num_threads = the same count, inter_op 1, sequential
execution.

    .venv/bin/python benchmarks/transformer_block.py [--quick] [--d-model 512] [--heads 8]

`--layers N` runs a stack of N such blocks instead (`big_model.py`'s model,
written to a temporary folder), `--shapes 1x128,4x128` other (batch, seq):

    .venv/bin/python benchmarks/transformer_block.py --d-model 256 --heads 4 \
        --layers 12 --shapes 1x128,4x128
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from paired import paired_seconds

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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    parser.add_argument("--d-model", type=int, default=512)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--layers", type=int, default=1, help="blocks in a stack")
    parser.add_argument("--shapes", help="batch x seq, comma-separated: 1x128,4x128")
    args = parser.parse_args()
    budget = 1.0 if args.quick else 3.0
    shapes = SHAPES
    if args.shapes:
        pairs = [part.split("x") for part in args.shapes.split(",")]
        shapes = tuple((int(b), int(s)) for b, s in pairs)

    import onnxruntime as ort

    import xhip

    folder = tempfile.TemporaryDirectory()
    model: onnx.ModelProto | str = transformer_block(args.d_model, args.heads)
    if args.layers > 1:
        from big_model import write_big_model

        model = write_big_model(folder.name, args.layers, args.d_model, args.heads)
    compiled = xhip.compile(model, device="cpu")
    threads = getattr(compiled.runtime, "threads", os.cpu_count() or 1)
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    source = model if isinstance(model, str) else model.SerializeToString()
    session = ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)

    print(
        f"cpus: {os.cpu_count()}, threads: {threads} (xhip workers, ORT intra-op), "
        f"onnxruntime {ort.__version__}, numpy {np.__version__}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{args.layers} block(s): d_model {args.d_model}, {args.heads} heads, "
        f"MLP {4 * args.d_model}"
    )
    print(
        f"{'batch x seq':>12} {'xhip ms':>9} {'ort ms':>9} {'xhip/ort':>9} "
        f"{'best of':>8}"
    )
    for batch, seq in shapes:
        x = rng.standard_normal((batch, seq, args.d_model)).astype(np.float32)
        feeds = {"X": x}
        got = compiled(feeds)["Y"]
        want = np.asarray(session.run(None, feeds)[0])
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4)
        (ours, ours_best), (theirs, theirs_best) = paired_seconds(
            lambda f=feeds: compiled(f),
            lambda f=feeds: session.run(None, f),
            2 * budget,
        )
        print(
            f"{batch:>5} x {seq:<5} {ours * 1e3:9.3f} {theirs * 1e3:9.3f} "
            f"{ours / theirs:9.2f} {ours_best / theirs_best:8.2f}"
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    compiled.runtime.close()
    folder.cleanup()


if __name__ == "__main__":
    main()
