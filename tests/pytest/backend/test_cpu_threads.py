"""The CPU runtime's thread pool and GEMM cuts: `_parallel` runs every piece
once whichever thread takes it and raises a piece's error in the caller;
`_bind_rows` (row pieces, 128-row batches for narrow weights, column
pieces when short and wide) and the norms'
row kernel from 4 Ki elements agree with numpy in float64."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
import pytest

import xhip.backend.cpu_reduce as cpu_reduce
from xhip.backend.cpu import CpuRuntime
from xhip.backend.cpu_host import SMALL_GEMM_ROWS
from xhip.dialects.hip import NormAttributes

F32 = np.dtype(np.float32)


@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize("count", [2, 3, 17])
def test_parallel_runs_each_piece_once(threads: int, count: int) -> None:
    runtime = CpuRuntime(threads=threads)
    done = np.zeros(count, np.int64)
    names: set[str] = set()

    def piece(i: int) -> Callable[[], None]:
        def run() -> None:
            done[i] += 1
            names.add(threading.current_thread().name)

        return run

    for _ in range(50):
        runtime._parallel([piece(i) for i in range(count)])  # pyright: ignore[reportPrivateUsage]
    runtime.close()
    assert done.tolist() == [50] * count
    assert len(names) <= threads


def test_parallel_raises_a_piece_error_after_all_pieces() -> None:
    runtime = CpuRuntime(threads=2)
    ran: list[int] = []

    def fail() -> None:
        raise ValueError("piece 1")

    pieces: list[Callable[[], object]] = [
        lambda: ran.append(0),
        fail,
        lambda: ran.append(2),
    ]
    with pytest.raises(ValueError, match="piece 1"):
        runtime._parallel(pieces)  # pyright: ignore[reportPrivateUsage]
    assert sorted(ran) == [0, 2]
    runtime._parallel([lambda: ran.append(3), lambda: ran.append(4)])  # pyright: ignore[reportPrivateUsage]
    runtime.close()
    assert sorted(ran) == [0, 2, 3, 4]


def test_parallel_nested_in_a_piece() -> None:
    """A piece that cuts its own work over the pool waits only for what was
    taken, so it cannot wait for itself."""
    runtime = CpuRuntime(threads=2)
    out = np.zeros(8)

    def outer(lo: int) -> Callable[[], None]:
        def run() -> None:
            runtime._parallel(  # pyright: ignore[reportPrivateUsage]
                [lambda i=i: out.__setitem__(i, i) for i in range(lo, lo + 4)]
            )

        return run

    runtime._parallel([outer(0), outer(4)])  # pyright: ignore[reportPrivateUsage]
    runtime.close()
    np.testing.assert_array_equal(out, np.arange(8))


@pytest.mark.parametrize(
    ("rows", "k", "n"),
    [
        (1000, 64, 64),  # 128-row batches and 104 rows left
        (4096, 64, 64),  # batches only
        (300, 32, 16),  # two batches, 44 rows left
        (200, 64, 64),  # under two batches: one GEMM
        (1024, 256, 256),  # wide weight: tall GEMMs
        (3, 64, 64),  # fewer rows than pieces
        (0, 64, 64),
        (128, 256, 1024),  # short and wide: columns cut
        (1, 512, 400),  # one row: columns cut, uneven
        (0, 16, 512),
        (512, 0, 64),  # no inner dim: zeros
        (512, 64, 0),
    ],
)
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_bind_rows_matches_float64(rows: int, k: int, n: int, threads: int) -> None:
    rng = np.random.default_rng(rows + k)
    x = rng.standard_normal((rows, k)).astype(np.float32)
    w = rng.standard_normal((k, n)).astype(np.float32)
    runtime = CpuRuntime(threads=threads)
    out = np.full((rows, n), np.nan, np.float32)
    call = runtime._bind_rows(x, w, out, threads)  # pyright: ignore[reportPrivateUsage]
    call()
    runtime.close()
    want = x.astype(np.float64) @ w.astype(np.float64)
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4 * np.sqrt(k))


def test_bind_rows_strided_operands() -> None:
    """A transposed `x` or a strided `out` takes plain row pieces."""
    rng = np.random.default_rng(1)
    xt = rng.standard_normal((64, 4 * SMALL_GEMM_ROWS)).astype(np.float32)
    w = rng.standard_normal((64, 64)).astype(np.float32)
    wide = np.full((4 * SMALL_GEMM_ROWS, 128), np.nan, np.float32)
    runtime = CpuRuntime(threads=2)
    runtime._bind_rows(xt.T, w, wide[:, ::2], 2)()  # pyright: ignore[reportPrivateUsage]
    runtime.close()
    want = xt.T.astype(np.float64) @ w.astype(np.float64)
    np.testing.assert_allclose(wide[:, ::2], want, rtol=1e-4, atol=1e-3)
    assert np.isnan(wide[:, 1::2]).all()


@pytest.mark.parametrize("shape", [(16, 256), (2, 64, 256), (5, 1000)])
@pytest.mark.parametrize("centre", [True, False])
def test_small_norms_run_the_row_kernel(shape: tuple[int, ...], centre: bool) -> None:
    """From `cpu_reduce.NUMBA_MIN_ELEMENTS` on, the norms take the row kernel
    (not numpy's passes) and agree with float64."""
    size = int(np.prod(shape))
    assert size >= cpu_reduce.NUMBA_MIN_ELEMENTS
    rng = np.random.default_rng(size)
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(np.float32)
    n = shape[-1]
    scale = rng.uniform(0.5, 1.5, n).astype(np.float32)
    bias = rng.normal(0, 0.1, n).astype(np.float32)
    runtime = CpuRuntime(threads=2)
    src, g, b = (runtime.upload(a, copy=True) for a in (x, scale, bias))
    out = runtime.empty(shape, F32)
    attrs = NormAttributes(axis=len(shape) - 1, epsilon=1e-5)
    kernel = runtime._bind_norm_rows(  # pyright: ignore[reportPrivateUsage]
        runtime.array(src), g, b if centre else None, runtime.array(out),
        [None, None], attrs, centre,
    )  # fmt: skip
    assert kernel is not None
    if centre:
        runtime.layer_norm(src, g, b, out, None, None, attrs)
    else:
        runtime.rms_norm(src, g, out, attrs)
    got = runtime.download(out)
    runtime.close()
    w = x.astype(np.float64)
    m = w.mean(-1, keepdims=True) if centre else np.zeros_like(w[..., :1])
    inv = 1 / np.sqrt(((w - m) ** 2).mean(-1, keepdims=True) + 1e-5)
    want = (w - m) * inv * scale + (bias if centre else 0)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
