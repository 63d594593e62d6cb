"""The emulator itself, on kernels of its own: barriers are real, shared memory
is per block, shuffles and votes follow CUDA at warp size 32 and 64, atomics,
math, launch checks, and the errors a GPU would not report this clearly."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from tests.pytest.emulator.conftest import emulate
from xhip.testing.emulator import EmulatedKernels, EmulatorError, Guarded, kernel_names

pytestmark = pytest.mark.emulator

PROBES = r"""
// Each thread reads its neighbour's value from shared memory.
extern "C" __global__ void rotate(const int* in, int* out, int use_barrier) {
  __shared__ int tile[1024];
  unsigned t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  if (use_barrier) __syncthreads();
  out[blockIdx.x * blockDim.x + t] = tile[(t + 1) % blockDim.x];
}

// What shared memory holds when a block starts, and that it is the block's own.
extern "C" __global__ void per_block(int* before, int* after, int* counts) {
  __shared__ int value;
  __shared__ int count;
  extern __shared__ float dyn[];
  if (threadIdx.x == 0) {
    before[blockIdx.x] = value;
    before[gridDim.x + blockIdx.x] = __float_as_int(dyn[0]);
    value = blockIdx.x;
    count = 0;
    dyn[0] = (float)blockIdx.x;
  }
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  if (threadIdx.x == blockDim.x - 1) {
    after[blockIdx.x] = value;
    after[gridDim.x + blockIdx.x] = (int)dyn[0];
    counts[blockIdx.x] = count;
  }
}

// A tree reduction: log2(blockDim.x) rounds of barriers.
extern "C" __global__ void block_sum(const float* in, float* out, int* votes) {
  extern __shared__ float part[];
  unsigned t = threadIdx.x;
  part[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  int odd = __syncthreads_count(t & 1);
  int any = __syncthreads_or(t == 3);
  int all = __syncthreads_and(t < 100000);
  if (t == 0) {
    out[blockIdx.x] = part[0];
    votes[3 * blockIdx.x] = odd;
    votes[3 * blockIdx.x + 1] = any;
    votes[3 * blockIdx.x + 2] = all;
  }
}

extern "C" __global__ void shuffles(int* out, long long* votes, float* sums,
                                    int delta, int src, int lane_mask, int width) {
  const unsigned long long all = ~0ull;
  int t = threadIdx.x, n = blockDim.x;
  out[0 * n + t] = __shfl_down_sync(all, t, delta, width);
  out[1 * n + t] = __shfl_up_sync(all, t, delta, width);
  out[2 * n + t] = __shfl_xor_sync(all, t, lane_mask, width);
  out[3 * n + t] = __shfl_sync(all, t, src, width);
  out[4 * n + t] = warpSize;
  out[5 * n + t] = __lane_id();
  out[6 * n + t] = __shfl_down(t, delta);
  votes[3 * t] = (long long)__ballot_sync(all, t % 3 == 0);
  votes[3 * t + 1] = __any_sync(all, t == 5);
  votes[3 * t + 2] = __all_sync(all, t >= 0);
  float v = (float)t;
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(all, v, offset);
  sums[t] = v;
  double d = __shfl_sync(all, 0.5 + t, 0);
  sums[n + t] = (float)d;
}

// CUDA code's 32-bit mask, which names only half of a 64-wide warp.
extern "C" __global__ void cuda_mask(float* out) {
  out[threadIdx.x] = __shfl_down_sync(0xffffffffu, 1.0f, 1);
}

extern "C" __global__ void early_exit(float* out) {
  if (threadIdx.x >= 5) return;
  __syncthreads();
  out[threadIdx.x] = 1.0f;
}

extern "C" __global__ void atomics(unsigned* counter, float* total, int* extremes,
                                   int* first, unsigned* tickets) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  tickets[g] = atomicAdd(counter, 1u);
  atomicAdd(total, 0.5f);
  atomicMax(&extremes[0], (g * 37) % 101);
  atomicMin(&extremes[1], (g * 37) % 101 - 50);
  atomicOr(&extremes[2], 1 << (g % 31));
  atomicCAS(first, -1, g);
}

extern "C" __global__ void where(unsigned* out) {
  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned* o = out + 6 * (b * blockDim.x * blockDim.y * blockDim.z + t);
  o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;
  o[3] = blockIdx.x; o[4] = blockIdx.y; o[5] = blockIdx.z;
}

extern "C" __global__ void math(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float* o = out + 8 * i;
  o[0] = expf(v);
  o[1] = tanhf(v);
  o[2] = powf(fabsf(v), 1.5f);
  o[3] = fmaxf(v, 0.25f);
  o[4] = erff(v);
  o[5] = __int_as_float(__float_as_int(v) ^ (int)0x80000000);
  o[6] = v > 0.0f ? INFINITY : -INFINITY;
  o[7] = rsqrtf(fabsf(v) + 1.0f);
}

extern "C" __global__ void overrun(float* out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x + 1] = 1.0f;
  out[threadIdx.x] = dyn[threadIdx.x];
}
"""

WARPS = (32, 64)


@pytest.fixture(scope="module")
def probes() -> EmulatedKernels:
    return emulate(PROBES, "probes.cu")


def test_build_has_no_warnings(
    probes: EmulatedKernels, emulated: EmulatedKernels
) -> None:
    """Our header and entry points, and xhip's kernels, are -Wall -Wextra clean."""
    assert probes.build_log == ""
    assert emulated.build_log == ""


def test_library_is_cached(probes: EmulatedKernels) -> None:
    mtime = os.stat(probes.library_path).st_mtime_ns
    again = EmulatedKernels(PROBES, "probes.cu")
    assert again.library_path == probes.library_path
    assert os.stat(again.library_path).st_mtime_ns == mtime


def test_kernel_names_come_from_the_source_not_its_comments() -> None:
    source = "// __global__ void old(int x)\n" + PROBES + "/* __global__ void gone() */"
    assert kernel_names(source) == [
        "rotate",
        "per_block",
        "block_sum",
        "shuffles",
        "cuda_mask",
        "early_exit",
        "atomics",
        "where",
        "math",
        "overrun",
    ]


@pytest.mark.parametrize("order", ["forward", "reverse", "shuffle"])
@pytest.mark.parametrize("block", [1, 7, 256, 1024])
def test_syncthreads_is_a_real_barrier(
    probes: EmulatedKernels, block: int, order: str
) -> None:
    grid = 3
    data = np.arange(grid * block, dtype=np.int32)
    out = np.zeros_like(data)
    args = [("ptr", data.ctypes.data), ("ptr", out.ctypes.data), ("i32", 1)]
    probes.launch("rotate", grid, block, 0, args, order=order)
    want = np.roll(data.reshape(grid, block), -1, axis=1).ravel()
    np.testing.assert_array_equal(out, want)


def test_a_missing_barrier_shows(probes: EmulatedKernels) -> None:
    """Without the barrier a thread reads a slot before its owner writes it:
    the emulator's poison (-1), in every thread order (forward: all but the
    last thread; reverse: the last thread, whose neighbour is thread 0)."""
    data = np.arange(64, dtype=np.int32)
    poisoned = {}
    for order in ("forward", "reverse", "shuffle"):
        out = np.zeros_like(data)
        args = [("ptr", data.ctypes.data), ("ptr", out.ctypes.data), ("i32", 0)]
        probes.launch("rotate", 1, 64, 0, args, order=order)
        poisoned[order] = np.flatnonzero(out == -1).tolist()
        assert poisoned[order], order
    assert poisoned["forward"] == list(range(63))
    assert poisoned["reverse"] == [63]


def test_shared_memory_is_per_block_and_starts_poisoned(
    probes: EmulatedKernels,
) -> None:
    grid, block = 5, 96
    before = np.zeros(2 * grid, np.int32)
    after = np.zeros(2 * grid, np.int32)
    counts = np.zeros(grid, np.int32)
    args = [("ptr", x.ctypes.data) for x in (before, after, counts)]
    probes.launch("per_block", grid, block, 4, args)
    # Every block, not just the first, sees uninitialised (poisoned) memory.
    np.testing.assert_array_equal(before, -1)
    np.testing.assert_array_equal(after, np.tile(np.arange(grid), 2))
    np.testing.assert_array_equal(counts, block)


@pytest.mark.parametrize("order", ["forward", "reverse"])
@pytest.mark.parametrize("block", [1, 2, 64, 1024])
def test_tree_reduction_over_many_barriers(
    probes: EmulatedKernels, block: int, order: str
) -> None:
    grid = 4
    data = (
        np.random.default_rng(block).integers(-50, 50, grid * block).astype(np.float32)
    )
    sums = np.zeros(grid, np.float32)
    votes = np.zeros(3 * grid, np.int32)
    args = [
        ("ptr", data.ctypes.data),
        ("ptr", sums.ctypes.data),
        ("ptr", votes.ctypes.data),
    ]
    probes.launch("block_sum", grid, block, 4 * block, args, order=order)
    np.testing.assert_array_equal(sums, data.reshape(grid, block).sum(axis=1))
    want = [block // 2, int(block > 3), 1] * grid
    np.testing.assert_array_equal(votes, want)


def _expected_shuffles(
    block: int, warp: int, delta: int, src: int, lane_mask: int, width: int
) -> np.ndarray:
    """CUDA's shuffle semantics, lane by lane; -1 where the source lane does not exist."""
    out = np.zeros((7, block), np.int64)
    for t in range(block):
        lane, base = t % warp, t - t % warp
        lanes = min(warp, block - base)

        def value(
            source_lane: int, t: int = t, lanes: int = lanes, base: int = base
        ) -> int:
            if source_lane == t - base:
                return t
            return base + source_lane if source_lane < lanes else -1

        segment = lane // width * width
        down = lane if lane % width + delta >= width else lane + delta
        up = lane if lane % width < delta else lane - delta
        xor = lane ^ lane_mask
        xor = lane if xor >= segment + width else xor
        full_down = lane if lane + delta >= warp else lane + delta
        out[:, t] = [
            value(down),
            value(up),
            value(xor),
            value(segment + src % width),
            warp,
            lane,
            value(full_down),
        ]
    return out


@pytest.mark.parametrize("warp", WARPS)
@pytest.mark.parametrize("block", [64, 128, 96, 77])
@pytest.mark.parametrize(
    "delta,src,lane_mask,width",
    [(1, 0, 1, 32), (3, 5, 6, 8), (16, 31, 16, 16), (5, 2, 9, 4)],
)
def test_warp_shuffles_and_votes(
    probes: EmulatedKernels,
    warp: int,
    block: int,
    delta: int,
    src: int,
    lane_mask: int,
    width: int,
) -> None:
    if warp == 64 and width == 32:
        width = 64
    out = np.zeros(7 * block, np.int32)
    votes = np.zeros(3 * block, np.int64)
    sums = np.zeros(2 * block, np.float32)
    args = [
        ("ptr", out.ctypes.data),
        ("ptr", votes.ctypes.data),
        ("ptr", sums.ctypes.data),
        ("i32", delta),
        ("i32", src),
        ("i32", lane_mask),
        ("i32", width),
    ]
    probes.launch("shuffles", 1, block, 0, args, warp_size=warp)
    want = _expected_shuffles(block, warp, delta, src, lane_mask, width)
    np.testing.assert_array_equal(out.reshape(7, block), want)

    ballots, anys, alls = votes.reshape(block, 3).T
    for t in range(block):
        base = t - t % warp
        lanes = min(warp, block - base)
        bits = sum(1 << lane for lane in range(lanes) if (base + lane) % 3 == 0)
        assert ballots[t] == np.int64(np.uint64(bits).astype(np.int64))
        assert anys[t] == int(base <= 5 < base + lanes)
        assert alls[t] == 1
        # The butterfly sum needs every lane: a partial warp reads poison (NaN).
        full = sum(range(base, base + warp))
        if lanes == warp:
            assert sums[t] == full
        else:
            assert np.isnan(sums[t])
        assert sums[block + t] == 0.5 + base  # a double, broadcast from lane 0


def test_a_32_bit_mask_on_a_64_wide_warp_is_refused(probes: EmulatedKernels) -> None:
    out = np.zeros(64, np.float32)
    probes.launch("cuda_mask", 1, 64, 0, [("ptr", out.ctypes.data)], warp_size=32)
    assert out.tolist() == [1.0] * 64  # lane 31 of each warp keeps its own value
    with pytest.raises(EmulatorError, match="does not name the calling lane 32"):
        probes.launch("cuda_mask", 1, 64, 0, [("ptr", out.ctypes.data)], warp_size=64)


def test_a_barrier_not_every_thread_reaches_is_a_deadlock(
    probes: EmulatedKernels,
) -> None:
    out = np.zeros(32, np.float32)
    with pytest.raises(
        EmulatorError, match="deadlock: 5 threads wait at __syncthreads"
    ):
        probes.launch("early_exit", 1, 32, 0, [("ptr", out.ctypes.data)])
    # The emulator's state is whole again afterwards.
    test_syncthreads_is_a_real_barrier(probes, 32, "forward")


@pytest.mark.parametrize("order", ["forward", "reverse"])
def test_atomics(probes: EmulatedKernels, order: str) -> None:
    grid, block = 6, 50
    n = grid * block
    counter = np.zeros(1, np.uint32)
    total = np.zeros(1, np.float32)
    extremes = np.array([-1000, 1000, 0], np.int32)
    first = np.array([-1], np.int32)
    tickets = np.zeros(n, np.uint32)
    arrays = (counter, total, extremes, first, tickets)
    probes.launch(
        "atomics", grid, block, 0, [("ptr", x.ctypes.data) for x in arrays], order=order
    )
    assert counter[0] == n and total[0] == n / 2
    np.testing.assert_array_equal(np.sort(tickets), np.arange(n))
    values = np.arange(n) * 37 % 101
    assert extremes.tolist() == [values.max(), values.min() - 50, (1 << 31) - 1]
    assert first[0] == (0 if order == "forward" else block - 1)


@pytest.mark.parametrize("grid,block", [((2, 3, 2), (4, 2, 3)), ((5, 1, 1), (1, 1, 7))])
def test_multi_dimensional_indices(
    probes: EmulatedKernels, grid: tuple[int, ...], block: tuple[int, ...]
) -> None:
    total = math.prod(grid) * math.prod(block)
    out = np.zeros((total, 6), np.uint32)
    probes.launch("where", grid, block, 0, [("ptr", out.ctypes.data)])
    bz, by, bx, tz, ty, tx = np.meshgrid(
        *(
            np.arange(n)
            for n in (grid[2], grid[1], grid[0], block[2], block[1], block[0])
        ),
        indexing="ij",
    )
    want = np.stack([a.ravel() for a in (tx, ty, tz, bx, by, bz)], axis=1)
    np.testing.assert_array_equal(out, want)


def test_math_functions(probes: EmulatedKernels) -> None:
    n = 101
    x = np.random.default_rng(3).uniform(-4, 4, n).astype(np.float32)
    x[:3] = [0.0, -0.0, 1.0]
    out = np.zeros((n, 8), np.float32)
    args = [("ptr", x.ctypes.data), ("ptr", out.ctypes.data), ("i32", n)]
    probes.launch("math", 2, 64, 0, args)
    v = x.astype(np.float64)
    want = np.stack(
        [
            np.exp(v),
            np.tanh(v),
            np.abs(v) ** 1.5,
            np.maximum(v, 0.25),
            np.vectorize(math.erf)(v),
            -v,
            np.where(v > 0, np.inf, -np.inf),
            1 / np.sqrt(np.abs(v) + 1),
        ],
        axis=1,
    )
    np.testing.assert_allclose(out, want, rtol=2e-6, atol=1e-7)
    assert np.signbit(out[1, 5]) == np.False_  # -(-0.0)


def test_launch_checks(probes: EmulatedKernels) -> None:
    out = np.zeros(2048, np.float32)
    ptr = [("ptr", out.ctypes.data)]
    with pytest.raises(EmulatorError, match="invalid launch"):
        probes.launch("overrun", 1, 1025, 0, ptr)
    with pytest.raises(EmulatorError, match="invalid launch"):
        probes.launch("overrun", 0, 32, 0, ptr)
    with pytest.raises(EmulatorError, match="exceeds the 49152-byte limit"):
        probes.launch("overrun", 1, 32, 48 * 1024 + 4, ptr)
    with pytest.raises(EmulatorError, match="warp size 48"):
        probes.launch("overrun", 1, 32, 128, ptr, warp_size=48)
    with pytest.raises(TypeError, match="takes 1 arguments, got 2"):
        probes.launch("overrun", 1, 32, 128, [*ptr, ("i32", 1)])
    with pytest.raises(TypeError, match=r"argument 2 \(n\): a i32, got i64"):
        probes.launch("math", 1, 32, 0, [*ptr, *ptr, ("i64", 5)])
    with pytest.raises(OverflowError):
        probes.launch("math", 1, 32, 0, [*ptr, *ptr, ("i32", 1 << 31)])
    with pytest.raises(KeyError):
        probes.launch("nope", 1, 32, 0, ptr)


def test_writes_past_dynamic_shared_memory_are_caught(probes: EmulatedKernels) -> None:
    out = np.zeros(32, np.float32)
    probes.launch("overrun", 1, 32, 33 * 4, [("ptr", out.ctypes.data)])
    with pytest.raises(
        EmulatorError, match="wrote past the 128 bytes of dynamic shared"
    ):
        probes.launch("overrun", 1, 32, 32 * 4, [("ptr", out.ctypes.data)])


def test_guarded_catches_stray_writes(probes: EmulatedKernels) -> None:
    guarded = Guarded(np.zeros(31, np.float32))
    probes.launch("overrun", 1, 31, 32 * 4, [("ptr", guarded.address)])
    guarded.check()
    with pytest.raises(AssertionError, match="outside its array"):
        probes.launch("overrun", 1, 32, 33 * 4, [("ptr", guarded.address)])
        guarded.check()
