// xhip device kernels: one source for hiprtc (AMD) and NVRTC (NVIDIA).
//
// Only what no library call covers: strided elementwise ops with numpy
// broadcasting, elementwise functions (relu, exp, ...), strided copies
// (transpose / permute), and row softmax.
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

// op: 0 add, 1 sub, 2 mul, 3 div, 4 pow
extern "C" __global__ void xhip_binary_f32(int op, float* out, const float* a,
                                           const float* b, int rank,
                                           const xhip_index* meta,
                                           xhip_index n) {
  const xhip_index* shape = meta;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    float x = a[xhip_offset(i, rank, shape, meta + 2 * rank)];
    float y = b[xhip_offset(i, rank, shape, meta + 3 * rank)];
    float r;
    switch (op) {
      case 0: r = x + y; break;
      case 1: r = x - y; break;
      case 2: r = x * y; break;
      case 3: r = x / y; break;
      default: r = powf(x, y); break;
    }
    out[xhip_offset(i, rank, shape, meta + rank)] = r;
  }
}

// op: 0 copy (also transpose / permute: src strides come permuted), 1 relu,
//     2 exp, 3 neg, 4 sigmoid, 5 sqrt, 6 tanh
extern "C" __global__ void xhip_unary_f32(int op, float* out, const float* src,
                                          int rank, const xhip_index* meta,
                                          xhip_index n) {
  const xhip_index* shape = meta;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    float x = src[xhip_offset(i, rank, shape, meta + 2 * rank)];
    float r;
    switch (op) {
      case 1: r = (x > 0.0f || x != x) ? x : 0.0f; break;  // keep NaN, like numpy
      case 2: r = expf(x); break;
      case 3: r = -x; break;
      case 4: r = 1.0f / (1.0f + expf(-x)); break;
      case 5: r = sqrtf(x); break;
      case 6: r = tanhf(x); break;
      default: r = x; break;
    }
    out[xhip_offset(i, rank, shape, meta + rank)] = r;
  }
}

// Softmax of `rows` contiguous rows of length n; one block per row.
// Dynamic shared memory: blockDim.x floats; blockDim.x a power of two.
extern "C" __global__ void xhip_softmax_rows_f32(const float* x, float* y,
                                                 xhip_index rows,
                                                 xhip_index n) {
  extern __shared__ float scratch[];
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* in = x + row * n;
    float* out = y + row * n;

    float peak = -__int_as_float(0x7f800000);  // -inf
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      peak = fmaxf(peak, in[j]);
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
      float e = expf(in[j] - peak);
      out[j] = e;
      total += e;
    }
    scratch[threadIdx.x] = total;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) scratch[threadIdx.x] += scratch[threadIdx.x + s];
      __syncthreads();
    }
    float scale = 1.0f / scratch[0];
    __syncthreads();

    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) out[j] *= scale;
  }
}
