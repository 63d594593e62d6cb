// ONNX GridSample, Col2Im and DeformConv, for xhip/backend/gpu_sampling.py: one thread
// per output element (grid-stride when the grid is smaller than the output),
// contiguous operands (the host makes strided ones dense). No shared memory,
// no warp-size assumption; index arithmetic in 64 bits. Weights and sums in
// float for float16 and float32, in double for float64, as the CPU runtime
// (cpu_sampling.py) computes them.

template <class T>
struct xhip_sample_elem {
  typedef T storage;
  typedef T real;
  __device__ static T load(T v) { return v; }
  __device__ static T store(T v) { return v; }
};
struct xhip_sample_elem_f16 {
  typedef unsigned short storage;
  typedef float real;
  __device__ static float load(unsigned short v) { return xhip_half_to_float(v); }
  __device__ static unsigned short store(float v) { return xhip_float_to_half(v); }
};

__device__ inline float xhip_gs_floor(float v) { return floorf(v); }
__device__ inline double xhip_gs_floor(double v) { return floor(v); }
__device__ inline float xhip_gs_rint(float v) { return rintf(v); }
__device__ inline double xhip_gs_rint(double v) { return rint(v); }
__device__ inline float xhip_gs_trunc(float v) { return truncf(v); }
__device__ inline double xhip_gs_trunc(double v) { return trunc(v); }

// `x` reflected at the borders until inside [lo, hi] (onnx's _gs_reflect).
template <class R>
__device__ inline R xhip_gs_reflect(R x, R lo, R hi) {
  R span = hi - lo;
  if (span <= (R)0) return lo;
  if (x < lo) {
    R dx = lo - x;
    R k = xhip_gs_floor(dx / span);
    R r = dx - k * span;
    return ((long long)k) % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    R dx = x - hi;
    R k = xhip_gs_floor(dx / span);
    R r = dx - k * span;
    return ((long long)k) % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

// GridSample: x (N, C, sizes...), grid (N, M, rank) (the output points
// flattened; a point's last coordinate is the innermost dim), out (N, C, M).
// meta (int64): N, C, sizes[rank], M, mode (0 linear, 1 nearest, 2 cubic),
// padding (0 zeros, 1 border, 2 reflection), align_corners. rank <= 3.
template <class E>
__device__ inline void xhip_grid_sample(typename E::storage* out,
                                        const typename E::storage* x,
                                        const typename E::storage* grid,
                                        int rank, const xhip_index* meta,
                                        xhip_index n) {
  typedef typename E::real R;
  xhip_index N = meta[0], C = meta[1];
  const xhip_index* sizes = meta + 2;
  xhip_index M = meta[2 + rank];
  int mode = (int)meta[3 + rank], padding = (int)meta[4 + rank];
  bool align = meta[5 + rank] != 0;
  xhip_index plane = 1;
  for (int d = 0; d < rank; ++d) plane *= sizes[d];
  (void)N;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index m = i % M, c = (i / M) % C, b = i / (M * C);
    const typename E::storage* g = grid + (b * M + m) * rank;
    xhip_index index[3][4];
    R weight[3][4];
    int taps = mode == 1 ? 1 : (mode == 0 ? 2 : 4);
    for (int d = 0; d < rank; ++d) {
      xhip_index size = sizes[d];
      R v = E::load(g[rank - 1 - d]);
      R lo, hi, p;
      if (align) {
        p = (v + (R)1) / (R)2 * (R)(size - 1);
        lo = (R)0;
        hi = (R)(size - 1);
      } else {
        p = ((v + (R)1) * (R)size - (R)1) / (R)2;
        lo = (R)-0.5;
        hi = (R)size - (R)0.5;
      }
      if (mode == 1) p = xhip_gs_rint(p);
      if (p < lo || p > hi) {
        if (padding == 1 && mode != 2)  // cubic clamps each tap only
          p = p < (R)0 ? (R)0 : (p > (R)(size - 1) ? (R)(size - 1) : p);
        else if (padding == 2)
          p = xhip_gs_reflect(p, lo, hi);
      }
      R at[4];
      if (mode == 1) {
        at[0] = xhip_gs_trunc(p);
        weight[d][0] = (R)1;
      } else {
        R base = xhip_gs_floor(p);
        R t = p - base;
        if (mode == 0) {
          at[0] = base;
          at[1] = base + (R)1;
          weight[d][0] = (R)1 - t;
          weight[d][1] = t;
        } else {
          const R a = (R)-0.75;
          for (int k = 0; k < 4; ++k) {
            at[k] = base + (R)(k - 1);
            R s = k == 0 ? t + (R)1 : (k == 1 ? t : (k == 2 ? (R)1 - t : (R)2 - t));
            weight[d][k] = s <= (R)1
                               ? ((a + (R)2) * s - (a + (R)3)) * s * s + (R)1
                               : ((a * s - (R)5 * a) * s + (R)8 * a) * s - (R)4 * a;
          }
        }
      }
      for (int k = 0; k < taps; ++k) {
        R q = at[k];
        if (padding == 0) {
          if (q < (R)0 || q >= (R)size) weight[d][k] = (R)0;
        } else if (padding == 1) {
          q = q < (R)0 ? (R)0 : (q > (R)(size - 1) ? (R)(size - 1) : q);
        } else {
          q = xhip_gs_trunc(xhip_gs_reflect(q, lo, hi));
        }
        xhip_index j = (xhip_index)q;
        index[d][k] = j < 0 ? 0 : (j >= size ? size - 1 : j);
      }
    }
    const typename E::storage* image = x + (b * C + c) * plane;
    int combos = 1;
    for (int d = 0; d < rank; ++d) combos *= taps;
    R total = (R)0;
    for (int combo = 0; combo < combos; ++combo) {
      int rest = combo;
      xhip_index offset = 0;
      R w = (R)1;
      for (int d = rank - 1; d >= 0; --d) {
        int k = rest % taps;
        rest /= taps;
        xhip_index stride = 1;
        for (int e = d + 1; e < rank; ++e) stride *= sizes[e];
        offset += index[d][k] * stride;
        w *= weight[d][k];
      }
      if (w != (R)0) total += w * E::load(image[offset]);
    }
    out[i] = E::store(total);
  }
}

// Col2Im: x (N, C * K, L), K = prod(block), L = prod(blocks), out (N, C,
// image...). meta (int64): N, C, image[rank], block[rank], strides[rank],
// dilations[rank], pads_begin[rank], blocks[rank]. Each output element sums
// the columns whose tap lands on it (a gather: no atomics). rank <= 8.
template <class E>
__device__ inline void xhip_col2im_sum(typename E::storage* out,
                                   const typename E::storage* x, int rank,
                                   const xhip_index* meta, xhip_index n) {
  typedef typename E::real R;
  xhip_index C = meta[1];
  const xhip_index* image = meta + 2;
  const xhip_index* block = image + rank;
  const xhip_index* strides = block + rank;
  const xhip_index* dilations = strides + rank;
  const xhip_index* pads = dilations + rank;
  const xhip_index* blocks = pads + rank;
  xhip_index K = 1, L = 1, P = 1;
  for (int d = 0; d < rank; ++d) {
    K *= block[d];
    L *= blocks[d];
    P *= image[d];
  }
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index pos[XHIP_MAX_RANK];
    xhip_index rest = i % P, bc = i / P;
    for (int d = rank - 1; d >= 0; --d) {
      pos[d] = rest % image[d];
      rest /= image[d];
    }
    const typename E::storage* cols = x + bc * K * L;
    R total = (R)0;
    for (xhip_index t = 0; t < K; ++t) {
      xhip_index tap = t, l = 0, l_stride = 1;
      bool hit = true;
      for (int d = rank - 1; d >= 0; --d) {
        xhip_index k = tap % block[d];
        tap /= block[d];
        xhip_index q = pos[d] + pads[d] - k * dilations[d];
        if (q < 0 || q % strides[d] != 0 || q / strides[d] >= blocks[d]) {
          hit = false;
          break;
        }
        l += (q / strides[d]) * l_stride;
        l_stride *= blocks[d];
      }
      if (hit) total += E::load(cols[t * L + l]);
    }
    out[i] = E::store(total);
  }
  (void)C;
}

// DeformConv: x (N, C, sizes...), w (M, C/group, k...), offset (N, G * K *
// rank, o...), bias (M) or null, mask (N, G * K, o...) or null, out (N, M,
// o...). meta (int64): N, C, M, group, G, sizes[rank], outs[rank],
// kernel[rank], strides[rank], dilations[rank], pads_begin[rank]. One
// thread per output element: the sum over its group's channels and the K
// taps of x sampled bilinearly (zero outside) at the moved tap, times the
// mask and the weight. rank <= 3.
template <class E>
__device__ inline void xhip_deform_conv(typename E::storage* out,
                                        const typename E::storage* x,
                                        const typename E::storage* w,
                                        const typename E::storage* offset,
                                        const typename E::storage* bias,
                                        const typename E::storage* mask,
                                        int rank, const xhip_index* meta,
                                        xhip_index n) {
  typedef typename E::real R;
  xhip_index C = meta[1], M = meta[2], group = meta[3], G = meta[4];
  const xhip_index* sizes = meta + 5;
  const xhip_index* outs = sizes + rank;
  const xhip_index* kernel = outs + rank;
  const xhip_index* strides = kernel + rank;
  const xhip_index* dilations = strides + rank;
  const xhip_index* pads = dilations + rank;
  xhip_index S = 1, P = 1, K = 1;
  for (int d = 0; d < rank; ++d) {
    S *= sizes[d];
    P *= outs[d];
    K *= kernel[d];
  }
  xhip_index cg = C / group, mg = M / group, cog = C / G;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index p = i % P, m = (i / P) % M, b = i / (P * M);
    xhip_index pos[XHIP_MAX_RANK];
    xhip_index rest = p;
    for (int d = rank - 1; d >= 0; --d) {
      pos[d] = rest % outs[d];
      rest /= outs[d];
    }
    R total = bias ? E::load(bias[m]) : (R)0;
    xhip_index c0 = (m / mg) * cg;
    for (xhip_index t = 0; t < K; ++t) {
      xhip_index tap[XHIP_MAX_RANK];
      xhip_index tr = t;
      for (int d = rank - 1; d >= 0; --d) {
        tap[d] = tr % kernel[d];
        tr /= kernel[d];
      }
      for (xhip_index c = c0; c < c0 + cg; ++c) {
        xhip_index g = c / cog;
        R where[XHIP_MAX_RANK];
        R floor_of[XHIP_MAX_RANK];
        for (int d = 0; d < rank; ++d) {
          R move = E::load(offset[((b * G + g) * K * rank + t * rank + d) * P + p]);
          where[d] = (R)(pos[d] * strides[d] - pads[d] + tap[d] * dilations[d]) + move;
          floor_of[d] = xhip_gs_floor(where[d]);
        }
        R sample = (R)0;
        for (int corner = 0; corner < (1 << rank); ++corner) {
          R weight = (R)1;
          xhip_index index = 0;
          bool inside = true;
          for (int d = 0; d < rank; ++d) {
            int side = (corner >> (rank - 1 - d)) & 1;
            R at = floor_of[d] + (R)side;
            R frac = where[d] - floor_of[d];
            if (at < (R)0 || at >= (R)sizes[d]) {
              inside = false;
              break;
            }
            weight *= side ? frac : (R)1 - frac;
            index = index * sizes[d] + (xhip_index)at;
          }
          if (inside) sample += weight * E::load(x[(b * C + c) * S + index]);
        }
        if (mask) sample *= E::load(mask[((b * G + g) * K + t) * P + p]);
        total += sample * E::load(w[(m * cg + (c - c0)) * K + t]);
      }
    }
    out[i] = E::store(total);
  }
}

// One kernel per float type: gpu_sampling.GRID_SAMPLE_KERNELS, COL2IM_KERNELS.
extern "C" __global__ void xhip_grid_sample_f16(unsigned short* out,
                                                const unsigned short* x,
                                                const unsigned short* grid,
                                                int rank, const xhip_index* meta,
                                                xhip_index n) {
  xhip_grid_sample<xhip_sample_elem_f16>(out, x, grid, rank, meta, n);
}
extern "C" __global__ void xhip_grid_sample_f32(float* out, const float* x,
                                                const float* grid, int rank,
                                                const xhip_index* meta,
                                                xhip_index n) {
  xhip_grid_sample<xhip_sample_elem<float> >(out, x, grid, rank, meta, n);
}
extern "C" __global__ void xhip_grid_sample_f64(double* out, const double* x,
                                                const double* grid, int rank,
                                                const xhip_index* meta,
                                                xhip_index n) {
  xhip_grid_sample<xhip_sample_elem<double> >(out, x, grid, rank, meta, n);
}
extern "C" __global__ void xhip_col2im_sum_f16(unsigned short* out,
                                           const unsigned short* x, int rank,
                                           const xhip_index* meta, xhip_index n) {
  xhip_col2im_sum<xhip_sample_elem_f16>(out, x, rank, meta, n);
}
extern "C" __global__ void xhip_col2im_sum_f32(float* out, const float* x, int rank,
                                           const xhip_index* meta, xhip_index n) {
  xhip_col2im_sum<xhip_sample_elem<float> >(out, x, rank, meta, n);
}
extern "C" __global__ void xhip_col2im_sum_f64(double* out, const double* x,
                                           int rank, const xhip_index* meta,
                                           xhip_index n) {
  xhip_col2im_sum<xhip_sample_elem<double> >(out, x, rank, meta, n);
}
extern "C" __global__ void xhip_deform_conv_f16(
    unsigned short* out, const unsigned short* x, const unsigned short* w, const unsigned short* offset, const unsigned short* bias,
    const unsigned short* mask, int rank, const xhip_index* meta, xhip_index n) {
  xhip_deform_conv<xhip_sample_elem_f16>(out, x, w, offset, bias, mask, rank, meta, n);
}
extern "C" __global__ void xhip_deform_conv_f32(
    float* out, const float* x, const float* w, const float* offset, const float* bias,
    const float* mask, int rank, const xhip_index* meta, xhip_index n) {
  xhip_deform_conv<xhip_sample_elem<float> >(out, x, w, offset, bias, mask, rank, meta, n);
}
extern "C" __global__ void xhip_deform_conv_f64(
    double* out, const double* x, const double* w, const double* offset, const double* bias,
    const double* mask, int rank, const xhip_index* meta, xhip_index n) {
  xhip_deform_conv<xhip_sample_elem<double> >(out, x, w, offset, bias, mask, rank, meta, n);
}
