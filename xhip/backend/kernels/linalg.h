// Det, for xhip/backend/gpu_linalg.py. Elements are read and written
// through xhip_read / xhip_write (any float type by its type code).

// The determinant of the dense n x n matrix `a` (row-major), factored in
// place: LU with partial pivoting (the first largest |pivot|, as LAPACK's
// getrf), a zero pivot column giving 0.
template <typename T>
__device__ inline T xhip_det_lu(T* a, xhip_index n) {
  T det = (T)1;
  for (xhip_index k = 0; k < n; ++k) {
    xhip_index p = k;
    T best = a[k * n + k] < (T)0 ? -a[k * n + k] : a[k * n + k];
    for (xhip_index i = k + 1; i < n; ++i) {
      T v = a[i * n + k] < (T)0 ? -a[i * n + k] : a[i * n + k];
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (best == (T)0) return (T)0;
    if (p != k) {
      for (xhip_index j = 0; j < n; ++j) {
        T t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
      det = -det;
    }
    T pivot = a[k * n + k];
    det *= pivot;
    for (xhip_index i = k + 1; i < n; ++i) {
      T f = a[i * n + k] / pivot;
      for (xhip_index j = k + 1; j < n; ++j) a[i * n + j] -= f * a[k * n + j];
    }
  }
  return det;
}

template <typename T>
__device__ inline void xhip_det_one(int type, void* out, const void* x, T* a,
                                    xhip_index ob, xhip_index xb, xhip_index n,
                                    xhip_index row_stride,
                                    xhip_index col_stride) {
  for (xhip_index i = 0; i < n; ++i)
    for (xhip_index j = 0; j < n; ++j)
      a[i * n + j] = (T)xhip_read(type, x, xb + i * row_stride + j * col_stride).f;
  xhip_any r;
  r.kind = 0;
  r.f = (double)xhip_det_lu<T>(a, n);
  r.i = 0;
  r.u = 0;
  xhip_write(type, out, ob, r);
}

// One thread per matrix m < count: x's matrix at batch position m (meta:
// batch_shape[batch], x_strides[batch], out_strides[batch]) copied into
// `work` (count * n * n doubles if `wide`, else floats) and factored there.
extern "C" __global__ void xhip_det(int type, int wide, void* out, const void* x,
                                    void* work, int batch, const xhip_index* meta,
                                    xhip_index count, xhip_index n,
                                    xhip_index row_stride,
                                    xhip_index col_stride) {
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index m = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x;
       m < count; m += step) {
    xhip_index xb = xhip_offset(m, batch, meta, meta + batch);
    xhip_index ob = xhip_offset(m, batch, meta, meta + 2 * batch);
    if (wide)
      xhip_det_one<double>(type, out, x, (double*)work + m * n * n, ob, xb, n,
                           row_stride, col_stride);
    else
      xhip_det_one<float>(type, out, x, (float*)work + m * n * n, ob, xb, n,
                          row_stride, col_stride);
  }
}
