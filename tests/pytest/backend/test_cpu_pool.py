"""Where the numba kernels' shares run (`cpu_host.numba_pool`): numba's own
threads where its layer is OpenMP or TBB, the runtime's Python threads with
`XHIP_CPU_POOL=python`; the seed's attention (three GEMMs by constant
weights, the fused attention) gives numpy float64's answer either way, on
one thread and on several, the same bound plan called again and again."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import onnx
import pytest
from numba.np.ufunc.parallel import threading_layer

from xhip.api import compile_to_ir
from xhip.backend import cpu_attention, cpu_host
from xhip.backend import cpu_kernels_attention as attention
from xhip.backend import cpu_kernels_gemm as gemm
from xhip.backend import cpu_kernels_pool as pool
from xhip.backend.cpu import CpuRuntime
from xhip.backend.reference import AttentionWeights
from xhip.backend.session import CompiledModel


@pytest.fixture
def fresh_setting() -> Iterator[None]:
    cpu_host._numba_pool.cache_clear()  # pyright: ignore[reportPrivateUsage]
    yield
    cpu_host._numba_pool.cache_clear()  # pyright: ignore[reportPrivateUsage]


def test_setting_python_keeps_the_python_threads(
    monkeypatch: pytest.MonkeyPatch, fresh_setting: None
) -> None:
    monkeypatch.setenv(cpu_host.POOL_SETTING, "python")
    assert not cpu_host.numba_pool()


def test_a_forked_child_keeps_to_the_python_threads(
    monkeypatch: pytest.MonkeyPatch, fresh_setting: None
) -> None:
    """GNU OpenMP aborts a forked child whose parent ran it: another process
    than the one that imported `cpu_host` never launches numba's pool."""
    monkeypatch.delenv(cpu_host.POOL_SETTING, raising=False)
    monkeypatch.setattr(cpu_host, "_PID", cpu_host._PID + 1)  # pyright: ignore[reportPrivateUsage]
    assert not cpu_host.numba_pool()


def test_pool_where_numba_layer_spins(
    monkeypatch: pytest.MonkeyPatch, fresh_setting: None
) -> None:
    monkeypatch.delenv(cpu_host.POOL_SETTING, raising=False)
    pooled = cpu_host.numba_pool()
    assert pooled == (threading_layer() in ("omp", "tbb"))


@pytest.mark.parametrize("pool", [True, False])
@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize(
    ("batch", "seq"), [(8, 128), (2, 300), (1, 128)]
)
def test_seed_attention_matches_float64(
    monkeypatch: pytest.MonkeyPatch, pool: bool, threads: int, batch: int,
    seq: int,
) -> None:  # fmt: skip
    """Taken by the kernels on any CPU (`wide_simd`: elsewhere they are
    only slower); with `pool` and threads, each GEMM and the attention one
    launch on numba's threads, whatever its layer (one caller at a time);
    1 x 128 too (`cpu_attention.POOL_MIN_SCORES`,
    `cpu_host.POOL_GEMM_MIN_MACS`), where our Python threads would not pay."""
    monkeypatch.setattr(cpu_host, "wide_simd", lambda: True)
    monkeypatch.setattr(cpu_attention, "wide_simd", lambda: True)
    monkeypatch.setattr(cpu_host, "numba_pool", lambda: pool)
    monkeypatch.setattr(cpu_attention, "numba_pool", lambda: pool)
    launched: list[str] = []
    taken: list[bool] = []
    bind = attention.bind

    def took(*args: object, **kwargs: object) -> object:
        bound = bind(*args, **kwargs)  # pyright: ignore[reportArgumentType]
        taken.append(bound is not None)
        return bound

    monkeypatch.setattr(attention, "bind", took)
    for module, name in ((gemm, "gemm_pool"), (attention, "attend_pool")):
        kernel = getattr(module, name)

        def spy(*args: object, kernel: object = kernel, name: str = name) -> None:
            launched.append(name)
            kernel(*args)  # pyright: ignore[reportCallIssue]

        monkeypatch.setattr(module, name, spy)
    weights = AttentionWeights.random(batch)
    ir = compile_to_ir(onnx.load_from_string(weights.onnx_model()))
    runtime = CpuRuntime(threads=threads)
    model = CompiledModel(ir.module, ir.signature, ir.constants, runtime)
    rng = np.random.default_rng(seq)
    try:
        for _ in range(3):
            x = rng.standard_normal((batch, seq, 64)).astype(np.float32)
            (got,) = model({"X": x}).values()
            np.testing.assert_allclose(got, weights.reference(x), rtol=1e-4, atol=1e-5)
    finally:
        runtime.close()
    assert bool(launched) == (pool and threads > 1)
    assert "attend_pool" in launched or not launched
    assert taken == [True]  # the kernels, at every size here


def test_a_step_whose_thread_comes_late_runs_alone_a_while() -> None:
    """`review` after each call, `team` before the next: a thread that took
    no share `LATE` calls running sends the step to the caller alone for
    `ALONE` calls, then back to its threads; a call where all took one
    clears the count."""
    state = pool.pool_state(2)
    state[4:] = (3, 1)
    pool.review(state, 2)  # pyright: ignore[reportCallIssue]
    assert state[3] == 0
    for call in range(pool.LATE):
        assert pool.team(state, 2) == 2  # pyright: ignore[reportCallIssue]
        state[4:] = (4, 0)  # the second thread took nothing
        pool.review(state, 2)  # pyright: ignore[reportCallIssue]
        assert state[2] == (pool.ALONE if call == pool.LATE - 1 else 0)
    teams = [pool.team(state, 2) for _ in range(pool.ALONE + 1)]  # pyright: ignore[reportCallIssue]
    assert teams == [1] * pool.ALONE + [2]
