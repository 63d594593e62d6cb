// ONNX Resize, for xhip/backend/gpu_resize.py: one thread per output element
// (grid-stride when the grid is smaller than the output), any strides. No
// shared memory, no warp-size assumption; index arithmetic in 64 bits.
//
// Resize is separable: along dim d, output position o reads taps[d] input
// positions with weights (cpu_resize.resize_taps computes them on the host,
// the same tables the CPU runtime applies). The output element at (o_0, ...)
// is the sum, over the tensor product of its dims' taps, of the product of
// the taps' weights times the input there. A dim that is not resized, and
// every dim under nearest, has one tap (weight 1).
//
// meta (int64): shape[rank], out_strides[rank], x_strides[rank], taps[rank],
//   start[rank], then the index table. Output position o of dim d has its
//   taps at entries start[d] + o * taps[d] + t (t < taps[d]) of the index
//   table (input positions along d, inside [0, size)) and of `weights`. An
//   index -1 in a position's first tap marks it outside the input
//   (tf_crop_and_resize): the element is *ext (in the output's type), as the
//   CPU runtime writes the extrapolation value.

// A resized element type: how it is stored, what its weights and sums are
// (float for float16 and float32, double for float64).
template <class T>
struct xhip_resize_elem {
  typedef T storage;
  typedef T real;
  __device__ static T load(T v) { return v; }
  __device__ static T store(T v) { return v; }
};
struct xhip_resize_elem_f16 {
  typedef unsigned short storage;
  typedef float real;
  __device__ static float load(unsigned short v) { return xhip_half_to_float(v); }
  __device__ static unsigned short store(float v) { return xhip_float_to_half(v); }
};

// Nearest (every dim one tap): a gather of each element's bytes.
template <class T>
__device__ inline void xhip_resize_nearest(T* out, const T* x, const T* ext,
                                           int rank, const xhip_index* meta,
                                           xhip_index n) {
  const xhip_index* shape = meta;
  const xhip_index* out_strides = meta + rank;
  const xhip_index* x_strides = meta + 2 * rank;
  const xhip_index* taps = meta + 3 * rank;
  const xhip_index* start = meta + 4 * rank;
  const xhip_index* table = meta + 5 * rank;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index linear = i, at = 0, from = 0;
    bool outside = false;
    for (int d = rank - 1; d >= 0; --d) {
      xhip_index o = linear % shape[d];
      linear /= shape[d];
      at += o * out_strides[d];
      xhip_index j = table[start[d] + o * taps[d]];
      if (j < 0)
        outside = true;
      else
        from += j * x_strides[d];
    }
    out[at] = outside ? *ext : x[from];
  }
}

// Linear and cubic (any taps): the weighted sum over the taps' product.
template <class E>
__device__ inline void xhip_resize(typename E::storage* out,
                                   const typename E::storage* x,
                                   const typename E::storage* ext, int rank,
                                   const xhip_index* meta,
                                   const typename E::real* weights,
                                   xhip_index n) {
  typedef typename E::real R;
  const xhip_index* shape = meta;
  const xhip_index* out_strides = meta + rank;
  const xhip_index* x_strides = meta + 2 * rank;
  const xhip_index* taps = meta + 3 * rank;
  const xhip_index* start = meta + 4 * rank;
  const xhip_index* table = meta + 5 * rank;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    // The one-tap dims fold into a base offset and weight; the others (at
    // most rank) are walked by an odometer `t` over their taps.
    xhip_index row[XHIP_MAX_RANK], count[XHIP_MAX_RANK], stride[XHIP_MAX_RANK];
    xhip_index t[XHIP_MAX_RANK];
    int walked = 0;
    xhip_index linear = i, at = 0, base = 0;
    R scale = (R)1;
    bool outside = false;
    for (int d = rank - 1; d >= 0; --d) {
      xhip_index o = linear % shape[d];
      linear /= shape[d];
      at += o * out_strides[d];
      xhip_index first = start[d] + o * taps[d];
      if (table[first] < 0) outside = true;
      if (taps[d] == 1) {
        base += table[first] * x_strides[d];
        scale *= weights[first];
      } else {
        row[walked] = first;
        count[walked] = taps[d];
        stride[walked] = x_strides[d];
        t[walked] = 0;
        ++walked;
      }
    }
    if (outside) {
      out[at] = *ext;
      continue;
    }
    R total = (R)0;
    for (;;) {
      xhip_index from = base;
      R w = scale;
      for (int k = 0; k < walked; ++k) {
        xhip_index e = row[k] + t[k];
        from += table[e] * stride[k];
        w *= weights[e];
      }
      total += w * E::load(x[from]);
      int k = 0;
      for (; k < walked; ++k) {
        if (++t[k] < count[k]) break;
        t[k] = 0;
      }
      if (k == walked) break;
    }
    out[at] = E::store(total);
  }
}

// One nearest kernel per element size in bytes: gpu_resize.NEAREST_KERNELS.
extern "C" __global__ void xhip_resize_nearest_1(unsigned char* out,
                                                 const unsigned char* x,
                                                 const unsigned char* ext,
                                                 int rank,
                                                 const xhip_index* meta,
                                                 xhip_index n) {
  xhip_resize_nearest(out, x, ext, rank, meta, n);
}
extern "C" __global__ void xhip_resize_nearest_2(unsigned short* out,
                                                 const unsigned short* x,
                                                 const unsigned short* ext,
                                                 int rank,
                                                 const xhip_index* meta,
                                                 xhip_index n) {
  xhip_resize_nearest(out, x, ext, rank, meta, n);
}
extern "C" __global__ void xhip_resize_nearest_4(unsigned int* out,
                                                 const unsigned int* x,
                                                 const unsigned int* ext,
                                                 int rank,
                                                 const xhip_index* meta,
                                                 xhip_index n) {
  xhip_resize_nearest(out, x, ext, rank, meta, n);
}
extern "C" __global__ void xhip_resize_nearest_8(unsigned long long* out,
                                                 const unsigned long long* x,
                                                 const unsigned long long* ext,
                                                 int rank,
                                                 const xhip_index* meta,
                                                 xhip_index n) {
  xhip_resize_nearest(out, x, ext, rank, meta, n);
}

// One interpolating kernel per float type: gpu_resize.INTERPOLATE_KERNELS.
extern "C" __global__ void xhip_resize_f16(unsigned short* out,
                                           const unsigned short* x,
                                           const unsigned short* ext, int rank,
                                           const xhip_index* meta,
                                           const float* weights, xhip_index n) {
  xhip_resize<xhip_resize_elem_f16>(out, x, ext, rank, meta, weights, n);
}
extern "C" __global__ void xhip_resize_f32(float* out, const float* x,
                                           const float* ext, int rank,
                                           const xhip_index* meta,
                                           const float* weights, xhip_index n) {
  xhip_resize<xhip_resize_elem<float> >(out, x, ext, rank, meta, weights, n);
}
extern "C" __global__ void xhip_resize_f64(double* out, const double* x,
                                           const double* ext, int rank,
                                           const xhip_index* meta,
                                           const double* weights,
                                           xhip_index n) {
  xhip_resize<xhip_resize_elem<double> >(out, x, ext, rank, meta, weights, n);
}
