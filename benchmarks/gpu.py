"""GPU run time: xhip on cuda against torch eager and torch CUDA-graph replay.

Models: the seed's attention at the four standard shapes (benchmarks/run_time.py),
the d=512 transformer block (benchmarks/transformer_block.py), a stack of 12 such
blocks, and the committed GPT-2 and ResNet-18 fixtures at their own inputs (the
ResNet at 224x224 too). torch runs the same ONNX graph on the same weights,
op by op (`TorchGraph`); its shape arithmetic is done once per shape on the
host, so the device work alone is captured and replayed as a CUDA graph.

Times, each the median of repeated calls after a warm-up:
  host ms     wall clock per call, inputs in and outputs out (what a user waits);
  device ms   CUDA events around the call on the device's stream;
  kernels ms  the sum of each kernel's and GEMM's own event time, from one
              profiled call, which also gives the top 10 kernels of each model.

`--emulate`: the CPU stand-in of the CUDA device (xhip.testing.emulator), for
the dry run: host time and the per-kernel record only, torch columns "n/a".
torch is optional everywhere: without it (or without a CUDA device) its
columns say "n/a". The check column compares xhip's output with torch eager's
(else ONNX Runtime's on the CPU).

    python benchmarks/gpu.py [--json F] [--markdown F] [--emulate] [--tiny] [--budget S]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import compose, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent))
from transformer_block import transformer_block  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "models"
ATTENTION_SHAPES = ((1, 128), (8, 128), (8, 512), (4, 2048))
Feeds = dict[str, np.ndarray]


@dataclass
class Row:
    """One model at one shape."""

    model: str
    shape: str
    xhip_ms: float | None = None
    xhip_device_ms: float | None = None
    xhip_kernels_ms: float | None = None
    torch_eager_ms: float | None = None
    torch_eager_device_ms: float | None = None
    torch_graph_ms: float | None = None
    max_rel_err: float | None = None
    checked_against: str = ""
    top_kernels: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    error: str = ""
    torch_note: str = ""


# The models -------------------------------------------------------------------


def attention() -> onnx.ModelProto:
    from xhip.backend.reference import AttentionWeights

    return onnx.load_from_string(AttentionWeights.random(0).onnx_model())


def stack(d: int, heads: int, layers: int) -> onnx.ModelProto:
    """`layers` transformer blocks, each on its own weights, one after another."""
    model: onnx.ModelProto | None = None
    for i in range(layers):
        block = compose.add_prefix(transformer_block(d, heads, seed=i), f"l{i}_")
        if model is None:
            model = block
        else:
            out = model.graph.output[0].name
            model = compose.merge_models(model, block, io_map=[(out, f"l{i}_X")])
    assert model is not None
    return model


def _random_x(batch: int, seq: int, width: int, name: str = "X") -> Feeds:
    rng = np.random.default_rng(batch * 1000 + seq)
    return {name: rng.standard_normal((batch, seq, width)).astype(np.float32)}


def _fixture(name: str) -> tuple[onnx.ModelProto, Feeds]:
    model = onnx.load(str(FIXTURES / f"{name}.onnx"))
    with np.load(FIXTURES / f"{name}.npz") as saved:
        feeds = {v.name: saved[v.name] for v in model.graph.input}
    return model, feeds


def models(
    tiny: bool,
) -> Iterator[tuple[str, onnx.ModelProto, list[tuple[str, Feeds]]]]:
    """(name, model, [(shape label, inputs)]) of each benchmark model."""
    d, heads, layers = (64, 2, 2) if tiny else (512, 8, 12)
    shapes = ((1, 8), (2, 16)) if tiny else ATTENTION_SHAPES
    yield (
        "attention",
        attention(),
        [(f"{b}x{s}", _random_x(b, s, 64)) for b, s in shapes],
    )
    shapes = ((1, 8),) if tiny else ((8, 128), (4, 512))
    block = transformer_block(d, heads)
    yield f"block d={d}", block, [(f"{b}x{s}", _random_x(b, s, d)) for b, s in shapes]
    deep = stack(d, heads, layers)
    x = deep.graph.input[0].name
    shapes = ((1, 8),) if tiny else ((8, 128),)
    yield (
        f"{layers}-layer stack d={d}",
        deep,
        [(f"{b}x{s}", _random_x(b, s, d, x)) for b, s in shapes],
    )
    gpt2, feeds = _fixture("gpt2.torchscript")
    yield "gpt2.torchscript", gpt2, [("2x7 (npz)", feeds)]
    resnet, feeds = _fixture("resnet18_w0125.torchscript")
    runs = [("1x3x64x96 (npz)", feeds)]
    if not tiny:
        image = np.random.default_rng(0).standard_normal((1, 3, 224, 224))
        runs.append(("1x3x224x224", {"input": image.astype(np.float32)}))
    yield "resnet18_w0125.torchscript", resnet, runs


# Timing -------------------------------------------------------------------------


class Clock:
    """Host and device time: CUDA events on a real device, none on the stand-in."""

    def __init__(self, cupy: Any | None):
        self.cupy = cupy

    def event(self) -> Any:
        return self.cupy.cuda.Event() if self.cupy else None

    def elapsed_ms(self, start: Any, end: Any) -> float | None:
        if not self.cupy:
            return None
        end.synchronize()
        return float(self.cupy.cuda.get_elapsed_time(start, end))

    def median(
        self, fn: Callable[[], object], budget: float
    ) -> tuple[float, float | None]:
        """(host ms, device ms), medians over calls within about `budget` s."""
        fn()
        start = time.perf_counter()
        fn()
        once = time.perf_counter() - start
        host: list[float] = []
        device: list[float] = []
        for _ in range(max(3, min(200, int(budget / max(once, 1e-6))))):
            begin, end = self.event(), self.event()
            if begin is not None:
                begin.record()
            start = time.perf_counter()
            fn()
            if end is not None:
                end.record()
            host.append(1e3 * (time.perf_counter() - start))
            ms = self.elapsed_ms(begin, end)
            if ms is not None:
                device.append(ms)
        return statistics.median(host), statistics.median(device) if device else None


@contextmanager
def kernel_record(device: Any, clock: Clock) -> Iterator[dict[str, list[float]]]:
    """Each kernel launch and GEMM of the block, timed alone: CUDA events
    around it on a real device, the wall clock on the stand-in."""
    record: dict[str, list[float]] = defaultdict(list)
    pending: list[tuple[str, Any, Any]] = []
    launch, gemm = device.launch, device.gemm_strided_batched

    def timed(name: str, call: Callable[..., None], *args: Any) -> None:
        begin, end = clock.event(), clock.event()
        if begin is None:
            start = time.perf_counter()
            call(*args)
            record[name].append(1e3 * (time.perf_counter() - start))
            return
        begin.record()
        call(*args)
        end.record()
        pending.append((name, begin, end))

    device.launch = lambda kernel, *a: timed(kernel, launch, kernel, *a)
    device.gemm_strided_batched = lambda call: timed(
        f"gemm {call.dtype} (BLAS)", gemm, call
    )
    try:
        yield record
    finally:
        del device.launch, device.gemm_strided_batched
        for name, begin, end in pending:
            ms = clock.elapsed_ms(begin, end)
            record[name].append(ms or 0.0)


def top_kernels(record: dict[str, list[float]]) -> list[dict[str, Any]]:
    rows = [
        {"kernel": k, "calls": len(v), "ms": round(sum(v), 4)}
        for k, v in record.items()
    ]
    return sorted(rows, key=lambda r: -r["ms"])[:10]


# torch: the same ONNX graph, op by op -----------------------------------------

PARAMS: dict[str, set[int]] = {
    "Reshape": {1},
    "Slice": {1, 2, 3, 4},
    "Expand": {1},
    "Squeeze": {1},
    "Unsqueeze": {1},
    "Split": {1},
    "ConstantOfShape": {0},
    "ReduceMean": {1},
    "Range": {0, 1, 2},
}
"""Inputs that are sizes or indices: they stay on the host, read as ints."""


def _torch_ops(torch: Any) -> dict[str, Callable[..., Any]]:
    """The ONNX ops of the benchmark models in torch; each takes the node's
    attributes, its output count and its inputs, and returns its outputs."""
    F = torch.nn.functional
    types = {
        1: torch.float32,
        2: torch.uint8,
        3: torch.int8,
        5: torch.int16,
        6: torch.int32,
        7: torch.int64,
        9: torch.bool,
        10: torch.float16,
        11: torch.float64,
        16: torch.bfloat16,
    }

    def ints(x: Any) -> list[int]:
        return [int(v) for v in x.reshape(-1).tolist()]

    def tensor(proto: onnx.TensorProto) -> Any:
        return torch.from_numpy(numpy_helper.to_array(proto).copy())

    def constant(a: dict[str, Any], n: int) -> Any:
        if "value" in a:
            return tensor(a["value"])
        for key, dtype in (
            ("value_float", torch.float32),
            ("value_int", torch.int64),
            ("value_floats", torch.float32),
            ("value_ints", torch.int64),
        ):
            if key in a:
                return torch.tensor(a[key], dtype=dtype)
        raise NotImplementedError(f"Constant {sorted(a)}")

    def div(a: dict[str, Any], n: int, x: Any, y: Any) -> Any:
        if x.dtype.is_floating_point:
            return x / y
        return torch.div(x, y, rounding_mode="trunc")

    def gather(a: dict[str, Any], n: int, x: Any, i: Any) -> Any:
        axis = a.get("axis", 0) % x.dim()
        i = torch.where(i < 0, i + x.shape[axis], i)
        flat = torch.index_select(x, axis, i.reshape(-1))
        return flat.reshape(x.shape[:axis] + i.shape + x.shape[axis + 1 :])

    def gather_nd(a: dict[str, Any], n: int, x: Any, i: Any) -> Any:
        if a.get("batch_dims", 0):
            raise NotImplementedError("GatherND batch_dims")
        return x[tuple(i[..., k] for k in range(i.shape[-1]))]

    def gemm(a: dict[str, Any], n: int, x: Any, w: Any, c: Any = None) -> Any:
        x = x.T if a.get("transA") else x
        w = w.T if a.get("transB") else w
        y = a.get("alpha", 1.0) * (x @ w)
        return y if c is None else y + a.get("beta", 1.0) * c

    def layer_norm(a: dict[str, Any], n: int, x: Any, g: Any, b: Any = None) -> Any:
        shape = x.shape[a.get("axis", -1) % x.dim() :]
        return F.layer_norm(x, shape, g, b, a.get("epsilon", 1e-5))

    def slice_(
        a: dict[str, Any],
        n: int,
        x: Any,
        s: Any,
        e: Any,
        ax: Any = None,
        st: Any = None,
    ) -> Any:
        starts, ends = ints(s), ints(e)
        axes = ints(ax) if ax is not None else list(range(len(starts)))
        steps = ints(st) if st is not None else [1] * len(starts)
        index = [slice(None)] * x.dim()
        for start, end, axis, step in zip(starts, ends, axes, steps):
            if step < 0:
                raise NotImplementedError("Slice with a negative step")
            dim = x.shape[axis % x.dim()]
            start, end = (max(-dim, min(v, dim)) for v in (start, end))
            index[axis % x.dim()] = slice(start, end, step)
        return x[tuple(index)]

    def split(a: dict[str, Any], n: int, x: Any, sizes: Any = None) -> Any:
        axis = a.get("axis", 0)
        if sizes is not None:
            return list(torch.split(x, ints(sizes), axis))
        if "split" in a:
            return list(torch.split(x, list(a["split"]), axis))
        return list(torch.chunk(x, n, axis))

    def squeeze(a: dict[str, Any], n: int, x: Any, axes: Any = None) -> Any:
        dims = ints(axes) if axes is not None else a.get("axes")
        return x.squeeze() if dims is None else x.squeeze(tuple(dims))

    def unsqueeze(a: dict[str, Any], n: int, x: Any, axes: Any = None) -> Any:
        dims = ints(axes) if axes is not None else list(a["axes"])
        rank = x.dim() + len(dims)
        for d in sorted(d % rank for d in dims):
            x = x.unsqueeze(d)
        return x

    def reshape(a: dict[str, Any], n: int, x: Any, shape: Any) -> Any:
        dims = ints(shape)
        if not a.get("allowzero"):
            dims = [x.shape[i] if d == 0 else d for i, d in enumerate(dims)]
        return x.reshape(dims)

    def expand(a: dict[str, Any], n: int, x: Any, shape: Any) -> Any:
        return x.expand(np.broadcast_shapes(tuple(x.shape), tuple(ints(shape))))

    def flatten(a: dict[str, Any], n: int, x: Any) -> Any:
        axis = a.get("axis", 1) % (x.dim() + 1)
        return x.reshape(int(np.prod(x.shape[:axis])), -1)

    def constant_of_shape(a: dict[str, Any], n: int, shape: Any) -> Any:
        value = tensor(a["value"]) if "value" in a else torch.zeros(1)
        return torch.full(ints(shape), value.reshape(-1)[0].item(), dtype=value.dtype)

    def range_(a: dict[str, Any], n: int, start: Any, limit: Any, delta: Any) -> Any:
        return torch.arange(start.item(), limit.item(), delta.item(), dtype=start.dtype)

    def pads(a: dict[str, Any]) -> list[int]:
        p = list(a.get("pads", [0, 0, 0, 0]))
        if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
            raise NotImplementedError("auto_pad")
        return p

    def conv(a: dict[str, Any], n: int, x: Any, w: Any, b: Any = None) -> Any:
        top, left, bottom, right = pads(a)
        if (top, left) != (bottom, right):
            x, top, left = F.pad(x, (left, right, top, bottom)), 0, 0
        return F.conv2d(
            x,
            w,
            b,
            tuple(a.get("strides", [1, 1])),
            (top, left),
            tuple(a.get("dilations", [1, 1])),
            a.get("group", 1),
        )

    def max_pool(a: dict[str, Any], n: int, x: Any) -> Any:
        top, left, bottom, right = pads(a)
        if (top, left) != (bottom, right):
            x = F.pad(x, (left, right, top, bottom), value=float("-inf"))
            top = left = 0
        return F.max_pool2d(
            x,
            tuple(a["kernel_shape"]),
            tuple(a.get("strides", [1, 1])),
            (top, left),
            tuple(a.get("dilations", [1, 1])),
            bool(a.get("ceil_mode", 0)),
        )

    def reduce_mean(a: dict[str, Any], n: int, x: Any, axes: Any = None) -> Any:
        dims = ints(axes) if axes is not None else a.get("axes")
        dims = list(range(x.dim())) if not dims else list(dims)
        return x.mean(dim=tuple(dims), keepdim=bool(a.get("keepdims", 1)))

    def variadic(fn: Callable[[Any, Any], Any]) -> Callable[..., Any]:
        def run(a: dict[str, Any], n: int, *xs: Any) -> Any:
            out = xs[0]
            for x in xs[1:]:
                out = fn(out, x)
            return out

        return run

    def simple(fn: Callable[..., Any]) -> Callable[..., Any]:
        return lambda a, n, *xs: fn(*xs)

    ops: dict[str, Callable[..., Any]] = {
        "Constant": constant,
        "Div": div,
        "Gather": gather,
        "GatherND": gather_nd,
        "Gemm": gemm,
        "LayerNormalization": layer_norm,
        "Slice": slice_,
        "Split": split,
        "Squeeze": squeeze,
        "Unsqueeze": unsqueeze,
        "Reshape": reshape,
        "Expand": expand,
        "Flatten": flatten,
        "ConstantOfShape": constant_of_shape,
        "Range": range_,
        "Conv": conv,
        "MaxPool": max_pool,
        "ReduceMean": reduce_mean,
        "Max": variadic(torch.maximum),
        "Min": variadic(torch.minimum),
        "Sum": variadic(torch.add),
        "Shape": lambda a, n, x: torch.tensor(
            x.shape[a.get("start", 0) : a.get("end")], dtype=torch.int64
        ),
        "Cast": lambda a, n, x: x.to(types[a["to"]]),
        "Concat": lambda a, n, *xs: torch.cat(xs, dim=a["axis"]),
        "Softmax": lambda a, n, x: torch.softmax(x, dim=a.get("axis", -1)),
        "Transpose": lambda a, n, x: x.permute(
            *a.get("perm", range(x.dim() - 1, -1, -1))
        ),
        "GlobalAveragePool": lambda a, n, x: x.mean(
            dim=tuple(range(2, x.dim())), keepdim=True
        ),
    }
    for name, fn in {
        "Identity": lambda x: x,
        "Add": torch.add,
        "Sub": torch.sub,
        "Mul": torch.mul,
        "Pow": torch.pow,
        "MatMul": torch.matmul,
        "Equal": torch.eq,
        "Less": torch.lt,
        "LessOrEqual": torch.le,
        "Greater": torch.gt,
        "GreaterOrEqual": torch.ge,
        "And": torch.logical_and,
        "Or": torch.logical_or,
        "Not": torch.logical_not,
        "Where": torch.where,
        "Relu": torch.relu,
        "Tanh": torch.tanh,
        "Erf": torch.erf,
        "Sqrt": torch.sqrt,
        "Exp": torch.exp,
        "Neg": torch.neg,
        "Sigmoid": torch.sigmoid,
        "Reciprocal": torch.reciprocal,
        "IsNaN": torch.isnan,
    }.items():
        ops[name] = simple(fn)
    return ops


class TorchGraph:
    """An ONNX graph run op by op in torch on `device`, for one set of input
    shapes. Nodes whose inputs are all on the host (shapes, constants and
    what follows from them alone) run on the first call only, on the CPU;
    the values the device needs from them are copied there once. Every later
    call is device work alone, so it can be captured as a CUDA graph."""

    def __init__(self, torch: Any, model: onnx.ModelProto, device: str):
        self.torch, self.device = torch, device
        self.ops = _torch_ops(torch)
        self.nodes = list(model.graph.node)
        missing = sorted({n.op_type for n in self.nodes} - set(self.ops))
        if missing:
            raise NotImplementedError(f"no torch op for {', '.join(missing)}")
        self.attrs = [
            {a.name: helper.get_attribute_value(a) for a in n.attribute}
            for n in self.nodes
        ]
        self.outputs = [v.name for v in model.graph.output]
        self.host: dict[str, Any] = {
            t.name: torch.from_numpy(numpy_helper.to_array(t).copy())
            for t in model.graph.initializer
        }
        self.on_device: dict[str, Any] = {}
        self.folded = False

    def _host_node(self, node: onnx.NodeProto) -> bool:
        return node.op_type == "Shape" or all(
            not name or name in self.host for name in node.input
        )

    def __call__(self, feeds: dict[str, Any]) -> list[Any]:
        env: dict[str, Any] = dict(feeds)
        for node, attrs in zip(self.nodes, self.attrs):
            on_host = self._host_node(node)
            if on_host and self.folded:
                continue
            params = PARAMS.get(node.op_type, set())
            args: list[Any] = []
            for i, name in enumerate(node.input):
                if not name:
                    args.append(None)
                elif name in env:
                    args.append(env[name])
                elif on_host or i in params:
                    args.append(self.host[name])
                else:
                    if name not in self.on_device:
                        self.on_device[name] = self.host[name].to(self.device)
                    args.append(self.on_device[name])
            while args and args[-1] is None:
                args.pop()
            result = self.ops[node.op_type](attrs, len(node.output), *args)
            results = result if isinstance(result, list) else [result]
            into = self.host if on_host else env
            for name, value in zip(node.output, results):
                into[name] = value
        self.folded = True
        return [env[n] if n in env else self.host[n] for n in self.outputs]


def torch_columns(
    torch: Any, model: onnx.ModelProto, feeds: Feeds, row: Row, budget: float
) -> list[np.ndarray] | None:
    """torch eager's and CUDA-graph replay's times into `row`; eager's outputs."""
    inputs = {k: torch.from_numpy(v).to("cuda") for k, v in feeds.items()}
    clock = Clock(_cupy_or_none())
    with torch.no_grad():
        graph = TorchGraph(torch, model, "cuda")
        outputs = [t.float().cpu().numpy() for t in graph(inputs)]

        def eager() -> object:
            result = graph(inputs)
            torch.cuda.synchronize()
            return result

        row.torch_eager_ms, row.torch_eager_device_ms = clock.median(eager, budget)
        try:
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                graph(inputs)
            torch.cuda.current_stream().wait_stream(side)
            captured = torch.cuda.CUDAGraph()
            with torch.cuda.graph(captured):
                graph(inputs)

            def replay() -> None:
                captured.replay()
                torch.cuda.synchronize()

            row.torch_graph_ms = clock.median(replay, budget)[0]
        except Exception as e:  # a host sync inside the graph, say
            row.torch_note = f"graph capture failed: {type(e).__name__}: {e}"[:200]
    return outputs


def _cupy_or_none() -> Any | None:
    try:
        import cupy  # pyright: ignore[reportMissingImports]
    except ImportError:
        return None
    return cupy


def _import_torch(emulate: bool) -> tuple[Any | None, str]:
    if emulate:
        return None, "n/a (emulated device)"
    try:
        import torch  # pyright: ignore[reportMissingImports]
    except ImportError:
        return None, "n/a (torch not installed)"
    if not torch.cuda.is_available():
        return None, f"n/a (torch {torch.__version__} sees no CUDA device)"
    return torch, f"torch {torch.__version__}"


def _runtime(emulate: bool) -> Any:
    from xhip.backend.cuda import CudaRuntime

    if not emulate:
        return CudaRuntime()
    from xhip.backend.gpu import kernel_source
    from xhip.testing.emulator import EmulatedDevice, EmulatedKernels

    kernels = EmulatedKernels(kernel_source(), "xhip_kernels.h")
    return CudaRuntime(device=EmulatedDevice(32, kernels=kernels))


def _max_rel_err(got: Sequence[np.ndarray], want: Sequence[np.ndarray]) -> float:
    worst = 0.0
    for a, b in zip(got, want, strict=True):
        a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
        scale = max(float(np.max(np.abs(b))) if b.size else 0.0, 1e-30)
        worst = max(worst, float(np.max(np.abs(a - b))) / scale if a.size else 0.0)
    return worst


def run(args: argparse.Namespace) -> dict[str, Any]:
    import xhip
    from xhip.backend.session import CompiledModel

    deadline = time.monotonic() + args.budget
    torch, torch_version = _import_torch(args.emulate)
    runtime = _runtime(args.emulate)
    cupy = None if args.emulate else _cupy_or_none()
    clock = Clock(cupy)
    device = "CPU stand-in (emulated CUDA device)"
    if cupy is not None:
        device = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    rows: list[Row] = []
    for name, model, runs in models(args.tiny):
        if args.only and name.split()[0] not in args.only:
            continue
        print(f"{name}: compiling", flush=True)
        try:
            ir = xhip.compile_to_ir(model)
            compiled = CompiledModel(ir.module, ir.signature, ir.constants, runtime)
        except Exception as e:
            rows += [
                Row(name, s, error=f"compile: {type(e).__name__}: {e}"[:300])
                for s, _ in runs
            ]
            continue
        for shape, feeds in runs:
            row = Row(name, shape)
            rows.append(row)
            left = deadline - time.monotonic()
            if left < 2:
                row.error = "not run: out of time (--budget)"
                continue
            each = min(1.0, left / 20)
            try:
                got = list(compiled(feeds).values())
                row.xhip_ms, row.xhip_device_ms = clock.median(
                    lambda m=compiled, f=feeds: m(f), each
                )
                with kernel_record(runtime.device, clock) as record:
                    compiled(feeds)
                row.top_kernels = top_kernels(record)
                row.xhip_kernels_ms = round(sum(sum(v) for v in record.values()), 4)
                want = None
                if torch is not None:
                    try:
                        want = torch_columns(torch, model, feeds, row, each)
                        row.checked_against = "torch eager"
                    except Exception as e:
                        row.torch_note = f"{type(e).__name__}: {e}"[:200]
                if want is None:
                    import onnxruntime as ort

                    session = ort.InferenceSession(
                        model.SerializeToString(), providers=["CPUExecutionProvider"]
                    )
                    want = [np.asarray(v) for v in session.run(None, feeds)]
                    row.checked_against = "onnxruntime (CPU)"
                row.max_rel_err = _max_rel_err(got, want)
            except Exception as e:
                row.error = f"{type(e).__name__}: {e}"[:300]
            print(f"  {shape}: {_brief(row)}", flush=True)
    runtime.close()
    return {
        "device": device,
        "emulated": args.emulate,
        "torch": torch_version,
        "shapes": "tiny" if args.tiny else "standard",
        "models": [asdict(r) for r in rows],
    }


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _brief(row: Row) -> str:
    if row.error:
        return f"error: {row.error}"
    return (
        f"xhip {_ms(row.xhip_ms)} ms (device {_ms(row.xhip_device_ms)}, kernels "
        f"{_ms(row.xhip_kernels_ms)}), torch eager {_ms(row.torch_eager_ms)}, "
        f"graph {_ms(row.torch_graph_ms)}, max rel err {row.max_rel_err:.1e} "
        f"vs {row.checked_against} {row.torch_note}"
    )


def markdown(result: dict[str, Any]) -> str:
    lines = [
        f"Device: {result['device']}; {result['torch']}; shapes: {result['shapes']}.",
        "",
        "| model | shape | xhip host ms | xhip device ms | xhip kernels ms "
        "| torch eager ms | torch graph ms | xhip / eager | max rel err |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in result["models"]:
        if r["error"]:
            lines.append(f"| {r['model']} | {r['shape']} | {r['error']} | | | | | | |")
            continue
        ratio = (
            f"{r['xhip_ms'] / r['torch_eager_ms']:.2f}"
            if r["xhip_ms"] and r["torch_eager_ms"]
            else "n/a"
        )
        err = "n/a" if r["max_rel_err"] is None else f"{r['max_rel_err']:.1e}"
        lines.append(
            f"| {r['model']} | {r['shape']} | {_ms(r['xhip_ms'])} "
            f"| {_ms(r['xhip_device_ms'])} | {_ms(r['xhip_kernels_ms'])} "
            f"| {_ms(r['torch_eager_ms'])} | {_ms(r['torch_graph_ms'])} | {ratio} "
            f"| {err} ({r['checked_against']}) |"
        )
    seen: set[str] = set()
    for r in reversed(result["models"]):  # each model's largest shape
        if r["top_kernels"] and r["model"] not in seen:
            seen.add(r["model"])
            lines += ["", f"Top kernels, {r['model']} at {r['shape']}:", ""]
            lines += ["| kernel | calls | ms |", "| --- | ---: | ---: |"]
            lines += [
                f"| {k['kernel']} | {k['calls']} | {k['ms']:.4f} |"
                for k in r["top_kernels"]
            ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    parser.add_argument("--emulate", action="store_true", help="the CPU stand-in")
    parser.add_argument("--tiny", action="store_true", help="tiny shapes (dry run)")
    parser.add_argument("--budget", type=float, default=100.0, help="seconds in all")
    parser.add_argument(
        "--only", nargs="*", help="models by first word (attention ...)"
    )
    args = parser.parse_args()
    result = run(args)
    table = markdown(result)
    print(table)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    if args.markdown:
        args.markdown.write_text(table)
    return 1 if any(r["error"] for r in result["models"]) else 0


if __name__ == "__main__":
    sys.exit(main())
