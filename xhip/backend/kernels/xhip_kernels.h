// xhip device kernels: one source for hiprtc (AMD) and NVRTC (NVIDIA).
// This file comes first; each other kernels/*.h (one family of ops) follows
// it, by name, in the one source that gpu.kernel_source() compiles.
//
// Only what no library call covers: strided elementwise ops with numpy
// broadcasting, elementwise functions (relu, exp, ...), strided copies
// (transpose / permute), casts, and row softmax. The elementwise kernels,
// one per family and element type, are generated from the hip dialect's
// formulas (xhip/backend/elementwise.py, kernels/elementwise.inc).
// Plain C++ that both compilers accept: no warp-size assumption (reductions
// go through shared memory with __syncthreads), no intrinsics, no headers.
//
// Strided kernels take `meta`, a device array of 64-bit integers:
//   shape[rank], out_strides[rank], a_strides[rank], (b_strides[rank])
// strides in elements; a broadcast dim has stride 0.

#define XHIP_MAX_RANK 8

typedef long long xhip_index;

__device__ inline xhip_index xhip_offset(xhip_index linear, int rank,
                                         const xhip_index* shape,
                                         const xhip_index* strides) {
  xhip_index offset = 0;
  for (int d = rank - 1; d >= 0; --d) {
    xhip_index size = shape[d];
    offset += (linear % size) * strides[d];
    linear /= size;
  }
  return offset;
}

// @XHIP_ELEMENTWISE_OPS@ the typed elementwise, copy and cast kernels: see gpu.kernel_source

// Softmax of `rows` contiguous rows of length n, each element times *scale
// first when `scale` is not null (a scalar mul folded in by
// hip-fuse-scaled-softmax); one block per row.
// Dynamic shared memory: blockDim.x floats; blockDim.x a power of two.
extern "C" __global__ void xhip_softmax_rows_f32(const float* x, float* y,
                                                 const float* scale,
                                                 xhip_index rows,
                                                 xhip_index n) {
  extern __shared__ float scratch[];
  const float factor = scale ? *scale : 1.0f;
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* in = x + row * n;
    float* out = y + row * n;

    float peak = -__int_as_float(0x7f800000);  // -inf
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      peak = fmaxf(peak, in[j] * factor);
    scratch[threadIdx.x] = peak;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s)
        scratch[threadIdx.x] = fmaxf(scratch[threadIdx.x], scratch[threadIdx.x + s]);
      __syncthreads();
    }
    peak = scratch[0];
    __syncthreads();

    float total = 0.0f;
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      float e = expf(in[j] * factor - peak);
      out[j] = e;
      total += e;
    }
    scratch[threadIdx.x] = total;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) scratch[threadIdx.x] += scratch[threadIdx.x + s];
      __syncthreads();
    }
    float inverse = 1.0f / scratch[0];
    __syncthreads();

    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) out[j] *= inverse;
  }
}
