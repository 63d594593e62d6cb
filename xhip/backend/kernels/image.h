// Pad, group normalization and LRN, for xhip/backend/gpu_image.py. The
// reductions combine through shared memory with __syncthreads: no warp-size
// assumption; blockDim.x must be a power of two where a kernel reduces.

// The codes of `PAD_CODES` (gpu_image.py).
#define XHIP_PAD_CONSTANT 0
#define XHIP_PAD_REFLECT 1
#define XHIP_PAD_EDGE 2
#define XHIP_PAD_WRAP 3

// out = x padded, one thread per output element (grid-stride), any strides.
// meta: out_shape[rank], out_strides[rank], x_strides[rank], then per dim
// kept[rank] (the input length left after cropping by the negative pads),
// before[rank] (the positive begin pad) and lo[rank] (the crop at the begin).
// Output position o reads cropped position j = o - before, inside [0, kept)
// or else: constant mode writes *value (0 if value is null); edge clamps;
// wrap takes j mod kept; reflect folds j with period 2 (kept - 1).
template <typename T>
__device__ inline void xhip_pad(int mode, T* out, const T* x, int rank,
                                const xhip_index* meta, xhip_index n,
                                const T* value) {
  const xhip_index* shape = meta;
  const xhip_index* out_strides = meta + rank;
  const xhip_index* x_strides = meta + 2 * rank;
  const xhip_index* kept = meta + 3 * rank;
  const xhip_index* before = meta + 4 * rank;
  const xhip_index* lo = meta + 5 * rank;
  const T fill = value ? *value : (T)0;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index linear = i, at = 0, from = 0;
    bool inside = true;
    for (int d = rank - 1; d >= 0; --d) {
      xhip_index o = linear % shape[d];
      linear /= shape[d];
      at += o * out_strides[d];
      xhip_index m = kept[d];
      xhip_index j = o - before[d];
      if (j < 0 || j >= m) {
        if (mode == XHIP_PAD_CONSTANT) {
          inside = false;
          continue;
        }
        if (mode == XHIP_PAD_EDGE) {
          j = j < 0 ? 0 : m - 1;
        } else if (mode == XHIP_PAD_WRAP) {
          j %= m;
          if (j < 0) j += m;
        } else if (m == 1) {
          j = 0;
        } else {
          xhip_index period = 2 * (m - 1);
          j %= period;
          if (j < 0) j += period;
          if (j >= m) j = period - j;
        }
      }
      from += (lo[d] + j) * x_strides[d];
    }
    out[at] = inside ? x[from] : fill;
  }
}

// One kernel per element size: padding moves each element's bytes.
extern "C" __global__ void xhip_pad_1(int mode, unsigned char* out,
                                      const unsigned char* x, int rank,
                                      const xhip_index* meta, xhip_index n,
                                      const unsigned char* value) {
  xhip_pad(mode, out, x, rank, meta, n, value);
}
extern "C" __global__ void xhip_pad_2(int mode, unsigned short* out,
                                      const unsigned short* x, int rank,
                                      const xhip_index* meta, xhip_index n,
                                      const unsigned short* value) {
  xhip_pad(mode, out, x, rank, meta, n, value);
}
extern "C" __global__ void xhip_pad_4(int mode, unsigned int* out,
                                      const unsigned int* x, int rank,
                                      const xhip_index* meta, xhip_index n,
                                      const unsigned int* value) {
  xhip_pad(mode, out, x, rank, meta, n, value);
}
extern "C" __global__ void xhip_pad_8(int mode, unsigned long long* out,
                                      const unsigned long long* x, int rank,
                                      const xhip_index* meta, xhip_index n,
                                      const unsigned long long* value) {
  xhip_pad(mode, out, x, rank, meta, n, value);
}

// Welford statistics (count, mean, sum of squared deviations m2) of one set
// of elements merged with another's (Chan et al.), into the first.
__device__ inline void xhip_welford_merge(xhip_index* count, float* mean,
                                          float* m2, xhip_index other_count,
                                          float other_mean, float other_m2) {
  if (other_count == 0) return;
  xhip_index total = *count + other_count;
  float delta = other_mean - *mean;
  float share = (float)other_count / (float)total;
  *mean += delta * share;
  *m2 += other_m2 + delta * delta * (float)(*count) * share;
  *count = total;
}

// Group normalization of `rows` = N * groups dense runs of `channels` (C /
// groups) channels of `spatial` elements each, one block per run
// (grid-stride): y = (x - mean) * inv_std * scale[ch] + bias[ch], inv_std =
// 1 / sqrt(var + epsilon); ch is the channel, or the group under per_group.
// One read for the statistics (each thread's Welford, merged over the block),
// one to write. epsilon comes as its float bits.
// Dynamic shared memory: blockDim.x int64, then 2 * blockDim.x floats.
extern "C" __global__ void xhip_group_norm_f32(const float* x, const float* scale,
                                               const float* bias, float* y,
                                               xhip_index rows, xhip_index groups,
                                               xhip_index channels,
                                               xhip_index spatial,
                                               int epsilon_bits, int per_group) {
  extern __shared__ xhip_index xhip_group_scratch[];
  xhip_index* counts = xhip_group_scratch;
  float* means = (float*)(counts + blockDim.x);
  float* m2s = means + blockDim.x;
  const float epsilon = __int_as_float(epsilon_bits);
  const xhip_index length = channels * spatial;
  const unsigned t = threadIdx.x;
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* in = x + row * length;
    float* out = y + row * length;
    xhip_index count = 0;
    float mean = 0.0f, m2 = 0.0f;
    for (xhip_index j = t; j < length; j += blockDim.x) {
      float v = in[j];
      ++count;
      float delta = v - mean;
      mean += delta / (float)count;
      m2 += delta * (v - mean);
    }
    counts[t] = count;
    means[t] = mean;
    m2s[t] = m2;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (t < s) {
        xhip_index c = counts[t];
        float mu = means[t], q = m2s[t];
        xhip_welford_merge(&c, &mu, &q, counts[t + s], means[t + s], m2s[t + s]);
        counts[t] = c;
        means[t] = mu;
        m2s[t] = q;
      }
      __syncthreads();
    }
    const float centre = means[0];
    const float inv = 1.0f / sqrtf(m2s[0] / (float)length + epsilon);
    __syncthreads();
    const xhip_index group = row % groups;
    for (xhip_index j = t; j < length; j += blockDim.x) {
      xhip_index ch = per_group ? group : group * channels + j / spatial;
      out[j] = (in[j] - centre) * inv * scale[ch] + bias[ch];
    }
  }
}

// LRN of a dense (N, channels, spatial) x, one thread per element
// (grid-stride over n = N * channels * spatial): y = x / (bias + scale *
// sum)^beta, the sum of squares over channels c - (size - 1) / 2 to c +
// size / 2 inside [0, channels); scale is alpha / size. Floats come as bits.
extern "C" __global__ void xhip_lrn_f32(const float* x, float* y, xhip_index n,
                                        xhip_index channels, xhip_index spatial,
                                        int size, int scale_bits, int beta_bits,
                                        int bias_bits) {
  const float scale = __int_as_float(scale_bits);
  const float beta = __int_as_float(beta_bits);
  const float bias = __int_as_float(bias_bits);
  const xhip_index before = (size - 1) / 2, after = size / 2;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index c = (i / spatial) % channels;
    const float* column = x + (i - c * spatial);  // (image, channel 0, position)
    xhip_index lo = c - before < 0 ? 0 : c - before;
    xhip_index hi = c + after >= channels ? channels - 1 : c + after;
    float total = 0.0f;
    for (xhip_index k = lo; k <= hi; ++k) {
      float v = column[k * spatial];
      total += v * v;
    }
    y[i] = x[i] / powf(bias + scale * total, beta);
  }
}
