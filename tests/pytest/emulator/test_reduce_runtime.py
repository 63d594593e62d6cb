"""The reduction family's host code in `CudaRuntime` and `HipRuntime` (the
`GpuReductions` mixin) on the CPU stand-in of their device, against
`CpuRuntime`: dropped and kept dims, strided views, broadcast scales, axes
moved last and back, fills, refusals; and the encoder block of
`tests/pytest/backend/test_reduce_models.py` against ONNX Runtime."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import onnxruntime as ort
import pytest

import xhip
from tests.pytest.backend.test_reduce_models import D, encoder_block
from xhip.backend.cpu import CpuRuntime
from xhip.backend.gpu import KernelRuntime
from xhip.backend.runtime import DeviceArray, NotImplementedOnDevice, Runtime
from xhip.backend.session import CompiledModel
from xhip.dialects import hip

pytestmark = pytest.mark.emulator


def _rand(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _transposed(runtime: Runtime, x: np.ndarray) -> DeviceArray:
    """`x` as a view with its last two dims' strides swapped."""
    base = runtime.upload(np.ascontiguousarray(np.swapaxes(x, -1, -2)), copy=True)
    shape, strides = list(base.shape), list(base.strides)
    shape[-1], shape[-2] = shape[-2], shape[-1]
    strides[-1], strides[-2] = strides[-2], strides[-1]
    return DeviceArray(
        base.buffer, base.offset, tuple(shape), tuple(strides), base.dtype
    )


def _both(
    gpu: KernelRuntime, cpu: CpuRuntime, run, out_shape, dtype: Any = np.float32
) -> list[np.ndarray]:
    """`run(runtime, out)` on both runtimes; the two outputs."""
    results = []
    for runtime in (gpu, cpu):
        out = runtime.empty(out_shape, np.dtype(dtype))
        run(runtime, out)
        results.append(runtime.download(out))
    return results


@pytest.fixture(scope="module")
def cpu() -> CpuRuntime:
    runtime = CpuRuntime()
    yield runtime  # type: ignore[misc]
    runtime.close()


@pytest.mark.parametrize("kind", ["sum", "mean", "max", "l2", "log_sum_exp", "prod"])
@pytest.mark.parametrize(
    "axes,keep", [((1,), False), ((0, 2), True), ((0, 1, 2), False)], ids=str
)
def test_reduce_on_a_transposed_view(
    gpu: KernelRuntime, cpu: CpuRuntime, kind: str, axes: tuple[int, ...], keep: bool
) -> None:
    x = _rand(3, 5, 7, seed=len(axes))
    shape = tuple(
        1 if d in axes else n for d, n in enumerate(x.shape) if keep or d not in axes
    )
    got, want = _both(
        gpu,
        cpu,
        lambda rt, out: rt.reduce(
            _transposed(rt, x), out, hip.ReduceAttributes(kind, tuple(axes))
        ),
        shape,
    )
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("kind", ["max", "min"])
def test_arg_reduce(gpu: KernelRuntime, cpu: CpuRuntime, kind: str) -> None:
    x = np.round(_rand(4, 6, 5) * 2)
    for axis, last in ((0, False), (1, True), (2, False)):
        shape = tuple(n for d, n in enumerate(x.shape) if d != axis)
        got, want = _both(
            gpu,
            cpu,
            lambda rt, out, axis=axis, last=last: rt.arg_reduce(
                rt.upload(x, copy=True), out, hip.ArgReduceAttributes(kind, axis, last)
            ),
            shape,
            np.int64,
        )
        np.testing.assert_array_equal(got, want)


NAN_ROWS = np.array(
    list(itertools.product([np.nan, 1.0, 2.0, -np.inf, np.inf], repeat=4)),
    np.float32,
)
"""Every arrangement of NaN, ties and infinities in rows of four."""


@pytest.mark.parametrize("kind", ["max", "min"])
@pytest.mark.parametrize("last", [False, True])
def test_arg_reduce_of_nan_as_the_cpu_runtime(
    gpu: KernelRuntime, cpu: CpuRuntime, kind: str, last: bool
) -> None:
    """ONNX Runtime's scan on both (the CPU's checked against ORT in
    test_fuzz.py): a NaN never taken, a leading one never left."""
    got, want = _both(
        gpu,
        cpu,
        lambda rt, out: rt.arg_reduce(
            rt.upload(NAN_ROWS), out, hip.ArgReduceAttributes(kind, 1, last)
        ),
        (len(NAN_ROWS),),
        np.int64,
    )
    np.testing.assert_array_equal(got, want)


def test_hardmax_of_nan_as_the_cpu_runtime(gpu: KernelRuntime, cpu: CpuRuntime) -> None:
    """numpy's first NaN on both (onnx's reference; ORT's depends on its lanes)."""
    got, want = _both(
        gpu,
        cpu,
        lambda rt, out: rt.hardmax(rt.upload(NAN_ROWS), out, hip.AxisAttributes(1)),
        NAN_ROWS.shape,
    )
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_layer_norm_strided_and_broadcast(
    gpu: KernelRuntime, cpu: CpuRuntime, axis: int
) -> None:
    """A transposed x, a scale of one element, a bias of the last dim only, and
    the statistics written; the RMS form too."""
    x = _rand(3, 4, 6, seed=axis)
    scale = np.array([1.5], np.float32)
    bias = _rand(6, seed=9)
    stats = tuple(n if d < axis else 1 for d, n in enumerate(x.shape))
    outs = []
    for runtime in (gpu, cpu):
        y = runtime.empty(x.shape, np.dtype(np.float32))
        mean = runtime.empty(stats, np.dtype(np.float32))
        inv = runtime.empty(stats, np.dtype(np.float32))
        runtime.layer_norm(
            _transposed(runtime, x),
            runtime.upload(scale, copy=True),
            runtime.upload(bias, copy=True),
            y,
            mean,
            inv,
            hip.NormAttributes(axis, 1e-5),
        )
        rms = runtime.empty(x.shape, np.dtype(np.float32))
        runtime.rms_norm(
            runtime.upload(x, copy=True),
            runtime.upload(scale, copy=True),
            rms,
            hip.NormAttributes(axis, 1e-3),
        )
        outs.append([runtime.download(v) for v in (y, mean, inv, rms)])
    for got, want in zip(*outs, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("method", ["log_softmax", "hardmax"])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_softmax_kinds_on_any_axis(
    gpu: KernelRuntime, cpu: CpuRuntime, method: str, axis: int
) -> None:
    x = np.round(_rand(3, 4, 5, seed=axis) * 3)  # ties for hardmax
    got, want = _both(
        gpu,
        cpu,
        lambda rt, out: getattr(rt, method)(
            rt.upload(x, copy=True), out, hip.AxisAttributes(axis)
        ),
        x.shape,
    )
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_fill_is_a_memset_or_a_broadcast_copy(gpu: KernelRuntime) -> None:
    mask = gpu.empty((3, 5), np.dtype(np.bool_))
    gpu.fill(mask, hip.FillAttributes(1))
    assert gpu.download(mask).all()
    zeros = gpu.empty((7,), np.dtype(np.float32))
    gpu.fill(zeros, hip.FillAttributes(0.0))
    assert not gpu.download(zeros).any()
    # No repeated byte: a copy from the value, stride 0.
    gpu.fill(zeros, hip.FillAttributes(1.5))
    np.testing.assert_array_equal(gpu.download(zeros), np.full(7, 1.5, np.float32))


def test_other_types_are_refused(gpu: KernelRuntime) -> None:
    """A type without a kernel, bool beyond max and min, mixed types."""
    x = gpu.upload(np.zeros((2, 3), np.int16), copy=True)
    out = gpu.empty((2,), np.dtype(np.int16))
    with pytest.raises(
        NotImplementedOnDevice,
        match=r"is not implemented on \w+: int16 operands",
    ):
        gpu.reduce(x, out, hip.ReduceAttributes("sum", (1,)))
    flags = gpu.upload(np.zeros((2, 3), np.bool_), copy=True)
    with pytest.raises(NotImplementedOnDevice, match=r"bool operands \(max, min"):
        gpu.reduce(
            flags,
            gpu.empty((2,), np.dtype(np.bool_)),
            hip.ReduceAttributes("sum", (1,)),
        )
    half = gpu.upload(np.zeros((2, 3), np.float16), copy=True)
    with pytest.raises(NotImplementedOnDevice, match="mixed float16, float32"):
        gpu.log_softmax(
            half, gpu.empty((2, 3), np.dtype(np.float32)), hip.AxisAttributes(1)
        )


TYPES = [np.float16, np.float64, np.int32, np.int64, np.uint8]


@pytest.mark.parametrize("dtype", TYPES, ids=lambda d: np.dtype(d).name)
def test_reductions_of_other_types(
    gpu: KernelRuntime, cpu: CpuRuntime, dtype: type
) -> None:
    """Every kind and ArgMax/ArgMin on a transposed view, against the CPU
    runtime (float16 accumulates in float32 on both)."""
    dt = np.dtype(dtype)
    x = np.round(_rand(3, 5, 7, seed=dt.num) * 2)
    x = (np.abs(x) if dt.kind == "u" else x).astype(dt)
    tol = 2e-3 if dt == np.float16 else 1e-12
    kinds = ["sum", "mean", "max", "min", "prod", "l1", "l2", "log_sum_exp"]
    for kind in [*kinds, "sum_square"]:
        if dt == np.uint8 and kind not in ("max", "min"):
            continue
        for axes in ((1,), (0, 2)):
            shape = tuple(n for d, n in enumerate(x.shape) if d not in axes)
            got, want = _both(
                gpu,
                cpu,
                lambda rt, out, kind=kind, axes=axes: rt.reduce(
                    _transposed(rt, x), out, hip.ReduceAttributes(kind, tuple(axes))
                ),
                shape,
                dt,
            )
            np.testing.assert_allclose(
                got.astype(np.float64), want, rtol=tol, atol=tol, err_msg=kind
            )
    for kind in ("max", "min"):
        got, want = _both(
            gpu,
            cpu,
            lambda rt, out, kind=kind: rt.arg_reduce(
                rt.upload(x, copy=True),
                out,
                hip.ArgReduceAttributes(kind, 1, kind == "min"),
            ),
            (3, 7),
            np.int64,
        )
        np.testing.assert_array_equal(got, want)


def test_bool_max_and_min(gpu: KernelRuntime, cpu: CpuRuntime) -> None:
    x = np.random.default_rng(4).integers(0, 2, (4, 6)).astype(np.bool_)
    x[0] = True
    x[1] = False
    for kind in ("max", "min"):
        got, want = _both(
            gpu,
            cpu,
            lambda rt, out, kind=kind: rt.reduce(
                rt.upload(x, copy=True), out, hip.ReduceAttributes(kind, (1,))
            ),
            (4,),
            np.bool_,
        )
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float16, np.float64], ids=["float16", "float64"])
def test_norms_and_softmaxes_of_other_types(
    gpu: KernelRuntime, cpu: CpuRuntime, dtype: type
) -> None:
    """LayerNormalization with float32 statistics (stash_type 1) of float16
    and float64 ones of float64, RMS, softmax (scaled too), log-softmax and
    hardmax on an inner axis, against the CPU runtime."""
    dt = np.dtype(dtype)
    x = (_rand(3, 4, 6, seed=7) * 2).astype(dt)
    scale = _rand(6, seed=8).astype(dt)
    bias = _rand(6, seed=9).astype(dt)
    stat = np.dtype(np.float32) if dt == np.float16 else dt
    tol = 3e-3 if dt == np.float16 else 1e-12
    outs = []
    for runtime in (gpu, cpu):
        y = runtime.empty(x.shape, dt)
        mean = runtime.empty((3, 4, 1), stat)
        inv = runtime.empty((3, 4, 1), stat)
        runtime.layer_norm(
            _transposed(runtime, x),
            runtime.upload(scale, copy=True),
            runtime.upload(bias, copy=True),
            y,
            mean,
            inv,
            hip.NormAttributes(2, 1e-5),
        )
        rms = runtime.empty(x.shape, dt)
        runtime.rms_norm(
            runtime.upload(x, copy=True),
            runtime.upload(scale, copy=True),
            rms,
            hip.NormAttributes(2, 1e-3),
        )
        results = [y, mean, inv, rms]
        for method in ("softmax", "log_softmax", "hardmax"):
            out = runtime.empty(x.shape, dt)
            extra = {"scale": None} if method == "softmax" else {}
            getattr(runtime, method)(
                src=runtime.upload(x, copy=True),
                out=out,
                attrs=hip.AxisAttributes(1),
                **extra,
            )
            results.append(out)
        scaled = runtime.empty(x.shape, dt)
        runtime.softmax(
            runtime.upload(x, copy=True),
            runtime.upload(np.array([0.5], dt), copy=True),
            scaled,
            hip.AxisAttributes(-1),
        )
        results.append(scaled)
        outs.append([runtime.download(v) for v in results])
    for i, (got, want) in enumerate(zip(*outs, strict=True)):
        np.testing.assert_allclose(
            got.astype(np.float64), want, rtol=tol, atol=tol, err_msg=str(i)
        )


@pytest.mark.parametrize("batch,seq", [(1, 1), (2, 5), (1, 7)])
def test_encoder_block_matches_onnxruntime(
    gpu: KernelRuntime, batch: int, seq: int
) -> None:
    model = encoder_block()
    ir = xhip.compile_to_ir(model)
    x = np.random.default_rng(batch + seq).normal(size=(batch, seq, D))
    x = x.astype(np.float32)
    want = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    ).run(None, {"X": x})
    got = CompiledModel(ir.module, ir.signature, ir.constants, gpu)({"X": x})
    for (name, value), expected in zip(got.items(), want, strict=True):
        np.testing.assert_allclose(value, expected, rtol=1e-4, atol=1e-5, err_msg=name)
