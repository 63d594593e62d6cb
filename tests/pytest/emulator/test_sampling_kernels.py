"""The kernels of `kernels/sampling.h` run by the emulator against ONNX
Runtime, at warp size 32 and 64 (threads in forward and reverse order), on
grids of one thread, smaller than the output and the runtime's: GridSample
4-D in every mode, padding mode and align_corners, 5-D (volumetric) in
linear and nearest, points inside and outside (against ONNX Runtime);
Col2Im 2-D and 3-D with strides, dilations and pads, against onnx's
reference (ONNX Runtime has no float64 Col2Im, and its 3-D Col2Im with a
dilation is not the spec's: 2.6 off the reference on (3, 4, 5) with
dilations [1, 1, 2]); DeformConv 2-D with and without bias and mask,
groups, offset groups, strides, dilations and pads, taps inside and outside,
against onnx's reference; float32, and float16 and float64. Then the GPU
runtimes' methods (the `GpuSampling` mixin, debug mode) on strided inputs,
their refusal of integers, and the models of
`tests/pytest/backend/test_sampling_models.py` against ONNX Runtime.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
import onnxruntime as ort
import pytest
from onnx import helper
from onnx.reference import ReferenceEvaluator

import xhip
from tests.pytest.backend.test_sampling_models import (
    CASES,
    check,
    feeds,
    model,
    onnx_runtime,
)
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.gpu import KernelRuntime
from xhip.backend.gpu_sampling import (
    COL2IM_KERNELS,
    DEFORM_CONV_KERNELS,
    GRID_SAMPLE_KERNELS,
    MODE_CODES,
    PADDING_CODES,
)
from xhip.backend.runtime import DeviceArray, NotImplementedOnDevice
from xhip.backend.session import CompiledModel
from xhip.dialects import hip
from xhip.testing.emulator import EmulatedKernels, Guarded

pytestmark = pytest.mark.emulator

KERNELS = {
    *GRID_SAMPLE_KERNELS.values(),
    *COL2IM_KERNELS.values(),
    *DEFORM_CONV_KERNELS.values(),
}
WARPS: tuple[tuple[int, Literal["forward", "reverse"]], ...] = (
    (32, "forward"),
    (64, "reverse"),
)
TOLERANCE = {
    np.dtype(np.float16): (3e-3, 3e-3),
    np.dtype(np.float32): (1e-5, 1e-6),
    np.dtype(np.float64): (1e-12, 1e-13),
}


def _onnx_runtime(node: object, feeds: dict[str, np.ndarray], opset: int) -> np.ndarray:
    """ONNX Runtime's output of one node on float32 (or float64) feeds."""
    inputs = [
        helper.make_tensor_value_info(
            name, helper.np_dtype_to_tensor_dtype(value.dtype), list(value.shape)
        )
        for name, value in feeds.items()
    ]
    element = helper.np_dtype_to_tensor_dtype(next(iter(feeds.values())).dtype)
    y = helper.make_tensor_value_info("y", element, None)
    graph = helper.make_graph([node], "g", inputs, [y])  # pyright: ignore[reportArgumentType]
    onnx_model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)]
    )
    session = ort.InferenceSession(
        onnx_model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return np.asarray(session.run(None, feeds)[0])


def _launches(n: int) -> list[tuple[int, int]]:
    """One thread, a grid smaller than the data, the runtime's shape."""
    return [(1, 1), (2, 32), (max(1, -(-n // 256)), 256)]


def _launch_all(
    emulated: EmulatedKernels,
    kernel: str,
    out_shape: tuple[int, ...],
    dtype: np.dtype,
    srcs: list[np.ndarray],
    rank: int,
    meta: np.ndarray,
) -> np.ndarray:
    """Every launch shape and warp order: they must agree bit for bit."""
    n = math.prod(out_shape)
    results: list[np.ndarray] = []
    for grid, block in _launches(n):
        for warp, order in WARPS:
            out = Guarded(np.zeros(out_shape, dtype))
            args: list[tuple[Literal["ptr", "i32", "i64"], int]] = [
                ("ptr", out.address),
                *(("ptr", s.ctypes.data) for s in srcs),
                ("i32", rank),
                ("ptr", meta.ctypes.data),
                ("i64", n),
            ]
            emulated.launch(kernel, grid, block, 0, args, warp_size=warp, order=order)
            out.check()
            results.append(out.array.copy())
    for other in results[1:]:
        np.testing.assert_array_equal(other, results[0])
    return results[0]


# GridSample


def _grid_inputs(
    x_shape: tuple[int, ...], grid_shape: tuple[int, ...], dtype: type
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(math.prod(x_shape) + math.prod(grid_shape))
    x = rng.normal(size=x_shape).astype(dtype)
    grid = rng.uniform(-1.4, 1.4, grid_shape).astype(dtype)
    grid.reshape(-1)[:4] = [-1.0, 1.0, 0.0, 0.5]  # the corners and a tie
    return x, grid


def _grid_kernel(
    emulated: EmulatedKernels,
    x: np.ndarray,
    grid: np.ndarray,
    attrs: hip.GridSampleAttributes,
) -> np.ndarray:
    out_shape = (*x.shape[:2], *grid.shape[1:-1])
    points = math.prod(grid.shape[1:-1])
    meta = np.asarray(
        [
            *x.shape,
            points,
            MODE_CODES[attrs.mode],
            PADDING_CODES[attrs.padding_mode],
            int(attrs.align_corners),
        ],
        np.int64,
    )
    kernel = GRID_SAMPLE_KERNELS[x.dtype]
    return _launch_all(
        emulated, kernel, out_shape, x.dtype, [x, grid], x.ndim - 2, meta
    )


def _grid_want(
    x: np.ndarray, grid: np.ndarray, attrs: hip.GridSampleAttributes
) -> np.ndarray:
    node = helper.make_node(
        "GridSample",
        ["x", "grid"],
        ["y"],
        mode=attrs.mode,
        padding_mode=attrs.padding_mode,
        align_corners=int(attrs.align_corners),
    )
    return _onnx_runtime(node, {"x": x, "grid": grid}, 22)


GRID_CASES = [
    (mode, padding, align, rank)
    for mode in ("linear", "nearest", "cubic")
    for padding in ("zeros", "border", "reflection")
    for align in (False, True)
    for rank in ((2, 3) if mode != "cubic" else (2,))
]


@pytest.mark.parametrize(
    "mode,padding,align,rank",
    GRID_CASES,
    ids=[f"{m}-{p}-{'ac' if a else 'noac'}-{r}d" for m, p, a, r in GRID_CASES],
)
def test_grid_sample_float32(
    emulated: EmulatedKernels, mode: str, padding: str, align: bool, rank: int
) -> None:
    x_shape, grid_shape = (
        ((2, 3, 5, 6), (2, 4, 3, 2))
        if rank == 2
        else ((1, 2, 3, 4, 5), (1, 2, 3, 2, 3))
    )
    x, grid = _grid_inputs(x_shape, grid_shape, np.float32)
    attrs = hip.GridSampleAttributes(mode, padding, align)
    got = _grid_kernel(emulated, x, grid, attrs)
    np.testing.assert_allclose(got, _grid_want(x, grid, attrs), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float16, np.float64], ids=["f16", "f64"])
@pytest.mark.parametrize("mode", ["linear", "cubic"])
def test_grid_sample_float16_and_float64(
    emulated: EmulatedKernels, mode: str, dtype: type
) -> None:
    """float16 computes in float (against ONNX Runtime's float32 of the same
    values), float64 in double (ONNX Runtime's float64)."""
    x, grid = _grid_inputs((1, 2, 4, 7), (1, 3, 5, 2), dtype)
    attrs = hip.GridSampleAttributes(mode, "reflection", False)
    got = _grid_kernel(emulated, x, grid, attrs)
    wide = np.float64 if dtype is np.float64 else np.float32
    want = _grid_want(x.astype(wide), grid.astype(wide), attrs)
    rtol, atol = TOLERANCE[np.dtype(dtype)]
    np.testing.assert_allclose(got.astype(wide), want, rtol=rtol, atol=atol)


# Col2Im

COL2IM_CASES = {
    "2d": ((5, 6), (2, 3), [1, 1], [1, 1], [0, 0, 0, 0]),
    "2d-strided-padded": ((6, 7), (3, 2), [2, 1], [1, 1], [1, 0, 2, 1]),
    "2d-dilated": ((7, 5), (2, 2), [1, 2], [3, 1], [0, 1, 0, 1]),
    "3d": ((3, 4, 5), (2, 1, 3), [1, 2, 1], [1, 1, 2], [0, 1, 0, 1, 0, 1]),
}


def _col2im_attrs(name: str) -> tuple[tuple[int, ...], hip.Col2ImAttributes, list[int]]:
    image, block, strides, dilations, pads = COL2IM_CASES[name]
    rank = len(image)
    blocks = [
        (image[d] + pads[d] + pads[rank + d] - dilations[d] * (block[d] - 1) - 1)
        // strides[d]
        + 1
        for d in range(rank)
    ]
    attrs = hip.Col2ImAttributes(block, tuple(strides), tuple(dilations), tuple(pads))
    return image, attrs, blocks


def _col2im_want(
    x: np.ndarray, image: tuple[int, ...], attrs: hip.Col2ImAttributes
) -> np.ndarray:
    node = helper.make_node(
        "Col2Im",
        ["x", "image", "block"],
        ["y"],
        strides=list(attrs.strides),
        dilations=list(attrs.dilations),
        pads=list(attrs.pads),
    )
    feeds = {
        "x": x,
        "image": np.asarray(image, np.int64),
        "block": np.asarray(attrs.block, np.int64),
    }
    graph = helper.make_graph(
        [node],
        "g",
        [
            helper.make_tensor_value_info(
                name, helper.np_dtype_to_tensor_dtype(v.dtype), None
            )
            for name, v in feeds.items()
        ],
        [
            helper.make_tensor_value_info(
                "y", helper.np_dtype_to_tensor_dtype(x.dtype), None
            )
        ],
    )
    onnx_model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    (want,) = ReferenceEvaluator(onnx_model).run(None, feeds)
    return np.asarray(want)


@pytest.mark.parametrize(
    "dtype", [np.float32, np.float16, np.float64], ids=["f32", "f16", "f64"]
)
@pytest.mark.parametrize("name", sorted(COL2IM_CASES))
def test_col2im(emulated: EmulatedKernels, name: str, dtype: type) -> None:
    image, attrs, blocks = _col2im_attrs(name)
    rank = len(image)
    rng = np.random.default_rng(len(name))
    x = rng.normal(size=(2, 3 * math.prod(attrs.block), math.prod(blocks))).astype(
        dtype
    )
    meta = np.asarray(
        [
            2,
            3,
            *image,
            *attrs.block,
            *attrs.strides,
            *attrs.dilations,
            *attrs.pads[:rank],
            *blocks,
        ],
        np.int64,
    )
    got = _launch_all(
        emulated, COL2IM_KERNELS[x.dtype], (2, 3, *image), x.dtype, [x], rank, meta
    )
    wide = np.float64 if dtype is np.float64 else np.float32
    want = _col2im_want(x.astype(wide), image, attrs)
    rtol, atol = TOLERANCE[np.dtype(dtype)]
    np.testing.assert_allclose(got.astype(wide), want, rtol=rtol, atol=atol)


# DeformConv

DEFORM_CASES: dict[str, tuple[tuple[int, ...], tuple[int, ...], dict[str, object]]] = {
    # name: x shape, w shape, attributes (bias and mask by "bias", "mask")
    "plain": ((1, 1, 3, 3), (1, 1, 2, 2), {"pads": [1, 1, 1, 1]}),
    "bias-mask": ((2, 2, 4, 5), (3, 2, 2, 2), {"bias": True, "mask": True}),
    "groups": (
        (1, 4, 5, 4),
        (4, 2, 2, 1),
        {"group": 2, "offset_group": 2, "mask": True},
    ),
    "strided": (
        (1, 2, 6, 7),
        (2, 2, 2, 3),
        {
            "strides": [2, 1],
            "dilations": [1, 2],
            "pads": [1, 0, 0, 2],
            "bias": True,
            "offset_group": 2,
        },
    ),
}


def _deform_inputs(
    name: str, dtype: type
) -> tuple[list[np.ndarray | None], hip.DeformConvAttributes]:
    """x, w, offset, bias or None, mask or None, offsets in [-2, 2] (some
    taps outside the image)."""
    x_shape, w_shape, given = DEFORM_CASES[name]
    group, offset_group = int(given.get("group", 1)), int(given.get("offset_group", 1))  # pyright: ignore[reportArgumentType]
    kernel = w_shape[2:]
    strides = tuple(given.get("strides", [1, 1]))  # pyright: ignore[reportArgumentType]
    dilations = tuple(given.get("dilations", [1, 1]))  # pyright: ignore[reportArgumentType]
    pads = tuple(given.get("pads", [0, 0, 0, 0]))  # pyright: ignore[reportArgumentType]
    out = [
        (x_shape[2 + d] + pads[d] + pads[2 + d] - dilations[d] * (kernel[d] - 1) - 1)
        // strides[d]
        + 1
        for d in range(2)
    ]
    taps = offset_group * math.prod(kernel)
    rng = np.random.default_rng(len(name))
    x = rng.normal(size=x_shape).astype(dtype)
    w = rng.normal(size=w_shape).astype(dtype)
    offset = rng.uniform(-2, 2, (x_shape[0], taps * 2, *out)).astype(dtype)
    bias = rng.normal(size=w_shape[0]).astype(dtype) if given.get("bias") else None
    mask = (
        rng.uniform(0, 1, (x_shape[0], taps, *out)).astype(dtype)
        if given.get("mask")
        else None
    )
    attrs = hip.DeformConvAttributes(
        tuple(kernel), strides, dilations, pads, group, offset_group
    )
    return [x, w, offset, bias, mask], attrs


def _deform_want(
    values: list[np.ndarray | None], attrs: hip.DeformConvAttributes
) -> np.ndarray:
    """onnx's reference (ONNX Runtime has no float64 DeformConv)."""
    names = ["x", "w", "offset", "bias", "mask"]
    node = helper.make_node(
        "DeformConv",
        [n if v is not None else "" for n, v in zip(names, values)],
        ["y"],
        kernel_shape=list(attrs.kernel),
        strides=list(attrs.strides),
        dilations=list(attrs.dilations),
        pads=list(attrs.pads),
        group=attrs.group,
        offset_group=attrs.offset_group,
    )
    feeds = {n: v for n, v in zip(names, values) if v is not None}
    element = helper.np_dtype_to_tensor_dtype(feeds["x"].dtype)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info(n, element, None) for n in feeds],
        [helper.make_tensor_value_info("y", element, None)],
    )
    onnx_model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    (want,) = ReferenceEvaluator(onnx_model).run(None, feeds)
    return np.asarray(want)


@pytest.mark.parametrize(
    "dtype", [np.float32, np.float16, np.float64], ids=["f32", "f16", "f64"]
)
@pytest.mark.parametrize("name", sorted(DEFORM_CASES))
def test_deform_conv(emulated: EmulatedKernels, name: str, dtype: type) -> None:
    values, attrs = _deform_inputs(name, dtype)
    x, w, offset = values[0], values[1], values[2]
    assert x is not None and w is not None and offset is not None
    out_shape = (x.shape[0], w.shape[0], *offset.shape[2:])
    meta = np.asarray(
        [
            *x.shape[:2],
            w.shape[0],
            attrs.group,
            attrs.offset_group,
            *x.shape[2:],
            *offset.shape[2:],
            *attrs.kernel,
            *attrs.strides,
            *attrs.dilations,
            *attrs.pads[:2],
        ],
        np.int64,
    )
    n = math.prod(out_shape)
    results: list[np.ndarray] = []
    for grid, block in _launches(n):
        for warp, order in WARPS:
            out = Guarded(np.zeros(out_shape, x.dtype))
            args: list[tuple[Literal["ptr", "i32", "i64"], int]] = [
                ("ptr", out.address),
                *(("ptr", 0 if v is None else v.ctypes.data) for v in values),
                ("i32", 2),
                ("ptr", meta.ctypes.data),
                ("i64", n),
            ]
            emulated.launch(
                DEFORM_CONV_KERNELS[x.dtype],
                grid,
                block,
                0,
                args,
                warp_size=warp,
                order=order,
            )
            out.check()
            results.append(out.array.copy())
    for other in results[1:]:
        np.testing.assert_array_equal(other, results[0])
    wide = np.float64 if dtype is np.float64 else np.float32
    want = _deform_want([None if v is None else v.astype(wide) for v in values], attrs)
    rtol, atol = TOLERANCE[np.dtype(dtype)]
    if dtype is np.float16:  # sums of up to 16 products in float, then rounded
        rtol, atol = 3e-3, 1e-2
    elif dtype is np.float64:  # the reference's GridSample maps points in float32
        rtol, atol = 1e-5, 1e-6
    np.testing.assert_allclose(results[0].astype(wide), want, rtol=rtol, atol=atol)


# The runtime: `GpuSampling` on the stand-in device.


def _transposed(gpu: KernelRuntime, x: np.ndarray) -> DeviceArray:
    """`x` on the device as a transposed view of a dense array (strided)."""
    dense = gpu.upload(np.ascontiguousarray(x.T))
    return DeviceArray(
        dense.buffer,
        dense.offset,
        tuple(x.shape),
        tuple(s // x.itemsize for s in np.empty(x.shape[::-1], x.dtype).T.strides),
        dense.dtype,
        dense.base,
    )


def test_runtime_grid_sample_and_col2im_of_strided_inputs(make_gpu: MakeGpu) -> None:
    gpu = make_gpu(debug=True)
    x, grid = _grid_inputs((2, 3, 5, 6), (2, 4, 3, 2), np.float32)
    attrs = hip.GridSampleAttributes("cubic", "border", True)
    out = gpu.empty((2, 3, 4, 3), np.dtype(np.float32))
    gpu.grid_sample(_transposed(gpu, x), _transposed(gpu, grid), out, attrs)
    np.testing.assert_allclose(
        gpu.download(out), _grid_want(x, grid, attrs), rtol=1e-5, atol=1e-6
    )
    image, c_attrs, blocks = _col2im_attrs("2d-strided-padded")
    cols = (
        np.random.default_rng(5)
        .normal(size=(2, 3 * 6, math.prod(blocks)))
        .astype(np.float32)
    )
    folded = gpu.empty((2, 3, *image), np.dtype(np.float32))
    gpu.col2im(_transposed(gpu, cols), folded, c_attrs)
    np.testing.assert_allclose(
        gpu.download(folded), _col2im_want(cols, image, c_attrs), rtol=1e-5, atol=1e-6
    )


def test_runtime_deform_conv_of_strided_inputs_mask_without_bias(
    make_gpu: MakeGpu,
) -> None:
    gpu = make_gpu(debug=True)
    values, attrs = _deform_inputs("groups", np.float32)
    x, w, offset, _, mask = values
    assert x is not None and w is not None and offset is not None
    assert mask is not None
    out = gpu.empty((x.shape[0], w.shape[0], *offset.shape[2:]), np.dtype(np.float32))
    gpu.deform_conv(
        _transposed(gpu, x),
        gpu.upload(w),
        _transposed(gpu, offset),
        None,
        _transposed(gpu, mask),
        out,
        attrs,
    )
    np.testing.assert_allclose(
        gpu.download(out), _deform_want(values, attrs), rtol=1e-5, atol=1e-5
    )


def test_runtime_refuses_integers(make_gpu: MakeGpu) -> None:
    gpu = make_gpu()
    x = gpu.upload(np.zeros((1, 1, 2, 2), np.int32))
    grid = gpu.upload(np.zeros((1, 1, 1, 2), np.int32))
    out = gpu.empty((1, 1, 1, 1), np.dtype(np.int32))
    with pytest.raises(NotImplementedOnDevice, match="int32 operands"):
        gpu.grid_sample(
            x, grid, out, hip.GridSampleAttributes("linear", "zeros", False)
        )


# The models of test_sampling_models.py.


@pytest.mark.parametrize("name", sorted(CASES))
def test_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    ir = xhip.compile_to_ir(model(name))
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, make_gpu(debug=True)
    )
    session = onnx_runtime(name)
    for run in feeds(name):
        wants = session.run(None, run)
        gots = list(compiled(run).values())
        for got, want in zip(gots, wants, strict=True):
            check(got, np.asarray(want))
