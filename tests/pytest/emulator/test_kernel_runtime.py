"""`KernelRuntime`, the code both GPU runtimes share, with the emulator as its
device: host memory, `_launch` into `EmulatedKernels`. Its launches, grids and
`meta` arrays meet the kernels for real, checked against the CPU runtime and
the seed's float64 reference."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from tests.pytest.backend.conftest import FINAL, parse_stage, stage
from xhip.backend.cpu import CpuRuntime
from xhip.backend.gpu import KernelArg, KernelRuntime
from xhip.backend.reference import AttentionWeights
from xhip.backend.runtime import Buffer, DeviceArray
from xhip.backend.session import CompiledModel, Signature
from xhip.context import make_context
from xhip.testing.emulator import EmulatedKernels

pytestmark = pytest.mark.emulator


class EmulatedGpu(KernelRuntime):
    """A GPU runtime whose device memory is host memory and whose kernels run
    in the emulator; GEMMs in numpy (cuBLAS and hipBLAS are not ours to test)."""

    name = "emulated"

    def __init__(self, kernels: EmulatedKernels, warp_size: int, debug: bool = False):
        super().__init__(debug)
        self.kernels = kernels
        self.warp_size = warp_size
        self._meta: dict[bytes, np.ndarray] = {}
        self.launches: list[str] = []

    def _allocate(self, nbytes: int) -> np.ndarray:
        raw = np.empty(nbytes + 256, np.uint8)
        start = -raw.ctypes.data % 256
        return raw[start : start + nbytes]

    def _release(self, handle: Any) -> None:
        handle.fill(0xFF)  # a use after free reads NaN

    def fill_nan(self, buffer: Buffer) -> None:
        buffer.handle.fill(0xFF)

    def array(self, value: DeviceArray) -> np.ndarray:
        item = value.dtype.itemsize
        return np.ndarray(
            value.shape,
            value.dtype,
            value.buffer.handle,
            value.offset,
            tuple(s * item for s in value.strides),
        )

    def _address(self, value: DeviceArray) -> int:
        return value.buffer.handle.ctypes.data + value.offset

    def _device_meta(self, meta: np.ndarray) -> Any:
        kept = self._meta.setdefault(meta.tobytes(), meta.copy())
        return kept.ctypes.data

    def _launch(
        self, kernel: str, grid: int, block: int, shared: int, args: Sequence[KernelArg]
    ) -> None:
        self.launches.append(kernel)
        self.kernels.launch(kernel, grid, block, shared, args, warp_size=self.warp_size)

    def upload(self, array: np.ndarray, copy: bool = False) -> DeviceArray:
        value = self.empty(array.shape, array.dtype)
        np.copyto(self.array(value), array)
        return value

    def download(self, value: DeviceArray, out: np.ndarray | None = None) -> np.ndarray:
        host = self.array(value).copy()
        if out is None:
            return host
        np.copyto(out, host)
        return out

    def synchronize(self) -> None:
        pass

    def matmul(self, a: DeviceArray, b: DeviceArray, out: DeviceArray) -> None:
        np.matmul(self.array(a), self.array(b), out=self.array(out))

    def gemm(
        self,
        a: DeviceArray,
        b: DeviceArray,
        c: DeviceArray | None,
        out: DeviceArray,
        trans_a: bool = False,
        trans_b: bool = False,
        alpha: float = 1.0,
        beta: float = 1.0,
    ) -> None:
        x, w = self.array(a), self.array(b)
        result = alpha * ((x.T if trans_a else x) @ (w.T if trans_b else w))
        if c is not None and beta != 0.0:
            result = result + beta * self.array(c)
        np.copyto(self.array(out), result.astype(out.dtype))


@pytest.fixture(scope="module", params=[32, 64], ids=lambda w: f"warp{w}")
def gpu(request: pytest.FixtureRequest, emulated: EmulatedKernels) -> EmulatedGpu:
    return EmulatedGpu(emulated, request.param)


def _on(runtime: Any, x: np.ndarray) -> DeviceArray:
    return runtime.upload(np.ascontiguousarray(x))


def _swap(value: DeviceArray, d0: int, d1: int) -> DeviceArray:
    shape, strides = list(value.shape), list(value.strides)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    strides[d0], strides[d1] = strides[d1], strides[d0]
    return DeviceArray(
        value.buffer, value.offset, tuple(shape), tuple(strides), value.dtype
    )


def test_runtime_ops_match_the_cpu_runtime(gpu: EmulatedGpu) -> None:
    rng = np.random.default_rng(0)
    cpu = CpuRuntime()
    a = rng.standard_normal((3, 1, 17)).astype(np.float32)
    b = rng.uniform(0.5, 2, (4, 1)).astype(np.float32)
    x = rng.standard_normal((2, 5, 7, 3)).astype(np.float32)
    try:
        for kind in ("add", "sub", "mul", "div", "pow"):
            outs = []
            for rt in (gpu, cpu):
                out = rt.empty((3, 4, 17), np.dtype(np.float32))
                rt.binary(
                    kind, _on(rt, np.abs(a) if kind == "pow" else a), _on(rt, b), out
                )
                outs.append(rt.download(out))
            np.testing.assert_allclose(outs[0], outs[1], rtol=2e-6, err_msg=kind)
        for kind in ("relu", "exp", "neg", "sigmoid", "sqrt", "tanh"):
            outs = []
            for rt in (gpu, cpu):
                src = _on(rt, np.abs(x) if kind == "sqrt" else x)
                view = _swap(src, 1, 3)  # a strided input
                out = rt.empty(view.shape, np.dtype(np.float32))
                rt.unary(kind, view, out)
                outs.append(rt.download(out))
            np.testing.assert_allclose(
                outs[0], outs[1], rtol=2e-6, atol=1e-7, err_msg=kind
            )
        for axis in (-1, 1, 0):
            outs = []
            for rt in (gpu, cpu):
                out = rt.empty(x.shape, np.dtype(np.float32))
                rt.softmax(_on(rt, x), out, axis=axis)
                outs.append(rt.download(out))
            np.testing.assert_allclose(outs[0], outs[1], rtol=2e-5, atol=1e-7)
        perm = (2, 0, 3, 1)
        outs = []
        for rt in (gpu, cpu):
            out = rt.empty(tuple(x.shape[p] for p in perm), np.dtype(np.float32))
            rt.permute(_on(rt, x), out, perm)
            outs.append(rt.download(out))
        np.testing.assert_array_equal(outs[0], outs[1])
        np.testing.assert_array_equal(outs[0], x.transpose(perm))
    finally:
        cpu.close()
    assert {"xhip_binary_f32", "xhip_unary_f32", "xhip_softmax_rows_f32"} <= set(
        gpu.launches
    )


@pytest.mark.parametrize("batch,seq", [(1, 1), (2, 37), (3, 64)])
def test_the_seed_runs_on_the_emulated_gpu(
    gpu: EmulatedGpu, batch: int, seq: int
) -> None:
    """The seed's final IR, every non-GEMM op in xhip's kernels, against float64."""
    weights = AttentionWeights.random(0)
    function = Parser(make_context(), stage(20).read_text()).parse_op()
    assert isinstance(function, FuncOp)
    model = CompiledModel(
        parse_stage(FINAL),
        Signature.from_function(function),
        weights.constants_blob(),
        gpu,
    )
    x = np.random.default_rng(1).standard_normal((batch, seq, 64)).astype(np.float32)
    before = len(gpu.launches)
    out = model({"X": x})["out"]
    assert "xhip_softmax_rows_f32" in gpu.launches[before:]
    want = weights.reference(x)
    assert np.max(np.abs(out - want)) <= 1e-5 * np.max(np.abs(want))
