"""Every compute method of `CudaRuntime` and `HipRuntime`, their host code run
for real on the CPU stand-in of the device API (`EmulatedDevice`: host memory,
the kernel emulator, an SGEMM written from cuBLAS's documentation), against
`CpuRuntime` and numpy float64, at warp sizes 32 and 64."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest

from xhip.backend.cpu import CpuRuntime
from xhip.backend.elementwise import KERNELS, OPS
from xhip.backend.gpu import KernelRuntime
from xhip.backend.runtime import DeviceArray, NotImplementedOnDevice, Runtime
from xhip.dialects import hip
from xhip.testing.emulator import EmulatedDevice

pytestmark = pytest.mark.emulator

F32 = np.dtype(np.float32)
View = Callable[[DeviceArray], DeviceArray]


@pytest.fixture(scope="module")
def cpu() -> CpuRuntime:
    runtime = CpuRuntime()
    yield runtime  # type: ignore[misc]
    runtime.close()


def rand(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def swap(value: DeviceArray, d0: int = -2, d1: int = -1) -> DeviceArray:
    """The view with two dims (and their strides) swapped: a transposed view."""
    shape, strides = list(value.shape), list(value.strides)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    strides[d0], strides[d1] = strides[d1], strides[d0]
    return DeviceArray(
        value.buffer, value.offset, tuple(shape), tuple(strides), value.dtype
    )


def cols(start: int, stop: int) -> View:
    """The view of columns [start, stop) of the last dim: a row stride > cols."""

    def view(value: DeviceArray) -> DeviceArray:
        rank = len(value.shape)
        offsets = [0] * (rank - 1) + [start]
        sizes = [*value.shape[:-1], stop - start]
        return value.subview(offsets, sizes, [1] * rank, tuple(sizes))

    return view


def same(value: DeviceArray) -> DeviceArray:
    return value


def on_both(
    gpu: KernelRuntime,
    cpu: Runtime,
    inputs: Sequence[np.ndarray],
    out_shape: tuple[int, ...],
    call: Callable[[Runtime, list[DeviceArray], DeviceArray], None],
    views: Sequence[View] = (),
    out_view: View = same,
) -> tuple[np.ndarray, np.ndarray]:
    """`call` on each runtime with the same views of the same inputs."""
    results = []
    for rt in (gpu, cpu):
        values = [rt.upload(x, copy=True) for x in inputs]
        values = [
            (views[i] if i < len(views) else same)(v) for i, v in enumerate(values)
        ]
        base = rt.empty(out_shape, F32)
        call(rt, values, out_view(base))
        results.append(rt.download(base))
    return results[0], results[1]


# matmul


def t(x: np.ndarray) -> np.ndarray:
    """x with its last two dims swapped in memory: uploaded, `swap` views it back."""
    return np.ascontiguousarray(np.swapaxes(x, -1, -2))


MATMULS = {
    "2d": (rand(5, 7), rand(7, 4, seed=1), (), (5, 4)),
    "batch_x_2d": (rand(3, 5, 7), rand(7, 4, seed=1), (), (3, 5, 4)),
    "2d_x_batch": (rand(5, 7), rand(2, 7, 4, seed=1), (), (2, 5, 4)),
    "both_broadcast": (rand(2, 1, 5, 7), rand(1, 3, 7, 4, seed=1), (), (2, 3, 5, 4)),
    "batch_x_batch": (rand(2, 3, 5, 7), rand(2, 3, 7, 4, seed=1), (), (2, 3, 5, 4)),
    "1d_x_2d": (rand(7), rand(7, 4, seed=1), (), (4,)),
    "2d_x_1d": (rand(5, 7), rand(7, seed=1), (), (5,)),
    "1d_x_1d": (rand(7), rand(7, seed=1), (), ()),
    "1d_x_batch": (rand(7), rand(3, 7, 4, seed=1), (), (3, 4)),
    "batch_x_1d": (rand(3, 5, 7), rand(7, seed=1), (), (3, 5)),
    "transposed": (t(rand(3, 5, 7)), t(rand(3, 7, 4, seed=1)), (swap, swap), (3, 5, 4)),
    "transposed_a": (t(rand(5, 7)), rand(3, 7, 4, seed=1), (swap,), (3, 5, 4)),
    "row_stride": (rand(5, 9), rand(7, 4, seed=1), (cols(1, 8),), (5, 4)),
    "no_unit_stride": (
        rand(4, 6, 8),
        rand(4, 3, seed=1),
        (lambda v: swap(v, 0, 2),),
        None,
    ),
    "k0": (rand(5, 0), rand(0, 4, seed=1), (), (5, 4)),
    "empty_batch": (rand(0, 5, 7), rand(7, 4, seed=1), (), (0, 5, 4)),
    "vector_out": (rand(5, 7), rand(7, 1, seed=1), (), (5, 1)),
}


@pytest.mark.parametrize("case", MATMULS.values(), ids=MATMULS.keys())
def test_matmul(gpu: KernelRuntime, cpu: CpuRuntime, case: tuple) -> None:
    a, b, views, shape = case
    if shape is None:  # (8, 6, 4) x (4, 3): a view with no unit stride at all
        shape = (8, 6, 3)
    got, want = on_both(
        gpu, cpu, [a, b], shape, lambda rt, v, o: rt.matmul(v[0], v[1], o), views
    )
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert np.isfinite(got).all()


def test_matmul_into_a_transposed_output(gpu: KernelRuntime, cpu: CpuRuntime) -> None:
    """BLAS cannot write a transposed C: the runtime writes scratch, then copies."""
    a, b = rand(3, 5, 7), rand(3, 7, 4, seed=1)
    got, want = on_both(
        gpu, cpu, [a, b], (3, 4, 5), lambda rt, v, o: rt.matmul(v[0], v[1], o), (), swap
    )
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_matmul_is_one_strided_batched_sgemm(gpu: KernelRuntime) -> None:
    """The seed's `X @ W` with a broadcast 2-D W: one call, B's batch stride 0,
    and no copy kernel before it."""
    device = gpu.device
    assert isinstance(device, EmulatedDevice)
    x, w = rand(3, 5, 7), rand(7, 4, seed=1)
    out = gpu.empty((3, 5, 4), F32)
    before = len(device.launches)
    gpu.matmul(gpu.upload(x), gpu.upload(w), out)
    assert device.launches[before:] == []
    (call,) = device.gemms[-1:]
    # Row-major out = x @ w is column-major out^T = w^T x^T: BLAS's A is w.
    assert (call.transa, call.transb, call.m, call.n, call.k) == ("N", "N", 4, 5, 7)
    assert (call.lda, call.stride_a, call.ldb, call.stride_b) == (4, 0, 7, 35)
    assert (call.ldc, call.stride_c, call.batch_count) == (4, 20, 3)
    np.testing.assert_allclose(gpu.download(out), x @ w, rtol=1e-5, atol=1e-6)


# gemm

GEMM_C = {
    "none": None,
    "row": (4,),
    "row2d": (1, 4),
    "column": (6, 1),
    "full": (6, 4),
    "scalar": (),
}


@pytest.mark.parametrize("c_shape", GEMM_C.values(), ids=GEMM_C.keys())
@pytest.mark.parametrize(
    "trans_a,trans_b", [(False, False), (True, True), (True, False)]
)
def test_gemm(
    gpu: KernelRuntime,
    cpu: CpuRuntime,
    c_shape: tuple[int, ...] | None,
    trans_a: bool,
    trans_b: bool,
) -> None:
    a = rand(*((5, 6) if trans_a else (6, 5)))
    b = rand(*((4, 5) if trans_b else (5, 4)), seed=1)
    inputs = [a, b] + ([] if c_shape is None else [rand(*c_shape, seed=2)])

    def call(rt: Runtime, v: list[DeviceArray], o: DeviceArray) -> None:
        c = v[2] if len(v) > 2 else None
        rt.gemm(v[0], v[1], c, o, hip.GemmAttributes(trans_a, trans_b, 0.5, 2.0))

    got, want = on_both(gpu, cpu, inputs, (6, 4), call)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    a64 = a.astype(np.float64)
    ref = 0.5 * ((a64.T if trans_a else a64) @ (b.T if trans_b else b))
    if c_shape is not None:
        ref = ref + 2.0 * inputs[2]
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("beta", [0.0, 1.0, -1.5])
def test_gemm_with_c_aliasing_out(gpu: KernelRuntime, beta: float) -> None:
    """ONNX Gemm in place: C is the output buffer (and beta 0 must not read it)."""
    a, b, c = rand(6, 5), rand(5, 4, seed=1), rand(6, 4, seed=2)
    out = gpu.upload(c, copy=True)
    gpu.gemm(
        gpu.upload(a),
        gpu.upload(b),
        out,
        out,
        hip.GemmAttributes(False, False, 1.0, beta),
    )
    want = a.astype(np.float64) @ b + beta * c
    np.testing.assert_allclose(gpu.download(out), want, rtol=1e-5, atol=1e-5)


def test_gemm_beta_zero_never_reads_c(make_gpu: Callable[..., KernelRuntime]) -> None:
    """In debug mode fresh memory is NaN; beta = 0 must give finite numbers."""
    gpu = make_gpu(debug=True)
    a, b = rand(6, 5), rand(5, 4, seed=1)
    c = gpu.empty((6, 4), F32)  # NaN
    out = gpu.empty((6, 4), F32)
    gpu.gemm(
        gpu.upload(a), gpu.upload(b), c, out, hip.GemmAttributes(False, False, 1.0, 0.0)
    )
    np.testing.assert_allclose(gpu.download(out), a @ b, rtol=1e-5, atol=1e-6)


# float16 (float32 accumulation) and float64 GEMMs, against numpy float64 of
# the same stored inputs (the CPU runtime's float64 matmul).

GEMM_TOLERANCE = {"float16": 2e-3, "float64": 1e-12}
"""One rounding of the result to half (2^-11 relative) with float32
accumulation of exact products; float64 as BLAS rounds it."""


def typed_on_gpu(
    gpu: KernelRuntime,
    cpu: CpuRuntime,
    dtype: str,
    inputs: Sequence[np.ndarray],
    out_shape: tuple[int, ...],
    call: Callable[[Runtime, list[DeviceArray], DeviceArray], None],
    views: Sequence[View] = (),
    out_view: View = same,
) -> tuple[np.ndarray, np.ndarray]:
    """`call` on the GPU runtime in `dtype` and on the CPU runtime in float64,
    with the inputs as stored in `dtype`."""
    stored = [x.astype(dtype) for x in inputs]
    results = []
    for rt, t in ((gpu, np.dtype(dtype)), (cpu, np.dtype(np.float64))):
        values = [rt.upload(x.astype(t), copy=True) for x in stored]
        values = [
            (views[i] if i < len(views) else same)(v) for i, v in enumerate(values)
        ]
        base = rt.empty(out_shape, t)
        call(rt, values, out_view(base))
        results.append(rt.download(base))
    assert results[0].dtype == np.dtype(dtype)
    return results[0], results[1]


@pytest.mark.parametrize("dtype", list(GEMM_TOLERANCE))
@pytest.mark.parametrize("case", MATMULS.values(), ids=MATMULS.keys())
def test_matmul_typed(
    gpu: KernelRuntime, cpu: CpuRuntime, case: tuple, dtype: str
) -> None:
    a, b, views, shape = case
    if shape is None:
        shape = (8, 6, 3)
    got, want = typed_on_gpu(
        gpu, cpu, dtype, [a, b], shape, lambda rt, v, o: rt.matmul(v[0], v[1], o), views
    )
    tol = GEMM_TOLERANCE[dtype]
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol)
    assert np.isfinite(got).all()


@pytest.mark.parametrize("dtype", list(GEMM_TOLERANCE))
def test_typed_matmul_is_one_gemm_of_its_type(gpu: KernelRuntime, dtype: str) -> None:
    """One BLAS call of the operands' type, into a transposed output via scratch
    of that type too."""
    device = gpu.device
    assert isinstance(device, EmulatedDevice)
    x, w = rand(3, 5, 7).astype(dtype), rand(7, 4, seed=1).astype(dtype)
    out = gpu.empty((3, 5, 4), np.dtype(dtype))
    before = len(device.gemms)
    gpu.matmul(gpu.upload(x), gpu.upload(w), out)
    (call,) = device.gemms[before:]
    assert call.dtype == dtype and (call.m, call.n, call.k) == (4, 5, 7)
    want = x.astype(np.float64) @ w.astype(np.float64)
    tol = GEMM_TOLERANCE[dtype]
    np.testing.assert_allclose(gpu.download(out), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", list(GEMM_TOLERANCE))
@pytest.mark.parametrize("c_shape", GEMM_C.values(), ids=GEMM_C.keys())
@pytest.mark.parametrize(
    "trans_a,trans_b", [(False, False), (True, True), (False, True)]
)
def test_gemm_typed(
    gpu: KernelRuntime,
    cpu: CpuRuntime,
    c_shape: tuple[int, ...] | None,
    trans_a: bool,
    trans_b: bool,
    dtype: str,
) -> None:
    """ONNX Gemm in half and double: transposes, alpha, the bias broadcast
    into the output and BLAS's beta (computed in float32 for half)."""
    a = rand(*((5, 6) if trans_a else (6, 5)))
    b = rand(*((4, 5) if trans_b else (5, 4)), seed=1)
    inputs = [a, b] + ([] if c_shape is None else [rand(*c_shape, seed=2)])

    def call(rt: Runtime, v: list[DeviceArray], o: DeviceArray) -> None:
        c = v[2] if len(v) > 2 else None
        rt.gemm(v[0], v[1], c, o, hip.GemmAttributes(trans_a, trans_b, 0.5, 2.0))

    got, want = typed_on_gpu(gpu, cpu, dtype, inputs, (6, 4), call)
    tol = GEMM_TOLERANCE[dtype]
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", list(GEMM_TOLERANCE))
@pytest.mark.parametrize("beta", [0.0, -1.5])
def test_typed_gemm_with_c_aliasing_out(
    make_gpu: Callable[..., KernelRuntime], dtype: str, beta: float
) -> None:
    """In place (C is the output) in debug mode, where beta 0 must not read C."""
    gpu = make_gpu(debug=True)
    t = np.dtype(dtype)
    a, b, c = (
        rand(*s, seed=i).astype(t) for i, s in enumerate([(6, 5), (5, 4), (6, 4)])
    )
    out = gpu.upload(c, copy=True)
    gpu.gemm(
        gpu.upload(a),
        gpu.upload(b),
        out,
        out,
        hip.GemmAttributes(False, False, 1.0, beta),
    )
    want = a.astype(np.float64) @ b.astype(np.float64) + beta * c.astype(np.float64)
    tol = GEMM_TOLERANCE[dtype]
    got = gpu.download(out)
    assert got.dtype == t
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol)


def test_gemm_refuses_mixed_types(gpu: KernelRuntime) -> None:
    h, f = gpu.upload(np.ones((2, 2), np.float16)), gpu.upload(np.ones((2, 2), F32))
    with pytest.raises(
        NotImplementedOnDevice,
        match="is not implemented on .*: float32 operands",
    ):
        gpu.gemm(
            h,
            h,
            f,
            gpu.empty((2, 2), np.dtype(np.float16)),
            hip.GemmAttributes(False, False, 1.0, 1.0),
        )


# Elementwise, copies, permutes.


F32_BINARY = sorted(op.kind() for op in KERNELS["xhip_binary_f32"].ops)
F32_UNARY = sorted(op.kind() for op in KERNELS["xhip_unary_f32"].ops)


@pytest.mark.parametrize("kind", F32_BINARY)
def test_binary(gpu: KernelRuntime, cpu: CpuRuntime, kind: str) -> None:
    a, b = rand(3, 1, 17), rand(4, 1, seed=1)
    if kind == "pow":
        a = np.abs(a) + np.float32(0.5)
    if kind == "div":
        b = b + np.float32(np.copysign(2, b))
    got, want = on_both(
        gpu,
        cpu,
        [a, b],
        (3, 4, 17),
        lambda rt, v, o: rt.binary(v[0], v[1], o, hip.ElementwiseAttributes(kind, ())),
    )
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7)


def test_binary_in_place_on_a_strided_view(gpu: KernelRuntime, cpu: CpuRuntime) -> None:
    """`out` exactly an input, both transposed views."""
    results = []
    for rt in (gpu, cpu):
        x = rt.upload(rand(4, 6), copy=True)
        view = swap(x)
        rt.binary(
            view,
            rt.upload(rand(6, 1, seed=1)),
            view,
            hip.ElementwiseAttributes("mul", ()),
        )
        results.append(rt.download(x))
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6)


@pytest.mark.parametrize("kind", F32_UNARY)
def test_unary_on_a_strided_view(
    gpu: KernelRuntime, cpu: CpuRuntime, kind: str
) -> None:
    x = rand(2, 5, 7, 3) * 3
    if kind in ("sqrt", "log"):
        x = np.abs(x)
    params = [0.75, 0.25][: len(OPS[kind].FORMULA.params())]
    got, want = on_both(
        gpu,
        cpu,
        [x],
        (2, 3, 7, 5),
        lambda rt, v, o: rt.unary(
            v[0], o, hip.ElementwiseAttributes(kind, tuple(params))
        ),
        (lambda v: swap(v, 1, 3),),
    )
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_copy_cast_permute_transpose_concat(
    gpu: KernelRuntime, cpu: CpuRuntime
) -> None:
    x = rand(2, 5, 7, 3)
    cases: list[tuple[list[np.ndarray], tuple[int, ...], Callable, Sequence[View]]] = [
        ([x], (2, 5, 4, 3), lambda rt, v, o: rt.copy(v[0], o), (lambda v: v.subview([0, 0, 2, 0], [2, 5, 4, 3], [1, 1, 1, 1], (2, 5, 4, 3)),)),
        ([x], x.shape, lambda rt, v, o: rt.cast(v[0], o), ()),
        ([x], (3, 2, 7, 5), lambda rt, v, o: rt.permute(v[0], o, hip.PermuteAttributes((3, 0, 2, 1))), ()),
        ([x], (2, 3, 7, 5), lambda rt, v, o: rt.transpose(v[0], o, 1, 3), ()),
        ([x, rand(2, 5, 2, 3, seed=1)], (2, 5, 9, 3), lambda rt, v, o: rt.concat(v, o, hip.AxisAttributes(2)), ()),
        ([x, rand(1, 5, 7, 3, seed=1)], (3, 5, 7, 3), lambda rt, v, o: rt.concat(v, o, hip.AxisAttributes(0)), ()),
    ]  # fmt: skip
    for inputs, shape, call, views in cases:
        got, want = on_both(gpu, cpu, inputs, shape, call, views)
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(
        on_both(gpu, cpu, [x], (3, 2, 7, 5), cases[2][2])[0], x.transpose(3, 0, 2, 1)
    )


def test_float32_only_ops_are_refused(gpu: KernelRuntime) -> None:
    """GEMM and softmax run floats only; an elementwise op on a type its
    formula does not compute in has no kernel."""
    i64 = gpu.upload(np.zeros(3, np.int64))
    with pytest.raises(
        NotImplementedOnDevice, match="is not implemented on .*: int64 operands"
    ):
        gpu.matmul(i64, i64, gpu.upload(np.zeros((), np.int64)))
    with pytest.raises(
        NotImplementedOnDevice,
        match=f"is not implemented on {gpu.name}: int64 operands$",
    ):
        gpu.unary(i64, i64, hip.ElementwiseAttributes("exp", ()))


TYPED = [np.float16, np.float64, np.int8, np.int16, np.int32, np.int64]
TYPED += [np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]


@pytest.mark.parametrize("dtype", TYPED, ids=lambda d: np.dtype(d).name)
def test_every_element_type(gpu: KernelRuntime, cpu: CpuRuntime, dtype: type) -> None:
    """Each kind of op (unary, binary, comparison, where, copy, permute, cast
    to and from float32) on strided views of every element type, against the
    CPU runtime."""
    dt = np.dtype(dtype)
    rng = np.random.default_rng(dt.num)
    if dt.kind == "b":
        x = rng.integers(0, 2, (3, 4, 5)).astype(dt)
        y = rng.integers(0, 2, (5, 1)).astype(dt)
        unary, binary = "not", "xor"
    else:
        low = 0 if dt.kind == "u" else -9
        x = (rng.integers(low, 10, (3, 4, 5)) * (1.25 if dt.kind == "f" else 1)).astype(
            dt
        )
        y = rng.integers(1, 10, (5, 1)).astype(dt)
        unary, binary = ("abs" if dt.kind != "f" else "floor"), "mod"
    cond = rng.integers(0, 2, (4,)).astype(bool)
    calls: list[tuple[list[np.ndarray], np.dtype, Callable]] = [
        (
            [x],
            dt,
            lambda rt, v, o: rt.unary(v[0], o, hip.ElementwiseAttributes(unary, ())),
        ),
        (
            [x, y],
            dt,
            lambda rt, v, o: rt.binary(
                v[0], v[1], o, hip.ElementwiseAttributes(binary, ())
            ),
        ),
        (
            [x, y],
            np.dtype(bool),
            lambda rt, v, o: rt.binary(
                v[0], v[1], o, hip.ElementwiseAttributes("equal", ())
            ),
        ),
        (
            [cond, x, y],
            dt,
            lambda rt, v, o: rt.ternary(*v, o, hip.ElementwiseAttributes("where", ())),
        ),
        ([x], dt, lambda rt, v, o: rt.copy(v[0], o)),
        ([x.astype(np.float32)], dt, lambda rt, v, o: rt.cast(v[0], o)),
        ([x], np.dtype(np.float32), lambda rt, v, o: rt.cast(v[0], o)),
    ]
    for inputs, out_dtype, call in calls:
        results = []
        for rt in (gpu, cpu):
            values = [rt.upload(a, copy=True) for a in inputs]
            values = [swap(v) if v.shape == x.shape else v for v in values]
            out = rt.empty((3, 5, 4), out_dtype)
            call(rt, values, out)
            results.append(rt.download(out))
        np.testing.assert_array_equal(results[0], results[1])
    results = []
    for rt in (gpu, cpu):
        out = rt.empty((5, 3, 4), dt)
        rt.permute(rt.upload(x), out, hip.PermuteAttributes((2, 0, 1)))
        results.append(rt.download(out))
    np.testing.assert_array_equal(results[0], x.transpose(2, 0, 1))
    np.testing.assert_array_equal(results[1], x.transpose(2, 0, 1))


def test_formula_parameters_reach_the_kernels(
    gpu: KernelRuntime, cpu: CpuRuntime
) -> None:
    """Elu's alpha and HardSigmoid's alpha and beta, in float32 and float64."""
    for dtype in (np.float32, np.float64):
        x = (rand(4, 6) * 3).astype(dtype)
        for kind, params in (("elu", (0.5,)), ("hard_sigmoid", (0.3, 0.4))):
            results = []
            for rt in (gpu, cpu):
                out = rt.empty(x.shape, np.dtype(dtype))
                rt.unary(
                    rt.upload(x), out, hip.ElementwiseAttributes(kind, tuple(params))
                )
                results.append(rt.download(out))
            np.testing.assert_allclose(results[0], results[1], rtol=1e-6)
    want = np.clip(0.3 * x + 0.4, 0, 1)
    np.testing.assert_allclose(results[0], want, rtol=1e-12)


# softmax


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("scaled", [False, True], ids=["plain", "scaled"])
def test_softmax(gpu: KernelRuntime, cpu: CpuRuntime, axis: int, scaled: bool) -> None:
    x = rand(2, 3, 37) * 4
    inputs = [x] + ([np.array([0.125], np.float32)] if scaled else [])

    def call(rt: Runtime, v: list[DeviceArray], o: DeviceArray) -> None:
        rt.softmax(v[0], v[1] if scaled else None, o, hip.AxisAttributes(axis))

    got, want = on_both(gpu, cpu, inputs, x.shape, call)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-7)
    z = x.astype(np.float64) * (0.125 if scaled else 1.0)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    np.testing.assert_allclose(got, e / e.sum(axis=axis, keepdims=True), atol=1e-6)


def test_softmax_of_a_strided_view(gpu: KernelRuntime, cpu: CpuRuntime) -> None:
    got, want = on_both(
        gpu,
        cpu,
        [rand(3, 40)],
        (40, 3),
        lambda rt, v, o: rt.softmax(v[0], None, o, hip.AxisAttributes(-1)),
        (swap,),
    )
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-7)


# Debug mode and memory.


def test_debug_mode_poisons_fresh_and_freed_memory(
    make_gpu: Callable[..., KernelRuntime],
) -> None:
    """On a device whose fresh memory is zeros, the NaN comes from the runtime."""
    gpu = make_gpu(debug=True, fill=0)
    device = gpu.device
    assert isinstance(device, EmulatedDevice)
    assert np.isnan(gpu.download(gpu.empty((4, 3), F32))).all()
    value = gpu.upload(rand(4, 3))
    buffer = value.buffer
    gpu.free(buffer)
    assert device.memsets[-1] == (buffer.handle, 0xFF, buffer.nbytes)


def test_debug_mode_runs_the_ops_on_poisoned_memory(
    make_gpu: Callable[..., KernelRuntime], cpu: CpuRuntime
) -> None:
    """Every output element is written: none of the NaN survives."""
    gpu = make_gpu(debug=True)
    x, w = rand(2, 5, 8), rand(8, 8, seed=1)
    h = gpu.empty((2, 5, 8), F32)
    gpu.matmul(gpu.upload(x), gpu.upload(w), h)
    s = gpu.empty((2, 8, 5), F32)
    gpu.softmax(swap(h), None, s, hip.AxisAttributes(1))
    y = gpu.empty((2, 8, 5), F32)
    gpu.unary(s, y, hip.ElementwiseAttributes("tanh", ()))
    e = np.exp((x @ w).transpose(0, 2, 1).astype(np.float64))
    want = np.tanh(e / e.sum(axis=1, keepdims=True))
    np.testing.assert_allclose(gpu.download(y), want, rtol=1e-5, atol=1e-6)


def test_memory_is_given_back(gpu: KernelRuntime) -> None:
    device = gpu.device
    assert isinstance(device, EmulatedDevice)
    start = device.live_bytes
    x = gpu.upload(rand(3, 40))
    out = gpu.empty((40, 3), F32)
    # Scratch allocated and freed inside.
    gpu.softmax(swap(x), None, out, hip.AxisAttributes(-1))
    gpu.matmul(swap(x), x, gpu.empty((40, 40), F32))
    gpu.free(x.buffer)
    gpu.free(out.buffer)
    assert device.live_bytes - start <= 40 * 40 * 4 + 512  # the matmul's out, meta
