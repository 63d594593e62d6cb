"""`hip-fuse-elementwise` on the CPU runtime: time per call (best of N) and
compute ops (device calls) per call, fused and unfused, on an erf-GELU MLP
and on the llama fixture (docs/benchmarks.md, "Elementwise fusion").

    .venv/bin/python benchmarks/fusion.py [--rows 4096] [--repeat 15]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np
from onnx import ModelProto, TensorProto, helper, numpy_helper

from xhip.api import CompiledIR, compile_to_ir
from xhip.backend.cpu import CpuRuntime
from xhip.backend.session import CompiledModel
from xhip.dialects import hip

FIXTURES = Path(__file__).parents[1] / "tests" / "fixtures" / "models"


def gelu_mlp(d: int = 256, h: int = 1024) -> ModelProto:
    """MatMul, the eight-op erf-GELU as torch exports it (bias add first), MatMul."""
    rng = np.random.default_rng(0)

    def const(name: str, value: Any) -> TensorProto:
        return numpy_helper.from_array(np.asarray(value, np.float32), name)

    inits = [
        const("w1", rng.standard_normal((d, h)) * 0.05),
        const("b1", rng.standard_normal(h)),
        const("w2", rng.standard_normal((h, d)) * 0.05),
        const("sqrt2", 1.4142135),
        const("one", 1.0),
        const("half", 0.5),
    ]
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["m"]),
        helper.make_node("Add", ["m", "b1"], ["a"]),
        helper.make_node("Div", ["a", "sqrt2"], ["d"]),
        helper.make_node("Erf", ["d"], ["e"]),
        helper.make_node("Add", ["e", "one"], ["e1"]),
        helper.make_node("Mul", ["a", "e1"], ["g"]),
        helper.make_node("Mul", ["g", "half"], ["g2"]),
        helper.make_node("MatMul", ["g2", "w2"], ["y"]),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", d])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", d])
    graph = helper.make_graph(nodes, "gelu_mlp", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def measure(
    ir: CompiledIR, inputs: dict[str, np.ndarray], fuse: bool, repeat: int
) -> tuple[float, int]:
    """(best seconds per call, compute ops per call)."""
    model = CompiledModel(
        ir.module, ir.signature, ir.constants, CpuRuntime(), fuse_elementwise=fuse
    )
    ops = sum(isinstance(op, hip.HipDPSOp) for op in model.module.walk())
    model(inputs)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        model(inputs)
        best = min(best, time.perf_counter() - start)
    model.close()
    return best, ops


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    cases = [
        (
            f"gelu_mlp {args.rows}x256",
            compile_to_ir(gelu_mlp()),
            {"x": rng.standard_normal((args.rows, 256)).astype(np.float32)},
        )
    ]
    data = dict(np.load(FIXTURES / "llama.torchscript.npz"))
    cases.append(
        (
            "llama.torchscript",
            compile_to_ir(FIXTURES / "llama.torchscript.onnx"),
            {k: data[k] for k in ("input_ids", "attention_mask")},
        )
    )
    for name, ir, inputs in cases:
        for fuse in (False, True):
            best, ops = measure(ir, inputs, fuse, args.repeat)
            label = "fused" if fuse else "unfused"
            print(f"{name:20} {label:8} {best * 1e3:9.3f} ms  {ops:4d} ops per call")


if __name__ == "__main__":
    main()
