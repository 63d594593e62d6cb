"""Bound plans on the GPU runtimes (gpu_replay.py): replayed from their
prepared device calls, and as device graphs, on the emulated devices. Replay
with graphs, replay without, and the unbound path give the same bits, and all
match ONNX Runtime."""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from tests.pytest.backend.test_gpu import _hip_bindings  # pyright: ignore[reportPrivateUsage]
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.cuda import CupyDevice
from xhip.backend.gpu import KernelRuntime
from xhip.backend.hip import HipDevice
from xhip.backend.runtime import DeviceArray
from xhip.backend.session import CompiledModel
from xhip.testing.emulator import DeviceError, EmulatedDevice

pytestmark = pytest.mark.emulator

D = 16


def _block() -> onnx.ModelProto:
    """A pre-LN MLP block with a softmax over a middle axis (scratch memory
    and permutes in the GPU runtime), a broadcast matmul and an erf GELU."""
    rng = np.random.default_rng(3)

    def weight(name: str, *shape: int) -> onnx.TensorProto:
        value = (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32)
        return numpy_helper.from_array(value, name)

    nodes = [
        helper.make_node("LayerNormalization", ["x", "g", "b"], ["n"], axis=-1),
        helper.make_node("MatMul", ["n", "w1"], ["h"]),
        helper.make_node("Add", ["h", "b1"], ["hb"]),
        helper.make_node("Div", ["hb", "sqrt2"], ["hd"]),
        helper.make_node("Erf", ["hd"], ["he"]),
        helper.make_node("Add", ["he", "one"], ["h1"]),
        helper.make_node("Mul", ["hb", "h1"], ["h2"]),
        helper.make_node("Mul", ["h2", "half"], ["gelu"]),
        helper.make_node("Softmax", ["gelu"], ["s"], axis=1),
        helper.make_node("MatMul", ["s", "w2"], ["o"]),
        helper.make_node("Add", ["o", "x"], ["y"]),
    ]
    inits = [
        numpy_helper.from_array(np.ones(D, np.float32), "g"),
        numpy_helper.from_array(np.zeros(D, np.float32), "b"),
        weight("w1", D, 4 * D),
        weight("b1", 4 * D),
        weight("w2", 4 * D, D),
        numpy_helper.from_array(np.array(np.sqrt(2), np.float32), "sqrt2"),
        numpy_helper.from_array(np.array(1, np.float32), "one"),
        numpy_helper.from_array(np.array(0.5, np.float32), "half"),
    ]
    graph = helper.make_graph(
        nodes,
        "block",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", "s", D])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["b", "s", D])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture(scope="module")
def block() -> Iterator[tuple[onnx.ModelProto, xhip.CompiledIR]]:
    model = _block()
    yield model, xhip.compile_to_ir(model)


def _inputs(seed: int) -> dict[str, np.ndarray]:
    x = np.random.default_rng(seed).standard_normal((2, 5, D)).astype(np.float32)
    return {"x": x}


def _device(runtime: KernelRuntime) -> EmulatedDevice:
    device = runtime.device
    if not isinstance(device, EmulatedDevice):
        pytest.skip("graph counts are the emulated device's")
    return device


def test_replay_and_graphs_give_the_same_bits(
    make_gpu: MakeGpu, block: tuple[onnx.ModelProto, xhip.CompiledIR]
) -> None:
    model, ir = block
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    graphs, plain, unbound = make_gpu(), make_gpu(), make_gpu()
    plain.graphs = False
    models = {
        "graphs": CompiledModel(ir.module, ir.signature, ir.constants, graphs),
        "plain": CompiledModel(ir.module, ir.signature, ir.constants, plain),
        "unbound": CompiledModel(
            ir.module, ir.signature, ir.constants, unbound, max_bound_plans=0
        ),
    }
    for seed in range(3):  # the bind, then two replays with new contents
        inputs = _inputs(seed)
        want = np.asarray(session.run(None, inputs)[0])
        got = {name: m(inputs)["y"] for name, m in models.items()}
        np.testing.assert_allclose(got["unbound"], want, rtol=1e-4, atol=1e-5)
        np.testing.assert_array_equal(got["graphs"], got["unbound"])
        np.testing.assert_array_equal(got["plain"], got["unbound"])
    assert models["graphs"].bound_plans == models["plain"].bound_plans == 1
    assert _device(graphs).graph_launches >= 2  # each replay, one graph at least
    assert _device(plain).graph_launches == 0
    for m in models.values():
        m.close()


def test_a_replay_does_no_host_work(
    make_gpu: MakeGpu, block: tuple[onnx.ModelProto, xhip.CompiledIR]
) -> None:
    """Once bound, a call runs the prepared device calls alone: the runtime's
    methods (sizes, dtypes, kernel choice, GEMM planning) are not called."""
    _, ir = block
    for graphs in (True, False):
        gpu = make_gpu()
        gpu.graphs = graphs
        compiled = CompiledModel(ir.module, ir.signature, ir.constants, gpu)
        want = compiled(_inputs(0))["y"]

        def refuse(*args: object, **keywords: object) -> None:
            raise AssertionError("a replay called a runtime method")

        for name in ("_gemm", "_launch_strided", "fused_elementwise", "_norm"):
            setattr(gpu, name, refuse)
        _device(gpu).launches.clear()
        np.testing.assert_array_equal(compiled(_inputs(0))["y"], want)
        assert _device(gpu).launches  # the kernels did run
        compiled.close()


def test_a_dropped_plan_frees_its_scratch(
    make_gpu: MakeGpu, block: tuple[onnx.ModelProto, xhip.CompiledIR]
) -> None:
    """The scratch a bound call keeps for its replays (the softmax's permuted
    copy) goes with the plan: after `release`, the device holds what the
    runtime caches and nothing else, as after an unbound call."""
    _, ir = block
    held: list[int] = []
    for bound in (8, 0):
        gpu = make_gpu()
        compiled = CompiledModel(
            ir.module, ir.signature, ir.constants, gpu, max_bound_plans=bound
        )
        for seed in range(2):
            compiled(_inputs(seed))
        compiled.release()
        held.append(_device(gpu).live_bytes)
    assert held[0] == held[1]


def test_capture_refuses_synchronous_calls() -> None:
    """As CUDA refuses them on a capturing stream: a graph holds launches,
    GEMMs and memsets only."""
    device = EmulatedDevice()
    address = device.malloc(16)
    device.begin_capture()
    device.memset(address, 0, 16)
    with pytest.raises(DeviceError, match="synchronize while a stream is capturing"):
        device.synchronize()
    with pytest.raises(DeviceError, match="copy_to_host while a stream is capturing"):
        device.copy_to_host(np.empty(4, np.float32), address)
    graph = device.end_capture()
    assert device.memsets == []  # captured, not run
    device.launch_graph(graph)
    device.launch_graph(graph)
    assert [m[2] for m in device.memsets] == [16, 16]


def test_a_call_that_reads_back_runs_whole(make_gpu: MakeGpu) -> None:
    """A call whose host work may depend on data (it reads the device back)
    is not reduced to device calls: each replay runs it again."""
    gpu = make_gpu()
    src = gpu.upload(np.arange(4, dtype=np.float32))
    out = gpu.empty((4,), np.dtype(np.float32))
    runs: list[int] = []

    def read_and_double(src: DeviceArray, out: DeviceArray) -> None:
        runs.append(1)
        gpu.write(out, gpu.download(src) * 2)

    vars(gpu)["read_and_double"] = read_and_double
    bound = gpu.bind_call("read_and_double", {"src": src, "out": out})
    bound()
    gpu.write(src, np.ones(4, np.float32))
    bound()
    assert runs == [1, 1]
    np.testing.assert_array_equal(gpu.download(out), np.full(4, 2, np.float32))


def test_an_upload_in_a_call_is_replayed(make_gpu: MakeGpu) -> None:
    """Host data a call uploads (known at bind time) is uploaded again at
    each replay, from a copy: the method itself does not run again."""
    gpu = make_gpu()
    out = gpu.empty((4,), np.dtype(np.float32))
    host = np.full(4, 3, np.float32)
    runs: list[int] = []

    def fill(out: DeviceArray) -> None:
        runs.append(1)
        gpu.write(out, host)

    vars(gpu)["fill"] = fill
    bound = gpu.bind_call("fill", {"out": out})
    bound()
    host[:] = 0  # the replay uploads what the bind uploaded
    gpu.write(out, np.zeros(4, np.float32))
    bound()
    assert runs == [1]
    np.testing.assert_array_equal(gpu.download(out), np.full(4, 3, np.float32))


# The real devices' capture calls, on stand-ins of CuPy and hip-python.


class _FakeStream:
    """`cupy.cuda.Stream`: what a capture does, in order."""

    ptr = 0x51

    def __init__(self, log: list[object]) -> None:
        self.log = log
        self.capturing = False

    def __enter__(self) -> _FakeStream:
        self.log.append("current")
        return self

    def __exit__(self, *args: object) -> None:
        self.log.append("not current")

    def begin_capture(self) -> None:
        self.capturing = True
        self.log.append("begin")

    def end_capture(self) -> object:
        self.capturing = False
        self.log.append("end")
        return types.SimpleNamespace(
            launch=lambda stream=None: self.log.append(("launch", stream))
        )


def test_cupy_capture_sets_the_cublas_stream_first() -> None:
    """CuPy refuses `cublas.setStream` on a capturing stream: the device sets
    the handle's stream to its own before `begin_capture`, back after."""
    log: list[object] = []
    stream = _FakeStream(log)

    def set_stream(handle: int, ptr: int) -> None:
        assert not stream.capturing, "setStream during capture"
        log.append(("setStream", handle, ptr))

    cublas = types.SimpleNamespace(getStream=lambda handle: 0, setStream=set_stream)
    cuda = types.SimpleNamespace(
        cublas=cublas,
        Stream=lambda: stream,
        device=types.SimpleNamespace(get_cublas_handle=lambda: 7),
    )
    device = CupyDevice(types.SimpleNamespace(cuda=cuda))
    device.begin_capture()
    graph = device.end_capture()
    device.launch_graph(graph)
    assert log == [
        ("setStream", 7, 0x51),
        "current",
        "begin",
        "end",
        "not current",
        ("setStream", 7, 0),
        ("launch", stream),
    ]


def test_hip_capture_calls() -> None:
    """hipStreamBeginCapture on the device's stream, launches and hipBLAS on
    it while capturing, the graph instantiated and launched on it."""
    bindings = _hip_bindings(lt=False, found=0, legacy=False)
    hip: Any = bindings.hip
    hip.hipStreamCaptureMode = types.SimpleNamespace(hipStreamCaptureModeRelaxed=1)
    hip._returns.update(
        {
            "hipStreamCreate": (0, "stream"),
            "hipStreamEndCapture": (0, "graph"),
            "hipGraphInstantiateWithFlags": (0, "exec"),
            "hipModuleGetFunction": (0, "kernel"),
        }
    )
    device = HipDevice(bindings)
    device._functions["k"] = "kernel"  # pyright: ignore[reportPrivateUsage]
    launch = device.prepare_launch("k", 2, 32, 0, [("i64", 5)])
    device.begin_capture()
    launch()
    graph = device.end_capture()
    launch()
    device.launch_graph(graph)
    device.destroy_graph(graph)
    calls = [(name, kw.get("stream")) for name, kw in hip.calls]
    assert calls == [
        ("hipStreamCreate", None),
        ("hipStreamBeginCapture", "stream"),
        ("hipModuleLaunchKernel", "stream"),
        ("hipStreamEndCapture", "stream"),
        ("hipGraphInstantiateWithFlags", None),
        ("hipGraphDestroy", None),
        ("hipModuleLaunchKernel", None),  # after the capture: the null stream
        ("hipGraphLaunch", "stream"),
        ("hipGraphExecDestroy", None),
    ]
    blas: Any = bindings.hipblas
    streams = [kw["streamId"] for name, kw in blas.calls if name == "hipblasSetStream"]
    assert streams == ["stream", None]
