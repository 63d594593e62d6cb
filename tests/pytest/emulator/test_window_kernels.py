"""The kernels of `kernels/window.h` run by the emulator against numpy float64
references, at warp size 32 and 64 (threads in forward and reverse order):
1-D, 2-D and 3-D windows, sizes 1, primes and odd spatial sizes, strides,
dilations, asymmetric pads, output padding, windows reaching past the end
(ceil mode), strided (transposed) outputs and inputs, strided bias, grids
smaller than the data. Then the `GpuWindows` host code (GEMM over the groups
into the workspace, col2im) on the GPU runtimes against the CPU runtime's
numpy `conv_transpose`/`lp_pool`, groups and 1x1 kernels included.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered. The kernel references are written from the ONNX definitions
with plain loops over the positions, not from the runtime's code."""

from __future__ import annotations

import itertools
import math
import zlib
from typing import NamedTuple

import numpy as np
import pytest

from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend import cpu_window
from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import DeviceArray, NotImplementedOnDevice
from xhip.dialects import hip
from xhip.testing.emulator import EmulatedDevice, EmulatedKernels, Guarded
from xhip.testing.emulator.build import Order

pytestmark = pytest.mark.emulator

KERNELS = {"xhip_col2im_f32", "xhip_lp_pool_f32"}
WARPS: tuple[tuple[int, Order], ...] = ((32, "forward"), (64, "reverse"))

# in spatial shape, kernel, strides, dilations, pads (begins then ends),
# output padding, channels
TRANSPOSED = [
    ((1,), (1,), (1,), (1,), (0, 0), (0,), 1),
    ((7,), (3,), (2,), (1,), (1, 2), (1,), 3),
    ((5,), (2,), (3,), (2,), (0, 1), (2,), 2),
    ((3, 3), (3, 3), (1, 1), (1, 1), (1, 1, 1, 1), (0, 0), 2),
    ((5, 4), (3, 2), (2, 1), (1, 2), (1, 0, 2, 1), (1, 0), 3),
    ((2, 3), (1, 3), (3, 2), (1, 1), (0, 1, 0, 1), (2, 1), 1),
    ((3, 2, 3), (2, 3, 2), (1, 2, 1), (2, 1, 1), (1, 1, 0, 0, 1, 1), (0, 1, 0), 2),
]

# in spatial shape, kernel, strides, dilations, pads (begins then ends), channels
POOLS = [
    ((1,), (1,), (1,), (1,), (0, 0), 1),
    ((7,), (3,), (2,), (1,), (1, 2), 3),
    ((13,), (2,), (3,), (2,), (0, 1), 2),
    ((5, 5), (3, 3), (1, 1), (1, 1), (1, 1, 1, 1), 2),
    ((7, 5), (3, 2), (2, 1), (1, 2), (1, 0, 2, 1), 3),
    ((3, 5, 4), (2, 3, 2), (1, 2, 1), (2, 1, 1), (1, 1, 0, 0, 1, 1), 2),
]


def _launches(n: int) -> list[tuple[int, int]]:
    """One thread, a grid smaller than the data, the runtime's shape."""
    return [(1, 1), (2, 32), (max(1, -(-n // 256)), 256)]


def _transposed_out(
    in_shape: tuple[int, ...],
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
    pads: tuple[int, ...],
    extra: tuple[int, ...],
) -> tuple[int, ...]:
    r = len(in_shape)
    return tuple(
        strides[d] * (in_shape[d] - 1)
        + extra[d]
        + dilations[d] * (kernel[d] - 1)
        + 1
        - pads[d]
        - pads[r + d]
        for d in range(r)
    )


@pytest.mark.parametrize("window", TRANSPOSED, ids=lambda w: str(w).replace(" ", ""))
@pytest.mark.parametrize("layout", ["dense", "transposed"])
@pytest.mark.parametrize("with_bias", [False, True])
def test_col2im(
    emulated: EmulatedKernels,
    window: tuple[tuple[int, ...], ...],
    layout: str,
    with_bias: bool,
) -> None:
    in_shape, kernel, strides, dilations, pads, extra, channels = window
    assert isinstance(channels, int)
    rank = len(in_shape)
    rng = np.random.default_rng(zlib.crc32(f"{window} {layout}".encode()))
    taps, positions = math.prod(kernel), math.prod(in_shape)
    col = rng.normal(size=(channels, taps, positions)).astype(np.float32)
    wide_bias = rng.normal(size=2 * channels).astype(np.float32)
    bias = wide_bias[::2]  # a strided bias
    out_shape = _transposed_out(in_shape, kernel, strides, dilations, pads, extra)
    want = np.zeros((channels, *out_shape))
    if with_bias:
        want += bias.reshape(channels, *(1 for _ in out_shape))
    for p, at in enumerate(itertools.product(*(range(s) for s in in_shape))):
        for k, t in enumerate(itertools.product(*(range(s) for s in kernel))):
            o = tuple(
                at[d] * strides[d] - pads[d] + t[d] * dilations[d] for d in range(rank)
            )
            if all(0 <= o[d] < out_shape[d] for d in range(rank)):
                want[(slice(None), *o)] += col[:, k, p]
    shape = (channels, *out_shape)
    flip = layout == "transposed"
    n = want.size
    for grid, block in _launches(n):
        for warp, order in WARPS:
            y = Guarded(np.full(shape[::-1] if flip else shape, np.nan, np.float32))
            y_view = y.array.T if flip else y.array
            meta = np.asarray(
                [channels, *in_shape, *out_shape, *kernel, *strides, *dilations]
                + [*pads[:rank], *(s // 4 for s in y_view.strides), 2],
                np.int64,
            )
            emulated.launch(
                "xhip_col2im_f32",
                grid,
                block,
                0,
                [
                    ("ptr", col.ctypes.data),
                    ("ptr", wide_bias.ctypes.data if with_bias else 0),
                    ("ptr", y.address),
                    ("i32", rank),
                    ("ptr", meta.ctypes.data),
                    ("i64", n),
                ],
                warp_size=warp,
                order=order,
            )
            y.check()
            np.testing.assert_allclose(y_view, want, rtol=1e-5, atol=1e-5)


def _pool_out(
    in_shape: tuple[int, ...],
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
    pads: tuple[int, ...],
    ceil: bool,
) -> tuple[int, ...]:
    r = len(in_shape)
    out = []
    for d in range(r):
        span = in_shape[d] + pads[d] + pads[r + d] - dilations[d] * (kernel[d] - 1) - 1
        size = (-(-span // strides[d]) if ceil else span // strides[d]) + 1
        if ceil and (size - 1) * strides[d] >= in_shape[d] + pads[d]:
            size -= 1  # the last window must start inside the image or its pad
        out.append(size)
    return tuple(out)


@pytest.mark.parametrize("window", POOLS, ids=lambda w: str(w).replace(" ", ""))
@pytest.mark.parametrize("p", [1, 2, 3])
@pytest.mark.parametrize("layout", ["dense", "transposed", "ceil"])
def test_lp_pool(
    emulated: EmulatedKernels,
    window: tuple[tuple[int, ...], ...],
    p: int,
    layout: str,
) -> None:
    in_shape, kernel, strides, dilations, pads, channels = window
    assert isinstance(channels, int)
    rank = len(in_shape)
    rng = np.random.default_rng(zlib.crc32(f"{window} {p} {layout}".encode()))
    x = rng.normal(size=(2, channels, *in_shape)).astype(np.float32)
    if layout == "transposed":
        x = np.ascontiguousarray(x.T).T
    out_shape = _pool_out(in_shape, kernel, strides, dilations, pads, layout == "ceil")
    want = np.zeros((2, channels, *out_shape))
    for o in itertools.product(*(range(s) for s in out_shape)):
        total = np.zeros((2, channels))
        for t in itertools.product(*(range(k) for k in kernel)):
            at = tuple(
                o[d] * strides[d] - pads[d] + t[d] * dilations[d] for d in range(rank)
            )
            if all(0 <= a < s for a, s in zip(at, in_shape)):
                total += (
                    np.abs(x[(slice(None), slice(None), *at)].astype(np.float64)) ** p
                )
        want[(slice(None), slice(None), *o)] = total ** (1.0 / p)
    shape = (2, channels, *out_shape)
    flip = layout == "transposed"
    for grid, block in _launches(want.size):
        for warp, order in WARPS:
            y = Guarded(np.full(shape[::-1] if flip else shape, np.nan, np.float32))
            y_view = y.array.T if flip else y.array
            meta = np.asarray(
                [2, channels, *in_shape, *out_shape, *kernel, *strides, *dilations]
                + [*pads[:rank], *(s // 4 for s in x.strides)]
                + [s // 4 for s in y_view.strides],
                np.int64,
            )
            emulated.launch(
                "xhip_lp_pool_f32",
                grid,
                block,
                0,
                [
                    ("ptr", x.ctypes.data),
                    ("ptr", y.address),
                    ("i32", p),
                    ("i32", rank),
                    ("ptr", meta.ctypes.data),
                    ("i64", want.size),
                ],
                warp_size=warp,
                order=order,
            )
            y.check()
            np.testing.assert_allclose(y_view, want, rtol=1e-5, atol=1e-6)


# The host code, against the CPU runtime's numpy functions.


# x shape, w shape (C, M/group, k...), strides, dilations, pads, output
# padding, group, bias
class Case(NamedTuple):
    x: tuple[int, ...]
    w: tuple[int, ...]  # (C, M/group, k...)
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads: tuple[int, ...]
    extra: tuple[int, ...]  # output padding
    group: int
    bias: bool

    @property
    def out_shape(self) -> tuple[int, ...]:
        spatial = _transposed_out(
            self.x[2:], self.w[2:], self.strides, self.dilations, self.pads, self.extra
        )
        return (self.x[0], self.w[1] * self.group, *spatial)

    @property
    def workspace(self) -> int:
        """Elements of the workspace, as `hip.ConvTransposeOp.workspace_size`."""
        if (
            all(k == 1 for k in self.w[2:])
            and all(s == 1 for s in self.strides)
            and not any(self.pads)
            and not any(self.extra)
        ):
            return 0
        return self.w[1] * self.group * math.prod(self.w[2:]) * math.prod(self.x[2:])


CONV_TRANSPOSE = [
    Case((2, 4, 5, 6), (4, 3, 3, 3), (2, 1), (1, 1), (1, 0, 0, 1), (1, 0), 2, True),
    Case((1, 3, 4, 3), (3, 2, 2, 3), (2, 3), (2, 1), (0, 1, 1, 0), (1, 2), 3, False),
    Case((2, 2, 7), (2, 3, 3), (3,), (2,), (1, 2), (2,), 1, True),
    Case(
        (1, 4, 3, 4, 5),
        (4, 2, 2, 3, 2),
        (1, 2, 2),
        (1, 1, 2),
        (1, 0, 1, 0, 1, 0),
        (0, 1, 1),
        2,
        True,
    ),
    Case((3, 4, 5, 3), (4, 5, 1, 1), (1, 1), (1, 1), (0, 0, 0, 0), (0, 0), 1, True),
    Case((2, 6, 3, 5), (6, 1, 1, 1), (1, 1), (1, 1), (0, 0, 0, 0), (0, 0), 3, False),
]


@pytest.mark.parametrize("case", CONV_TRANSPOSE, ids=lambda c: str(c).replace(" ", ""))
@pytest.mark.parametrize("transposed_input", [False, True])
def test_conv_transpose_runtime(
    make_gpu: MakeGpu, case: Case, transposed_input: bool
) -> None:
    rng = np.random.default_rng(zlib.crc32(str(case).encode()))
    x = rng.normal(size=case.x).astype(np.float32)
    w = rng.normal(size=case.w).astype(np.float32)
    m, group, size = case.out_shape[1], case.group, case.workspace
    bias = rng.normal(size=m).astype(np.float32) if case.bias else None
    attrs = hip.ConvAttributes(case.strides, case.dilations, case.pads, group, False)
    cpu = CpuRuntime()
    result = cpu.empty(case.out_shape, np.dtype(np.float32))
    cpu.conv_transpose(
        cpu.upload(x),
        cpu.upload(w),
        None if bias is None else cpu.upload(bias),
        result,
        cpu.empty((size,), np.dtype(np.float32)),
        attrs,
    )
    want = cpu.download(result)
    gpu = make_gpu(debug=True)
    if transposed_input:
        base = gpu.upload(np.ascontiguousarray(x.T))
        dx = DeviceArray(
            base.buffer, base.offset, x.shape, base.strides[::-1], base.dtype
        )
    else:
        dx = gpu.upload(x)
    out = gpu.empty(case.out_shape, np.dtype(np.float32))
    workspace = gpu.empty((size,), np.dtype(np.float32))
    gpu.conv_transpose(
        dx,
        gpu.upload(w),
        None if bias is None else gpu.upload(bias),
        out,
        workspace,
        attrs,
    )
    np.testing.assert_allclose(gpu.download(out), want, rtol=1e-4, atol=1e-4)
    device = gpu.device
    assert isinstance(device, EmulatedDevice)
    images = x.shape[0]
    if size:  # per image one SGEMM over the groups, then col2im
        assert device.launches.count("xhip_col2im_f32") == images
        assert [g.batch_count for g in device.gemms] == [group] * images
    else:  # no col2im; with one group, the whole batch is one SGEMM
        assert "xhip_col2im_f32" not in device.launches
        want_gemms = [images] if group == 1 else [group] * images
        assert [g.batch_count for g in device.gemms] == want_gemms


@pytest.mark.parametrize("p", [1, 2, 4])
def test_lp_pool_runtime(make_gpu: MakeGpu, p: int) -> None:
    rng = np.random.default_rng(p)
    x = rng.normal(size=(2, 3, 7, 6)).astype(np.float32)
    attrs = hip.LpPoolAttributes((2, 1), (1, 2), (1, 0, 0, 1), kernel=(3, 2), p=p)
    want = np.empty((2, 3, 4, 5), np.float32)
    cpu_window.lp_pool(x, want, attrs)
    gpu = make_gpu(debug=True)
    out = gpu.empty(want.shape, np.dtype(np.float32))
    gpu.lp_pool(gpu.upload(x), out, attrs)
    np.testing.assert_allclose(gpu.download(out), want, rtol=1e-5, atol=1e-6)


def test_float64_is_refused_in_one_line(make_gpu: MakeGpu) -> None:
    gpu = make_gpu()
    x = gpu.upload(np.ones((1, 1, 3, 3)))
    with pytest.raises(NotImplementedOnDevice, match="float64 operands"):
        gpu.lp_pool(
            x,
            gpu.empty((1, 1, 2, 2), x.dtype),
            hip.LpPoolAttributes((1, 1), (1, 1), (0,) * 4, kernel=(2, 2), p=2),
        )
    w = gpu.upload(np.ones((1, 1, 2, 2)))
    with pytest.raises(NotImplementedOnDevice, match="float64 operands"):
        gpu.conv_transpose(
            x,
            w,
            None,
            gpu.empty((1, 1, 4, 4), x.dtype),
            gpu.empty((36,), x.dtype),
            hip.ConvAttributes((1, 1), (1, 1), (0,) * 4, group=1, relu=False),
        )
