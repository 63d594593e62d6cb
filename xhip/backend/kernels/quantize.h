// Linear quantization and integer matmul, for xhip/backend/gpu_quantize.py.
// Grid-stride loops over the output, one element per thread (no warp-size
// assumption); types by `xhip_cast`'s codes (elementwise.ELEMENT_TYPES),
// read and written through its xhip_read / xhip_write.
//
// As in ONNX Runtime (and cpu_quantize.py), in float32: quantize is
// rintf(x / scale) + zero (ties to even), clamped to the type's [lo, hi];
// dequantize is (float)(int32 x - int32 zero) * scale.
//
// Scale layout (cpu_quantize.ScaleLayout): element i of x (row-major) takes
// the scale at o * so + (a / block) * sa + r * sr with r = i % inner,
// a = (i / inner) % len, o = i / (inner * len); the scale and zero point are
// dense.

__device__ inline xhip_index xhip_quant_at(xhip_index i, xhip_index inner,
                                           xhip_index len, xhip_index block,
                                           xhip_index so, xhip_index sa,
                                           xhip_index sr) {
  xhip_index r = i % inner, a = (i / inner) % len, o = i / (inner * len);
  return o * so + (a / block) * sa + r * sr;
}

__device__ inline long long xhip_quant_int(xhip_any v) {
  return v.kind == 1 ? v.i : (long long)v.u;
}

// y (integer type y_type) = quantized x (float type x_type); meta: shape,
// y strides, x strides (strided_meta).
extern "C" __global__ void xhip_quantize_linear(
    int x_type, int y_type, void* y, const void* x, int rank,
    const xhip_index* meta, xhip_index n, const void* scale, const void* zero,
    xhip_index inner, xhip_index len, xhip_index block, xhip_index so,
    xhip_index sa, xhip_index sr, int lo, int hi) {
  const xhip_index* shape = meta;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index s = xhip_quant_at(i, inner, len, block, so, sa, sr);
    float v = (float)xhip_read(x_type, x, xhip_offset(i, rank, shape, meta + 2 * rank)).f;
    float d = (float)xhip_read(x_type, scale, s).f;
    float z = (float)xhip_quant_int(xhip_read(y_type, zero, s));
    float q = rintf(v / d) + z;
    q = q < (float)lo ? (float)lo : q > (float)hi ? (float)hi : q;  // NaN: 0
    xhip_any w;
    w.kind = 1;
    w.f = 0.0;
    w.i = q == q ? (long long)q : 0;
    w.u = 0;
    xhip_write(y_type, y, xhip_offset(i, rank, shape, meta + rank), w);
  }
}

// y (float type y_type, the scale's) = dequantized x (integer type x_type).
extern "C" __global__ void xhip_dequantize_linear(
    int x_type, int y_type, void* y, const void* x, int rank,
    const xhip_index* meta, xhip_index n, const void* scale, const void* zero,
    xhip_index inner, xhip_index len, xhip_index block, xhip_index so,
    xhip_index sa, xhip_index sr) {
  const xhip_index* shape = meta;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index s = xhip_quant_at(i, inner, len, block, so, sa, sr);
    long long v = xhip_quant_int(
        xhip_read(x_type, x, xhip_offset(i, rank, shape, meta + 2 * rank)));
    long long z = xhip_quant_int(xhip_read(x_type, zero, s));
    int diff = (int)((unsigned int)v - (unsigned int)z);  // int32, wrapping
    float d = (float)xhip_read(y_type, scale, s).f;
    xhip_any w;
    w.kind = 0;
    w.f = (double)((float)diff * d);
    w.i = 0;
    w.u = 0;
    xhip_write(y_type, y, xhip_offset(i, rank, shape, meta + rank), w);
  }
}

// DynamicQuantizeLinear's parameters, as ONNX Runtime computes them: one
// block (blockDim.x a power of two) finds x's min and max (meta: shape, x
// strides), widens them to hold 0 and writes scale = (max - min) / 255 (1
// when equal) and zero = rint(clamp(0 - min / scale, 0, 255)). Dynamic
// shared memory: 2 * blockDim.x floats.
extern "C" __global__ void xhip_dynamic_quantize_params(
    const float* x, int rank, const xhip_index* meta, xhip_index n,
    float* scale, unsigned char* zero) {
  extern __shared__ float xhip_dq_scratch[];
  float* lo = xhip_dq_scratch;
  float* hi = xhip_dq_scratch + blockDim.x;
  float mn = 0.0f, mx = 0.0f;
  for (xhip_index i = threadIdx.x; i < n; i += blockDim.x) {
    float v = x[xhip_offset(i, rank, meta, meta + rank)];
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
  }
  lo[threadIdx.x] = mn;
  hi[threadIdx.x] = mx;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      float a = lo[threadIdx.x + s], b = hi[threadIdx.x + s];
      if (a < lo[threadIdx.x]) lo[threadIdx.x] = a;
      if (b > hi[threadIdx.x]) hi[threadIdx.x] = b;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    float a = lo[0], b = hi[0];
    float sc = a == b ? 1.0f : (b - a) / 255.0f;
    float start = 0.0f - a / sc;
    start = start < 0.0f ? 0.0f : start > 255.0f ? 255.0f : start;
    *scale = sc;
    *zero = (unsigned char)rintf(start);
  }
}

// out (int32) = (a - a_zero) @ (b - b_zero), 8-bit operands (signed when
// a_signed / b_signed), accumulated in int32 (wrapping). One output element
// per thread; meta: shape and strides of out, then for each of a, b,
// a_zero, b_zero its strides seen from out's shape: a's row (stride 0 along
// N), b's column (0 along M), the zero points' (0 where they do not vary).
// a_k, b_k: the strides along the contracted dim, k its length.
__device__ inline int xhip_int8_at(int is_signed, const void* p, xhip_index k) {
  return is_signed ? (int)((const signed char*)p)[k]
                   : (int)((const unsigned char*)p)[k];
}

extern "C" __global__ void xhip_matmul_integer(
    int a_signed, int b_signed, int* out, const void* a, const void* b,
    const void* a_zero, const void* b_zero, int rank, const xhip_index* meta,
    xhip_index n, xhip_index k, xhip_index a_k, xhip_index b_k) {
  const xhip_index* shape = meta;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index ao = xhip_offset(i, rank, shape, meta + 2 * rank);
    xhip_index bo = xhip_offset(i, rank, shape, meta + 3 * rank);
    int az = xhip_int8_at(a_signed, a_zero, xhip_offset(i, rank, shape, meta + 4 * rank));
    int bz = xhip_int8_at(b_signed, b_zero, xhip_offset(i, rank, shape, meta + 5 * rank));
    unsigned int acc = 0;
    for (xhip_index j = 0; j < k; ++j) {
      int x = xhip_int8_at(a_signed, a, ao + j * a_k) - az;
      int w = xhip_int8_at(b_signed, b, bo + j * b_k) - bz;
      acc += (unsigned int)(x * w);
    }
    out[xhip_offset(i, rank, shape, meta + rank)] = (int)acc;
  }
}
