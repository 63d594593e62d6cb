"""The kernels of `kernels/resize.h` run by the emulator against the CPU
runtime's Resize (`cpu_resize.resize`, onnx's reference step by step), at
warp size 32 and 64 (threads in forward and reverse order), on grids of one
thread, smaller than the output and the runtime's: nearest (every
nearest_mode, every element size), linear and cubic in every
coordinate_transformation_mode, antialiased downscales, exclude_outside,
tf_crop_and_resize with an extrapolation value, 1-D, 3-D and 4-D, odd sizes,
outputs of one position, strided inputs; float16, float32 and float64. Then
the GPU runtimes' `resize` (the `GpuResize` mixin, debug mode) and the
Resize models of `tests/pytest/backend/test_resize_models.py` against ONNX
Runtime.

`KERNELS` is what this module tests; `test_kernels.py`'s registry test counts
it as covered."""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Literal

import numpy as np
import onnxruntime as ort
import pytest

import xhip
from tests.pytest.backend.test_resize_models import CASES, check, model, runs
from tests.pytest.emulator.conftest import MakeGpu
from xhip.backend.cpu_resize import resize
from xhip.backend.gpu import KernelRuntime
from xhip.backend.gpu_resize import INTERPOLATE_KERNELS, NEAREST_KERNELS, resize_tables
from xhip.backend.runtime import DeviceArray, NotImplementedOnDevice
from xhip.backend.session import CompiledModel
from xhip.dialects import hip
from xhip.testing.emulator import EmulatedKernels, Guarded

pytestmark = pytest.mark.emulator

KERNELS = {*NEAREST_KERNELS.values(), *(k for k, _ in INTERPOLATE_KERNELS.values())}
WARPS: tuple[tuple[int, Literal["forward", "reverse"]], ...] = (
    (32, "forward"),
    (64, "reverse"),
)
CTMS = (
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_crop_and_resize",
)


@dataclass(frozen=True)
class Case:
    in_shape: tuple[int, ...]
    out_shape: tuple[int, ...]
    mode: str = "nearest"
    ctm: str = "half_pixel"
    nearest_mode: str = "round_prefer_floor"
    a: float = -0.75
    exclude_outside: bool = False
    antialias: bool = False
    ext: float = 0.0
    scales: tuple[float, ...] | None = None
    roi: tuple[float, ...] | None = None
    transposed: bool = False

    def attrs(self) -> hip.ResizeAttributes:
        return hip.ResizeAttributes(
            self.mode,
            self.ctm,
            self.nearest_mode,
            self.a,
            self.exclude_outside,
            self.antialias,
            self.ext,
            self.scales,
            self.roi,
        )


def _roi(rank: int) -> tuple[float, ...]:
    """Begins then ends: the last two dims cropped past the input's edges."""
    begins = [0.0] * (rank - 2) + [-0.2, 0.3]
    ends = [1.0] * (rank - 2) + [0.9, 1.35]
    return (*begins, *ends)


CASES_4D: dict[str, Case] = {}
for _mode in ("nearest", "linear", "cubic"):
    for _ctm in CTMS:
        roi = _roi(4) if _ctm == "tf_crop_and_resize" else None
        CASES_4D[f"{_mode}-{_ctm}"] = Case(
            (2, 3, 5, 7), (2, 3, 9, 4), _mode, _ctm, ext=-3.5, roi=roi
        )
        CASES_4D[f"{_mode}-{_ctm}-scales"] = Case(
            (1, 2, 7, 5),
            (1, 2, 11, 3),
            _mode,
            _ctm,
            ext=2.0,
            scales=(1.0, 1.0, 1.7, 0.6),
            roi=roi,
        )
for _nearest in ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"):
    CASES_4D[f"nearest-{_nearest}"] = Case(
        (1, 2, 5, 6),
        (1, 2, 12, 3),
        nearest_mode=_nearest,
        ctm="asymmetric",
        scales=(1.0, 1.0, 2.5, 0.5),
    )
CASES_4D["linear-antialias-down"] = Case(
    (1, 2, 11, 13), (1, 2, 4, 5), "linear", antialias=True
)
CASES_4D["cubic-antialias-down-exclude"] = Case(
    (2, 1, 13, 9), (2, 1, 3, 4), "cubic", a=-0.5, antialias=True, exclude_outside=True
)
CASES_4D["cubic-antialias-up"] = Case(
    (1, 1, 4, 3), (1, 1, 9, 7), "cubic", antialias=True
)
CASES_4D["cubic-exclude-outside"] = Case(
    (1, 2, 6, 5), (1, 2, 10, 3), "cubic", a=-0.5, exclude_outside=True
)
CASES_4D["linear-batch-and-channels"] = Case(
    (3, 4, 5, 2), (2, 7, 3, 5), "linear", ctm="align_corners"
)
CASES_4D["linear-one-position"] = Case((1, 2, 5, 4), (1, 2, 1, 1), "linear")
CASES_4D["cubic-from-one-position"] = Case((1, 2, 1, 3), (1, 2, 4, 5), "cubic")
CASES_4D["linear-transposed"] = Case(
    (2, 3, 6, 5), (2, 3, 4, 9), "linear", transposed=True
)
CASES_4D["nearest-transposed-tf-crop"] = Case(
    (2, 3, 6, 5),
    (2, 3, 4, 9),
    ctm="tf_crop_and_resize",
    roi=_roi(4),
    ext=9.0,
    transposed=True,
)
CASES_4D["cubic-tf-crop-one-position"] = Case(
    (1, 1, 5, 6), (1, 1, 1, 4), "cubic", ctm="tf_crop_and_resize", roi=_roi(4)
)
OTHER_RANKS = {
    "1d-cubic-up": Case((9,), (20,), "cubic"),
    "1d-linear-antialias": Case((31,), (6,), "linear", antialias=True),
    "3d-linear-align-corners": Case((3, 7, 4), (3, 2, 11), "linear", "align_corners"),
    "3d-cubic-asymmetric-exclude": Case(
        (3, 7, 4), (5, 9, 3), "cubic", "asymmetric", a=-0.5, exclude_outside=True
    ),
    "3d-nearest-ceil": Case((4, 5, 3), (7, 2, 8), nearest_mode="ceil"),
    "5d-linear-tf-crop": Case(
        (2, 3, 4, 3, 5),
        (2, 3, 3, 5, 4),
        "linear",
        "tf_crop_and_resize",
        roi=_roi(5),
        ext=1.25,
    ),
}
ALL = {**CASES_4D, **OTHER_RANKS}


def _input(case: Case, dtype: np.dtype) -> np.ndarray:
    rng = np.random.default_rng(zlib.crc32(repr(case).encode()))
    shape = case.in_shape
    if case.transposed:
        shape = shape[::-1]
    if np.issubdtype(dtype, np.floating):
        x = rng.normal(size=shape).astype(dtype)
    elif dtype == np.bool_:
        x = rng.integers(0, 2, shape).astype(dtype)
    else:
        x = rng.integers(0, 120, shape).astype(dtype)
    return x.T if case.transposed else x


def _want(case: Case, x: np.ndarray) -> np.ndarray:
    want = np.zeros(case.out_shape, x.dtype)
    resize(x, want, case.attrs())
    return want


def _launches(n: int) -> list[tuple[int, int]]:
    """One thread, a grid smaller than the data, the runtime's shape."""
    return [(1, 1), (2, 32), (max(1, -(-n // 256)), 256)]


def _run_kernel(emulated: EmulatedKernels, case: Case, x: np.ndarray) -> np.ndarray:
    """`case` through its kernel, every launch shape and warp order: they must
    agree bit for bit; returns the result."""
    table, weights = resize_tables(case.in_shape, case.out_shape, case.attrs())
    rank = len(case.out_shape)
    out_strides = [math.prod(case.out_shape[d + 1 :]) for d in range(rank)]
    meta = np.concatenate(
        [
            np.asarray(
                [*case.out_shape, *out_strides, *(s // x.itemsize for s in x.strides)],
                np.int64,
            ),
            table,
        ]
    )
    ext = np.asarray([case.ext]).astype(x.dtype)
    if case.mode == "nearest":
        kernel, weight_array = NEAREST_KERNELS[x.itemsize], None
    else:
        kernel, weight_type = INTERPOLATE_KERNELS[x.dtype]
        weight_array = weights.astype(weight_type)
    n = math.prod(case.out_shape)
    results: list[np.ndarray] = []
    for grid, block in _launches(n):
        for warp, order in WARPS:
            out = Guarded(np.zeros(case.out_shape, x.dtype))
            args: list[tuple[Literal["ptr", "i32", "i64"], int]] = [
                ("ptr", out.address),
                ("ptr", x.ctypes.data),
                ("ptr", ext.ctypes.data),
                ("i32", rank),
                ("ptr", meta.ctypes.data),
            ]
            if weight_array is not None:
                args.append(("ptr", weight_array.ctypes.data))
            args.append(("i64", n))
            emulated.launch(kernel, grid, block, 0, args, warp_size=warp, order=order)
            out.check()
            results.append(out.array.copy())
    for other in results[1:]:
        np.testing.assert_array_equal(other, results[0])
    return results[0]


TOLERANCE = {
    np.dtype(np.float16): (2e-3, 2e-3),
    np.dtype(np.float32): (2e-5, 2e-6),
    np.dtype(np.float64): (1e-12, 1e-13),
}


@pytest.mark.parametrize("name", sorted(ALL))
def test_float32_against_the_cpu_runtime(emulated: EmulatedKernels, name: str) -> None:
    case = ALL[name]
    x = _input(case, np.dtype(np.float32))
    want = _want(case, x)
    got = _run_kernel(emulated, case, x)
    if case.mode == "nearest":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)
    if case.ctm == "tf_crop_and_resize":
        assert (got == np.float32(case.ext)).any(), "no position extrapolated"


TYPED = [
    "linear-tf_crop_and_resize",
    "cubic-antialias-down-exclude",
    "cubic-half_pixel-scales",
    "linear-transposed",
    "3d-cubic-asymmetric-exclude",
]


@pytest.mark.parametrize("dtype", [np.float16, np.float64], ids=["f16", "f64"])
@pytest.mark.parametrize("name", TYPED)
def test_float16_and_float64(emulated: EmulatedKernels, name: str, dtype: type) -> None:
    """Sums in float for float16 (the CPU's in float64: a rounding apart),
    in double for float64."""
    case = ALL[name]
    x = _input(case, np.dtype(dtype))
    want = _want(case, x)
    got = _run_kernel(emulated, case, x)
    rtol, atol = TOLERANCE[np.dtype(dtype)]
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


NEAREST = [
    "nearest-tf_crop_and_resize",
    "nearest-ceil",
    "nearest-half_pixel_symmetric-scales",
    "nearest-transposed-tf-crop",
    "3d-nearest-ceil",
]


@pytest.mark.parametrize(
    "dtype",
    [np.bool_, np.uint8, np.int16, np.float16, np.int32, np.int64, np.float64],
)
@pytest.mark.parametrize("name", NEAREST)
def test_nearest_every_element_size(
    emulated: EmulatedKernels, name: str, dtype: type
) -> None:
    """A gather of bytes: exact on every type, the extrapolation value in the
    output's type."""
    case = ALL[name]
    x = _input(case, np.dtype(dtype))
    np.testing.assert_array_equal(_run_kernel(emulated, case, x), _want(case, x))


# The runtime: `GpuResize.resize` on the stand-in device.


def _device_input(gpu: KernelRuntime, x: np.ndarray) -> DeviceArray:
    """`x` on the device with its strides (a transposed view stays one)."""
    if x.flags.c_contiguous:
        return gpu.upload(x)
    dense = gpu.upload(np.ascontiguousarray(x.T))
    return DeviceArray(
        dense.buffer,
        dense.offset,
        tuple(x.shape),
        tuple(s // x.itemsize for s in x.strides),
        dense.dtype,
        dense.base,
    )


RUNTIME_CASES = [
    ("linear-tf_crop_and_resize", np.float32),
    ("cubic-antialias-down-exclude", np.float32),
    ("linear-transposed", np.float32),
    ("nearest-transposed-tf-crop", np.int64),
    ("nearest-round_prefer_ceil", np.uint8),
    ("cubic-half_pixel-scales", np.float16),
    ("5d-linear-tf-crop", np.float64),
]


@pytest.mark.parametrize(
    "name,dtype", RUNTIME_CASES, ids=[f"{n}-{np.dtype(t)}" for n, t in RUNTIME_CASES]
)
def test_runtime_resize(make_gpu: MakeGpu, name: str, dtype: type) -> None:
    case = ALL[name]
    gpu = make_gpu(debug=True)
    x = _input(case, np.dtype(dtype))
    want = _want(case, x)
    src = _device_input(gpu, x)
    out = gpu.empty(case.out_shape, np.dtype(dtype))
    gpu.resize(src, out, case.attrs())
    got = gpu.download(out)
    if case.mode == "nearest":
        np.testing.assert_array_equal(got, want)
    else:
        rtol, atol = TOLERANCE[np.dtype(dtype)]
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
    # Again with the same tables (cached, uploaded once): the same result.
    again = gpu.empty(case.out_shape, np.dtype(dtype))
    gpu.resize(src, again, case.attrs())
    np.testing.assert_array_equal(gpu.download(again), got)


def test_runtime_refuses_interpolating_integers(make_gpu: MakeGpu) -> None:
    gpu = make_gpu()
    case = ALL["linear-antialias-down"]
    src = gpu.upload(_input(case, np.dtype(np.int32)))
    out = gpu.empty(case.out_shape, np.dtype(np.int32))
    with pytest.raises(NotImplementedOnDevice, match="linear on int32"):
        gpu.resize(src, out, case.attrs())


def test_runtime_empty_output_and_empty_input(make_gpu: MakeGpu) -> None:
    gpu = make_gpu()
    src = gpu.upload(np.zeros((1, 0, 3), np.float32))
    gpu.resize(
        src,
        gpu.empty((1, 0, 5), np.dtype(np.float32)),
        Case((1, 0, 3), (1, 0, 5), "linear").attrs(),
    )
    with pytest.raises(IndexError, match="no input element"):
        gpu.resize(
            src,
            gpu.empty((1, 2, 5), np.dtype(np.float32)),
            Case((1, 0, 3), (1, 2, 5), "linear").attrs(),
        )


# The models of test_resize_models.py.

RESIZE_MODELS = sorted(name for name in CASES if name.startswith("resize_"))


@pytest.mark.parametrize("name", RESIZE_MODELS)
def test_resize_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:
    onnx_model = model(name)
    ir = xhip.compile_to_ir(onnx_model)
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, make_gpu(debug=True)
    )
    session = ort.InferenceSession(onnx_model.SerializeToString())
    for feeds in runs(name, onnx_model):
        (got,) = compiled(feeds).values()
        check(got, np.asarray(session.run(None, feeds)[0]))
