"""The kernels of `kernels/scatter.h`, run by the emulator through the GPU
runtimes' own launches (`gpu_scatter.py`), at warp sizes 32 and 64, against
the CPU runtime and onnx's reference implementations: every reduction on
float16/32/64, integers and bool, duplicate and negative indices, every
axis, strided (permuted) views, empty operands, and a grid of one small
block (the grid-stride loops).

The reductions are deterministic (one thread per set of destinations,
applying updates in order), so GPU and CPU agree bit for bit.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest
from onnx.reference.ops.op_cum_prod import CumProd
from onnx.reference.ops.op_cum_sum import CumSum
from onnx.reference.ops.op_one_hot import _one_hot  # pyright: ignore[reportPrivateUsage]
from onnx.reference.ops.op_scatter_elements import scatter_elements
from onnx.reference.ops.op_scatternd import (
    _scatter_nd_impl,  # pyright: ignore[reportPrivateUsage]
)

from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend import gpu_host
from xhip.backend.cpu import CpuRuntime
from xhip.backend.cuda import CudaRuntime
from xhip.backend.gpu import KernelRuntime
from xhip.backend.runtime import DeviceArray, Runtime
from xhip.dialects import hip
from xhip.testing.emulator import EmulatedDevice, EmulatedKernels

pytestmark = pytest.mark.emulator

KERNELS = {
    "xhip_scatter_nd",
    "xhip_scatter_elements",
    "xhip_trilu",
    "xhip_cumsum",
    "xhip_one_hot",
}
REDUCTIONS = ("none", "add", "mul", "max", "min")
DTYPES = ("float32", "float16", "int64", "bool")


@pytest.fixture
def gpu1(emulated: EmulatedKernels) -> Iterator[KernelRuntime]:
    """One GPU runtime in debug mode (these kernels use no warp operations;
    the tests that run on every `make_gpu` runtime cover the rest)."""
    device = EmulatedDevice(32, kernels=emulated, runtime="cuda")
    runtime = CudaRuntime(debug=True, device=device)
    yield runtime
    runtime.close()


@pytest.fixture
def cpu() -> Iterator[CpuRuntime]:
    runtime = CpuRuntime(threads=1)
    yield runtime
    runtime.close()


def _rng(*key: object) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _values(rng: np.random.Generator, shape: Sequence[int], dtype: str) -> np.ndarray:
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.startswith(("int", "uint")):
        return rng.integers(0, 50, shape).astype(dtype)
    return rng.uniform(0.5, 2.0, shape).astype(dtype)


def _put(
    runtime: Runtime, array: np.ndarray, perm: Sequence[int] | None = None
) -> DeviceArray:
    """`array` on the runtime; with `perm`, stored permuted and viewed back
    (a strided view of the same values)."""
    if perm is None:
        return runtime.upload(np.ascontiguousarray(array), copy=True)
    stored = runtime.upload(np.ascontiguousarray(np.transpose(array, perm)), copy=True)
    back = [perm.index(d) for d in range(array.ndim)]
    return DeviceArray(
        stored.buffer,
        stored.offset,
        tuple(stored.shape[p] for p in back),
        tuple(stored.strides[p] for p in back),
        stored.dtype,
    )


def _out(
    runtime: Runtime, shape: Sequence[int], dtype: Any, perm: Sequence[int] | None
) -> DeviceArray:
    return _put(runtime, np.zeros(shape, dtype), perm)


ATTRIBUTES: dict[str, Any] = {
    "scatter_nd": hip.ScatterAttributes,
    "scatter_elements": hip.ScatterAxisAttributes,
    "trilu": hip.TriluAttributes,
    "cumsum": hip.CumSumAttributes,
    "one_hot": hip.AxisAttributes,
}
"""Each method's `attrs`, made from `_both`'s keywords."""


def _both(
    gpu: Runtime,
    cpu: Runtime,
    method: str,
    arrays: Sequence[np.ndarray],
    out_shape: Sequence[int],
    out_dtype: Any,
    perm: Sequence[int] | None = None,
    index: Sequence[int] = (),
    **kwargs: Any,
) -> tuple[np.ndarray, np.ndarray]:
    """The method's result on the GPU runtime and on the CPU one; the GPU's
    also with one block of 32 threads for the whole grid (the grid-stride
    loops), which must give the same."""

    def run(runtime: Runtime) -> np.ndarray:
        ins = [
            _put(runtime, a, perm if a.ndim == len(out_shape) and i == 0 else None)
            for i, a in enumerate(arrays)
        ]
        out = _out(runtime, out_shape, out_dtype, perm)
        getattr(runtime, method)(*index, *ins, out, ATTRIBUTES[method](**kwargs))
        return runtime.download(out)

    got = run(gpu)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gpu_host, "BLOCK", 32)
        patch.setattr(gpu_host, "MAX_GRID", 1)
        np.testing.assert_array_equal(run(gpu), got, err_msg="one block")
    return got, run(cpu)


def _equal(got: np.ndarray, want: np.ndarray, where: str) -> None:
    assert got.dtype == want.dtype, where
    np.testing.assert_array_equal(got, want, err_msg=where)


# ScatterND.

ND_CASES = [
    # data shape, indices shape (last dim: k)
    ((4, 4, 4), (2, 1)),  # slices (the node suite's)
    ((5, 3), (7, 2)),  # single elements, duplicates
    ((6,), (9, 1)),
    ((3, 4, 5), (2, 3, 2)),  # batched indices, slices of 5
    ((2, 3), (1, 0)),  # k = 0: the whole data, once
    ((0, 3), (0, 1)),  # nothing to scatter
]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,ishape", ND_CASES, ids=str)
def test_scatter_nd(
    gpu1: KernelRuntime,
    cpu: CpuRuntime,
    reduction: str,
    dtype: str,
    shape: tuple[int, ...],
    ishape: tuple[int, ...],
) -> None:
    rng = _rng("nd", reduction, dtype, shape, ishape)
    k = ishape[-1]
    m = int(np.prod(ishape[:-1]))
    total = int(np.prod(shape[:k]))
    if reduction == "none" and k:  # duplicates are undefined there: distinct rows
        m = min(m, total)
        flat = rng.permutation(total)[:m]
    else:
        flat = rng.integers(0, max(total, 1), m)
    if m != int(np.prod(ishape[:-1])):
        ishape = (m, k)
    rows = (
        np.stack(np.unravel_index(flat, shape[:k]), -1)
        if k
        else np.zeros((m, 0), np.int64)
    )
    sizes = np.asarray(shape[:k], np.int64)
    negative = rng.integers(0, 2, rows.shape).astype(bool)
    indices = np.where(negative, rows - sizes, rows).reshape(ishape).astype(np.int64)
    data = _values(rng, shape, dtype)
    updates = _values(rng, (*ishape[:-1], *shape[k:]), dtype)
    perm = list(range(len(shape)))[::-1]
    gpu = gpu1
    got, cpu_got = _both(
        gpu,
        cpu,
        "scatter_nd",
        [data, indices, updates],
        shape,
        data.dtype,
        perm,
        reduction=reduction,
    )
    want = _scatter_nd_impl(
        data, indices, updates, None if reduction == "none" else reduction
    )
    _equal(cpu_got, want.astype(data.dtype), f"cpu {reduction}")
    _equal(got, cpu_got, f"gpu {reduction}")


def test_scatter_nd_skips_indices_out_of_range(make_gpu: MakeGpu) -> None:
    gpu = make_gpu()
    data = np.arange(6, dtype=np.float32)
    out = gpu.empty((6,), np.dtype(np.float32))
    indices = gpu.upload(np.array([[7], [-7], [2]], np.int64))
    updates = gpu.upload(np.array([10, 20, 30], np.float32))
    gpu.scatter_nd(
        gpu.upload(data), indices, updates, out, hip.ScatterAttributes("add")
    )
    np.testing.assert_array_equal(gpu.download(out), [0, 1, 32, 3, 4, 5])


def test_scatter_cpu_refuses_indices_out_of_range(cpu: CpuRuntime) -> None:
    data = cpu.upload(np.zeros(3, np.float32))
    out = cpu.empty((3,), np.dtype(np.float32))
    with pytest.raises(IndexError, match="index 3 is out of range"):
        cpu.scatter_nd(
            data,
            cpu.upload(np.array([[3]], np.int64)),
            cpu.upload(np.ones(1, np.float32)),
            out,
            hip.ScatterAttributes("none"),
        )


# ScatterElements.

ELEMENT_CASES = [
    # data shape, indices shape, axis
    ((3, 3), (2, 3), 0),
    ((1, 5), (1, 7), 1),  # duplicates along the axis
    ((4, 5, 6), (3, 7, 2), 1),
    ((4, 5, 6), (2, 3, 9), 2),
    ((4, 5, 6), (6, 2, 3), 0),
    ((3, 0), (3, 0), 1),
]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("index_dtype", ["int64", "int32"])
@pytest.mark.parametrize("shape,ishape,axis", ELEMENT_CASES, ids=str)
def test_scatter_elements(
    gpu1: KernelRuntime,
    cpu: CpuRuntime,
    reduction: str,
    dtype: str,
    index_dtype: str,
    shape: tuple[int, ...],
    ishape: tuple[int, ...],
    axis: int,
) -> None:
    rng = _rng("elements", reduction, dtype, index_dtype, shape, ishape, axis)
    data = _values(rng, shape, dtype)
    n = shape[axis]
    if reduction == "none":  # distinct along each line (duplicates undefined)
        ishape = tuple(min(s, n) if d == axis else s for d, s in enumerate(ishape))
        keys = rng.random((*ishape[:axis], n, *ishape[axis + 1 :]))
        positions = np.argsort(keys, axis=axis).take(range(ishape[axis]), axis=axis)
    else:
        positions = rng.integers(0, max(n, 1), ishape)
    negative = rng.integers(0, 2, positions.shape).astype(bool)
    indices = np.where(negative, positions - n, positions).astype(index_dtype)
    updates = _values(rng, ishape, dtype)
    perm = [1, 2, 0] if len(shape) == 3 else [1, 0]
    gpu = gpu1
    got, cpu_got = _both(
        gpu,
        cpu,
        "scatter_elements",
        [data, indices, updates],
        shape,
        data.dtype,
        perm,
        reduction=reduction,
        axis=axis,
    )
    reference = None if reduction == "none" else reduction
    want = scatter_elements(data, indices, updates, axis=axis, reduction=reference)
    _equal(cpu_got, want.astype(data.dtype), f"cpu {reduction}")
    _equal(got, cpu_got, f"gpu {reduction}")


def test_scatter_reductions_take_nan_as_onnxruntime_and_wrap_integers(
    make_gpu: MakeGpu, cpu: CpuRuntime
) -> None:
    """max/min are ONNX Runtime's `d > u ? d : u` (`<`): a NaN update gives
    NaN, a NaN destination the update (test_scatter_models.py checks them
    against ONNX Runtime itself); int32 sums wrap."""
    data = np.array([[1.0, np.nan, 3.0]], np.float32)
    updates = np.array([[np.nan, 5.0, 0.0]], np.float32)
    indices = np.array([[0, 1, 2]], np.int64)
    for reduction, want in (
        ("max", np.where(data > updates, data, updates)[0]),
        ("min", np.where(data < updates, data, updates)[0]),
    ):
        got, cpu_got = _both(
            make_gpu(),
            cpu,
            "scatter_elements",
            [data, indices, updates],
            (1, 3),
            np.float32,
            reduction=reduction,
            axis=1,
        )
        np.testing.assert_array_equal(cpu_got[0], want)
        np.testing.assert_array_equal(got, cpu_got)
    big = np.array([[2**31 - 1]], np.int32)
    got, cpu_got = _both(
        make_gpu(),
        cpu,
        "scatter_elements",
        [big, np.zeros((1, 2), np.int64), np.ones((1, 2), np.int32)],
        (1, 1),
        np.int32,
        reduction="add",
        axis=1,
    )
    np.testing.assert_array_equal(cpu_got, [[-(2**31) + 1]])
    np.testing.assert_array_equal(got, cpu_got)


# Trilu.

TRILU_CASES = [(4, 5), (5, 4), (2, 3, 3), (3, 1, 5), (2, 2, 3, 4), (0, 5), (3, 0, 5)]


@pytest.mark.parametrize("upper", [True, False], ids=["triu", "tril"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", TRILU_CASES, ids=str)
def test_trilu(
    gpu1: KernelRuntime,
    cpu: CpuRuntime,
    upper: bool,
    dtype: str,
    shape: tuple[int, ...],
) -> None:
    x = _values(_rng("trilu", dtype, shape), shape, dtype)
    perm = list(range(len(shape)))[::-1]
    gpu = gpu1
    for k in (-7, -1, 0, 2, 6):
        got, cpu_got = _both(
            gpu, cpu, "trilu", [x], shape, x.dtype, perm, index=[k], upper=upper
        )
        want = np.triu(x, k) if upper else np.tril(x, k)
        _equal(cpu_got, want, f"cpu k={k}")
        _equal(got, want, f"gpu k={k}")


# CumSum.

CUMSUM_CASES = [
    ((5,), 0),
    ((2, 3), 0),
    ((2, 3), 1),
    ((3, 4, 5), 1),
    ((3, 0, 2), 1),
    ((3, 0, 2), 0),
    ((1000,), 0),
]


@pytest.mark.parametrize(
    "dtype", ["float32", "float64", "float16", "int32", "int64", "uint8"]
)
@pytest.mark.parametrize("shape,axis", CUMSUM_CASES, ids=str)
@pytest.mark.parametrize("product", [False, True], ids=["sum", "product"])
def test_cumsum(
    gpu1: KernelRuntime,
    cpu: CpuRuntime,
    dtype: str,
    shape: tuple[int, ...],
    axis: int,
    product: bool,
) -> None:
    """CumSum and, under `product`, CumProd (products near 1, or of small
    integers that wrap as numpy's do)."""
    rng = _rng("cumsum", dtype, shape, axis)
    if product:
        floats, ints = rng.uniform(0.9, 1.1, shape), rng.integers(0, 4, shape)
    else:
        floats, ints = rng.normal(0, 3, shape), rng.integers(0, 200, shape)
    x = (floats if dtype.startswith("float") else ints).astype(dtype)
    scan = CumProd if product else CumSum
    perm = list(range(len(shape)))[::-1]
    for exclusive in (False, True):
        for reverse in (False, True):
            where = f"exclusive={exclusive} reverse={reverse}"
            got, cpu_got = _both(
                gpu1,
                cpu,
                "cumsum",
                [x],
                shape,
                x.dtype,
                perm,
                axis=axis,
                exclusive=exclusive,
                reverse=reverse,
                product=product,
            )
            with np.errstate(over="ignore"):
                flags = {"exclusive": int(exclusive), "reverse": int(reverse)}
                want = scan.eval(x, np.array(axis), **flags)  # pyright: ignore
            _equal(cpu_got, want, f"cpu {where}")
            _equal(got, cpu_got, f"gpu {where}")


# OneHot.


@pytest.mark.parametrize("index_dtype", ["int64", "int32", "float32", "uint8"])
@pytest.mark.parametrize("dtype", ["float32", "int32", "float16", "bool", "int64"])
@pytest.mark.parametrize(
    "ishape,axis",
    [((3,), 1), ((3,), 0), ((2, 4), 1), ((2, 4), 0), ((2, 4), 2), ((0, 3), 1)],
    ids=str,
)
def test_one_hot(
    gpu1: KernelRuntime,
    cpu: CpuRuntime,
    index_dtype: str,
    dtype: str,
    ishape: tuple[int, ...],
    axis: int,
) -> None:
    depth = 5
    rng = _rng("onehot", index_dtype, dtype, ishape, axis)
    low = 0 if index_dtype == "uint8" else -7
    indices = rng.integers(low, 8, ishape).astype(index_dtype)
    values = np.array([0, 1] if dtype == "bool" else [2, 7], dtype)
    out_shape = (*ishape[:axis], depth, *ishape[axis:])
    gpu = gpu1
    got, cpu_got = _both(
        gpu, cpu, "one_hot", [indices, values], out_shape, values.dtype, axis=axis
    )
    hot = _one_hot(indices, depth, axis=axis, dtype=np.bool_)  # pyright: ignore[reportArgumentType]
    want = np.where(hot, values[1], values[0])
    _equal(cpu_got, want, "cpu")
    _equal(got, want, "gpu")


def test_one_hot_float_indices_truncate(make_gpu: MakeGpu, cpu: CpuRuntime) -> None:
    """Float indices truncate toward zero (ONNX Runtime's cast); NaN, inf and
    huge values match nothing; a strided values operand."""
    indices = np.array([1.7, -0.5, -1.2, np.nan, np.inf, -1e30, 1e30, 3.0], np.float32)
    values = np.array([9, 0, 4], np.int32)[::-2]  # [4, 9]: stride -2
    for runtime in (make_gpu(), cpu):
        stored = runtime.upload(np.array([9, 0, 4], np.int32))
        view = DeviceArray(stored.buffer, stored.offset + 8, (2,), (-2,), stored.dtype)
        out = runtime.empty((8, 4), np.dtype(np.int32))
        runtime.one_hot(runtime.upload(indices), view, out, hip.AxisAttributes(1))
        got = runtime.download(out)
        want = np.full((8, 4), values[0], np.int32)
        for row, column in ((0, 1), (1, 0), (2, 3), (7, 3)):
            want[row, column] = values[1]
        np.testing.assert_array_equal(got, want, err_msg=runtime.name)
