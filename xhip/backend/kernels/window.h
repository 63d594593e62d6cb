// Transposed convolution's col2im and Lp pooling (gpu_window.py launches
// them). Layout N, C, then `rank` spatial dims (1 to XHIP_MAX_RANK - 2);
// strides in elements.

// col2im of one image of ConvTranspose, as a gather (no atomics): input
// position i with kernel tap t lands on output i * stride - pad_begin + t *
// dilation, so each output element sums the columns of the (i, t) that land
// on it, plus bias[m] (bias may be null). col[(m * K + tap) * P + p] is the
// GEMM's column matrix, K = prod(kernel), P = prod(in), tap and p row-major
// over the kernel and input dims. One thread per element of y (M, out...).
// `meta`:
//   M, in[rank], out[rank], kernel[rank], stride[rank], dilation[rank],
//   pad_begin[rank], y_stride[1 + rank] (channel, then spatial), bias_stride.
extern "C" __global__ void xhip_col2im_f32(const float* col, const float* bias,
                                           float* y, int rank,
                                           const xhip_index* meta,
                                           xhip_index n) {
  const xhip_index* in = meta + 1;
  const xhip_index* out = in + rank;
  const xhip_index* kernel = out + rank;
  const xhip_index* stride = kernel + rank;
  const xhip_index* dilation = stride + rank;
  const xhip_index* pad = dilation + rank;
  const xhip_index* y_stride = pad + rank;
  const xhip_index bias_stride = y_stride[1 + rank];
  xhip_index positions = 1, taps = 1;
  for (int d = 0; d < rank; ++d) {
    positions *= in[d];
    taps *= kernel[d];
  }
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (xhip_index)gridDim.x * blockDim.x) {
    xhip_index o[XHIP_MAX_RANK];
    xhip_index rest = i;
    for (int d = rank - 1; d >= 0; --d) {
      o[d] = rest % out[d];
      rest /= out[d];
    }
    const xhip_index m = rest;
    const float* rows = col + m * taps * positions;
    float total = 0.0f;
    for (xhip_index tap = 0; tap < taps; ++tap) {
      xhip_index t = tap, p = 0, weight = 1;
      bool hit = true;
      for (int d = rank - 1; d >= 0 && hit; --d) {
        xhip_index v = o[d] + pad[d] - (t % kernel[d]) * dilation[d];
        t /= kernel[d];
        if (v < 0 || v % stride[d] != 0 || v / stride[d] >= in[d]) {
          hit = false;
        } else {
          p += (v / stride[d]) * weight;
          weight *= in[d];
        }
      }
      if (hit) total += rows[tap * positions + p];
    }
    if (bias) total += bias[m * bias_stride];
    xhip_index y_at = m * y_stride[0];
    for (int d = 0; d < rank; ++d) y_at += o[d] * y_stride[1 + d];
    y[y_at] = total;
  }
}

// One thread per output element (grid-stride): `(sum |x|^p)^(1/p)` over the
// window's elements inside x (the padding adds nothing); p >= 1. `meta`:
//   N, C, in[rank], out[rank], kernel[rank], stride[rank], dilation[rank],
//   pad_begin[rank], x_stride[2 + rank], y_stride[2 + rank].
extern "C" __global__ void xhip_lp_pool_f32(const float* x, float* y, int p,
                                            int rank, const xhip_index* meta,
                                            xhip_index n) {
  const xhip_index channels = meta[1];
  const xhip_index* in = meta + 2;
  const xhip_index* out = in + rank;
  const xhip_index* kernel = out + rank;
  const xhip_index* stride = kernel + rank;
  const xhip_index* dilation = stride + rank;
  const xhip_index* pad = dilation + rank;
  const xhip_index* x_stride = pad + rank;
  const xhip_index* y_stride = x_stride + 2 + rank;
  const float power = (float)p;
  xhip_index taps = 1;
  for (int d = 0; d < rank; ++d) taps *= kernel[d];
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (xhip_index)gridDim.x * blockDim.x) {
    xhip_index o[XHIP_MAX_RANK];
    xhip_index rest = i;
    for (int d = rank - 1; d >= 0; --d) {
      o[d] = rest % out[d];
      rest /= out[d];
    }
    const xhip_index c = rest % channels, b = rest / channels;
    const xhip_index base = b * x_stride[0] + c * x_stride[1];
    float total = 0.0f;
    for (xhip_index tap = 0; tap < taps; ++tap) {
      xhip_index t = tap, offset = base;
      bool inside = true;
      for (int d = rank - 1; d >= 0; --d) {
        xhip_index at = o[d] * stride[d] - pad[d] + (t % kernel[d]) * dilation[d];
        t /= kernel[d];
        inside = inside && at >= 0 && at < in[d];
        offset += at * x_stride[2 + d];
      }
      if (!inside) continue;
      const float v = fabsf(x[offset]);
      total += p == 1 ? v : (p == 2 ? v * v : powf(v, power));
    }
    xhip_index y_at = b * y_stride[0] + c * y_stride[1];
    for (int d = 0; d < rank; ++d) y_at += o[d] * y_stride[2 + d];
    y[y_at] = p == 1 ? total : (p == 2 ? sqrtf(total) : powf(total, 1.0f / power));
  }
}
