"""The GPU path's host cost: microseconds per call on a device that does nothing.

The CUDA runtime runs over the emulated device (`xhip.testing.emulator`) with
its kernel launches and GEMMs made no-ops, so what is timed is the host's
work alone (sizes, views, arguments, and the emulator's memory copies of the
inputs and outputs). Per model, at batch 1 x seq 128: host us per call with
bound plans (the default) and without (`max_bound_plans=0`), and the device
calls (kernel launches plus GEMMs) per call. There is no graph replay yet, so
every row has `graph: false`.

Models: the attention example, the pre-LN transformer block at d_model 512
(8 heads), a stack of 12 such blocks (`big_model.write_big_model`), and the
GPT-2 fixture (torchscript export).

    .venv/bin/python benchmarks/gpu_host.py [--json rows.json] [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from big_model import write_big_model
from transformer_block import transformer_block

import xhip
from xhip.backend.cuda import CudaRuntime
from xhip.backend.gpu import kernel_source
from xhip.backend.session import CompiledModel
from xhip.testing.emulator import EmulatedDevice, EmulatedKernels

REPO = Path(__file__).resolve().parents[1]
BATCH, SEQ = 1, 128


class Counter:
    """The device's launches and GEMMs, made no-ops and counted."""

    def __init__(self) -> None:
        self.calls = 0

    def nothing(self, *args: object) -> None:
        self.calls += 1


def runtime(kernels: EmulatedKernels, counter: Counter) -> CudaRuntime:
    device: Any = EmulatedDevice(32, kernels=kernels)
    device.launch = counter.nothing
    device.gemm_strided_batched = counter.nothing
    return CudaRuntime(device=device)


def feeds(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    """Inputs at batch x seq; GPT-2's token ids, the others' activations."""
    rng = np.random.default_rng(0)
    out: dict[str, np.ndarray] = {}
    for value in model.graph.input:
        if value.name in {i.name for i in model.graph.initializer}:
            continue
        t = value.type.tensor_type
        dims = [
            d.dim_value or (BATCH if i == 0 else SEQ) for i, d in enumerate(t.shape.dim)
        ]
        if t.elem_type == onnx.TensorProto.INT64:
            out[value.name] = rng.integers(0, 50, dims).astype(np.int64)
        else:
            out[value.name] = rng.standard_normal(dims).astype(np.float32)
    return out


def best_us(fn: Callable[[], object], repeats: int) -> float:
    fn()
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-6)
    calls = max(1, int(0.5 / once))
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", metavar="F", help="write the rows to F as JSON")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    kernels = EmulatedKernels(kernel_source(), "xhip_kernels.h")
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as scratch:
        write_big_model(scratch, layers=12, d=512, heads=8)
        models = {
            "attention": onnx.load(str(REPO / "examples" / "attention.onnx")),
            "block d512": transformer_block(512, 8),
            "stack 12 x d512": onnx.load(os.path.join(scratch, "model.onnx")),
            "gpt2": onnx.load(
                str(REPO / "tests" / "fixtures" / "models" / "gpt2.torchscript.onnx")
            ),
        }
        print(f"{'model':<16} {'bound us':>9} {'unbound us':>11} {'device calls':>13}")
        for name, model in models.items():
            ir = xhip.compile_to_ir(model)
            inputs = feeds(model)
            result: dict[str, float] = {}
            calls = 0
            for bound in (True, False):
                counter = Counter()
                compiled = CompiledModel(
                    ir.module,
                    ir.signature,
                    ir.constants,
                    runtime(kernels, counter),
                    max_bound_plans=8 if bound else 0,
                )
                compiled(inputs)
                counter.calls = 0
                compiled(inputs)
                calls = counter.calls
                result["bound" if bound else "unbound"] = best_us(
                    partial(compiled, inputs), args.repeats
                )
                compiled.close()
            print(
                f"{name:<16} {result['bound']:9.0f} {result['unbound']:11.0f} {calls:13d}"
            )
            rows.append(
                {
                    "model": name,
                    "graph": False,
                    "host_us_per_call": round(result["bound"], 1),
                    "host_us_per_call_unbound": round(result["unbound"], 1),
                    "device_calls_per_call": calls,
                }
            )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
