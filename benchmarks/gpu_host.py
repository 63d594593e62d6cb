"""The GPU path's host cost: microseconds per call on a device that does nothing.

The CUDA runtime runs over the emulated device (`xhip.testing.emulator`) with
its kernel launches and GEMMs made no-ops, so what is timed is the host's
work alone (sizes, views, arguments, and the emulator's memory copies of the
inputs and outputs). Per model, at batch 1 x seq 128: host us per call with
bound plans replayed as device graphs (`graph: true`; a graph launch costs
one call here), with bound plans replayed call by call (`graph: false`, the
runtime's `graphs = False`), and without bound plans (`max_bound_plans=0`,
in the `graph: false` row), and the device calls (kernel launches plus
GEMMs) per call.

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
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import numpy as np
import onnx
from big_model import write_big_model
from transformer_block import transformer_block

import xhip
from xhip.backend.cuda import CudaRuntime
from xhip.backend.device import KernelArg, StridedGemm
from xhip.backend.gpu import kernel_source
from xhip.backend.session import CompiledModel
from xhip.testing.emulator import EmulatedDevice, EmulatedGraph, EmulatedKernels

REPO = Path(__file__).resolve().parents[1]
BATCH, SEQ = 1, 128


class NullDevice(EmulatedDevice):
    """The emulated device with its launches and GEMMs made no-ops and
    counted. A graph launch is one call, as on a GPU: it counts the launches
    and GEMMs captured in it (and runs its memsets, if any)."""

    def __init__(self, kernels: EmulatedKernels):
        super().__init__(32, kernels=kernels)
        self.calls = 0
        self._captured = 0
        self._nodes: dict[int, int] = {}

    def _nothing(self) -> None:
        if self._capture is not None:
            self._captured += 1
            return
        self.calls += 1

    def launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> None:
        self._nothing()

    def gemm_strided_batched(self, call: StridedGemm) -> None:
        self._nothing()

    def end_capture(self) -> EmulatedGraph:
        graph = super().end_capture()
        self._nodes[id(graph)] = self._captured
        self._captured = 0
        return graph

    def launch_graph(self, graph: EmulatedGraph) -> None:
        self.calls += self._nodes[id(graph)]
        super().launch_graph(graph)


def runtime(kernels: EmulatedKernels, graphs: bool) -> CudaRuntime:
    return CudaRuntime(device=NullDevice(kernels), graphs=graphs)


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
        print(
            f"{'model':<16} {'graph us':>9} {'bound us':>9} {'unbound us':>11} "
            f"{'device calls':>13}"
        )
        for name, model in models.items():
            ir = xhip.compile_to_ir(model)
            inputs = feeds(model)
            result: dict[str, float] = {}
            calls: dict[str, int] = {}
            for mode in ("graph", "bound", "unbound"):
                gpu = runtime(kernels, graphs=mode == "graph")
                compiled = CompiledModel(
                    ir.module,
                    ir.signature,
                    ir.constants,
                    gpu,
                    max_bound_plans=0 if mode == "unbound" else 8,
                )
                compiled(inputs)
                compiled(inputs)  # a graph is captured on the first replay
                device = gpu.device
                assert isinstance(device, NullDevice)
                device.calls = 0
                compiled(inputs)
                calls[mode] = device.calls
                result[mode] = best_us(partial(compiled, inputs), args.repeats)
                compiled.close()
            assert len(set(calls.values())) == 1, calls
            print(
                f"{name:<16} {result['graph']:9.0f} {result['bound']:9.0f} "
                f"{result['unbound']:11.0f} {calls['graph']:13d}"
            )
            rows.append(
                {
                    "model": name,
                    "graph": True,
                    "host_us_per_call": round(result["graph"], 1),
                    "device_calls_per_call": calls["graph"],
                }
            )
            rows.append(
                {
                    "model": name,
                    "graph": False,
                    "host_us_per_call": round(result["bound"], 1),
                    "host_us_per_call_unbound": round(result["unbound"], 1),
                    "device_calls_per_call": calls["bound"],
                }
            )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
