"""Run time of ResNet-18 at 1x3x224x224: xhip CPU runtime vs ONNX Runtime CPU.

The model is torchvision's ResNet-18 as its exporters write it (BatchNorm
folded into the convolutions, 1,000 classes), built here with `onnx.helper`
and random weights, so nothing is downloaded; `--model PATH` runs an exported
`.onnx` instead (e.g. `resnet18_224.torchscript.onnx` of
`scripts/export_fixtures.py`). 2 threads each (xhip's pool, ORT's intra-op
threads). By default each side runs in fresh processes, in turn (`fresh.py`:
best and median per process, the ratio within each pair, load before and
after); `--paired` runs both in this process, their calls alternating
(`paired.py`), and prints the median times, the ratio, the compile time and
the largest difference.

    .venv/bin/python benchmarks/resnet18.py [--rounds 3] [--calls 10] [--model PATH] [--paired [--quick]]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from functools import partial

import fresh
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from paired import paired_seconds

import xhip
from xhip.backend.cpu import CpuRuntime


class ResNet18Builder:
    """torchvision's resnet18 layer by layer, each Conv with its folded bias."""

    def __init__(self, classes: int = 1000) -> None:
        self.rng = np.random.default_rng(0)
        self.nodes: list[onnx.NodeProto] = []
        self.weights: list[onnx.TensorProto] = []
        self.classes = classes

    def _name(self, prefix: str) -> str:
        return f"{prefix}{len(self.nodes)}"

    def conv(self, x: str, cin: int, cout: int, k: int, stride: int, relu: bool) -> str:
        w = self.rng.standard_normal((cout, cin, k, k)) * np.sqrt(2 / (cin * k * k))
        b = self.rng.normal(0, 0.05, cout)
        wn, bn, y = self._name("w"), self._name("b"), self._name("conv")
        self.weights += [
            numpy_helper.from_array(w.astype(np.float32), wn),
            numpy_helper.from_array(b.astype(np.float32), bn),
        ]
        pad = k // 2
        self.nodes.append(
            helper.make_node(
                "Conv",
                [x, wn, bn],
                [y],
                kernel_shape=[k, k],
                strides=[stride, stride],
                pads=[pad] * 4,
            )
        )
        return self.relu(y) if relu else y

    def relu(self, x: str) -> str:
        y = self._name("relu")
        self.nodes.append(helper.make_node("Relu", [x], [y]))
        return y

    def block(self, x: str, cin: int, cout: int, stride: int) -> str:
        h = self.conv(x, cin, cout, 3, stride, relu=True)
        h = self.conv(h, cout, cout, 3, 1, relu=False)
        skip = (
            x
            if stride == 1 and cin == cout
            else self.conv(x, cin, cout, 1, stride, False)
        )
        y = self._name("add")
        self.nodes.append(helper.make_node("Add", [h, skip], [y]))
        return self.relu(y)

    def model(self) -> onnx.ModelProto:
        h = self.conv("input", 3, 64, 7, 2, relu=True)
        pooled = self._name("pool")
        self.nodes.append(
            helper.make_node(
                "MaxPool",
                [h],
                [pooled],
                kernel_shape=[3, 3],
                strides=[2, 2],
                pads=[1] * 4,
            )
        )
        h, width = pooled, 64
        for stage, cout in enumerate((64, 128, 256, 512)):
            h = self.block(h, width, cout, 1 if stage == 0 else 2)
            h = self.block(h, cout, cout, 1)
            width = cout
        gap, flat = self._name("gap"), self._name("flat")
        self.nodes += [
            helper.make_node("GlobalAveragePool", [h], [gap]),
            helper.make_node("Flatten", [gap], [flat], axis=1),
        ]
        fc_w = self.rng.standard_normal((self.classes, 512)) / np.sqrt(512)
        self.weights += [
            numpy_helper.from_array(fc_w.astype(np.float32), "fc_w"),
            numpy_helper.from_array(np.zeros(self.classes, np.float32), "fc_b"),
        ]
        self.nodes.append(
            helper.make_node("Gemm", [flat, "fc_w", "fc_b"], ["logits"], transB=1)
        )
        graph = helper.make_graph(
            self.nodes,
            "resnet18",
            [
                helper.make_tensor_value_info(
                    "input", TensorProto.FLOAT, [1, 3, 224, 224]
                )
            ],
            [
                helper.make_tensor_value_info(
                    "logits", TensorProto.FLOAT, [1, self.classes]
                )
            ],
            self.weights,
        )
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _model(args: argparse.Namespace) -> onnx.ModelProto:
    return onnx.load(args.model) if args.model else ResNet18Builder().model()


def _feeds(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    (feed,) = model.graph.input
    x = np.random.default_rng(1).standard_normal((1, 3, 224, 224)).astype(np.float32)
    return {feed.name: x}


def make(kind: str, case: str, args: argparse.Namespace) -> Callable[[], object]:
    """One call of `kind` ("xhip" or "ort") on the one input, in a worker."""
    model = _model(args)
    feeds = _feeds(model)
    if kind == "ort":
        session = fresh.ort_session(model.SerializeToString(), args.threads)
        return partial(session.run, None, feeds)
    runtime = CpuRuntime(threads=args.threads)
    return partial(xhip.compile(model, device="cpu", runtime=runtime), feeds)


def paired(args: argparse.Namespace) -> None:
    """Both in this process, one call of each in turn (`paired.py`); prints
    the compile time and the largest difference too."""
    model = _model(args)
    feeds = _feeds(model)
    start = time.perf_counter()
    compiled = xhip.compile(
        model, device="cpu", runtime=CpuRuntime(threads=args.threads)
    )
    compile_s = time.perf_counter() - start
    session = fresh.ort_session(model.SerializeToString(), args.threads, spin=False)
    (ours, _), (theirs, _) = paired_seconds(
        partial(compiled, feeds),
        partial(session.run, None, feeds),
        4.0 if args.quick else 16.0,
    )
    (got,) = compiled(feeds).values()
    (want,) = session.run(None, feeds)
    print(f"threads: {args.threads}, load average {os.getloadavg()[0]:.2f}")
    print(f"xhip compile: {compile_s:.1f} s")
    print(
        f"{'input':>14} {'xhip ms':>9} {'ort ms':>9} {'xhip/ort':>9} {'max |diff|':>11}"
    )
    print(
        f"{'1x3x224x224':>14} {ours * 1e3:9.1f} {theirs * 1e3:9.1f} "
        f"{ours / theirs:9.2f} {float(np.abs(got - want).max()):11.2e}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter paired runs")
    parser.add_argument("--model", help="an exported ResNet-18 .onnx to run instead")
    parser.add_argument("--paired", action="store_true", help="both in one process")
    fresh.add_arguments(parser, rounds=3, calls=10)
    args = parser.parse_args()
    if args.paired:
        paired(args)
    else:
        title = f"ResNet-18, {args.model or 'ResNet18Builder (random weights)'}"
        fresh.main(make, args, ["1x3x224x224"], __file__, title)


if __name__ == "__main__":
    main()
