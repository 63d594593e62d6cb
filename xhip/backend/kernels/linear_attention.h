// ONNX LinearAttention's recurrence, for xhip/backend/gpu_linear_attention.py.
// One thread per state column (b, KV head, m): column m of S (dk values,
// kept in `present`, which also starts as the past state) updates on its own
// (S^T k and the write v - S^T k read only that column), so the threads never
// meet; per step the thread writes out[b, t, h, m] for each query head h of
// its KV head. E is xhip_elem<T> or xhip_elem_f16; the math is in float
// (double for float64), as the CPU runtime's.
//
#define XHIP_LINEAR_ATTENTION_MAX_DK 256  // gpu_linear_attention.MAX_DK

// meta: B, T, Hq, Hkv, dk, dv, decay's last dim (0: none), beta's (0: none),
// then the strides (b, t, last) of query, key, value, decay, beta, out, and
// past's and present's (b, h, d, m).
template <class E>
__device__ inline void xhip_linear_attention(
    const typename E::storage* q, const typename E::storage* k,
    const typename E::storage* v, const typename E::storage* past,
    const typename E::storage* decay, const typename E::storage* beta,
    typename E::storage* out, typename E::storage* present,
    const xhip_index* meta, long long scale_bits) {
  typedef typename E::value V;
  const double scale = __longlong_as_double(scale_bits);
  const xhip_index batch = meta[0], steps = meta[1], hq = meta[2], hkv = meta[3];
  const xhip_index dk = meta[4], dv = meta[5], decay_last = meta[6], beta_last = meta[7];
  const xhip_index *qs = meta + 8, *ks = meta + 11, *vs = meta + 14, *gs = meta + 17;
  const xhip_index *bs = meta + 20, *os = meta + 23, *ps = meta + 26, *ss = meta + 30;
  const xhip_index group = hq / hkv;
  const xhip_index n = batch * hkv * dv;
  for (xhip_index e = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; e < n;
       e += (xhip_index)gridDim.x * blockDim.x) {
    const xhip_index m = e % dv, h = (e / dv) % hkv, b = e / (dv * hkv);
    typename E::storage* s = present + b * ss[0] + h * ss[1] + m * ss[3];
    // The column in the compute type (float16 would round it each step),
    // written to `present` once, after the last step.
    V col[XHIP_LINEAR_ATTENTION_MAX_DK];
    for (xhip_index d = 0; d < dk; ++d)
      col[d] = past ? E::load(past[b * ps[0] + h * ps[1] + d * ps[2] + m * ps[3]]) : (V)0;
    for (xhip_index t = 0; t < steps; ++t) {
      const typename E::storage* kt = k + b * ks[0] + t * ks[1] + h * dk * ks[2];
      if (decay_last) {
        const typename E::storage* gt = decay + b * gs[0] + t * gs[1];
        for (xhip_index d = 0; d < dk; ++d) {
          const xhip_index at = decay_last == hkv ? h : h * dk + d;
          col[d] *= xhip_exp(E::load(gt[at * gs[2]]));
        }
      }
      V write = E::load(v[b * vs[0] + t * vs[1] + (h * dv + m) * vs[2]]);
      if (beta_last) {
        V retrieved = 0;
        for (xhip_index d = 0; d < dk; ++d) retrieved += col[d] * E::load(kt[d * ks[2]]);
        const xhip_index at = beta_last == 1 ? 0 : h;
        write = E::load(beta[b * bs[0] + t * bs[1] + at * bs[2]]) * (write - retrieved);
      }
      for (xhip_index d = 0; d < dk; ++d) col[d] += E::load(kt[d * ks[2]]) * write;
      for (xhip_index j = 0; j < group; ++j) {
        const xhip_index head = h * group + j;
        const typename E::storage* qt = q + b * qs[0] + t * qs[1] + head * dk * qs[2];
        V total = 0;
        for (xhip_index d = 0; d < dk; ++d) total += E::load(qt[d * qs[2]]) * col[d];
        out[b * os[0] + t * os[1] + (head * dv + m) * os[2]] = E::store((V)(scale * (double)total));
      }
    }
    for (xhip_index d = 0; d < dk; ++d) s[d * ss[2]] = E::store(col[d]);
  }
}

// One instantiation per type of gpu_host.FLOAT_TYPES (float16 as its 16 bits).
extern "C" __global__ void xhip_linear_attention_f16(
    const unsigned short* q, const unsigned short* k, const unsigned short* v,
    const unsigned short* past, const unsigned short* decay,
    const unsigned short* beta, unsigned short* out, unsigned short* present,
    const xhip_index* meta, long long scale_bits) {
  xhip_linear_attention<xhip_elem_f16>(q, k, v, past, decay, beta, out, present,
                                       meta, scale_bits);
}
extern "C" __global__ void xhip_linear_attention_f32(
    const float* q, const float* k, const float* v, const float* past,
    const float* decay, const float* beta, float* out, float* present,
    const xhip_index* meta, long long scale_bits) {
  xhip_linear_attention<xhip_elem<float>>(q, k, v, past, decay, beta, out,
                                          present, meta, scale_bits);
}
extern "C" __global__ void xhip_linear_attention_f64(
    const double* q, const double* k, const double* v, const double* past,
    const double* decay, const double* beta, double* out, double* present,
    const xhip_index* meta, long long scale_bits) {
  xhip_linear_attention<xhip_elem<double>>(q, k, v, past, decay, beta, out,
                                           present, meta, scale_bits);
}
