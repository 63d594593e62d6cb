// Attention pieces, for xhip/backend/gpu_attention.py: the middle of ONNX
// Attention (scale, softcap, bias, softmax) and RotaryEmbedding. The matmuls
// around the first are the GEMM library's. Reductions go through shared
// memory with __syncthreads: no warp-size assumption; blockDim.x must be a
// power of two.
//
// Each kernel is a template over an element type E (elementwise.inc's
// `xhip_elem<float>`, `xhip_elem<double>`, or `xhip_elem_f16`: float16
// stored as its 16 bits and computed in float), with one `extern "C"`
// instantiation per type of gpu_reduce.FLOAT_TYPES, suffixed as
// elementwise.ELEMENT_TYPES names it. float16 and float32 compute in float,
// float64 in double; each result is rounded to the element type once, except
// the attention softmax's `narrow` float16, which rounds every step.

// The `stage` codes: hip.ATTENTION_STAGES, ONNX's qk_matmul_output_mode.
#define XHIP_ATTENTION_SOFTCAPPED 1
#define XHIP_ATTENTION_BIASED 2
#define XHIP_ATTENTION_SOFTMAX 3

// The block-wide max of two values at once (keeping a NaN, as numpy's
// maximum does); all threads get both.
// `scratch`: 2 * blockDim.x values; ends with a barrier.
template <class V>
__device__ inline void xhip_attention_max2(V* a, V* b, V* scratch) {
  V* sa = scratch;
  V* sb = scratch + blockDim.x;
  sa[threadIdx.x] = *a;
  sb[threadIdx.x] = *b;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      sa[threadIdx.x] = xhip_max(sa[threadIdx.x], sa[threadIdx.x + s]);
      sb[threadIdx.x] = xhip_max(sb[threadIdx.x], sb[threadIdx.x + s]);
    }
    __syncthreads();
  }
  *a = sa[0];
  *b = sb[0];
  __syncthreads();
}

template <class V>
__device__ inline V xhip_attention_sum(V value, V* scratch) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) scratch[threadIdx.x] += scratch[threadIdx.x + s];
    __syncthreads();
  }
  V total = scratch[0];
  __syncthreads();
  return total;
}

// One row of scores: query i of batch b, head h. `score(j)`: key j's score
// scaled and softcapped (if `capped`); `bias(j)`: the mask (mask_kind 0
// none, 1 bool, 2 of the element type; keys from mask_t on are masked), then
// -inf where the causal frontier, the window or nonpad forbid j. `rounded`:
// to the element type and back if `narrow` (float16 as ONNX's float16
// softmax_precision computes it, a rounding per step), else nothing.
template <class E>
struct xhip_attention_row {
  typedef typename E::value V;
  const typename E::storage* in;
  V scale, softcap;
  bool capped, narrow;
  const void* mask;
  int mask_kind;
  const xhip_index* strides;
  xhip_index mask_t, b, h, i, offset;
  int causal;
  xhip_index left, right, valid;

  __device__ V rounded(V v) const { return narrow ? E::load(E::store(v)) : v; }

  __device__ V score(xhip_index j) const {
    V v = rounded(E::load(in[j]) * scale);
    return capped ? rounded(rounded(xhip_tanh(rounded(v / softcap))) * softcap) : v;
  }

  __device__ V biased(xhip_index j, V added) const { return rounded(score(j) + added); }

  __device__ V bias(xhip_index j) const {
    const V inf = (V)__int_as_float(0x7f800000);
    V given = V(0);
    if (mask_kind) {
      if (j >= mask_t) {
        given = -inf;
      } else {
        xhip_index at = b * strides[0] + h * strides[1] + i * strides[2] + j * strides[3];
        given = mask_kind == 1 ? (((const bool*)mask)[at] ? V(0) : -inf)
                              : E::load(((const typename E::storage*)mask)[at]);
      }
    }
    xhip_index diff = i + offset - j;
    bool allowed = (!causal || diff >= 0) && (left < 0 || diff <= left) &&
                   (right < 0 || -diff <= right) && j < valid;
    return allowed ? given : given + -inf;
  }
};

// y = ONNX Attention's scores after `stage` (3: the softmax) for `rows` =
// B * H * S contiguous rows of T scores x; one block per row (grid-stride).
// meta: B, H, S, T, the mask's strides for (b, h, i, j) (0 on broadcast
// dims), its last dim; params (double): scale, softcap (0: none); nonpad:
// null or B int64 lengths (the offset is then nonpad[b] - S, else `past`).
// A row whose whole bias is -inf gives zeros. `narrow`: round each step to
// the element type (float16 as numpy computes it: max, exp(x - max), the sum
// in float rounded once, the quotient); else round once. The softmax's
// passes each recompute the biased scores from x rather than keep them in
// y, which may hold fewer bits (float16); each thread reads x[j] before it
// writes y[j], so y may be x.
// Dynamic shared memory: 2 * blockDim.x values (float; double for float64).
template <class E>
__device__ inline void xhip_attention_softmax(
    const typename E::storage* x, typename E::storage* y, const void* mask,
    int mask_kind, const long long* nonpad, const xhip_index* meta,
    const double* params, xhip_index past, int causal, xhip_index left,
    xhip_index right, int stage, int narrow) {
  typedef typename E::value V;
  extern __shared__ xhip_index xhip_attention_shared[];
  V* scratch = (V*)xhip_attention_shared;
  const V inf = (V)__int_as_float(0x7f800000);
  const xhip_index heads = meta[1], seq = meta[2], n = meta[3];
  const xhip_index rows = meta[0] * heads * seq;
  xhip_attention_row<E> r;
  r.narrow = narrow != 0;
  r.scale = r.rounded((V)params[0]);
  r.softcap = r.rounded((V)params[1]);
  r.capped = r.softcap > V(0) && stage >= XHIP_ATTENTION_SOFTCAPPED;
  r.mask = mask;
  r.mask_kind = mask_kind;
  r.strides = meta + 4;
  r.mask_t = meta[8];
  r.causal = causal;
  r.left = left;
  r.right = right;
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    r.i = row % seq;
    r.h = (row / seq) % heads;
    r.b = row / (seq * heads);
    r.offset = nonpad ? nonpad[r.b] - seq : past;
    r.valid = nonpad ? nonpad[r.b] : n;
    r.in = x + row * n;
    typename E::storage* out = y + row * n;
    if (stage < XHIP_ATTENTION_SOFTMAX) {  // the same for the whole block
      const bool biased = stage == XHIP_ATTENTION_BIASED;
      for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
        out[j] = E::store(biased ? r.biased(j, r.bias(j)) : r.score(j));
      continue;
    }
    V peak = -inf, bias_peak = -inf;
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      const V bias = r.bias(j);
      peak = xhip_max(peak, r.biased(j, bias));
      bias_peak = xhip_max(bias_peak, bias);
    }
    xhip_attention_max2(&peak, &bias_peak, scratch);
    const V shift = peak == -inf ? V(0) : peak;
    V total = V(0);
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      total += r.rounded(xhip_exp(r.rounded(r.biased(j, r.bias(j)) - shift)));
    total = r.rounded(xhip_attention_sum(total, scratch));
    const bool dead = bias_peak == -inf || total == V(0);
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      const V e = r.rounded(xhip_exp(r.rounded(r.biased(j, r.bias(j)) - shift)));
      out[j] = E::store(dead ? V(0) : e / total);
    }
  }
}

// ONNX RotaryEmbedding over the n = B * S * H * D elements, seen as (b, s,
// h, d) (a 4-D (B, H, S, D) input comes with its strides permuted). The
// first `rotary` of each D rotate: pairs (k, k + rotary / 2), or (2k, 2k + 1)
// if `interleaved`; the rest are copied. meta: B, S, H, D; x's strides and
// y's (4 each); the cos cache's (c0, c1, c2) then the sin cache's: entry k
// of (b, s) is at b * c0 + s * c1 + k * c2, or with position_ids (strides
// p0, p1, after them) at position_ids[b * p0 + s * p1] * c0 + k * c2.
template <class E>
__device__ inline void xhip_rotary_embedding(
    const typename E::storage* x, const typename E::storage* cos_cache,
    const typename E::storage* sin_cache, const long long* position_ids,
    typename E::storage* y, const xhip_index* meta, xhip_index n,
    xhip_index rotary, int interleaved) {
  typedef typename E::value V;
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
    const typename E::storage* head = x + b * xs[0] + s * xs[1] + h * xs[2];
    typename E::storage* target = y + b * ys[0] + s * ys[1] + h * ys[2] + d * ys[3];
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
    const V c = E::load(cos_cache[cos_at]), sn = E::load(sin_cache[sin_at]);
    const V x1 = E::load(head[first * xs[3]]), x2 = E::load(head[second * xs[3]]);
    *target = E::store(d == first ? c * x1 - sn * x2 : sn * x1 + c * x2);
  }
}

// One instantiation of each per element type (gpu_reduce.FLOAT_TYPES).
extern "C" __global__ void xhip_attention_softmax_f16(
    const unsigned short* x, unsigned short* y, const void* mask, int mask_kind,
    const long long* nonpad, const xhip_index* meta, const double* params,
    xhip_index past, int causal, xhip_index left, xhip_index right, int stage,
    int narrow) {
  xhip_attention_softmax<xhip_elem_f16>(x, y, mask, mask_kind, nonpad, meta, params,
      past, causal, left, right, stage, narrow);
}

extern "C" __global__ void xhip_attention_softmax_f32(
    const float* x, float* y, const void* mask, int mask_kind,
    const long long* nonpad, const xhip_index* meta, const double* params,
    xhip_index past, int causal, xhip_index left, xhip_index right, int stage,
    int narrow) {
  xhip_attention_softmax<xhip_elem<float>>(x, y, mask, mask_kind, nonpad, meta, params,
      past, causal, left, right, stage, narrow);
}

extern "C" __global__ void xhip_attention_softmax_f64(
    const double* x, double* y, const void* mask, int mask_kind,
    const long long* nonpad, const xhip_index* meta, const double* params,
    xhip_index past, int causal, xhip_index left, xhip_index right, int stage,
    int narrow) {
  xhip_attention_softmax<xhip_elem<double>>(x, y, mask, mask_kind, nonpad, meta, params,
      past, causal, left, right, stage, narrow);
}

extern "C" __global__ void xhip_rotary_embedding_f16(
    const unsigned short* x, const unsigned short* cos_cache, const unsigned short* sin_cache,
    const long long* position_ids, unsigned short* y, const xhip_index* meta,
    xhip_index n, xhip_index rotary, int interleaved) {
  xhip_rotary_embedding<xhip_elem_f16>(x, cos_cache, sin_cache, position_ids, y, meta, n,
      rotary, interleaved);
}

extern "C" __global__ void xhip_rotary_embedding_f32(
    const float* x, const float* cos_cache, const float* sin_cache,
    const long long* position_ids, float* y, const xhip_index* meta,
    xhip_index n, xhip_index rotary, int interleaved) {
  xhip_rotary_embedding<xhip_elem<float>>(x, cos_cache, sin_cache, position_ids, y, meta, n,
      rotary, interleaved);
}

extern "C" __global__ void xhip_rotary_embedding_f64(
    const double* x, const double* cos_cache, const double* sin_cache,
    const long long* position_ids, double* y, const xhip_index* meta,
    xhip_index n, xhip_index rotary, int interleaved) {
  xhip_rotary_embedding<xhip_elem<double>>(x, cos_cache, sin_cache, position_ids, y, meta, n,
      rotary, interleaved);
}

// hip.fused_attention: out = softmax(q @ k * scale + mask) @ v for one query
// row per block (grid-stride over the B0 * B1 * S rows), flash-style: the
// keys go by in tiles of blockDim.x, one score per thread, with an online
// softmax (the running max m and sum l; the accumulator rescaled by
// exp(m_old - m_new) whenever the max grows), so no score is ever stored
// beyond its tile. The accumulator (Dv values) and the tile's exp live in
// shared memory; thread t owns the outputs d = t, t + blockDim.x, ...
// meta: B0, B1, S, T, D, Dv, then the (b0, b1, row, col) element strides of
// q (S, D), k (D, T), v (T, Dv), mask (S, T), out (S, Dv); 0 on broadcast
// dims. scaling 0 none, 1 multiply by *scale, 2 divide by it; the row whose
// softmax is all NaN (max not finite, or a NaN score) gives NaN, or where
// `fill` is given fill @ v, as where(isnan(p), *fill, p) makes it. mask,
// scale and fill may be null. qb, kb, vb (null where absent) are biases added
// to q, k, v as they are read, through the (b0, b1, row, col) strides at
// meta[26..37] (0 on the dims they broadcast over).
// Dynamic shared memory: 3 * blockDim.x + Dv values (float, double for
// float64; float16 computes in float).
template <class E>
__device__ inline void xhip_flash_attention(
    const typename E::storage* q, const typename E::storage* k,
    const typename E::storage* v, const typename E::storage* mask,
    const typename E::storage* scale_at, const typename E::storage* fill_at,
    const typename E::storage* qb, const typename E::storage* kb_,
    const typename E::storage* vb_, typename E::storage* out, const xhip_index* meta,
    int scaling) {
  typedef typename E::value V;
  extern __shared__ xhip_index xhip_attention_shared[];
  V* scratch = (V*)xhip_attention_shared;  // the reductions' 2 * blockDim.x
  V* tile = scratch + 2 * blockDim.x;       // the tile's exp
  V* acc = tile + blockDim.x;               // Dv
  const V inf = (V)__int_as_float(0x7f800000);
  const xhip_index b1n = meta[1], seq = meta[2], keys = meta[3], depth = meta[4],
                   width = meta[5];
  const xhip_index* qs = meta + 6;
  const xhip_index* ks = meta + 10;
  const xhip_index* vs = meta + 14;
  const xhip_index* ms = meta + 18;
  const xhip_index* os = meta + 22;
  const xhip_index* qbs = meta + 26;
  const xhip_index* kbs = meta + 30;
  const xhip_index* vbs = meta + 34;
  const V scale = scaling ? E::load(*scale_at) : V(1);
  const bool guarded = fill_at != 0;
  const V fill = guarded ? E::load(*fill_at) : V(0);
  const xhip_index rows = meta[0] * b1n * seq;
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    const xhip_index i = row % seq, b1 = (row / seq) % b1n, b0 = row / (seq * b1n);
    const typename E::storage* qr = q + b0 * qs[0] + b1 * qs[1] + i * qs[2];
    const typename E::storage* kb = k + b0 * ks[0] + b1 * ks[1];
    const typename E::storage* vb = v + b0 * vs[0] + b1 * vs[1];
    const typename E::storage* mr = mask ? mask + b0 * ms[0] + b1 * ms[1] + i * ms[2] : 0;
    typename E::storage* orow = out + b0 * os[0] + b1 * os[1] + i * os[2];
    const typename E::storage* qbr = qb ? qb + b0 * qbs[0] + b1 * qbs[1] + i * qbs[2] : 0;
    const typename E::storage* kbb = kb_ ? kb_ + b0 * kbs[0] + b1 * kbs[1] : 0;
    const typename E::storage* vbb = vb_ ? vb_ + b0 * vbs[0] + b1 * vbs[1] : 0;
    for (xhip_index d = threadIdx.x; d < width; d += blockDim.x) acc[d] = V(0);
    V m = -inf, l = V(0);
    for (xhip_index j0 = 0; j0 < keys; j0 += blockDim.x) {
      const xhip_index j = j0 + threadIdx.x;
      V s = -inf;
      if (j < keys) {
        V dot = V(0);
        for (xhip_index d = 0; d < depth; ++d)
          dot += (E::load(qr[d * qs[3]]) + (qbr ? E::load(qbr[d * qbs[3]]) : V(0))) *
                 (E::load(kb[d * ks[2] + j * ks[3]]) +
                  (kbb ? E::load(kbb[d * kbs[2] + j * kbs[3]]) : V(0)));
        if (scaling == 1) dot = dot * scale;
        if (scaling == 2) dot = dot / scale;
        if (mr) dot = dot + E::load(mr[j * ms[3]]);
        s = dot;
      }
      V tile_max = s, unused = -inf;
      xhip_attention_max2(&tile_max, &unused, scratch);
      const V next = xhip_max(m, tile_max);
      // exp(-inf - -inf) is NaN: a row all -inf so far adds nothing yet.
      const V shift = next == -inf ? V(0) : next;
      const V alpha = m == -inf ? V(0) : xhip_exp(m - shift);
      const V e = j < keys ? xhip_exp(s - shift) : V(0);
      tile[threadIdx.x] = e;
      l = l * alpha + xhip_attention_sum(e, scratch);  // ends with a barrier
      const xhip_index count = keys - j0 < (xhip_index)blockDim.x ? keys - j0 : blockDim.x;
      for (xhip_index d = threadIdx.x; d < width; d += blockDim.x) {
        V sum = acc[d] * alpha;
        for (xhip_index jj = 0; jj < count; ++jj)
          sum += tile[jj] * (E::load(vb[(j0 + jj) * vs[2] + d * vs[3]]) +
                             (vbb ? E::load(vbb[(j0 + jj) * vbs[2] + d * vbs[3]]) : V(0)));
        acc[d] = sum;
      }
      m = next;
      __syncthreads();
    }
    const bool dead = !(m > -inf && m < inf) || l != l;
    for (xhip_index d = threadIdx.x; d < width; d += blockDim.x) {
      V y = acc[d] / l;
      if (dead) {
        y = m - m;  // NaN: m is NaN or infinite
        if (guarded) {
          V sum = V(0);
          for (xhip_index j = 0; j < keys; ++j)
            sum += fill * (E::load(vb[j * vs[2] + d * vs[3]]) +
                           (vbb ? E::load(vbb[j * vbs[2] + d * vbs[3]]) : V(0)));
          y = sum;
        }
      }
      orow[d * os[3]] = E::store(y);
    }
    __syncthreads();
  }
}

extern "C" __global__ void xhip_flash_attention_f16(
    const unsigned short* q, const unsigned short* k, const unsigned short* v,
    const unsigned short* mask, const unsigned short* scale,
    const unsigned short* fill, const unsigned short* qb, const unsigned short* kb,
    const unsigned short* vb, unsigned short* out, const xhip_index* meta, int scaling) {
  // Computed in float, rounded once into out (ONNX Runtime's float16 attention).
  xhip_flash_attention<xhip_elem_f16>(q, k, v, mask, scale, fill, qb, kb, vb, out, meta,
      scaling);
}

extern "C" __global__ void xhip_flash_attention_f32(
    const float* q, const float* k, const float* v, const float* mask,
    const float* scale, const float* fill, const float* qb, const float* kb,
    const float* vb, float* out, const xhip_index* meta, int scaling) {
  xhip_flash_attention<xhip_elem<float>>(q, k, v, mask, scale, fill, qb, kb, vb, out, meta,
      scaling);
}

extern "C" __global__ void xhip_flash_attention_f64(
    const double* q, const double* k, const double* v, const double* mask,
    const double* scale, const double* fill, const double* qb, const double* kb,
    const double* vb, double* out, const xhip_index* meta, int scaling) {
  xhip_flash_attention<xhip_elem<double>>(q, k, v, mask, scale, fill, qb, kb, vb, out, meta,
      scaling);
}
