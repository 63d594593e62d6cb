// GroupQueryAttention's own pieces, for xhip/backend/gpu_gqa.py: the
// positions of a step and its KV cache. The attention around them is
// attention.h's; both kernels are one thread per output element.

// positions[b, s] = past + s and lengths[b] = past + S, past = 0 on the
// `first` prompt, else seqlens[b] + 1 - S. meta: B, S, seqlens' stride,
// positions' two, lengths' one.
extern "C" __global__ void xhip_gqa_positions(
    const int* seqlens, long long* positions, long long* lengths,
    const xhip_index* meta, int first) {
  const xhip_index seq = meta[1];
  const xhip_index n = meta[0] * seq;
  for (xhip_index e = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; e < n;
       e += (xhip_index)gridDim.x * blockDim.x) {
    const xhip_index b = e / seq, s = e % seq;
    const long long past = first ? 0 : (long long)seqlens[b * meta[2]] + 1 - seq;
    positions[b * meta[3] + s * meta[4]] = past + s;
    if (s == 0) lengths[b * meta[5]] = past + seq;
  }
}

// present[b, h, t, d]: new[b, t - start, h, d] for t in [start, start + S),
// past[b, h, t, d] below start (if past and t < P), else 0; start =
// lengths[b] - S. The values are copied as stored. meta: B, H, T, D, S, P;
// new's strides (b, s, h, d), lengths' one, past's (b, h, p, d), present's.
template <class T>
__device__ inline void xhip_kv_cache_update(
    const T* x, const long long* lengths, const T* past, T* y,
    const xhip_index* meta, xhip_index n) {
  const xhip_index* xs = meta + 6;
  const xhip_index ls = meta[10];
  const xhip_index* ps = meta + 11;
  const xhip_index* ys = meta + 15;
  for (xhip_index e = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; e < n;
       e += (xhip_index)gridDim.x * blockDim.x) {
    xhip_index rest = e;
    const xhip_index d = rest % meta[3];
    rest /= meta[3];
    const xhip_index t = rest % meta[2];
    rest /= meta[2];
    const xhip_index h = rest % meta[1];
    const xhip_index b = rest / meta[1];
    const xhip_index start = lengths[b * ls] - meta[4];
    T value = 0;
    if (t >= start && t < start + meta[4]) {
      value = x[b * xs[0] + (t - start) * xs[1] + h * xs[2] + d * xs[3]];
    } else if (past && t < start && t < meta[5]) {
      value = past[b * ps[0] + h * ps[1] + t * ps[2] + d * ps[3]];
    }
    y[b * ys[0] + h * ys[1] + t * ys[2] + d * ys[3]] = value;
  }
}

// One instantiation per element type of gpu_reduce.FLOAT_TYPES (float16 as
// its 16 bits).
extern "C" __global__ void xhip_kv_cache_update_f16(
    const unsigned short* x, const long long* lengths, const unsigned short* past,
    unsigned short* y, const xhip_index* meta, xhip_index n) {
  xhip_kv_cache_update<unsigned short>(x, lengths, past, y, meta, n);
}

extern "C" __global__ void xhip_kv_cache_update_f32(
    const float* x, const long long* lengths, const float* past, float* y,
    const xhip_index* meta, xhip_index n) {
  xhip_kv_cache_update<float>(x, lengths, past, y, meta, n);
}

extern "C" __global__ void xhip_kv_cache_update_f64(
    const double* x, const long long* lengths, const double* past, double* y,
    const xhip_index* meta, xhip_index n) {
  xhip_kv_cache_update<double>(x, lengths, past, y, meta, n);
}
