"""Each CPU runtime op against numpy float64, on strided and broadcast operands."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import DeviceArray
from xhip.dialects import hip

RTOL = 1e-5


@pytest.fixture(scope="module")
def rt() -> CpuRuntime:
    return CpuRuntime(debug=True)


def rand(*shape: int, seed: int = 0) -> np.ndarray:
    return (
        np.random.default_rng(seed + len(shape))
        .standard_normal(shape)
        .astype(np.float32)
    )


def close(got: np.ndarray, want: np.ndarray, rtol: float = RTOL) -> None:
    scale = max(float(np.max(np.abs(want))), 1e-30) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=0, atol=rtol * scale)


def run(
    rt: CpuRuntime, op: Callable[..., None], out_shape: tuple[int, ...], *xs: np.ndarray
) -> np.ndarray:
    out = rt.empty(out_shape, np.dtype(np.float32))
    op(*(rt.upload(x) for x in xs), out)
    return rt.download(out)


MATMUL_CASES = [
    ((5, 7), (7, 3)),
    ((4, 5, 7), (7, 3)),  # broadcast B
    ((4, 5, 7), (4, 7, 3)),
    ((2, 1, 5, 7), (3, 7, 6)),  # broadcast batch dims on both sides
    ((7,), (7, 3)),
    ((4, 5, 7), (7,)),
    ((3, 1, 64), (64, 64)),
    # Big enough to be cut over the thread pool: by batch, by rows, broadcast.
    ((4, 300, 64), (4, 64, 300)),
    ((600, 256), (256, 64)),
    ((2, 1, 300, 64), (3, 64, 300)),
    ((1, 300, 64), (5, 64, 300)),
]


@pytest.mark.parametrize("a_shape,b_shape", MATMUL_CASES)
def test_matmul(
    rt: CpuRuntime, a_shape: tuple[int, ...], b_shape: tuple[int, ...]
) -> None:
    a, b = rand(*a_shape), rand(*b_shape, seed=1)
    want = a.astype(np.float64) @ b.astype(np.float64)
    close(run(rt, rt.matmul, want.shape, a, b), want)


def test_matmul_strided_views(rt: CpuRuntime) -> None:
    """BLAS on transposed and sliced views, written into a strided output view."""
    a_base, b_base = rand(3, 7, 5), rand(7, 8, seed=2)
    a_dev, b_dev = rt.upload(a_base), rt.upload(b_base)
    a = DeviceArray(a_dev.buffer, 0, (3, 5, 7), (35, 1, 5), a_dev.dtype)
    b = DeviceArray(b_dev.buffer, 0, (7, 4), (8, 2), b_dev.dtype)
    pool = rt.empty((3, 4, 5), np.dtype(np.float32))
    out = DeviceArray(pool.buffer, 0, (3, 5, 4), (20, 1, 5), pool.dtype)
    rt.matmul(a, b, out)
    want = a_base.transpose(0, 2, 1).astype(np.float64) @ b_base[:, ::2]
    close(rt.array(out), want)


@pytest.mark.parametrize(
    "trans_a,trans_b,alpha,beta,c_shape",
    [
        (False, False, 1.0, 1.0, None),
        (True, False, 0.5, 1.0, (4,)),
        (False, True, 1.0, 2.0, (6, 1)),
        (True, True, -1.5, 0.25, (6, 4)),
        (False, False, 2.0, 0.0, (6, 4)),
        (False, False, 1.0, 1.0, ()),
    ],
)
def test_gemm(
    rt: CpuRuntime,
    trans_a: bool,
    trans_b: bool,
    alpha: float,
    beta: float,
    c_shape: tuple[int, ...] | None,
) -> None:
    a = rand(*((5, 6) if trans_a else (6, 5)))
    b = rand(*((4, 5) if trans_b else (5, 4)), seed=1)
    c = None if c_shape is None else rand(*c_shape, seed=2)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    want = alpha * ((a64.T if trans_a else a64) @ (b64.T if trans_b else b64))
    if c is not None:
        want = want + beta * c.astype(np.float64)
    out = rt.empty((6, 4), np.dtype(np.float32))
    cd = None if c is None else rt.upload(c)
    rt.gemm(
        rt.upload(a),
        rt.upload(b),
        cd,
        out,
        hip.GemmAttributes(trans_a, trans_b, alpha, beta),
    )
    close(rt.download(out), want)


BINARY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "pow": np.power,
}
BROADCASTS = [
    ((3, 4), (3, 4)),
    ((2, 3, 4), ()),
    ((2, 3, 4), (4,)),
    ((2, 3, 4), (3, 1)),
    ((2, 1, 4), (1, 3, 1)),
    ((1,), (5, 1)),
    ((64, 300, 8), (300, 1)),  # big enough to run on several threads
    ((2, 300, 200), (2, 1, 200)),
]


@pytest.mark.parametrize("kind", list(BINARY))
@pytest.mark.parametrize("a_shape,b_shape", BROADCASTS)
def test_binary(
    rt: CpuRuntime, kind: str, a_shape: tuple[int, ...], b_shape: tuple[int, ...]
) -> None:
    a, b = rand(*a_shape), rand(*b_shape, seed=1)
    if kind == "div":
        b = np.where(np.abs(b) < 0.1, np.float32(0.5), b)
    if kind == "pow":
        a = np.abs(a) + np.float32(0.5)  # a real power of every base
    want = BINARY[kind](a.astype(np.float64), b.astype(np.float64))
    out = rt.empty(want.shape, np.dtype(np.float32))
    rt.binary(rt.upload(a), rt.upload(b), out, hip.ElementwiseAttributes(kind, ()))
    close(rt.download(out), want)


def test_binary_in_place(rt: CpuRuntime) -> None:
    a = rand(70, 1000)
    value = rt.upload(a.copy())
    rt.binary(
        value,
        rt.upload(np.array(3.0, np.float32)),
        value,
        hip.ElementwiseAttributes("mul", ()),
    )
    close(rt.download(value), a.astype(np.float64) * 3)


@pytest.mark.parametrize("shape", [(7,), (3, 5), (200, 400)])
def test_relu(rt: CpuRuntime, shape: tuple[int, ...]) -> None:
    x = rand(*shape)
    relu = lambda s, o: rt.unary(s, o, hip.ElementwiseAttributes("relu", ()))  # noqa: E731
    close(run(rt, relu, shape, x), np.maximum(x.astype(np.float64), 0))


UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "relu": lambda x: np.maximum(x, 0),
    "exp": np.exp,
    "neg": np.negative,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "sqrt": lambda x: np.sqrt(np.abs(x)),
    "tanh": np.tanh,
}


@pytest.mark.parametrize("kind", list(UNARY))
@pytest.mark.parametrize("shape", [(7,), (3, 5), (200, 400)])
def test_unary(rt: CpuRuntime, kind: str, shape: tuple[int, ...]) -> None:
    x = rand(*shape) * 4
    if kind == "sqrt":
        x = np.abs(x)
    want = UNARY[kind](x.astype(np.float64))
    got = run(
        rt, lambda s, o: rt.unary(s, o, hip.ElementwiseAttributes(kind, ())), shape, x
    )
    close(got, want)


def test_unary_in_place_and_strided(rt: CpuRuntime) -> None:
    x = rand(300, 400)
    value = rt.upload(x.copy())
    rt.unary(value, value, hip.ElementwiseAttributes("tanh", ()))
    close(rt.download(value), np.tanh(x.astype(np.float64)))
    src = rt.upload(x)
    view = DeviceArray(src.buffer, 0, (400, 300), (1, 400), src.dtype)  # x.T
    out = rt.empty((400, 300), np.dtype(np.float32))
    rt.unary(view, out, hip.ElementwiseAttributes("exp", ()))
    close(rt.download(out), np.exp(x.astype(np.float64)).T)


def test_sigmoid_saturates_without_overflow(rt: CpuRuntime) -> None:
    x = np.array([-1e4, -100.0, 0.0, 100.0, 1e4, np.nan], np.float32)
    out = rt.empty(x.shape, np.dtype(np.float32))
    with np.errstate(all="raise"):
        rt.unary(rt.upload(x), out, hip.ElementwiseAttributes("sigmoid", ()))
    np.testing.assert_array_equal(rt.download(out), [0, 0, 0.5, 1, 1, np.nan])


def softmax64(x: np.ndarray, axis: int) -> np.ndarray:
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize(
    "shape,axis",
    [((5,), -1), ((3, 7), -1), ((3, 7), 0), ((2, 3, 4), 1), ((4, 300, 256), -1)],
)
def test_softmax(rt: CpuRuntime, shape: tuple[int, ...], axis: int) -> None:
    x = rand(*shape) * 3
    out = rt.empty(shape, np.dtype(np.float32))
    rt.softmax(rt.upload(x), None, out, hip.AxisAttributes(axis))
    close(rt.download(out), softmax64(x, axis))


@pytest.mark.parametrize(
    "shape,axis", [((0, 7), -1), ((3, 0), -1), ((3, 0), 0), ((0, 300, 256), 1)]
)
def test_softmax_empty(rt: CpuRuntime, shape: tuple[int, ...], axis: int) -> None:
    """A zero-size array (a batch of 0) has nothing to compute, and must not fail."""
    out = rt.empty(shape, np.dtype(np.float32))
    rt.softmax(
        rt.upload(np.zeros(shape, np.float32)), None, out, hip.AxisAttributes(axis)
    )
    assert rt.download(out).shape == shape


@pytest.mark.parametrize("offset", [200.0, -200.0, 1e4])
def test_softmax_large_values(rt: CpuRuntime, offset: float) -> None:
    """Rows whose unshifted exp over- or underflows take the max-shifted path."""
    x = rand(300, 256) + np.float32(offset)
    x[::7] -= offset  # mix normal rows into the same blocks
    out = rt.empty(x.shape, np.dtype(np.float32))
    rt.softmax(rt.upload(x), None, out, hip.AxisAttributes(-1))
    close(rt.download(out), softmax64(x, -1))


def test_softmax_minus_infinity(rt: CpuRuntime) -> None:
    x = rand(400, 256)
    x[:, 5:] = -np.inf  # masked
    out = rt.empty(x.shape, np.dtype(np.float32))
    rt.softmax(rt.upload(x), None, out, hip.AxisAttributes(-1))
    close(rt.download(out), softmax64(x, -1))


@pytest.mark.parametrize(
    "shape,perm",
    [
        ((3, 4), (1, 0)),
        ((2, 3, 4), (0, 2, 1)),
        ((2, 3, 4, 5), (3, 1, 0, 2)),
        ((64, 500, 6), (2, 0, 1)),
    ],
)
def test_permute(rt: CpuRuntime, shape: tuple[int, ...], perm: tuple[int, ...]) -> None:
    x = rand(*shape)
    want = x.transpose(perm)
    out = rt.empty(want.shape, np.dtype(np.float32))
    rt.permute(rt.upload(x), out, hip.PermuteAttributes(tuple(perm)))
    np.testing.assert_array_equal(rt.download(out), want)


def test_transpose(rt: CpuRuntime) -> None:
    x = rand(2, 3, 4)
    out = rt.empty((2, 4, 3), np.dtype(np.float32))
    rt.transpose(rt.upload(x), out, 1, 2)
    np.testing.assert_array_equal(rt.download(out), x.transpose(0, 2, 1))


def test_copy_strided(rt: CpuRuntime) -> None:
    x = rand(6, 8)
    src = rt.upload(x)
    view = DeviceArray(src.buffer, 4 * 1, (3, 4), (16, 2), src.dtype)  # x[::2, 1::2]
    out = rt.empty((3, 4), np.dtype(np.float32))
    rt.copy(view, out)
    np.testing.assert_array_equal(rt.download(out), x[::2, 1::2])


def test_upload_download_roundtrip(rt: CpuRuntime) -> None:
    x = rand(3, 5)[:, ::2]
    value = rt.upload(x, copy=True)
    got = rt.download(value)
    np.testing.assert_array_equal(got, x)
    host = np.empty_like(got)
    assert rt.download(value, out=host) is host


def test_cast_truncates_toward_zero(rt: CpuRuntime) -> None:
    """ONNX Cast from float to integer is C's: toward zero, not numpy's floor."""
    x = np.array([[-2.7, -0.5, 0.5], [2.7, -3.9, 1e3]], np.float32)
    out = rt.empty((3, 2), np.dtype(np.int32))
    rt.cast(rt.upload(x.T), out)
    np.testing.assert_array_equal(
        rt.download(out), np.array([[-2, 2], [0, -3], [0, 1000]], np.int32)
    )
    half = rt.empty((2, 3), np.dtype(np.float16))
    rt.cast(rt.upload(x), half)
    np.testing.assert_array_equal(rt.download(half), x.astype(np.float16))
