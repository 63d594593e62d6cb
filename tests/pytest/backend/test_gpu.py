"""GPU runtimes: clean skips without a device; shared GEMM planning and kernel
metadata checked on the CPU (the kernel source compiled: test_kernel_compile.py;
the runtimes run on the CPU stand-in of their device API: tests/pytest/emulator);
hip-python's bindings checked against the calls hip.py makes; the CUDA runtime
against numpy float64 when a CUDA device is present."""

from __future__ import annotations

import ast
import ctypes
import inspect
import io
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided
from xdsl.dialects.builtin import ModuleOp

from xhip.backend import hip as hip_runtime
from xhip.backend import runtime_for
from xhip.backend.cpu import CpuRuntime
from xhip.backend.device import StridedGemm
from xhip.backend.gpu import (
    GemmCall,
    plan_gemm,
    strided_meta,
)
from xhip.backend.reference import AttentionWeights
from xhip.backend.runtime import Buffer, DeviceArray, DeviceUnavailable, Runtime
from xhip.backend.session import CompiledModel, Signature
from xhip.dialects import hip

F32 = np.dtype(np.float32)


def _runtime_or_reason(device: str) -> tuple[Runtime | None, str]:
    try:
        return runtime_for(device), ""
    except DeviceUnavailable as e:
        return None, str(e)


@pytest.mark.parametrize("device", ["hip", "cuda"])
def test_missing_gpu_is_one_clear_line(device: str) -> None:
    runtime, reason = _runtime_or_reason(device)
    if runtime is not None:
        pytest.skip(f"a {device} device is present")
    assert reason.startswith(f"--device {device}: ") and "\n" not in reason


def _hip_device_count() -> tuple[str, int] | None:
    """What hip-python's hipGetDeviceCount says, or None where it cannot load."""
    try:
        hip = hip_runtime.import_bindings().hip
    except DeviceUnavailable:
        return None
    status, count = hip.hipGetDeviceCount()
    return getattr(status, "name", str(status)), count


def test_hip_runtime_without_a_device_says_so() -> None:
    """hip-python and libamdhip64 load (Debian's libamdhip64-5 is enough) but no
    AMD GPU answers: the runtime says that, not that something is missing."""
    answer = _hip_device_count()
    if answer is None:
        pytest.skip("hip-python or libamdhip64 cannot be loaded here")
    status, count = answer
    if count > 0:
        pytest.skip("an AMD GPU is present")
    with pytest.raises(DeviceUnavailable) as error:
        runtime_for("hip")
    assert str(error.value) == f"--device hip: no AMD GPU found ({status})"


def test_auto_falls_back_to_cpu_and_says_so() -> None:
    if _runtime_or_reason("hip")[0] or _runtime_or_reason("cuda")[0]:
        pytest.skip("a GPU is present")
    notes = io.StringIO()
    assert isinstance(runtime_for("auto", notes=notes), CpuRuntime)
    assert "running on the CPU" in notes.getvalue()


def test_unknown_device() -> None:
    with pytest.raises(DeviceUnavailable, match="unknown device"):
        runtime_for("tpu")


# GEMM planning (used by the HIP runtime), executed here by a numpy emulation of
# column-major strided-batched SGEMM.


def _col_major(
    flat: np.ndarray, offset: int, rows: int, cols: int, ld: int
) -> np.ndarray:
    item = flat.itemsize
    return as_strided(flat[offset:], (rows, cols), (item, ld * item))


def _emulate(call: GemmCall, a: DeviceArray, b: DeviceArray, out: DeviceArray) -> None:
    flat = {id(x.buffer): x.buffer.handle.view(np.float32) for x in (a, b, out)}
    for t in range(call.batch):
        fb, fa, fc = (flat[id(x.buffer)] for x in (b, a, out))
        ob = b.offset // 4 + t * call.stride_b
        oa = a.offset // 4 + t * call.stride_a
        bm = _col_major(
            fb, ob, *((call.k, call.n) if call.trans_b else (call.n, call.k)), call.ldb
        )
        am = _col_major(
            fa, oa, *((call.m, call.k) if call.trans_a else (call.k, call.m)), call.lda
        )
        c = _col_major(
            fc, out.offset // 4 + t * call.stride_c, call.n, call.m, call.ldc
        )
        c[...] = (bm.T if call.trans_b else bm) @ (am.T if call.trans_a else am)


def _device(x: np.ndarray) -> DeviceArray:
    """A DeviceArray over x's own memory (x may be any positive-strided view)."""
    root = x if x.base is None else x.base
    while isinstance(root, np.ndarray) and root.base is not None:
        root = root.base
    flat = np.asarray(root).reshape(-1).view(np.uint8)
    offset = x.__array_interface__["data"][0] - flat.__array_interface__["data"][0]
    strides = tuple(s // x.itemsize for s in x.strides)
    return DeviceArray(Buffer(flat, flat.nbytes), offset, x.shape, strides, x.dtype)


def _rand(*shape: int) -> np.ndarray:
    return np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize(
    "make_a,make_b",
    [
        (lambda: _rand(3, 5, 7), lambda: _rand(7, 4)),  # broadcast B, as in the seed
        (lambda: _rand(3, 5, 7), lambda: _rand(3, 7, 4)),
        (
            lambda: _rand(3, 7, 5).transpose(0, 2, 1),
            lambda: _rand(3, 4, 7).transpose(0, 2, 1),
        ),
        (lambda: _rand(5, 7), lambda: _rand(2, 7, 4)),  # broadcast A
        (lambda: _rand(5, 9)[:, 1:8], lambda: _rand(7, 4)),  # row stride 9
    ],
)
def test_plan_gemm(make_a: object, make_b: object) -> None:
    a, b = make_a(), make_b()  # type: ignore[operator]
    want = a.astype(np.float64) @ b.astype(np.float64)
    out = np.full(want.shape, np.nan, np.float32)
    da, db, dout = _device(a), _device(b), _device(out)
    call = plan_gemm(da, db, dout)
    assert call is not None
    _emulate(call, da, db, dout)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)


def test_plan_gemm_refuses_unblasable_layouts() -> None:
    a = _rand(4, 6, 8)[:, ::2, ::2]  # no unit stride in the matrix
    assert plan_gemm(_device(a), _device(_rand(4, 3)), _device(_rand(4, 3, 3))) is None


def test_plan_gemm_refuses_a_stride_blas_cannot_express() -> None:
    """A broadcast (stride 0) row dim is no leading dimension: BLAS needs
    ld >= rows, so the runtime copies such an operand dense first."""
    flat = _device(_rand(8))
    a = DeviceArray(flat.buffer, 0, (5, 1), (0, 1), F32)  # one value, five rows
    assert plan_gemm(a, _device(_rand(1, 4)), _device(_rand(5, 4))) is None
    ok = DeviceArray(flat.buffer, 0, (5, 1), (1, 1), F32)
    call = plan_gemm(ok, _device(_rand(1, 4)), _device(_rand(5, 4)))
    assert call is not None and call.lda >= 1


# hip-python: the calls hip.py makes, checked against the installed bindings.

_HIP_MODULES = ("hip", "hiprtc", "hipblas", "hipblaslt")


def _hip_calls() -> list[tuple[str, str, int, list[str], int]]:
    """(module, function, positional count, keywords, line) of every
    `<module>.<function>(...)` and `self.<module>.<function>(...)` in hip.py,
    except in `_*_6x` helpers, which speak hip-python 6.x."""
    tree = ast.parse(Path(hip_runtime.__file__).read_text())
    legacy = {
        id(node)
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef) and f.name.endswith("_6x")
        for node in ast.walk(f)
    }
    # `name = dict(k=...)` assignments: a call's `**name` gives their keywords.
    spread = {
        target.id: [k.arg for k in node.value.keywords if k.arg is not None]
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "dict"
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    calls = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or id(node) in legacy:
            continue
        func = node.func
        if not isinstance(func, ast.Attribute):
            continue
        owner = func.value
        if isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name):
            module = owner.attr if owner.value.id == "self" else None
        elif isinstance(owner, ast.Name):
            module = owner.id
        else:
            module = None
        if module in _HIP_MODULES:
            keywords = [k.arg for k in node.keywords if k.arg is not None]
            for k in node.keywords:
                if k.arg is None:  # `**name`: the dict it spreads must be known
                    assert isinstance(k.value, ast.Name), ast.unparse(k.value)
                    keywords += spread[k.value.id]
            calls.append((module, func.attr, len(node.args), keywords, node.lineno))
    return calls


def test_hip_py_calls_match_the_bindings() -> None:
    """Every binding hip.py calls exists and takes the arguments it is given,
    by name (hipBLASLt and hipBLAS need a device to run; their signatures do
    not). hip-python >= 10 lays them out as `rocm.bindings.*`."""
    modules = {}
    for name in _HIP_MODULES:
        try:
            modules[name] = __import__(f"rocm.bindings.{name}", fromlist=[name])
        except ImportError:
            continue
    if not modules:
        pytest.skip("hip-python >= 10 is not installed: pip install 'xhip[hip]'")
    calls = _hip_calls()
    assert {c[1] for c in calls} >= {
        "hipMalloc",
        "hipModuleLaunchKernel",
        "hipblasSgemmStridedBatched",
        "hipblasDgemmStridedBatched",
        "hipblasGemmStridedBatchedEx",
        "hipblasLtMatmul",
        "hipblasLtMatmulAlgoGetHeuristic",
    }
    checked = 0
    for module, function, positional, keywords, line in calls:
        if module not in modules:
            continue
        target = getattr(modules[module], function, None)
        assert target is not None, f"hip.py:{line}: {module}.{function} does not exist"
        if isinstance(target, type):  # a struct: made with no arguments
            continue
        signature = inspect.signature(target)
        try:
            signature.bind(*[None] * positional, **dict.fromkeys(keywords))
        except TypeError as e:
            pytest.fail(f"hip.py:{line}: {module}.{function}{signature}: {e}")
        checked += 1
    assert checked, "no binding call checked"
    missing = sorted(set(_HIP_MODULES) - set(modules))
    assert not missing or checked, missing


def test_hip_blas_libraries_missing_is_one_clear_line() -> None:
    """The BLAS bindings import without their libraries and fail on first use:
    the device says which do not load, in one line (past this, a GPU is needed)."""
    try:
        bindings = hip_runtime.import_bindings()
    except DeviceUnavailable as e:
        pytest.skip(str(e))
    if bindings.hipblas is None:
        pytest.skip("the hipBLAS bindings are not installed")
    try:
        device = hip_runtime.HipDevice(bindings)
    except DeviceUnavailable as e:
        message = str(e)
    else:
        device.close()
        pytest.skip("hipBLAS or hipBLASLt loads here")
    assert message.startswith("--device hip: neither hipBLASLt nor hipBLAS loads (")
    assert "\n" not in message


def test_hip_py_enums_exist_in_the_bindings() -> None:
    """The enum members hip.py names, where hip-python >= 10 defines them."""
    try:
        from rocm.bindings import hip, hipblas, hipblaslt  # pyright: ignore
    except ImportError:
        pytest.skip("rocm-bindings-hip and rocm-bindings-libraries are not installed")
    assert hip.hipDataType.HIP_R_32F is not None
    assert hip.hipDataType.HIP_R_16F != hip.hipDataType.HIP_R_64F
    assert hip.hipMemcpyKind.hipMemcpyHostToDevice is not None
    assert hipblas.hipblasComputeType_t.HIPBLAS_COMPUTE_32F is not None
    assert hipblas.hipblasComputeType_t.HIPBLAS_COMPUTE_64F is not None
    assert hipblas.hipblasGemmAlgo_t.HIPBLAS_GEMM_DEFAULT is not None
    ops = hipblas.hipblasOperation_t
    assert ops.HIPBLAS_OP_N != ops.HIPBLAS_OP_T
    desc = hipblaslt.hipblasLtMatmulDescAttributes_t
    assert desc.HIPBLASLT_MATMUL_DESC_TRANSA != desc.HIPBLASLT_MATMUL_DESC_TRANSB
    layout = hipblaslt.hipblasLtMatrixLayoutAttribute_t
    assert layout.HIPBLASLT_MATRIX_LAYOUT_BATCH_COUNT is not None
    assert layout.HIPBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET is not None
    pref = hipblaslt.hipblasLtMatmulPreferenceAttributes_t
    assert pref.HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES is not None
    assert hipblaslt.hipblasLtMatmulHeuristicResult_t().c_sizeof() > 0


# The typed GEMM's library calls, marshalled into stand-ins of the bindings
# (the real libraries need a device: the real-GPU tests below call them).

GEMM_ARGS = ("N", "T", 3, 4, 5, 0.5, 0x1000, 3, 15, 0x2000, 4, 0, -2.0, 0x3000, 3, 12, 2)  # fmt: skip
"""transa .. batch_count of one strided-batched GEMM call."""


def _scalar(address: int, compute: str) -> float:
    """The alpha or beta a library reads at `address` in its compute type."""
    size = np.dtype(compute).itemsize
    return float(np.frombuffer(ctypes.string_at(address, size), compute)[0])


class _FakeCublas:
    """cupy.cuda.cublas's GEMM entry points, recording what they are given."""

    CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_POINTER_MODE_HOST = 0, 1, 0

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[object, ...], float, float]] = []

    def setPointerMode(self, handle: object, mode: int) -> None:
        assert mode == self.CUBLAS_POINTER_MODE_HOST

    def _record(self, name: str, args: tuple, compute: str, beta_at: int) -> None:
        self.calls.append(
            (name, args, _scalar(args[6], compute), _scalar(args[beta_at], compute))
        )

    def sgemmStridedBatched(self, *args: object) -> None:
        self._record("sgemm", args, "float32", 13)

    def dgemmStridedBatched(self, *args: object) -> None:
        self._record("dgemm", args, "float64", 13)

    def gemmStridedBatchedEx(self, *args: object) -> None:
        self._record("gemmEx", args, "float32", 15)


@pytest.mark.parametrize(
    "dtype,function,compute",
    [
        ("float16", "gemmEx", "float32"),
        ("float32", "sgemm", "float32"),
        ("float64", "dgemm", "float64"),
    ],
)
def test_cupy_device_gemm_calls(
    monkeypatch: pytest.MonkeyPatch, dtype: str, function: str, compute: str
) -> None:
    """Half is cublasGemmStridedBatchedEx on CUDA_R_16F A/B/C with
    CUBLAS_COMPUTE_32F and float alpha/beta; float and double the S/D calls
    with scalars of their type; transposes, dims, lds and strides as given."""
    from xhip.backend import cuda as cuda_runtime

    blas = _FakeCublas()
    cuda_module = types.SimpleNamespace(
        cublas=blas, device=types.SimpleNamespace(get_cublas_handle=lambda: 7)
    )
    fake = types.SimpleNamespace(cuda=cuda_module)
    monkeypatch.setitem(sys.modules, "cupy", fake)
    monkeypatch.setitem(sys.modules, "cupy.cuda", cuda_module)
    device = cuda_runtime.CupyDevice(fake)
    device.gemm_strided_batched(StridedGemm(dtype, *GEMM_ARGS))  # type: ignore[arg-type]
    ((name, args, alpha, beta),) = blas.calls
    assert (name, alpha, beta) == (function, 0.5, -2.0)
    assert args[:6] == (7, 0, 1, 3, 4, 5)
    if name == "gemmEx":
        half = cuda_runtime.CUDA_R_16F
        assert args[7:11] == (0x1000, half, 3, 15)
        assert args[11:15] == (0x2000, half, 4, 0)
        assert args[16:] == (0x3000, half, 3, 12, 2, 68, -1)  # COMPUTE_32F, DEFAULT
    else:
        assert args[7:13] == (0x1000, 3, 15, 0x2000, 4, 0)
        assert args[14:] == (0x3000, 3, 12, 2)


class _FakeHipLibrary:
    """A hip-python module: the given attributes (enums), any other `hip*`
    name a call recording its keywords (alpha, beta as the bytes they point
    at) and returning `returns[name]` or status 0."""

    def __init__(self, returns: dict[str, object], **attributes: object) -> None:
        self.calls: list[tuple[str, dict[str, object]]] = []
        self._returns = returns
        self.__dict__.update(attributes)

    def __getattr__(self, name: str) -> object:
        if not name.startswith("hip") or name.endswith("_t"):
            raise AttributeError(name)

        def call(**kwargs: object) -> object:
            for key in ("alpha", "beta"):
                if key in kwargs:
                    kwargs[key] = ctypes.string_at(kwargs[key], 8)  # type: ignore[arg-type]
            self.calls.append((name, kwargs))
            return self._returns.get(name, 0)

        return call


def _enum(**members: object) -> types.SimpleNamespace:
    return types.SimpleNamespace(**members)


def _hip_bindings(lt: bool, found: int, legacy: bool) -> hip_runtime.Bindings:
    """Stand-ins of hip-python >= 10 (or 6.x, `legacy`: hipblasDatatype_t)."""
    hip = _FakeHipLibrary(
        {"hipMalloc": (0, 0x9000)},
        hipDataType=_enum(HIP_R_16F="R16F", HIP_R_32F="R32F", HIP_R_64F="R64F"),
    )
    blas_enums: dict[str, object] = {
        "hipblasOperation_t": _enum(HIPBLAS_OP_N=111, HIPBLAS_OP_T=112),
        "hipblasComputeType_t": _enum(
            HIPBLAS_COMPUTE_32F="C32F", HIPBLAS_COMPUTE_64F="C64F"
        ),
        "hipblasGemmAlgo_t": _enum(HIPBLAS_GEMM_DEFAULT="DEFAULT"),
    }
    if legacy:
        blas_enums["hipblasDatatype_t"] = _enum(
            HIPBLAS_R_16F="HIPBLAS_R_16F", HIPBLAS_R_32F="HIPBLAS_R_32F"
        )
    hipblas = _FakeHipLibrary({"hipblasCreate": (0, "blas")}, **blas_enums)

    class Result:
        def __int__(self) -> int:
            return 0xA160

    hipblaslt = _FakeHipLibrary(
        {
            "hipblasLtCreate": (0, "lt"),
            "hipblasLtMatmulDescCreate": (0, "desc"),
            "hipblasLtMatrixLayoutCreate": (0, "layout"),
            "hipblasLtMatmulPreferenceCreate": (0, "pref"),
            "hipblasLtMatmulAlgoGetHeuristic": (0, found),
        },
        hipblasLtMatmulDescAttributes_t=_enum(
            HIPBLASLT_MATMUL_DESC_TRANSA=1, HIPBLASLT_MATMUL_DESC_TRANSB=2
        ),
        hipblasLtMatrixLayoutAttribute_t=_enum(
            HIPBLASLT_MATRIX_LAYOUT_BATCH_COUNT=1,
            HIPBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET=2,
        ),
        hipblasLtMatmulPreferenceAttributes_t=_enum(
            HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES=1
        ),
        hipblasLtMatmulHeuristicResult_t=Result,
    )
    return hip_runtime.Bindings(hip, None, hipblas, hipblaslt if lt else None)


HIP_GEMMS = {
    # dtype: (hipBLAS fallback, its A/B/C type (>= 10, 6.x), compute, scalars)
    "float16": ("hipblasGemmStridedBatchedEx", ("R16F", "HIPBLAS_R_16F"), "float32"),
    "float32": ("hipblasSgemmStridedBatched", None, "float32"),
    "float64": ("hipblasDgemmStridedBatched", None, "float64"),
}


@pytest.mark.parametrize("legacy", [False, True], ids=["hip-python10", "hip-python6"])
@pytest.mark.parametrize("dtype", list(HIP_GEMMS))
def test_hip_device_gemm_falls_back_to_hipblas(dtype: str, legacy: bool) -> None:
    """hipBLASLt absent: hipBLAS's call of the type, Ex with half A/B/C and
    f32 compute (named by hipDataType/hipblasComputeType_t, or 6.x's
    hipblasDatatype_t), scalars in the compute type."""
    bindings = _hip_bindings(lt=False, found=0, legacy=legacy)
    device = hip_runtime.HipDevice(bindings)
    device.gemm_strided_batched(StridedGemm(dtype, *GEMM_ARGS))  # type: ignore[arg-type]
    function, half, compute = HIP_GEMMS[dtype]
    ((name, kwargs),) = bindings.hipblas.calls[1:]  # after hipblasCreate
    assert name == function
    size = np.dtype(compute).itemsize
    assert _scalar_bytes(kwargs["alpha"], compute, size) == 0.5
    assert _scalar_bytes(kwargs["beta"], compute, size) == -2.0
    assert (kwargs["transA"], kwargs["transB"], kwargs["batchCount"]) == (111, 112, 2)
    assert (kwargs["m"], kwargs["n"], kwargs["k"]) == (3, 4, 5)
    assert (kwargs["lda"], kwargs["ldb"], kwargs["ldc"]) == (3, 4, 3)
    assert (kwargs["strideA"], kwargs["strideB"], kwargs["strideC"]) == (15, 0, 12)
    if half is not None:
        t = half[legacy]
        assert (kwargs["aType"], kwargs["bType"], kwargs["cType"]) == (t, t, t)
        assert kwargs["computeType"] == ("HIPBLAS_R_32F" if legacy else "C32F")
        assert kwargs["algo"] == "DEFAULT"
        assert (kwargs["A"], kwargs["B"], kwargs["C"]) == (0x1000, 0x2000, 0x3000)
    else:
        assert (kwargs["AP"], kwargs["BP"], kwargs["CP"]) == (0x1000, 0x2000, 0x3000)


def _scalar_bytes(raw: object, compute: str, size: int) -> float:
    assert isinstance(raw, bytes)
    return float(np.frombuffer(raw[:size], compute)[0])


@pytest.mark.parametrize("found", [1, 0])
@pytest.mark.parametrize(
    "dtype,element,compute,scale",
    [
        ("float16", "R16F", "C32F", "R32F"),
        ("float32", "R32F", "C32F", "R32F"),
        ("float64", "R64F", "C64F", "R64F"),
    ],
)
def test_hip_device_gemm_on_hipblaslt(
    dtype: str, element: str, compute: str, scale: str, found: int
) -> None:
    """hipBLASLt: a descriptor of the compute and scale type, three layouts of
    the element type, one plan per type and shape; no algorithm: hipBLAS."""
    bindings = _hip_bindings(lt=True, found=found, legacy=False)
    device = hip_runtime.HipDevice(bindings)
    for _ in range(2):
        device.gemm_strided_batched(StridedGemm(dtype, *GEMM_ARGS))  # type: ignore[arg-type]
    lt = bindings.hipblaslt.calls
    (desc,) = [kw for name, kw in lt if name == "hipblasLtMatmulDescCreate"]
    assert desc == {"computeType": compute, "scaleType": scale}
    layouts = [kw for name, kw in lt if name == "hipblasLtMatrixLayoutCreate"]
    assert [kw["type"] for kw in layouts] == [element] * 3
    assert [(kw["rows"], kw["cols"], kw["ld"]) for kw in layouts] == [
        (3, 5, 3),
        (4, 5, 4),
        (3, 4, 3),
    ]
    matmuls = [kw for name, kw in lt if name == "hipblasLtMatmul"]
    fallbacks = bindings.hipblas.calls[1:]
    assert (len(matmuls), len(fallbacks)) == ((2, 0) if found else (0, 2))
    if found:
        s = HIP_GEMMS[dtype][2]
        size = np.dtype(s).itemsize
        assert _scalar_bytes(matmuls[0]["alpha"], s, size) == 0.5
        assert _scalar_bytes(matmuls[0]["beta"], s, size) == -2.0
        assert matmuls[0]["algo"] == 0xA160
    device.close()


def test_strided_meta_broadcasts() -> None:
    out = DeviceArray.contiguous(Buffer(None, 96), 0, (2, 3, 4), F32)
    a = DeviceArray.contiguous(Buffer(None, 16), 0, (4,), F32)
    b = DeviceArray.contiguous(Buffer(None, 12), 0, (3, 1), F32)
    meta = strided_meta(out, a, b)
    assert meta.tolist() == [2, 3, 4, 12, 4, 1, 0, 0, 1, 0, 1, 0]


# The CUDA runtime, where a CUDA device is present.


@pytest.fixture(scope="module")
def cuda() -> Runtime:
    runtime, reason = _runtime_or_reason("cuda")
    if runtime is None:
        pytest.skip(reason)
    return runtime


@pytest.mark.gpu
@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("batch,seq", [(1, 1), (2, 64), (3, 100), (8, 512)])
def test_cuda_runs_the_seed(
    cuda: Runtime,
    final_module: ModuleOp,
    signature: Signature,
    weights: AttentionWeights,
    batch: int,
    seq: int,
    debug: bool,
) -> None:
    cuda.debug = debug
    model = CompiledModel(final_module, signature, weights.constants_blob(), cuda)
    x = np.random.default_rng(1).standard_normal((batch, seq, 64)).astype(np.float32)
    out = model({"X": x})["out"]
    want = weights.reference(x)
    # TF32 may be on for cuBLAS: a looser bound than the CPU's 1e-5.
    assert np.max(np.abs(out - want)) <= 1e-3 * np.max(np.abs(want))
    cuda.debug = False


@pytest.mark.gpu
@pytest.mark.parametrize("kind", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize(
    "a_shape,b_shape",
    [((3, 4), (3, 4)), ((2, 3, 4), ()), ((2, 3, 4), (3, 1)), ((2, 1, 4), (1, 3, 1))],
)
def test_cuda_binary(
    cuda: Runtime, kind: str, a_shape: tuple[int, ...], b_shape: tuple[int, ...]
) -> None:
    a, b = _rand(*a_shape), _rand(*b_shape) + np.float32(3)
    want = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}[
        kind
    ](a.astype(np.float64), b.astype(np.float64))
    out = cuda.empty(want.shape, F32)
    cuda.binary(
        cuda.upload(a), cuda.upload(b), out, hip.ElementwiseAttributes(kind, ())
    )
    np.testing.assert_allclose(cuda.download(out), want, rtol=1e-6, atol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize(
    "shape,axis", [((5,), -1), ((3, 7), 0), ((2, 3, 4), 1), ((4, 300, 1000), -1)]
)
def test_cuda_softmax(cuda: Runtime, shape: tuple[int, ...], axis: int) -> None:
    x = _rand(*shape) * 3
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=axis, keepdims=True))
    out = cuda.empty(shape, F32)
    cuda.softmax(cuda.upload(x), None, out, hip.AxisAttributes(axis))
    np.testing.assert_allclose(
        cuda.download(out), e / e.sum(axis=axis, keepdims=True), atol=1e-6
    )


@pytest.mark.gpu
def test_cuda_permute_relu_copy_gemm(cuda: Runtime) -> None:
    x = _rand(2, 3, 4, 5)
    out = cuda.empty((5, 3, 2, 4), F32)
    cuda.permute(cuda.upload(x), out, hip.PermuteAttributes((3, 1, 0, 2)))
    np.testing.assert_array_equal(cuda.download(out), x.transpose(3, 1, 0, 2))
    relu = cuda.empty(x.shape, F32)
    cuda.unary(cuda.upload(x), relu, hip.ElementwiseAttributes("relu", ()))
    np.testing.assert_array_equal(cuda.download(relu), np.maximum(x, 0))
    a, b, c = _rand(5, 6), _rand(4, 5), _rand(4)
    g = cuda.empty((6, 4), F32)
    cuda.gemm(
        cuda.upload(a),
        cuda.upload(b),
        cuda.upload(c),
        g,
        hip.GemmAttributes(True, True, 0.5, 2.0),
    )
    want = 0.5 * (a.T.astype(np.float64) @ b.T) + 2.0 * c
    np.testing.assert_allclose(cuda.download(g), want, rtol=1e-3, atol=1e-3)


@pytest.mark.gpu
@pytest.mark.parametrize("kind", ["relu", "exp", "neg", "sigmoid", "sqrt", "tanh"])
def test_cuda_unary(cuda: Runtime, kind: str) -> None:
    x = _rand(3, 4, 5) * 4
    if kind == "sqrt":
        x = np.abs(x)
    x64 = x.astype(np.float64)
    want = {
        "relu": lambda: np.maximum(x64, 0),
        "exp": lambda: np.exp(x64),
        "neg": lambda: -x64,
        "sigmoid": lambda: 1 / (1 + np.exp(-x64)),
        "sqrt": lambda: np.sqrt(x64),
        "tanh": lambda: np.tanh(x64),
    }[kind]()
    out = cuda.empty(x.shape, F32)
    cuda.unary(cuda.upload(x), out, hip.ElementwiseAttributes(kind, ()))
    np.testing.assert_allclose(cuda.download(out), want, rtol=1e-5, atol=1e-6)


@pytest.mark.gpu
def test_cuda_pow_broadcasts(cuda: Runtime) -> None:
    a, b = np.abs(_rand(2, 3, 4)) + np.float32(0.5), _rand(3, 1)
    out = cuda.empty(a.shape, F32)
    cuda.binary(
        cuda.upload(a), cuda.upload(b), out, hip.ElementwiseAttributes("pow", ())
    )
    want = np.power(a.astype(np.float64), b.astype(np.float64))
    np.testing.assert_allclose(cuda.download(out), want, rtol=1e-5)


# Half and double GEMMs on a real device: the library calls themselves.


@pytest.fixture(scope="module", params=["cuda", "hip"])
def real_gpu(request: pytest.FixtureRequest) -> Runtime:
    runtime, reason = _runtime_or_reason(request.param)
    if runtime is None:
        pytest.skip(reason)
    return runtime


REAL_GEMM_TOLERANCE = {"float16": 2e-3, "float64": 1e-12}
"""float16: one rounding to half over float32 accumulation (cuBLAS and hipBLAS
may keep products in float32 on tensor cores/matrix cores, never less)."""


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", list(REAL_GEMM_TOLERANCE))
def test_gpu_typed_matmul_and_gemm(real_gpu: Runtime, dtype: str) -> None:
    """cublasGemmStridedBatchedEx (CUDA_R_16F, CUBLAS_COMPUTE_32F) /
    cublasDgemmStridedBatched, hipBLASLt or hipBLAS on HIP: a batched matmul
    with a broadcast operand, and Gemm with transposes, alpha, a bias, beta."""
    t = np.dtype(dtype)
    tol = REAL_GEMM_TOLERANCE[dtype]
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 5, 64)).astype(t)
    w = rng.standard_normal((64, 7)).astype(t)
    out = real_gpu.empty((3, 5, 7), t)
    real_gpu.matmul(real_gpu.upload(x), real_gpu.upload(w), out)
    got = real_gpu.download(out)
    assert got.dtype == t
    want = x.astype(np.float64) @ w.astype(np.float64)
    scale = np.abs(x.astype(np.float64)) @ np.abs(w.astype(np.float64))
    assert np.all(np.abs(got - want) <= tol * scale + tol)
    a, b, c = (rng.standard_normal(s).astype(t) for s in [(5, 6), (4, 5), (4,)])
    g = real_gpu.empty((6, 4), t)
    real_gpu.gemm(
        real_gpu.upload(a),
        real_gpu.upload(b),
        real_gpu.upload(c),
        g,
        hip.GemmAttributes(True, True, 0.5, 2.0),
    )
    want = 0.5 * (a.T.astype(np.float64) @ b.T.astype(np.float64)) + 2.0 * c
    np.testing.assert_allclose(real_gpu.download(g), want, rtol=tol, atol=tol)
