// Convolution and pooling (gpu_conv.py launches them). Layout N, C, then
// `rank` spatial dims (1 to XHIP_MAX_RANK - 2); strides in elements.
// A window along spatial dim d starts at o * stride[d] - pad_begin[d] and
// takes kernel[d] taps dilation[d] apart.

// im2col of one image: col[(c * K + tap) * P + p] = x[c, o(p) * s - pb +
// t(tap) * dil], 0 in the padding. K = prod(kernel), P = prod(out); tap and
// p are row-major over the kernel and output dims. `meta`:
//   C, in[rank], out[rank], kernel[rank], stride[rank], dilation[rank],
//   pad_begin[rank], x_stride[1 + rank] (channel, then spatial).
extern "C" __global__ void xhip_im2col_f32(const float* x, float* col, int rank,
                                           const xhip_index* meta,
                                           xhip_index n) {
  const xhip_index* in = meta + 1;
  const xhip_index* out = in + rank;
  const xhip_index* kernel = out + rank;
  const xhip_index* stride = kernel + rank;
  const xhip_index* dilation = stride + rank;
  const xhip_index* pad = dilation + rank;
  const xhip_index* x_stride = pad + rank;
  xhip_index positions = 1, taps = 1;
  for (int d = 0; d < rank; ++d) {
    positions *= out[d];
    taps *= kernel[d];
  }
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (xhip_index)gridDim.x * blockDim.x) {
    xhip_index p = i % positions;
    xhip_index tap = (i / positions) % taps;
    xhip_index c = i / positions / taps;
    xhip_index offset = c * x_stride[0];
    bool inside = true;
    for (int d = rank - 1; d >= 0; --d) {
      xhip_index o = p % out[d];
      xhip_index t = tap % kernel[d];
      p /= out[d];
      tap /= kernel[d];
      xhip_index at = o * stride[d] - pad[d] + t * dilation[d];
      inside = inside && at >= 0 && at < in[d];
      offset += at * x_stride[1 + d];
    }
    col[i] = inside ? x[offset] : 0.0f;
  }
}

#define XHIP_POOL_MAX 0
#define XHIP_POOL_AVERAGE 1
#define XHIP_POOL_AVERAGE_WITH_PAD 2

// One thread per output element (grid-stride): max or average over its
// window. `indices` (may be null, max only): the flat index of the first
// maximum in a dense x, its spatial dims row-major, or column-major when
// `column_major`. `meta`:
//   N, C, in[rank], out[rank], kernel[rank], stride[rank], dilation[rank],
//   pad_begin[rank], pad_end[rank], x_stride[2 + rank], y_stride[2 + rank],
//   index_stride[2 + rank].
extern "C" __global__ void xhip_pool_f32(const float* x, float* y,
                                         long long* indices, int mode,
                                         int column_major, int rank,
                                         const xhip_index* meta, xhip_index n) {
  const xhip_index channels = meta[1];
  const xhip_index* in = meta + 2;
  const xhip_index* out = in + rank;
  const xhip_index* kernel = out + rank;
  const xhip_index* stride = kernel + rank;
  const xhip_index* dilation = stride + rank;
  const xhip_index* pad = dilation + rank;
  const xhip_index* pad_end = pad + rank;
  const xhip_index* x_stride = pad_end + rank;
  const xhip_index* y_stride = x_stride + 2 + rank;
  const xhip_index* i_stride = y_stride + 2 + rank;
  xhip_index taps = 1, image = 1;
  for (int d = 0; d < rank; ++d) {
    taps *= kernel[d];
    image *= in[d];
  }
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (xhip_index)gridDim.x * blockDim.x) {
    xhip_index o[XHIP_MAX_RANK];
    xhip_index rest = i;
    for (int d = rank - 1; d >= 0; --d) {
      o[d] = rest % out[d];
      rest /= out[d];
    }
    const xhip_index c = rest % channels, b = rest / channels;
    xhip_index base = b * x_stride[0] + c * x_stride[1];
    float best = -__int_as_float(0x7f800000);  // -inf
    xhip_index best_at = -1;
    float total = 0.0f;
    xhip_index count = 0;
    for (xhip_index tap = 0; tap < taps; ++tap) {
      xhip_index t = tap, offset = base, flat = 0, weight = 1;
      bool inside = true, padded = true;
      for (int d = rank - 1; d >= 0; --d) {
        xhip_index at = o[d] * stride[d] - pad[d] + (t % kernel[d]) * dilation[d];
        t /= kernel[d];
        inside = inside && at >= 0 && at < in[d];
        padded = padded && at >= -pad[d] && at < in[d] + pad_end[d];
        offset += at * x_stride[2 + d];
        if (column_major) {
          xhip_index lower = 1;
          for (int e = 0; e < d; ++e) lower *= in[e];
          flat += at * lower;
        } else {
          flat += at * weight;
          weight *= in[d];
        }
      }
      if (mode == XHIP_POOL_MAX) {
        if (!inside) continue;
        float v = x[offset];
        // The first maximum wins; a NaN beats everything, the first NaN stays.
        if (best_at < 0 || v > best || (v != v && best == best)) {
          best = v;
          best_at = flat;
        }
      } else {
        if (inside) total += x[offset];
        if (mode == XHIP_POOL_AVERAGE_WITH_PAD ? padded : inside) ++count;
      }
    }
    xhip_index y_at = b * y_stride[0] + c * y_stride[1];
    xhip_index i_at = b * i_stride[0] + c * i_stride[1];
    for (int d = 0; d < rank; ++d) {
      y_at += o[d] * y_stride[2 + d];
      i_at += o[d] * i_stride[2 + d];
    }
    if (mode == XHIP_POOL_MAX) {
      y[y_at] = best;
      if (indices) indices[i_at] = (b * channels + c) * image + best_at;
    } else {
      y[y_at] = count ? total / (float)count : __int_as_float(0x7fc00000);
    }
  }
}
