"""`hip.fused_elementwise` on the GPU runtimes (`gpu_fused.py`), on the CPU
stand-in of their device: each generated kernel against the same steps run
as the unfused kernels on the same device (bit for bit), and against numpy
float64; whole models against ONNX Runtime and their unfused run."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from xhip.api import compile_to_ir
from xhip.backend.cuda import CudaRuntime
from xhip.backend.gpu import KernelRuntime
from xhip.backend.hip import HipRuntime
from xhip.backend.runtime import DeviceArray
from xhip.backend.session import CompiledModel
from xhip.dialects import hip
from xhip.dialects.hip import ElementwiseAttributes
from xhip.testing.emulator import EmulatedDevice
from xhip.testing.emulator.device import Runtime

pytestmark = pytest.mark.emulator

MODELS = Path(__file__).parents[2] / "fixtures" / "models"
RUNTIMES: dict[str, type[KernelRuntime]] = {"cuda": CudaRuntime, "hip": HipRuntime}
ERF = np.frompyfunc(math.erf, 1, 1)


WARPS = [("cuda", 32), ("hip", 64), ("hip", 32)]
"""(runtime, warp size): NVIDIA's 32, AMD's CDNA 64 and RDNA 32."""


def _runtime(kind: Runtime, warp: int) -> KernelRuntime:
    return RUNTIMES[kind](device=EmulatedDevice(warp, runtime=kind))


def _unfused(
    runtime: KernelRuntime, inputs: list[DeviceArray], out: DeviceArray, body: str
) -> None:
    """The body's steps as the unfused ops run them: one kernel each, each
    result in a buffer of its element type broadcast to `out`'s shape."""
    values = list(inputs)
    steps = hip.parse_body(body, len(inputs))
    for k, step in enumerate(steps):
        dtype = np.dtype(
            {"f16": np.float16, "f32": np.float32, "i1": np.bool_, "i32": np.int32}[
                step.type
            ]
        )
        target = out if k == len(steps) - 1 else runtime.empty(out.shape, dtype)
        args = [values[i] for i in step.args]
        if step.kind == "cast":
            runtime.cast(args[0], target)
        else:
            call = {1: runtime.unary, 2: runtime.binary, 3: runtime.ternary}
            call[len(args)](
                *args, target, ElementwiseAttributes(step.kind, step.params)
            )
        values.append(target)


BODY = (
    "add(x0, x1) : f32; gelu(s0) : f32; mul(s1, x2) : f32; cast(s2) : f16; "
    "leaky_relu[0.125](s3) : f16; mul(s4, s4) : f16; cast(s5) : f32; "
    "sub(s6, s0) : f32; greater(s7, x1) : i1; where(s8, s7, s2) : f32"
)
"""GELU(x + b) * c, a float16 detour with a param, a comparison and Where:
float16 rounding between steps, a mul feeding an add in the next step (no
FMA across steps), a step read by several."""


@pytest.mark.parametrize(("kind", "warp"), WARPS)
@pytest.mark.parametrize("in_place", [False, True])
def test_a_fused_kernel_equals_the_unfused_ones(
    kind: Runtime, warp: int, in_place: bool
) -> None:
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((3, 5, 17)) * 4).astype(np.float32)
    x[0, 0, :3] = [np.nan, np.inf, 2.0**-130]  # NaN, inf, a float32 subnormal
    b = rng.standard_normal((17,)).astype(np.float32)
    c = np.full((3, 1, 1), 1.5, np.float32) * [[[1]], [[-2]], [[3]]]
    c = c.astype(np.float32)
    runtime = _runtime(kind, warp)
    try:
        ins = [runtime.upload(a) for a in (x, b, c)]
        out = ins[0] if in_place else runtime.empty(x.shape, np.dtype(np.float32))
        runtime.fused_elementwise(
            ins, out, hip.FusedAttributes(hip.parse_body(BODY, 3))
        )
        fused = runtime.download(out)
        ins = [runtime.upload(a) for a in (x, b, c)]
        plain = runtime.empty(x.shape, np.dtype(np.float32))
        _unfused(runtime, ins, plain, BODY)
        unfused = runtime.download(plain)
        device = runtime.device
        assert isinstance(device, EmulatedDevice)
        assert sum(k.startswith("xhip_fused_") for k in device.launches) == 1
    finally:
        runtime.close()
    np.testing.assert_array_equal(fused.view(np.uint32), unfused.view(np.uint32))
    h = x.astype(np.float64) + b
    gelu = 0.5 * h * (1 + np.asarray(ERF(h / np.sqrt(2)), np.float64))
    s2 = (gelu * c).astype(np.float32)
    s3 = s2.astype(np.float16)
    with np.errstate(invalid="ignore", over="ignore"):
        s5 = np.where(s3 < 0, s3 * np.float16(0.125), s3) ** 2
        s7 = s5.astype(np.float32) - h.astype(np.float32)
        want = np.where(s7 > b, s7, s2)
    finite = np.isfinite(want) & (np.abs(want) < 6e4)  # float16 range
    np.testing.assert_allclose(fused[finite], want[finite], rtol=2e-3, atol=1e-3)


@pytest.mark.parametrize(("kind", "warp"), WARPS)
def test_casts_and_integers_equal_the_unfused_kernels(kind: Runtime, warp: int) -> None:
    """Float to int truncation, int arithmetic, bool to float: `xhip_cast`'s
    conversions, inside one kernel."""
    body = (
        "cast(x0) : i32; mul(s0, x1) : i32; cast(s1) : f32; less(s2, x0) : i1; "
        "cast(s3) : f32; add(s4, s2) : f32"
    )
    x = np.array([[-3.7, -0.5, 0.5, 2.5, 1e9, -1e3]], np.float32)
    k = np.array([[3], [-7]], np.int32)
    runtime = _runtime(kind, warp)
    try:
        ins = [runtime.upload(a) for a in (x, k)]
        shape = (2, 6)
        out = runtime.empty(shape, np.dtype(np.float32))
        runtime.fused_elementwise(
            ins, out, hip.FusedAttributes(hip.parse_body(body, 2))
        )
        plain = runtime.empty(shape, np.dtype(np.float32))
        _unfused(runtime, ins, plain, body)
        fused, unfused = runtime.download(out), runtime.download(plain)
    finally:
        runtime.close()
    np.testing.assert_array_equal(fused, unfused)
    s2 = (x.astype(np.int64).astype(np.int32) * k).astype(np.float32)
    np.testing.assert_array_equal(fused, (s2 < x) + s2)


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "warp"), [("cuda", 32), ("hip", 64)])
@pytest.mark.parametrize(
    "name", ["bert.torchscript", "gpt2.dynamo", "llama.torchscript"]
)
def test_fused_models_match_onnx_runtime_and_unfused(
    name: str, kind: Runtime, warp: int
) -> None:
    ort = pytest.importorskip("onnxruntime")
    path = MODELS / f"{name}.onnx"
    data = dict(np.load(MODELS / f"{name}.npz"))
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    inputs = {i.name: data[i.name] for i in session.get_inputs()}
    expected = session.run(None, inputs)
    ir = compile_to_ir(path)
    plain_runtime, fused_runtime = _runtime(kind, warp), _runtime(kind, warp)
    try:
        plain = CompiledModel(
            ir.module, ir.signature, ir.constants, plain_runtime, fuse_elementwise=False
        )
        fused = CompiledModel(ir.module, ir.signature, ir.constants, fused_runtime)
        groups = sum(
            isinstance(op, hip.FusedElementwiseOp) for op in fused.module.walk()
        )
        assert groups > 0
        got, unfused = fused(inputs), plain(inputs)
        launches = fused_runtime.device.launches  # type: ignore[attr-defined]
        assert sum(k.startswith("xhip_fused_") for k in launches) == groups
    finally:
        plain_runtime.close()
        fused_runtime.close()
    for out, want, same in zip(got.values(), expected, unfused.values()):
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)
        np.testing.assert_array_equal(out, same)
