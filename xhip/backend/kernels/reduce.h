// Reductions, normalizations, log-softmax and hardmax (float32), for
// xhip/backend/gpu_reduce.py. Each block reduces one output at a time
// (grid-stride over the outputs); its threads stride over the reduced
// elements, then combine through shared memory with __syncthreads: no
// warp-size assumption. blockDim.x must be a power of two; the dynamic shared
// memory each kernel needs is stated above it.

// The codes of `REDUCE_CODES` (gpu_reduce.py).
#define XHIP_REDUCE_SUM 0
#define XHIP_REDUCE_MEAN 1
#define XHIP_REDUCE_MAX 2
#define XHIP_REDUCE_MIN 3
#define XHIP_REDUCE_PROD 4
#define XHIP_REDUCE_L1 5
#define XHIP_REDUCE_L2 6
#define XHIP_REDUCE_LOG_SUM_EXP 7
#define XHIP_REDUCE_SUM_SQUARE 8

// max and min that keep a NaN, as numpy's maximum / minimum do.
__device__ inline float xhip_max_nan(float a, float b) {
  return (a != a || a > b) ? a : b;
}
__device__ inline float xhip_min_nan(float a, float b) {
  return (a != a || a < b) ? a : b;
}

// How two partial results combine: 0 add, 1 max, 2 min, 3 multiply.
__device__ inline float xhip_combine(int how, float a, float b) {
  switch (how) {
    case 1: return xhip_max_nan(a, b);
    case 2: return xhip_min_nan(a, b);
    case 3: return a * b;
    default: return a + b;
  }
}

// Every thread's `value` combined over the block; all threads get the result.
// `scratch`: blockDim.x floats; ends with a barrier, so it may be reused.
__device__ inline float xhip_block_reduce(int how, float value, float* scratch) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      scratch[threadIdx.x] =
          xhip_combine(how, scratch[threadIdx.x], scratch[threadIdx.x + s]);
    __syncthreads();
  }
  float result = scratch[0];
  __syncthreads();
  return result;
}

// out[o] = reduction `kind` of x over the reduced dims, for each of the
// `outputs` kept positions o. meta: kept_shape[kept], kept_strides[kept] (of
// x), out_strides[kept], red_shape[red], red_strides[red] (of x); n = the
// product of red_shape. An empty reduction gives the kind's identity.
// Dynamic shared memory: blockDim.x floats.
extern "C" __global__ void xhip_reduce_f32(int kind, const float* x, float* y,
                                           int kept, int red,
                                           const xhip_index* meta,
                                           xhip_index outputs, xhip_index n) {
  extern __shared__ float xhip_reduce_scratch[];
  const xhip_index* kept_shape = meta;
  const xhip_index* red_shape = meta + 3 * kept;
  const float inf = __int_as_float(0x7f800000);
  int how = kind == XHIP_REDUCE_MAX   ? 1
            : kind == XHIP_REDUCE_MIN ? 2
            : kind == XHIP_REDUCE_PROD ? 3
                                       : 0;
  float identity = how == 1 ? -inf : how == 2 ? inf : how == 3 ? 1.0f : 0.0f;
  for (xhip_index o = blockIdx.x; o < outputs; o += gridDim.x) {
    const float* base = x + xhip_offset(o, kept, kept_shape, meta + kept);
    float shift = 0.0f;
    if (kind == XHIP_REDUCE_LOG_SUM_EXP) {
      float peak = -inf;
      for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
        peak = xhip_max_nan(peak, base[xhip_offset(j, red, red_shape, red_shape + red)]);
      peak = xhip_block_reduce(1, peak, xhip_reduce_scratch);
      // An infinite or NaN peak is the result itself (exp would give NaN);
      // the same in every thread, so the block leaves the row together.
      if (!(peak - peak == 0.0f)) {
        if (threadIdx.x == 0) y[xhip_offset(o, kept, kept_shape, meta + 2 * kept)] = peak;
        continue;
      }
      shift = peak;
    }
    float acc = identity;
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      float v = base[xhip_offset(j, red, red_shape, red_shape + red)];
      switch (kind) {
        case XHIP_REDUCE_L1: v = fabsf(v); break;
        case XHIP_REDUCE_L2:
        case XHIP_REDUCE_SUM_SQUARE: v = v * v; break;
        case XHIP_REDUCE_LOG_SUM_EXP: v = expf(v - shift); break;
        default: break;
      }
      acc = xhip_combine(how, acc, v);
    }
    acc = xhip_block_reduce(how, acc, xhip_reduce_scratch);
    if (threadIdx.x == 0) {
      if (kind == XHIP_REDUCE_MEAN) acc = acc / (float)n;  // 0 / 0: NaN
      if (kind == XHIP_REDUCE_L2) acc = sqrtf(acc);
      if (kind == XHIP_REDUCE_LOG_SUM_EXP) acc = logf(acc) + shift;
      y[xhip_offset(o, kept, kept_shape, meta + 2 * kept)] = acc;
    }
  }
}

// Whether (a, ia) beats (b, ib) for argmax (find_max) or argmin: NaN beats
// any number; ties go to the lower index, or the higher one under `last`.
__device__ inline bool xhip_arg_better(int find_max, int last, float a,
                                       xhip_index ia, float b, xhip_index ib) {
  if (ib < 0) return ia >= 0;
  if (ia < 0) return false;
  bool a_nan = a != a, b_nan = b != b;
  if (a_nan != b_nan) return a_nan;
  if (!a_nan && a != b) return find_max ? a > b : a < b;
  return last ? ia > ib : ia < ib;
}

// y[o] (int64) = index along the reduced axis (length n, stride `stride` in
// x) of the largest (find_max) or smallest element. meta: kept_shape[kept],
// kept_strides[kept] (of x), out_strides[kept]. An empty axis gives 0.
// Dynamic shared memory: blockDim.x int64 then blockDim.x floats.
extern "C" __global__ void xhip_arg_reduce_f32(int find_max, int last,
                                               const float* x, xhip_index* y,
                                               int kept, const xhip_index* meta,
                                               xhip_index outputs, xhip_index n,
                                               xhip_index stride) {
  extern __shared__ xhip_index xhip_arg_scratch[];
  xhip_index* indices = xhip_arg_scratch;
  float* values = (float*)(xhip_arg_scratch + blockDim.x);
  for (xhip_index o = blockIdx.x; o < outputs; o += gridDim.x) {
    const float* base = x + xhip_offset(o, kept, meta, meta + kept);
    float best = 0.0f;
    xhip_index at = -1;
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      float v = base[j * stride];
      if (xhip_arg_better(find_max, last, v, j, best, at)) {
        best = v;
        at = j;
      }
    }
    indices[threadIdx.x] = at;
    values[threadIdx.x] = best;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s &&
          xhip_arg_better(find_max, last, values[threadIdx.x + s],
                          indices[threadIdx.x + s], values[threadIdx.x],
                          indices[threadIdx.x])) {
        values[threadIdx.x] = values[threadIdx.x + s];
        indices[threadIdx.x] = indices[threadIdx.x + s];
      }
      __syncthreads();
    }
    if (threadIdx.x == 0)
      y[xhip_offset(o, kept, meta, meta + 2 * kept)] = indices[0] < 0 ? 0 : indices[0];
    __syncthreads();
  }
}

// Layer normalization (rms == 0) or RMS normalization (rms != 0) of `rows`
// contiguous rows of length n: y = (x - mean) * inv_std * scale + bias, with
// inv_std = 1 / sqrt(mean((x - mean)^2) + epsilon) (RMS: no mean, no bias).
// scale (and bias, nullable) are contiguous rows of length n; mean and
// inv_std (nullable) get one value per row; epsilon comes as its float bits
// (the launcher passes integers and pointers only). Two sweeps over each row: the
// mean first, then the squared deviations from it (exact where one sweep of
// sums and sums of squares cancels).
// Dynamic shared memory: blockDim.x floats.
extern "C" __global__ void xhip_layer_norm_f32(const float* x, const float* scale,
                                               const float* bias, float* y,
                                               float* mean, float* inv_std,
                                               xhip_index rows, xhip_index n,
                                               int epsilon_bits, int rms) {
  extern __shared__ float xhip_norm_scratch[];
  const float epsilon = __int_as_float(epsilon_bits);
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* in = x + row * n;
    float* out = y + row * n;
    float centre = 0.0f;
    if (!rms) {
      float total = 0.0f;
      for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) total += in[j];
      centre = xhip_block_reduce(0, total, xhip_norm_scratch) / (float)n;
    }
    float squares = 0.0f;
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      float d = in[j] - centre;
      squares += d * d;
    }
    float var = xhip_block_reduce(0, squares, xhip_norm_scratch) / (float)n;
    float inv = 1.0f / sqrtf(var + epsilon);
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      float v = (in[j] - centre) * inv * scale[j];
      out[j] = bias ? v + bias[j] : v;
    }
    if (threadIdx.x == 0) {
      if (mean) mean[row] = centre;
      if (inv_std) inv_std[row] = inv;
    }
  }
}

// Log-softmax (hard == 0) or hardmax (hard != 0) of `rows` contiguous rows of
// length n; one block per row. Log-softmax: x - max - log(sum(exp(x - max))).
// Hardmax: 1 at the first largest element (a NaN counts as the largest), 0
// elsewhere. Dynamic shared memory: blockDim.x int64 then blockDim.x floats.
extern "C" __global__ void xhip_softmax_kind_rows_f32(int hard, const float* x,
                                                      float* y, xhip_index rows,
                                                      xhip_index n) {
  extern __shared__ xhip_index xhip_kind_scratch[];
  float* values = (float*)(xhip_kind_scratch + blockDim.x);
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* in = x + row * n;
    float* out = y + row * n;
    if (hard) {
      float best = 0.0f;
      xhip_index at = -1;
      for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
        if (xhip_arg_better(1, 0, in[j], j, best, at)) {
          best = in[j];
          at = j;
        }
      xhip_kind_scratch[threadIdx.x] = at;
      values[threadIdx.x] = best;
      __syncthreads();
      for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s &&
            xhip_arg_better(1, 0, values[threadIdx.x + s],
                            xhip_kind_scratch[threadIdx.x + s],
                            values[threadIdx.x], xhip_kind_scratch[threadIdx.x])) {
          values[threadIdx.x] = values[threadIdx.x + s];
          xhip_kind_scratch[threadIdx.x] = xhip_kind_scratch[threadIdx.x + s];
        }
        __syncthreads();
      }
      xhip_index winner = xhip_kind_scratch[0];
      __syncthreads();
      for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
        out[j] = j == winner ? 1.0f : 0.0f;
      continue;
    }
    float peak = -__int_as_float(0x7f800000);
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      peak = xhip_max_nan(peak, in[j]);
    peak = xhip_block_reduce(1, peak, values);
    float total = 0.0f;
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      total += expf(in[j] - peak);
    float offset = peak + logf(xhip_block_reduce(0, total, values));
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) out[j] = in[j] - offset;
  }
}
