// TopK (float32 values, int64 indices), for xhip/backend/gpu_topk.py. One
// block per row (grid-stride over the rows); threads cooperate through shared
// memory and __syncthreads only: no warp-size assumption. blockDim.x must be
// a power of two.
//
// The order is total: with `largest`, larger values first, else smaller
// first; equal values by lower index; NaN counts as larger than any number
// (numpy's sort order), as in cpu_topk.py.

// Whether (a, ia) comes before (b, ib). An index < 0 is padding, after all.
__device__ inline bool xhip_topk_before(int largest, float a, xhip_index ia,
                                        float b, xhip_index ib) {
  if (ib < 0) return ia >= 0;
  if (ia < 0) return false;
  bool a_nan = a != a, b_nan = b != b;
  if (a_nan != b_nan) return largest ? a_nan : b_nan;
  if (!a_nan && a != b) return largest ? a > b : a < b;
  return ia < ib;
}

// For each of the `rows` rows (positions of the other dims), the first k of
// the n elements along the axis in the order above: values[r, j] and
// indices[r, j] for j < k. meta: kept_shape[kept], then the kept dims'
// strides of x, of values and of indices; x_stride, v_stride, i_stride: the
// strides along the axis (in elements).
//
// sort_size > 0 (a power of two >= n): the row is padded to sort_size and
// bitonic-sorted in shared memory; dynamic shared memory sort_size int64
// then sort_size floats. sort_size == 0: k selection passes, each the best
// element after the previous pick; dynamic shared memory blockDim.x int64
// then blockDim.x floats.
extern "C" __global__ void xhip_topk_f32(int largest, const float* x,
                                         float* values, xhip_index* indices,
                                         int kept, const xhip_index* meta,
                                         xhip_index rows, xhip_index n,
                                         xhip_index k, xhip_index x_stride,
                                         xhip_index v_stride, xhip_index i_stride,
                                         xhip_index sort_size) {
  extern __shared__ xhip_index xhip_topk_scratch[];
  const xhip_index* shape = meta;
  xhip_index size = sort_size > 0 ? sort_size : (xhip_index)blockDim.x;
  xhip_index* at = xhip_topk_scratch;
  float* val = (float*)(xhip_topk_scratch + size);
  for (xhip_index row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* in = x + xhip_offset(row, kept, shape, meta + kept);
    float* v_out = values + xhip_offset(row, kept, shape, meta + 2 * kept);
    xhip_index* i_out = indices + xhip_offset(row, kept, shape, meta + 3 * kept);
    if (sort_size > 0) {
      for (xhip_index j = threadIdx.x; j < sort_size; j += blockDim.x) {
        at[j] = j < n ? j : -1;
        val[j] = j < n ? in[j * x_stride] : 0.0f;
      }
      __syncthreads();
      for (xhip_index span = 2; span <= sort_size; span <<= 1) {
        for (xhip_index half = span >> 1; half > 0; half >>= 1) {
          for (xhip_index t = threadIdx.x; t < sort_size / 2; t += blockDim.x) {
            xhip_index i = 2 * half * (t / half) + t % half;
            xhip_index l = i + half;
            bool up = (i & span) == 0;
            bool swap = up ? xhip_topk_before(largest, val[l], at[l], val[i], at[i])
                           : xhip_topk_before(largest, val[i], at[i], val[l], at[l]);
            if (swap) {
              float tv = val[i];
              val[i] = val[l];
              val[l] = tv;
              xhip_index ti = at[i];
              at[i] = at[l];
              at[l] = ti;
            }
          }
          __syncthreads();
        }
      }
      for (xhip_index j = threadIdx.x; j < k; j += blockDim.x) {
        v_out[j * v_stride] = val[j];
        i_out[j * i_stride] = at[j];
      }
      __syncthreads();
      continue;
    }
    float prev = 0.0f;
    xhip_index prev_at = -1;
    for (xhip_index r = 0; r < k; ++r) {
      float best = 0.0f;
      xhip_index best_at = -1;
      for (xhip_index j = threadIdx.x; j < n; j += blockDim.x) {
        float v = in[j * x_stride];
        if ((prev_at < 0 || xhip_topk_before(largest, prev, prev_at, v, j)) &&
            xhip_topk_before(largest, v, j, best, best_at)) {
          best = v;
          best_at = j;
        }
      }
      at[threadIdx.x] = best_at;
      val[threadIdx.x] = best;
      __syncthreads();
      for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s &&
            xhip_topk_before(largest, val[threadIdx.x + s], at[threadIdx.x + s],
                             val[threadIdx.x], at[threadIdx.x])) {
          val[threadIdx.x] = val[threadIdx.x + s];
          at[threadIdx.x] = at[threadIdx.x + s];
        }
        __syncthreads();
      }
      prev = val[0];
      prev_at = at[0];
      if (threadIdx.x == 0) {
        v_out[r * v_stride] = prev;
        i_out[r * i_stride] = prev_at;
      }
      __syncthreads();
    }
  }
}
