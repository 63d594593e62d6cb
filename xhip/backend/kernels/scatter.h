// Scatters, Trilu, CumSum, CumProd and OneHot, for xhip/backend/gpu_scatter.py, on
// every element type: values that only move go as their bytes (`size` 1, 2,
// 4 or 8); arithmetic goes through xhip_read / xhip_write with the type codes
// of elementwise.ELEMENT_TYPES (`type`), rounded to the element type after
// each step (so a float32 sum is float32's, as on the CPU: double, then one
// rounding, is exact for one add or multiply of two floats).
//
// Scatters with a reduction (add, mul, max, min) are deterministic, without
// atomics: one thread owns each set of destinations that updates can share
// (a slice position for ScatterND, a line along the axis for
// ScatterElements) and applies its updates in order, as the CPU does.
// Reduction none has one thread per update element: ONNX leaves duplicate
// indices undefined there. An index outside its dim is skipped.

// The codes of SCATTER_CODES (gpu_scatter.py).
#define XHIP_SCATTER_NONE 0
#define XHIP_SCATTER_ADD 1
#define XHIP_SCATTER_MUL 2
#define XHIP_SCATTER_MAX 3
#define XHIP_SCATTER_MIN 4

__device__ inline void xhip_move(int size, void* dst, xhip_index at, const void* src,
                                 xhip_index from) {
  switch (size) {
    case 1: ((unsigned char*)dst)[at] = ((const unsigned char*)src)[from]; break;
    case 2: ((unsigned short*)dst)[at] = ((const unsigned short*)src)[from]; break;
    case 4: ((unsigned int*)dst)[at] = ((const unsigned int*)src)[from]; break;
    default:
      ((unsigned long long*)dst)[at] = ((const unsigned long long*)src)[from];
      break;
  }
}

__device__ inline void xhip_zero(int size, void* dst, xhip_index at) {
  switch (size) {
    case 1: ((unsigned char*)dst)[at] = 0; break;
    case 2: ((unsigned short*)dst)[at] = 0; break;
    case 4: ((unsigned int*)dst)[at] = 0; break;
    default: ((unsigned long long*)dst)[at] = 0; break;
  }
}

__device__ inline xhip_index xhip_read_index(int index_size, const void* p,
                                             xhip_index k) {
  return index_size == 4 ? (xhip_index)((const int*)p)[k]
                         : ((const xhip_index*)p)[k];
}

// `a how b` for two values of one type (`a` the destination, `b` the
// update): integers wrap around; max and min are ONNX Runtime's
// `a > b ? a : b` (`<`), so a NaN update makes the destination NaN and a NaN
// destination takes the update.
__device__ inline xhip_any xhip_any_combine(int how, xhip_any a, xhip_any b) {
  xhip_any r = a;
  if (a.kind == 0) {
    double x = a.f, y = b.f;
    switch (how) {
      case XHIP_SCATTER_ADD: r.f = x + y; break;
      case XHIP_SCATTER_MUL: r.f = x * y; break;
      case XHIP_SCATTER_MAX: r.f = x > y ? x : y; break;
      case XHIP_SCATTER_MIN: r.f = x < y ? x : y; break;
      default: r.f = y; break;
    }
  } else if (a.kind == 1) {
    unsigned long long x = (unsigned long long)a.i, y = (unsigned long long)b.i;
    switch (how) {
      case XHIP_SCATTER_ADD: r.i = (long long)(x + y); break;
      case XHIP_SCATTER_MUL: r.i = (long long)(x * y); break;
      case XHIP_SCATTER_MAX: r.i = a.i > b.i ? a.i : b.i; break;
      case XHIP_SCATTER_MIN: r.i = a.i < b.i ? a.i : b.i; break;
      default: r.i = b.i; break;
    }
  } else {
    unsigned long long x = a.u, y = b.u;
    switch (how) {
      case XHIP_SCATTER_ADD: r.u = x + y; break;
      case XHIP_SCATTER_MUL: r.u = x * y; break;
      case XHIP_SCATTER_MAX: r.u = x > y ? x : y; break;
      case XHIP_SCATTER_MIN: r.u = x < y ? x : y; break;
      default: r.u = y; break;
    }
  }
  return r;
}

__device__ inline void xhip_scatter_apply(int how, int type, int size, void* out,
                                          xhip_index at, const void* updates,
                                          xhip_index from) {
  if (how == XHIP_SCATTER_NONE) {
    xhip_move(size, out, at, updates, from);
    return;
  }
  xhip_any old = xhip_read(type, out, at);
  xhip_write(type, out, at, xhip_any_combine(how, old, xhip_read(type, updates, from)));
}

// ScatterND into `out` (already a copy of data): the m rows of `indices`
// (dense int64, k each) name slices of s elements (the dims from k on);
// `updates` is dense, m slices of s. meta: shape[rank] (of out),
// out_strides[rank]. serial: one thread per slice element j, walking the
// rows in order; else one thread per update element.
extern "C" __global__ void xhip_scatter_nd(int how, int type, int size, void* out,
                                           const xhip_index* indices,
                                           const void* updates, int rank, int k,
                                           const xhip_index* meta, xhip_index m,
                                           xhip_index s, int serial) {
  const xhip_index* shape = meta;
  const xhip_index* strides = meta + rank;
  xhip_index total = serial ? s : m * s;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index t = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += step) {
    xhip_index j = t % s;
    xhip_index first = serial ? 0 : t / s;
    xhip_index last = serial ? m : first + 1;
    xhip_index inner = xhip_offset(j, rank - k, shape + k, strides + k);
    for (xhip_index i = first; i < last; ++i) {
      xhip_index at = inner;
      bool inside = true;
      for (int d = 0; d < k; ++d) {
        xhip_index v = indices[i * k + d];
        if (v < 0) v += shape[d];
        if (v < 0 || v >= shape[d]) {
          inside = false;
          break;
        }
        at += v * strides[d];
      }
      if (inside) xhip_scatter_apply(how, type, size, out, at, updates, i * s + j);
    }
  }
}

// ScatterElements into `out` (already a copy of data): `indices` (dense,
// int32 or int64: index_size 4 or 8) and `updates` (dense) have one shape;
// its axis has n entries, `inner` elements follow each. A line is a position
// of the other dims (`lines` of them). meta: kept_shape[kept] (the shape
// without the axis), out_strides[kept] (the same dims of out); `dim` and
// `stride`: out's size and stride along the axis. serial: one thread per
// line, walking the axis in order; else one thread per update.
extern "C" __global__ void xhip_scatter_elements(
    int how, int type, int size, int index_size, void* out, const void* indices,
    const void* updates, int kept, const xhip_index* meta, xhip_index lines,
    xhip_index n, xhip_index inner, xhip_index dim, xhip_index stride,
    int serial) {
  xhip_index total = serial ? lines : lines * n;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index t = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += step) {
    xhip_index line, first, last;
    if (serial) {
      line = t;
      first = 0;
      last = n;
    } else {
      line = (t / (n * inner)) * inner + t % inner;
      first = (t / inner) % n;
      last = first + 1;
    }
    xhip_index outer = line / inner, q = line % inner;
    xhip_index base = xhip_offset(line, kept, meta, meta + kept);
    for (xhip_index p = first; p < last; ++p) {
      xhip_index u = (outer * n + p) * inner + q;
      xhip_index v = xhip_read_index(index_size, indices, u);
      if (v < 0) v += dim;
      if (v < 0 || v >= dim) continue;
      xhip_scatter_apply(how, type, size, out, base + v * stride, updates, u);
    }
  }
}

// Trilu of the last two dims of x into out: x where col - row >= k (upper)
// or <= k, else 0. meta: shape[rank], out_strides[rank], x_strides[rank].
extern "C" __global__ void xhip_trilu(int size, int upper, xhip_index k, void* out,
                                      const void* x, int rank,
                                      const xhip_index* meta, xhip_index n) {
  const xhip_index* shape = meta;
  xhip_index cols = shape[rank - 1], rows = shape[rank - 2];
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index diagonal = i % cols - (i / cols) % rows;
    bool keep = upper ? diagonal >= k : diagonal <= k;
    xhip_index at = xhip_offset(i, rank, shape, meta + rank);
    if (keep)
      xhip_move(size, out, at, x, xhip_offset(i, rank, shape, meta + 2 * rank));
    else
      xhip_zero(size, out, at);
  }
}

// CumSum (CumProd under `product`) along one axis (n elements, strides
// x_stride and out_stride), one thread per line of the other dims, summing
// (multiplying) in order (from the end under `reverse`); `exclusive` leaves
// the element itself out. meta:
// kept_shape[kept], x_strides[kept], out_strides[kept].
extern "C" __global__ void xhip_cumsum(int type, int exclusive, int reverse,
                                       int product, void* out, const void* x,
                                       int kept, const xhip_index* meta,
                                       xhip_index lines, xhip_index n,
                                       xhip_index x_stride,
                                       xhip_index out_stride) {
  int how = product ? XHIP_SCATTER_MUL : XHIP_SCATTER_ADD;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index line = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x;
       line < lines; line += step) {
    xhip_index xb = xhip_offset(line, kept, meta, meta + kept);
    xhip_index ob = xhip_offset(line, kept, meta, meta + 2 * kept);
    xhip_any acc = xhip_read(type, x, xb);
    acc.f = product ? 1.0 : 0.0;
    acc.i = product;
    acc.u = product;
    for (xhip_index t = 0; t < n; ++t) {
      xhip_index j = reverse ? n - 1 - t : t;
      xhip_any v = xhip_read(type, x, xb + j * x_stride);
      xhip_index at = ob + j * out_stride;
      if (exclusive) {
        xhip_write(type, out, at, acc);
        acc = xhip_any_combine(how, xhip_read(type, out, at), v);
      } else {
        xhip_write(type, out, at, xhip_any_combine(how, acc, v));
        acc = xhip_read(type, out, at);
      }
    }
  }
}

// OneHot: out (shape[rank], out_strides[rank] in meta) has the depth at its
// axis, `post` elements after it; indices (dense, type code index_type) has
// out's shape without the axis. values: [off, on], `values_stride` apart.
extern "C" __global__ void xhip_one_hot(int index_type, int size, void* out,
                                        const void* indices, const void* values,
                                        int rank, const xhip_index* meta,
                                        xhip_index n, xhip_index depth,
                                        xhip_index post, xhip_index values_stride) {
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index q = i % post, at = (i / post) % depth, pre = i / (post * depth);
    xhip_any v = xhip_read(index_type, indices, pre * post + q);
    xhip_index index = -1 - depth;  // matches nothing
    if (v.kind == 0) {
      if (v.f > (double)(-1 - depth) && v.f < (double)depth) index = (xhip_index)v.f;
    } else if (v.kind == 1) {
      index = v.i;
    } else if (v.u < (unsigned long long)depth) {
      index = (xhip_index)v.u;
    }
    if (index < 0) index += depth;
    xhip_move(size, out, xhip_offset(i, rank, meta, meta + rank), values,
              index == at ? values_stride : 0);
  }
}
