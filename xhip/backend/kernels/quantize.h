// Linear quantization and integer matmul, for xhip/backend/gpu_quantize.py.
// Grid-stride loops over the output, one element per thread (no warp-size
// assumption); types by `xhip_cast`'s codes (elementwise.ELEMENT_TYPES),
// read and written through its xhip_read / xhip_write.
//
// As in ONNX Runtime (and cpu_quantize.py), in float32: quantize is
// rintf(x / scale) + zero (ties to even), clamped to the type's [lo, hi]
// (NaN to lo); dequantize is (float)(int32 x - int32 zero) * scale. To
// float8, x / scale + zero rounded to it; from float8, (x - zero) * scale in
// float.
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

// int4, uint4 and float8 lie one a byte, read and written as int8 or uint8
// (codes of those), `small` telling which: 1 int4, 2 uint4 (the low nibble
// alone, sign extended for int4, since ml_dtypes leaves the high one 0 (-2 is
// 0x0e) where int8 writes and xDSL's constants extend the sign (0xfe)); 3 to
// 6 float8 e4m3fn, e4m3fnuz, e5m2, e5m2fnuz (read and written by
// xhip_f8_decode / xhip_f8_encode).
__device__ inline long long xhip_quant_nibble(long long v, int small) {
  if (small == 1) return ((v & 15) ^ 8) - 8;
  if (small == 2) return v & 15;
  return v;
}

// A float8 format: mantissa bits, exponent bias, its largest finite value;
// fnuz: no -0 nor inf, NaN 0x80; e4m3fn: no inf, NaN s.1111.111; e5m2: IEEE.
struct xhip_f8 {
  int mant, bias, fnuz, ieee;
  float max;
};

__device__ inline xhip_f8 xhip_f8_format(int small) {
  xhip_f8 f;
  f.mant = small <= 4 ? 3 : 2;
  f.fnuz = small == 4 || small == 6;
  f.ieee = small == 5;
  f.bias = (small <= 4 ? 7 : 15) + f.fnuz;
  f.max = small == 3 ? 448.0f : small == 4 ? 240.0f : 57344.0f;
  return f;
}

__device__ inline float xhip_f8_decode(long long code, int small) {
  const xhip_f8 f = xhip_f8_format(small);
  const int b = (int)(code & 255), mmask = (1 << f.mant) - 1;
  const int e = (b & 127) >> f.mant, m = b & mmask;
  const int emax = (1 << (7 - f.mant)) - 1;
  const float nan = __int_as_float(0x7fc00000);
  if (f.fnuz && b == 128) return nan;
  if (!f.fnuz && !f.ieee && (b & 127) == 127) return nan;
  if (f.ieee && e == emax) return m ? nan : (b & 128 ? -1.0f : 1.0f) * __int_as_float(0x7f800000);
  float a = e ? ldexpf((float)(m + (1 << f.mant)), e - f.bias - f.mant)
              : ldexpf((float)m, 1 - f.bias - f.mant);
  return b & 128 ? -a : a;
}

// To nearest, ties to even; what exceeds the largest finite value is it under
// `saturate` (infinities too), else inf (e5m2) or NaN.
__device__ inline long long xhip_f8_encode(float v, int small, int saturate) {
  const xhip_f8 f = xhip_f8_format(small);
  const int sign = v < 0.0f || (v == 0.0f && 1.0f / v < 0.0f) ? 128 : 0;
  const int nan = f.fnuz ? 128 : 127;
  if (v != v) return nan;
  float a = v < 0.0f ? -v : v;
  const int mmask = (1 << f.mant) - 1;
  int e = 0, m = 0;
  if (a <= f.max * 2.0f) {
    int exp2;
    frexpf(a, &exp2);  // a = frac * 2^exp2, frac in [0.5, 1)
    int unbiased = exp2 - 1;
    if (unbiased < 1 - f.bias) unbiased = 1 - f.bias;  // subnormal scale
    float r = rintf(ldexpf(a, f.mant - unbiased));
    if (r >= (float)(2 << f.mant)) {  // rounded up into the next binade
      r = (float)(1 << f.mant);
      unbiased += 1;
    }
    a = ldexpf(r, unbiased - f.mant);
    e = r >= (float)(1 << f.mant) ? unbiased + f.bias : 0;
    m = (int)r & mmask;
  }
  if (a > f.max) {
    if (saturate) return sign | (f.ieee ? 0x7b : f.fnuz ? 127 : 126);
    return f.ieee ? (sign | 0x7c) : nan;
  }
  const int code = (e << f.mant) | m;
  if (f.fnuz && code == 0) return 0;  // no -0
  return sign | code;
}

__device__ inline float xhip_quant_small_float(xhip_any raw, int small) {
  return small >= 3 ? xhip_f8_decode(xhip_quant_int(raw), small)
                    : (float)xhip_quant_nibble(xhip_quant_int(raw), small);
}

// y (integer type y_type) = quantized x (float type x_type); meta: shape,
// y strides, x strides (strided_meta).
extern "C" __global__ void xhip_quantize_linear(
    int x_type, int y_type, void* y, const void* x, int rank,
    const xhip_index* meta, xhip_index n, const void* scale, const void* zero,
    xhip_index inner, xhip_index len, xhip_index block, xhip_index so,
    xhip_index sa, xhip_index sr, int small, int lo, int hi, int saturate) {
  const xhip_index* shape = meta;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index s = xhip_quant_at(i, inner, len, block, so, sa, sr);
    float v = (float)xhip_read(x_type, x, xhip_offset(i, rank, shape, meta + 2 * rank)).f;
    float d = (float)xhip_read(x_type, scale, s).f;
    float z = xhip_quant_small_float(xhip_read(y_type, zero, s), small);
    xhip_any w;
    w.kind = 1;
    w.f = 0.0;
    w.u = 0;
    if (small >= 3) {
      w.i = xhip_f8_encode(v / d + z, small, saturate);
    } else {
      float q = rintf(v / d) + z;
      q = q < (float)lo ? (float)lo : q > (float)hi ? (float)hi : q;
      w.i = q == q ? (long long)q : lo;  // NaN: the least value, as ORT
    }
    xhip_write(y_type, y, xhip_offset(i, rank, shape, meta + rank), w);
  }
}

// y (float type y_type, the scale's) = dequantized x (integer type x_type).
extern "C" __global__ void xhip_dequantize_linear(
    int x_type, int y_type, void* y, const void* x, int rank,
    const xhip_index* meta, xhip_index n, const void* scale, const void* zero,
    xhip_index inner, xhip_index len, xhip_index block, xhip_index so,
    xhip_index sa, xhip_index sr, int small) {
  const xhip_index* shape = meta;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index s = xhip_quant_at(i, inner, len, block, so, sa, sr);
    xhip_any raw = xhip_read(x_type, x, xhip_offset(i, rank, shape, meta + 2 * rank));
    xhip_any raw_zero = xhip_read(x_type, zero, s);
    float d = (float)xhip_read(y_type, scale, s).f;
    float diff;
    if (small >= 3) {  // float8: the difference in float
      diff = xhip_f8_decode(xhip_quant_int(raw), small) -
             xhip_f8_decode(xhip_quant_int(raw_zero), small);
    } else {
      long long v = xhip_quant_nibble(xhip_quant_int(raw), small);
      long long z = xhip_quant_nibble(xhip_quant_int(raw_zero), small);
      diff = (float)(int)((unsigned int)v - (unsigned int)z);  // int32, wrapping
    }
    xhip_any w;
    w.kind = 0;
    w.f = (double)(diff * d);
    w.i = 0;
    w.u = 0;
    xhip_write(y_type, y, xhip_offset(i, rank, shape, meta + rank), w);
  }
}

// DynamicQuantizeLinear's parameters, as ONNX Runtime computes them: one
// block (blockDim.x a power of two) finds x's min and max (meta: shape, x
// strides), widens them to hold 0 and writes scale = (max - min) / 255 (1
// when equal) and zero = rint(max(0, min(255, 0 - min / scale))) in
// std::min/max's order, which takes a NaN (an infinite range) to 255.
// Dynamic shared memory: 2 * blockDim.x floats.
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
    start = start < 255.0f ? start : 255.0f;  // std::min(255, start)
    start = 0.0f < start ? start : 0.0f;      // std::max(0, start)
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

// y (8-bit, signed when y_signed) = saturate(rint((float)x * m) + zero) with
// m = a_scale * b_scale / y_scale in float32 (the scales of type s_type,
// float32 or float16 widened), as ONNX Runtime's
// MlasRequantizeOutput (its clamp before rounding is the clamp after it
// here: the bounds are integers). meta: shape, y strides, x strides, then
// a_scale's and b_scale's strides seen from y's shape (0 where one element).
extern "C" __global__ void xhip_requantize(
    int s_type, int y_signed, void* y, const int* x, const void* a_scale,
    const void* b_scale, const void* y_scale, const void* zero, int rank,
    const xhip_index* meta, xhip_index n, int lo, int hi) {
  const xhip_index* shape = meta;
  float ys = (float)xhip_read(s_type, y_scale, 0).f;
  float z = (float)xhip_int8_at(y_signed, zero, 0);
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index ao = xhip_offset(i, rank, shape, meta + 3 * rank);
    float as = (float)xhip_read(s_type, a_scale, ao).f;
    float bs = (float)xhip_read(s_type, b_scale, xhip_offset(i, rank, shape, meta + 4 * rank)).f;
    float m = (as * bs) / ys;
    float v = (float)x[xhip_offset(i, rank, shape, meta + 2 * rank)] * m;
    float q = rintf(v) + z;
    q = q < (float)lo ? (float)lo : q > (float)hi ? (float)hi : q;
    int w = q == q ? (int)q : lo;  // NaN: the least value, as ORT
    xhip_index o = xhip_offset(i, rank, shape, meta + rank);
    if (y_signed) {
      ((signed char*)y)[o] = (signed char)w;
    } else {
      ((unsigned char*)y)[o] = (unsigned char)w;
    }
  }
}

// out (int32; N, M, o...) = ConvInteger of x (N, C, s...) by w (M, C/group,
// k...): bias[m] (when not null) plus the sum of (x - x_zero) * (w -
// w_zero[m]) over the window, int32 (wrapping), a window position in the
// padding adding nothing (ORT pads
// with x's zero point). One output element per thread. meta: out shape and
// strides, x shape and strides, w shape and strides (rank each), then the
// window's strides, dilations and begin pads (rank - 2 each).
__device__ inline xhip_index xhip_coord(xhip_index i, int d, int rank,
                                        const xhip_index* shape) {
  xhip_index inner = 1;
  for (int e = rank - 1; e > d; --e) inner *= shape[e];
  return (i / inner) % shape[d];
}

extern "C" __global__ void xhip_conv_integer(
    int x_signed, int w_signed, int* out, const void* x, const void* w,
    const void* x_zero, const void* w_zero, int rank, const xhip_index* meta,
    xhip_index n, int group, xhip_index w_zero_stride, const int* bias,
    xhip_index bias_stride) {
  const xhip_index *shape = meta, *o_st = meta + rank;
  const xhip_index *x_sh = meta + 2 * rank, *x_st = meta + 3 * rank;
  const xhip_index *w_sh = meta + 4 * rank, *w_st = meta + 5 * rank;
  int spatial = rank - 2;
  const xhip_index* step_of = meta + 6 * rank;
  const xhip_index* dil = step_of + spatial;
  const xhip_index* pad = dil + spatial;
  xhip_index taps = 1;
  for (int d = 0; d < spatial; ++d) taps *= w_sh[2 + d];
  int xz = xhip_int8_at(x_signed, x_zero, 0);
  xhip_index per_group = w_sh[0] / group, channels = w_sh[1];
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index b = xhip_coord(i, 0, rank, shape), m = xhip_coord(i, 1, rank, shape);
    int wz = xhip_int8_at(w_signed, w_zero, m * w_zero_stride);
    unsigned int acc = bias ? (unsigned int)bias[m * bias_stride] : 0u;
    for (xhip_index c = 0; c < channels; ++c) {
      xhip_index ch = (m / per_group) * channels + c;
      for (xhip_index t = 0; t < taps; ++t) {
        xhip_index xo = b * x_st[0] + ch * x_st[1];
        xhip_index wo = m * w_st[0] + c * w_st[1];
        bool inside = true;
        for (int d = 0; d < spatial; ++d) {
          xhip_index k = xhip_coord(t, d, spatial, w_sh + 2);
          xhip_index pos = xhip_coord(i, 2 + d, rank, shape) * step_of[d] +
                           k * dil[d] - pad[d];
          inside = inside && pos >= 0 && pos < x_sh[2 + d];
          xo += pos * x_st[2 + d];
          wo += k * w_st[2 + d];
        }
        if (inside) {
          int a = xhip_int8_at(x_signed, x, xo) - xz;
          int v = xhip_int8_at(w_signed, w, wo) - wz;
          acc += (unsigned int)(a * v);
        }
      }
    }
    xhip_index o = 0;
    for (int d = 0; d < rank; ++d) o += xhip_coord(i, d, rank, shape) * o_st[d];
    out[o] = (int)acc;
  }
}
