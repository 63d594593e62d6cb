// Reductions, normalizations, softmax, log-softmax and hardmax, for
// xhip/backend/gpu_reduce.py (and gpu.py's softmax). Each block reduces one
// output at a time (grid-stride over the outputs); its threads stride over
// the reduced elements, then combine through shared memory with
// __syncthreads: no warp-size assumption. blockDim.x must be a power of two;
// the dynamic shared memory each kernel needs is stated above it.
//
// Each kernel is a template over an element type E (`xhip_elem<T>`, or
// `xhip_elem_f16` for float16, stored as its 16 bits and computed in float,
// `xhip_elem_i1` for bool),
// with one `extern "C"` instantiation per type, suffixed as
// elementwise.ELEMENT_TYPES names it (gpu_reduce.REDUCE_TYPES, ...).
// Accumulation: float for float16 and float32, double for float64; integers
// in their own type (wrapping, as numpy), except mean, L2 and log-sum-exp,
// which compute in double and truncate once.

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

// The element types (`xhip_elem<T>`, `xhip_elem_f16`, `xhip_elem_i1`) are
// elementwise.inc's, shared with attention.h.

// What a value type does float math in: itself for float and double, double
// for the integers.
template <class V>
struct xhip_real {
  typedef double type;
};
template <>
struct xhip_real<float> {
  typedef float type;
};

// The lowest and highest value of a type: the identities of max and min.
template <class T>
struct xhip_bounds;
template <>
struct xhip_bounds<float> {
  __device__ static float lo() { return -__int_as_float(0x7f800000); }
  __device__ static float hi() { return __int_as_float(0x7f800000); }
};
template <>
struct xhip_bounds<double> {
  __device__ static double lo() { return -__longlong_as_double(0x7ff0000000000000LL); }
  __device__ static double hi() { return __longlong_as_double(0x7ff0000000000000LL); }
};
template <>
struct xhip_bounds<bool> {
  __device__ static bool lo() { return false; }
  __device__ static bool hi() { return true; }
};
template <>
struct xhip_bounds<signed char> {
  __device__ static signed char lo() { return -128; }
  __device__ static signed char hi() { return 127; }
};
template <>
struct xhip_bounds<unsigned char> {
  __device__ static unsigned char lo() { return 0; }
  __device__ static unsigned char hi() { return 255; }
};
template <>
struct xhip_bounds<int> {
  __device__ static int lo() { return -2147483647 - 1; }
  __device__ static int hi() { return 2147483647; }
};
template <>
struct xhip_bounds<unsigned int> {
  __device__ static unsigned int lo() { return 0u; }
  __device__ static unsigned int hi() { return 4294967295u; }
};
template <>
struct xhip_bounds<long long> {
  __device__ static long long lo() { return -9223372036854775807LL - 1; }
  __device__ static long long hi() { return 9223372036854775807LL; }
};
template <>
struct xhip_bounds<unsigned long long> {
  __device__ static unsigned long long lo() { return 0ull; }
  __device__ static unsigned long long hi() { return 18446744073709551615ull; }
};

// Float math on any value type, through its real type (never reached for an
// integer accumulator: the kinds that need it accumulate in double).
template <class A>
__device__ inline A xhip_exp_of(A v) {
  return (A)xhip_exp((typename xhip_real<A>::type)v);
}
template <class A>
__device__ inline A xhip_log_of(A v) {
  return (A)xhip_log((typename xhip_real<A>::type)v);
}
template <class A>
__device__ inline A xhip_sqrt_of(A v) {
  return (A)xhip_sqrt((typename xhip_real<A>::type)v);
}
template <class A>
__device__ inline A xhip_abs_of(A v) {
  return xhip_lt(v, A(0)) ? A(A(0) - v) : v;  // keeps NaN; no `< 0` on unsigned
}

// How two partial results combine: 0 add, 1 max, 2 min, 3 multiply (max and
// min keep a NaN, as numpy's maximum / minimum do).
template <class A>
__device__ inline A xhip_combine(int how, A a, A b) {
  switch (how) {
    case 1: return xhip_max(a, b);
    case 2: return xhip_min(a, b);
    case 3: return A(a * b);
    default: return A(a + b);
  }
}

// Every thread's `value` combined over the block; all threads get the result.
// `scratch`: blockDim.x values; ends with a barrier, so it may be reused.
template <class A>
__device__ inline A xhip_block_reduce(int how, A value, A* scratch) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      scratch[threadIdx.x] =
          xhip_combine(how, scratch[threadIdx.x], scratch[threadIdx.x + s]);
    __syncthreads();
  }
  A result = scratch[0];
  __syncthreads();
  return result;
}

// The reduction `kind` of the n elements of x at `base` + the red dims'
// offsets, accumulated in A; every thread gets it. One sweep, two for
// log-sum-exp (its max first). An empty reduction gives the kind's identity.
template <class E, class A>
__device__ inline A xhip_reduce_one(int kind, const typename E::storage* base,
                                    int red, const xhip_index* red_shape,
                                    xhip_index n, A* scratch) {
  const xhip_index* red_strides = red_shape + red;
  int how = kind == XHIP_REDUCE_MAX    ? 1
            : kind == XHIP_REDUCE_MIN  ? 2
            : kind == XHIP_REDUCE_PROD ? 3
                                       : 0;
  A shift = A(0);
  if (kind == XHIP_REDUCE_LOG_SUM_EXP) {
    A peak = xhip_bounds<A>::lo();
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      peak = xhip_max(peak, (A)E::load(base[xhip_offset(j, red, red_shape, red_strides)]));
    peak = xhip_block_reduce(1, peak, scratch);
    // An infinite or NaN peak is the result itself (exp would give NaN); the
    // same in every thread, so the block leaves the row together.
    if (!(peak - peak == A(0))) return peak;
    shift = peak;
  }
  A acc = how == 1   ? xhip_bounds<A>::lo()
          : how == 2 ? xhip_bounds<A>::hi()
          : how == 3 ? A(1)
                     : A(0);
  for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
    A v = (A)E::load(base[xhip_offset(j, red, red_shape, red_strides)]);
    switch (kind) {
      case XHIP_REDUCE_L1: v = xhip_abs_of(v); break;
      case XHIP_REDUCE_L2:
      case XHIP_REDUCE_SUM_SQUARE: v = A(v * v); break;
      case XHIP_REDUCE_LOG_SUM_EXP: v = xhip_exp_of(A(v - shift)); break;
      default: break;
    }
    acc = xhip_combine(how, acc, v);
  }
  acc = xhip_block_reduce(how, acc, scratch);
  if (kind == XHIP_REDUCE_MEAN) acc = A(acc / (A)n);  // 0 / 0: NaN
  if (kind == XHIP_REDUCE_L2) acc = xhip_sqrt_of(acc);
  if (kind == XHIP_REDUCE_LOG_SUM_EXP) acc = A(xhip_log_of(acc) + shift);
  return acc;
}

// y[o] = reduction `kind` of x over the reduced dims, for each of the
// `outputs` kept positions o. meta: kept_shape[kept], kept_strides[kept] (of
// x), out_strides[kept], red_shape[red], red_strides[red] (of x); n = the
// product of red_shape. Mean, L2 and log-sum-exp accumulate in
// xhip_real<value> (double for the integers), the others in the value type.
// Dynamic shared memory: blockDim.x accumulators (4 bytes each for float16
// and float32, 8 for the others: gpu_reduce.accumulator_bytes).
template <class E>
__device__ inline void xhip_reduce(int kind, const typename E::storage* x,
                                   typename E::storage* y, int kept, int red,
                                   const xhip_index* meta, xhip_index outputs,
                                   xhip_index n) {
  typedef typename E::value V;
  typedef typename xhip_real<V>::type F;
  extern __shared__ xhip_index xhip_reduce_scratch[];
  const xhip_index* kept_shape = meta;
  const xhip_index* red_shape = meta + 3 * kept;
  bool real = kind == XHIP_REDUCE_MEAN || kind == XHIP_REDUCE_L2 ||
              kind == XHIP_REDUCE_LOG_SUM_EXP;
  for (xhip_index o = blockIdx.x; o < outputs; o += gridDim.x) {
    const typename E::storage* base = x + xhip_offset(o, kept, kept_shape, meta + kept);
    xhip_index at = xhip_offset(o, kept, kept_shape, meta + 2 * kept);
    if (real) {
      F r = xhip_reduce_one<E, F>(kind, base, red, red_shape, n,
                                  (F*)xhip_reduce_scratch);
      if (threadIdx.x == 0) y[at] = E::store((V)r);
    } else {
      V r = xhip_reduce_one<E, V>(kind, base, red, red_shape, n,
                                  (V*)xhip_reduce_scratch);
      if (threadIdx.x == 0) y[at] = E::store(r);
    }
  }
}

// Whether (a, ia) beats (b, ib) for argmax (find_max) or argmin; ties go to
// the lower index, or the higher one under `last`. NaN beats any number under
// `nan_wins` (numpy's argmax, onnx's reference: Hardmax), else any number
// beats NaN: with the leading-NaN rule of xhip_arg_reduce, ONNX Runtime's
// ArgMax scan (cpu_reduce.arg_extreme), a NaN never taken, a leading one
// never left.
template <class V>
__device__ inline bool xhip_arg_better(int find_max, int last, int nan_wins, V a,
                                       xhip_index ia, V b, xhip_index ib) {
  if (ib < 0) return ia >= 0;
  if (ia < 0) return false;
  bool a_nan = a != a, b_nan = b != b;
  if (a_nan != b_nan) return nan_wins ? a_nan : b_nan;
  if (!a_nan && a != b) return find_max ? a > b : a < b;
  return last ? ia > ib : ia < ib;
}

// y[o] (int64) = index along the reduced axis (length n, stride `stride` in
// x) of the largest (find_max) or smallest element. meta: kept_shape[kept],
// kept_strides[kept] (of x), out_strides[kept]. An empty axis gives 0, and
// so does a NaN first element.
// Dynamic shared memory: blockDim.x int64 then blockDim.x values (4 bytes
// each for float16 and float32, 8 for the others; 16 * blockDim.x will do).
template <class E>
__device__ inline void xhip_arg_reduce(int find_max, int last,
                                       const typename E::storage* x,
                                       xhip_index* y, int kept,
                                       const xhip_index* meta, xhip_index outputs,
                                       xhip_index n, xhip_index stride) {
  typedef typename E::value V;
  extern __shared__ xhip_index xhip_arg_scratch[];
  xhip_index* indices = xhip_arg_scratch;
  V* values = (V*)(xhip_arg_scratch + blockDim.x);
  for (xhip_index o = blockIdx.x; o < outputs; o += gridDim.x) {
    const typename E::storage* base = x + xhip_offset(o, kept, meta, meta + kept);
    V best = V(0);
    xhip_index at = -1;
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      V v = E::load(base[j * stride]);
      if (xhip_arg_better(find_max, last, 0, v, j, best, at)) {
        best = v;
        at = j;
      }
    }
    indices[threadIdx.x] = at;
    values[threadIdx.x] = best;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s &&
          xhip_arg_better(find_max, last, 0, values[threadIdx.x + s],
                          indices[threadIdx.x + s], values[threadIdx.x],
                          indices[threadIdx.x])) {
        values[threadIdx.x] = values[threadIdx.x + s];
        indices[threadIdx.x] = indices[threadIdx.x + s];
      }
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      V first = n > 0 ? E::load(base[0]) : V(0);
      bool leading_nan = first != first;
      y[xhip_offset(o, kept, meta, meta + 2 * kept)] =
          indices[0] < 0 || leading_nan ? 0 : indices[0];
    }
    __syncthreads();
  }
}

// Layer normalization (rms == 0) or RMS normalization (rms != 0) of `rows`
// contiguous rows of length n: y = (x - mean) * inv_std * scale + bias, with
// inv_std = 1 / sqrt(mean((x - mean)^2) + epsilon) (RMS: no mean, no bias),
// computed in A = float (float16, float32) or double (float64).
// scale (and bias, nullable) are contiguous rows of length n; mean and
// inv_std (nullable) get one A per row; epsilon comes as its double's bits
// (the launcher passes integers and pointers only). Two sweeps over each row: the
// mean first, then the squared deviations from it (exact where one sweep of
// sums and sums of squares cancels).
// Dynamic shared memory: blockDim.x values of A.
template <class E>
__device__ inline void xhip_layer_norm(
    const typename E::storage* x, const typename E::storage* scale,
    const typename E::storage* bias, typename E::storage* y,
    typename xhip_real<typename E::value>::type* mean,
    typename xhip_real<typename E::value>::type* inv_std, xhip_index rows,
    xhip_index n, long long epsilon_bits, int rms) {
  typedef typename E::value V;
  typedef typename xhip_real<V>::type A;
  extern __shared__ xhip_index xhip_norm_scratch[];
  A* scratch = (A*)xhip_norm_scratch;
  const A epsilon = (A)__longlong_as_double(epsilon_bits);
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    const typename E::storage* in = x + row * n;
    typename E::storage* out = y + row * n;
    A centre = A(0);
    if (!rms) {
      A total = A(0);
      for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) total += (A)E::load(in[j]);
      centre = xhip_block_reduce(0, total, scratch) / (A)n;
    }
    A squares = A(0);
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      A d = (A)E::load(in[j]) - centre;
      squares += d * d;
    }
    A var = xhip_block_reduce(0, squares, scratch) / (A)n;
    A inv = A(1) / xhip_sqrt(var + epsilon);
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
      A v = ((A)E::load(in[j]) - centre) * inv * (A)E::load(scale[j]);
      out[j] = E::store((V)(bias ? v + (A)E::load(bias[j]) : v));
    }
    if (threadIdx.x == 0) {
      if (mean) mean[row] = centre;
      if (inv_std) inv_std[row] = inv;
    }
  }
}

// Log-softmax (hard == 0) or hardmax (hard != 0) of `rows` contiguous rows of
// length n; one block per row. Log-softmax: (x - max) - log(sum(exp(x - max))),
// in float (float16, float32) or double. Hardmax: 1 at the first largest
// element (a NaN counts as the largest), 0 elsewhere. Dynamic shared memory:
// blockDim.x int64 then blockDim.x values (16 * blockDim.x will do).
template <class E>
__device__ inline void xhip_softmax_kind_rows(int hard, const typename E::storage* x,
                                              typename E::storage* y,
                                              xhip_index rows, xhip_index n) {
  typedef typename E::value V;
  typedef typename xhip_real<V>::type A;
  extern __shared__ xhip_index xhip_kind_scratch[];
  A* values = (A*)(xhip_kind_scratch + blockDim.x);
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    const typename E::storage* in = x + row * n;
    typename E::storage* out = y + row * n;
    if (hard) {
      A best = A(0);
      xhip_index at = -1;
      for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
        A v = (A)E::load(in[j]);
        if (xhip_arg_better(1, 0, 1, v, j, best, at)) {
          best = v;
          at = j;
        }
      }
      xhip_kind_scratch[threadIdx.x] = at;
      values[threadIdx.x] = best;
      __syncthreads();
      for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s &&
            xhip_arg_better(1, 0, 1, values[threadIdx.x + s],
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
        out[j] = E::store((V)(j == winner ? A(1) : A(0)));
      continue;
    }
    A peak = xhip_bounds<A>::lo();
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      peak = xhip_max(peak, (A)E::load(in[j]));
    peak = xhip_block_reduce(1, peak, values);
    A total = A(0);
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      total += xhip_exp((A)E::load(in[j]) - peak);
    // (x - max) - log(sum), not x - (max + log(sum)): far from 0, the sum
    // max + log(sum) rounds away what log(sum) adds (fuzz seed 226395)
    A log_total = xhip_log(xhip_block_reduce(0, total, values));
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      out[j] = E::store((V)(((A)E::load(in[j]) - peak) - log_total));
  }
}

// Softmax of `rows` contiguous rows of length n, each element times *scale
// first when `scale` (one element of the same type) is not null; one block
// per row, in float (float16) or double (float64): the types other than
// float32, whose kernel is xhip_kernels.h's xhip_softmax_rows_f32.
// Dynamic shared memory: blockDim.x values of A.
template <class E>
__device__ inline void xhip_softmax_rows(const typename E::storage* x,
                                         typename E::storage* y,
                                         const typename E::storage* scale,
                                         xhip_index rows, xhip_index n) {
  typedef typename E::value V;
  typedef typename xhip_real<V>::type A;
  extern __shared__ xhip_index xhip_softmax_scratch[];
  A* scratch = (A*)xhip_softmax_scratch;
  const A factor = scale ? (A)E::load(*scale) : A(1);
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    const typename E::storage* in = x + row * n;
    typename E::storage* out = y + row * n;
    A peak = xhip_bounds<A>::lo();
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      peak = xhip_max(peak, (A)E::load(in[j]) * factor);
    peak = xhip_block_reduce(1, peak, scratch);
    A total = A(0);
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      total += xhip_exp((A)E::load(in[j]) * factor - peak);
    A inverse = A(1) / xhip_block_reduce(0, total, scratch);
    // Recomputed, not stored: `out` may hold fewer bits than A (float16).
    for (xhip_index j = threadIdx.x; j < n; j += blockDim.x)
      out[j] = E::store((V)(xhip_exp((A)E::load(in[j]) * factor - peak) * inverse));
  }
}

// One instantiation of each per element type (the suffix), below.

// xhip_reduce (gpu_reduce.REDUCE_TYPES).
extern "C" __global__ void xhip_reduce_f16(int kind, const unsigned short* x, unsigned short* y,
    int kept, int red, const xhip_index* meta, xhip_index outputs, xhip_index n) {
  xhip_reduce<xhip_elem_f16>(kind, x, y, kept, red, meta, outputs, n);
}
extern "C" __global__ void xhip_reduce_f32(int kind, const float* x, float* y,
    int kept, int red, const xhip_index* meta, xhip_index outputs, xhip_index n) {
  xhip_reduce<xhip_elem<float>>(kind, x, y, kept, red, meta, outputs, n);
}
extern "C" __global__ void xhip_reduce_f64(int kind, const double* x, double* y,
    int kept, int red, const xhip_index* meta, xhip_index outputs, xhip_index n) {
  xhip_reduce<xhip_elem<double>>(kind, x, y, kept, red, meta, outputs, n);
}
extern "C" __global__ void xhip_reduce_i8(int kind, const signed char* x, signed char* y,
    int kept, int red, const xhip_index* meta, xhip_index outputs, xhip_index n) {
  xhip_reduce<xhip_elem<signed char>>(kind, x, y, kept, red, meta, outputs, n);
}
extern "C" __global__ void xhip_reduce_i32(int kind, const int* x, int* y,
    int kept, int red, const xhip_index* meta, xhip_index outputs, xhip_index n) {
  xhip_reduce<xhip_elem<int>>(kind, x, y, kept, red, meta, outputs, n);
}
extern "C" __global__ void xhip_reduce_i64(int kind, const long long* x, long long* y,
    int kept, int red, const xhip_index* meta, xhip_index outputs, xhip_index n) {
  xhip_reduce<xhip_elem<long long>>(kind, x, y, kept, red, meta, outputs, n);
}
extern "C" __global__ void xhip_reduce_u8(int kind, const unsigned char* x, unsigned char* y,
    int kept, int red, const xhip_index* meta, xhip_index outputs, xhip_index n) {
  xhip_reduce<xhip_elem<unsigned char>>(kind, x, y, kept, red, meta, outputs, n);
}
extern "C" __global__ void xhip_reduce_u32(int kind, const unsigned int* x, unsigned int* y,
    int kept, int red, const xhip_index* meta, xhip_index outputs, xhip_index n) {
  xhip_reduce<xhip_elem<unsigned int>>(kind, x, y, kept, red, meta, outputs, n);
}
extern "C" __global__ void xhip_reduce_u64(int kind, const unsigned long long* x, unsigned long long* y,
    int kept, int red, const xhip_index* meta, xhip_index outputs, xhip_index n) {
  xhip_reduce<xhip_elem<unsigned long long>>(kind, x, y, kept, red, meta, outputs, n);
}
extern "C" __global__ void xhip_reduce_i1(int kind, const unsigned char* x, unsigned char* y,
    int kept, int red, const xhip_index* meta, xhip_index outputs, xhip_index n) {
  xhip_reduce<xhip_elem_i1>(kind, x, y, kept, red, meta, outputs, n);
}

// xhip_arg_reduce (gpu_reduce.ARG_TYPES).
extern "C" __global__ void xhip_arg_reduce_f16(int find_max, int last,
    const unsigned short* x, xhip_index* y, int kept, const xhip_index* meta,
    xhip_index outputs, xhip_index n, xhip_index stride) {
  xhip_arg_reduce<xhip_elem_f16>(find_max, last, x, y, kept, meta, outputs, n, stride);
}
extern "C" __global__ void xhip_arg_reduce_f32(int find_max, int last,
    const float* x, xhip_index* y, int kept, const xhip_index* meta,
    xhip_index outputs, xhip_index n, xhip_index stride) {
  xhip_arg_reduce<xhip_elem<float>>(find_max, last, x, y, kept, meta, outputs, n, stride);
}
extern "C" __global__ void xhip_arg_reduce_f64(int find_max, int last,
    const double* x, xhip_index* y, int kept, const xhip_index* meta,
    xhip_index outputs, xhip_index n, xhip_index stride) {
  xhip_arg_reduce<xhip_elem<double>>(find_max, last, x, y, kept, meta, outputs, n, stride);
}
extern "C" __global__ void xhip_arg_reduce_i8(int find_max, int last,
    const signed char* x, xhip_index* y, int kept, const xhip_index* meta,
    xhip_index outputs, xhip_index n, xhip_index stride) {
  xhip_arg_reduce<xhip_elem<signed char>>(find_max, last, x, y, kept, meta, outputs, n, stride);
}
extern "C" __global__ void xhip_arg_reduce_i32(int find_max, int last,
    const int* x, xhip_index* y, int kept, const xhip_index* meta,
    xhip_index outputs, xhip_index n, xhip_index stride) {
  xhip_arg_reduce<xhip_elem<int>>(find_max, last, x, y, kept, meta, outputs, n, stride);
}
extern "C" __global__ void xhip_arg_reduce_i64(int find_max, int last,
    const long long* x, xhip_index* y, int kept, const xhip_index* meta,
    xhip_index outputs, xhip_index n, xhip_index stride) {
  xhip_arg_reduce<xhip_elem<long long>>(find_max, last, x, y, kept, meta, outputs, n, stride);
}
extern "C" __global__ void xhip_arg_reduce_u8(int find_max, int last,
    const unsigned char* x, xhip_index* y, int kept, const xhip_index* meta,
    xhip_index outputs, xhip_index n, xhip_index stride) {
  xhip_arg_reduce<xhip_elem<unsigned char>>(find_max, last, x, y, kept, meta, outputs, n, stride);
}
extern "C" __global__ void xhip_arg_reduce_u32(int find_max, int last,
    const unsigned int* x, xhip_index* y, int kept, const xhip_index* meta,
    xhip_index outputs, xhip_index n, xhip_index stride) {
  xhip_arg_reduce<xhip_elem<unsigned int>>(find_max, last, x, y, kept, meta, outputs, n, stride);
}
extern "C" __global__ void xhip_arg_reduce_u64(int find_max, int last,
    const unsigned long long* x, xhip_index* y, int kept, const xhip_index* meta,
    xhip_index outputs, xhip_index n, xhip_index stride) {
  xhip_arg_reduce<xhip_elem<unsigned long long>>(find_max, last, x, y, kept, meta, outputs, n, stride);
}

// xhip_layer_norm (gpu_reduce.FLOAT_TYPES): mean and inv_std in float or double.
extern "C" __global__ void xhip_layer_norm_f16(const unsigned short* x, const unsigned short* scale,
    const unsigned short* bias, unsigned short* y, float* mean, float* inv_std, xhip_index rows,
    xhip_index n, long long epsilon_bits, int rms) {
  xhip_layer_norm<xhip_elem_f16>(x, scale, bias, y, mean, inv_std, rows, n, epsilon_bits, rms);
}
extern "C" __global__ void xhip_layer_norm_f32(const float* x, const float* scale,
    const float* bias, float* y, float* mean, float* inv_std, xhip_index rows,
    xhip_index n, long long epsilon_bits, int rms) {
  xhip_layer_norm<xhip_elem<float>>(x, scale, bias, y, mean, inv_std, rows, n, epsilon_bits, rms);
}
extern "C" __global__ void xhip_layer_norm_f64(const double* x, const double* scale,
    const double* bias, double* y, double* mean, double* inv_std, xhip_index rows,
    xhip_index n, long long epsilon_bits, int rms) {
  xhip_layer_norm<xhip_elem<double>>(x, scale, bias, y, mean, inv_std, rows, n, epsilon_bits, rms);
}

// xhip_softmax_kind_rows (gpu_reduce.FLOAT_TYPES).
extern "C" __global__ void xhip_softmax_kind_rows_f16(int hard, const unsigned short* x,
    unsigned short* y, xhip_index rows, xhip_index n) {
  xhip_softmax_kind_rows<xhip_elem_f16>(hard, x, y, rows, n);
}
extern "C" __global__ void xhip_softmax_kind_rows_f32(int hard, const float* x,
    float* y, xhip_index rows, xhip_index n) {
  xhip_softmax_kind_rows<xhip_elem<float>>(hard, x, y, rows, n);
}
extern "C" __global__ void xhip_softmax_kind_rows_f64(int hard, const double* x,
    double* y, xhip_index rows, xhip_index n) {
  xhip_softmax_kind_rows<xhip_elem<double>>(hard, x, y, rows, n);
}

// xhip_softmax_rows: float16 and float64 (float32's is in xhip_kernels.h).
extern "C" __global__ void xhip_softmax_rows_f16(const unsigned short* x, unsigned short* y,
    const unsigned short* scale, xhip_index rows, xhip_index n) {
  xhip_softmax_rows<xhip_elem_f16>(x, y, scale, rows, n);
}
extern "C" __global__ void xhip_softmax_rows_f64(const double* x, double* y,
    const double* scale, xhip_index rows, xhip_index n) {
  xhip_softmax_rows<xhip_elem<double>>(x, y, scale, rows, n);
}
