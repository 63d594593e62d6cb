// NonZero (`hip.count_nonzero`, `hip.nonzero`), for xhip/backend/gpu_select.py.
// One block: thread t takes the t-th contiguous run of the n elements in
// row-major order, counts its non-zero ones, thread 0 turns the counts into
// each run's first output position (a prefix sum in shared memory: blockDim.x
// int64), and each thread writes its run's indices there, so they come out in
// row-major order with no sort. meta: shape[rank], then x's strides (a 0-D
// input comes as shape [1]). `count` (when not null) gets the total; `out`
// (when not null) the indices, out[d * out_row + j * out_col] the d-th
// coordinate of the j-th non-zero element. `half`: x holds float16 bits
// (stored as unsigned short), zero being +0 and -0.

template <typename T>
__device__ inline bool xhip_is_nonzero(T v, int half) {
  if (half) return ((unsigned short)v & 0x7fff) != 0;
  return v != (T)0;
}

template <typename T>
__device__ void xhip_nonzero(const T* x, int half, int rank,
                             const xhip_index* meta, xhip_index n,
                             xhip_index* count, xhip_index* out,
                             xhip_index out_row, xhip_index out_col) {
  extern __shared__ xhip_index xhip_nonzero_scratch[];
  const xhip_index* shape = meta;
  const xhip_index* strides = meta + rank;
  xhip_index chunk = (n + blockDim.x - 1) / blockDim.x;
  xhip_index begin = threadIdx.x * chunk;
  xhip_index end = begin + chunk < n ? begin + chunk : n;
  xhip_index mine = 0;
  for (xhip_index i = begin; i < end; ++i)
    mine += xhip_is_nonzero(x[xhip_offset(i, rank, shape, strides)], half) ? 1 : 0;
  xhip_nonzero_scratch[threadIdx.x] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    xhip_index sum = 0;
    for (unsigned t = 0; t < blockDim.x; ++t) {
      xhip_index c = xhip_nonzero_scratch[t];
      xhip_nonzero_scratch[t] = sum;
      sum += c;
    }
    if (count) *count = sum;
  }
  __syncthreads();
  if (!out) return;
  xhip_index at = xhip_nonzero_scratch[threadIdx.x];
  for (xhip_index i = begin; i < end; ++i) {
    if (!xhip_is_nonzero(x[xhip_offset(i, rank, shape, strides)], half)) continue;
    xhip_index rest = i;
    for (int d = rank - 1; d >= 0; --d) {
      out[d * out_row + at * out_col] = rest % shape[d];
      rest /= shape[d];
    }
    ++at;
  }
}

// One kernel per storage type: float16 runs the u16 one with half = 1, bool
// the u8 one.

extern "C" __global__ void xhip_nonzero_f32(
    const float* x, int half, int rank, const xhip_index* meta, xhip_index n,
    xhip_index* count, xhip_index* out, xhip_index out_row, xhip_index out_col) {
  xhip_nonzero(x, half, rank, meta, n, count, out, out_row, out_col);
}

extern "C" __global__ void xhip_nonzero_f64(
    const double* x, int half, int rank, const xhip_index* meta, xhip_index n,
    xhip_index* count, xhip_index* out, xhip_index out_row, xhip_index out_col) {
  xhip_nonzero(x, half, rank, meta, n, count, out, out_row, out_col);
}

extern "C" __global__ void xhip_nonzero_i8(
    const signed char* x, int half, int rank, const xhip_index* meta, xhip_index n,
    xhip_index* count, xhip_index* out, xhip_index out_row, xhip_index out_col) {
  xhip_nonzero(x, half, rank, meta, n, count, out, out_row, out_col);
}

extern "C" __global__ void xhip_nonzero_i16(
    const short* x, int half, int rank, const xhip_index* meta, xhip_index n,
    xhip_index* count, xhip_index* out, xhip_index out_row, xhip_index out_col) {
  xhip_nonzero(x, half, rank, meta, n, count, out, out_row, out_col);
}

extern "C" __global__ void xhip_nonzero_i32(
    const int* x, int half, int rank, const xhip_index* meta, xhip_index n,
    xhip_index* count, xhip_index* out, xhip_index out_row, xhip_index out_col) {
  xhip_nonzero(x, half, rank, meta, n, count, out, out_row, out_col);
}

extern "C" __global__ void xhip_nonzero_i64(
    const long long* x, int half, int rank, const xhip_index* meta, xhip_index n,
    xhip_index* count, xhip_index* out, xhip_index out_row, xhip_index out_col) {
  xhip_nonzero(x, half, rank, meta, n, count, out, out_row, out_col);
}

extern "C" __global__ void xhip_nonzero_u8(
    const unsigned char* x, int half, int rank, const xhip_index* meta, xhip_index n,
    xhip_index* count, xhip_index* out, xhip_index out_row, xhip_index out_col) {
  xhip_nonzero(x, half, rank, meta, n, count, out, out_row, out_col);
}

extern "C" __global__ void xhip_nonzero_u16(
    const unsigned short* x, int half, int rank, const xhip_index* meta, xhip_index n,
    xhip_index* count, xhip_index* out, xhip_index out_row, xhip_index out_col) {
  xhip_nonzero(x, half, rank, meta, n, count, out, out_row, out_col);
}

extern "C" __global__ void xhip_nonzero_u32(
    const unsigned int* x, int half, int rank, const xhip_index* meta, xhip_index n,
    xhip_index* count, xhip_index* out, xhip_index out_row, xhip_index out_col) {
  xhip_nonzero(x, half, rank, meta, n, count, out, out_row, out_col);
}

extern "C" __global__ void xhip_nonzero_u64(
    const unsigned long long* x, int half, int rank, const xhip_index* meta, xhip_index n,
    xhip_index* count, xhip_index* out, xhip_index out_row, xhip_index out_col) {
  xhip_nonzero(x, half, rank, meta, n, count, out, out_row, out_col);
}

// NonMaxSuppression (`hip.nms_count`, `hip.nms`; float32 boxes and scores,
// dense), as ONNX Runtime selects: per batch and class, in turn, the best
// candidate left (highest score, ties to the lower box index) is kept and
// every candidate its IoU with it exceeds the threshold is removed, until
// max_out are kept or none is left. One block, its threads cooperating
// through shared memory (the best candidate: a tree over blockDim.x entries,
// blockDim.x a power of two; dynamic shared memory blockDim.x int64 then
// blockDim.x floats) and `removed`, n bytes of scratch. max_out, iou and
// score_min may be null (0, 0, no score threshold). `count` (when not null)
// gets the number kept; `out` (when not null) the (batch, class, box) rows.

__device__ inline void xhip_nms_corners(const float* b, int center, float* c) {
  if (center) {
    float half_w = b[2] / 2.0f, half_h = b[3] / 2.0f;
    c[0] = b[0] - half_w;
    c[1] = b[1] - half_h;
    c[2] = b[0] + half_w;
    c[3] = b[1] + half_h;
  } else {
    c[0] = b[1] < b[3] ? b[1] : b[3];
    c[1] = b[0] < b[2] ? b[0] : b[2];
    c[2] = b[1] < b[3] ? b[3] : b[1];
    c[3] = b[0] < b[2] ? b[2] : b[0];
  }
}

// Whether the kept box `a` suppresses `b`: their IoU is above `threshold`
// (no overlap, or an empty box, never suppresses), in ONNX Runtime's order
// of float operations.
__device__ inline bool xhip_nms_suppresses(const float* a_box, const float* b_box,
                                           int center, float threshold) {
  float a[4], b[4];
  xhip_nms_corners(a_box, center, a);
  xhip_nms_corners(b_box, center, b);
  float ix0 = a[0] > b[0] ? a[0] : b[0], iy0 = a[1] > b[1] ? a[1] : b[1];
  float ix1 = a[2] < b[2] ? a[2] : b[2], iy1 = a[3] < b[3] ? a[3] : b[3];
  if (!(ix1 > ix0) || !(iy1 > iy0)) return false;
  float inter = (ix1 - ix0) * (iy1 - iy0);
  float area_a = (a[2] - a[0]) * (a[3] - a[1]);
  float area_b = (b[2] - b[0]) * (b[3] - b[1]);
  float uni = area_a + area_b - inter;
  if (!(inter > 0.0f) || !(area_a > 0.0f) || !(area_b > 0.0f) || !(uni > 0.0f))
    return false;
  return inter / uni > threshold;
}

extern "C" __global__ void xhip_nms_f32(
    const float* boxes, const float* scores, const xhip_index* max_out,
    const float* iou, const float* score_min, int center, xhip_index batches,
    xhip_index classes, xhip_index n, unsigned char* removed, xhip_index* count,
    xhip_index* out, xhip_index out_row, xhip_index out_col) {
  extern __shared__ xhip_index xhip_nms_scratch[];
  xhip_index* best_i = xhip_nms_scratch;
  float* best_s = (float*)(xhip_nms_scratch + blockDim.x);
  const unsigned t = threadIdx.x;
  const xhip_index limit = max_out ? max_out[0] : 0;
  const float threshold = iou ? iou[0] : 0.0f;
  xhip_index total = 0;
  for (xhip_index b = 0; b < batches; ++b) {
    const float* box = boxes + b * n * 4;
    for (xhip_index c = 0; c < classes; ++c) {
      const float* s = scores + (b * classes + c) * n;
      for (xhip_index i = t; i < n; i += blockDim.x)
        removed[i] = score_min ? !(s[i] > score_min[0]) : 0;
      __syncthreads();
      for (xhip_index kept = 0; kept < limit; ++kept) {
        xhip_index bi = -1;
        float bs = 0.0f;
        for (xhip_index i = t; i < n; i += blockDim.x)
          if (!removed[i] && (bi < 0 || s[i] > bs)) {
            bi = i;
            bs = s[i];
          }
        best_i[t] = bi;
        best_s[t] = bs;
        __syncthreads();
        for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
          if (t < half) {
            xhip_index oi = best_i[t + half];
            float os = best_s[t + half];
            xhip_index mi = best_i[t];
            if (oi >= 0 && (mi < 0 || os > best_s[t] || (os == best_s[t] && oi < mi))) {
              best_i[t] = oi;
              best_s[t] = os;
            }
          }
          __syncthreads();
        }
        xhip_index top = best_i[0];
        __syncthreads();
        if (top < 0) break;
        if (t == 0 && out) {
          out[total * out_row] = b;
          out[total * out_row + out_col] = c;
          out[total * out_row + 2 * out_col] = top;
        }
        ++total;
        for (xhip_index i = t; i < n; i += blockDim.x)
          if (!removed[i] &&
              (i == top || xhip_nms_suppresses(box + 4 * top, box + 4 * i, center, threshold)))
            removed[i] = 1;
        __syncthreads();
      }
    }
  }
  if (t == 0 && count) *count = total;
}
