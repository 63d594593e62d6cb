"""An int4 LLM decode step: xhip's CPU runtime against ONNX Runtime's CPU EP.

The models are onnxruntime-genai's builder's Llama (`tests/fixtures/genai/`,
2 layers, hidden 64, int4 MatMulNBits at accuracy level 4, and its fp32
twin): one new token on a KV cache of 127 positions (the model's rotary cache
has 128 positions, so 127 past + 1 new is the longest step it can take),
batch 1, the cache random normal. Then MatMulNBits alone, a 4-bit 2048 x
2048 weight (block 32, packed zero points) times 1 and 128 rows, at accuracy
levels 0 (float) and 4 (int8), so the kernel's speed shows beyond the tiny
model.

Each (case, engine) runs in a fresh process, 2 threads each (ORT's
intra-op threads, xhip's `CpuRuntime(threads=2)`, which numba's kernels
follow); xhip and ORT alternate, `--runs` rounds, and each process prints
the best of `--repeats` timings of a loop of calls. The ratio is taken
within each round. xhip's first call (numba's compile, or its load from the
on-disk cache) is printed apart and is not in the timings.

    .venv/bin/python benchmarks/llm_decode.py [--quick] [--runs 3] [--repeats 7]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

REPO = Path(__file__).resolve().parents[1]
GENAI = REPO / "tests" / "fixtures" / "genai"
PAST = 127
"""The model's rotary cache has 128 positions: 127 past + the new token."""
THREADS = 2
CASES = (
    "llama int4 decode",
    "llama fp32 decode",
    "nbits 1x2048x2048 level 0",
    "nbits 1x2048x2048 level 4",
    "nbits 128x2048x2048 level 0",
    "nbits 128x2048x2048 level 4",
)


def llama(precision: str) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """The builder's model and one decode step's feeds: a token, an all-ones
    mask over past and new, a random KV cache of `PAST` positions."""
    model = onnx.load(str(GENAI / f"llama_{precision}.onnx"))
    rng = np.random.default_rng(0)
    feeds: dict[str, np.ndarray] = {
        "input_ids": rng.integers(0, 256, (1, 1)),
        "attention_mask": np.ones((1, PAST + 1), np.int64),
    }
    for value in model.graph.input:
        if value.name.startswith("past_key_values."):
            feeds[value.name] = rng.standard_normal((1, 2, PAST, 16)).astype(np.float32)
    return model, feeds


def nbits(
    rows: int, size: int, level: int
) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """One MatMulNBits node, a 4-bit (size, size) weight in blocks of 32."""
    block, rng = 32, np.random.default_rng(1)
    blocks = size // block
    q = rng.integers(0, 16, (size, blocks, block // 2), dtype=np.uint8)
    packed = q | (rng.integers(0, 16, q.shape, dtype=np.uint8) << 4)
    zero = rng.integers(0, 256, (size, blocks // 2), dtype=np.uint8)
    scales = rng.uniform(0.01, 0.1, (size, blocks)).astype(np.float32)
    node = helper.make_node(
        "MatMulNBits",
        ["a", "b", "s", "z"],
        ["y"],
        domain="com.microsoft",
        K=size,
        N=size,
        bits=4,
        block_size=block,
        accuracy_level=level,
    )
    f = TensorProto.FLOAT
    graph = helper.make_graph(
        [node],
        "nbits",
        [helper.make_tensor_value_info("a", f, [rows, size])],
        [helper.make_tensor_value_info("y", f, [rows, size])],
        [
            numpy_helper.from_array(packed, "b"),
            numpy_helper.from_array(scales, "s"),
            numpy_helper.from_array(zero, "z"),
        ],
    )
    model = helper.make_model(
        graph,
        opset_imports=[
            helper.make_opsetid("", 21),
            helper.make_opsetid("com.microsoft", 1),
        ],
    )
    return model, {"a": rng.standard_normal((rows, size)).astype(np.float32)}


def case(name: str) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    if name.startswith("llama"):
        return llama(name.split()[1])
    _, dims, _, level = name.split()
    rows, size, _ = (int(d) for d in dims.split("x"))
    return nbits(rows, size, int(level))


def best_ms(fn: Callable[[], object], budget: float, repeats: int) -> float:
    """Best over `repeats` loops of the mean ms per call."""
    fn()
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-7)
    calls = max(1, int(budget / repeats / once))
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best * 1e3


def child(name: str, engine: str, budget: float, repeats: int) -> dict[str, float]:
    """One engine on one case in this process: its times, and xhip's first
    call and largest difference from ORT."""
    import onnxruntime as ort

    model, feeds = case(name)
    options = ort.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    want = session.run(None, feeds)[0]
    if engine == "ort":
        run = session.run
        return {"ms": best_ms(lambda: run(None, feeds), budget, repeats)}
    del session  # ORT's idle threads out of xhip's way
    import xhip
    from xhip.backend.cpu import CpuRuntime

    compiled = xhip.compile(model, runtime=CpuRuntime(threads=THREADS))
    start = time.perf_counter()
    got = next(iter(compiled(feeds).values()))
    first = (time.perf_counter() - start) * 1e3
    ms = best_ms(lambda: compiled(feeds), budget, repeats)
    return {"ms": ms, "first_ms": first, "diff": float(np.abs(got - want).max())}


def run_child(name: str, engine: str, budget: float, repeats: int) -> dict[str, float]:
    argv = [sys.executable, __file__, "--child", name, engine]
    argv += ["--budget", str(budget), "--repeats", str(repeats)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"llm_decode: {name} on {engine} failed:\n{done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    parser.add_argument("--runs", type=int, default=3, help="rounds of each case")
    parser.add_argument("--repeats", type=int, default=7, help="timings per process")
    parser.add_argument("--budget", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    budget = args.budget or (0.5 if args.quick else 2.0)
    if args.child:
        name, engine = args.child
        print(json.dumps(child(name, engine, budget, args.repeats)))
        return
    import onnxruntime as ort

    print(
        f"cpus: {os.cpu_count()}, load {os.getloadavg()[0]:.2f}, onnxruntime "
        f"{ort.__version__}, {THREADS} threads each; ms per call, best of "
        f"{args.repeats}, {args.runs} rounds (fresh processes, alternating)"
    )
    print(
        f"{'case':<30} {'xhip ms':>9} {'ORT ms':>9} {'xhip/ORT':>9} "
        f"{'1st call':>9} {'max diff':>9}"
    )
    for name in CASES:
        for _ in range(args.runs):
            ours = run_child(name, "xhip", budget, args.repeats)
            theirs = run_child(name, "ort", budget, args.repeats)
            print(
                f"{name:<30} {ours['ms']:9.3f} {theirs['ms']:9.3f} "
                f"{ours['ms'] / theirs['ms']:9.2f} {ours['first_ms']:9.1f} "
                f"{ours['diff']:9.2e}",
                flush=True,
            )
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
