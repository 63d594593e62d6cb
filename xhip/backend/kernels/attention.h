// Attention pieces (float32), for xhip/backend/gpu_attention.py: the middle
// of ONNX Attention (scale, softcap, bias, softmax) and RotaryEmbedding. The
// matmuls around the first are the GEMM library's. Reductions go through
// shared memory with __syncthreads: no warp-size assumption; blockDim.x must
// be a power of two.

// The `stage` codes: hip.ATTENTION_STAGES, ONNX's qk_matmul_output_mode.
#define XHIP_ATTENTION_SOFTCAPPED 1
#define XHIP_ATTENTION_BIASED 2
#define XHIP_ATTENTION_SOFTMAX 3

// Max keeping a NaN, as numpy's maximum does.
__device__ inline float xhip_attention_max(float a, float b) {
  return (a != a || a > b) ? a : b;
}

// The block-wide max of two values at once; all threads get both.
// `scratch`: 2 * blockDim.x floats; ends with a barrier.
__device__ inline void xhip_attention_max2(float* a, float* b, float* scratch) {
  float* sa = scratch;
  float* sb = scratch + blockDim.x;
  sa[threadIdx.x] = *a;
  sb[threadIdx.x] = *b;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      sa[threadIdx.x] = xhip_attention_max(sa[threadIdx.x], sa[threadIdx.x + s]);
      sb[threadIdx.x] = xhip_attention_max(sb[threadIdx.x], sb[threadIdx.x + s]);
    }
    __syncthreads();
  }
  *a = sa[0];
  *b = sb[0];
  __syncthreads();
}

__device__ inline float xhip_attention_sum(float value, float* scratch) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) scratch[threadIdx.x] += scratch[threadIdx.x + s];
    __syncthreads();
  }
  float total = scratch[0];
  __syncthreads();
  return total;
}

// The bias of key j for query i of batch b, head h: the mask (mask_kind 0
// none, 1 bool, 2 float; keys from mask_t on are masked), then -inf where
// the causal frontier, the window or nonpad forbid j.
__device__ inline float xhip_attention_bias(
    const void* mask, int mask_kind, const xhip_index* strides, xhip_index mask_t,
    xhip_index b, xhip_index h, xhip_index i, xhip_index j, xhip_index offset,
    int causal, xhip_index left, xhip_index right, xhip_index valid) {
  const float inf = __int_as_float(0x7f800000);
  float bias = 0.0f;
  if (mask_kind) {
    if (j >= mask_t) {
      bias = -inf;
    } else {
      xhip_index at = b * strides[0] + h * strides[1] + i * strides[2] + j * strides[3];
      bias = mask_kind == 1 ? (((const bool*)mask)[at] ? 0.0f : -inf)
                            : ((const float*)mask)[at];
    }
  }
  xhip_index diff = i + offset - j;
  bool allowed = (!causal || diff >= 0) && (left < 0 || diff <= left) &&
                 (right < 0 || -diff <= right) && j < valid;
  return allowed ? bias : bias + -inf;
}

// y = ONNX Attention's scores after `stage` (3: the softmax) for `rows` =
// B * H * S contiguous rows of T scores x; one block per row (grid-stride).
// y may be x. meta: B, H, S, T, the mask's strides for (b, h, i, j) (0 on
// broadcast dims), its last dim; params (double): scale, softcap (0: none);
// nonpad: null or B int64 lengths (the offset is then nonpad[b] - S, else
// `past`). A row whose whole bias is -inf gives zeros.
// Dynamic shared memory: 2 * blockDim.x floats.
extern "C" __global__ void xhip_attention_softmax_f32(
    const float* x, float* y, const void* mask, int mask_kind,
    const long long* nonpad, const xhip_index* meta, const double* params,
    xhip_index past, int causal, xhip_index left, xhip_index right, int stage) {
  extern __shared__ float xhip_attention_scratch[];
  const float inf = __int_as_float(0x7f800000);
  const xhip_index heads = meta[1], seq = meta[2], n = meta[3];
  const xhip_index* strides = meta + 4;
  const xhip_index mask_t = meta[8];
  const xhip_index rows = meta[0] * heads * seq;
  const float scale = (float)params[0], softcap = (float)params[1];
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    const xhip_index i = row % seq, h = (row / seq) % heads, b = row / (seq * heads);
    const xhip_index offset = nonpad ? nonpad[b] - seq : past;
    const xhip_index valid = nonpad ? nonpad[b] : n;
    const float* in = x + row * n;
    float* out = y + row * n;
    float peak = -inf, bias_peak = -inf;
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      float v = in[j] * scale;
      if (softcap > 0.0f && stage >= XHIP_ATTENTION_SOFTCAPPED)
        v = tanhf(v / softcap) * softcap;
      if (stage < XHIP_ATTENTION_BIASED) {
        out[j] = v;
        continue;
      }
      float bias = xhip_attention_bias(mask, mask_kind, strides, mask_t, b, h, i, j,
                                       offset, causal, left, right, valid);
      v += bias;
      if (stage == XHIP_ATTENTION_BIASED) {
        out[j] = v;
        continue;
      }
      out[j] = v;  // kept for the next pass: the same thread reads it back
      peak = xhip_attention_max(peak, v);
      bias_peak = xhip_attention_max(bias_peak, bias);
    }
    if (stage < XHIP_ATTENTION_SOFTMAX) continue;  // the same for the whole block
    xhip_attention_max2(&peak, &bias_peak, xhip_attention_scratch);
    const float shift = peak == -inf ? 0.0f : peak;
    float total = 0.0f;
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      float e = expf(out[j] - shift);
      out[j] = e;
      total += e;
    }
    total = xhip_attention_sum(total, xhip_attention_scratch);
    const float inverse = (bias_peak == -inf || total == 0.0f) ? 0.0f : 1.0f / total;
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) out[j] *= inverse;
  }
}

// ONNX RotaryEmbedding over the n = B * S * H * D elements, seen as (b, s,
// h, d) (a 4-D (B, H, S, D) input comes with its strides permuted). The
// first `rotary` of each D rotate: pairs (k, k + rotary / 2), or (2k, 2k + 1)
// if `interleaved`; the rest are copied. meta: B, S, H, D; x's strides and
// y's (4 each); the cos cache's (c0, c1, c2) then the sin cache's: entry k
// of (b, s) is at b * c0 + s * c1 + k * c2, or with position_ids (strides
// p0, p1, after them) at position_ids[b * p0 + s * p1] * c0 + k * c2.
extern "C" __global__ void xhip_rotary_embedding_f32(
    const float* x, const float* cos_cache, const float* sin_cache,
    const long long* position_ids, float* y, const xhip_index* meta,
    xhip_index n, xhip_index rotary, int interleaved) {
  const xhip_index* xs = meta + 4;
  const xhip_index* ys = meta + 8;
  const xhip_index* cs = meta + 12;
  const xhip_index* ss = meta + 15;
  const xhip_index* ps = meta + 18;
  const xhip_index half = rotary / 2;
  for (xhip_index e = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; e < n;
       e += (xhip_index)gridDim.x * blockDim.x) {
    xhip_index rest = e;
    const xhip_index d = rest % meta[3];
    rest /= meta[3];
    const xhip_index h = rest % meta[2];
    rest /= meta[2];
    const xhip_index s = rest % meta[1];
    const xhip_index b = rest / meta[1];
    const float* head = x + b * xs[0] + s * xs[1] + h * xs[2];
    float* target = y + b * ys[0] + s * ys[1] + h * ys[2] + d * ys[3];
    if (d >= rotary) {
      *target = head[d * xs[3]];
      continue;
    }
    xhip_index k, first, second;
    if (interleaved) {
      k = d / 2;
      first = 2 * k;
      second = first + 1;
    } else {
      k = d < half ? d : d - half;
      first = k;
      second = k + half;
    }
    xhip_index cos_at, sin_at;
    if (position_ids) {
      xhip_index position = position_ids[b * ps[0] + s * ps[1]];
      cos_at = position * cs[0] + k * cs[2];
      sin_at = position * ss[0] + k * ss[2];
    } else {
      cos_at = b * cs[0] + s * cs[1] + k * cs[2];
      sin_at = b * ss[0] + s * ss[1] + k * ss[2];
    }
    const float c = cos_cache[cos_at], sn = sin_cache[sin_at];
    const float x1 = head[first * xs[3]], x2 = head[second * xs[3]];
    *target = d == first ? c * x1 - sn * x2 : sn * x1 + c * x2;
  }
}
